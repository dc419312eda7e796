"""The walk: breadth first over every timeline built from an abstract
alphabet of steps, every invariant checked after every step, states merged
by their canonical picture.

The alphabet of steps is in :mod:`.alphabet`. A step whose verdict is
``gm`` is also tried with ``"ruling": "deny"``.

The bounds keep the walk finite. Every step is played and checked, but the
state it leads to is expanded only within them: rounds up to ``rounds``; at
most ``depth`` frames above the turn, a frame that spends no budget only as
the first of them; answers by ``responders`` combatants at a time, every
such set of combatants walked in turn (:mod:`.runs`). The states can be
split among owners, each expanding its own (:mod:`.parallel`, :mod:`.owner`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..engine import Encounter
from ..engine.frames import TURN_KINDS
from ..errors import StepError
from ..rulesets import get
from .alphabet import Alphabet
from .audit import AMBIGUOUS, STRUCTURAL, UNDEFINED, Audit, AuditObserver
from .state import canonical, freeze, stack_height, thaw
from .watch import Problem, Watch

SIDES = ("monsters", "heroes", "heroes", "monsters")


# -- the explorer --------------------------------------------------------------------

@dataclass
class Config:
    ruleset: object                   # a registered name, or a Ruleset value
    combatants: int = 3
    rounds: int = 2
    depth: int = 2
    responders: int | None = None     # answers come from at most this many combatants
    answerers: tuple | None = None    # the combatants who answer in one run
    exact: bool = False
    options: dict = field(default_factory=dict)
    engine: str = "lean"
    max_states: int | None = None     # stop each run once it has numbered this many states
    max_seconds: float | None = None  # stop the exploration once this much time has passed
    deadline: float | None = None     # time.monotonic() past which a run stops (from max_seconds)
    max_levels: int | None = None     # stop after timelines this long
    grid: bool = False                # combatants on a line; moves with paths (a scene)

    @property
    def rules(self):
        """The :class:`~fsm.rulesets.Ruleset` explored (None when unknown)."""
        return get(self.ruleset)

    @property
    def name(self) -> str:
        rules = self.rules
        return rules.name if rules is not None else str(self.ruleset)


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
    reopened: int = 0         # states met again in an earlier round, expanded again
    depth_reached: int = 0
    stack_reached: int = 0
    seconds: float = 0.0
    complete: bool = True
    stopped: str | None = None  # the limit a run stopped at (--max-states N, --max-seconds S)
    runs: int = 0
    violation: Violation | None = None
    audit: Audit = field(default_factory=Audit)
    expanded: list = field(default_factory=list)  # states each owner expanded (.owner)
    exchanged: int = 0        # bytes of successors sent between owners
    where: str | None = None  # where the owners ran: local processes, Dask at ADDRESS

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0


def combatants_for(cfg: Config) -> list:
    """c1..cN on alternating sides, as the ruleset adjusts them (PF2: the last
    one has 2 reactions, so the one-reaction-per-trigger limit is reachable)."""
    out = [{"id": f"c{i + 1}", "side": SIDES[i % len(SIDES)]} for i in range(cfg.combatants)]
    if cfg.grid:
        for i, c in enumerate(out):      # on a line, each next to the one before
            c["at"] = [i, 0]
    adjust = cfg.rules.explore.combatants
    return adjust(out) if adjust is not None else out


def deadline_of(cfg: Config) -> float | None:
    """When an exploration starting now must stop (None: no time limit)."""
    return None if cfg.max_seconds is None else time.monotonic() + cfg.max_seconds


def time_limit(cfg: Config) -> str:
    """The time limit as a report names what stopped it."""
    return f"--max-seconds {cfg.max_seconds:g}"


def make_encounter(cfg: Config, combatants, observer=None) -> Encounter:
    """The encounter the explorer drives: ``cfg.engine`` is the dispatcher
    (lean by default, transitions to compare)."""
    return Encounter(cfg.rules, combatants, options=cfg.options, dispatcher=cfg.engine,
                     observer=observer)


class Explorer:
    """Breadth-first walk; ``run`` returns a :class:`Report`."""

    def __init__(self, cfg: Config, progress=None):
        self.cfg = cfg
        self.progress = progress
        self.combatants = combatants_for(cfg)
        self.observer = AuditObserver()
        self.enc = make_encounter(cfg, self.combatants, self.observer)
        self.enc.wording = False    # no verdict of the walk is read by people
        self.watch = Watch(self.enc)
        self.alphabet = Alphabet(cfg.rules, list(self.enc.fighters), cfg.answerers, cfg.grid)
        self.report = Report(cfg)
        self.parents: list = []     # state index -> (parent index, move)
        self.rounds: list = []      # state index -> earliest round it was expanded in
        self.seen: dict = {}
        self.move_number = 0        # the position of the move being tried in its state
        self.deadline = cfg.deadline if cfg.deadline is not None else deadline_of(cfg)

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
            frontier = self.level(frontier)
            if frontier:
                self.report.depth_reached += 1
        self.report.seconds = time.perf_counter() - start
        return self.report

    def level(self, frontier) -> list:
        """Expand every state of one level, in order; the next level's frontier."""
        nxt = []
        for done, (index, frozen, book) in enumerate(frontier):
            self._expand(index, frozen, book, nxt)
            self.check_time()
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
        for number, move in enumerate(self.alphabet.moves(enc)):
            self.move_number = number       # the owners of a split walk order by it
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
        self.observer.reset()
        try:
            verdict = enc.step(data)
        except StepError:
            self._audit_error(index, move, phase, data)
            return self._unchanged(index, move, base, "a step the engine refused "
                                   "as nonsense changed the encounter")
        except Exception as exc:  # the engine could not decide: a gap or a bug
            self._audit_crash(index, move, phase, data, exc)
            self.violate(index, move, Problem("engine-error",
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
        self.violate(index, move, Problem("rejected-step-changed-state", message, rules,
                                          expect=None))
        return False

    def _arrive(self, index, book, move, data, verdict, serial, nxt):
        enc = self.enc
        book, problem = self.watch.after(enc, data, verdict, book, serial)
        if problem is not None:
            problem.expect = problem.expect or {"verdict": "rejected"}
            self.violate(index, move, problem)
            return
        self.report.transitions += 1
        height = stack_height(enc)
        self.report.stack_reached = max(self.report.stack_reached, height)
        if not self._within_bounds(height):
            self.report.beyond += 1
            return
        self.reach(self._key(book), index, move, book, nxt)

    def reach(self, key, index, move, book, nxt, frozen=None, round_=None):
        """A state within the bounds reached by ``move`` from state ``index``:
        numbered and queued when new (``frozen`` and ``round_`` when it is not
        the encounter's current state)."""
        known = self.seen.get(key)
        round_ = self.enc.round if round_ is None else round_
        if known is not None and round_ >= self.rounds[known]:
            return
        if frozen is None:
            frozen = freeze(self.enc)
        if known is not None:
            self._reopen(known, book, nxt, frozen, round_)
            return
        index = self._add(key, index, move, round_)
        nxt.append((index, frozen, book))
        if self.cfg.max_states and self.report.states >= self.cfg.max_states:
            self.stop(f"--max-states {self.cfg.max_states:,}")

    def stop(self, limit: str) -> None:
        """The run ends here, short of its bounds, because of ``limit``."""
        self.report.complete = False
        self.report.stopped = self.report.stopped or limit

    def check_time(self) -> None:
        """Stop once the exploration's time (``--max-seconds``) is up."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stop(time_limit(self.cfg))

    def _reopen(self, index, book, nxt, frozen, round_):
        """The reduced picture leaves the round out, so a state can be met
        again in an earlier round than the one it was expanded in: its future
        is then longer (more rounds left within the bound), and it is expanded
        again from there. Its timeline stays the first one found: the two
        differ only in the round, which no guard reads."""
        self.rounds[index] = round_
        self.report.reopened += 1
        nxt.append((index, frozen, book))

    def _within_bounds(self, height) -> bool:
        """Rounds up to ``rounds``, at most ``depth`` frames above the turn, and
        a frame that spends no budget only as the first of them."""
        enc = self.enc
        if enc.round > self.cfg.rounds or height > self.cfg.depth:
            return False
        above = [f for f in enc.stack if f.kind not in TURN_KINDS]
        costless = enc.ruleset.explore.costless
        return not any(f.kind in costless for f in above[1:])

    def _key(self, book) -> tuple:
        return (canonical(self.enc, self.cfg.exact, self.cfg.answerers),
                self.watch.key(book, self.enc))

    def _add(self, key, parent, move, round_=None) -> int:
        index = len(self.parents)
        self.seen[key] = index
        self.parents.append((parent, move))
        self.rounds.append(self.enc.round if round_ is None else round_)
        self.report.states += 1
        return index

    def on_step(self, index, move) -> None:
        """Called after every step the engine decided, from the state numbered
        ``index``; the observer still holds what the step reached. A hook for
        subclasses (the covering suite notes the shortest timeline to each
        row); does nothing here."""

    # -- audit bookkeeping --
    def _audit_decided(self, index, move):
        self.on_step(index, move)
        decided = self.observer.decided
        if decided is None:
            return
        phase, kind, cls = decided
        self.report.audit.record(phase, kind, cls)
        self._audit_routing(index, move)
        if cls in (UNDEFINED, AMBIGUOUS):
            self.report.audit.find(cls, phase, kind, "table", lambda: self.path(index, move))

    def _audit_error(self, index, move, phase, data):
        if self.observer.decided is not None:
            self._audit_decided(index, move)
            return
        self.report.audit.record(phase, data["do"], STRUCTURAL)
        self._audit_routing(index, move)

    def _audit_crash(self, index, move, phase, data, exc):
        self._audit_routing(index, move)
        decided = self.observer.decided
        where = decided[0] if decided else phase
        self.report.audit.record(where, data["do"], UNDEFINED)
        self.report.audit.find(UNDEFINED, where, data["do"], type(exc).__name__,
                               lambda: self.path(index, move))

    def _audit_routing(self, index, move):
        problem = self.observer.routing_problem
        if problem is None:
            return
        phase, trigger, firing = problem
        cls = AMBIGUOUS if firing > 1 else UNDEFINED
        self.report.audit.find(cls, phase, trigger, f"{firing} machine rows fire",
                               lambda: self.path(index, move))

    # -- counterexamples --
    def violate(self, index, move, problem):
        """Stop the walk: ``move`` from state ``index`` broke an invariant."""
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
        return timeline(self.cfg, self.combatants, moves)


def timeline(cfg, combatants, moves) -> list:
    """The moves played from the start, as step dicts (each rendered in the
    state the ones before it reach; the last may be the one that fails)."""
    enc = make_encounter(cfg, combatants)
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
    enc = make_encounter(cfg, combatants)
    out = []
    for data in path:
        try:
            out.append(enc.step(data).verdict)
        except Exception as exc:
            out.append(f"error: {type(exc).__name__}")
            break
    return out
