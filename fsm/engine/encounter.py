"""The encounter: a ruleset's table driving a stack of action frames, and the
verdict for every step.

A step is a dict in the scenario format (``{"actor": "orc", "do": "..."}``).
:meth:`Encounter.step` answers with a :class:`~fsm.engine.verdict.Verdict`:

* ``allowed``: the step happened;
* ``rejected``: a rule forbids it (stable reason code, rule ids); nothing changed;
* ``gm``: the text leaves it to the GM; the step happens unless the step says
  ``"ruling": "deny"``.

A step that cannot be read (an unknown field, kind, combatant or frame id, a
value of the wrong type) raises :class:`~fsm.errors.StepError` and changes
nothing. A step that can be read but breaks the order of play is a rules
question: it gets ``rejected`` with a reason code, like any other limit.

Before a step is judged the machine settles: it fires its own rows while one
applies (spec/TIMING.md, T-SETTLE). An observer (any object with some of
``on_deciding``, ``on_decided``, ``on_firing``, ``on_transition``) is told what
decides each step and every transition taken.
"""

from __future__ import annotations

from ..errors import StepError
from . import query, setup, state as S
from .adjudicate import Adjudication
from .dispatch import DISPATCHERS
from .exclusive import new_lock, one_call_at_a_time
from .frames import DISRUPTED, LOST, RESOLVED, TURN_KINDS, TURN_START
from .frames import Frame, Journal, moment_id
from .history import History
from .steps import fields_of, text_fields_of
from .verdict import Verdict


@one_call_at_a_time("step", "try_step", "step_if", "possible", "snapshot", "restore",
                    "fingerprint", "facts", "budgets", "outcomes", "prune", "forget_history")
class Encounter(History, Adjudication):
    """One combat encounter under one ruleset (a name, or a Ruleset value). Threads
    may share it: a call waits while another thread's call runs, then sees what it
    left; none sees or leaves a step half done (:mod:`fsm.engine.exclusive`).
    Its parts: the board (combatants, stack, uses, the turn: here), what it
    remembers (:class:`~fsm.engine.history.History`) and how it decides a
    step (:class:`~fsm.engine.adjudicate.Adjudication`)."""

    def __init__(self, ruleset, combatants, initiative=None, options=None, *,
                 dispatcher: str = "transitions", observer=None):
        from .. import rulesets
        self._lock = new_lock()
        rs = rulesets.get(ruleset)
        if rs is None:
            raise StepError(f"unknown ruleset {ruleset!r} (known: "
                            f"{', '.join(rulesets.RULESETS)})", "ruleset")
        self.ruleset = rs
        self.options = setup.options(rs, options)
        self.fighters = setup.fighters(rs, combatants)
        self.scene = any(f.at is not None for f in self.fighters.values())
        self.order = tuple(setup.order(self.fighters, initiative))
        self.journal = Journal()
        for fighter in self.fighters.values():
            fighter.attach(self.journal)
        self.round, self.turn_index, self.turn_serial = 1, 0, 1
        self.turns = [(1, self.order[0])]     # turn serial - 1 - turns_base -> (round, active)
        self.turns_base = 0
        self.stack: list[Frame] = []
        self.past: dict[str, Frame] = {}      # frames that have left the stack
        self.past_order: list[str] = []
        self.kept: dict[str, Frame] = {}      # past frames whose window is still open
        self._on_stack: dict = {}             # frame id -> how many on the stack
        self._outcomes: dict = {RESOLVED: [], LOST: [], DISRUPTED: []}
        self.uses: dict = {}
        self.log: list[dict] = []
        self.steps_seen = 0
        self.explaining = False   # replay sets it: Verdict.because
        self.wording = True       # a refusal's seen and says (the explorer needs neither)
        self.crowd = None         # possible()'s classes of look-alikes, once it is asked
        self._fields, self._text_fields = fields_of(rs), text_fields_of(rs)
        self.observer = observer
        self.fighters[self.order[0]].turns_started = 1
        self.push(Frame(moment_id(TURN_START, 1), self.order[0], TURN_START, turn=1, phase=RESOLVED))
        if dispatcher not in DISPATCHERS:
            raise StepError(f"unknown dispatcher {dispatcher!r}", "dispatcher")
        self._dispatch = DISPATCHERS[dispatcher]()
        self._dispatch.bind(self)

    # -- reading the encounter --------------------------------------------------------

    @property
    def active(self) -> str:
        return self.order[self.turn_index]

    def budgets(self, cid: str | None = None) -> dict:
        show = self.ruleset.budgets
        if cid is not None:
            return show(self, self.fighters[cid])
        return {c: show(self, f) for c, f in self.fighters.items()}

    def facts(self) -> dict:
        """The facts of :mod:`fsm.engine.facts`, in its order (positions: with a scene)."""
        return {"state": self.state, "round": self.round, "active": self.active,
                "initiative": list(self.order), "budgets": self.budgets(),
                "resolved": self.outcomes(RESOLVED), "lost": self.outcomes(LOST),
                "disrupted": self.outcomes(DISRUPTED),
                "stack": [f.id for f in self.stack if f.kind not in TURN_KINDS],
                **({"positions": {cid: list(f.at) for cid, f in self.fighters.items()}}
                   if self.scene else {})}

    def rows_for(self, phase: str, trigger: str) -> tuple:
        """The rows of the table for (phase, trigger), in table order."""
        return self.ruleset.table.by_pair.get((phase, trigger), ())

    def refusal_for(self, phase: str, trigger: str):
        return self.ruleset.table.refuse_pair.get((phase, trigger))

    def find(self, fid):
        """The frame ``fid`` if on the stack (the index of its ids answers most)."""
        if fid not in self._on_stack:
            return None
        for f in reversed(self.stack):
            if f.id == fid:
                return f
        return None

    def try_step(self, data) -> Verdict:
        """The verdict ``data`` would get now, leaving the encounter unchanged."""
        snap, seen = S.snapshot(self), self.steps_seen
        try:
            return self.step(data)
        finally:
            S.restore(self, snap)
            self.steps_seen = seen

    def step_if(self, data, keep) -> Verdict:
        """The verdict ``data`` gets now, the step kept only if ``keep(verdict)``
        is true: else the encounter is left unchanged, as by :meth:`try_step`
        (a search that tries steps until one suits keeps that one without
        playing it twice)."""
        snap, seen = S.snapshot(self), self.steps_seen
        kept = False
        try:
            verdict = self.step(data)
            kept = bool(keep(verdict))
            return verdict
        finally:
            if kept:
                S.release(self, snap)
            else:
                S.restore(self, snap)
                self.steps_seen = seen

    def possible(self, *, share: bool = True):
        """What may happen now (see :func:`fsm.engine.query.possible`)."""
        return query.possible(self, share=share)

    # -- the stack and the turn, as the effects change them --------------------------

    def push(self, frame) -> None:
        self.stack.append(frame)
        self._on_stack[frame.id] = self._on_stack.get(frame.id, 0) + 1

    def pop(self):
        frame = self.stack.pop()
        count = self._on_stack.get(frame.id, 0) - 1
        if count > 0:
            self._on_stack[frame.id] = count
        else:
            self._on_stack.pop(frame.id, None)
        return frame

    def set_stack(self, frames) -> None:
        self.stack = frames
        self._on_stack = {}
        for f in frames:
            self._on_stack[f.id] = self._on_stack.get(f.id, 0) + 1

    def advance(self):
        self.turn_index += 1
        if self.turn_index >= len(self.order):
            self.turn_index = 0
            self.round += 1
        self.turn_serial += 1
        self.turns.append((self.round, self.active))
        self.fighters[self.active].turns_started += 1

    def reorder(self, order) -> None:
        """The same combatants in another initiative order; the active one keeps its turn."""
        active = self.active
        self.order = tuple(order)
        self.turn_index = self.order.index(active)

    # -- the state as one value ------------------------------------------------------

    def snapshot(self) -> tuple:
        """A value :meth:`restore` puts back (and that must be restored or
        released, innermost first: see :func:`fsm.engine.state.snapshot`)."""
        return S.snapshot(self)

    def restore(self, snap) -> None:
        S.restore(self, snap)

    def fingerprint(self) -> tuple:
        """A hashable picture of the whole state, for "nothing changed" checks."""
        return S.fingerprint(self)
