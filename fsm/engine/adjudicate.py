"""Deciding one step: read it, bind the trigger it answers or the frame it
acts on, settle the machine's own rows (spec/TIMING.md, T-SETTLE), then find
the row or refusal that decides it and make the verdict, telling the observer
as it goes. :class:`Adjudication` is a part of
:class:`~fsm.engine.encounter.Encounter`; see that module for what a step
and a verdict are."""

from __future__ import annotations

from ..errors import StepError, TableGap
from . import state as S
from .frames import TURN_KINDS, TURN_START, moment_id
from .guard import Outcomes
from .rows import AFTER, END_TURN, ENDING, STARTING
from .steps import parse
from .turn import turn_ended, whose_turn
from .verdict import ALLOWED, GM_VERDICT, REJECTED, Verdict, fill

# Phases from which a machine row may fire before a step (see _settle).
_SETTLING = frozenset({AFTER, STARTING, ENDING})


class Adjudication:
    """The deciding part of an encounter (see the module docstring)."""

    def step(self, data) -> Verdict:
        """Adjudicate one step; see the module docstring."""
        st = parse(self, data, self.steps_seen + 1)
        if st.actor is None and st.kind == END_TURN:
            # the active combatant; once its turn-end moment is on the stack, the
            # next one in initiative order (T-NEXT-TURN)
            st.actor = whose_turn(self)
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
        return verdict

    def _fire(self, trigger, st, rows) -> bool:
        """Fire one machine row of ``trigger`` (``rows``: those of the phase) if
        its guards pass."""
        observer, source = self.observer, self.state
        if observer is not None and hasattr(observer, "on_firing"):
            observer.on_firing(self, trigger, st)
        fired = self._dispatch.fire(self, trigger, st, rows)
        if fired and observer is not None and hasattr(observer, "on_transition"):
            observer.on_transition(self, trigger, source, self.state, st)
        return fired

    def _settle(self, st) -> None:
        """Fire the machine's own rows (``close``, ``keep-open``, ``next-turn``)
        while one applies to the coming step: the stack and the turn moments
        settle before the step is judged (spec/TIMING.md, T-SETTLE)."""
        table = self.ruleset.table
        machine, by_pair = table.machine_triggers, table.by_pair
        for _ in range(2 * len(self.stack) + 6):
            for trigger in machine:
                rows = by_pair.get((self.state, trigger))
                if rows and self._fire(trigger, st, rows):
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
        if self._dispatch.fire(self, st.trigger, st, rows):
            if st.outcomes.gm:
                g, rules = st.outcomes.gm[0]
                if st.ruling == "deny":
                    S.restore(self, snap)
                return self._verdict(st, GM_VERDICT, g, rules, g.gm_reason)
            said = st.outcomes.explained() if self.explaining else (None, ())
            bears = tuple(dict.fromkeys((*rows[0].rules, *st.outcomes.cited)))
            return Verdict(st.index, ALLOWED, None, rows[0].cited(self, st), notes=self._notes(st),
                           because=said[0], templates=(None, said[1]), bears=bears,
                           target_id=_target_id(st))
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
                       templates=(g.says, ()), target_id=_target_id(st))

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
        return self.past.get(moment_id(kind, self.turn_serial))

    def _bind_answer(self, st):
        """The trigger an answer names: a frame on the stack (the top one by
        default), a frame that has left it, or the turn's moment."""
        if st.to is None:
            st.target = self.stack[-1] if self.stack else None
            return
        if st.to in TURN_KINDS:
            st.target = self.moment(st.to)
            return
        if st.to == moment_id(TURN_START, self.turn_serial + 1) and turn_ended(self):
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


def _target_id(st) -> str | None:
    """The id of what the step answers or acts on (Verdict.target_id)."""
    return st.target.id if st.target is not None else None
