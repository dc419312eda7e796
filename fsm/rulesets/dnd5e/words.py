"""D&D 5e (SRD 5.2.1) in a player's words (:class:`fsm.rulesets.words.Words`)."""

from __future__ import annotations

from ..shared import FORCED_WORDS, TELEPORT
from ..words import COUNT, FEET, WHAT, Words
from .conditions import CONCENTRATION
from .limits import ADDITIONAL, BEFORE, BONUS, SLOT, SPELL
from .squares import DIFFICULT, STAND

WORDS = Words(
    forced=FORCED_WORDS,
    kinds={"action": "action", "dash": "Dash action", "disengage": "Disengage action",
           "ready": "Ready action", "bonus": "Bonus Action", "move": "move",
           "interact": "object interaction", "reaction": "Reaction",
           "opportunity": "Opportunity Attack", "readied": "readied action"},
    moves={"counter": "{frame} is countered: no effect; the action stays spent, the "
                      "spell slot is not expended"},
    budgets={"action": ("action", COUNT), "bonus": ("Bonus Action", COUNT),
             "movement": ("movement", FEET), "interaction": ("object interaction", COUNT),
             "reaction": ("Reaction", COUNT), "slot": ("spell slot for this turn", COUNT),
             "readied": ("readied action", WHAT)},
    flags={SPELL: "a spell", SLOT: "with a spell slot",
           BEFORE: "before its trigger", CONCENTRATION: "breaking Concentration",
           BONUS: "as the Bonus Action (Cunning Action)",
           ADDITIONAL: "as the additional action (Action Surge, Haste)",
           "incapacitated": "becoming Incapacitated", "unseen": "becoming unseen",
           "blinded": "becoming Blinded", "prone": "falling Prone", STAND: "standing up first",
           DIFFICULT: "through Difficult Terrain", TELEPORT: "teleporting"},
    unflags={"incapacitated": "no longer Incapacitated", "unseen": "seen again",
             "blinded": "seeing again", "prone": "no longer Prone"},
    hints={BEFORE: "while its trigger is still pending, as Shield and Counterspell come",
           BONUS: "a feature lets this action be taken as the Bonus Action; the action is kept",
           ADDITIONAL: "a feature gives one more action this turn; never the Magic action",
           STAND: "a Prone creature stands up for half its Speed; without squares, it only "
                  "stands",
           TELEPORT: "a spell that teleports (Misty Step): the last square clicked is where "
                     "it arrives; no Opportunity Attack, no movement spent",
           DIFFICULT: "rubble, undergrowth, another creature's space: each square costs "
                      "10 ft",
           "opportunity": "right before the mover leaves the attacker's reach",
           "readied": "the readied response, with the Reaction, right after its trigger"},
    fields={"speed": "speed (feet)", "bonus": "a feature gives it Bonus Actions",
            "incapacitated": "Incapacitated", "unseen": "unseen by the others",
            "blinded": "Blinded", "prone": "Prone", "size": "size",
            "squares": "squares moved (5 ft each)"},
    provokes="{mover} leaves {who}'s reach",
    offers={"bonus": ({SLOT: True},)},
    only_moves_provoke=True,
    reasons={
        "trigger-not-resolved": "{trigger} has not taken effect yet: this Reaction comes "
                                "right after its trigger (one that comes before it, as "
                                "Shield does, says so)",
        "trigger-already-resolved": "{trigger} has already taken effect: it is too late "
                                    "for a Reaction that comes before it",
        "reaction-used": "{actor} has used its Reaction and gets it back only at the start "
                         "of its own turn",
    },
)
