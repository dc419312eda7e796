"""The explorer's own record of what happened, independent of the engine's
budgets, and the invariants checked against it after every step."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.frames import DONE
from ..engine.rows import CONTINUE, RESOLVE
from .state import positions


@dataclass
class Problem:
    invariant: str
    message: str
    rules: tuple = ()
    expect: dict | None = None     # what the last step of the counterexample should give


class Watch:
    """A book is ``(immediates, opportunities, reactions, actions, answers,
    voided)``: per combatant, the counts the ruleset's invariants keep (4e:
    immediate actions since the end of its last turn, opportunity actions
    this turn; PF2: reactions since the start of its last turn, actions this
    turn); the (trigger, creature, kind, label) answers given; the frames
    lost or disrupted. The ruleset's ``explore.watch`` counts and checks its
    own limits; this class checks what holds for every ruleset."""

    def __init__(self, enc):
        self.ids = list(enc.fighters)
        self.index = {c: i for i, c in enumerate(self.ids)}
        self.side = {c: f.side for c, f in enc.fighters.items()}
        self.check = enc.ruleset.explore.watch
        self.voiding = enc.ruleset.stack_moves - {RESOLVE, CONTINUE}

    def initial(self) -> tuple:
        zeros = (0,) * len(self.ids)
        return (zeros, zeros, zeros, zeros, frozenset(), frozenset())

    def after(self, enc, data, verdict, book, serial_before):
        """The book after an allowed step, and the first invariant it breaks."""
        imm, opp, react, spent, answers, voided = (list(book[0]), list(book[1]),
                                                   list(book[2]), list(book[3]),
                                                   book[4], book[5])
        if enc.turn_serial != serial_before:
            opp = [0] * len(self.ids)
            spent = [0] * len(self.ids)
            react[self.index[enc.active]] = 0
        found, answers = self.check(self, enc, data, verdict, (imm, opp, react, spent),
                                    answers)
        problem = Problem(*found) if found else None
        if data["do"] in self.voiding:
            voided = voided | {verdict.target_id}
        problem = problem or _negative_budget(enc) or _void_resolved(enc, voided)
        book = (tuple(imm), tuple(opp), tuple(react), tuple(spent), answers, voided)
        return _prune(book, enc), problem

    def key(self, book, enc) -> tuple:
        pos = positions(enc)
        answers = frozenset(((pos.get(a[0][0], -1), a[0][1]),) + a[1:] for a in book[4])
        voided = frozenset(pos.get(fid, -1) for fid in book[5])
        return book[:4] + (answers, voided)


def _prune(book, enc) -> tuple:
    """Forget answers and voided frames whose window has closed."""
    live = {f.id for f in enc.stack} | set(enc.kept)
    answers = frozenset(a for a in book[4] if a[0][0] in live)
    voided = frozenset(fid for fid in book[5] if fid in live)
    return book[:4] + (answers, voided)


def _negative_budget(enc):
    for who, budgets in enc.budgets().items():
        for name, value in budgets.items():
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                return Problem("budget-below-zero", f"{who}'s {name} budget is {value}")
    return None


def _void_resolved(enc, voided):
    for entry in enc.log:
        if entry["event"] == DONE and entry["frame"] in voided:
            return Problem("void-frame-resolved",
                           f"{entry['frame']} resolved after it was lost or disrupted",
                           enc.ruleset.explore.void_rules)
    return None
