"""Exhaustive exploration of small encounters, with every invariant checked.

Vectors and random timelines only sample what the machine can reach. For a
few combatants and rounds the explorer walks all of it: breadth first over
every timeline built from an abstract alphabet of steps, checking every
invariant after every step and reporting the first broken one with the
shortest timeline that breaks it, written as a vector ``fsm check`` replays.

The alphabet: each turn action by each combatant (D&D 4e: a standard action
of one and of two attacks, a move of 2 squares that provokes everyone else,
a minor action, ready, a free action; Pathfinder: an action, a 2-action
activity presenting two similar triggers, a free action); each kind of
answer by each answering combatant to each trigger on the stack (and on
each of its triggers), to the trigger that closed last, or to nothing;
resolve, continue, lose or disrupt, an event, the end of the turn. A step
whose verdict is ``gm`` is also tried with ``"ruling": "deny"``.

The bounds keep the walk finite. Every step is played and checked, but the
state it leads to is expanded only within them: rounds up to ``rounds``; at
most ``depth`` frames above the turn, a frame that spends no budget (a free
action or answer, a no-action power, an event) only as the first of them;
answers by ``responders`` combatants at a time, every such set of
combatants walked in turn (the runs are independent, so they share the
CPUs). States are merged by a canonical picture (see :func:`canonical`).

The audit asks the table a second question in every reachable situation:
is each step kind decided by exactly one row or one refusal? A step the
engine cannot read (``StepError``) is structural and counted apart; a
situation no row decides, or two rows could decide, is a gap. Machine rows
(``close``, ``keep-open``, ``next-turn``) are audited as they settle the
stack: two firing at once, or timing that says "move" with no row to route
it, is a gap too.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import signal
import time
from collections import Counter
from operator import attrgetter
from dataclasses import dataclass, field, replace

from .encounter import Encounter, StepError
from .effects import INTERRUPTING
from .frames import (DONE, EVENT, TURN_KINDS, Fighter, Frame, fighter_values, frame_from,
                     frame_values, set_fighter)
from .lean import LeanEncounter
from .report import describe
from .rulesets import RULESETS
from .table import guard_names

SIDES = ("monsters", "heroes", "heroes", "monsters")
CLOSED = -1           # Move.target: the frame that left the stack last
KEPT = -2             # Move.target: KEPT - i is the i-th frame kept open off the stack

RESPONSES_4E = ("free-response", "no-action", "opportunity", "interrupt", "reaction",
                "readied")
RESPONSES_PF2 = ("reaction", "free-response")
IMMEDIATE_4E = frozenset({"interrupt", "reaction", "readied"})
# Frames that spend no budget: free actions and answers, no-action powers, events.
COSTLESS = frozenset({"free", "free-response", "no-action", "event"})


# -- the abstract alphabet ------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """One abstract step; ``target`` is a stack position, made a frame id
    only when the step is played."""

    do: str
    actor: str | None = None
    fields: tuple = ()
    target: int | None = None
    on: str | None = None
    ruling: str | None = None

    def render(self, enc) -> dict:
        data = {"do": self.do}
        if self.actor is not None:
            data["actor"] = self.actor
        for key, value in self.fields:
            data[key] = list(value) if isinstance(value, tuple) else value
        if self.target is not None:
            if self.target == CLOSED:
                data["to"] = enc.past_order[-1]
            elif self.target <= KEPT:
                data["to"] = list(enc.kept)[KEPT - self.target]
            else:
                data["to"] = enc.stack[self.target].id
        if self.on is not None:
            data["on"] = self.on
        if self.ruling is not None:
            data["ruling"] = self.ruling
        return data

    def denied(self) -> "Move":
        return Move(self.do, self.actor, self.fields, self.target, self.on, "deny")


def _turn_moves(ruleset: str, ids: list) -> list:
    """The turn's own actions, by every combatant (most are not their turn)."""
    out = []
    for actor in ids:
        others = tuple(c for c in ids if c != actor)
        if ruleset == "dnd4e":
            templates = [("standard", ()), ("standard", (("attacks", 2),)),
                         ("move", (("squares", 2), ("provokes", others))),
                         ("minor", ()), ("ready", ()), ("free", ())]
        else:
            templates = [("action", ()),
                         ("activity", (("cost", 2), ("triggers", ("a", "b")))),
                         ("free", ())]
        out.extend(Move(do, actor, fields) for do, fields in templates)
    return out


def _stack_moves(ruleset: str) -> list:
    void = "lose" if ruleset == "dnd4e" else "disrupt"
    return [Move("resolve"), Move("continue"), Move(void), Move("event"), Move("end-turn")]


class Alphabet:
    """Every move worth trying in a state: fixed moves plus answers to each
    trigger on the stack (and to the last closed one)."""

    def __init__(self, ruleset: str, ids: list, responders=None):
        self.responders = list(responders or ids)
        self.responses = RESPONSES_4E if ruleset == "dnd4e" else RESPONSES_PF2
        self.labelled = ruleset == "pf2e"
        self.fixed = _turn_moves(ruleset, ids) + _stack_moves(ruleset)

    def moves(self, enc) -> list:
        out = list(self.fixed)
        someone = self.responders[-1]
        for pos, frame in enumerate(enc.stack):
            labels = frame.labels if self.labelled and len(frame.labels) > 1 else (None,)
            for kind in self.responses:
                for actor in self.responders:
                    out.extend(Move(kind, actor, target=pos, on=label) for label in labels)
        for i in range(len(enc.kept)):
            for kind in self.responses:
                out.extend(Move(kind, actor, target=KEPT - i) for actor in self.responders)
        if enc.past_order:
            out.extend(Move(kind, someone, target=CLOSED) for kind in self.responses)
        if not enc.stack:
            out.extend(Move(kind, someone) for kind in self.responses)
        return out


# -- freezing, thawing and the canonical state -------------------------------------

def freeze(enc) -> tuple:
    """The encounter's data as immutable values (the machine is not copied)."""
    last = enc.past[enc.past_order[-1]] if enc.past_order else None
    return (enc.state, enc.round, enc.turn_index, enc.turn_serial, tuple(enc.turns),
            tuple(enc.order), tuple(map(frame_values, enc.stack)),
            tuple(enc.uses.items()), tuple(map(fighter_values, enc.fighters.values())),
            frame_values(last) if last is not None else None,
            tuple(map(frame_values, enc.kept.values())))


def thaw(enc, frozen) -> None:
    """Put a frozen state back into ``enc``; the log and older past frames
    are dropped (nothing a verdict reads), the frames kept open are not."""
    (enc.state, enc.round, enc.turn_index, enc.turn_serial, turns, order, frames, uses,
     fighters, last, kept) = frozen
    enc.turns = list(turns)
    enc.order = list(order)
    enc.set_stack([frame_from(v) for v in frames])
    enc.uses = dict(uses)
    for fighter, values in zip(enc.fighters.values(), fighters):
        set_fighter(fighter, values)
    enc.forget_history()
    enc.past, enc.past_order, enc.kept = {}, [], {}
    for values in kept:
        frame = frame_from(values)
        enc.kept[frame.id] = enc.past[frame.id] = frame
        enc.past_order.append(frame.id)
    if last is not None:
        frame = enc.kept.get(last[0]) or frame_from(last)
        enc.past[frame.id] = frame
        if frame.id in enc.past_order:
            enc.past_order.remove(frame.id)
        enc.past_order.append(frame.id)


# Frame slots that name or date a frame without changing what the rules allow.
_FRAME_NAMING = ("id", "name", "step", "turn", "parent", "closed_by")
_frame_kept = attrgetter(*(s for s in Frame.__slots__ if s not in _FRAME_NAMING))
# Fighter slots canonical() reduces; any other slot is kept as it is.
_FIGHTER_REDUCED = ("id", "side", "standard", "move", "minor", "actions", "immediate_turn",
                    "opportunity_turn", "free_turn", "free_count", "readied_turn",
                    "turns_started", "readied", "immediate_used", "reactions")
_fighter_rest = attrgetter(*(s for s in Fighter.__slots__ if s not in _FIGHTER_REDUCED))
# Frame kinds a guard or an effect tells apart; the others are "interrupting",
# "costless" (the bounds tell those apart) or "action".
_KINDS_READ = TURN_KINDS | {EVENT, "ready", "readied"}
# Guards that read which answers were given to a trigger (``enc.uses``).
_USES_GUARDS = {"one_reaction_per_trigger", "one_free_per_trigger", "similar_trigger"}


def canonical(enc, exact: bool = False, answerers=None) -> tuple:
    """What the rules can still tell apart.

    Always: frames by stack position (ids, names and step numbers dropped),
    turn serials reduced to "this turn or not", free actions counted up to
    the DM's limit, the action slots of the active combatant only (the
    others' are refilled before they can act), and, when only ``answerers``
    answer triggers, nobody else's answer budgets. Unless ``exact``, also
    what no guard or effect reads: frame kinds beyond the classes they test,
    the details of a finished frame beyond its outcome, the parent of a frame
    that cannot interrupt, what is readied beyond whether something is, and
    the answers given when no guard of the ruleset counts them.
    tests/test_explore.py checks on small encounters that states the reduced
    picture merges give every move the same verdict and successor.
    """
    pos = _positions(enc)
    shape = _exact_frame if exact else _frame_class
    frames = tuple(shape(f, pos) for f in enc.stack)
    kept = tuple(shape(f, pos) for f in enc.kept.values())
    fighters = tuple(_fighter_key(enc, f, exact, answerers is None or f.id in answerers)
                     for f in enc.fighters.values())
    return (enc.state, enc.round, enc.turn_index, tuple(enc.order), frames, kept,
            _uses_key(enc, pos, exact), fighters)


def _positions(enc) -> dict:
    """Frame id -> position: on the stack 0.., kept open off it -2, -3, ..."""
    pos = {f.id: i for i, f in enumerate(enc.stack)}
    for i, fid in enumerate(enc.kept):
        pos[fid] = KEPT - i
    return pos


def _exact_frame(f, pos) -> tuple:
    return (pos.get(f.parent, -1),) + _frame_kept(f)


def _frame_class(f, pos) -> tuple:
    kind = f.kind if f.kind in _KINDS_READ else "interrupting" if f.kind in INTERRUPTING \
        else "costless" if f.kind in COSTLESS else "action"
    if f.outcome is not None:
        return (f.owner, kind, f.provokes, f.labels, f.outcome,
                f.window_part == f.done, f.closed)
    parent = pos.get(f.parent, -1) if kind in ("interrupting", "readied") else None
    return (f.owner, kind, f.provokes, f.labels, None, f.parts, f.done, f.phase,
            f.interrupted, f.moving, parent, f.window_part)


_READS_USES: dict = {}


def _reads_uses(ruleset: str) -> bool:
    if ruleset not in _READS_USES:
        _READS_USES[ruleset] = bool(_USES_GUARDS & guard_names(ruleset))
    return _READS_USES[ruleset]


def _uses_key(enc, pos, exact) -> frozenset:
    if not exact and not _reads_uses(enc.ruleset.name):
        return frozenset()
    frames = {f.id: f for f in (*enc.stack, *enc.kept.values())}
    # only answers on a frame's occurrence in play can still limit anything
    return frozenset((pos[fid], actor, frozenset(used))
                     for (fid, occurrence, actor), used in enc.uses.items()
                     if fid in pos and frames[fid].occurrence == occurrence)


def _fighter_key(enc, f, exact, answers) -> tuple:
    limit = enc.options.get("free_actions_per_turn")
    serial = enc.turn_serial
    free_used = f.free_count if f.free_turn == serial else 0
    key = ((f.standard, f.move, f.minor, f.actions) if f.id == enc.active else None,
           min(free_used, limit) if limit is not None else 0,
           min(f.turns_started, 1))
    if answers:
        key += (f.opportunity_turn == serial, f.immediate_used, f.reactions,
                f.readied if exact else f.readied is not None)
    return key + _fighter_rest(f)


def stack_height(enc) -> int:
    return sum(1 for f in enc.stack if f.kind not in TURN_KINDS)


# -- invariants ----------------------------------------------------------------------

@dataclass
class Problem:
    invariant: str
    message: str
    rules: tuple = ()
    expect: dict | None = None     # what the last step of the counterexample should give


class Watch:
    """The explorer's own record of what happened, independent of the
    engine's budgets, and the invariants checked against it.

    A book is ``(immediates, opportunities, reactions, actions, answers,
    voided)``: per combatant, immediate actions since the end of its last
    turn, opportunity actions this turn, reactions since the start of its
    last turn and actions this turn; the (trigger, creature, kind, label)
    answers given; the frames lost or disrupted.
    """

    def __init__(self, enc):
        self.ids = list(enc.fighters)
        self.index = {c: i for i, c in enumerate(self.ids)}
        self.side = {c: f.side for c, f in enc.fighters.items()}
        self.dnd4e = enc.ruleset.name == "dnd4e"
        self.enemy_turns_only = enc.options.get("opportunity_limit_turns") == "enemy"
        # Outside encounters the budget holds only when an option says so; with
        # no budget there is nothing to count (and an unbounded count would
        # make every further reaction a new state).
        self.reaction_budget = (enc.options.get("mode", "encounter") == "encounter"
                                or enc.options.get("exploration_reactions") == "encounter")
        self.reactions_max = [f.reactions_max for f in enc.fighters.values()]
        self.actions_max = [f.actions_max for f in enc.fighters.values()]

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
        kind, actor = data["do"], data.get("actor")
        counters = (imm, opp, react, spent)
        if self.dnd4e:
            problem = self._dnd4e(enc, kind, actor, counters)
        else:
            problem, answers = self._pf2(enc, data, verdict, counters, answers)
        if kind in ("lose", "disrupt"):
            voided = voided | {verdict.target_id}
        problem = problem or _negative_budget(enc) or _void_resolved(enc, voided)
        book = (tuple(imm), tuple(opp), tuple(react), tuple(spent), answers, voided)
        return _prune(book, enc), problem

    def _dnd4e(self, enc, kind, actor, counters):
        imm, opp, _, _ = counters
        problem = None
        if kind in IMMEDIATE_4E or kind == "opportunity":
            if actor == enc.active:
                name = "immediate" if kind in IMMEDIATE_4E else "opportunity"
                problem = Problem(f"{name}-on-own-turn",
                                  f"{actor} took a {kind} on its own turn",
                                  ("4E-IMM-OWN-TURN",) if name == "immediate"
                                  else ("4E-OPP-OWN-TURN",))
        i = self.index.get(actor)
        if kind in IMMEDIATE_4E:
            imm[i] += 1
            if imm[i] > 1 and problem is None:
                problem = Problem("two-immediate-actions",
                                  f"{actor} took a second immediate action before the end "
                                  f"of its own turn", ("4E-IMM-ONCE",))
        if kind == "opportunity" and self._counts_opportunity(enc, actor):
            opp[i] += 1
            if opp[i] > 1 and problem is None:
                problem = Problem("two-opportunity-actions",
                                  f"{actor} took a second opportunity action during "
                                  f"{enc.active}'s turn", ("4E-OPP-ONCE",))
        if kind == "end-turn":
            imm[self.index[enc.active]] = 0
        return problem

    def _counts_opportunity(self, enc, actor) -> bool:
        return not self.enemy_turns_only or self.side[enc.active] != self.side[actor]

    def _pf2(self, enc, data, verdict, counters, answers):
        _, _, react, spent = counters
        kind, actor = data["do"], data.get("actor")
        problem = None
        i = self.index.get(actor)
        if kind == "reaction" and self.reaction_budget:
            react[i] += 1
            if react[i] > self.reactions_max[i]:
                problem = Problem("too-many-reactions",
                                  f"{actor} took {react[i]} reactions since the start of its "
                                  f"last turn (budget {self.reactions_max[i]})",
                                  ("PF2-REACTION-ONE",))
        if kind in ("reaction", "free-response"):
            target = enc.find(verdict.target_id) or enc.past.get(verdict.target_id)
            key = ((verdict.target_id, target.occurrence if target is not None else 0),
                   actor, "reaction" if kind == "reaction" else "free", data.get("on", ""))
            if key in answers and problem is None:
                problem = Problem("two-answers-on-one-trigger",
                                  f"{actor} gave a second {key[2]} answer to {key[0]}"
                                  + (f" on {key[3]}" if key[3] else ""),
                                  ("PF2-EXTRA-REACTIONS",) if kind == "reaction"
                                  else ("PF2-FREE-ONE-PER-TRIGGER",))
            answers = answers | {key}
        if kind in ("action", "activity"):
            spent[i] += data.get("cost", 1)
            if spent[i] > self.actions_max[i] and problem is None:
                problem = Problem("too-many-actions",
                                  f"{actor} spent {spent[i]} actions in one turn "
                                  f"(budget {self.actions_max[i]})", ("PF2-THREE-ACTIONS",))
        return problem, answers

    def key(self, book, enc) -> tuple:
        pos = _positions(enc)
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
                           ("4E-INTERRUPT-LOST", "PF2-DISRUPT"))
    return None


# -- the audit -----------------------------------------------------------------------

ROW, REFUSED, STRUCTURAL, UNDEFINED, AMBIGUOUS = (
    "row", "refused", "structural", "undefined", "ambiguous")


class _Audited:
    """Engine mixin: remembers what decided the last step and checks that
    machine rows (``close``) are routed by exactly one row."""

    decided = None
    routing_problem = None

    def step(self, data):
        self.decided = None
        self.routing_problem = None
        return super().step(data)

    def _decide(self, st, snap):
        self.decided = (self.state, st.kind, self._coverage(st))
        return super()._decide(st, snap)

    def _coverage(self, st) -> str:
        pair = (self.state, st.trigger)
        refusal = self._refusals.get(pair)
        rows = self._rows.get(pair) or ()
        if refusal is not None and rows:
            return AMBIGUOUS
        if refusal is not None:
            return REFUSED
        if not rows:
            return STRUCTURAL if st.responding and st.target is None else UNDEFINED
        if len(rows) > 1 and sum(1 for r in rows if self._could_fire(r, st)) > 1:
            return AMBIGUOUS
        return ROW

    def _could_fire(self, row, st) -> bool:
        return all(fn(self, st) is not False for fn, _ in row.guards)

    def _fire(self, trigger, st):
        """A machine row fires where at most one row's guards pass, and one
        does wherever a row's timing guards pass (its routing then decides)."""
        rows = self._rows.get((self.state, trigger)) or ()
        firing = sum(1 for r in rows if all(fn(self, st) is True for fn, _ in r.guards))
        timed = any(all(fn(self, st) is True for fn, _ in r.guards
                        if not getattr(fn, "structural", False)) for r in rows)
        if (firing > 1 or (timed and firing == 0)) and self.routing_problem is None:
            self.routing_problem = (self.state, trigger, firing)
        return super()._fire(trigger, st)


class AuditedLean(_Audited, LeanEncounter):
    pass


class AuditedEncounter(_Audited, Encounter):
    pass


ENGINES = {"lean": AuditedLean, "transitions": AuditedEncounter}


@dataclass
class Finding:
    kind: str                 # undefined or ambiguous
    phase: str
    step: str
    detail: str
    count: int = 0
    example: list | None = None   # the shortest timeline that reaches it


class Audit:
    """Counts, per (phase, step kind), what decided each step tried."""

    def __init__(self):
        self.counts = Counter()
        self.findings: dict = {}

    def record(self, phase, kind, verdict_class):
        self.counts[(phase, kind, verdict_class)] += 1

    def find(self, kind, phase, step, detail, path_fn):
        key = (kind, phase, step, detail)
        finding = self.findings.get(key)
        if finding is None:
            finding = self.findings[key] = Finding(kind, phase, step, detail,
                                                   example=path_fn())
        finding.count += 1

    def merge(self, other: "Audit") -> None:
        self.counts.update(other.counts)
        for key, finding in other.findings.items():
            mine = self.findings.get(key)
            if mine is None:
                self.findings[key] = finding
                continue
            mine.count += finding.count
            if len(finding.example or ()) < len(mine.example or ()):
                mine.example = finding.example

    @property
    def gaps(self) -> list:
        return list(self.findings.values())

    def table(self) -> dict:
        out: dict = {}
        for (phase, kind, cls), n in sorted(self.counts.items()):
            out.setdefault(phase, {}).setdefault(kind, {})[cls] = n
        return out


# -- the explorer --------------------------------------------------------------------

@dataclass
class Config:
    ruleset: str
    combatants: int = 3
    rounds: int = 2
    depth: int = 2
    responders: int | None = None     # answers come from at most this many combatants
    answerers: tuple | None = None    # the combatants who answer in one run
    exact: bool = False
    options: dict = field(default_factory=dict)
    engine: str = "lean"
    max_states: int | None = None
    max_levels: int | None = None     # stop after timelines this long


@dataclass
class Violation:
    problem: Problem
    path: list                # the timeline, as step dicts
    verdicts: list            # verdict of each step when replayed


@dataclass
class Report:
    config: Config
    states: int = 0
    transitions: int = 0
    steps: int = 0
    beyond: int = 0           # allowed steps that left the bounds (checked, not expanded)
    depth_reached: int = 0
    stack_reached: int = 0
    seconds: float = 0.0
    complete: bool = True
    runs: int = 0
    violation: Violation | None = None
    audit: Audit = field(default_factory=Audit)

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0


def combatants_for(cfg: Config) -> list:
    """c1..cN on alternating sides; in PF2 the last one has 2 reactions, so
    the one-reaction-per-trigger limit is reachable."""
    out = [{"id": f"c{i + 1}", "side": SIDES[i % len(SIDES)]} for i in range(cfg.combatants)]
    if cfg.ruleset == "pf2e":
        out[-1]["reactions"] = 2
    return out


class Explorer:
    """Breadth-first walk; ``run`` returns a :class:`Report`."""

    def __init__(self, cfg: Config, progress=None):
        self.cfg = cfg
        self.progress = progress
        self.combatants = combatants_for(cfg)
        self.enc = ENGINES[cfg.engine](cfg.ruleset, self.combatants, options=cfg.options)
        self.watch = Watch(self.enc)
        self.alphabet = Alphabet(cfg.ruleset, list(self.enc.fighters), cfg.answerers)
        self.report = Report(cfg)
        self.parents: list = []     # state index -> (parent index, move)
        self.seen: dict = {}

    # -- the walk --
    def run(self) -> Report:
        start = time.perf_counter()
        book = self.watch.initial()
        self._add(self._key(book), -1, None)
        frontier = [(0, freeze(self.enc), book)]
        limit = self.cfg.max_levels
        while frontier and self.report.violation is None and self.report.complete:
            if limit is not None and self.report.depth_reached >= limit:
                break
            frontier = self._level(frontier)
            if frontier:
                self.report.depth_reached += 1
        self.report.seconds = time.perf_counter() - start
        return self.report

    def _level(self, frontier) -> list:
        nxt = []
        for done, (index, frozen, book) in enumerate(frontier):
            self._expand(index, frozen, book, nxt)
            if self.report.violation is not None or not self.report.complete:
                break
            if self.progress is not None and done % 50 == 0:
                self.progress(self.report, done, len(frontier))
        return nxt

    def _expand(self, index, frozen, book, nxt):
        enc = self.enc
        thaw(enc, frozen)
        base = enc.fingerprint()
        clean = True
        for move in self.alphabet.moves(enc):
            if not clean:
                thaw(enc, frozen)
            clean = self._try(index, frozen, book, move, base, nxt)
            if self.report.violation is not None:
                return

    def _try(self, index, frozen, book, move, base, nxt) -> bool:
        """Play one move from the thawed state; True when the state is untouched."""
        enc = self.enc
        phase, data, serial = enc.state, move.render(enc), enc.turn_serial
        self.report.steps += 1
        try:
            verdict = enc.step(data)
        except StepError:
            self._audit_error(index, move, phase, data)
            return self._unchanged(index, move, base, "a step the engine refused "
                                   "as nonsense changed the encounter")
        except Exception as exc:  # the engine could not decide: a gap or a bug
            self._audit_crash(index, move, phase, data, exc)
            self._violate(index, move, Problem("engine-error",
                                               f"{type(exc).__name__}: {exc}"))
            return False
        self._audit_decided(index, move)
        if verdict.verdict == "rejected" or move.ruling == "deny":
            return self._unchanged(index, move, base, f"a {verdict.verdict} step "
                                   f"({verdict.reason}) with no effect changed the "
                                   f"encounter", verdict)
        self._arrive(index, book, move, data, verdict, serial, nxt)
        if verdict.verdict == "gm" and move.ruling is None:
            thaw(enc, frozen)
            return self._try(index, frozen, book, move.denied(), base, nxt)
        return False

    def _unchanged(self, index, move, base, message, verdict=None) -> bool:
        if self.enc.fingerprint() == base:
            return True
        rules = verdict.rules if verdict is not None else ()
        self._violate(index, move, Problem("rejected-step-changed-state", message, rules,
                                           expect=None))
        return False

    def _arrive(self, index, book, move, data, verdict, serial, nxt):
        enc = self.enc
        book, problem = self.watch.after(enc, data, verdict, book, serial)
        if problem is not None:
            problem.expect = problem.expect or {"verdict": "rejected"}
            self._violate(index, move, problem)
            return
        self.report.transitions += 1
        height = stack_height(enc)
        self.report.stack_reached = max(self.report.stack_reached, height)
        if not self._within_bounds(height):
            self.report.beyond += 1
            return
        key = self._key(book)
        if key in self.seen:
            return
        nxt.append((self._add(key, index, move), freeze(enc), book))
        if self.cfg.max_states and self.report.states >= self.cfg.max_states:
            self.report.complete = False

    def _within_bounds(self, height) -> bool:
        """Rounds up to ``rounds``, at most ``depth`` frames above the turn, and
        a frame that spends no budget only as the first of them."""
        enc = self.enc
        if enc.round > self.cfg.rounds or height > self.cfg.depth:
            return False
        above = [f for f in enc.stack if f.kind not in TURN_KINDS]
        return not any(f.kind in COSTLESS for f in above[1:])

    def _key(self, book) -> tuple:
        return (canonical(self.enc, self.cfg.exact, self.cfg.answerers),
                self.watch.key(book, self.enc))

    def _add(self, key, parent, move) -> int:
        index = len(self.parents)
        self.seen[key] = index
        self.parents.append((parent, move))
        self.report.states += 1
        return index

    # -- audit bookkeeping --
    def _audit_decided(self, index, move):
        decided = self.enc.decided
        if decided is None:
            return
        phase, kind, cls = decided
        self.report.audit.record(phase, kind, cls)
        self._audit_routing(index, move)
        if cls in (UNDEFINED, AMBIGUOUS):
            self.report.audit.find(cls, phase, kind, "table", lambda: self.path(index, move))

    def _audit_error(self, index, move, phase, data):
        if self.enc.decided is not None:
            self._audit_decided(index, move)
            return
        self.report.audit.record(phase, data["do"], STRUCTURAL)
        self._audit_routing(index, move)

    def _audit_crash(self, index, move, phase, data, exc):
        self._audit_routing(index, move)
        decided = self.enc.decided
        where = decided[0] if decided else phase
        self.report.audit.record(where, data["do"], UNDEFINED)
        self.report.audit.find(UNDEFINED, where, data["do"], type(exc).__name__,
                               lambda: self.path(index, move))

    def _audit_routing(self, index, move):
        problem = self.enc.routing_problem
        if problem is None:
            return
        phase, trigger, firing = problem
        cls = AMBIGUOUS if firing > 1 else UNDEFINED
        self.report.audit.find(cls, phase, trigger, f"{firing} machine rows fire",
                               lambda: self.path(index, move))

    # -- counterexamples --
    def _violate(self, index, move, problem):
        path = self.path(index, move)
        verdicts = replay_verdicts(self.cfg, self.combatants, path)
        self.report.violation = Violation(problem, path, verdicts)

    def path(self, index, move) -> list:
        """The timeline from the start to ``index`` then ``move``, as step dicts."""
        moves = [move]
        while index > 0:
            index, parent_move = self.parents[index]
            moves.append(parent_move)
        moves.reverse()
        enc = ENGINES[self.cfg.engine](self.cfg.ruleset, self.combatants,
                                       options=self.cfg.options)
        steps = []
        for m in moves:
            data = m.render(enc)
            steps.append(data)
            try:
                enc.step(data)
            except Exception:  # the last move may be the one that fails
                break
        return steps


def replay_verdicts(cfg, combatants, path) -> list:
    """The verdict (or error) of each step of ``path`` replayed from the start."""
    enc = ENGINES[cfg.engine](cfg.ruleset, combatants, options=cfg.options)
    out = []
    for data in path:
        try:
            out.append(enc.step(data).verdict)
        except Exception as exc:
            out.append(f"error: {type(exc).__name__}")
            break
    return out


def answerer_sets(cfg: Config) -> list:
    """Who answers triggers in each run: every set of ``responders`` combatants
    (all of them at once when ``responders`` is None or covers everyone)."""
    ids = [c["id"] for c in combatants_for(cfg)]
    k = cfg.responders
    if k is None or k >= len(ids):
        return [None]
    return [tuple(team) for team in itertools.combinations(ids, k)]


def _run_one(cfg: Config) -> Report:
    return Explorer(cfg).run()


def explore(cfg: Config, progress=None, jobs: int = 1) -> Report:
    """Explore every run of ``cfg`` (one per set of answerers) and merge them;
    with ``jobs`` > 1 the runs share that many processes."""
    runs = [replace(cfg, answerers=team) for team in answerer_sets(cfg)]
    total = Report(cfg)
    start = time.perf_counter()
    if jobs > 1 and len(runs) > 1:
        _explore_parallel(runs, total, progress, jobs)
    else:
        _explore_serial(runs, total, progress)
    total.seconds = time.perf_counter() - start
    return total


def _explore_serial(runs, total, progress):
    for number, run in enumerate(runs, 1):
        if total.violation is not None:      # only a shorter counterexample is of interest
            run = replace(run, max_levels=len(total.violation.path) - 1)
        step = None if progress is None else (
            lambda rep, done, size, n=number: progress(total, rep, n, len(runs), done, size))
        _merge(total, Explorer(run, step).run())


def _ignore_interrupts():
    """Pool workers leave Ctrl-C to the parent, which stops the pool and exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _explore_parallel(runs, total, progress, jobs):
    context = multiprocessing.get_context("fork")
    with context.Pool(min(jobs, len(runs)), initializer=_ignore_interrupts) as pool:
        for number, report in enumerate(pool.imap_unordered(_run_one, runs), 1):
            _merge(total, report)
            if progress is not None:
                progress(total, None, number, len(runs), 0, 0)


def _merge(total: Report, part: Report) -> None:
    for name in ("states", "transitions", "steps", "beyond"):
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.depth_reached = max(total.depth_reached, part.depth_reached)
    total.stack_reached = max(total.stack_reached, part.stack_reached)
    total.complete = total.complete and part.complete
    total.runs += 1
    if part.violation is not None and (total.violation is None or
                                       len(part.violation.path) < len(total.violation.path)):
        total.violation = part.violation
    total.audit.merge(part.audit)


# -- writing a counterexample ----------------------------------------------------------

def counterexample(report: Report, combatants: list) -> dict:
    """The violation as a vector: every step expects what the machine said,
    the last one what the invariant demands."""
    cfg, v = report.config, report.violation
    steps = []
    for i, (data, verdict) in enumerate(zip(v.path, v.verdicts)):
        step = dict(data)
        last = i == len(v.path) - 1
        if last and v.problem.expect:
            step["expect"] = dict(v.problem.expect)
        elif not verdict.startswith("error"):
            step["expect"] = {"verdict": verdict}
        steps.append(step)
    doc = {
        "format": 1,
        "id": f"explore-{cfg.ruleset}-{v.problem.invariant}",
        "ruleset": cfg.ruleset,
        "description": f"Found by fsm explore: {v.problem.message}.",
        "rules": list(v.problem.rules),
        "combatants": combatants,
        "steps": steps,
    }
    if cfg.options:
        doc["options"] = dict(cfg.options)
    return doc


def write_counterexample(report: Report, folder: str) -> str:
    doc = counterexample(report, combatants_for(report.config))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, doc["id"] + ".json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    return path


# -- reading the command line, reporting -------------------------------------------------

def parse_option(text: str, ruleset: str) -> tuple:
    """``name=value`` as the options of a scenario take it (ValueError if not)."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise ValueError(f"--option takes NAME=VALUE, not {text!r}")
    opt = RULESETS[ruleset].option(name)
    if opt is None:
        known = ", ".join(o.name for o in RULESETS[ruleset].options)
        raise ValueError(f"unknown option {name!r} for {ruleset} (known: {known})")
    value = None if raw == "null" else int(raw) if raw.isdigit() else raw
    problem = opt.check(value)
    if problem:
        raise ValueError(problem)
    return name, value


def check_config(cfg: Config) -> None:
    """Refuse bounds that make no sense (ValueError, one line)."""
    if cfg.ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {cfg.ruleset!r} (known: {', '.join(RULESETS)})")
    for name, low, high in (("combatants", 1, 6), ("rounds", 1, 5), ("depth", 1, 4)):
        value = getattr(cfg, name)
        if not low <= value <= high:
            raise ValueError(f"--{name} must be from {low} to {high}, not {value}")
    if cfg.responders is not None and cfg.responders < 1:
        raise ValueError(f"--responders must be at least 1, not {cfg.responders}")


class ProgressBar:
    """One line on a terminal, redrawn: which run, which level, how far."""

    WIDTH = 24

    def __init__(self, stream):
        self.stream = stream
        self.last = 0.0

    def __call__(self, total, run, number, runs, done, size):
        now = time.perf_counter()
        if run is not None and now - self.last < 0.1:
            return
        self.last = now
        states = total.states + (run.states if run is not None else 0)
        filled = int(self.WIDTH * done / size) if size else self.WIDTH
        level = f"level {run.depth_reached:>2}" if run is not None else "run done"
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                          f"run {number}/{runs} {level}  {states:,} states ")
        self.stream.flush()

    def close(self):
        self.stream.write("\r" + " " * 72 + "\r")
        self.stream.flush()


def finding_id(ruleset: str, finding: Finding) -> str:
    """The id a recorded gap carries in spec/divergences.yaml."""
    words = f"{ruleset} {finding.kind} {finding.phase} {finding.step}"
    return "GAP-" + "-".join(words.upper().replace("_", "-").split())


def recorded_gaps(root=None) -> set:
    """Ids under ``gaps:`` in spec/divergences.yaml (empty when absent)."""
    from .spec import default_root
    from .yamlsafe import project_yaml
    path = os.path.join(root or default_root(), "spec", "divergences.yaml")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as fh:
        doc = project_yaml(fh) or {}
    return {entry.get("id") for entry in doc.get("gaps") or ()}


def unrecorded_gaps(report: Report, recorded: set) -> list:
    ruleset = report.config.ruleset
    return [f for f in report.audit.gaps if finding_id(ruleset, f) not in recorded]


def report_json(report: Report, written: str | None = None) -> dict:
    cfg = report.config
    out = {
        "ruleset": cfg.ruleset, "combatants": cfg.combatants, "rounds": cfg.rounds,
        "depth": cfg.depth, "responders": cfg.responders, "options": cfg.options,
        "engine": cfg.engine, "runs": report.runs,
        "states": report.states, "transitions": report.transitions,
        "steps": report.steps, "beyond_bounds": report.beyond,
        "depth_reached": report.depth_reached, "stack_reached": report.stack_reached,
        "seconds": round(report.seconds, 3),
        "states_per_second": round(report.states_per_second, 1),
        "complete": report.complete, "violation": None,
    }
    if report.violation is not None:
        v = report.violation
        out["violation"] = {"invariant": v.problem.invariant, "message": v.problem.message,
                            "rules": list(v.problem.rules), "steps": v.path,
                            "verdicts": v.verdicts, "file": written}
    return out


def audit_json(report: Report, recorded: set) -> dict:
    ruleset = report.config.ruleset
    return {
        "table": report.audit.table(),
        "gaps": [{"id": finding_id(ruleset, f), "kind": f.kind, "phase": f.phase,
                  "step": f.step, "detail": f.detail, "count": f.count,
                  "recorded": finding_id(ruleset, f) in recorded, "example": f.example}
                 for f in report.audit.gaps],
    }


def render_text(report: Report, written: str | None, audit: bool, recorded: set) -> str:
    cfg = report.config
    who = "everyone" if cfg.responders is None or cfg.responders >= cfg.combatants \
        else f"{cfg.responders} at a time"
    lines = [
        f"{cfg.ruleset}: {cfg.combatants} combatants, {_plural(cfg.rounds, 'round')}, "
        f"depth {cfg.depth}, "
        f"answers by {who} ({_plural(report.runs, 'run')})",
        f"  {report.states:,} states, {report.transitions:,} transitions, "
        f"{report.steps:,} steps checked, timelines up to {report.depth_reached} steps, "
        f"stacks up to {report.stack_reached} frames",
        f"  {report.seconds:.1f} s, {report.states_per_second:,.0f} states/s"
        + ("" if report.complete else "  (stopped at --max-states: incomplete)"),
    ]
    if audit:
        lines += _audit_lines(report, recorded)
    if report.violation is None:
        lines.append("  ok: every invariant holds after every step")
    else:
        lines += _violation_lines(report.violation, written)
    return "\n".join(lines) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _audit_lines(report: Report, recorded: set) -> list:
    counts = Counter()
    for (_, _, cls), n in report.audit.counts.items():
        counts[cls] += n
    lines = [f"  audit of {sum(counts.values()):,} steps: {counts[ROW]:,} decided by a "
             f"table row, {counts[REFUSED]:,} by a refusal, {counts[STRUCTURAL]:,} "
             f"structural (StepError), {counts[UNDEFINED]:,} undefined, "
             f"{counts[AMBIGUOUS]:,} ambiguous"]
    for f in report.audit.gaps:
        gid = finding_id(report.config.ruleset, f)
        mark = "recorded" if gid in recorded else "NOT RECORDED"
        lines.append(f"  gap {gid} ({mark}): {f.kind} {f.step} in {f.phase} "
                     f"({f.detail}, {f.count}x); shortest: "
                     + " / ".join(_describe(d) for d in f.example or ()))
    if not report.audit.gaps:
        lines.append("  audit: every step kind in every reachable situation is decided by "
                     "one row or one refusal")
    return lines


def _violation_lines(v: Violation, written) -> list:
    lines = [f"  VIOLATION {v.problem.invariant}: {v.problem.message}"]
    for i, (data, verdict) in enumerate(zip(v.path, v.verdicts), 1):
        lines.append(f"    {i:>2}  {_describe(data):<40} {verdict}")
    if written:
        lines.append(f"  wrote {written} (replay it: fsm check {written})")
    return lines


def _describe(data: dict) -> str:
    ruling = data.get("ruling")
    return describe(data) + (f" (ruling {ruling})" if ruling else "")
