"""JSON from untrusted hands: one typed error, whatever the text holds.

Python's own parser raises four kinds of errors on hostile text (invalid
JSON, an integer too long to convert, nesting deep enough to exhaust the
stack, a lone surrogate when the result is printed). :func:`loads` bounds
depth and integer length before anything is built and turns every failure
into :class:`JSONError` with a one-line message.
"""

from __future__ import annotations

import json

from ..errors import JSONError

MAX_DEPTH = 64
MAX_DIGITS = 40          # integers longer than this are refused, not converted


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """Deepest nesting of a JSON text, strings skipped (stops past ``limit``)."""
    level = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            level -= 1
    return deepest


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JSONError(f"an integer of {len(text.lstrip('-'))} digits; at most "
                        f"{MAX_DIGITS} are accepted")
    return int(text)


def _no_constant(name: str):
    raise JSONError(f"{name} is not JSON")


def loads(text: str, max_depth: int = MAX_DEPTH):
    """Parse ``text``; :class:`JSONError` on anything unacceptable."""
    if depth(text, max_depth) > max_depth:
        raise JSONError(f"JSON nested deeper than {max_depth} levels; refused")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except JSONError:
        raise
    except json.JSONDecodeError as exc:
        raise JSONError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise JSONError(f"invalid JSON: {exc}") from None
