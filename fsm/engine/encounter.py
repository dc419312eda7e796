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

from ..errors import StepError, TableGap
from . import query, setup, state as S
from .dispatch import DISPATCHERS
from .exclusive import new_lock, one_call_at_a_time
from .frames import DISRUPTED, DONE, LOST, RESOLVED, TURN_END, TURN_KINDS, TURN_START
from .frames import Frame, Journal
from .guard import Outcomes
from .rows import AFTER, PHASE_END, PHASE_START
from .steps import MOMENTS, fields_of, parse, text_fields_of
from .verdict import ALLOWED, GM_VERDICT, REJECTED, Verdict, fill

# Phases from which a machine row may fire before a step (see _settle).
_SETTLING = frozenset({AFTER, PHASE_START, PHASE_END})


@one_call_at_a_time("step", "try_step", "possible", "snapshot", "restore", "fingerprint",
                    "facts", "budgets", "outcomes", "prune", "forget_history")
class Encounter:
    """One combat encounter under one ruleset (a name, or a Ruleset value). Threads
    may share it: a call waits while another thread's call runs, then sees what it
    left; none sees or leaves a step half done (:mod:`fsm.engine.exclusive`)."""

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
        self._outcomes: dict = {DONE: [], LOST: [], DISRUPTED: []}
        self.uses: dict = {}
        self.log: list[dict] = []
        self.steps_seen = 0
        self.explaining = False   # replay sets it: Verdict.because
        self.wording = True       # a refusal's seen and says (the explorer needs neither)
        self.crowd = None         # possible()'s classes of look-alikes, once it is asked
        self._fields, self._text_fields = fields_of(rs), text_fields_of(rs)
        self.observer = observer
        self.fighters[self.order[0]].turns_started = 1
        self.push(Frame("turn-start@1", self.order[0], TURN_START, turn=1, phase=RESOLVED))
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

    def outcomes(self, outcome: str) -> list[str]:
        """Frame ids in the order they resolved, were lost or were disrupted."""
        return list(self._outcomes.get(outcome, ()))

    def facts(self) -> dict:
        """The facts of :mod:`fsm.engine.facts`, in its order (positions: with a scene)."""
        return {"state": self.state, "round": self.round, "active": self.active,
                "initiative": list(self.order), "budgets": self.budgets(),
                "resolved": self.outcomes(DONE), "lost": self.outcomes(LOST),
                "disrupted": self.outcomes(DISRUPTED),
                "stack": [f.id for f in self.stack if f.kind not in TURN_KINDS],
                **({"positions": {cid: list(f.at) for cid, f in self.fighters.items()}}
                   if self.scene else {})}

    def turn_of(self, serial: int) -> tuple | None:
        """(round, active) of the turn numbered ``serial``; None if unknown or forgotten."""
        if serial < 1 or serial > self.turn_serial or serial - 1 - self.turns_base < 0:
            return None
        return self.turns[serial - 1 - self.turns_base]

    def describe_turn(self, serial: int) -> str:
        known = self.turn_of(serial)
        if known is None:
            return "never" if serial < 1 or serial > self.turn_serial else "long ago"
        return f"in round {known[0]}, during {known[1]}'s turn"

    def rows_for(self, phase: str, trigger: str) -> tuple:
        """The rows of the table for (phase, trigger), in table order."""
        return self.ruleset.table.by_pair.get((phase, trigger), ())

    def refusal_for(self, phase: str, trigger: str):
        return self.ruleset.table.refuse_pair.get((phase, trigger))

    def prune(self, keep: int = 1000) -> None:
        """Forget old history (log entries, past frames, past turns) beyond ``keep``,
        so that replaying a very long log runs in bounded memory. Only call it
        between steps; outcome lists in facts() then cover the kept history only."""
        if len(self.log) > 2 * keep:
            del self.log[:-keep]
        for frames in self._outcomes.values():
            if len(frames) > 2 * keep:
                del frames[:-keep]
        if len(self.past_order) > 2 * keep:
            for fid in self.past_order[:-keep]:
                if fid not in self.kept:
                    self.past.pop(fid, None)
            del self.past_order[:-keep]
        if len(self.turns) > 2 * keep:
            drop = len(self.turns) - keep
            del self.turns[:drop]
            self.turns_base += drop

    def forget_history(self) -> None:
        """Drop the log and the outcome lists (nothing a verdict reads)."""
        self.log = []
        self._outcomes = {k: [] for k in self._outcomes}

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

    def possible(self, *, share: bool = True):
        """What may happen now (see :func:`fsm.engine.query.possible`)."""
        return query.possible(self, share=share)

    # -- the stack and the history, as the effects change them ----------------------

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

    def note(self, st, frame, event, **more):
        """Log what happened to ``frame`` at step ``st`` (``more``: its square, say)."""
        self.log.append({"step": st.index, "frame": frame.id, "actor": frame.owner,
                         "kind": frame.kind, "event": event, "turn": frame.turn, **more})
        if event in self._outcomes:
            self._outcomes[event].append(frame.id)

    def remember_past(self, frame):
        """``frame`` has left the stack; what was answered on it is forgotten once closed."""
        self.past[frame.id] = frame
        self.past_order.append(frame.id)
        if frame.closed:
            self.forget_uses(frame.id)

    def forget_uses(self, fid):
        for key in [k for k in self.uses if k[0] == fid]:
            del self.uses[key]

    def advance(self):
        self.turn_index += 1
        if self.turn_index >= len(self.order):
            self.turn_index = 0
            self.round += 1
        self.turn_serial += 1
        self.turns.append((self.round, self.active))
        self.fighters[self.active].turns_started += 1

    def move_before(self, mover: str, trigger_id: str):
        trigger = self.find(trigger_id) or self.past.get(trigger_id)
        if trigger is None or trigger.owner is None or trigger.owner == mover:
            return
        active = self.active
        order = [c for c in self.order if c != mover]
        order.insert(order.index(trigger.owner), mover)
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

    # -- the step --------------------------------------------------------------------

    def step(self, data) -> Verdict:
        """Adjudicate one step; see the module docstring."""
        st = parse(self, data, self.steps_seen + 1)
        if st.responding:
            self._bind_answer(st)
        self.steps_seen += 1
        # a step denied by the GM is undone once its checks passed (T-REFUSED)
        snap = S.snapshot(self) if self.state in _SETTLING or st.ruling == "deny" else None
        try:
            self._settle(st)
            if st.next_turn:
                st.target = self.find(st.to)      # None while the turn has not moved on
            if not st.responding:
                self._bind_top(st)
            verdict = self._decide(st, snap)
        finally:
            if snap is not None:
                S.release(self, snap)
        if st.target is not None:
            verdict.target_id = st.target.id
        return verdict

    def _fire(self, trigger, st) -> bool:
        """Fire one machine row of ``trigger`` if its guards pass."""
        observer, source = self.observer, self.state
        if observer is not None and hasattr(observer, "on_firing"):
            observer.on_firing(self, trigger, st)
        fired = self._dispatch.fire(self, trigger, st)
        if fired and observer is not None and hasattr(observer, "on_transition"):
            observer.on_transition(self, trigger, source, self.state, st)
        return fired

    def _settle(self, st) -> None:
        """Fire the machine's own rows (``close``, ``keep-open``, ``next-turn``)
        while one applies to the coming step: the stack and the turn moments
        settle before the step is judged (spec/TIMING.md, T-SETTLE)."""
        table = self.ruleset.table
        machine, rows = table.machine_triggers, table.by_pair
        for _ in range(2 * len(self.stack) + 6):
            for trigger in machine:
                if (self.state, trigger) in rows and self._fire(trigger, st):
                    break
            else:
                return
        raise TableGap(f"the machine rows did not settle before {st.kind} in {self.state}")

    def _decide(self, st, snap) -> Verdict:
        st.outcomes = Outcomes(st.outcomes.notes)     # what settling did is kept
        observer, source = self.observer, self.state
        table = self.ruleset.table
        refusal = table.refuse_pair.get((source, st.trigger))
        rows = table.by_pair.get((source, st.trigger))
        if observer is not None and hasattr(observer, "on_deciding"):
            observer.on_deciding(self, st, refusal or (rows[0] if rows else None))
        verdict = self._judge(st, snap, refusal, rows)
        if observer is not None:
            if verdict.verdict != REJECTED and not (verdict.verdict == GM_VERDICT and
                                                    st.ruling == "deny"):
                if hasattr(observer, "on_transition"):
                    observer.on_transition(self, st.trigger, source, self.state, st)
            if hasattr(observer, "on_decided"):
                observer.on_decided(self, st, verdict)
        return verdict

    def _judge(self, st, snap, refusal, rows) -> Verdict:
        if refusal is not None:
            verdict = self._refuse(st, refusal)
            if snap is not None:
                S.restore(self, snap)
            return verdict
        if not rows:
            if snap is not None:
                S.restore(self, snap)
            raise TableGap(f"no row decides {st.kind} in phase {self.state}")
        if self._dispatch.fire(self, st.trigger, st):
            if st.outcomes.gm:
                g, rules = st.outcomes.gm[0]
                if st.ruling == "deny":
                    S.restore(self, snap)
                return self._verdict(st, GM_VERDICT, g, rules, g.gm_reason)
            said = st.outcomes.explained() if self.explaining else (None, ())
            bears = tuple(dict.fromkeys((*rows[0].rules, *st.outcomes.cited)))
            return Verdict(st.index, ALLOWED, None, rows[0].cited(self, st), notes=self._notes(st),
                           because=said[0], templates=(None, said[1]), bears=bears)
        if snap is not None:
            S.restore(self, snap)
        if not st.outcomes.failed:
            raise TableGap(f"{st.kind} in phase {self.state}: every row refused it "
                           f"without a reason")
        g, rules = st.outcomes.failed[0]
        return self._verdict(st, REJECTED, g, rules, g.reason)

    def _refuse(self, st, refusal) -> Verdict:
        for g, rules in refusal.guards:
            if g.check(self, st) is not True:
                return self._verdict(st, REJECTED, g, rules, g.reason)
        raise TableGap(f"{st.kind} by {st.actor} in phase {self.state}: a refusal row "
                       f"applies but none of its guards fails")

    def _verdict(self, st, verdict, g, rules, reason) -> Verdict:
        seen = g.seen(self, st) if g.seen and self.wording else {}
        return Verdict(st.index, verdict, reason, g.bearing(self, st, rules), guard=g.name,
                       seen=seen, says=fill(g.says, seen) if self.wording else None,
                       notes=self._notes(st) if verdict == GM_VERDICT else (),
                       templates=(g.says, ()))

    def _notes(self, st) -> tuple:
        """The ruleset's notes on the step, then what its effects said they did."""
        notes = self.ruleset.notes
        return (tuple(notes(st)) if notes is not None else ()) + tuple(st.outcomes.notes)

    def moment(self, kind):
        """The current turn's turn-start or turn-end moment, or None if it has
        not come (a turn-end before the turn ends)."""
        for f in reversed(self.stack):
            if f.kind == kind:
                return f
        return self.past.get(f"{kind}@{self.turn_serial}")

    def _bind_answer(self, st):
        """The trigger an answer names: a frame on the stack (the top one by
        default), a frame that has left it, or the turn's moment."""
        if st.to is None:
            st.target = self.stack[-1] if self.stack else None
            return
        if st.to in MOMENTS:
            st.target = self.moment(st.to)
            return
        if st.to == f"{TURN_START}@{self.turn_serial + 1}" and self.stack \
                and self.stack[0].kind == TURN_END:
            # the next turn's moment: found once settling has started that turn
            st.next_turn = True
            return
        for f in reversed(self.stack):
            if f.id == st.to:
                st.target = f
                return
        if st.to in self.past:
            st.target = self.past[st.to]
            return
        raise StepError(f"no trigger has the id {st.to!r}", "to", "unknown-trigger")

    def _bind_top(self, st):
        """Resolve, continue, lose and disrupt act on the top unresolved frame."""
        if st.kind in self.ruleset.stack_moves and self.stack:
            top = self.stack[-1]
            if top.outcome is None and top.kind not in TURN_KINDS:
                st.target = top

