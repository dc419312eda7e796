"""D&D 5e's readied response and the circumstance it was readied for
(spec/TIMING.md, T-5E-READY).

Ready names a perceivable circumstance that triggers the Reaction. A
``ready`` step may say which one with ``when``, one of :data:`WHEN`, and
whose doing it is with ``by``; the ``readied`` answer must then answer a
trigger that is that circumstance, by that creature. Without them the
circumstance is not checked (the step's name may say it in words).
"""

from __future__ import annotations

from ...engine.guard import guard
from ...engine.scene import within_reach
from .. import common as c
from .limits import SLOT, SPELL
from .squares import DIFFICULT

WHEN = ("moves", "enters-reach", "leaves-reach", "attacks", "casts")
# What each says, in a player's words ({actor}: the one who readied)
SAYS = {"moves": "moves", "enters-reach": "enters {actor}'s reach",
        "leaves-reach": "leaves {actor}'s reach", "attacks": "attacks", "casts": "casts a spell"}


def _moves(frame) -> bool:
    """A move (TIMING.md Terms), a readied move through Difficult Terrain too."""
    return bool(frame.path) or frame.moving or (frame.kind == "readied"
                                                 and DIFFICULT in frame.flags)


def _reach_crossed(enc, actor, frame, entering: bool) -> bool:
    """Whether the square of ``frame`` that resolved last took its owner into
    (``entering``) or out of ``actor``'s reach; without positions, whether
    it is a move at all."""
    if not _moves(frame):
        return False
    if not enc.scene:
        return True
    if not frame.path or frame.done < 1 or frame.done > len(frame.path):
        return False
    me = enc.fighters[actor]
    before = frame.path[frame.done - 2] if frame.done >= 2 else frame.start
    now = frame.path[frame.done - 1]
    inside = within_reach(me, now) and not within_reach(me, before)
    outside = within_reach(me, before) and not within_reach(me, now)
    return inside if entering else outside


def fits(enc, actor, frame, when) -> bool:
    """Whether ``frame`` (its current part just resolved) is the circumstance ``when``."""
    if when == "moves":
        return _moves(frame)
    if when in ("enters-reach", "leaves-reach"):
        return _reach_crossed(enc, actor, frame, when == "enters-reach")
    if when == "attacks":
        return frame.attack is not None or frame.kind == "opportunity"
    return bool(frame.flags & {SPELL, SLOT})          # casts


def _when_seen(enc, st):
    seen = c.target_seen(enc, st)
    when, by = enc.fighters[st.actor].readied_when if st.actor in enc.fighters else (None, None)
    said = f"{by or 'someone'} {SAYS.get(when, 'does anything').format(actor=st.actor)}"
    seen["when"] = said
    seen["ok"] = f"{seen['trigger']} is what {st.actor} readied for: {said}" \
        if when or by else ""
    return seen


@guard("readied-trigger-not-met", "{trigger} is not what {actor} readied for: {when}",
       seen=_when_seen, ok="{ok}")
def readied_trigger_met(enc, st):
    """The readied response answers the circumstance its Ready named, when
    it named one (``when``), of the creature it named (``by``)."""
    when, by = enc.fighters[st.actor].readied_when
    return (by is None or st.target.owner == by) and \
        (when is None or fits(enc, st.actor, st.target, when))
