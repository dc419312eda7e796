"""What an encounter remembers of play: the log, the frames that have left
the stack, the turns played, and the frames that resolved, were lost or were
disrupted. :class:`History` is a part of :class:`~fsm.engine.encounter.Encounter`
(which sets these values up); effects write to it through :meth:`History.note`
and :meth:`History.remember_past`, verdicts read the turns."""

from __future__ import annotations


class History:
    """The remembering part of an encounter (see the module docstring)."""

    def outcomes(self, outcome: str) -> list[str]:
        """Frame ids in the order they resolved, were lost or were disrupted."""
        return list(self._outcomes.get(outcome, ()))

    def turn_of(self, serial: int) -> tuple | None:
        """(round, active) of the turn numbered ``serial``; None if unknown or forgotten."""
        if serial < 1 or serial > self.turn_serial or serial - 1 - self.turns_base < 0:
            return None
        return self.turns[serial - 1 - self.turns_base]

    def events(self) -> list:
        """What happened to frames, oldest first (the log: :meth:`note`)."""
        return self.log

    def left_stack(self) -> list:
        """The frames that have left the stack and are remembered, the latest first."""
        return [self.past[fid] for fid in reversed(self.past_order) if fid in self.past]

    def describe_turn(self, serial: int) -> str:
        known = self.turn_of(serial)
        if known is None:
            return "never" if serial < 1 or serial > self.turn_serial else "long ago"
        return f"in round {known[0]}, during {known[1]}'s turn"

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
