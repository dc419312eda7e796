"""The explorer's states: frozen values of an encounter, thawed back, and
the canonical picture that merges states the rules cannot tell apart."""

from __future__ import annotations

from operator import attrgetter

from ..engine.frames import EVENT, TURN_KINDS, Frame, frame_from, frame_values, set_fighter
from ..engine.frames import fighter_values

CLOSED = -1           # Move.target: the frame that left the stack last
KEPT = -2             # Move.target: KEPT - i is the i-th frame kept open off the stack


def freeze(enc) -> tuple:
    """The encounter's data as immutable values (the machine is not copied);
    of the frames that left the stack, the last one and those kept open."""
    last = enc.past[enc.past_order[-1]] if enc.past_order else None
    return (enc.state, enc.round, enc.turn_index, enc.turn_serial, tuple(enc.turns),
            tuple(enc.order), tuple(map(frame_values, enc.stack)),
            tuple(enc.uses.items()), tuple(map(fighter_values, enc.fighters.values())),
            frame_values(last) if last is not None else None,
            tuple(map(frame_values, enc.kept.values())))


def thaw(enc, frozen) -> None:
    """Put a frozen state back into ``enc``; the log and older past frames
    are dropped (nothing a verdict reads), the frames kept open are not."""
    (enc.state, enc.round, enc.turn_index, enc.turn_serial, turns, order, frames, uses,
     fighters, last, kept) = frozen
    enc.turns = list(turns)
    enc.order = list(order)
    enc.set_stack([frame_from(v) for v in frames])
    enc.uses = dict(uses)
    for fighter, values in zip(enc.fighters.values(), fighters):
        set_fighter(fighter, values)
    enc.forget_history()
    enc.past, enc.past_order, enc.kept = {}, [], {}
    for values in kept:
        frame = frame_from(values)
        enc.kept[frame.id] = enc.past[frame.id] = frame
        enc.past_order.append(frame.id)
    if last is not None:
        frame = enc.kept.get(last[0]) or frame_from(last)
        enc.past[frame.id] = frame
        if frame.id in enc.past_order:
            enc.past_order.remove(frame.id)
        enc.past_order.append(frame.id)


# Frame slots that name or date a frame without changing what the rules allow.
_FRAME_NAMING = ("id", "name", "step", "turn", "parent", "closed_by")
_frame_kept = attrgetter(*(s for s in Frame.__slots__ if s not in _FRAME_NAMING))
# Guards that read which answers were given to a trigger (``enc.uses``).
def canonical(enc, exact: bool = False, answerers=None) -> tuple:
    """What the rules can still tell apart.

    Always: frames by stack position (ids, names and step numbers dropped),
    turn serials reduced to "this turn or not", and each combatant as its
    ruleset reduces it (its action slots only while active, its answer
    budgets only if it answers in this walk). Unless ``exact``, also what no
    guard or effect reads: frame kinds beyond the classes the ruleset's
    guards tell apart, the details of a finished frame beyond its outcome
    and window, the parent of a frame that cannot interrupt, and the answers
    given when no guard of the ruleset counts them.
    tests/test_explore.py checks on small encounters that states the reduced
    picture merges give every move the same verdict and successor.
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
    return (enc.state, enc.round, enc.turn_index, tuple(enc.order), frames, kept,
            _uses_key(enc, pos, exact), fighters)


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
                f.window_part == f.done, f.closed)
    parent = pos.get(f.parent, -1) if kind in parented else None
    return (f.owner, kind, f.provokes, f.labels, None, f.parts, f.done, f.phase,
            f.interrupted, f.moving, parent, f.window_part)


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
