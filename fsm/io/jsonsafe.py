"""JSON from untrusted hands: one typed error, whatever the text holds.

Python's own parser raises four kinds of errors on hostile text (invalid
JSON, an integer too long to convert, nesting deep enough to exhaust the
stack, a lone surrogate when the result is printed). :func:`loads` bounds
depth, integer length and (for a scenario) the number of values before
anything is built and turns every failure into :class:`JSONError` with a
one-line message.

:data:`MAX_VALUES` is the one limit on a scenario's values, JSON or YAML
(:mod:`fsm.io.yamlsafe` reads it too): a document is counted as its nodes,
every object, array, key and scalar, the whole document included.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from ..errors import JSONError

MAX_DEPTH = 64
MAX_DIGITS = 40          # integers longer than this are refused, not converted
MAX_VALUES = 200_000     # values of one scenario, keys included, in JSON as in YAML

# A JSON string, escapes included; one left open runs to the end of the text.
STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_BARE_SCALAR = re.compile(r'[^\[\]{},:\s"]+')     # a number, true, false or null
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}
_CHUNK = 1 << 16          # brackets judged at a time


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """Deepest nesting of a JSON text, strings skipped (stops soon past ``limit``)."""
    brackets = _NOT_BRACKETS.sub("", STRING.sub("", text))
    level = deepest = 0
    for start in range(0, len(brackets), _CHUNK):
        levels = list(accumulate(map(_NESTING.__getitem__, brackets[start:start + _CHUNK]),
                                 initial=level))
        deepest, level = max(deepest, max(levels)), levels[-1]
        if deepest > limit:
            break
    return deepest


def values(text: str) -> int:
    """How many values a JSON text holds (objects, arrays, keys and scalars,
    the whole included), counted on the text, before anything is built.
    Exact for valid JSON; invalid JSON is refused by the parser anyway."""
    bare, strings = STRING.subn(" ", text)
    containers = bare.count("[") + bare.count("{")
    return strings + containers + sum(1 for _ in _BARE_SCALAR.finditer(bare))


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JSONError(f"an integer of {len(text.lstrip('-'))} digits; at most "
                        f"{MAX_DIGITS} are accepted")
    return int(text)


def _no_constant(name: str):
    raise JSONError(f"{name} is not JSON")


def loads(text: str, max_depth: int = MAX_DEPTH, max_values: int | None = None):
    """Parse ``text``; :class:`JSONError` on anything unacceptable (with
    ``max_values``, a text of more values than that too)."""
    if depth(text, max_depth) > max_depth:
        raise JSONError(f"JSON nested deeper than {max_depth} levels; refused")
    if max_values is not None and values(text) > max_values:
        raise JSONError(f"document of more than {max_values} values; refused")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except JSONError:
        raise
    except json.JSONDecodeError as exc:
        raise JSONError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise JSONError(f"invalid JSON: {exc}") from None
