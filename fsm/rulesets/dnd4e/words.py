"""D&D 4e in a player's words (:class:`fsm.rulesets.words.Words`)."""

from __future__ import annotations

from ..shared import ATTACK_AFTER, FORCED_WORDS, TELEPORT
from ..words import COUNT, USED, WHAT, Words
from .limits import OWN_TRIGGER
from .scene import ENTERS_REACH

WORDS = Words(
    forced=FORCED_WORDS,
    kinds={"standard": "standard action", "move": "move action", "minor": "minor action",
           "free": "free action", "ready": "Ready action",
           "interrupt": "immediate interrupt", "reaction": "immediate reaction",
           "opportunity": "opportunity action", "readied": "readied action",
           "free-response": "free action with a trigger",
           "no-action": "triggered power that takes no action",
           "delay": "Delay", "return": "return from Delay"},
    moves={"lose": "{frame} is lost: it has no effect, and what it cost stays spent"},
    budgets={"standard": ("standard action", COUNT), "move": ("move action", COUNT),
             "minor": ("minor action", COUNT), "immediate": ("immediate action", COUNT),
             "opportunity": ("opportunity action", COUNT),
             "free_used": ("free action", USED), "readied": ("readied action", WHAT)},
    labels={ENTERS_REACH: "when it enters {actor}'s reach"},
    suggest={"readies": ("standard", "move", "minor")},
    flags={OWN_TRIGGER: "its power states its own trigger", TELEPORT: "teleporting",
           ATTACK_AFTER: "attacking after it moves"},
    hints={"delay": "put the turn off, before any action: the next combatant acts now, and "
                    "this one returns once some other turn has ended",
           "return": "a delaying combatant takes its delayed turn now, just after the turn "
                     "that has ended",
           OWN_TRIGGER: "an opportunity action that is no opportunity attack: the trigger "
                        "need not provoke; once a turn, never on one's own turn",
           TELEPORT: "a power that teleports: the last square clicked is where it arrives; "
                     "its movement provokes nobody",
           ATTACK_AFTER: "a power that moves, then attacks (shift 1 square, then a ranged "
                         "attack): the attack is made from the last square of the path"},
    provokes="{mover} provokes {who}",
    fields={"surprised": "surprised (it does nothing in the surprise round)"},
    reasons={
        "trigger-not-resolved": "{trigger} has not taken effect yet: an immediate reaction "
                                "comes after its trigger",
        "trigger-already-resolved": "{trigger} has already taken effect: an interrupt "
                                    "comes before its trigger",
        "moved-less-than-one-square": "{trigger_owner} has not moved a square yet: a "
                                      "reaction breaks into a move only after one",
        "not-mid-move": "{trigger} is not a move under way: the answer comes before the "
                        "move ends",
        "surprised": "{actor} is surprised: it does nothing at all in the surprise round",
        "surprise-round-one-action": "{actor} has taken its one action of the surprise round",
        "delay-after-acting": "{actor} has already acted this turn: a turn is delayed "
                              "before its first action",
        "not-delaying": "{actor} has not delayed its turn: only a delaying combatant "
                        "returns",
        "not-between-turns": "{actor} may return only once a turn has ended, before "
                             "the next one starts",
        "readied-timing": "the readied action does not fit {trigger} now: it comes "
                          "after its trigger (option readied_as says when)",
    },
)
