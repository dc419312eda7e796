"""Vectors and what they expect: collecting them, the public form an engine
receives, judging an answer against the expectations (after checking it
against spec/result.schema.json), and the reports of a run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.facts import FACTS
from ..engine.facts import NAMES as FACT_NAMES
from ..errors import InputError
from ..paths import default_root
from ..scenario import check_document, check_expect, compare, load
from .hello import (FEATURES, REPORTS, SCENE, unsupported, uses_scene,  # noqa: F401
                    wanted_budgets)

PROTOCOL = 1
FORMAT = 1
REFERENCE_FACTS = FACT_NAMES
# What an engine that says nothing of its facts is held to: everything but the
# reference machine's own phase names and stack (spec/PROTOCOL.md).
ENGINE_FACTS = tuple(f.name for f in FACTS if f.engines)
PASS, FAIL, SKIP = "passed", "failed", "skipped"


@dataclass
class Outcome:
    id: str
    path: str
    status: str
    message: str = ""
    seconds: float = 0.0
    details: list = field(default_factory=list)


# -- vectors ---------------------------------------------------------------------

def default_vectors() -> Path:
    return default_root() / "spec" / "vectors"


def default_paths() -> list[Path]:
    """The default run: the vectors (generated ones included) and the scenarios."""
    return [default_vectors(), default_vectors().parent / "scenarios"]


def collect(paths) -> list[tuple[str, dict]]:
    """Every vector under ``paths`` (files, or folders searched to any depth),
    in a stable order."""
    files = []
    for p in paths or default_paths():
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*")
                                if x.suffix in (".json", ".yaml", ".yml") and x.is_file()))
        elif p.exists():
            files.append(p)
        else:
            raise InputError(str(p), "no such file or folder")
    out, ids, read = [], {}, set()
    for f in files:
        if f.resolve() in read:
            continue                # a file named twice (alone, in its folder) runs once
        read.add(f.resolve())
        doc = load(str(f))
        check_document(doc, str(f))
        vid = doc.get("id")
        if not isinstance(vid, str) or not vid:
            raise InputError(str(f), "a vector needs an 'id' (a non-empty string, by "
                                     "convention its file name): results are matched to it")
        if vid in ids:
            raise InputError(str(f), f"id {vid!r} is also the id of {ids[vid]}: each vector "
                                     f"of a run needs its own")
        ids[vid] = str(f)
        for index, step in enumerate(doc["steps"], 1):   # what the results are judged by
            if isinstance(step, dict) and "expect" in step:
                check_expect(step["expect"], str(f), index)
        out.append((str(f), doc))
    return out


def public_vector(doc: dict) -> dict:
    """The vector as an engine receives it: the expectations removed."""
    out = {k: v for k, v in doc.items() if k not in ("question", "answer", "comment")}
    out["steps"] = [{k: v for k, v in step.items() if k != "expect"}
                    for step in doc.get("steps", [])]
    return out


# -- judging a result ----------------------------------------------------------------

class _Seen:
    """A verdict as an engine reported it, shaped for scenario.compare."""

    def __init__(self, step: dict):
        self.verdict = step.get("verdict")
        self.reason = step.get("reason")
        self.rules = tuple(step.get("rules") or ())
        self.notes = tuple(step.get("notes") or ())


def judge(doc: dict, result: dict, facts_supported, validate: bool = True,
          reports=()) -> list[str]:
    """Every way ``result`` misses the vector's expectations (empty: passed).
    Facts are compared only where ``facts_supported`` lists them, rule ids
    and notes only where ``reports`` does (spec/PROTOCOL.md, the handshake).
    An engine's answer is first checked against spec/result.schema.json
    (``validate=False`` only for the reference's own, in-process answers)."""
    if not isinstance(result, dict) or result.get("type") != "result":
        return ["the answer is not a result object"]
    problem = invalid("result", result) if validate else None
    if problem:
        return [f"the answer is not a well-formed result: {problem}"]
    if result.get("id") != doc.get("id"):
        return [f"answered for vector {result.get('id')!r}, not {doc.get('id')!r}"]
    steps = result.get("steps")
    if not isinstance(steps, list):
        return ["the result has no list of steps"]
    problems = []
    for i, data in enumerate(doc["steps"], 1):
        expect = data.get("expect") or {}
        if i > len(steps):
            if expect:
                problems.append(f"step {i}: no answer")
            continue
        got = steps[i - 1]
        if not isinstance(got, dict):
            problems.append(f"step {i}: the answer is not an object")
            continue
        if "error" in expect:
            if got.get("verdict") != "error":
                problems.append(f"step {i}: expected error {expect['error']} (a step that "
                                f"cannot be read), got {got.get('verdict')}"
                                + (f" ({got.get('reason')})" if got.get("reason") else ""))
            elif got.get("error") != expect["error"]:
                problems.append(f"step {i}: expected error {expect['error']}, got error "
                                f"{got.get('error')}: {got.get('message', '')}")
            continue
        if got.get("verdict") == "error":
            problems.append(f"step {i}: the engine refused the step as input: "
                            f"{got.get('message', '')}")
            continue
        wanted = {k: v for k, v in expect.items()
                  if k in ("verdict", "reason") or k in reports or k in facts_supported}
        if "budgets" in expect and (held := wanted_budgets(expect["budgets"], facts_supported)):
            wanted["budgets"] = held         # all of them, or the budgets it names alone
        facts = got.get("facts") or {}
        missing = [k for k in wanted if k in REFERENCE_FACTS and k not in facts]
        if missing:
            problems.append(f"step {i}: the engine reported no {', '.join(missing)}")
            continue
        full = {k: facts.get(k) for k in REFERENCE_FACTS}
        full["budgets"] = facts.get("budgets") or {}
        for msg in compare(wanted, _Seen(got), full):
            problems.append(f"step {i}: {msg}")
    return problems


# -- what an engine may say: spec/result.schema.json -----------------------------------

_VALIDATORS: dict = {}     # what -> (quick check or None, jsonschema validator)


def _validators(what: str):
    if what not in _VALIDATORS:
        from jsonschema import Draft202012Validator

        from .fastcheck import Unsupported, compile_schema
        with open(default_root() / "spec" / "result.schema.json", encoding="utf-8") as fh:
            schema = json.load(fh)
        defs = schema["$defs"]
        try:
            quick = compile_schema(defs[what], defs)
        except Unsupported:
            quick = None
        _VALIDATORS[what] = (quick, Draft202012Validator({**defs[what], "$defs": defs}))
    return _VALIDATORS[what]


def invalid(what: str, obj) -> str | None:
    """Why ``obj`` is not a well-formed ``hello`` or ``result`` message, or None
    (checked by the compiled schema; ``jsonschema`` says why it is not)."""
    quick, full = _validators(what)
    if quick is not None and quick(obj):
        return None
    error = next(iter(full.iter_errors(obj)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "the message"
    return f"{where}: {error.message[:120]}"


# -- reports ---------------------------------------------------------------------------

def summary(outcomes) -> str:
    n = {s: sum(1 for o in outcomes if o.status == s) for s in (PASS, FAIL, SKIP)}
    return f"{n[PASS]} passed, {n[FAIL]} failed, {n[SKIP]} skipped"


def junit(outcomes, name="fsm-conformance") -> str:
    # imported here: it brings urllib and the email package, some 15 ms that
    # fsm serve and runs without --junit need not pay
    from xml.sax.saxutils import escape, quoteattr

    from ..io.terminal import safe

    def text(value) -> str:       # XML 1.0 admits no control character, escaped or not
        return "\n".join(safe(line) for line in str(value).split("\n"))

    name = text(name)
    fails = sum(1 for o in outcomes if o.status == FAIL)
    skips = sum(1 for o in outcomes if o.status == SKIP)
    total = sum(o.seconds for o in outcomes)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<testsuite name={quoteattr(name)} tests="{len(outcomes)}" failures="{fails}" '
             f'errors="0" skipped="{skips}" time="{total:.3f}">']
    for o in outcomes:
        head = (f'  <testcase classname="conformance" name={quoteattr(text(o.id))} '
                f'file={quoteattr(text(o.path))} time="{o.seconds:.3f}"')
        if o.status == PASS:
            lines.append(head + "/>")
        elif o.status == SKIP:
            lines.append(head + f"><skipped message={quoteattr(text(o.message))}/></testcase>")
        else:
            body = escape(text("\n".join(o.details or [o.message])))
            lines.append(head + f"><failure message={quoteattr(text(o.message))}>{body}"
                         f"</failure></testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"
