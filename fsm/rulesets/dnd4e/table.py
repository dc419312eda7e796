"""The D&D 4e table: every row of this ruleset, each guard with the rule ids
it enforces on that row (spec/rules.yaml), in the order the machine tries
them. Rows shared with every ruleset come from ``shared``."""

from __future__ import annotations

from ...engine.rows import (ACTING, AFTER, BEFORE, ENDING, MACHINE, STARTING, STATES,
                            TRIGGERED)
from .. import common as c
from .. import shared
from . import delay as dl
from . import effects as ef
from . import limits as fx
from . import scene as sc

# the guards this table's rows may name: the shared ones and this ruleset's own
GUARDS = shared.book(fx, sc, dl)
row, refuse = GUARDS.row, GUARDS.refuse

_OPEN = dict(has_trigger="4E-TRIGGER", trigger_still_open="4E-STACK",
             nothing_unresolved_above="4E-STACK")
_REACT = dict(has_trigger="4E-TRIGGER",
              trigger_still_open=("4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
              nothing_unresolved_above="4E-STACK")
# With positions, a stated provocation must be what they show (T-SCENE)
_SCENE = dict(provocation_fits_scene="4E-SCENE-STATED")
# An answer to a move entering your reach (T-SCENE, 4E-REACTION-MOVE)
_REACH = dict(movement_in_progress="4E-REACTION-MOVE",
              reach_entered=("4E-REACTION-MOVE", "4E-SCENE-GRID"))

# Surprise (T-4E-SURPRISE): a surprised combatant takes no action in the surprise
# round, and the others one action each
_SURPRISED = dict(not_surprised="4E-SURPRISE")
_ONE = dict(one_action_in_surprise_round="4E-SURPRISE")

_ENTRIES = [
    # Actions of the turn (4E-ACTION-TYPES, 4E-STANDARD, 4E-MOVE, 4E-MINOR);
    # one at a time (4E-ONE-AT-A-TIME)
    row("standard", [ACTING], BEFORE, ef.spend_standard, c.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-STANDARD-OWN-TURN", **_SURPRISED, no_action_pending="4E-ONE-AT-A-TIME",
        standard_slot="4E-STANDARD", **_ONE, **_SCENE),
    row("move", [ACTING], BEFORE, ef.spend_move, c.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MOVE", **_SURPRISED, no_action_pending="4E-ONE-AT-A-TIME",
        move_slot=("4E-MOVE-ONE", "4E-SUBSTITUTE"), **_ONE, **_SCENE),
    row("minor", [ACTING], BEFORE, ef.spend_minor, c.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MINOR", **_SURPRISED, no_action_pending="4E-ONE-AT-A-TIME",
        minor_slot=("4E-MINOR-ONE", "4E-SUBSTITUTE"), **_ONE, **_SCENE),
    row("ready", [ACTING], BEFORE, ef.spend_standard, c.push_frame, ef.note_what_is_readied,
        rules="4E-READY",
        own_turn="4E-READY-COST", **_SURPRISED, no_action_pending="4E-ONE-AT-A-TIME",
        standard_slot="4E-READY-COST", **_ONE),
    row("free", STATES, BEFORE, ef.count_free, c.push_frame,
        rules=("4E-ACTION-TYPES", "4E-FREE"),
        **_SURPRISED, no_own_action_pending="4E-ONE-AT-A-TIME",
        free_within_limit="4E-FREE-LIMIT", **_SCENE),
    # Triggered actions (4E-TRIGGER): free or no action at all (4E-TRIGGERED-FREE)
    row("free-response", TRIGGERED, BEFORE, ef.count_free, c.note_use, c.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-FREE"),
        **_OPEN, **_SURPRISED, free_within_limit="4E-FREE-LIMIT", **_SCENE),
    row("no-action", TRIGGERED, BEFORE, c.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-NO-ACTION"), **_OPEN, **_SURPRISED, **_SCENE),
    # Opportunity actions (4E-OPP-*)
    row("opportunity", TRIGGERED, BEFORE, ef.spend_opportunity, c.push_frame,
        rules="4E-OPP-ANYONE",
        **_OPEN, **_SURPRISED,
        opportunity_not_own_turn="4E-OPP-OWN-TURN", trigger_pending="4E-OPP-INTERRUPTS",
        triggered_by_enemy="4E-OPP-TRIGGER", provoked=("4E-OPP-TRIGGER", "4E-SCENE-GRID"),
        opportunity_unused="4E-OPP-ONCE", **_SCENE),
    # Immediate actions (4E-IMM-*): interrupts before, reactions after the trigger
    row("interrupt", TRIGGERED, BEFORE, ef.spend_immediate, c.push_frame,
        rules="4E-IMM-KINDS",
        has_trigger="4E-IMM-TRIGGER", trigger_still_open="4E-STACK",
        nothing_unresolved_above="4E-STACK", **_SURPRISED,
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_pending="4E-INTERRUPT",
        immediate_unused="4E-IMM-ONCE", **_SCENE),
    row("reaction", TRIGGERED, BEFORE, ef.spend_immediate, c.push_frame,
        rules="4E-IMM-KINDS",
        **_REACT, **_SURPRISED,
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_resolved="4E-REACTION",
        moved_one_square="4E-REACTION-MOVE", **_REACH,
        trigger_took_effect="4E-INTERRUPT-LOST", immediate_unused="4E-IMM-ONCE", **_SCENE),
    row("readied", TRIGGERED, BEFORE, ef.use_readied, c.push_frame, ef.name_readied,
        rules=("4E-READY", "4E-READY-INITIATIVE"),
        **_REACT, **_SURPRISED,
        immediate_not_own_turn="4E-IMM-OWN-TURN", has_readied="4E-READY",
        readied_timing="4E-READY-TIMING", readied_trigger_met="4E-READY", **_REACH,
        trigger_took_effect="4E-INTERRUPT-LOST", immediate_unused="4E-IMM-ONCE", **_SCENE),
    # An interrupted action can be lost (4E-INTERRUPT-LOST, 4E-OPP-LOST), and the rest
    # of one an immediate reaction came before (4E-REACTION-NEXT)
    row("lose", [BEFORE], AFTER, ef.mark_lost, ef.owner_moves_on, rules="4E-STACK",
        actor_on_top="4E-STACK",
        interrupted=("4E-INTERRUPT-LOST", "4E-OPP-LOST", "4E-REACTION-NEXT")),
    refuse("lose", [AFTER], actor_on_top="4E-STACK", part_pending="4E-STACK"),
    refuse("lose", [ACTING, STARTING, ENDING], something_pending="4E-STACK"),
    # Delay (T-4E-DELAY): a turn put off before any action, taken once another
    # combatant's turn has ended
    row(dl.DELAY, [ACTING], STARTING, dl.put_off_turn, dl.next_turn_comes, rules="4E-DELAY",
        own_turn="4E-DELAY", **_SURPRISED, no_action_pending="4E-ONE-AT-A-TIME",
        not_yet_acted="4E-DELAY"),
    row(dl.RETURN, [ENDING], ACTING, dl.take_delayed_turn, rules="4E-DELAY",
        delaying="4E-DELAY"),
    refuse(dl.RETURN, [STARTING, ACTING, BEFORE, AFTER], delaying="4E-DELAY",
           between_turns="4E-DELAY"),
    # The turn: the immediate action comes back at the end of your own turn
    row("end-turn", [ACTING], ENDING, ef.reset_immediate, c.close_turn,
        rules=("4E-IMM-ONCE", "4E-SEQUENCE"), own_turn="4E-ONE-AT-A-TIME"),
    # machine-driven, T-CUT-IN: the reaction window of the triggering
    # combatant's finished frame survives its next step (4E-REACTION-NEXT)
    row("keep-open", [AFTER], AFTER, ef.keep_window, by=MACHINE,
        rules="4E-REACTION-NEXT", not_kept=(),
        window_survives=("4E-REACTION-NEXT", "4E-REACTION-WINDOW")),
    *shared.stack_rows("4E-STACK", "4E-TURN-MOMENTS", "4E-TRIGGER",
                       resolve=(ef.interrupt_takes_hold, sc.scene_makes_lost, ef.ready_takes_hold,
                                ef.readied_moves_initiative, ef.owner_moves_on),
                       next_part_effects=(ef.close_part_window_if_strict,),
                       resolve_rules=("4E-SCENE-LOSS",)),
    shared.next_turn_row(dl.next_turn_comes, "4E-TURN-MOMENTS",
                         ("4E-SEQUENCE", "4E-STANDARD-OWN-TURN", "4E-READY-LAPSE", "4E-DELAY")),
]

ROWS, _REFUSED = shared.split(_ENTRIES)
REFUSALS = _REFUSED + (
    *shared.nothing_to_answer(ROWS, fx.ANSWERS),
    *shared.off_turn_refusals({"standard": "4E-STANDARD-OWN-TURN", "move": "4E-MOVE",
                               "minor": "4E-MINOR", "ready": "4E-READY-COST",
                               dl.DELAY: "4E-DELAY"},
                              "4E-ONE-AT-A-TIME", end_turn="4E-ONE-AT-A-TIME"),
)
