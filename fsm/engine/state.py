"""The state of an encounter as one immutable value.

:func:`capture` takes everything a verdict can depend on as nested tuples
(frames and fighters as the values of their slots); :func:`restore` puts a
captured value back. The same value serves to undo a refused step, to check
that a refused step changed nothing (it is hashable and comparable), and as
the base of the explorer's frozen states. A new field of the encounter is
added here once.
"""

from __future__ import annotations

from .frames import fighter_values, frame_from, frame_values, set_fighter


def capture(enc) -> tuple:
    """Everything a verdict reads, and how far the history had gone."""
    return (enc.state, enc.round, enc.turn_index, enc.turn_serial, len(enc.turns),
            tuple(enc.order), tuple(map(frame_values, enc.stack)), len(enc.past_order),
            tuple(map(frame_values, enc.kept.values())), tuple(enc.uses.items()),
            len(enc.log), tuple(map(fighter_values, enc.fighters.values())),
            tuple(len(v) for v in enc._outcomes.values()))


def restore(enc, value: tuple) -> None:
    """Put a captured state back; history recorded since is forgotten."""
    (state, enc.round, enc.turn_index, enc.turn_serial, turns, order, stack, past, kept,
     uses, log, fighters, outcomes) = value
    enc.state = state
    del enc.turns[turns:]
    enc.order = list(order)
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
    for fighter, values in zip(enc.fighters.values(), fighters):
        set_fighter(fighter, values)


def fingerprint(enc) -> tuple:
    """A hashable picture of the whole state, for "nothing changed" checks:
    the captured value, with which frames have left the stack."""
    return capture(enc) + (tuple(enc.past_order),)
