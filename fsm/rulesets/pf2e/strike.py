"""Pathfinder 2e's Reactive Strike, the text's Attack of Opportunity: which
trigger provokes it, and what its critical hit does (spec/TIMING.md,
T-PF2-REACTIVE-STRIKE; the published rules, ASM-PF2-REACTIVE-STRIKE).

A creature within your reach provokes it while it uses an action with the
manipulate or the move trait (a Step excepted), or one that makes a ranged
attack. The step says its traits; a path or ``squares`` is a move. Reach is
what the positions show when the encounter has them, the trigger's
``provokes`` otherwise. A critical hit disrupts a manipulate action.
"""

from __future__ import annotations

from ...engine.frames import EVENT, RESOLVED, TURN_KINDS
from ...engine.guard import guard
from ...engine.scene import show, within_reach
from .. import common as c
from .limits import disrupt

STRIKE = "opportunity"                 # the step kind of Reactive Strike
MANIPULATE, MOVE, STEP, CRITICAL = "manipulate", "move", "step", "critical"
TRAITS = (MANIPULATE, MOVE, STEP)      # the flags a Strike's trigger is read by (a Step
                                       # is an action: TRAITS[:2] for the other kinds)
ACTING = frozenset({"action", "activity", "free", "reaction", "free-response", STRIKE})


def moves(frame) -> bool:
    """Whether ``frame`` has the move trait: it says so, or it moves its owner."""
    return MOVE in frame.flags or STEP in frame.flags or frame.moving or bool(frame.path)


def why_not_provoking(enc, actor, frame) -> str:
    """Why ``frame`` does not provoke ``actor``'s Reactive Strike, or "" if it
    does."""
    if frame.kind == EVENT or frame.kind not in ACTING:
        return "it is no creature's action"
    if frame.owner == actor:
        return f"it is {actor}'s own"
    if MANIPULATE not in frame.flags and frame.attack != "ranged":
        if STEP in frame.flags:
            return "it is a Step, which triggers nothing that moving triggers"
        if not moves(frame):
            return "it has neither the manipulate nor the move trait and makes no ranged " \
                   "attack"
    if enc.scene:
        me, mover = enc.fighters[actor], enc.fighters.get(frame.owner)
        if mover is None or not within_reach(me, mover.at):
            where = show(mover.at) if mover is not None else "nowhere"
            return (f"{frame.owner} at {where} is not within {actor}'s reach "
                    f"({me.reach} square(s) from {show(me.at)})")
    elif actor not in frame.provokes:
        return f"{frame.owner} is not said to be within {actor}'s reach"
    return ""


def _provoked_seen(enc, st):
    seen = c.target_seen(enc, st)
    seen["why"] = why_not_provoking(enc, st.actor, st.target) if st.target is not None else ""
    return seen


@guard("not-provoked", "trigger {trigger} does not provoke {actor}'s Reactive Strike: "
       "{why}", seen=_provoked_seen,
       ok="{trigger_owner} is within {actor}'s reach, using a manipulate or move action "
          "or making a ranged attack")
def strike_provoked(enc, st):
    """A creature within your reach using a manipulate or move action (no
    Step), or making a ranged attack, provokes your Reactive Strike."""
    return not why_not_provoking(enc, st.actor, st.target)


@guard("trigger-already-resolved",
       "trigger {trigger} is no longer under way ({done}/{parts} parts resolved); a "
       "Reactive Strike comes while its trigger is being used", seen=c.target_seen,
       ok="trigger {trigger} is under way")
def strike_while_pending(enc, st):
    """A Reactive Strike answers its trigger while the trigger's current part
    is pending (a turn moment never is)."""
    return st.target.kind not in TURN_KINDS and st.target.pending


def _shape_seen(enc, st):
    attack = f", a {st.attack} attack" if st.attack not in (None, "melee") else ""
    return {"actor": st.actor, "parts": st.parts, "attack": attack}


@guard("one-melee-attack", "a Reactive Strike is one melee Strike; {actor}'s has "
       "{parts} part(s){attack}", seen=_shape_seen,
       ok="{actor}'s Reactive Strike is one melee Strike")
def one_strike(enc, st):
    """Reactive Strike makes one melee Strike: one part, no other kind of attack."""
    return st.parts == 1 and st.attack in (None, "melee")


def critical_disrupts(enc, st):
    """A Reactive Strike that resolved as a critical hit disrupts the manipulate
    action it answered, if that action has not finished."""
    top = enc.stack[-1]
    if top.kind != STRIKE or CRITICAL not in top.flags or top.outcome != RESOLVED \
            or top.parent is None:
        return
    trigger = enc.find(top.parent)
    if trigger is None or trigger.outcome is not None or MANIPULATE not in trigger.flags:
        return
    disrupt(enc, st, trigger)
