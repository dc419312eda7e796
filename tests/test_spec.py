"""The spec map: structure always, fingerprints whenever the texts are at hand."""

import copy
import json
import os
import re
from pathlib import Path

import pytest

from fsm import spec as S
from fsm.spec import model as M
from fsm.cli import main
from fsm.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("FSM_SOURCES") or ROOT.parent / "shared")
HAVE_SEEDS = SEEDS.is_dir() and any(SEEDS.iterdir())
needs_seeds = pytest.mark.skipif(not HAVE_SEEDS, reason="the rule texts are not at hand "
                                 "(set FSM_SOURCES); CI has them")


@pytest.fixture(scope="module")
def spec():
    return S.load(ROOT)


@pytest.fixture(scope="module")
def map_text():
    return (ROOT / "spec" / "MAP.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def texts(spec):
    return S.find_sources(spec, SEEDS) if HAVE_SEEDS else None


def test_the_map_holds_without_the_texts(spec, map_text):
    """Structure, links to the table, tests, vectors and MAP.md all hold."""
    assert S.check(spec, None, map_text) == []


@needs_seeds
def test_the_map_holds_against_the_texts(spec, texts, map_text):
    """Every fingerprint matches and the spans tile each text."""
    assert set(texts) == {s["id"] for s in spec.sources}
    assert S.check(spec, texts, map_text) == []


@needs_seeds
def test_the_texts_are_found_by_hash_whatever_their_names(spec, tmp_path):
    """Renamed copies of the texts are still found."""
    for i, path in enumerate(sorted(p for p in SEEDS.rglob("*") if p.is_file())):
        (tmp_path / f"copy-{i}.txt").write_bytes(path.read_bytes())
    assert set(S.find_sources(spec, tmp_path)) == {s["id"] for s in spec.sources}


def test_every_sentence_is_covered(spec):
    """Each sentence states rules or says why it states none: 100% coverage."""
    for src, c in S.coverage(spec).items():
        assert c["sentences"] > 0 and c["covered"] == c["sentences"], src


def test_removing_any_sentence_entry_fails_the_check(spec, texts, map_text):
    """Deleting one entry is caught (numbering, counts, tiling, MAP.md)."""
    for i in range(len(spec.sentences)):
        broken = copy.copy(spec)
        broken.sentences = spec.sentences[:i] + spec.sentences[i + 1:]
        assert S.check(broken, texts, map_text), spec.sentences[i]["id"]


def test_removing_any_rule_link_fails_the_check(spec, map_text):
    """Deleting one rule id from one sentence is caught."""
    for i, entry in enumerate(spec.sentences):
        for rid in entry["rules"]:
            broken = copy.copy(spec)
            changed = dict(entry, rules=[r for r in entry["rules"] if r != rid])
            broken.sentences = spec.sentences[:i] + [changed] + spec.sentences[i + 1:]
            assert S.check(broken, None, map_text), (entry["id"], rid)


def test_removing_any_test_marker_fails_the_check(spec, map_text):
    """Dropping one test from one rule's marker list is caught."""
    for rid, tests in spec.tests.items():
        for test in tests:
            broken = copy.copy(spec)
            broken.tests = dict(spec.tests, **{rid: [t for t in tests if t != test]})
            assert S.check(broken, None, map_text), (rid, test)


def test_a_rule_listing_its_implementation_is_reported(tmp_path):
    """The transitions and guards of a rule come from the table alone: a rule
    of rules.yaml that lists them (even rightly) is reported, and the lists the
    spec gives each rule are the table's."""
    import shutil
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    path = tmp_path / "spec" / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    head = "- id: 4E-IMM-ONCE\n"
    assert head in text
    path.write_text(text.replace(head, head + "  guards: [immediate_unused]\n"),
                    encoding="utf-8")
    listed = M.load(tmp_path, with_tests=False)
    problems = S.check(listed, None, None)
    assert any("4E-IMM-ONCE" in p and "leave them out" in p for p in problems)
    rule = listed.rule_by_id["4E-IMM-ONCE"]
    have = M.table_links("dnd4e")["4E-IMM-ONCE"]
    assert (rule["transitions"], rule["guards"]) == (sorted(have[0]), sorted(have[1]))
    assert "immediate_unused" in rule["guards"] and "end-turn" in rule["transitions"]


def test_a_rule_id_the_table_cites_but_rules_yaml_lacks_is_reported(spec):
    """A table rule id with no entry in rules.yaml is caught."""
    broken = copy.copy(spec)
    broken.rules = [r for r in spec.rules if r["id"] != "4E-IMM-ONCE"]
    problems = S.check(broken, None, None)
    assert any("4E-IMM-ONCE" in p and "not in spec/rules.yaml" in p for p in problems)


def test_a_wrong_fingerprint_is_reported(spec, texts):
    """A sentence whose hash does not match its span is caught."""
    if texts is None:
        pytest.skip("needs the texts")
    broken = copy.copy(spec)
    first = dict(spec.sentences[0], sha256="0" * 64)
    broken.sentences = [first] + spec.sentences[1:]
    assert any("fingerprint" in p for p in S.check(broken, texts, None))


def test_every_reason_code_is_documented():
    """spec/FORMAT.md lists every reason code a guard can give."""
    doc = (ROOT / "spec" / "FORMAT.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z-]+)` \| (?:rejected|gm) \|", doc, re.M))
    used = {fn for rs in RULESETS.values() for r in (*rs.rows, *rs.refusals)
            for fn, _ in r.guards}
    codes = {g.reason for g in used if g.reason} | \
        {g.gm_reason for g in used if g.gm_reason}
    assert codes == listed


@needs_seeds
def test_the_project_contains_none_of_the_texts_sentences(spec, texts):
    """No sentence of the texts (longer than a few words) appears in any project file."""
    sentences = [texts[e["source"]][e["start"]:e["end"]] for e in spec.sentences]
    long_ones = [s for s in sentences if len(s) >= 30]
    assert long_ones
    for path in ROOT.rglob("*"):
        if not path.is_file() or ".git" in path.parts or path.suffix in (".png", ".pyc"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for s in long_ones:
            assert s not in text, (path, s[:20])


def test_spec_check_cli_json_lists_every_sentence(capsys):
    """`fsm spec check --json` prints each entry with the contract's fields."""
    code = main(["spec", "check", "--json"] +
                (["--sources", str(SEEDS)] if HAVE_SEEDS else []))
    payload = json.loads(capsys.readouterr().out)
    assert code == 0 and payload["ok"]
    assert len(payload["sentences"]) == len(S.load(ROOT).sentences) == 346
    for entry in payload["sentences"]:
        assert {"source", "start", "end", "sha256", "kind", "rules", "reason"} <= set(entry)
    assert payload["divergences"] and all(d["cited"] for d in payload["divergences"])


def test_spec_show_prints_the_chain(capsys):
    """`fsm spec show RULE` goes from rule to transitions, guards, tests and vectors."""
    assert main(["spec", "show", "4E-IMM-ONCE"]) == 0
    out = capsys.readouterr().out
    assert "immediate_unused" in out and "tests:" in out and "vectors:" in out
    assert "stated by cs-4e.021" in out


@needs_seeds
def test_spec_show_prints_the_original_from_the_users_copy(spec, texts, capsys):
    """With --sources the original sentence is printed beside the paraphrase."""
    assert main(["spec", "show", "fr-pf2.013", "--sources", str(SEEDS)]) == 0
    out = capsys.readouterr().out
    e = spec.sentence_by_id["fr-pf2.013"]
    assert texts["fr-pf2"][e["start"]:e["end"]] in out
    assert "PF2-FREE-ONE-PER-TRIGGER" in out


def test_spec_show_unknown_id_suggests_the_nearest(capsys):
    """A misspelt id gets exit 2 and a suggestion."""
    assert main(["spec", "show", "4E-IMM-ONSE"]) == 2
    assert "4E-IMM-ONCE" in capsys.readouterr().err


def test_the_rule_markers_read_from_the_tests_are_what_pytest_collects():
    """fsm spec check reads rule markers from the test files' syntax trees;
    pytest's own collection of the same suite gives the same map."""
    from fsm.spec.model import collect_tests_with_pytest
    assert S.collect_tests(ROOT) == collect_tests_with_pytest(ROOT)


def test_the_marker_reader_sees_every_form_pytest_accepts(tmp_path):
    """A marker through an alias, on a class, on a method, with several ids;
    a function that is not a test, and a marker of another name, are not read."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_sample.py").write_text(
        "import pytest\n"
        "rule = pytest.mark.rule\n"
        "@rule('A-1', 'A-2')\n"
        "def test_one():\n    pass\n"
        "@pytest.mark.rule('B-1')\n"
        "class TestGroup:\n"
        "    @pytest.mark.rule('B-2')\n"
        "    def test_two(self):\n        pass\n"
        "    def helper(self):\n        pass\n"
        "@pytest.mark.rule('C-1')\n"
        "def helper():\n    pass\n"
        "@pytest.mark.slow('D-1')\n"
        "def test_three():\n    pass\n", encoding="utf-8")
    assert S.collect_tests(tmp_path) == {
        "A-1": ["tests/test_sample.py::test_one"], "A-2": ["tests/test_sample.py::test_one"],
        "B-1": ["tests/test_sample.py::TestGroup::test_two"],
        "B-2": ["tests/test_sample.py::TestGroup::test_two"]}


def test_the_statements_file_is_generated_from_the_rules_and_fresh(tmp_path):
    """spec/statements.json holds every rule's statement on one line, as
    rules.yaml states it; a hand edit, or a missing file, is reported by the
    check."""
    from dataclasses import replace as _replace

    from fsm import spec as S
    from fsm.spec import statements
    loaded = S.load(ROOT, with_tests=False)
    assert statements.problems(loaded) == []
    on_file = statements.read(ROOT)
    assert on_file == {r["id"]: " ".join(r["statement"].split()) for r in loaded.rules}
    (tmp_path / "spec").mkdir()
    moved = _replace(loaded, root=tmp_path)
    assert "missing" in statements.problems(moved)[0]
    (tmp_path / "spec" / "statements.json").write_text(
        statements.render(loaded).replace("four types", "five types"), encoding="utf-8")
    assert "stale" in statements.problems(moved)[0]
