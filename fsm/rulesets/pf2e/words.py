"""Pathfinder 2e in a player's words (:class:`fsm.rulesets.words.Words`)."""

from __future__ import annotations

from ..shared import FORCED_WORDS
from ..words import COUNT, Words
from .strike import CRITICAL, MANIPULATE, MOVE, STEP

WORDS = Words(
    forced=FORCED_WORDS,
    kinds={"action": "action", "activity": "activity", "free": "free action",
           "reaction": "reaction", "free-response": "free action with a trigger",
           "opportunity": "Reactive Strike"},
    moves={"disrupt": "{frame} is disrupted: it has no effect, and the actions or "
                      "reaction spent on it stay spent"},
    budgets={"actions": ("action", COUNT), "reactions": ("reaction", COUNT)},
    fields={"actions": "actions a turn", "reactions": "reactions a round"},
    flags={MANIPULATE: "with the manipulate trait", MOVE: "with the move trait",
           STEP: "a Step", CRITICAL: "a critical hit"},
    hints={MANIPULATE: "Interact, Release, a spell cast with gestures: provokes a Reactive "
                       "Strike",
           MOVE: "Stride, Stand, Crawl: provokes a Reactive Strike (a path is a move anyway)",
           STEP: "a careful 5-foot move: it provokes no Reactive Strike",
           CRITICAL: "a critical hit disrupts a manipulate action it answers",
           "opportunity": "the Attack of Opportunity: one melee Strike while a creature "
                          "within reach uses a manipulate or move action or makes a ranged "
                          "attack"},
    provokes="{mover} acts within {who}'s reach",
    walks=("action",),
    reasons={
        "trigger-already-resolved": "{trigger} is no longer under way: a Reactive Strike "
                                    "comes while its trigger is being used",
    },
)
