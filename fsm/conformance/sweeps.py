"""Sweeps: vectors that hold every budget's limit and refresh moment in
verdicts alone.

An engine that reports no facts is judged on verdicts and reason codes
only; a budget refreshed at the wrong moment (every creature's Reaction back
when a round starts, an immediate action back at the start of one's turn
instead of its end) must still show there. A sweep plays three combatants,
two on one side and one on the other, over three rounds, and at every
moment of every turn has every combatant *try* every answer the ruleset
has: to the turn's start, to the active combatant's action while it is
pending and once it has resolved, and to the turn's end; the active one
tries each of its turn's actions, twice. A try that the rules refuse
changes nothing and rides along; a try they allow spends what it spends,
and the next try of the same combatant shows whether it came back. So each
budget is tried at each moment, after an ally's turn and after an enemy's,
across turn and round boundaries, and the verdicts alone tell each refresh
moment from the others.

The sweeps differ by which answer is tried first (so that each answer, not
only the first that fits, spends its budget somewhere), by who starts the
round, and by option: one sweep per value of every option besides its
default. Every step expects its verdict and reason; the facts are expected
where each turn ends. ``fsm conformance --generate`` writes them beside the
covering vectors (``spec/vectors/generated/sweep-*.json``).
"""

from __future__ import annotations

import hashlib
import json

from ..engine import Encounter
from ..engine.frames import TURN_END, TURN_KINDS, TURN_START
from ..engine.rows import CONTINUE, END_TURN, EVENT, RESOLVE
from ..engine.turn import whose_turn
from ..errors import StepError
from ..io.scenario import FORMAT
from ..rulesets import GRID_STEPS, RULESETS, walk_path
from .fieldvalues import _fields_of_kind
from .recording import record

ROUNDS = 2
# two on one side, one on the other: everyone has an ally's and an enemy's turn
# between two of its own
PEOPLE = (("ayla", "heroes"), ("brom", "heroes"), ("grok", "monsters"))
MAX_SETTLE = 40        # resolves and continues that bring the stack down, at most
HAPPENS = ("allowed", "gm")      # a step the GM may allow happens unless denied


class _Sweep:
    """One sweep being played and written down."""

    def __init__(self, rs, order, answers, options, windows=("actions",), grid=False,
                 labels=(None,)):
        self.rs = rs
        self.labels = labels
        self.windows = windows
        self.grid = grid
        # the stack moves besides resolve and continue: a loss, a disruption...
        self.voiding = sorted(rs.stack_moves - {RESOLVE, CONTINUE})
        people = [{"id": cid, "side": side} for cid, side in PEOPLE]
        if grid:                  # on a line, each next to the one before
            for i, c in enumerate(people):
                c["at"] = [i, 0]
        adjust = rs.explore.combatants if rs.explore is not None else None
        self.combatants = adjust(people) if adjust is not None else people
        self.order = order
        self.answers = answers
        self.options = options
        self.enc = Encounter(rs, self.combatants, order, options)
        self.steps: list = []
        self.rules: set = set()
        self.turns = 0

    def play(self, data: dict, facts: bool = False) -> str | None:
        """Play one step and write it down with its expectations; the verdict
        (None when the step cannot be read here: not written)."""
        verdict = record(self.enc, self.steps, data, facts)
        if verdict is not None and verdict.verdict != "allowed":
            self.rules.update(verdict.rules)
        return verdict and verdict.verdict

    def settle(self) -> None:
        """Resolve (and continue) until nothing above the turn is unresolved."""
        for _ in range(MAX_SETTLE):
            top = self._top()
            if top is None:
                return
            kind = CONTINUE if top.between_parts else RESOLVE
            if self.play({"do": kind}) != "allowed":
                return

    def _top(self):
        for frame in reversed(self.enc.stack):
            if frame.outcome is None and frame.kind not in TURN_KINDS:
                return frame
        return None

    def answer_round(self, to: str | None, holding=None) -> None:
        """Every combatant (but ``holding``) tries every answer, in this
        sweep's order, to ``to`` (a frame id or a moment; None: the top of the
        stack); an answer that happens is resolved before the next try. With
        labels, each answer kind takes the labels in turn, one behind the one
        before: an answer of another kind under another label comes early."""
        n = len(self.labels)
        tries = [(kind, self.labels[(j + r) % n]) for r in range(n)
                 for j, kind in enumerate(self.answers)]
        for who in self.enc.order:
            if who == holding:
                continue
            for kind, label, fields in self._moving(tries):
                data = self._data(who, kind, fields)
                if to is not None:
                    data["to"] = to
                if label is not None:
                    data["on"] = label
                try:
                    left = self.enc.try_step(data).verdict == "gm"
                except StepError:
                    left = False
                if left:                  # the GM's to rule: denied first, then allowed
                    self.play(dict(data, ruling="deny"))
                if self.play(data) in HAPPENS:
                    self._down_to(to)

    def _moving(self, tries) -> list:
        """The tries, each answer that moves on the grid first with its
        path turned each of four ways (away from whoever it answers, too)."""
        out = []
        for kind, label in tries:
            if self.grid:
                for k, fields in self.rs.explore.grid_answers:
                    given = dict(fields)
                    if k != kind or GRID_STEPS not in given:
                        continue
                    for turn in _TURNS:
                        steps = tuple(turn(*step) for step in given[GRID_STEPS])
                        out.append((kind, label, tuple(
                            (f, steps if f == GRID_STEPS else v) for f, v in fields)))
            out.append((kind, label, ()))
        return out

    def _down_to(self, to) -> None:
        """Resolve what answers put above their trigger (not the trigger)."""
        for _ in range(MAX_SETTLE):
            top = self._top()
            if top is None or top.id == to or top.kind not in self.rs.answer_kinds:
                return
            kind = CONTINUE if top.between_parts else RESOLVE
            if self.play({"do": kind}) != "allowed":
                return

    def turn(self) -> None:
        enc = self.enc
        active = whose_turn(enc)
        if "moments" in self.windows:
            self.answer_round(TURN_START)
        others = tuple(c for c in enc.order if c != active)
        answered = False
        self.turns += 1
        moves = _dressed(self.rs, (self.rs.explore.grid_moves if self.grid
                                   else self.rs.explore.turn_moves)(active, others), others)
        start = self.turns % len(moves)           # each turn begins with another action
        for n, (kind, fields) in enumerate(moves[start:] + moves[:start]):
            if self.grid and n == 0 and "provokes" in _fields_of_kind(self.rs, kind):
                # with positions, every stated provocation: each other set of
                # those around, then what the positions show, which happens
                for who in _subsets(others):
                    if self.play(dict(self._data(active, kind, fields),
                                      provokes=list(who))) in HAPPENS:
                        self._answered(enc.stack[-1].id)
                        self.settle()
                        break
            for _ in range(2 if n == 0 else 1):       # the first one twice: its limit
                if self.play(self._data(active, kind, fields)) not in HAPPENS:
                    continue
                answered = True
                self._answered(enc.stack[-1].id)
                self.settle()
        if not answered:                          # nothing of the turn's: an event
            if self.play({"actor": active, "do": EVENT}) in HAPPENS:
                self._answered(enc.stack[-1].id)
        if self.grid:                             # and moved by something else
            words = self.rs.scene
            kind = words.forced_kinds[self.turns % len(words.forced_kinds)] \
                if words.forced_kinds else None
            back = -1 if self.turns % 2 else 1
            if kind is not None and self.play({"actor": active, "do": EVENT, "forced": kind,
                                               "path": walk_path(enc.fighters[active].at,
                                                             ((back, 0),))}) in HAPPENS:
                self._answered(enc.stack[-1].id)
            self.settle()
        self.settle()
        if "moments" in self.windows:   # the turn's start long after it, and the end
            self.answer_round("turn-start")     # of this turn before it (an earlier
            self.answer_round("turn-end")       # turn has ended: which end is meant?)
            self.settle()
        self.play({"do": END_TURN}, facts=True)
        if "moments" in self.windows:
            self.answer_round(TURN_END)
        self.settle()

    def pairs(self, index: int) -> None:
        """On each turn of the first in order, one ordered pair of its turn's
        steps, the first being its ``index``-th (the second also with each
        flag it takes): the first, then the second, each settled, then the
        ruleset's probes of what is left (a move of one square more than the
        movement left, then of all of it). The others' turns end at once."""
        enc = self.enc
        lead = enc.order[0]
        others = tuple(c for c in enc.order if c != lead)
        moves = self.rs.explore.turn_moves(lead, others)
        probes = self.rs.explore.limit_probes
        for first in moves[index:index + 1]:
            for second in _dressed(self.rs, moves):
                for kind, fields in (first, second):
                    if self.play(self._data(lead, kind, fields)) in HAPPENS:
                        self.settle()
                for data in probes(enc, lead) if probes is not None else ():
                    if self.play(data) in HAPPENS:
                        self.settle()
                self.settle()
                for _ in enc.order:
                    self.play({"do": END_TURN}, facts=True)
                    self.settle()
                self.turns += 1

    def _data(self, active, kind, fields) -> dict:
        data = {"actor": active, "do": kind}
        for key, value in fields:
            if key == GRID_STEPS:
                data["path"] = walk_path(self.enc.fighters[active].at, value)
            else:
                data[key] = list(value) if isinstance(value, tuple) else value
        return data

    def _answered(self, fid) -> None:
        """Everyone tries every answer to ``fid`` while each of its parts is
        pending and once it has resolved; the other stack moves (a loss, a
        disruption, a counter) are tried on it once its answers are down. One
        combatant besides the owner, another each turn, holds its answers
        back until after the loss (every other turn) or until the owner's
        event after the resolution (the other turns), so that an answer then
        still has its budget."""
        order = self.enc.order
        for _ in range(MAX_SETTLE):
            top = self._top()
            if top is None or top.id != fid:
                return
            if top.between_parts:
                if self.play({"do": CONTINUE}) != "allowed":
                    return
                continue
            if not top.pending:
                return
            owner = top.owner
            holder = order[self.turns % len(order)]
            holder = None if holder == owner else holder
            self.answer_round(fid, holding=holder)
            self._down_to(fid)
            for kind in self.voiding if self.turns % 2 else ():   # every other turn
                if self.play({"do": kind}) == "allowed":
                    self.answer_round(fid)          # the frame's part in play, still
                    self._down_to(fid)
                    return
            if self.play({"do": RESOLVE}) != "allowed":
                return
            if not self.turns % 2 and owner in self.enc.fighters:
                # the owner's event before the answers: an event closes no window
                if self.play({"actor": owner, "do": EVENT}) in HAPPENS:
                    self.play({"do": RESOLVE})
            self.answer_round(fid)
            self._down_to(fid)

    def vector(self, name: str) -> dict:
        if name.startswith("pairs-"):
            self.pairs(int(name.removeprefix("pairs-")) - 1)
        else:
            for _ in range(ROUNDS * len(self.order)):
                self.turn()
        digest = hashlib.sha256(json.dumps(self.steps, sort_keys=True).encode()).hexdigest()
        options = ", ".join(f"{k} {v}" for k, v in self.options.items()) or "default options"
        refresh = {rule for r in self.rs.rows if r.step in ("next-turn", END_TURN)
                   for rule in r.rules}
        return {
            "format": FORMAT,
            "id": f"sweep-{self.rs.name}-{name}",
            "ruleset": self.rs.name,
            "description": f"A sweep ({digest[:10]}): " + (
                f"{self.order[0]} takes its turn step number {name[6:]}, then each other "
                f"one, then moves one square more than the movement left and then all of "
                f"it, a turn each time; the others end their turns at once, so that each "
                f"pair of turn steps shows in verdicts what it leaves."
                if name.startswith("pairs-") else
                f"{len(self.order)} combatants over {ROUNDS} rounds, {self.order[0]} first, "
                f"{options}; at every moment everyone tries every answer "
                f"({', '.join(self.answers)}, in that order) and the active one each action "
                f"of its turn twice, so that every budget's limit and the moment it comes "
                f"back show in the verdicts alone."),
            "rules": sorted(self.rules | refresh),
            "options": self.options,
            "combatants": self.combatants,
            "initiative": list(self.order),
            "steps": self.steps,
        }


def _dressed(rs, moves, others=()) -> list:
    """The turn's moves, and each move of a kind that takes true/false
    fields again with each of them, and with all of them; an attack on one
    target again on everyone else."""
    out = list(moves)
    for kind, fields in moves:
        given = dict(fields)
        if "targets" in given and len(others) > 1:
            out.append((kind, tuple((k, tuple(others) if k == "targets" else v)
                                    for k, v in fields)))
    for kind, fields in moves:
        spec = rs.spec_of.get(kind)
        flags = [f for f in (spec.flags if spec is not None else ()) if f not in dict(fields)]
        if flags and not any(k in flags for k, _ in fields):
            subsets = [(f,) for f in flags] + ([tuple(flags)] if len(flags) > 1 else [])
            out += [(kind, fields + tuple((f, True) for f in sub)) for sub in subsets]
    return list(dict.fromkeys(out))


# a path turned a quarter at a time: right, back, left, as given
_TURNS = (lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
          lambda x, y: (x, y))


def _subsets(people) -> list:
    """Every subset of ``people``, the largest first."""
    out = [()]
    for p in people:
        out += [sub + (p,) for sub in out]
    return sorted(out, key=len, reverse=True)


def _option_variants(rs) -> list[tuple[str, dict]]:
    out = []
    for opt in rs.options:
        for value in opt.choices or (1,):
            if value != opt.default:
                out.append((f"{opt.name}-{value}".replace("_", "-"), {opt.name: value}))
    return out


def generate(rulesets=None) -> list[dict]:
    """Every sweep of every ruleset with an explorer (its turn moves): each
    answer tried first, with and without the turn's moments as triggers, at
    the default options; and each other option value, with the answers in
    their own order."""
    out = []
    ids = [cid for cid, _ in PEOPLE]
    for name, rs in sorted((rulesets or RULESETS).items()):
        if rs.explore is None:
            continue
        answers = list(rs.answers)
        runs = [(f"{lead}" + ("-moments" if moments else ""), {}, [lead], i + moments)
                for i, lead in enumerate(answers) for moments in (0, 1)]
        runs += [(variant, options, [answers[i % len(answers)]], i)
                 for i, (variant, options) in enumerate(_option_variants(rs))]
        if rs.explore.grid_moves is not None:       # on a line, allies beside each other
            runs += [(f"grid-{lead}", {}, [lead], i) for i, lead in enumerate(answers)]
        if rs.explore.labelled:      # every answer, each under two labels of one trigger
            runs.append(("labels", {}, answers, 0))
        pairs = len(rs.explore.turn_moves(ids[0], tuple(ids[1:])))
        runs += [(f"pairs-{i + 1}", {}, [], 0) for i in range(pairs)]
        for label, options, tried, rotation in runs:
            first = ids[rotation % len(ids)]
            order = ids[ids.index(first):] + ids[:ids.index(first)]
            windows = ("actions", "moments") if label.endswith("-moments") else ("actions",)
            sweep = _Sweep(rs, order, tried, options, windows, grid=label.startswith("grid-"),
                           labels=("a", "b") if label == "labels" else (None,))
            out.append(sweep.vector(label))
    return out


def coverage(vectors: list[dict]) -> dict:
    """ruleset -> how many sweeps, steps and turns (for COVERAGE.json)."""
    out: dict = {}
    for v in vectors:
        c = out.setdefault(v["ruleset"], {"vectors": 0, "steps": 0, "turns": 0})
        c["vectors"] += 1
        c["steps"] += len(v["steps"])
        c["turns"] += sum(1 for s in v["steps"] if s["do"] == END_TURN)
    return out
