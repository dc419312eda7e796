"""How a fired step finds its row: through a ``transitions`` machine, or by
walking the table itself.

The encounter looks a step's rows up once, the rows for (phase, trigger)
in table order, and hands them over: the lean walker walks those, the
``transitions`` machine finds the same by the trigger. Both read them in
the same order: each row's guards in order (stopping at the first that
fails, a guard's answer counted by :func:`fsm.engine.guard.judge`), then the
phase change, then the row's effects. ``transitions`` is the reference (the
pictures are drawn from the same rows by :mod:`fsm.diagrams`, not by
``transitions``); the lean walker runs the explorer's millions of steps at
several times the speed. A differential test keeps the two in step.
"""

from __future__ import annotations

import logging
import weakref

from transitions import Machine, MachineError

from .guard import judge
from .rows import STARTING, STATES

logging.getLogger("transitions").setLevel(logging.WARNING)


def _condition(guards):
    """One ``transitions`` condition for all of a row's guards, judged in order
    up to the first that fails (one callback instead of one per guard)."""
    checks = tuple(guards)

    def condition(event):
        enc, st = event.model, event.kwargs["step"]
        if enc.explaining:          # the reason of an allowed step is its row's
            st.outcomes.passed.clear()
        for g, rules in checks:
            if not judge(enc, st, g, rules):
                return False
        return True

    condition.__name__ = " and ".join(g.name for g, _ in guards) or "always"
    return condition


def _effects(effects):
    """One ``after`` callback running a row's effects in order."""
    def effect(event):
        enc, st = event.model, event.kwargs["step"]
        for fn in effects:
            fn(enc, st)

    effect.__name__ = ", ".join(fn.__name__ for fn in effects)
    return effect


def machine_transitions(rows) -> list[dict]:
    """A table's rows as ``transitions`` transition definitions: each row one
    transition, its guards one condition, its effects one callback."""
    return [{"trigger": r.trigger, "source": list(r.sources), "dest": r.dest,
             "conditions": [_condition(r.guards)] if r.guards else [],
             "after": [_effects(r.effects)] if r.effects else []}
            for r in rows]


_MACHINES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def ruleset_machine(ruleset) -> Machine:
    """The one ``transitions`` machine of ``ruleset``'s rows, built once and
    shared by its encounters."""
    machine = _MACHINES.get(ruleset)
    if machine is None:
        machine = _MACHINES[ruleset] = Machine(
            model=None, states=list(STATES), initial=STARTING,
            transitions=machine_transitions(ruleset.rows), auto_transitions=False,
            send_event=True, ignore_invalid_triggers=False)
    return machine


class TransitionsDispatch:
    """The ruleset's ``transitions`` machine, the encounter one of its models.

    ``add_model`` gives the encounter the machine's triggers; ``remove_model``
    then drops the machine's own reference to it (the triggers stay, as the
    library documents), so an encounter lives only as long as its owner
    keeps it, and adding the next one does not search a growing list."""

    name = "transitions"

    def bind(self, enc) -> None:
        self.machine = ruleset_machine(enc.ruleset)
        self.machine.add_model(enc)
        self.machine.remove_model(enc)

    @staticmethod
    def fire(enc, trigger: str, step, rows) -> bool:
        # the machine finds the same rows by the trigger itself
        return enc.trigger(trigger, step=step)


class LeanDispatch:
    """The rows the encounter looked up, walked without ``transitions``."""

    name = "lean"

    def bind(self, enc) -> None:
        enc.state = STARTING

    @staticmethod
    def fire(enc, trigger: str, step, rows) -> bool:
        if not rows:
            raise MachineError(f"Can't trigger event {trigger} from state {enc.state}!")
        for row in rows:
            if enc.explaining:
                step.outcomes.passed.clear()
            for g, rules in row.guards:
                if not judge(enc, step, g, rules):
                    break
            else:
                enc.state = row.dest
                for effect in row.effects:
                    effect(enc, step)
                return True
        return False


DISPATCHERS = {"transitions": TransitionsDispatch, "lean": LeanDispatch}
