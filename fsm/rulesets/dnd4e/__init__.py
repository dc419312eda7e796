"""D&D 4th edition: the turn's actions, opportunity and immediate actions,
readied actions.

``limits`` holds the combatant's budgets and the guards only this ruleset
has, ``effects`` its effects; ``table`` the rows that use them (spec/rules.yaml names
the rules); ``tools`` what the tools need of it: the budgets shown, the
explorer's moves and invariants, the mutants that test the suite. This
module puts them together as one :class:`~fsm.rulesets.Ruleset`.
"""

from __future__ import annotations

from dataclasses import replace

from ...engine.steps import ANY_COMBATANT
from .. import Option, Ruleset, StepSpec, register, shared
from .delay import DELAY, RETURN
from .limits import ANSWERS, OWN_TRIGGER, READY_WHEN, STACK_MOVES, TURN_ACTIONS, Fighter4e
from .table import REFUSALS, ROWS
from .words import WORDS
from .tools import ZOO_RULES, budgets, explore, mistakes, mutants, zoo

# a power of the step's own that teleports, or attacks after its path (T-SCENE)
_JUMPS = (shared.TELEPORT, shared.ATTACK_AFTER)

RULESET = register(Ruleset(
    name="dnd4e", title="D&D 4e", rule_prefix="4E",
    long_title="Dungeons & Dragons 4th edition",
    options=(
        Option("free_actions_per_turn", None, None,
               "the DM's limit on free actions per combatant in one turn; null: no limit"),
        Option("opportunity_limit_turns", "every-other", ("every-other", "enemy"),
               "whose turns the one-opportunity-action-per-turn limit counts: every other "
               "combatant's (Czech text, published rules) or only enemies' (French text)"),
        Option("readied_as", "reaction", ("reaction", "interrupt"),
               "when a readied action is taken: after its trigger (immediate reaction) "
               "or before it (immediate interrupt)"),
        Option("reaction_window", "interrupts-next", ("interrupts-next", "before-next"),
               "how long a trigger stays open to reactions: until the triggering "
               "combatant's next action or part takes effect, so the reaction can "
               "interrupt it (interrupts-next), or only until that combatant begins "
               "any other step, ending its turn included (before-next)"),
    ),
    fighter=Fighter4e, rows=ROWS, refusals=REFUSALS,
    turn_actions=TURN_ACTIONS, answers=ANSWERS, stack_moves=STACK_MOVES,
    turn_changes=frozenset({DELAY, RETURN}),
    step_specs=(StepSpec("standard", flags=_JUMPS), StepSpec("move", moving=True, flags=_JUMPS),
                StepSpec("minor", flags=_JUMPS), StepSpec("ready", text_fields=("readies", "when", "by"),
                                                 choices=(("when", READY_WHEN),
                                                          ("by", ANY_COMBATANT))),
                StepSpec("opportunity", flags=(OWN_TRIGGER,)),
                StepSpec("interrupt", flags=_JUMPS), StepSpec("reaction", flags=_JUMPS),
                StepSpec("readied", flags=_JUMPS)),
    budgets=budgets, explore=explore, mutants=mutants, mistakes=mistakes, zoo=zoo, zoo_rules=ZOO_RULES,
    readings=("cs-4e", "fr-4e"),
    scene=replace(shared.SCENE, shifts=True, after=shared.ATTACK_AFTER),
    words=WORDS,
))

