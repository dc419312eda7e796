"""D&D 5e movement: a move broken up around the turn's other steps, and the
spaces a path may pass through (spec/TIMING.md, T-5E-TURN and T-5E-SPACES).

A creature may use some of its movement, take an action or a Bonus Action,
and move again. A move stops where its owner leaves it: the turn's owner
taking another step of its turn between two squares of its own move ends
that move on the square reached, and the feet of the squares not walked come
back. During its move a creature passes through the space of an ally or of
an Incapacitated creature, not through another's (sizes are not modelled:
every creature is taken as one size, none Tiny).
"""

from __future__ import annotations

from ...engine.frames import RESOLVED, TURN_KINDS
from ...engine.guard import guard
from ...engine.scene import show
from .. import common as c
from .squares import FEET_PER_SQUARE, SIZES, STAND, feet

MOVE = "move"


def paused_move(frame, actor) -> bool:
    """Whether ``frame`` is ``actor``'s own move between two of its squares."""
    return frame.kind == MOVE and frame.owner == actor and frame.between_parts


def _unresolved(enc):
    return [f for f in enc.stack if f.outcome is None and f.kind not in TURN_KINDS]


def _open_seen(enc, st):
    seen = c.target_seen(enc, st)
    seen["open"] = ", ".join(f"{f.id} ({f.owner}'s {f.kind})"
                             for f in _unresolved(enc)) or "nothing"
    return seen


def _paused_seen(enc, st):
    seen = _open_seen(enc, st)
    own = _unresolved(enc)
    seen["ok"] = "nothing is unresolved on the stack"
    if own:
        seen["ok"] = f"{own[-1].id}, {st.actor}'s own move, is between two squares"
    return seen


@guard("action-in-progress", "{open} is still unresolved; the turn goes on between the "
       "squares of one's own move, not inside another action", seen=_paused_seen,
       ok="{ok}")
def only_own_move_paused(enc, st):
    """Nothing is unresolved but the actor's own move between two squares
    (a move broken up around an action, a Bonus Action or the end of the turn)."""
    return all(paused_move(f, st.actor) for f in _unresolved(enc))


def _pauses_seen(enc, st):
    seen = _open_seen(enc, st)
    own = _unresolved(enc)
    seen["ok"] = (f"{own[-1].id}, {st.actor}'s own {own[-1].kind}, is between two of its "
                  "parts" if own else "nothing is unresolved on the stack")
    return seen


@guard("action-in-progress", "{open} is still unresolved; a move comes between the "
       "attacks of one's own Attack action or the squares of one's own move, not inside "
       "another action", seen=_pauses_seen, ok="{ok}")
def only_own_pauses_open(enc, st):
    """Nothing is unresolved but the mover's own action between two of its
    attacks (Extra Attack: moving between attacks) or its own move between
    two squares (which the new move stops)."""
    return all(f.owner == st.actor and f.between_parts and f.kind in ("action", MOVE)
               for f in _unresolved(enc))


def feet_back(enc, actor) -> int:
    """The feet ``actor``'s own move between two squares, on top of the stack,
    gives back when a step of its turn stops it (0 without one)."""
    top = enc.stack[-1] if enc.stack else None
    if top is None or not paused_move(top, actor):
        return 0
    return _unwalked(enc, top)


def _unwalked(enc, move) -> int:
    """The feet of the squares of ``move`` not walked yet, as they were
    counted when it was declared (limits.spend_movement)."""
    kept = enc.fighters[move.owner].move_feet
    if kept is None or kept[0] != move.id:
        return FEET_PER_SQUARE * (move.parts - move.done)
    return sum(kept[1][move.done:move.parts])


def _feet_seen(enc, st):
    back = feet_back(enc, st.actor)
    return {"actor": st.actor, "feet": feet(enc, st),
            "movement": enc.fighters[st.actor].movement + back,
            "back": f" (with the {back} ft its stopped move gives back)" if back else ""}


@guard("not-enough-movement", "{actor} has {movement} ft of movement left this turn"
       "{back}; this move needs {feet} ft", seen=_feet_seen,
       ok="{actor} has {movement} ft of movement left{back}, enough for {feet} ft")
def movement_left(enc, st):
    """A move covers at most the movement left this turn (Speed, more after a
    Dash), with the feet a move it stops gives back."""
    return feet(enc, st) <= enc.fighters[st.actor].movement + feet_back(enc, st.actor)


def stop_own_move(enc, st):
    """The actor's own move between two squares ends on the square reached:
    finished, its parts the squares walked, off the stack with its window
    closed; the feet of the squares not walked come back."""
    top = enc.stack[-1] if enc.stack else None
    if top is None or not paused_move(top, st.actor):
        return
    mover = enc.fighters[st.actor]
    back = _unwalked(enc, top)
    mover.movement += back
    st.outcomes.notes.append(f"{top.id}, {st.actor}'s move, stops after {top.done} of its "
                             f"{top.parts} squares; the {back} ft not walked come back")
    top.parts = top.done
    top.outcome = RESOLVED
    enc.note(st, top, RESOLVED)
    c.pop_frame(enc, st)


# -- standing up from Prone (T-5E-PRONE) ----------------------------------------------

def _stand_seen(enc, st):
    return {"actor": st.actor,
            "ok": f"{st.actor} is Prone and stands up first" if STAND in st.flags else ""}


@guard("not-prone", "{actor} is not Prone: it has nothing to stand up from",
       seen=_stand_seen, ok="{ok}")
def prone_to_stand(enc, st):
    """Only a Prone creature stands up (a move with ``stand``)."""
    return STAND not in st.flags or enc.fighters[st.actor].prone


def stand_up(enc, st):
    """A move with ``stand``: its creature is no longer Prone."""
    if STAND in st.flags:
        enc.fighters[st.actor].prone = False


# -- the spaces a move passes through ------------------------------------------------

def may_pass(mover, other) -> bool:
    """Whether ``mover`` may move through ``other``'s space: an ally's, an
    Incapacitated creature's, a Tiny one's, or one two or more sizes apart."""
    apart = abs(SIZES.index(mover.size) - SIZES.index(other.size))
    return other.side == mover.side or other.incapacitated or other.size == SIZES[0] \
        or apart >= 2


def _blocker(enc, st):
    """The first square of the step's own path where a creature stands that
    the mover may not pass (may_pass), with it; or None."""
    if not enc.scene or not st.path or st.actor is None or st.forced is not None:
        return None
    mover = enc.fighters[st.actor]
    standing = {f.at: f for f in enc.fighters.values() if f.id != st.actor}
    for sq in st.path:
        other = standing.get(tuple(sq))
        if other is not None and not may_pass(mover, other):
            return sq, other
    return None


def _space_seen(enc, st):
    found = _blocker(enc, st)
    seen = {"actor": st.actor, "square": "", "other": "",
            "ok": "its path passes through no space closed to it" if st.path else ""}
    if found is not None:
        seen["square"], seen["other"] = show(found[0]), found[1].id
    return seen


@guard("enemy-space", "{actor}'s path passes through {square}, the space of {other}, "
       "which is neither its ally, nor Incapacitated, nor Tiny, nor two sizes apart from it",
       seen=_space_seen, ok="{ok}")
def passes_only_open_spaces(enc, st):
    """A move passes through an ally's, an Incapacitated, a Tiny or a two
    sizes apart creature's space, not another's."""
    return _blocker(enc, st) is None

