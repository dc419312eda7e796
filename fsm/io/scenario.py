"""Reading a scenario file: JSON or YAML within size, depth and node limits,
with the line of every step remembered for error messages, and the top level
of the document checked. Steps themselves are checked as they replay."""

from __future__ import annotations

import os

from ..errors import InputError
from ..rulesets import RULESETS
from . import jsonsafe

FORMAT = 1
TOP_FIELDS = {"format", "id", "ruleset", "description", "question", "answer", "options",
              "rules", "combatants", "initiative", "steps", "comment", "tags"}
MAX_BYTES = 8 * 1024 * 1024



def load(path) -> dict:
    """Read a scenario from JSON or YAML (chosen by the file's extension)."""
    return load_source(path)[0]


def read_capped(path, limit: int = None) -> bytes:
    """The bytes of ``path``, refused past ``limit`` while reading (a device, a
    pipe or a growing file reports no size worth trusting)."""
    limit = MAX_BYTES if limit is None else limit
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except IsADirectoryError:
        raise InputError(path, "is a folder, not a scenario file") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise InputError(path, f"more than {limit} bytes; scenarios are limited to {limit}")
    return raw


def load_source(path) -> tuple[dict, dict]:
    """Read a scenario and where each of its steps starts: (doc, {index: (line, col)})."""
    raw = read_capped(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text (byte {exc.start})") from None
    lines: dict = {}
    return parse_text(text, path, lines), lines


def parse_text(text: str, path="<input>", lines: dict | None = None) -> dict:
    ext = os.path.splitext(str(path))[1].lower()
    if ext in (".yaml", ".yml"):
        from .yamlsafe import load_yaml
        return load_yaml(text, path, lines)
    try:
        doc = jsonsafe.loads(text, MAX_DEPTH)
    except jsonsafe.JSONError as exc:
        raise InputError(path, exc.message, line=exc.line, column=exc.column) from None
    if lines is not None:
        lines.update(_json_step_lines(text))
    return doc


MAX_DEPTH = jsonsafe.MAX_DEPTH


def _json_step_lines(text: str) -> dict:
    """Line and column where each element of the top-level "steps" list starts."""
    out = {}
    depth = 0
    in_string = escaped = False
    line, col = 1, 0
    last_key = None
    string_start = 0
    in_steps = False
    expecting = False
    index = 0
    for pos, ch in enumerate(text):
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
                if depth == 1:
                    last_key = text[string_start + 1:pos]
            continue
        if in_steps and expecting and depth == 2 and not ch.isspace() and ch not in ",]":
            index += 1
            out[index] = (line, col)
            expecting = False
        if ch == '"':
            in_string = True
            string_start = pos
        elif ch in "[{":
            depth += 1
            if depth == 2 and ch == "[" and last_key == "steps":
                in_steps, expecting = True, True
        elif ch in "]}":
            depth -= 1
            if depth == 1:
                in_steps = False
        elif ch == "," and in_steps and depth == 2:
            expecting = True
        elif ch == ":" and depth == 1:
            pass
        elif ch == "," and depth == 1:
            last_key = None
    return out


def check_document(doc, path, ruleset=None) -> None:
    """Check the top level of a scenario (steps are checked as they replay);
    ``ruleset``, a Ruleset value, stands in for the registry when given."""
    if not isinstance(doc, dict):
        raise InputError(path, f"a scenario is an object, not {type(doc).__name__}")
    for key in doc:
        if key not in TOP_FIELDS:
            raise InputError(path, f"unknown top-level field {key!r}")
    if doc.get("format") != FORMAT:
        raise InputError(path, f"'format' must be {FORMAT}, not {doc.get('format')!r}")
    name = doc.get("ruleset")
    known = [ruleset.name] if ruleset is not None else list(RULESETS)
    if not isinstance(name, str) or name not in known:
        raise InputError(path, f"'ruleset' must be one of {', '.join(known)}, not {name!r}")
    if not isinstance(doc.get("combatants"), list):
        raise InputError(path, "'combatants' must be a list of {id, side} objects")
    steps = doc.get("steps")
    if not isinstance(steps, list):
        raise InputError(path, "'steps' must be a list")
    if "options" in doc and not isinstance(doc["options"], dict):
        raise InputError(path, "'options' must be an object")
    if "initiative" in doc and not (isinstance(doc["initiative"], list) and
                                    all(isinstance(c, str) for c in doc["initiative"])):
        raise InputError(path, "'initiative' must be a list of combatant ids")
