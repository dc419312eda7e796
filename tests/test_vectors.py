"""Sanity of the conformance suite itself: schema, ids, coverage, and every
vector passing against the reference machine."""

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from fsm.engine import rows as T
from fsm.rulesets import RULESETS
from fsm.scenario import build, replay

ROOT = Path(__file__).resolve().parent.parent
VECTORS = sorted((ROOT / "spec" / "vectors").glob("*.json"))
SCENARIOS = sorted((ROOT / "spec" / "scenarios").glob("*.json")) + \
    sorted((ROOT / "spec" / "scenarios").glob("*.yaml"))
SCHEMA = json.loads((ROOT / "spec" / "vector.schema.json").read_text(encoding="utf-8"))
RULES = yaml.safe_load((ROOT / "spec" / "rules.yaml").read_text(encoding="utf-8"))["rules"]
ACTIVE = [r for r in RULES if r.get("status", "active") != "retired"]


def _load(path):
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)


@pytest.fixture(scope="module")
def replays():
    out = {}
    for path in VECTORS:
        doc = _load(path)
        out[doc["id"]] = replay(doc, str(path), build(doc, str(path)))
    return out


def test_the_schema_is_valid_draft_2020_12():
    """spec/vector.schema.json is itself a valid draft 2020-12 schema."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", VECTORS + SCENARIOS, ids=lambda p: p.name)
def test_every_file_validates_against_the_schema(path):
    """Vectors and scenarios are all format-1 documents."""
    jsonschema.Draft202012Validator(SCHEMA).validate(_load(path))


def test_the_schema_refuses_a_step_of_the_wrong_ruleset():
    """A D&D step kind in a Pathfinder vector does not validate."""
    doc = {"format": 1, "id": "x", "ruleset": "pf2e",
           "combatants": [{"id": "a", "side": "b"}], "steps": [{"do": "interrupt"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)


_DOC = {"format": 1, "id": "x", "combatants": [{"id": "a", "side": "b"}], "steps": []}


@pytest.mark.parametrize("name,changes", [
    ("cost on a dnd4e step", {"ruleset": "dnd4e",
                              "steps": [{"do": "standard", "actor": "a", "cost": 2}]}),
    ("a dnd4e text field on pf2e", {"ruleset": "pf2e",
                                    "steps": [{"do": "action", "readies": "x"}]}),
    ("a pf2e budget on a dnd4e combatant", {"ruleset": "dnd4e", "combatants": [
        {"id": "a", "side": "b", "actions": 3}]}),
    ("a dnd4e option on pf2e", {"ruleset": "pf2e", "options": {"readied_as": "reaction"}}),
    ("a dnd4e rule id on pf2e", {"ruleset": "pf2e", "rules": ["4E-STANDARD"]}),
    ("an activity costing 4", {"ruleset": "pf2e",
                               "steps": [{"do": "activity", "actor": "a", "cost": 4}]}),
])
def test_the_schema_holds_each_ruleset_to_its_own_kinds_fields_and_options(name, changes):
    """What one ruleset's steps, combatants, options or rule ids may hold is
    refused in a document of the other."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate({**_DOC, **changes})


def test_the_schema_is_generated_from_the_rulesets_and_fresh(tmp_path):
    """spec/vector.schema.json is what the registry generates; a hand edit is
    reported as stale by fsm spec check."""
    from fsm.spec import schema
    assert schema.problems(ROOT) == []
    (tmp_path / "spec").mkdir()
    edited = dict(SCHEMA, title="edited by hand")
    (tmp_path / "spec" / "vector.schema.json").write_text(json.dumps(edited, indent=2) + "\n",
                                                          encoding="utf-8")
    assert "stale" in schema.problems(tmp_path)[0]
    kinds = schema.vector_schema()["allOf"]
    assert {k["if"]["properties"]["ruleset"]["const"] for k in kinds} == set(RULESETS)


def test_vector_ids_are_unique_and_match_file_names():
    """A vector's id is its file name; ids are never shared."""
    ids = []
    for path in VECTORS:
        doc = _load(path)
        assert doc["id"] == path.stem
        ids.append(doc["id"])
    assert len(ids) == len(set(ids))


def test_every_vector_passes_in_process(replays):
    """The reference machine meets every expectation of every vector."""
    failures = {vid: rep.failures for vid, rep in replays.items() if not rep.ok}
    assert not failures


def test_every_vector_has_a_one_line_present_tense_description():
    """Descriptions are one line."""
    for path in VECTORS:
        desc = _load(path).get("description", "")
        assert desc and "\n" not in desc, path.name


def _guarded_rules():
    """Rules a guard of a player's row enforces. The timing guards of machine
    rows give no verdict of their own: their "always" and "never" mutants,
    each killed by some vector (test_conformance), show both directions."""
    out = set()
    for rs in RULESETS.values():
        for r in (*rs.rows, *rs.refusals):
            if getattr(r, "by", T.PLAYER) == T.MACHINE:
                continue
            for _, rules in r.guards:
                out.update(rules)
    return out


def test_every_rule_has_a_vector(replays):
    """Every active rule id is covered by at least one vector."""
    covered = {rid for rep in replays.values() for rid in rep.doc.get("rules", ())}
    missing = [r["id"] for r in ACTIVE if r["id"] not in covered]
    assert not missing


def test_every_guarded_rule_is_both_respected_and_broken(replays):
    """For each rule enforced by a guard, some vector step is allowed under it and
    some step is rejected (or left to the GM) because of it."""
    respected, broken = set(), set()
    for rep in replays.values():
        for r in rep.results:
            target = respected if r.verdict.verdict == "allowed" else broken
            target.update(r.verdict.rules)
    guarded = _guarded_rules()
    assert not sorted(guarded - respected), "never respected in a vector"
    assert not sorted(guarded - broken), "never broken in a vector"


def test_every_example_rule_is_replayed_by_a_vector(replays):
    """The texts' examples are all conformance vectors."""
    covered = {rid for rep in replays.values() for rid in rep.doc.get("rules", ())}
    examples = [r["id"] for r in ACTIVE if r["kind"] == "example"]
    assert examples and not [e for e in examples if e not in covered]


def test_every_option_value_has_a_vector(replays):
    """Each value of each option is set explicitly by some vector."""
    used = {}
    for rep in replays.values():
        for name, value in (rep.doc.get("options") or {}).items():
            used.setdefault((rep.doc["ruleset"], name), set()).add(
                "int" if isinstance(value, int) and not isinstance(value, bool) else value)
    for rs in RULESETS.values():
        for opt in rs.options:
            wanted = set(opt.choices) if opt.choices else {None, "int"}
            assert wanted <= used.get((rs.name, opt.name), set()), (rs.name, opt.name)


def test_every_vector_names_rules_that_exist():
    """A vector's rules list names only known rule ids."""
    known = {r["id"] for r in RULES}
    for path in VECTORS:
        unknown = set(_load(path).get("rules", ())) - known
        assert not unknown, (path.name, unknown)


# -- the error/verdict boundary ----------------------------------------------------------

def test_every_error_code_is_written_and_held_by_a_vector():
    """FORMAT.md lists every error code with its meaning, and a vector holds
    every code a step can carry (all but not-an-object and bad-document)."""
    from fsm.errors import ERROR_CODES
    text = (ROOT / "spec" / "FORMAT.md").read_text(encoding="utf-8")
    for code, meaning in ERROR_CODES.items():
        assert f"| `{code}` | {meaning} |" in text, code
    held = set()
    for path in (ROOT / "spec" / "vectors").glob("*.json"):
        for step in json.loads(path.read_text(encoding="utf-8"))["steps"]:
            if isinstance(step, dict) and "error" in step.get("expect", {}):
                held.add(step["expect"]["error"])
    assert held == set(ERROR_CODES) - {"not-an-object", "bad-document"}


@pytest.mark.parametrize("path", sorted((ROOT / "spec" / "vectors").glob("*-error-*.json")),
                         ids=lambda p: p.name)
def test_an_engine_that_judges_an_unreadable_step_fails_its_vector(path):
    """The boundary is certifiable: a verdict where the vector expects an
    error, or another error code, fails the vector."""
    from fsm.conformance import reference_result
    from fsm.conformance.vectors import judge, public_vector
    doc = json.loads(path.read_text(encoding="utf-8"))
    result = reference_result(public_vector(doc))
    assert judge(doc, result, ()) == []
    last = result["steps"][-1]
    judged = dict(result, steps=result["steps"][:-1] + [{"verdict": "allowed", "reason": None}])
    assert judge(doc, judged, ()) != []
    other = dict(result, steps=result["steps"][:-1] + [dict(last, error="bad-value"
                                                              if last["error"] != "bad-value"
                                                              else "unknown-field")])
    assert judge(doc, other, ()) != []


def test_ids_are_unique_across_vectors_and_scenarios():
    """No two files of the default run share an id (a report would list one
    twice, and pytest would show two items under one name)."""
    generated = sorted((ROOT / "spec" / "vectors" / "generated").glob("*.json"))
    ids = [_load(p)["id"] for p in [*VECTORS, *generated, *SCENARIOS]]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_the_facts_are_declared_once_and_read_from_there():
    """The facts an encounter reports, the expectations a scenario may hold,
    the schema's expect and the reference's hello all follow
    fsm.engine.facts; FORMAT.md names every fact."""
    import json as _json
    from pathlib import Path as _Path

    from fsm.conformance import ENGINE_FACTS, reference_hello
    from fsm.engine import Encounter
    from fsm.engine.facts import FACTS, NAMES
    from fsm.scenario import EXPECT_FIELDS
    root = _Path(__file__).resolve().parent.parent
    plain = Encounter("dnd4e", [("a", "x"), ("b", "y")])
    assert tuple(plain.facts()) == tuple(n for n in NAMES if n != "positions")
    placed = Encounter("dnd4e", [{"id": "a", "side": "x", "at": [0, 0]},
                                 {"id": "b", "side": "y", "at": [1, 0]}])
    assert tuple(placed.facts()) == NAMES
    assert set(NAMES) <= EXPECT_FIELDS
    assert tuple(reference_hello()["facts"]) == NAMES
    assert set(ENGINE_FACTS) == {f.name for f in FACTS if f.engines}
    schema = _json.loads((root / "spec" / "vector.schema.json").read_text())
    expect = schema["$defs"]["expect"]["properties"]
    assert {n: expect[n] for n in NAMES} == {f.name: f.schema for f in FACTS}
    format_md = (root / "spec" / "FORMAT.md").read_text()
    assert all(f"`{n}`" in format_md for n in NAMES)


def test_the_snapshot_comparison_sees_every_difference():
    """tests/snapshot.py's comparison (the before/after check of a
    restructuring) names a changed value, a missing key and an added one."""
    import importlib.util
    from pathlib import Path as _Path
    path = _Path(__file__).resolve().parent / "snapshot.py"
    spec = importlib.util.spec_from_file_location("snapshot", path)
    snapshot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snapshot)
    before = {"documents": {"a.json": {"result": [1, 2]}, "b.json": 1}, "mutants": {"m": ["v"]}}
    after = {"documents": {"a.json": {"result": [1, 3]}, "c.json": 1}, "mutants": {"m": ["v"]}}
    diffs = snapshot.compare(before, after)
    assert len(diffs) == 3
    assert any("a.json/result" in d for d in diffs)
    assert any("b.json: only in before" in d for d in diffs)
    assert any("c.json: only in after" in d for d in diffs)
    assert snapshot.compare(before, before) == []
