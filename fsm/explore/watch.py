"""The explorer's own record of what happened, independent of the engine's
budgets, and the invariants checked against it after every step."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.frames import RESOLVED
from ..engine.rows import CONTINUE, RESOLVE
from ..rulesets import EACH_TURN, OWN_TURN
from .state import positions


@dataclass
class Problem:
    invariant: str
    message: str
    rules: tuple = ()
    expect: dict | None = None     # what the last step of the counterexample should give


class Watch:
    """A book is ``(tallies, answers, voided)``: per tally the ruleset's
    record book declares (``Explore.tallies``: 4e's immediate actions since
    the end of one's last turn, PF2's reactions since the start of it, ...),
    a count per combatant; the (trigger, creature, kind, label) answers given;
    the frames lost or disrupted. The ruleset's ``explore.watch`` counts and
    checks its own limits; this class zeroes each tally when its
    :class:`fsm.rulesets.Tally` says, and checks what holds for every ruleset."""

    def __init__(self, enc):
        self.ids = list(enc.fighters)
        self.index = {c: i for i, c in enumerate(self.ids)}
        self.side = {c: f.side for c, f in enc.fighters.items()}
        self.check = enc.ruleset.explore.watch
        self.tallies = enc.ruleset.explore.tallies
        self.voiding = enc.ruleset.stack_moves - {RESOLVE, CONTINUE}

    def initial(self) -> tuple:
        zeros = (0,) * len(self.ids)
        return (tuple(zeros for _ in self.tallies), frozenset(), frozenset())

    def after(self, enc, data, verdict, book, serial_before):
        """The book after an allowed step, and the first invariant it breaks."""
        counts, answers, voided = book
        counts = {t.name: list(c) for t, c in zip(self.tallies, counts)}
        if enc.turn_serial != serial_before:
            for t in self.tallies:
                if t.reset == EACH_TURN:
                    counts[t.name] = [0] * len(self.ids)
                elif t.reset == OWN_TURN:
                    counts[t.name][self.index[enc.active]] = 0
        found, answers = self.check(self, enc, data, verdict, counts, answers)
        problem = Problem(*found) if found else None
        if data["do"] in self.voiding:
            voided = voided | {verdict.target_id}
        problem = problem or _negative_budget(enc) or _void_resolved(enc, voided)
        book = (tuple(tuple(c) for c in counts.values()), answers, voided)
        return _prune(book, enc), problem

    def key(self, book, enc) -> tuple:
        pos = positions(enc)
        counts, answers, voided = book
        return (counts, frozenset(((pos.get(a[0][0], -1), a[0][1]),) + a[1:] for a in answers),
                frozenset(pos.get(fid, -1) for fid in voided))


def _prune(book, enc) -> tuple:
    """Forget answers and voided frames whose window has closed."""
    counts, answers, voided = book
    live = {f.id for f in enc.stack} | set(enc.kept)
    return (counts, frozenset(a for a in answers if a[0][0] in live),
            frozenset(fid for fid in voided if fid in live))


def _negative_budget(enc):
    for who, budgets in enc.budgets().items():
        for name, value in budgets.items():
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                return Problem("budget-below-zero", f"{who}'s {name} budget is {value}")
    return None


def _void_resolved(enc, voided):
    for entry in enc.log:
        if entry["event"] == RESOLVED and entry["frame"] in voided:
            return Problem("void-frame-resolved",
                           f"{entry['frame']} resolved after it was lost or disrupted",
                           enc.ruleset.explore.void_rules)
    return None
