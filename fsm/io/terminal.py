"""Text that is safe to print on a terminal.

Names, ids, paths and messages come from users' files and engines' logs.
Printed raw, an escape sequence could clear the screen or retitle the
window, a newline (or a Unicode line or paragraph separator) could split a
one-line error in two, a right-to-left override could reorder what is read,
and a lone surrogate could not be encoded at all. :func:`safe` shows each of them as its escape instead; JSON
output is left exact (its encoder escapes what it must).
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")


def _escape(match) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def safe(text) -> str:
    """``text`` with control characters, direction overrides and lone
    surrogates shown as escapes (``\\x1b``, ``\\n``, ``\\u202e``)."""
    return _UNSAFE.sub(_escape, str(text))
