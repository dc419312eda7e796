"""The explorer's alphabet: the abstract steps tried in every state.

Each turn action of the ruleset's ``explore.turn_moves`` by each combatant;
each answer of the ruleset by each answering combatant to each trigger on
the stack (and on each of its trigger labels), to each frame kept open off
it, to the frame that left it last, or to nothing; the ruleset's stack moves
(resolve and continue first, so that the walk, and the vectors generated
from it, meet the plain course of play first), an event, the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.rows import CONTINUE, END_TURN, EVENT, RESOLVE
from ..rulesets import GRID_STEPS, get, walk_path
from .state import CLOSED, KEPT

FIRST_STACK_MOVES = (RESOLVE, CONTINUE)
LAST_MOVES = (EVENT, END_TURN)


@dataclass(frozen=True)
class Move:
    """One abstract step; ``target`` is a stack position, made a frame id
    only when the step is played."""

    do: str
    actor: str | None = None
    fields: tuple = ()
    target: int | None = None
    on: str | None = None
    ruling: str | None = None

    def render(self, enc) -> dict:
        data = {"do": self.do}
        if self.actor is not None:
            data["actor"] = self.actor
        for key, value in self.fields:
            if key == GRID_STEPS:
                data["path"] = walk_path(enc.fighters[self.actor].at, value)
            else:
                data[key] = list(value) if isinstance(value, tuple) else value
        if self.target is not None:
            if self.target == CLOSED:
                data["to"] = enc.past_order[-1]
            elif self.target <= KEPT:
                data["to"] = list(enc.kept)[KEPT - self.target]
            else:
                data["to"] = enc.stack[self.target].id
        if self.on is not None:
            data["on"] = self.on
        if self.ruling is not None:
            data["ruling"] = self.ruling
        return data

    def denied(self) -> "Move":
        return Move(self.do, self.actor, self.fields, self.target, self.on, "deny")


def _turn_moves(ruleset, ids: list, grid: bool) -> list:
    """The turn's own actions, by every combatant (most are not their turn)."""
    moves = ruleset.explore.grid_moves if grid else ruleset.explore.turn_moves
    out = []
    for actor in ids:
        others = tuple(c for c in ids if c != actor)
        out.extend(Move(do, actor, fields) for do, fields in moves(actor, others))
    return out


class Alphabet:
    """Every move worth trying in a state: fixed moves plus answers to each
    trigger on the stack, to each frame kept open, and to the last one gone."""

    def __init__(self, ruleset, ids: list, responders=None, grid: bool = False,
                 kinds=None, turn_changes: bool = False):
        """``kinds``, when given: the step kinds offered (the others left out);
        ``turn_changes``: also each combatant's steps that change whose turn it
        is without ending it (4e's delay and return), which the fuzzer offers
        and the explorer's walks leave out."""
        ruleset = get(ruleset)
        self.kinds = kinds
        self.responders = list(responders or ids)
        self.responses = ruleset.answers
        self.labelled = ruleset.explore.labelled
        self.grid_answers = (ruleset.explore.grid_answers if grid else ()) \
            + ruleset.explore.answer_variants
        first = [k for k in FIRST_STACK_MOVES if k in ruleset.stack_moves]
        stack_moves = first + sorted(ruleset.stack_moves - set(first))
        last = [k for k in LAST_MOVES if k in ruleset.table.kinds]
        changes = [Move(k, actor) for k in sorted(ruleset.turn_changes) for actor in ids] \
            if turn_changes else []
        self.fixed = self._offered(_turn_moves(ruleset, ids, grid) + changes +
                                   [Move(k) for k in stack_moves + last])
        self._made: dict = {}

    def moves(self, enc) -> list:
        out = list(self.fixed)
        for pos, frame in enumerate(enc.stack):
            labels = tuple(frame.labels) if self.labelled and len(frame.labels) > 1 else (None,)
            out.extend(self._answers(pos, labels))
        for i in range(len(enc.kept)):
            out.extend(self._answers(KEPT - i, None))
        if enc.past_order:
            out.extend(self._answers(CLOSED, None))
        if not enc.stack:
            out.extend(self._answers(None, None))
        return out

    def _answers(self, target, labels) -> list:
        """The answers to one target (a stack position with its trigger labels,
        a kept frame, the frame gone last, nothing), made once: every state
        with that target offers the same."""
        key = (target, labels)
        got = self._made.get(key)
        if got is None:
            if labels is not None:          # a frame on the stack
                got = [Move(kind, actor, target=target, on=label) for kind in self.responses
                       for actor in self.responders for label in labels]
                got += [Move(kind, actor, fields, target=target)
                        for kind, fields in self.grid_answers for actor in self.responders]
            elif target is not None and target <= KEPT:
                got = [Move(kind, actor, target=target) for kind in self.responses
                       for actor in self.responders]
            else:                           # the frame gone last, or nothing: by one
                got = [Move(kind, self.responders[-1], target=target)
                       for kind in self.responses]
            got = self._made[key] = self._offered(got)
        return got

    def _offered(self, moves: list) -> list:
        return moves if self.kinds is None else [m for m in moves if m.do in self.kinds]
