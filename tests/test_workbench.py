"""The rules lawyer's workbench: worked examples, what is possible now,
formats, hand-written input, hostile input."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fsm import Encounter
from fsm.cli import main
from fsm.report import Citations, markdown
from fsm.rulesets import RULESETS
from fsm.scenario import build, load, replay, replay_log

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted(p for p in (ROOT / "spec" / "scenarios").iterdir()
                 if p.suffix in (".json", ".yaml"))


def _doc(path):
    return load(str(path))


# -- the gallery ---------------------------------------------------------------------

def test_the_gallery_holds_at_least_a_dozen_questions():
    """At least twelve shipped scenarios, each with a question and its answer."""
    asked = [p for p in GALLERY if _doc(p).get("question") and _doc(p).get("answer")]
    assert len(asked) >= 12
    assert {_doc(p)["ruleset"] for p in asked} == set(RULESETS)


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.name)
def test_each_worked_example_is_fresh(path):
    """The committed Markdown beside each scenario is what `fsm check --format markdown` prints."""
    doc = _doc(path)
    rep = replay(doc, str(path.relative_to(ROOT)), build(doc, str(path)))
    committed = path.with_suffix(".md").read_text(encoding="utf-8")
    assert markdown(rep, Citations(ROOT)) == committed


def test_the_readme_lists_every_gallery_question():
    """README's gallery names every scenario."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in GALLERY:
        assert _doc(path)["id"] in readme, path.name


# -- what is possible now -------------------------------------------------------------

def _play(doc, upto):
    enc = build(doc, "x")
    for data in doc["steps"][:upto]:
        enc.step(data)
    return enc


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.name)
def test_at_answers_match_the_machine(path):
    """Every step --at lists as allowed is accepted, every forbidden one rejected with its code."""
    doc = _doc(path)
    for upto in range(len(doc["steps"]) + 1):
        listed = _play(doc, upto).possible()
        for who, row in listed.items():
            for kind, verdict in row.items():
                enc = _play(doc, upto)
                data = {"do": kind} if who == "*" else {"do": kind, "actor": who}
                if kind == "activity":
                    data["cost"] = 1
                got = enc.step(data)
                assert (got.verdict, got.reason) == (verdict.verdict, verdict.reason), \
                    (path.name, upto, who, kind)


def test_at_prints_allowed_and_forbidden_steps(capsys):
    """`fsm check --at N` lists, per combatant, what is allowed and what is not and why."""
    path = ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json"
    assert main(["check", "--color", "never", "--at", "3", str(path)]) == 0
    out = capsys.readouterr().out
    assert "after step 3" in out
    ayla = out.split("ayla:")[1].split("anyone:")[0]
    assert "allowed: free, free-response, no-action, reaction" in ayla
    assert "interrupt (trigger-already-resolved)" in ayla


def test_at_in_json(capsys):
    """--at with --format json gives each combatant's steps and verdicts."""
    path = ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json"
    assert main(["check", "--format", "json", "--at", "1", str(path)]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["possible"]["ayla"]["interrupt"]["verdict"] == "allowed"
    assert payload["possible"]["orc"]["interrupt"]["reason"] == "immediate-on-own-turn"


def test_at_out_of_range_is_bad_input(capsys):
    """--at beyond the last step is refused with exit 2."""
    path = ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json"
    assert main(["check", "--at", "99", str(path)]) == 2
    assert "--at 99" in capsys.readouterr().err


def test_possible_is_available_from_the_library():
    """Engines can ask the same question through Encounter.possible()."""
    enc = Encounter("pf2e", [("ogre", "monsters"), ("kyra", "heroes")])
    enc.step({"actor": "ogre", "do": "action"})
    now = enc.possible()
    assert now["kyra"]["reaction"].verdict == "gm"
    assert now["kyra"]["action"].reason == "not-your-turn"
    assert now["*"]["resolve"].verdict == "allowed"


# -- output --------------------------------------------------------------------------

def test_explain_says_what_the_deciding_check_saw(capsys):
    """--explain says what the deciding check saw, the budget values included,
    in words: the guard's name stays in the JSON output."""
    path = ROOT / "spec" / "scenarios" / "4e-two-immediates-in-one-round.json"
    assert main(["check", "--explain", "--color", "never", str(path)]) == 0
    out = capsys.readouterr().out
    assert "why: ayla already took an immediate action in round 1, during orc's turn" in out
    assert "immediate_unused" not in out
    assert main(["check", "--json", str(path)]) == 0
    assert '"guard": "immediate_unused"' in capsys.readouterr().out


def test_rejections_cite_the_rule_in_our_words(capsys):
    """A rejected step prints its rule id with the paraphrase from spec/rules.yaml."""
    path = ROOT / "spec" / "scenarios" / "pf2-one-reaction-per-trigger.json"
    assert main(["check", "--color", "never", str(path)]) == 0
    out = capsys.readouterr().out
    assert "PF2-EXTRA-REACTIONS: A creature able to take more than one reaction" in out


def test_colour_only_when_asked_or_on_a_terminal(capsys):
    """No escape codes when stdout is not a terminal; some with --color always."""
    path = str(ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json")
    main(["check", path])
    assert "\x1b[" not in capsys.readouterr().out
    main(["check", "--color", "always", path])
    assert "\x1b[31m" in capsys.readouterr().out


def test_markdown_output_is_a_table(capsys):
    """--format markdown prints a table ready to paste."""
    path = ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json"
    assert main(["check", "--format", "markdown", str(path)]) == 0
    out = capsys.readouterr().out
    assert "| # | step | verdict | reason | rules |" in out
    assert "**Question.**" in out
    assert out.rstrip().endswith("Every expectation holds.")


def test_markdown_says_nothing_of_expectations_none_were_set(tmp_path, capsys):
    """A scenario without expectations (as the builder makes one): its
    Markdown ends with the table or the rules cited, claiming nothing."""
    doc = json.loads((ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json").read_text(
        encoding="utf-8"))
    doc["steps"] = [{k: v for k, v in s.items() if k != "expect"} for s in doc["steps"]]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for fmt in ("markdown", "bbcode"):
        main(["check", "--format", fmt, str(path)])
        assert "expectation" not in capsys.readouterr().out


# -- hand-written input --------------------------------------------------------------

BASE = {"format": 1, "ruleset": "dnd4e",
        "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}],
        "steps": [{"actor": "orc", "do": "standard"}]}


def _with(**changes):
    return json.dumps(dict(BASE, **changes), indent=1)


MALFORMED = {
    "json syntax": ("{\"format\": 1,\n \"ruleset\": }", "invalid JSON"),
    "top level list": ("[]", "a scenario is an object"),
    "format 2": (_with(format=2), "'format' must be 1"),
    "unknown ruleset": (_with(ruleset="dnd5"), "'ruleset' must be one of"),
    "combatants not a list": (_with(combatants={"orc": "monsters"}), "'combatants' must be"),
    "combatant without side": (_with(combatants=[{"id": "orc"}]), "needs a side"),
    "duplicate combatant": (_with(combatants=[{"id": "orc", "side": "a"},
                                              {"id": "orc", "side": "b"}]), "listed twice"),
    "initiative unknown": (_with(initiative=["orc", "alya"]), "did you mean 'ayla'"),
    "initiative incomplete": (_with(initiative=["orc"]), "every combatant exactly once"),
    "unknown option": (_with(options={"readied_ass": "reaction"}),
                       "did you mean 'readied_as'"),
    "bad option value": (_with(options={"readied_as": "sometimes"}), "takes one of"),
    "unknown step kind": (_with(steps=[{"actor": "orc", "do": "standart"}]),
                          "did you mean 'standard'"),
    "unknown step kind, none near": (_with(steps=[{"actor": "orc", "do": "attack"}]),
                                     "the kinds are: standard, move, minor"),
    "unknown combatant": (_with(steps=[{"actor": "ork", "do": "standard"}]),
                          "did you mean 'orc'"),
    "unknown step field": (_with(steps=[{"actor": "orc", "do": "move", "sqares": 2}]),
                           "did you mean 'squares'"),
    "zero squares": (_with(steps=[{"actor": "orc", "do": "move", "squares": 0}]),
                     "squares must be an integer"),
    "cost on a 4e action": (_with(steps=[{"actor": "orc", "do": "standard", "cost": 2}]),
                            "unknown field 'cost'"),
    "unknown trigger id": (_with(steps=[{"actor": "orc", "do": "standard"},
                                        {"actor": "ayla", "do": "interrupt", "to": "clb"}]),
                           "no trigger has the id 'clb'"),
    "duplicate frame id": (_with(steps=[{"actor": "orc", "do": "standard", "id": "a"},
                                        {"actor": "ayla", "do": "interrupt", "id": "a"}]),
                           "already used"),
    "bad expectation": (_with(steps=[{"actor": "orc", "do": "standard",
                                      "expect": {"verdict": "maybe"}}]),
                        "expected verdict must be"),
    "unknown expectation": (_with(steps=[{"actor": "orc", "do": "standard",
                                          "expect": {"verdit": "allowed"}}]),
                            "unknown expectation"),
    "steps not a list": (_with(steps={"do": "standard"}), "'steps' must be a list"),
    "step not an object": (_with(steps=["standard"]), "a step is an object"),
    "empty file": ("", "invalid JSON"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input_gets_exit_2_and_one_clear_line(name, tmp_path, capsys):
    """Each malformed scenario: exit 2, one line naming the file and what is wrong."""
    text, message = MALFORMED[name]
    path = tmp_path / "scenario.json"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(str(path)) and message in err, err
    assert "Traceback" not in err


def test_yaml_errors_give_line_and_column(tmp_path, capsys):
    """A YAML syntax error names its line and column."""
    path = tmp_path / "s.yaml"
    path.write_text("format: 1\nruleset: dnd4e\nsteps: [\n  {do: x\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: invalid YAML", capsys.readouterr().err)


def test_a_step_error_in_yaml_names_the_steps_line(tmp_path, capsys):
    """A misspelt combatant in a YAML step is reported at that step's line, with a suggestion."""
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(dict(BASE, steps=[{"actor": "orc", "do": "standard"},
                                                     {"actor": "alya", "do": "interrupt"}]),
                                   sort_keys=False), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    line = int(err.split(":")[1])
    assert "alya" in path.read_text().splitlines()[line - 1]
    assert err.endswith("step 2: unknown combatant 'alya' (did you mean 'ayla'?)")


def test_not_utf8_is_refused(tmp_path, capsys):
    """Bytes that are not UTF-8 get one line."""
    path = tmp_path / "s.json"
    path.write_bytes(b"\xff\xfe{}")
    assert main(["check", str(path)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


# -- hostile input -------------------------------------------------------------------

def test_a_file_of_tens_of_megabytes_is_refused(tmp_path, capsys):
    """A 20 MB scenario is refused before it is read."""
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.truncate(20 * 1024 * 1024)
    assert main(["check", str(path)]) == 2
    assert "limited to" in capsys.readouterr().err


def test_a_yaml_alias_bomb_is_refused(tmp_path, capsys):
    """Nested aliases that would expand to billions of values are refused."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert "aliases included" in capsys.readouterr().err


@pytest.mark.parametrize("suffix,text", [
    (".json", "[" * 100_000 + "]" * 100_000),
    (".yaml", "a:\n" + "".join(" " * (i + 1) + "- \n" for i in range(200))),
])
def test_deeply_nested_documents_are_refused(suffix, text, tmp_path, capsys):
    """Nesting beyond 64 levels gets one line, not a RecursionError."""
    path = tmp_path / f"deep{suffix}"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "deeper than" in err or "invalid YAML" in err
    assert "Traceback" not in err


def _write_log(path, turns):
    header = {"format": 1, "ruleset": "dnd4e",
              "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}]}
    turn = [{"actor": "orc", "do": "standard"}, {"do": "resolve"},
            {"actor": "ayla", "do": "reaction"}, {"do": "resolve"}, {"do": "end-turn"},
            {"actor": "ayla", "do": "move", "squares": 2}, {"do": "resolve"},
            {"do": "continue", "actor": "ayla"}, {"do": "resolve"}, {"do": "end-turn"}]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(header) + "\n")
        lines = "".join(json.dumps(s) + "\n" for s in turn)
        for _ in range(turns):
            fh.write(lines)


PEAK = """
import json, sys, tracemalloc
from fsm.scenario import replay_log
tracemalloc.start()
rep = replay_log(sys.argv[1], keep=200)
print(json.dumps([rep.ok, rep.steps, tracemalloc.get_traced_memory()[1]]))
"""


def _peak(path):
    """(whether the log replayed, its steps, the peak of memory allocated while
    replaying it), in a process of its own: not in this one, where what other
    tests left changes when the collector runs, and so the peak."""
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_long_log_replays_in_bounded_memory(tmp_path):
    """Memory does not grow with the length of an event log (100 vs 1,000 turns)."""
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    _write_log(short, 100)
    _write_log(long, 1000)
    ok_short, _, peak_short = _peak(short)
    ok_long, steps, peak_long = _peak(long)
    assert ok_short and ok_long and steps == 10_000
    assert peak_long < 1.5 * peak_short, (peak_short, peak_long)


def test_a_log_line_too_long_is_refused(tmp_path, capsys):
    """One line of several megabytes in a log is refused with its line number."""
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(BASE | {"steps": None}).replace(', "steps": null', "") + "\n"
                    + "x" * (2 * 1024 * 1024) + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert ":2: line longer than" in capsys.readouterr().err


def test_a_log_reports_the_first_forbidden_step(tmp_path, capsys):
    """An engine's log replays until the first step the rules forbid, named by line."""
    path = tmp_path / "game.jsonl"
    lines = [{"format": 1, "ruleset": "pf2e",
              "combatants": [{"id": "ogre", "side": "m"}, {"id": "kyra", "side": "h"}],
              "options": {"react_before_first_turn": "allow"}},
             {"actor": "ogre", "do": "action"}, {"actor": "kyra", "do": "reaction"},
             {"do": "resolve"}, {"do": "resolve"}, {"actor": "ogre", "do": "action"},
             {"actor": "kyra", "do": "reaction"}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert main(["check", "--color", "never", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:7: step 6: kyra reaction is rejected: reaction-used-this-round" in out


def test_a_huge_yaml_document_is_refused_while_it_is_composed(tmp_path, capsys):
    """A YAML file under the byte cap but with a million values is refused
    once the node limit is passed, not after building it all."""
    from fsm.cli import main
    path = tmp_path / "big.yaml"
    path.write_text("steps:\n" + "- a\n" * 1_000_000)
    assert main(["check", str(path)]) == 2
    assert "more than 200000 values" in capsys.readouterr().err


@pytest.mark.parametrize("args", [
    (["dnd4e"], [("a", "x")]), ("dnd4e", None), ("dnd4e", 5), ("dnd4e", "ab"),
    ("dnd4e", [("a",)]), ("dnd4e", [5]), ("dnd4e", [("a", "x")], 5),
    ("dnd4e", [("a", "x")], [["a"]]), ("dnd4e", [("a", "x")], None, ["x"]),
    ("dnd4e", [("a", "x", "z")]), ("pf2e", [{"id": "a", "side": "x", "reactions": "2"}]),
    ("dnd4e", [("a", "x")], None, {5: 1}),
])
def test_odd_encounter_arguments_raise_step_error(args):
    """Whatever is passed to Encounter, a mistake is the documented StepError."""
    from fsm import Encounter, StepError
    with pytest.raises(StepError):
        Encounter(*args)


@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.name)
def test_every_allowed_step_gives_its_reason_in_every_output(path):
    """An allowed step says why, in words, in text, Markdown and JSON: what
    each limit saw as it let the step through."""
    from fsm.report import Citations, Style, as_json, text
    doc = _doc(path)
    rep = replay(doc, str(path.relative_to(ROOT)), build(doc, str(path)))
    words = text(rep, Citations(ROOT), Style(False))
    page = markdown(rep, Citations(ROOT))
    steps = as_json(rep)["steps"]
    for r, entry in zip(rep.results, steps):
        if r.verdict.verdict != "allowed":
            continue
        assert entry.get("because"), (path.name, r.index)
        sentence = "; ".join(entry["because"])
        assert f"because {sentence}" in words and f"because {sentence}" in page


def test_every_reason_of_every_vector_reads_as_words():
    """The reason of each allowed step of every vector and scenario is filled
    in: no placeholder left, no None, no empty part."""
    paths = sorted((ROOT / "spec" / "vectors").rglob("*.json")) + GALLERY
    checked = 0
    for path in paths:
        doc = _doc(path)
        rep = replay(doc, str(path), build(doc, str(path)))
        for r in rep.results:
            for part in r.verdict.because or ():
                assert part and "{" not in part and "None" not in part, (path.name, part)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_an_events_reason_is_its_own_not_the_words_of_the_step_before(ruleset):
    """An event passes no limit, so its reason names none; it used to repeat
    what the limits of the step before it had seen."""
    from fsm.report import as_json
    rs = RULESETS[ruleset]
    action = sorted(k for k in rs.turn_actions        # one that needs no field given
                    if k not in rs.spec_of or not rs.spec_of[k].cost_field)[0]
    doc = {"format": 1, "id": "event-reason", "ruleset": ruleset,
           "combatants": [{"id": "ann", "side": "red"}, {"id": "bob", "side": "blue"}],
           "steps": [{"actor": "ann", "do": action}, {"do": "event"}]}
    rep = replay(doc, "event-reason", build(doc, "event-reason"))
    first, event = rep.results
    assert first.verdict.because and event.verdict.verdict == "allowed"
    assert not event.verdict.because
    assert as_json(rep)["steps"][1]["because"] == ["no limit of this ruleset applies to it here"]
