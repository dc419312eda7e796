"""Pathfinder 2nd edition: three actions a turn, reactions and free actions
with their triggers, disruption.

``limits`` holds the creature's budgets and the guards and effects only this
ruleset has; ``table`` the rows that use them (spec/rules.yaml names the
rules); ``tools`` what the tools need of it. This module puts them together
as one :class:`~fsm.rulesets.Ruleset`.
"""

from __future__ import annotations

from .. import Option, Ruleset, StepSpec, register, shared
from .limits import ANSWERS, STACK_MOVES, TURN_ACTIONS, FighterPF2, notes
from .strike import CRITICAL, TRAITS
from .table import REFUSALS, ROWS
from .words import WORDS
from .tools import ZOO_RULES, budgets, explore, mistakes, mutants, zoo

RULESET = register(Ruleset(
    name="pf2e", title="Pathfinder 2e", rule_prefix="PF2",
    long_title="Pathfinder 2nd edition",
    options=(
        Option("mode", "encounter", ("encounter", "exploration"),
               "whether the scene is a fight (encounter: one reaction per round, as "
               "written) or happens outside one (exploration: a reaction beyond the "
               "budget is as exploration_reactions says, the GM's call unless set, and "
               "reacting before one's first turn is not checked)"),
        Option("exploration_reactions", "gm", ("gm", "encounter", "unlimited"),
               "outside encounters, a reaction beyond the budget is the GM's call (gm), "
               "refused as in an encounter, or allowed"),
        Option("react_before_first_turn", "gm", ("gm", "allow", "forbid"),
               "whether a creature may react before its first turn of the encounter"),
        Option("similar_triggers", "gm", ("gm", "same", "distinct"),
               "whether two similar but not identical triggers count as one"),
        Option("disrupted_activity", "all", ("all", "begun"),
               "what a disrupted activity loses: all the actions committed to it, as "
               "usual, or only those of its parts begun (the others come back)"),
    ),
    fighter=FighterPF2, rows=ROWS, refusals=REFUSALS,
    turn_actions=TURN_ACTIONS, answers=ANSWERS, stack_moves=STACK_MOVES,
    step_specs=(StepSpec("action", cost=1, flags=TRAITS),
                StepSpec("activity", cost_field=True, flags=TRAITS[:2]),
                StepSpec("free", flags=TRAITS[:2]), StepSpec("reaction", flags=TRAITS[:2]),
                StepSpec("free-response", flags=TRAITS[:2]),
                StepSpec("opportunity", flags=(*TRAITS[:2], CRITICAL))),
    budgets=budgets, explore=explore, mutants=mutants, mistakes=mistakes, zoo=zoo, zoo_rules=ZOO_RULES, notes=notes,
    scene=shared.SCENE,
    words=WORDS,
))
