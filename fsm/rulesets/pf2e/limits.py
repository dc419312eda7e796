"""Pathfinder 2e: the creature's budgets, and the guards and effects only
this ruleset has. The rows hold these guards through the table's guard book
(``table.GUARDS``), which names them by keyword."""

from __future__ import annotations

from ...engine.frames import DISRUPTED, EVENT, PENDING, RESOLVED, TURN_KINDS, Fighter
from ...engine.guard import GM, guard
from .. import common as c

TURN_ACTIONS = frozenset({"action", "activity", "free"})
ANSWERS = ("reaction", "free-response", "opportunity")
STACK_MOVES = frozenset({"resolve", "continue", "disrupt"})
REACTIONS = frozenset({"reaction", "opportunity"})   # a Reactive Strike is a reaction


class FighterPF2(Fighter):
    """A creature's actions this turn and reactions until its next turn starts."""

    __slots__ = ("actions", "actions_max", "reactions", "reactions_max")
    FIELDS = {"actions": (0, 100), "reactions": (0, 100)}

    def __init__(self, id, side, *, actions: int = 3, reactions: int = 1):
        super().__init__(id, side)
        self.actions = self.actions_max = actions
        self.reactions = self.reactions_max = reactions


def _fighter_seen(enc, st):
    f = enc.fighters[st.actor]
    return {"actor": st.actor, "active": enc.active, "round": enc.round,
            "actions": f.actions, "reactions": f.reactions}


@guard("no-actions-left", "{actor} has {actions} action(s) left this turn", seen=_fighter_seen,
       ok='{actor} has {actions} action(s) left this turn')
def actions_available(enc, st):
    """The turn's actions cover the cost."""
    return enc.fighters[st.actor].actions >= st.cost


def reactions_budgeted(options) -> bool:
    """Whether reactions count against a budget: in an encounter, and outside
    one when option ``exploration_reactions`` says they count as in one."""
    return options["mode"] == "encounter" or options["exploration_reactions"] == "encounter"


def _reaction_seen(enc, st):
    seen = _fighter_seen(enc, st)
    seen["hint"] = ""
    if enc.options["mode"] == "exploration":
        policy = enc.options["exploration_reactions"]
        seen["hint"] = c.option_hint("exploration_reactions", "unlimited") \
            if policy != "unlimited" else ""
    return seen


@guard("reaction-used-this-round",
       "{actor} has {reactions} reaction(s) left until the start of its next turn{hint}",
       gm="gm-exploration", seen=_reaction_seen,
       ok='{actor} has {reactions} reaction(s) left')
def reaction_available(enc, st):
    """A reaction is left since the start of your last turn; outside encounters
    the GM decides (option ``exploration_reactions``)."""
    if enc.fighters[st.actor].reactions > 0:
        return True
    if enc.options["mode"] == "exploration":
        policy = enc.options["exploration_reactions"]
        return GM if policy == "gm" else policy == "unlimited"
    return False


def _first_turn_seen(enc, st):
    policy = enc.options["react_before_first_turn"]
    hint = c.option_hint("react_before_first_turn", "allow") if policy == "forbid" else \
        c.option_hint("react_before_first_turn", "allow or forbid", "settles it")
    return dict(c.turn_seen(enc, st), hint=hint)


@guard("before-first-turn", "{actor} has not had a turn yet in this encounter{hint}",
       gm="gm-before-first-turn", seen=_first_turn_seen)
def first_turn_policy(enc, st):
    """Reacting before your first turn is the GM's call (option ``react_before_first_turn``)."""
    if enc.fighters[st.actor].turns_started > 0:
        return True
    if enc.options["mode"] == "exploration":
        return True
    policy = enc.options["react_before_first_turn"]
    return GM if policy == "gm" else policy == "allow"


def _used(enc, st):
    return enc.uses.get((st.target.id, st.target.occurrence, st.actor), ())


def _occurrence_seen(enc, st):
    """What an answer sees, with the occurrence of the trigger it answers in
    words: a part of an activity is a trigger of its own (T-OCCURRENCE)."""
    seen = c.target_seen(enc, st)
    t = st.target
    seen["occurrence"] = seen["trigger"]
    if t is not None and t.parts > 1 and not t.moving:
        seen["occurrence"] = f"part {t.occurrence} of {t.id}"
    return seen


@guard("one-reaction-per-trigger", "{actor} already reacted to trigger {occurrence}",
       seen=_occurrence_seen,
       ok='{actor} has not reacted to {occurrence} yet')
def one_reaction_per_trigger(enc, st):
    """However many reactions you have, one per trigger (a Reactive Strike is
    one of them)."""
    return not any(kind in REACTIONS and label == st.on for kind, label in _used(enc, st))


@guard("one-free-action-per-trigger",
       "{actor} already used a free action on trigger {occurrence}", seen=_occurrence_seen,
       ok='{actor} has used no free action on {occurrence} yet')
def one_free_per_trigger(enc, st):
    """Free actions are unlimited, but one per trigger."""
    return ("free-response", st.on) not in _used(enc, st)


def _answer_class(kind) -> str:
    """A Reactive Strike is compared with reactions, as a reaction."""
    return "reaction" if kind in REACTIONS else kind


def _similar_seen(enc, st):
    policy = enc.options["similar_triggers"]
    hint = c.option_hint("similar_triggers", "distinct") if policy == "same" else \
        c.option_hint("similar_triggers", "same or distinct", "settles it")
    return dict(c.target_seen(enc, st), hint=hint)


@guard("similar-trigger-same",
       "trigger {label} of {trigger} is similar to one {actor} already answered{hint}",
       gm="gm-similar-trigger", seen=_similar_seen)
def similar_trigger(enc, st):
    """Similar but not identical triggers: the GM decides whether they count as one
    (option ``similar_triggers``)."""
    for used_kind, label in _used(enc, st):
        if _answer_class(used_kind) == _answer_class(st.kind) and label != st.on:
            policy = enc.options["similar_triggers"]
            return GM if policy == "gm" else policy == "distinct"
    return True


@guard("not-disruptable", "{trigger} is not an action and cannot be disrupted",
       seen=c.target_seen,
       ok='{trigger} is an action, which can be disrupted')
def disruptable(enc, st):
    """Actions, reactions, free actions and activities can be disrupted; events cannot."""
    return st.target.kind != EVENT and st.target.kind not in TURN_KINDS


def spend_actions(enc, st):
    """Spend the action cost (an activity commits all its actions at once)."""
    enc.fighters[st.actor].actions -= st.cost


def spend_reaction(enc, st):
    """Spend a reaction (none left becomes none, never below zero)."""
    f = enc.fighters[st.actor]
    if f.reactions > 0:
        f.reactions -= 1


def mark_disrupted(enc, st):
    """The top frame is disrupted: no effect; actions and reactions stay spent."""
    disrupt(enc, st, enc.stack[-1])


def disrupt(enc, st, frame):
    """``frame`` is disrupted: no effect, its costs spent, the part in play
    still answerable (T-WINDOW). Under ``disrupted_activity: begun``, an
    activity whose parts are its actions gives back those not begun."""
    begun = frame.done + (frame.phase == PENDING)
    if enc.options["disrupted_activity"] == "begun" and frame.kind == "activity" \
            and frame.parts == frame.cost and not frame.moving and frame.owner in enc.fighters:
        enc.fighters[frame.owner].actions += frame.cost - begun
    frame.outcome = DISRUPTED
    frame.phase = RESOLVED
    frame.window_part = frame.done
    enc.note(st, frame, DISRUPTED)


def refresh_budgets(enc, st):
    """Three actions for the new turn, and the reaction comes back."""
    f = enc.fighters[enc.active]
    f.actions = f.actions_max
    f.reactions = f.reactions_max


def notes(st) -> tuple:
    """What a disruption's verdict says of the GM's part (PF2-DISRUPT-GM)."""
    if st.kind == "disrupt":
        return ("gm: what the disruption does beyond cancelling the effects "
                "(a Leap stopped midway, an item dropped) is the GM's call",)
    return ()
