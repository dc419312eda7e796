"""The state of an encounter as one immutable value.

:func:`capture` takes everything a verdict can depend on as nested tuples
(frames and fighters as the values of their slots); :func:`restore` puts a
captured value back. The same value serves to undo a refused step, to check
that a refused step changed nothing (it is hashable and comparable), and as
the base of the explorer's frozen states (:func:`freeze`, which holds no
history, so that a state reached by two timelines is one value). A new field
of the encounter is added here once.
"""

from __future__ import annotations

from .frames import fighter_values, frame_from, frame_values, set_fighter


def capture(enc) -> tuple:
    """Everything a verdict reads, and how far the history had gone: the full
    value, every fighter included (for comparing states)."""
    return _common(enc) + (tuple(map(fighter_values, enc.fighters.values())),)


def _common(enc) -> tuple:
    return (enc.state, enc.round, enc.turn_index, enc.turn_serial, len(enc.turns),
            enc.order, tuple(map(frame_values, enc.stack)), len(enc.past_order),
            tuple(map(frame_values, enc.kept.values())), tuple(enc.uses.items()),
            len(enc.log), tuple(map(len, enc._outcomes.values())))


def snapshot(enc) -> tuple:
    """What undoing a step needs: the state but the fighters, and a journal
    that saves each fighter the step changes the first time it changes it
    (copy on write: the cost does not grow with the number of combatants).
    Each snapshot is restored or released, innermost first."""
    saved: dict = {}
    enc.journal.open.append(saved)
    return _common(enc) + (saved,)


def release(enc, snap) -> None:
    """Close the journal of a snapshot that will not be restored."""
    saved, journals = snap[-1], enc.journal.open
    for i in range(len(journals) - 1, -1, -1):
        if journals[i] is saved:
            del journals[i]
            return


def restore(enc, snap: tuple) -> None:
    """Put a snapshot back; history recorded since is forgotten."""
    (state, enc.round, enc.turn_index, enc.turn_serial, turns, enc.order, stack, past, kept,
     uses, log, outcomes, saved) = snap
    release(enc, snap)
    enc.state = state
    del enc.turns[turns:]
    enc.set_stack([frame_from(v) for v in stack])
    for fid in enc.past_order[past:]:
        enc.past.pop(fid, None)
    del enc.past_order[past:]
    enc.kept = {}
    for values in kept:
        frame = frame_from(values)
        enc.kept[frame.id] = enc.past[frame.id] = frame
    enc.uses = dict(uses)
    del enc.log[log:]
    for frames, n in zip(enc._outcomes.values(), outcomes):
        del frames[n:]
    for fighter, values in saved.items():
        set_fighter(fighter, values)


def fingerprint(enc) -> tuple:
    """A hashable picture of the whole state, for "nothing changed" checks:
    the captured value, with which frames have left the stack."""
    return capture(enc) + (tuple(enc.past_order),)


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
    enc.order = tuple(order)
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
