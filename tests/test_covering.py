"""The covering suite generated from the reachable graph: fresh, complete for
its bounds, and every step with full expectations."""

import json
from pathlib import Path

import pytest

from fsm.conformance import covering
from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "spec" / "vectors" / "generated"


@pytest.fixture(scope="module")
def fresh():
    vectors, coverage = covering.generate(jobs=2)
    return vectors, coverage, covering.render(vectors, coverage)


@pytest.fixture(scope="module")
def committed():
    """The committed suite, as the test below holds it to a regeneration."""
    vectors = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(GENERATED.glob("*.json"))]
    coverage = json.loads((ROOT / "spec" / covering.COVERAGE).read_text(encoding="utf-8"))
    return vectors, coverage, covering.render(vectors, coverage)


@pytest.mark.slow
def test_the_committed_generated_vectors_are_fresh(fresh, committed):
    """Regenerating from the table gives exactly the committed files (so
    what the other tests hold of the committed ones holds of the table)."""
    _, _, files = fresh
    assert covering.stale(ROOT, files) == []
    assert files == committed[2]


def test_every_reached_key_is_in_some_vector(committed):
    """Each decision, machine row and precedence the walk reaches is named by
    the description of a generated vector; a step of the walk expects every
    fact, a sweep's, a split's and a denial's its verdict and reason (and
    every fact now and then), a reading vector's its error or verdict."""
    vectors, coverage, _ = committed
    described = " ".join(v["description"] for v in vectors)
    for ruleset, c in coverage["rulesets"].items():
        assert c["decisions"] and c["machine"]
        for key in c["decisions"] + c["machine"] + c["precedence"]:
            assert covering._describe(tuple(key)) in described, key
    full = {"verdict", "reason", "budgets", "active", "resolved"}
    for v in vectors:
        kind = v["id"].split("-")[0]
        expects = [set(step["expect"]) for step in v["steps"]]
        if kind in ("err", "val"):     # how a step is read: tests/test_errororder.py
            assert all(e == {"error"} or e >= {"verdict", "reason"} for e in expects), v["id"]
        elif kind in ("sweep", "split", "deny"):     # verdicts step by step, facts at the end
            assert all(e >= {"verdict", "reason"} for e in expects), v["id"]
            assert any(e >= full for e in expects), v["id"]
        else:
            assert all(e >= full for e in expects), v["id"]


def test_the_walk_reaches_the_timing_rows(committed):
    """The covering suite reaches the machine's own rows: a window kept open,
    frames leaving to every phase beneath, the next turn."""
    _, coverage, _ = committed
    machine = {tuple(k[2:]) for k in coverage["rulesets"]["dnd4e"]["machine"]}
    assert ("keep_open", "window_reaction") in machine
    assert ("next_turn", "turn_start") in machine
    assert {("close", dest) for dest in ("turn_acting", "window_interrupt",
                                          "window_reaction", "turn_start", "turn_end")} <= machine


def test_check_generated_fails_on_a_stale_file(tmp_path, committed, capsys):
    """`fsm conformance --check-generated` exits 1 when a file differs."""
    _, _, files = committed
    covering.write(tmp_path, files)
    victim = sorted((tmp_path / "spec" / "vectors" / "generated").glob("*.json"))[0]
    doc = json.loads(victim.read_text())
    doc["steps"] = doc["steps"][:-1]
    victim.write_text(json.dumps(doc))
    assert covering.stale(tmp_path, files) == [victim.name]
