"""The circumstance a readied action waits for, as its Ready names it
(``when``, one of :data:`WHEN`; ``by``, whose doing it is), and whether a
trigger is that circumstance (spec/TIMING.md, T-5E-READY, T-4E-READY).

Without ``when`` and ``by`` nothing is checked (the step's name may say the
circumstance in words). A readied action taken after its trigger reads the
part that resolved last; one taken before it (4e's ``readied_as:
interrupt``) reads the part pending. What makes a step a move or a casting
beyond its path, and when a readied action comes first, is the ruleset's
(:func:`readied_guard`).
"""

from __future__ import annotations

from ..engine.guard import guard
from ..engine.scene import within_reach
from . import common as c

WHEN = ("moves", "enters-reach", "leaves-reach", "attacks", "casts")
# What each says, in a player's words ({actor}: the one who readied)
SAYS = {"moves": "moves", "enters-reach": "enters {actor}'s reach",
        "leaves-reach": "leaves {actor}'s reach", "attacks": "attacks", "casts": "casts a spell"}


def _reach_crossed(enc, actor, frame, entering: bool, ahead: bool) -> bool:
    """Whether the square of ``frame`` in question (the one that resolved
    last, or, ``ahead``, the one pending: a readied action taken before it)
    takes its owner into (``entering``) or out of ``actor``'s reach; without
    positions, whether it is a move at all (the caller's question)."""
    if not enc.scene:
        return True
    n = frame.done + (1 if ahead else 0)
    if not frame.path or n < 1 or n > len(frame.path):
        return False
    me = enc.fighters[actor]
    before = frame.path[n - 2] if n >= 2 else frame.start
    now = frame.path[n - 1]
    inside = within_reach(me, now) and not within_reach(me, before)
    outside = within_reach(me, before) and not within_reach(me, now)
    return inside if entering else outside


def readied_guard(moving=frozenset(), casting=frozenset(), ahead=lambda enc: False):
    """The guard ``readied_trigger_met`` of a ruleset whose readied frames
    with a flag of ``moving`` are moves, whose steps with a flag of
    ``casting`` cast a spell, and whose readied action comes before its
    trigger when ``ahead(enc)`` (4e's option)."""

    def moves(frame) -> bool:
        return bool(frame.path) or frame.moving or (frame.kind == "readied"
                                                     and bool(moving & frame.flags))

    def fits(enc, actor, frame, when) -> bool:
        if when == "moves":
            return moves(frame)
        if when in ("enters-reach", "leaves-reach"):
            return moves(frame) and _reach_crossed(enc, actor, frame, when == "enters-reach",
                                                   ahead(enc))
        if when == "attacks":
            return frame.attack is not None or frame.kind == "opportunity"
        return bool(frame.flags & casting)          # casts

    def why(enc, actor, frame, when, by) -> str:
        """What the trigger is not, of what the Ready named (its first miss)."""
        if by is not None and frame.owner != by:
            return f"it is {frame.owner or 'nobody'}'s doing"
        if when in ("moves", "enters-reach", "leaves-reach") and not moves(frame):
            return "it is no move"
        if when in ("enters-reach", "leaves-reach"):
            way = "into" if when == "enters-reach" else "out of"
            which = "it is entering" if ahead(enc) else "it has just entered"
            return f"the square {which} does not take {frame.owner} {way} {actor}'s reach"
        return {"attacks": "it is no attack", "casts": "it casts no spell"}.get(when, "")

    def seen(enc, st):
        out = c.target_seen(enc, st)
        when, by = enc.fighters[st.actor].readied_when if st.actor in enc.fighters \
            else (None, None)
        said = f"{by or 'someone'} {SAYS.get(when, 'does anything').format(actor=st.actor)}"
        miss = why(enc, st.actor, st.target, when, by) if st.target is not None else ""
        out["when"] = said + (f"; {miss}" if miss else "")
        out["ok"] = f"{out['trigger']} is what {st.actor} readied for: {said}" \
            if when or by else ""
        return out

    @guard("readied-trigger-not-met", "{trigger} is not what {actor} readied for: {when}",
           seen=seen, ok="{ok}")
    def readied_trigger_met(enc, st):
        """The readied action answers the circumstance its Ready named, when
        it named one (``when``), of the creature it named (``by``)."""
        when, by = enc.fighters[st.actor].readied_when
        return (by is None or st.target.owner == by) and \
            (when is None or fits(enc, st.actor, st.target, when))

    return readied_trigger_met
