"""The engine: phases, table values, frames, step parsing, dispatch and the
encounter that runs a ruleset's table. It names no ruleset: it takes a
:class:`fsm.rulesets.Ruleset` value and reads everything from it."""

from .encounter import Encounter
from .verdict import ALLOWED, GM_VERDICT, REJECTED, Verdict

__all__ = ["Encounter", "Verdict", "ALLOWED", "REJECTED", "GM_VERDICT"]
