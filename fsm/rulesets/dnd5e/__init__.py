"""D&D 5th edition (SRD 5.2.1): one action, a Bonus Action when a feature
grants one, movement up to Speed and one free object interaction on your
turn; one Reaction between the starts of your turns (Opportunity Attacks,
readied responses, reaction spells); one spell slot per turn.

``limits`` holds the creature's budgets and the guards and effects only
this ruleset has; ``conditions`` what an event changes in its actor's
conditions; ``squares`` the feet a square covers and creatures' sizes;
``movement`` moves and the spaces they pass; ``scene`` who provokes an
Opportunity Attack; ``table``
the rows that use them (spec/rules.yaml names the rules); ``tools`` what the
tools need of it. This module puts them together as one
:class:`~fsm.rulesets.Ruleset`.

The attribution the SRD 5.2.1 asks of a work using it is ``ATTRIBUTION``
below; the README and every page of the web site carry it.
"""

from __future__ import annotations

from ...engine.steps import ANY_COMBATANT
from .. import Option, Ruleset, StepSpec, register, shared
from .conditions import CONCENTRATION, CONDITIONS
from .limits import (ADDITIONAL, ANSWERS, BEFORE, BONUS, SLOT, SPELL, STACK_MOVES, TURN_ACTIONS,
                     Fighter5e)
from .ready import WHEN
from .squares import DIFFICULT, STAND
from .table import REFUSALS, ROWS
from .words import WORDS
from .tools import ZOO_RULES, budgets, explore, mistakes, mutants, zoo

_CAST = (SPELL, SLOT)
TELEPORT = shared.TELEPORT      # a spell of the step's own that teleports (Misty Step)
ATTRIBUTION = (
    'This work includes material from the System Reference Document 5.2.1 ("SRD 5.2.1") '
    "by Wizards of the Coast LLC, available at https://www.dndbeyond.com/srd. The SRD "
    "5.2.1 is licensed under the Creative Commons Attribution 4.0 International License, "
    "available at https://creativecommons.org/licenses/by/4.0/legalcode.")

RULESET = register(Ruleset(
    name="dnd5e", title="D&D 5e", rule_prefix="5E",
    long_title="Dungeons & Dragons 5th edition (SRD 5.2.1)",
    options=(
        Option("slot_reactions", "counted", ("counted", "exempt"),
               "whether a spell cast with a slot as a Reaction counts toward the one "
               "spell slot per turn (counted: the text as written) or is free of it "
               "(exempt: the limit read as being about the action and the Bonus Action)"),
    ),
    fighter=Fighter5e, rows=ROWS, refusals=REFUSALS,
    turn_actions=TURN_ACTIONS, answers=ANSWERS, stack_moves=STACK_MOVES,
    step_specs=(StepSpec("action", flags=(*_CAST, ADDITIONAL, TELEPORT)),
                StepSpec("bonus", flags=(*_CAST, TELEPORT)),
                StepSpec("dash", flags=(BONUS, ADDITIONAL)),
                StepSpec("disengage", flags=(BONUS, ADDITIONAL)),
                StepSpec("ready", text_fields=("readies", "when", "by"),
                         flags=(*_CAST, ADDITIONAL),
                         choices=(("when", WHEN), ("by", ANY_COMBATANT))),
                StepSpec("move", moving=True, flags=(STAND, DIFFICULT)),
                StepSpec("reaction", flags=(*_CAST, BEFORE, TELEPORT)),
                StepSpec("readied", flags=(DIFFICULT, TELEPORT)),
                StepSpec("event", flags=(CONCENTRATION, *CONDITIONS))),
    budgets=budgets, explore=explore, mutants=mutants, mistakes=mistakes, zoo=zoo, zoo_rules=ZOO_RULES,
    readings=("srd-5e",), attribution=ATTRIBUTION,
    scene=shared.SCENE,
    words=WORDS,
))
