"""D&D 4e: Delay (spec/TIMING.md, T-4E-DELAY). A combatant puts its turn off
before acting on it; while delaying it keeps its place in the order, and once
another combatant's turn has ended it may ``return``: it moves to just after
that combatant and takes its delayed turn there. If the order comes round to
its place first, the delayed turn is lost."""

from __future__ import annotations

from ...engine.guard import guard
from ...engine.turn import turn_ended
from .. import common as c
from .effects import refresh_actions

DELAY, RETURN = "delay", c.RETURN


def _seen(enc, st):
    f = enc.fighters[st.actor]
    acted = [what for what in ("standard", "move", "minor") if getattr(f, what) < 1]
    if f.free_turn == enc.turn_serial and f.free_count:
        acted.append("free")
    return {"actor": st.actor, "active": enc.active,
            "acted": " and ".join(f"a {a} action" for a in acted) or "nothing"}


@guard("delay-after-acting",
       "{actor} has already taken {acted} this turn: a turn is delayed before any action",
       seen=_seen, ok="{actor} has taken no action this turn")
def not_yet_acted(enc, st):
    """The actor has taken no action of its own this turn: its standard, move
    and minor actions are unspent and it took no free action."""
    f = enc.fighters[st.actor]
    return f.standard == f.move == f.minor == 1 and not (
        f.free_turn == enc.turn_serial and f.free_count)


@guard("not-delaying", "{actor} is not delaying: only a combatant that delayed its turn "
       "returns to the initiative", seen=_seen,
       ok="{actor} was delaying, and {active}'s turn has ended")
def delaying(enc, st):
    """The actor has delayed its turn and not taken it yet."""
    return enc.fighters[st.actor].delaying


def _between_seen(enc, st):
    return {"actor": st.actor, "active": enc.active}


@guard("not-between-turns", "no turn has just ended: {actor} returns once a turn has ended, "
       "before the next starts ({active}'s turn goes on)", seen=_between_seen,
       ok="{active}'s turn has ended")
def between_turns(enc, st):
    """A turn has ended and nothing unresolved is above its turn-end moment
    (checked only where the phase says otherwise, so it refuses there)."""
    return turn_ended(enc) and len(enc.stack) == 1


def put_off_turn(enc, st):
    """The active combatant delays: its turn is put off, its start has happened
    and its end has not; the next combatant's turn starts (T-4E-DELAY)."""
    enc.fighters[st.actor].delaying = True
    c.start_next_turn(enc, st, f"when {st.actor} delayed its turn")
    st.outcomes.notes.append(f"{st.actor} delays its turn: {enc.active}'s turn starts")


def take_delayed_turn(enc, st):
    """The delaying combatant returns just after the combatant whose turn has
    ended, and its delayed turn begins (no turn-start moment: its start came
    before it delayed)."""
    words = f"when {st.actor} returned to the initiative"
    c.leave_ended_turn(enc, st, words)
    c.close_kept_windows(enc, st, words)
    ended = enc.active
    order = [cid for cid in enc.order if cid != st.actor]
    order.insert(order.index(ended) + 1, st.actor)
    enc.reorder(order)
    enc.advance()
    f = enc.fighters[st.actor]
    f.delaying = False
    refresh_actions(enc, st)
    st.outcomes.notes.append(f"{st.actor} takes its delayed turn after {ended}")


def next_turn_comes(enc, st):
    """A new turn's owner gets its actions back (refresh_actions); if it was
    still delaying, its delayed turn is lost: that turn is over and its
    immediate action comes back."""
    f = enc.fighters[enc.active]
    if f.delaying:
        f.delaying = False
        f.immediate_used = False
        f.turns_ended += 1
        st.outcomes.notes.append(f"{f.id} did not return: its delayed turn is lost, and its "
                                 "turn starts in its place")
    refresh_actions(enc, st)
