"""The board: what a ruleset's guards, effects and tools may read and change
of an encounter, and nothing else (tests/test_layout.py holds every
``enc.<name>`` under ``fsm/rulesets`` to :data:`INTERFACE`, and checks that
the encounter has each name).

Guards and effects take the encounter as ``enc``. Of it they see the
combatants, the stack, the answers counted, the turn and what has left the
stack; they change the stack, the log and the turn only through the methods
below, and never assign to the encounter itself. How the engine keeps its
history, settles, decides and words a verdict stays behind this list, so it
may change without a ruleset noticing.
"""

from __future__ import annotations

from typing import Any, Protocol


class Board(Protocol):
    """The encounter as the rulesets see it."""

    ruleset: Any          # the Ruleset in play
    options: dict         # the options' values, by name
    fighters: dict        # combatant id -> the ruleset's fighter (budgets, conditions,
                          # square); effects write its fields
    scene: bool           # whether the combatants stand on a grid
    order: tuple          # the initiative order, combatant ids
    round: int            # the round, from 1
    turn_index: int       # the active combatant's place in the order
    turn_serial: int      # the number of the turn, from 1, over all rounds
    active: str           # whose turn it is
    stack: list           # the frames on the stack, bottom first (push and pop change it)
    past: dict            # frame id -> a frame that has left the stack
    kept: dict            # frame id -> a frame kept open off the stack
    uses: dict            # (frame id, ...) -> the answers counted on a frame; effects count

    # -- reading ----------------------------------------------------------------------

    def find(self, fid):
        """The frame of that id on the stack, or None."""

    def left_stack(self) -> list:
        """The frames that have left the stack, the latest first."""

    def budgets(self, cid=None) -> dict:
        """A combatant's budgets (everyone's without ``cid``), as the facts give them."""

    def turn_of(self, serial: int):
        """(round, active) of turn ``serial``; None if unknown."""

    def describe_turn(self, serial: int) -> str:
        """Turn ``serial`` in words, for a refusal's reason."""

    def events(self) -> list:
        """What happened to frames, oldest first: dicts of step, frame, actor,
        kind, event and turn."""

    # -- changing ---------------------------------------------------------------------

    def push(self, frame) -> None:
        """A frame on top of the stack."""

    def pop(self):
        """The top frame, off the stack."""

    def note(self, st, frame, event, **more) -> None:
        """What happened to a frame at step ``st``, for the log."""

    def remember_past(self, frame) -> None:
        """A frame has left the stack."""

    def forget_uses(self, fid) -> None:
        """The answers counted on a frame, forgotten."""

    def advance(self) -> None:
        """The turn passes to the next in the order."""

    def reorder(self, order) -> None:
        """A new initiative order, the active combatant kept."""


INTERFACE = frozenset(Board.__annotations__) | frozenset(
    name for name, value in vars(Board).items()
    if callable(value) and not name.startswith("_"))
