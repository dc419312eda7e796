"""D&D 5e's Opportunity Attack: who may make one against which step
(spec/TIMING.md, T-5E-OPPORTUNITY).

A creature you can see provokes your Opportunity Attack when it leaves your
reach by its own movement, action, Bonus Action or Reaction; the attack
comes right before it leaves. Teleportation and being moved by something
else (an event's ``forced`` path, any event) provoke nothing, nor does the
movement of a creature that took the Disengage action this turn. With
positions, the square it is about to leave decides; without them, the
trigger's ``provokes`` says whose reach it leaves. A square is 5 feet: a
reach of 1 is 5 feet (every creature's, unless a rule says otherwise), 2 is
10 feet.
"""

from __future__ import annotations

from ...engine.frames import EVENT
from ...engine.guard import guard
from ...engine.scene import show, within_reach
from .. import common as c


def own_movement(frame) -> bool:
    """Whether ``frame`` is its owner's own doing, not an event moving it."""
    return frame.kind != EVENT and frame.forced is None


def leaving(enc, actor, frame) -> bool:
    """Whether the part of ``frame`` now pending takes its owner out of
    ``actor``'s reach, where everyone stands now."""
    if not frame.path or frame.owner is None or frame.done >= len(frame.path):
        return False
    me = enc.fighters[actor]
    mover = enc.fighters[frame.owner]
    return within_reach(me, mover.at) and not within_reach(me, frame.path[frame.done])


def declared_provokes(enc, st) -> tuple:
    """Whose reach the declared path leaves, square by square (nobody's for a
    forced path, an event or a creature that took the Disengage action)."""
    if not st.path or st.actor is None or st.forced is not None or st.kind == EVENT:
        return ()
    mover = enc.fighters[st.actor]
    if mover.disengaged and st.actor == enc.active:
        return ()
    out = []
    here = mover.at
    for sq in st.path:
        out += [f.id for f in enc.fighters.values() if f.id != st.actor
                and within_reach(f, here) and not within_reach(f, sq)]
        here = sq
    return tuple(dict.fromkeys(out))


def _reach_seen(enc, st):
    seen = c.target_seen(enc, st)
    seen["scene"] = ""
    t = st.target
    if enc.scene and t is not None and t.owner in enc.fighters and st.actor in enc.fighters:
        mover, me = enc.fighters[t.owner], enc.fighters[st.actor]
        nxt = (f", about to enter {show(t.path[t.done])}" if t.path and t.done < len(t.path)
               else ", moving nowhere")
        seen["scene"] = (f" ({mover.id} at {show(mover.at)}{nxt}; {me.id} at {show(me.at)} "
                         f"with a reach of {me.reach * 5} ft)")
    return seen


@guard("not-provoked", "{trigger} does not take {trigger_owner} out of {actor}'s reach"
       "{scene}", seen=_reach_seen,
       ok="{trigger} takes {trigger_owner} out of {actor}'s reach{scene}")
def leaves_reach(enc, st):
    """The trigger takes its owner out of the answerer's reach: as the
    positions show when the encounter has them, as the step stated otherwise."""
    if enc.scene:
        return leaving(enc, st.actor, st.target)
    return st.actor in st.target.provokes


@guard("cannot-see", "{actor} cannot see {trigger_owner}", seen=c.target_seen,
       ok="{actor} can see {trigger_owner}")
def sees_the_mover(enc, st):
    """Only a creature you can see provokes your Opportunity Attack."""
    mover = enc.fighters.get(st.target.owner)
    return mover is not None and not mover.unseen and not enc.fighters[st.actor].blinded


def _moved_seen(enc, st):
    seen = c.target_seen(enc, st)
    jump = st.target is not None and st.target.forced == enc.ruleset.scene.jump
    seen["verb"] = "teleports" if jump else "moves"
    seen["why"] = (": teleportation never provokes an Opportunity Attack" if jump else
                   " without its own movement, action, Bonus Action or Reaction (pushed, "
                   "falling)")
    return seen


@guard("not-own-movement", "{trigger} {verb} {trigger_owner}{why}", seen=_moved_seen,
       ok="{trigger} is {trigger_owner}'s own doing")
def moves_by_itself(enc, st):
    """Teleportation and being moved by something else provoke nothing."""
    return own_movement(st.target)


@guard("disengaged", "{trigger_owner} took the Disengage action this turn: its movement "
       "provokes no Opportunity Attack", seen=c.target_seen,
       ok="{trigger_owner} has not taken the Disengage action this turn")
def not_disengaged(enc, st):
    """After the Disengage action, your movement provokes nothing for the rest of the turn."""
    mover = enc.fighters.get(st.target.owner)
    return mover is None or not (mover.disengaged and mover.id == enc.active)


def _stated_seen(enc, st):
    checked = enc.scene and st.provokes_stated
    return {"actor": st.actor, "kind": st.kind, "stated": list(st.provokes),
            "derived": list(declared_provokes(enc, st)),
            "ok": "whose reach it leaves is what the positions show" if checked else ""}


@guard("provocation-contradicts-scene",
       "{actor}'s {kind} leaves the reach of {derived} where everyone stands, not of "
       "{stated} as stated", seen=_stated_seen, ok="{ok}")
def provokes_as_placed(enc, st):
    """With positions, a stated ``provokes`` must be what the positions show."""
    if not enc.scene or not st.provokes_stated:
        return True
    return set(st.provokes) == set(declared_provokes(enc, st))
