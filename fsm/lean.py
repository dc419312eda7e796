"""The same table, dispatched without ``transitions``: for exploration only.

The explorer adjudicates millions of steps. Most of the time of a step goes
into ``transitions`` looking up the event, wrapping every guard and effect
in callback objects and building event data. :class:`LeanEncounter` is an
:class:`~fsm.encounter.Encounter` whose ``trigger`` walks the rows of
:mod:`fsm.table` itself, in the order ``transitions`` would: the rows for
(phase, trigger) in table order, each row's guards in order (stopping at
the first that fails), then the phase change, then the row's effects.
Nothing is encoded here by hand: sources, guards, destinations and effects
all come from the table rows the machine is built from.

Parsing, stack handling and verdicts are inherited unchanged, so both
classes give the same verdicts and reach the same states; a differential
test replays every vector and random timelines through both.
"""

from __future__ import annotations

from transitions import MachineError

from . import table as T
from .encounter import Encounter, judge

_LEAN_CACHE: dict = {}


def _lean_rows(rows_by_pair: dict) -> dict:
    """(phase, trigger) -> ((dest, ((guard, rules, routing), ...), effects), ...)."""
    out = {}
    for pair, rows in rows_by_pair.items():
        out[pair] = tuple(
            (r.dest,
             tuple((fn, rules, getattr(fn, "routing", False)) for fn, rules in r.guards),
             r.effects)
            for r in rows)
    return out


def lean_index(rows_by_pair: dict) -> dict:
    """The lean form of an encounter's row index, rebuilt when the table changes."""
    key = id(rows_by_pair)
    cached = _LEAN_CACHE.get(key)
    if cached is None or cached[0] is not rows_by_pair:
        cached = (rows_by_pair, _lean_rows(rows_by_pair))
        _LEAN_CACHE[key] = cached
    return cached[1]


class LeanEncounter(Encounter):
    """An encounter moved by a plain dict of table rows instead of a machine."""

    def _attach_machine(self, name: str) -> None:
        self.machine = None
        self.state = T.TURN_START
        self._lean = lean_index(self._rows)

    def trigger(self, name: str, step) -> bool:
        """Fire ``name`` as ``transitions`` would: the first row whose guards
        all pass moves the phase and runs its effects."""
        rows = self._lean.get((self.state, name))
        if rows is None:
            raise MachineError(f"Can't trigger event {name} from state {self.state}!")
        for dest, guards, effects in rows:
            if self._guards_pass(guards, step):
                self.state = dest
                for effect in effects:
                    effect(self, step)
                return True
        return False

    def _guards_pass(self, guards, step) -> bool:
        for fn, rules, routing in guards:
            if not judge(self, step, fn, rules, routing):
                return False
        return True
