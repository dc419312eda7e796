"""Scenarios: load a file in the step format, replay it, check its expectations.

The same format serves ``fsm check`` scenarios, conformance vectors and
(one object per line) an engine's event log. See ``spec/FORMAT.md``.
"""

from __future__ import annotations

import gc
import json
import os
from dataclasses import dataclass, field

from .engine import Encounter, Verdict
from .engine.rows import STATES
from .engine.setup import combatant_fields
from .engine.steps import suggest
from .engine.facts import FACTS, strings
from .engine.facts import NAMES as FACT_NAMES
from .errors import ERROR_CODES, InputError, StepError
from .io import jsonsafe
from .io.scenario import (FORMAT, MAX_BYTES, MAX_DEPTH, TOP_FIELDS,  # noqa: F401  (re-exported)
                          check_document, load, load_source, parse_text, read_capped)
from .rulesets import RULESETS

FACT_KEYS = frozenset(FACT_NAMES)
EXPECT_FIELDS = {"verdict", "reason", "rules", "notes", "error", *FACT_NAMES}


@dataclass(eq=False)
class StepResult:
    index: int
    data: dict
    verdict: Verdict
    facts: dict | None          # after the step, when the step expected any
    failures: list = field(default_factory=list)


@dataclass(eq=False)
class Replay:
    doc: dict
    path: str
    encounter: Encounter
    results: list

    @property
    def failures(self) -> list:
        return [(r.index, msg) for r in self.results for msg in r.failures]

    @property
    def ok(self) -> bool:
        return not self.failures


def build(doc, path, ruleset=None) -> Encounter:
    """The encounter a document sets up (on ``ruleset``, a Ruleset value, when given)."""
    check_document(doc, path, ruleset)
    rs = ruleset or RULESETS[doc["ruleset"]]
    for i, c in enumerate(doc["combatants"], 1):
        if not isinstance(c, dict):
            raise InputError(path, f"combatant {i} must be an object with id and side")
        extra = set(c) - set(combatant_fields(rs))
        if extra:
            raise InputError(path, f"combatant {c.get('id', i)}: unknown field "
                                   f"{sorted(extra)[0]!r}")
    try:
        return Encounter(rs, doc["combatants"], doc.get("initiative"),
                         doc.get("options"))
    except StepError as exc:
        raise InputError(path, str(exc)) from None


def compare(expect, verdict: Verdict, facts: dict | None) -> list[str]:
    """Every way the outcome differs from ``expect`` (empty when it holds)."""
    out = []
    if "verdict" in expect and expect["verdict"] != verdict.verdict:
        got = verdict.verdict + (f" ({verdict.reason})" if verdict.reason else "")
        out.append(f"expected {expect['verdict']}, got {got}")
    if "reason" in expect and expect["reason"] != verdict.reason:
        out.append(f"expected {_reason(expect['reason'])}, got {_reason(verdict.reason)}")
    for rule in expect.get("rules", ()):
        if rule not in verdict.rules:
            out.append(f"expected rule {rule} cited, got {', '.join(verdict.rules) or 'none'}")
    for wanted_note in expect.get("notes", ()):
        if not any(wanted_note in note for note in verdict.notes):
            out.append(f"expected a note containing {wanted_note!r}, got {list(verdict.notes)}")
    for who, wanted in (expect.get("budgets") or {}).items():
        have = facts["budgets"].get(who)
        if have is None:
            out.append(f"budgets: unknown combatant {who}")
            continue
        for key, value in wanted.items():
            if have.get(key, "<absent>") != value:
                out.append(f"budget {who}.{key}: expected {_value(value)}, "
                           f"got {_value(have.get(key))}")
    for who, wanted in (expect.get("positions") or {}).items():
        have = (facts.get("positions") or {}).get(who)
        if have != wanted:
            out.append(f"position of {who}: expected {wanted!r}, got {have!r}")
    for key in (f.name for f in FACTS if f.whole):
        if key in expect and expect[key] != facts[key]:
            out.append(f"{key}: expected {expect[key]!r}, got {facts[key]!r}")
    return out


def _reason(code) -> str:
    """A reason code in words: 'reason X', or 'no reason' (an allowed step)."""
    return "no reason" if code is None else f"reason {code}"


def _value(value) -> str:
    """A budget's value as JSON writes it (null, not None)."""
    return json.dumps(value)


# What each expectation must be, and how to say it when it is not (the facts'
# own words are declared with them, fsm.engine.facts).
_EXPECT_TYPES = {
    "reason": (lambda v: v is None or isinstance(v, str), "a reason code or null"),
    "rules": (strings, "a list of rule ids"),
    "notes": (strings, "a list of strings"),
    **{f.name: (f.fits, f.words) for f in FACTS},
}


def check_expect(expect, path, index):
    if not isinstance(expect, dict):
        raise InputError(path, "'expect' must be an object", step=index)
    for key in expect:
        if key not in EXPECT_FIELDS:
            raise InputError(path, f"unknown expectation {key!r}", step=index)
    if "verdict" in expect and expect["verdict"] not in ("allowed", "rejected", "gm"):
        raise InputError(path, "expected verdict must be allowed, rejected or gm", step=index)
    if "error" in expect:
        if not isinstance(expect["error"], str) or expect["error"] not in ERROR_CODES:
            raise InputError(path, f"expect.error must be an error code of spec/FORMAT.md "
                                   f"({', '.join(ERROR_CODES)})", step=index)
        if len(expect) > 1:
            raise InputError(path, "a step that expects an error expects nothing else",
                             step=index)
    for key, (fits, what) in _EXPECT_TYPES.items():
        if key in expect and not fits(expect[key]):
            raise InputError(path, f"expect.{key} must be {what}", step=index)


def check_names(expect, enc, path, index) -> None:
    """An expectation naming what the encounter or its ruleset does not have
    (a reason code, a rule, a phase, a combatant, a budget) can never hold:
    the step is malformed, not a verdict that differs."""
    table, fighters = enc.ruleset.table, enc.fighters

    def known(what, word, names, field):
        if word not in names:
            raise InputError(path, f"expect.{field}: unknown {what} {word!r} for "
                                   f"{enc.ruleset.name}{suggest(word, names)}", step=index)

    if expect.get("reason") is not None:
        known("reason code", expect["reason"], table.reason_codes, "reason")
    for rule in expect.get("rules", ()):
        known("rule id", rule, table.cited, "rules")
    if "state" in expect:
        known("phase", expect["state"], STATES, "state")
    if "active" in expect:
        known("combatant", expect["active"], fighters, "active")
    for who in expect.get("initiative", ()):
        known("combatant", who, fighters, "initiative")
    for who in expect.get("positions") or {}:
        known("combatant", who, fighters, "positions")
    for who, wanted in (expect.get("budgets") or {}).items():
        known("combatant", who, fighters, "budgets")
        for key in wanted:
            known("budget", key, enc.budgets(who), f"budgets.{who}")


def replay(doc, path="<scenario>", encounter: Encounter | None = None,
           lines: dict | None = None) -> Replay:
    """Replay every step; raise InputError at the first malformed one."""
    enc = encounter or build(doc, path)
    enc.explaining = True           # the reason of each allowed step, for people
    results = []
    for index, data in enumerate(doc["steps"], 1):
        results.append(play_step(enc, data, path, index, lines))
    return Replay(doc, str(path), enc, results)


def play_step(enc, data, path, index, lines=None) -> StepResult:
    """Judge one step of a scenario; ``lines`` (step number -> (line,
    column)) is read only to say where a malformed step is."""
    expect = (data.get("expect") or {}) if isinstance(data, dict) else {}
    try:
        if isinstance(data, dict) and "expect" in data:
            check_expect(data["expect"], path, index)
            check_names(data["expect"], enc, path, index)
        verdict = enc.step(data)
    except InputError as exc:
        exc.line, exc.column = _where(lines, index)
        raise
    except StepError as exc:
        if "error" in expect:       # the error the step expects: an expectation held
            failures = [] if exc.code == expect["error"] else [
                f"expected error {expect['error']}, got error {exc.code}: {exc}"]
            return StepResult(index, data, error_verdict(index, exc), None, failures)
        line, column = _where(lines, index)
        raise InputError(path, str(exc), step=index, line=line, column=column) from None
    if "error" in expect:
        got = verdict.verdict + (f" ({verdict.reason})" if verdict.reason else "")
        return StepResult(index, data, verdict, None,
                          [f"expected error {expect['error']}, got {got}"])
    # facts cost time in the length of the history: only when something is expected of them
    facts = enc.facts() if FACT_KEYS.intersection(expect) else None
    failures = compare(expect, verdict, facts) if expect else []
    return StepResult(index, data, verdict, facts, failures)


def error_verdict(index, exc) -> Verdict:
    """A step that could not be read, as a verdict-shaped value: verdict
    ``error``, its code as the reason, the message as its one note."""
    return Verdict(index, "error", exc.code, (), notes=(str(exc),))


def _where(lines, index) -> tuple:
    return lines.get(index, (None, None)) if lines is not None else (None, None)


# -- event logs -----------------------------------------------------------------------

LOG_EXTENSIONS = (".jsonl", ".ndjson")
MAX_LINE = 1024 * 1024


@dataclass(eq=False)
class LogReport:
    path: str
    steps: int = 0
    gm: int = 0
    forbidden: tuple | None = None      # (line, step, verdict, data)
    failures: list = field(default_factory=list)   # (line, step, message)

    @property
    def ok(self) -> bool:
        return self.forbidden is None and not self.failures


def is_log(path) -> bool:
    return os.path.splitext(str(path))[1].lower() in LOG_EXTENSIONS


def replay_log(path, keep: int = 1000) -> LogReport:
    """Replay an engine's event log: a header line with the setup, then one step
    per line. Stops at the first step the rules forbid. Memory stays bounded
    whatever the length of the log."""
    report = LogReport(str(path))
    try:
        fh = open(path, "rb")
    except IsADirectoryError:
        raise InputError(path, "is a folder, not an event log") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    with fh:
        enc = None
        index = 0
        for lineno, raw in enumerate(_lines(fh, path), 1):
            if not raw.strip():
                continue
            try:
                data = jsonsafe.loads(raw.decode("utf-8"), MAX_DEPTH)
            except UnicodeDecodeError:
                raise InputError(path, "not UTF-8 text", line=lineno) from None
            except jsonsafe.JSONError as exc:
                raise InputError(path, exc.message, line=lineno, column=exc.column) from None
            if enc is None:
                if not isinstance(data, dict) or "steps" in data:
                    raise InputError(path, "the first line must be the setup: format, "
                                           "ruleset, combatants (and no steps)", line=lineno)
                header = dict(data, steps=[])
                enc = build(header, path)
                continue
            index += 1
            result = play_step(enc, data, path, index, {index: (lineno, None)})
            report.steps += 1
            if result.verdict.verdict == "gm":
                report.gm += 1
            for msg in result.failures:
                report.failures.append((lineno, index, msg))
            if result.verdict.verdict == "rejected" and not (
                    isinstance(data, dict) and (data.get("expect") or {}).get("verdict")
                    == "rejected"):
                report.forbidden = (lineno, index, result.verdict, data)
                return report
            if index % keep == 0:
                enc.prune(keep)
                gc.collect()      # cycles left by dispatch would pile up until a full collection
        if enc is None:
            raise InputError(path, "the log is empty: it needs a setup line")
    return report


def _lines(fh, path):
    lineno = 0
    while True:
        raw = fh.readline(MAX_LINE + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            raise InputError(path, f"line longer than {MAX_LINE} bytes; refused", line=lineno)
        yield raw
