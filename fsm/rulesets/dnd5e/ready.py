"""D&D 5e's readied response and the circumstance it was readied for
(spec/TIMING.md, T-5E-READY): a readied move through Difficult Terrain is a
move, and a step with a spell or a slot casts one (:mod:`fsm.rulesets.readying`)."""

from __future__ import annotations

from ..readying import WHEN, readied_guard
from .limits import SLOT, SPELL
from .squares import DIFFICULT

__all__ = ["WHEN", "readied_trigger_met"]

readied_trigger_met = readied_guard(moving=frozenset({DIFFICULT}),
                                    casting=frozenset({SPELL, SLOT}))
