"""Whose turn it is, read off an encounter: whether the active combatant has
ended its turn, who comes after it in the initiative, and whose turn the
coming step falls in (spec/TIMING.md, T-NEXT-TURN). The engine, the rulesets
and the tools all ask here, so each question has one answer."""

from __future__ import annotations

from .frames import TURN_END


def turn_ended(enc) -> bool:
    """The active combatant has ended its turn and the next one has not
    started: the turn-end moment is the bottom of the stack."""
    return bool(enc.stack) and enc.stack[0].kind == TURN_END


def next_in_order(enc) -> str:
    """The combatant after the active one in the initiative (after the last,
    the first)."""
    return enc.order[(enc.turn_index + 1) % len(enc.order)]


def whose_turn(enc) -> str:
    """Whose turn the coming step falls in: the active combatant's, or once it
    has ended its turn, the next one's."""
    return next_in_order(enc) if turn_ended(enc) else enc.active
