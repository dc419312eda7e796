"""Pathfinder 2e in a player's words (:class:`fsm.rulesets.words.Words`)."""

from __future__ import annotations

from ..shared import FORCED_WORDS
from ..words import COUNT, Words

WORDS = Words(
    forced=FORCED_WORDS,
    kinds={"action": "action", "activity": "activity", "free": "free action",
           "reaction": "reaction", "free-response": "free action with a trigger"},
    moves={"disrupt": "{frame} is disrupted: it has no effect, and the actions or "
                      "reaction spent on it stay spent"},
    budgets={"actions": ("action", COUNT), "reactions": ("reaction", COUNT)},
    fields={"actions": "actions a turn", "reactions": "reactions a round"},
)
