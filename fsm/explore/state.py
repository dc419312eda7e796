"""The explorer's states: the canonical picture that merges states the rules
cannot tell apart. Frozen states themselves are the engine's
(:func:`fsm.engine.state.freeze`)."""

from __future__ import annotations

from operator import attrgetter

from ..engine.frames import EVENT, TURN_KINDS, Frame
from ..engine.state import freeze, thaw  # noqa: F401  (re-exported)

CLOSED = -1           # Move.target: the frame that left the stack last
KEPT = -2             # Move.target: KEPT - i is the i-th frame kept open off the stack

# Frame slots that name or date a frame without changing what the rules allow.
_FRAME_NAMING = ("id", "name", "step", "turn", "parent", "closed_by")
_frame_kept = attrgetter(*(s for s in Frame.__slots__ if s not in _FRAME_NAMING))


def canonical(enc, exact: bool = False, answerers=None) -> tuple:
    """What the rules can still tell apart.

    Always: frames by stack position (ids, names and step numbers dropped),
    turn serials reduced to "this turn or not", and each combatant as its
    ruleset reduces it (its action slots only while active, its answer
    budgets only if it answers in this walk). Unless ``exact``, also what no
    guard or effect reads: the round number (a situation in round 2 the same
    as one in round 1 has the same future, one round shorter; the walk
    expands a state again when it meets it in an earlier round), frame kinds
    beyond the classes the ruleset's guards tell apart, the details of a
    finished frame beyond its outcome and window, the parent of a frame that
    cannot interrupt, and the answers given when no guard of the ruleset
    counts them. tests/test_explore.py checks on small encounters that states
    the reduced picture merges give every move the same verdict and
    successor, and that folding the round loses no situation.
    """
    pos = positions(enc)
    if exact:
        frames = tuple(_exact_frame(f, pos) for f in enc.stack)
        kept = tuple(_exact_frame(f, pos) for f in enc.kept.values())
    else:
        klass, parented = enc.ruleset.explore.frame_class, enc.ruleset.explore.parented
        frames = tuple(_frame_class(f, pos, klass, parented) for f in enc.stack)
        kept = tuple(_frame_class(f, pos, klass, parented) for f in enc.kept.values())
    key = enc.ruleset.explore.fighter_key
    fighters = tuple(key(enc, f, exact, answerers is None or f.id in answerers)
                     for f in enc.fighters.values())
    return (enc.state, enc.round if exact else None, enc.turn_index, tuple(enc.order),
            frames, kept, _uses_key(enc, pos, exact), fighters)


def positions(enc) -> dict:
    """Frame id -> position: on the stack 0.., kept open off it -2, -3, ..."""
    pos = {f.id: i for i, f in enumerate(enc.stack)}
    for i, fid in enumerate(enc.kept):
        pos[fid] = KEPT - i
    return pos


def _exact_frame(f, pos) -> tuple:
    return (pos.get(f.parent, -1),) + _frame_kept(f)


def _frame_class(f, pos, klass, parented) -> tuple:
    kind = f.kind if f.kind in TURN_KINDS or f.kind == EVENT else klass(f.kind)
    if f.outcome is not None:
        return (f.owner, kind, f.provokes, f.labels, f.outcome,
                f.window_part == f.done, f.closed, f.flags)
    parent = pos.get(f.parent, -1) if kind in parented else None
    return (f.owner, kind, f.provokes, f.labels, None, f.parts, f.done, f.phase,
            f.interrupted, f.moving, parent, f.window_part, f.flags)


def _uses_key(enc, pos, exact) -> frozenset:
    if not exact and not enc.ruleset.explore.reads_uses:
        return frozenset()
    frames = {f.id: f for f in (*enc.stack, *enc.kept.values())}
    # only answers on a frame's occurrence in play can still limit anything
    return frozenset((pos[fid], actor, frozenset(used))
                     for (fid, occurrence, actor), used in enc.uses.items()
                     if fid in pos and frames[fid].occurrence == occurrence)


def stack_height(enc) -> int:
    return sum(1 for f in enc.stack if f.kind not in TURN_KINDS)
