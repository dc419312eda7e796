"""fsm: the reference state machine for triggered actions in tabletop combat.

Build an :class:`Encounter`, feed it steps, read verdicts::

    from fsm import Encounter
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    enc.step({"actor": "orc", "do": "standard"})          # allowed
    enc.step({"actor": "ayla", "do": "interrupt"})        # allowed
    enc.step({"actor": "ayla", "do": "interrupt"})        # rejected: immediate-used-this-round
"""

from .engine import ALLOWED, GM_VERDICT, REJECTED, Encounter, Verdict
from .errors import FsmError, StepError, TableGap
from .rulesets import RULESETS, Ruleset

__all__ = ["Encounter", "Verdict", "StepError", "FsmError", "TableGap", "RULESETS", "Ruleset",
           "ALLOWED", "REJECTED", "GM_VERDICT"]
__version__ = "0.1.0"
