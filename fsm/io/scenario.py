"""Reading a scenario file: JSON or YAML within size, depth and node limits,
with where each step starts at hand for error messages, and the top level of
the document checked. Steps themselves are checked as they replay."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping

from ..errors import InputError
from ..rulesets import RULESETS, get
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
        raise InputError(path, f"cannot read: {exc.strerror or exc}{_elsewhere(path)}") \
            from None
    if len(raw) > limit:
        raise InputError(path, f"more than {limit} bytes; refused (files read here are "
                               f"limited to {limit})")
    return raw


def _elsewhere(path) -> str:
    """Where a missing spec/... file is, when the project's own spec/ is not
    under the current folder (an installed fsm keeps it under <prefix>/share)."""
    from pathlib import Path

    from ..paths import default_root
    parts = Path(path).parts
    if Path(path).is_absolute() or not parts or parts[0] != "spec":
        return ""
    found = default_root() / path
    return f" (fsm's own spec/ has it: {found})" if found.is_file() else ""


def load_source(path) -> tuple[dict, Mapping]:
    """Read a scenario and where each of its steps starts: (doc, {index: (line, col)})."""
    raw = read_capped(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text (byte {exc.start})") from None
    if _is_yaml(path):
        lines: dict = {}
        return parse_text(text, path, lines), lines
    return parse_text(text, path), StepLines(text)


def _is_yaml(path) -> bool:
    return os.path.splitext(str(path))[1].lower() in (".yaml", ".yml")


def parse_text(text: str, path="<input>", lines: dict | None = None) -> dict:
    if _is_yaml(path):
        from .yamlsafe import load_yaml
        return load_yaml(text, path, lines)
    try:
        doc = jsonsafe.loads(text, MAX_DEPTH, jsonsafe.MAX_VALUES)
    except jsonsafe.JSONError as exc:
        raise InputError(path, exc.message, line=exc.line, column=exc.column) from None
    if lines is not None:
        lines.update(_json_step_lines(text))
    return doc


MAX_DEPTH = jsonsafe.MAX_DEPTH


class StepLines(Mapping):
    """Where each step of a JSON scenario starts, (line, column) by step
    number: found when first asked for (only a message about a step needs
    it), by a scan of the text that skips its strings."""

    def __init__(self, text: str):
        self._text, self._found = text, None

    def _lines(self) -> dict:
        if self._found is None:
            self._found, self._text = _json_step_lines(self._text), None
        return self._found

    def __getitem__(self, index):
        return self._lines()[index]

    def __iter__(self):
        return iter(self._lines())

    def __len__(self) -> int:
        return len(self._lines())


# what the scan for steps meets: a whole string, or a bracket, brace or comma
_STRUCTURE = re.compile(jsonsafe.STRING.pattern + r"|[\[\]{},]", re.S)
_NOT_SPACE = re.compile(r"\S")


def _json_step_lines(text: str) -> dict:
    """Line and column where each element of the top-level "steps" list starts."""
    out: dict = {}
    depth, in_steps, last_key = 0, False, None
    line, counted, newline = 1, 0, -1     # the line at position `counted`; the last newline
    for m in _STRUCTURE.finditer(text):
        pos = m.start()
        ch = text[pos]
        if ch == '"':
            if depth == 1:
                last_key = m.group()[1:-1]
            continue
        if ch in "[{":
            depth += 1
            in_steps = in_steps or (depth == 2 and ch == "[" and last_key == "steps")
        elif ch in "]}":
            depth -= 1
            in_steps = in_steps and depth > 1
            continue
        elif depth == 1:              # a comma between members of the top level
            last_key = None
            continue
        if not (in_steps and depth == 2):
            continue
        start = _NOT_SPACE.search(text, m.end())     # where the next element begins
        if start is None or text[start.start()] in ",]":
            continue
        at = start.start()
        line += text.count("\n", counted, at)
        last = text.rfind("\n", counted, at)
        newline = last if last >= 0 else newline
        counted = at
        out[len(out) + 1] = (line, at - newline)
    return out


def check_document(doc, path, ruleset=None) -> None:
    """Check the top level of a scenario (steps are checked as they replay);
    ``ruleset``, a Ruleset value, stands in for the registry when given."""
    if not isinstance(doc, dict):
        raise InputError(path, f"a scenario is an object, not {type(doc).__name__}")
    for key in doc:
        if key not in TOP_FIELDS:
            raise InputError(path, f"unknown top-level field {key!r}")
    if "format" not in doc:
        raise InputError(path, f"missing field 'format' (always {FORMAT})")
    if doc.get("format") != FORMAT or isinstance(doc.get("format"), bool):
        raise InputError(path, f"'format' must be {FORMAT}, not "
                               f"{json.dumps(doc.get('format'), default=str)}")
    name = doc.get("ruleset")
    if ruleset is None:
        get(name)           # a name no ruleset here has: an installed package's, maybe
    known = [ruleset.name] if ruleset is not None else list(RULESETS)
    if not isinstance(name, str) or name not in known:
        raise InputError(path, f"'ruleset' must be one of {', '.join(known)}, not {name!r}")
    if not isinstance(doc.get("combatants"), list):
        raise InputError(path, "'combatants' must be a list of {id, side} objects")
    steps = doc.get("steps")
    if not isinstance(steps, list):
        raise InputError(path, "'steps' must be a list")
    for i, step in enumerate(steps[:-1], 1):
        if isinstance(step, dict) and isinstance(step.get("expect"), dict) \
                and "error" in step["expect"]:
            raise InputError(path, "only the last step may expect an error (an engine "
                                   "may stop at one)", step=i)
    if "options" in doc and not isinstance(doc["options"], dict):
        raise InputError(path, "'options' must be an object")
    if "initiative" in doc and not (isinstance(doc["initiative"], list) and
                                    all(isinstance(c, str) for c in doc["initiative"])):
        raise InputError(path, "'initiative' must be a list of combatant ids")
