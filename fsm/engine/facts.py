"""The facts a step may expect after it, declared once (spec/FORMAT.md,
*Expectations*; spec/PROTOCOL.md, the hello's ``facts``).

Each fact has its name, its JSON Schema (spec/vector.schema.json is built
from these), how ``fsm check`` checks an expectation of it and says what it
must be, whether an engine whose hello names no facts is held to it, and
whether it is compared as one value or combatant by combatant. The
expectation checks, the schema, the comparison and the reference's hello
read this table; :meth:`fsm.engine.Encounter.facts` reports them in its order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .rows import STATES


def strings(value) -> bool:
    """A list of strings (what STRINGS admits)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _string(value) -> bool:
    return isinstance(value, str)


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _budgets(value) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(b, dict) for k, b in value.items())


def _positions(value) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(p, list) and len(p) == 2 for k, p in value.items())


@dataclass(frozen=True)
class Fact:
    name: str
    schema: dict              # its JSON Schema, as spec/vector.schema.json states it
    fits: Callable            # whether an expectation's value is well formed
    words: str                # what that value must be, for the error that says it is not
    engines: bool = True      # held to an engine whose hello names no facts
    whole: bool = True        # compared as one value (False: combatant by combatant)


STRINGS = {"type": "array", "items": {"type": "string"}}     # JSON Schema
FRAME_IDS = "a list of frame ids"

FACTS = (
    Fact("state", {"enum": list(STATES)}, _string, "a phase name", engines=False),
    Fact("round", {"type": "integer", "minimum": 1}, _integer, "an integer"),
    Fact("active", {"type": "string"}, _string, "a combatant id"),
    Fact("initiative", STRINGS, strings, "a list of combatant ids"),
    Fact("budgets", {"type": "object", "additionalProperties": {
        "type": "object", "additionalProperties": {"type": ["integer", "string", "null"]}}},
        _budgets, "an object: {combatant: {budget: value}}", whole=False),
    Fact("resolved", STRINGS, strings, FRAME_IDS),
    Fact("lost", STRINGS, strings, FRAME_IDS),
    Fact("disrupted", STRINGS, strings, FRAME_IDS),
    Fact("stack", STRINGS, strings, FRAME_IDS, engines=False),
    Fact("positions", {"type": "object", "additionalProperties": {"$ref": "#/$defs/square"}},
         _positions, "an object: {combatant: [x, y]}", whole=False),
)
NAMES = tuple(f.name for f in FACTS)
