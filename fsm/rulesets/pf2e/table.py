"""The Pathfinder 2e table: every row of this ruleset, each guard with the
rule ids it enforces on that row (spec/rules.yaml), in the order the machine
tries them. Rows shared with every ruleset come from ``shared``."""

from __future__ import annotations

from ...engine.rows import ACTING, AFTER, BEFORE, ENDING, STARTING, TRIGGERED
from .. import common as c
from .. import shared
from . import limits as fx
from . import strike as rs

# the guards this table's rows may name: the shared ones and this ruleset's own
GUARDS = shared.book(fx, rs)
row, refuse = GUARDS.row, GUARDS.refuse

_RESPONSE = dict(has_trigger="PF2-TRIGGER", trigger_still_open="PF2-STACK",
                 nothing_unresolved_above="PF2-STACK")
# What a reaction spends and checks, a Reactive Strike's too (it is a reaction)
_REACTING = (fx.spend_reaction, c.note_use, c.push_frame)
_REACTION = dict(rules=("PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-OWN-TURN-REACTION",
                        "PF2-FREE-AND-REACTION"),
                 **_RESPONSE,
                 first_turn_policy="PF2-FIRST-TURN",
                 reaction_available=("PF2-REACTION-ONE", "PF2-EXPLORATION"),
                 one_reaction_per_trigger="PF2-EXTRA-REACTIONS",
                 similar_trigger="PF2-SIMILAR-TRIGGERS")

_ENTRIES = [
    # Actions of the turn (assumptions from the published rules: PF2-THREE-ACTIONS,
    # PF2-OWN-TURN, PF2-ACTIVITY)
    row("action", [ACTING], BEFORE, fx.spend_actions, c.push_frame,
        own_turn="PF2-OWN-TURN", no_action_pending="PF2-SEQUENCE",
        actions_available="PF2-THREE-ACTIONS"),
    row("activity", [ACTING], BEFORE, fx.spend_actions, c.push_frame,
        rules="PF2-ACTIVITY",
        own_turn="PF2-OWN-TURN", no_action_pending="PF2-SEQUENCE",
        actions_available="PF2-THREE-ACTIONS"),
    row("free", [ACTING], BEFORE, c.push_frame,
        rules=("PF2-FREE-UNLIMITED", "PF2-UNTRIGGERED-FREE"),
        own_turn="PF2-UNTRIGGERED-FREE", no_action_pending="PF2-SEQUENCE"),
    # Reactions: one per round, refreshed at the start of your turn; one per trigger
    row("reaction", TRIGGERED, BEFORE, *_REACTING, **_REACTION),
    # Reactive Strike: a reaction, one melee Strike while a creature within reach
    # uses a manipulate or move action (no Step) or makes a ranged attack
    row("opportunity", TRIGGERED, BEFORE, *_REACTING, **_REACTION,
        strike_while_pending="PF2-REACTIVE-STRIKE", strike_provoked="PF2-REACTIVE-STRIKE",
        one_strike="PF2-REACTIVE-STRIKE"),
    # Free actions with a trigger: any number, one per trigger
    row("free-response", TRIGGERED, BEFORE, c.note_use, c.push_frame,
        rules=("PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-FREE-UNLIMITED",
               "PF2-FREE-AND-REACTION", "PF2-TURN-TRIGGERS"),
        **_RESPONSE,
        one_free_per_trigger="PF2-FREE-ONE-PER-TRIGGER",
        similar_trigger="PF2-SIMILAR-TRIGGERS"),
    # Disruption: no effect, costs stay spent, an activity loses all its actions;
    # an activity can be disrupted between its parts too
    row("disrupt", [BEFORE, AFTER], AFTER, fx.mark_disrupted,
        rules=("PF2-DISRUPT", "PF2-DISRUPT-ACTIVITY", "PF2-DISRUPT-GM", "PF2-STACK"),
        actor_on_top="PF2-STACK", disruptable="PF2-DISRUPT"),
    refuse("disrupt", [ACTING, STARTING, ENDING], something_pending="PF2-STACK"),
    # The turn: actions and the reaction come back at the start of your turn
    row("end-turn", [ACTING], ENDING, c.close_turn,
        rules="PF2-TURN-TRIGGERS", own_turn="PF2-SEQUENCE"),
    *shared.stack_rows("PF2-STACK", "PF2-TURN-MOMENTS", "PF2-TRIGGER",
                       next_part_effects=(c.close_part_window,),
                       resolve=(rs.critical_disrupts,),
                       resolve_rules=("PF2-STRIKE-CRITICAL",)),
    shared.next_turn_row(fx.refresh_budgets, "PF2-TURN-MOMENTS",
                         ("PF2-THREE-ACTIONS", "PF2-REACTION-ONE", "PF2-TURN-TRIGGERS")),
]

ROWS, _REFUSED = shared.split(_ENTRIES)
REFUSALS = _REFUSED + (
    *shared.nothing_to_answer(ROWS, fx.ANSWERS),
    *shared.off_turn_refusals({"action": "PF2-OWN-TURN", "activity": "PF2-OWN-TURN",
                               "free": "PF2-UNTRIGGERED-FREE"},
                              "PF2-SEQUENCE", end_turn="PF2-SEQUENCE"),
)
