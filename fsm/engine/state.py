"""The state of an encounter as one immutable value.

Two named records hold it, each field declared once, in the record:
:class:`Moment` is everything a verdict can depend on but the fighters, and
how far the history had gone (the base of undoing a step and of "a refused
step changes nothing"); :class:`Frozen` is the explorer's state, which holds
no history, so that a state reached by two timelines is one value. Both are
tuples (hashable and comparable); frames and fighters are the values of their
slots. A new field of the encounter is a field of these records, read and
put back by name.
"""

from __future__ import annotations

from collections import namedtuple

from .frames import fighter_values, frame_from, frame_values, set_fighter


class Moment(namedtuple("Moment", (
        "state",          # the machine's phase
        "round",
        "turn_index",
        "turn_serial",
        "turns",          # how many turns the history has
        "order",
        "stack",          # the frames' values, bottom first
        "past",           # how many frames have left the stack
        "kept",           # the values of the frames kept open off the stack
        "uses",
        "log",
        "outcomes"))):    # how many outcomes each kind has recorded
    """The encounter but its fighters, and the length of each history."""

    __slots__ = ()


class Snapshot(namedtuple("Snapshot", ("moment", "saved"))):
    """What undoing a step needs: the moment, and the journal of the fighters
    the step changed (each saved the first time the step changes it)."""

    __slots__ = ()


class Frozen(namedtuple("Frozen", (
        "state",
        "round",
        "turn_index",
        "turn_serial",
        "turns",
        "order",
        "stack",
        "uses",
        "fighters",
        "last",           # the values of the frame that left the stack last, or None
        "kept"))):
    """The explorer's state: the encounter's data, no history but the last
    frame that left the stack and the frames kept open."""

    __slots__ = ()


_new = tuple.__new__   # a record from its values in field order (no keyword parsing:
                       # a snapshot is taken at every step); tests/test_state.py holds
                       # each field to its value


def moment(enc) -> Moment:
    return _new(Moment, (enc.state, enc.round, enc.turn_index, enc.turn_serial,
                         len(enc.turns), enc.order, tuple(map(frame_values, enc.stack)),
                         len(enc.past_order), tuple(map(frame_values, enc.kept.values())),
                         tuple(enc.uses.items()), len(enc.log),
                         tuple(map(len, enc._outcomes.values()))))


def capture(enc) -> tuple:
    """Everything a verdict reads, and how far the history had gone: the full
    value, every fighter included (for comparing states)."""
    return (moment(enc), tuple(map(fighter_values, enc.fighters.values())))


def snapshot(enc) -> Snapshot:
    """What undoing a step needs: the state but the fighters, and a journal
    that saves each fighter the step changes the first time it changes it
    (copy on write: the cost does not grow with the number of combatants).
    Each snapshot is restored or released, innermost first."""
    saved: dict = {}
    enc.journal.open.append(saved)
    return Snapshot(moment(enc), saved)


def release(enc, snap: Snapshot) -> None:
    """Close the journal of a snapshot that will not be restored."""
    saved, journals = snap.saved, enc.journal.open
    for i in range(len(journals) - 1, -1, -1):
        if journals[i] is saved:
            del journals[i]
            return


def _put_kept(enc, kept) -> None:
    """The frames kept open off the stack, back (they are past frames too)."""
    enc.kept = {}
    for values in kept:
        frame = frame_from(values)
        enc.kept[frame.id] = enc.past[frame.id] = frame


def restore(enc, snap: Snapshot) -> None:
    """Put a snapshot back; history recorded since is forgotten."""
    m = snap.moment
    release(enc, snap)
    enc.state, enc.round, enc.order = m.state, m.round, m.order
    enc.turn_index, enc.turn_serial = m.turn_index, m.turn_serial
    del enc.turns[m.turns:]
    enc.set_stack([frame_from(v) for v in m.stack])
    for fid in enc.past_order[m.past:]:
        enc.past.pop(fid, None)
    del enc.past_order[m.past:]
    _put_kept(enc, m.kept)
    enc.uses = dict(m.uses)
    del enc.log[m.log:]
    for frames, n in zip(enc._outcomes.values(), m.outcomes):
        del frames[n:]
    for fighter, values in snap.saved.items():
        set_fighter(fighter, values)
    if enc.journal.changed is not None:
        enc.journal.changed.update(snap.saved)


def fingerprint(enc) -> tuple:
    """A hashable picture of the whole state, for "nothing changed" checks:
    the captured value, with which frames have left the stack."""
    return capture(enc) + (tuple(enc.past_order),)


def freeze(enc) -> Frozen:
    """The encounter's data as immutable values (the machine is not copied);
    of the frames that left the stack, the last one and those kept open."""
    last = enc.past[enc.past_order[-1]] if enc.past_order else None
    return _new(Frozen, (enc.state, enc.round, enc.turn_index, enc.turn_serial,
                         tuple(enc.turns), tuple(enc.order), tuple(map(frame_values, enc.stack)),
                         tuple(enc.uses.items()),
                         tuple(map(fighter_values, enc.fighters.values())),
                         frame_values(last) if last is not None else None,
                         tuple(map(frame_values, enc.kept.values()))))


def thaw(enc, frozen: Frozen) -> None:
    """Put a frozen state back into ``enc``; the log and older past frames
    are dropped (nothing a verdict reads), the frames kept open are not."""
    f = frozen
    enc.state, enc.round, enc.turn_index, enc.turn_serial = \
        f.state, f.round, f.turn_index, f.turn_serial
    enc.turns = list(f.turns)
    enc.order = tuple(f.order)
    enc.set_stack([frame_from(v) for v in f.stack])
    enc.uses = dict(f.uses)
    for fighter, values in zip(enc.fighters.values(), f.fighters):
        set_fighter(fighter, values)
    if enc.journal.changed is not None:
        enc.journal.changed.update(enc.fighters.values())
    enc.forget_history()
    enc.past, enc.past_order = {}, []
    _put_kept(enc, f.kept)
    enc.past_order.extend(enc.kept)
    if f.last is not None:
        frame = enc.kept.get(f.last[0]) or frame_from(f.last)
        enc.past[frame.id] = frame
        if frame.id in enc.past_order:
            enc.past_order.remove(frame.id)
        enc.past_order.append(frame.id)
