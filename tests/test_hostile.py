"""Hostile input, generated: documents from the vectors, mutated at random
(wrong types, huge numbers, deep nesting, odd Unicode). `fsm check`, `fsm
serve` and `Encounter` answer each with a verdict or one typed, one-line
error, never another exception, and an error changes nothing."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsm import Encounter, StepError
from fsm.cli import main
from fsm.conformance.reference import _answer

ROOT = Path(__file__).resolve().parent.parent
BASES = [json.loads((ROOT / "spec" / "vectors" / f"{name}.json").read_text()) for name in (
    "4e-example-double-attack", "pf2-example-release-one-trigger", "4e-readied-moves-initiative",
    "pf2-disrupted-activity")]

ODD_TEXT = st.lists(st.sampled_from(
    ["a", "\x1b", "\n", "\u202e", "\ud800", "\x00", "é", " ", "\u2028", "orc", "s1"]),
    max_size=6).map("".join)
HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-10**60, 10**60),
    st.floats(allow_nan=True, allow_infinity=True), ODD_TEXT,
    st.lists(ODD_TEXT, max_size=3),
    st.dictionaries(ODD_TEXT, st.integers(-3, 3), max_size=3),
    st.integers(1, 90).map(lambda n: json.loads("[" * n + "]" * n)),
    st.sampled_from(["dnd4e", "pf2e", "resolve", "standard", "reaction", "turn-end", "ayla"]),
)


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, here + (i,))


TOP = ["ruleset", "combatants", "initiative", "options", "steps", "format", "id"]
EXPECT = ["verdict", "reason", "rules", "notes", "budgets", "resolved", "lost", "stack",
          "state", "round", "active", "initiative"]


@st.composite
def mutated(draw):
    """A vector with one to three parts replaced: a top-level field, an
    expectation of a step, or any node at all."""
    doc = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["top", "expect", "any", "any"]))
        steps = doc.get("steps") if isinstance(doc.get("steps"), list) else []
        if where == "top":
            doc[draw(st.sampled_from(TOP))] = draw(HOSTILE)
            continue
        if where == "expect" and steps and isinstance(steps[0], dict):
            step = steps[draw(st.integers(0, len(steps) - 1))]
            if isinstance(step, dict):
                step.setdefault("expect", {})
                if isinstance(step["expect"], dict):
                    step["expect"][draw(st.sampled_from(EXPECT))] = draw(HOSTILE)
                continue
        paths = [p for p in _paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()) or not isinstance(parent, dict):
            parent[path[-1]] = draw(HOSTILE)
        else:
            parent[draw(ODD_TEXT)] = draw(HOSTILE)
    return doc


SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@SETTINGS
@given(doc=mutated(), fmt=st.sampled_from(["text", "markdown", "json"]))
def test_fsm_check_answers_any_document_in_one_line_or_a_report(tmp_path_factory, doc, fmt,
                                                                 capsys):
    """Exit 0 or 1 with a report, or 2 with one line on stderr; never a traceback."""
    path = tmp_path_factory.mktemp("hostile") / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["check", "--format", fmt, "--color", "never", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    else:
        assert out and "\x1b" not in (out if fmt != "json" else "")
        if fmt == "json":
            json.loads(out)


@SETTINGS
@given(doc=mutated())
def test_fsm_serve_answers_any_vector(doc):
    """The reference engine answers every vector message with a result or an
    error message, and never an internal error."""
    reply = _answer({"type": "vector", "vector": doc})
    assert reply["type"] in ("result", "error")
    assert "internal error" not in json.dumps(reply)


@SETTINGS
@given(steps=st.lists(st.one_of(
    st.fixed_dictionaries({"do": st.sampled_from(["standard", "resolve", "reaction",
                                                  "interrupt", "end-turn", "continue"])},
                          optional={"actor": st.one_of(st.sampled_from(["orc", "ayla"]),
                                                       HOSTILE),
                                    "to": HOSTILE, "name": HOSTILE, "attacks": HOSTILE,
                                    "id": HOSTILE, "provokes": HOSTILE, "bogus": HOSTILE}),
    HOSTILE), max_size=12))
def test_the_library_gives_a_verdict_or_a_step_error_and_an_error_changes_nothing(steps):
    """Encounter.step: a Verdict, or StepError with the encounter and the step
    count unchanged."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    for data in steps:
        before, seen = enc.fingerprint(), enc.steps_seen
        try:
            verdict = enc.step(data)
        except StepError:
            assert enc.fingerprint() == before and enc.steps_seen == seen
            continue
        assert verdict.verdict in ("allowed", "rejected", "gm")


def test_an_id_holding_a_unicode_line_separator_stays_on_one_line(tmp_path, capsys):
    """U+2028 and U+2029 end a line for str.splitlines and for some
    terminals: in an error they are shown as escapes."""
    doc = {"format": 1, "ruleset": "pf2e", "steps": [],
           "combatants": [{"id": "a\u2028b", "side": "heroes", "": None},
                          {"id": "c\u2029d", "side": "monsters"}]}
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "\\u2028" in err
