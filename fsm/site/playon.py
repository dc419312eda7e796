"""Steps the builder tries ahead of the player, on an encounter it puts back
as it was: playing the stack on (until an action's next part begins, or it
is done) and ending turns until someone's turn starts. One click then adds
what takes several steps in the format."""

from __future__ import annotations

import contextlib

from ..engine.rows import CONTINUE, END_TURN, RESOLVE
from ..engine.turn import next_in_order
from ..errors import FsmError
from .words import find, top_unresolved

LONGEST = 24                      # steps a "plays on to its end" may add


@contextlib.contextmanager
def trying(enc):
    """Steps taken inside are undone after it, the encounter's count of
    steps seen too."""
    snap, seen = enc.snapshot(), enc.steps_seen
    try:
        yield enc
    finally:
        enc.restore(snap)
        enc.steps_seen = seen


def until(enc, f, next_part=False) -> tuple:
    """(the resolves and continues that finish ``f``, or begin its next part,
    each allowed; the parts of ``f`` then done): (None, 0) when there are none
    or one is refused."""
    steps = []
    with trying(enc):
        try:
            for _ in range(LONGEST):
                g = find(enc, f.id)
                if g is None or g.outcome is not None:
                    return steps or None, f.parts
                top = top_unresolved(enc)
                if top is None:
                    return None, 0
                kind = CONTINUE if top.between_parts else RESOLVE
                if enc.step({"do": kind}).verdict == "rejected":
                    return None, 0
                steps.append({"do": kind})
                if next_part and kind == CONTINUE and top is g:
                    return steps, g.done
        except FsmError:
            pass
    return None, 0


def skips(enc, order) -> list:
    """(the end-turns, whose turn then starts) for each turn two or more
    end-turns away (one is "End the turn")."""
    out, steps = [], []
    with trying(enc):
        for _ in range(len(order)):
            if enc.step({"do": END_TURN}).verdict == "rejected":
                break
            steps.append({"do": END_TURN})
            nxt = next_in_order(enc)
            if len(steps) > 1:
                out.append((list(steps), nxt))
    return out
