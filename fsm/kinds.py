"""The classes of step kinds that spec/TIMING.md speaks of (T-STEP-CLASSES).

Untriggered actions of a combatant, answers to a trigger, and the steps that
move the top unresolved frame; ``event`` and ``end-turn`` are classes of
their own. The machine rows that settle the stack before a step read these.
"""

TURN_ACTIONS = frozenset({"standard", "move", "minor", "ready", "free", "action", "activity"})
RESPONSES = frozenset({"free-response", "no-action", "opportunity", "interrupt",
                       "reaction", "readied"})
STACK_MOVES = frozenset({"resolve", "continue", "lose", "disrupt"})
