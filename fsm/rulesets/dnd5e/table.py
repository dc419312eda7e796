"""The D&D 5e table: every row of this ruleset, each guard with the rule ids
it enforces on that row (spec/rules.yaml), in the order the machine tries
them. Rows shared with every ruleset come from ``shared``."""

from __future__ import annotations

from ...engine.rows import ACTING, AFTER, BEFORE, ENDING, STARTING, TRIGGERED
from .. import common as c
from .. import shared
from . import conditions as cd
from . import features as ft
from . import limits as fx
from . import movement as mv
from . import ready as rd
from . import scene as sc

# the guards this table's rows may name: the shared ones and this ruleset's own
GUARDS = shared.book(fx, ft, sc, mv, rd)
row, refuse = GUARDS.row, GUARDS.refuse

# The turn's own steps come when nothing is unresolved but the actor's own move
# between two squares, which they stop (T-5E-TURN: breaking up one's move)
_TURN = dict(own_turn="5E-OWN-TURN",
             only_own_move_paused=("5E-ONE-AT-A-TIME", "5E-MOVE-BREAK-UP"))
_BETWEEN_SQUARES = [ACTING, AFTER]
# The action, unless a feature pays for it: the additional action of Action
# Surge or Haste (an action of any kind), or the Bonus Action (Dash, Disengage,
# which cast no spell: no Magic check for them)
_PAID_NO_SPELL = dict(action_left="5E-ACTION", additional_left="5E-ADDITIONAL-ACTION")
_PAID = dict(**_PAID_NO_SPELL, additional_not_magic="5E-ADDITIONAL-ACTION")
_ACTION = dict(**_TURN, able_to_act="5E-INCAPACITATED", **_PAID)
_AS_BONUS = dict(**_TURN, able_to_act="5E-INCAPACITATED",
                 bonus_granted=("5E-BONUS-GRANTED", "5E-BONUS-DASH"), bonus_left="5E-BONUS-ONE",
                 **_PAID_NO_SPELL)
_ANSWER = dict(has_trigger="5E-TRIGGER", trigger_still_open="5E-REACTION-AFTER",
               nothing_unresolved_above="5E-STACK", able_to_act="5E-INCAPACITATED",
               reaction_left="5E-REACTION-ONE")
# With positions, a stated provocation must be what they show (T-5E-OPPORTUNITY)
_SCENE = dict(provokes_as_placed="5E-OA")
# A path passes through allies' and Incapacitated creatures' spaces only (T-5E-SPACES)
_SPACES = dict(passes_only_open_spaces="5E-SPACES")

_ENTRIES = [
    # The turn's action (5E-ACTION): one, on your turn, one thing at a time
    row("action", _BETWEEN_SQUARES, BEFORE, mv.stop_own_move, ft.spend_action, fx.spend_slot,
        c.push_frame, rules=("5E-ACTION", "5E-CASTING-TIME"), **_ACTION,
        slot_left="5E-SLOT-ONE", **_SPACES, **_SCENE),
    row("dash", _BETWEEN_SQUARES, BEFORE, mv.stop_own_move, ft.spend_action, fx.dash,
        c.push_frame, rules="5E-DASH", **_AS_BONUS),
    row("disengage", _BETWEEN_SQUARES, BEFORE, mv.stop_own_move, ft.spend_action,
        fx.disengage, c.push_frame, rules="5E-DISENGAGE", **_AS_BONUS),
    row("ready", _BETWEEN_SQUARES, BEFORE, mv.stop_own_move, ft.spend_action, fx.spend_slot,
        c.push_frame,
        fx.note_readied, rules=("5E-READY", "5E-READY-SPELL"), **_ACTION,
        slot_left="5E-SLOT-ONE"),
    # A Bonus Action: only when granted, one per turn
    row("bonus", _BETWEEN_SQUARES, BEFORE, mv.stop_own_move, fx.spend_bonus, fx.spend_slot,
        c.push_frame, rules=("5E-BONUS-ONE", "5E-CASTING-TIME"), **_TURN,
        able_to_act="5E-INCAPACITATED", bonus_granted="5E-BONUS-GRANTED",
        bonus_left="5E-BONUS-ONE", slot_left="5E-SLOT-ONE", **_SPACES, **_SCENE),
    # Movement up to Speed, broken up around actions and between attacks; a Prone
    # creature crawls or stands up first
    row("move", [ACTING, AFTER], BEFORE, mv.stop_own_move, fx.spend_movement, mv.stand_up,
        c.push_frame, rules="5E-MOVE-BREAK-UP", own_turn="5E-OWN-TURN",
        only_own_pauses_open=("5E-ONE-AT-A-TIME", "5E-EXTRA-ATTACK-MOVE", "5E-MOVE-BREAK-UP"),
        prone_to_stand="5E-PRONE", movement_left=("5E-MOVE-SPEED", "5E-PRONE", "5E-SPACES"),
        **_SPACES, **_SCENE),
    refuse("move", [BEFORE, STARTING, ENDING], own_turn="5E-OWN-TURN",
           only_own_pauses_open=("5E-ONE-AT-A-TIME", "5E-EXTRA-ATTACK-MOVE",
                                 "5E-MOVE-BREAK-UP")),
    # The free object interaction: during your move or action, one per turn
    row("interact", [BEFORE, AFTER], BEFORE, fx.use_interaction, c.push_frame,
        rules="5E-INTERACT", own_turn="5E-OWN-TURN",
        during_own_move_or_action="5E-INTERACT-DURING", interaction_left="5E-INTERACT"),
    refuse("interact", [ACTING, STARTING, ENDING], own_turn="5E-OWN-TURN",
           during_own_move_or_action="5E-INTERACT-DURING"),
    # Reactions: right after the trigger unless the description says before
    row("reaction", TRIGGERED, BEFORE, fx.spend_reaction, fx.spend_slot, fx.note_spell,
        c.push_frame, rules=("5E-REACTION-ANY-TURN", "5E-CASTING-TIME", "5E-SURPRISE"),
        **_ANSWER,
        # Shield's or Counterspell's sentence cited where the step follows it
        before_its_trigger=("5E-REACTION-BEFORE", fx.SHIELD, fx.COUNTERSPELL),
        after_its_trigger="5E-REACTION-AFTER",
        slot_left="5E-SLOT-ONE", **_SPACES, **_SCENE),
    # The Opportunity Attack: one melee attack, right before a creature you can
    # see leaves your reach
    row("opportunity", TRIGGERED, BEFORE, fx.spend_reaction, c.push_frame,
        rules=("5E-OA", "5E-SURPRISE"), **_ANSWER, before_its_trigger="5E-OA",
        moves_by_itself=("5E-OA-OWN-MOVEMENT", "5E-TELEPORT"),
        not_disengaged="5E-DISENGAGE", leaves_reach=("5E-OA", "5E-REACH"),
        sees_the_mover="5E-OA-SEE", one_melee_attack="5E-OA"),
    # A readied response: the Reaction, right after its trigger finishes; one
    # attack (Extra Attack is for one's turn), a move up to Speed
    row("readied", TRIGGERED, BEFORE, fx.spend_reaction, fx.use_readied, c.push_frame,
        rules="5E-READY", **_ANSWER, something_readied="5E-READY",
        after_its_trigger="5E-READY-AFTER", readied_trigger_met="5E-READY",
        readied_one_attack="5E-EXTRA-ATTACK-OWN-TURN",
        readied_move_within_speed=("5E-READY", "5E-SPACES"), **_SPACES, **_SCENE),
    # Counterspell's failed save: the casting dissipates, its slot not expended
    row("counter", [BEFORE], AFTER, fx.counter, rules="5E-COUNTERSPELL",
        actor_on_top="5E-STACK", casting_a_spell="5E-COUNTERSPELL",
        counterspelled="5E-COUNTERSPELL"),
    refuse("counter", [AFTER], actor_on_top="5E-STACK", part_pending="5E-STACK"),
    refuse("counter", [ACTING, STARTING, ENDING], something_pending="5E-STACK"),
    # The turn: what it gives comes back at the start of your next turn
    row("end-turn", _BETWEEN_SQUARES, ENDING, mv.stop_own_move, c.close_turn,
        rules="5E-INITIATIVE", own_turn="5E-OWN-TURN",
        only_own_move_paused=("5E-ONE-AT-A-TIME", "5E-MOVE-BREAK-UP")),
    # an event may change its actor's conditions and break its Concentration (a
    # readied spell dissipates)
    *shared.stack_rows("5E-STACK", "5E-TURN-MOMENTS", "5E-TRIGGER",
                       next_part_effects=(c.close_part_window,),
                       resolve_rules=("5E-CONTINUE-TURN",),
                       event=(cd.set_conditions, cd.break_concentration),
                       event_rules=("5E-READY-SPELL", "5E-INCAPACITATED-CONCENTRATION")),
    shared.next_turn_row(fx.refresh, "5E-TURN-MOMENTS",
                         ("5E-INITIATIVE", "5E-REACTION-ONE", "5E-READY-LAPSE", "5E-MOVE-SPEED")),
]

ROWS, _REFUSED = shared.split(_ENTRIES)
REFUSALS = _REFUSED + (
    *shared.nothing_to_answer(ROWS, fx.ANSWERS),
    *shared.off_turn_refusals(dict.fromkeys(("action", "dash", "disengage", "ready", "bonus"),
                                            "5E-OWN-TURN"),
                              "5E-ONE-AT-A-TIME", end_turn="5E-OWN-TURN",
                              phases=(STARTING, BEFORE, ENDING)),
)
