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
def committed():
    """The committed suite, as the test below holds it to a regeneration."""
    vectors = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(GENERATED.glob("*.json"))]
    coverage = json.loads((ROOT / "spec" / covering.COVERAGE).read_text(encoding="utf-8"))
    return vectors, coverage, covering.render(vectors, coverage)


# the walks of three combatants over two frames take the longest: with the slow tests
# (each grid part walks what `fsm explore --grid` walks for two combatants: clean)
SLOW_PARTS = {"dnd4e", "dnd5e"}


@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW_PARTS
                                  else p for p in covering.PARTS])
def test_each_part_of_the_generated_vectors_is_fresh(part, committed):
    """Regenerating a part from the table gives exactly its committed files and
    its keys of the manifest (so what the other tests hold of the committed
    ones holds of the table); each walk behind it is clean and complete."""
    _, coverage, _ = committed
    made, keys = covering.generate(only={part})
    mine = {name: text for name, text in covering.render(made, keys).items()
            if name != covering.COVERAGE}
    assert made and all(covering.part_of(v["id"]) == part for v in made)
    assert mine == {p.name: p.read_text(encoding="utf-8") for p in GENERATED.glob("*.json")
                    if covering.part_of(p.stem) == part}
    walked = {part} if covering.PARTS[part][0].startswith("gen-") else set()
    assert set(keys["rulesets"]) == walked
    for key, value in keys.items():
        assert value == ({p: coverage["rulesets"][p] for p in walked} if key == "rulesets"
                         else coverage[key]), key


def test_every_committed_generated_file_belongs_to_a_part(committed):
    """The parts together are the whole suite: no committed vector outside
    them, the manifest's keys are theirs, and its bounds are the walks'."""
    vectors, coverage, _ = committed
    assert [v["id"] for v in vectors if covering.part_of(v["id"]) is None] == []
    assert set(coverage["rulesets"]) == {n for n, (p, _) in covering.PARTS.items()
                                         if p.startswith("gen-")}
    assert set(coverage) == {"bounds", "grid_bounds", "rulesets"} | \
        {n for n, (p, _) in covering.PARTS.items() if not p.startswith("gen-")}
    assert coverage["bounds"] == covering.BOUNDS
    assert coverage["grid_bounds"] == covering.GRID_BOUNDS
    # the manifest as written: what the parts' keys are compared with
    assert (ROOT / "spec" / covering.COVERAGE).read_text(encoding="utf-8") == \
        covering.render([], coverage)[covering.COVERAGE]


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
