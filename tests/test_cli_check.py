"""`fsm check`: replays, exit codes, and bad input in one line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "spec" / "scenarios").glob("*.json")) + \
    sorted((ROOT / "spec" / "scenarios").glob("*.yaml"))

BASE = {
    "format": 1, "ruleset": "dnd4e",
    "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}],
    "steps": [{"actor": "orc", "do": "standard"}],
}


def _write(tmp_path, doc, name="s.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_shipped_scenario_passes(path, capsys):
    """Each scenario in spec/scenarios replays with every expectation holding."""
    assert main(["check", "--color", "never", str(path)]) == 0
    out = capsys.readouterr().out
    assert "every expectation holds" in out


@pytest.mark.rule("4E-EX-SHIFT")
def test_the_shift_away_example_replays(capsys):
    """The text's shift-away example: the interrupt makes the melee attack lost."""
    path = ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json"
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["verdict"] for s in report["steps"]] == \
        ["allowed", "allowed", "allowed", "allowed", "rejected"]


@pytest.mark.rule("4E-EX-DOUBLE")
def test_the_double_attack_example_replays(capsys):
    """The text's double attack: a reaction between the two attack rolls."""
    path = ROOT / "spec" / "scenarios" / "4e-reaction-between-attack-rolls.json"
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"][3]["verdict"] == "allowed"
    assert report["steps"][1]["reason"] == "trigger-not-resolved"


@pytest.mark.rule("4E-EX-REACH")
def test_the_entering_reach_example_replays(capsys):
    """The text's movement example: the reaction comes mid-move, after a square."""
    path = ROOT / "spec" / "scenarios" / "4e-reaction-when-the-ogre-enters-reach.json"
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"][1]["reason"] == "moved-less-than-one-square"
    assert report["steps"][6]["verdict"] == "allowed"


@pytest.mark.rule("4E-EX-HIT")
def test_the_reaction_when_hit_example_replays(capsys):
    """The text's strike-back example: before the orc's next action takes effect,
    interrupting it, and not after."""
    path = ROOT / "spec" / "scenarios" / "4e-reaction-when-hit.json"
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"][3]["verdict"] == "allowed"
    assert report["steps"][6]["reason"] == "trigger-passed"


@pytest.mark.rule("4E-EX-ACTION-KINDS")
def test_the_action_kinds_example_replays(capsys):
    """The French text's everyday actions fill one turn, each with its own type."""
    path = ROOT / "spec" / "scenarios" / "4e-action-kinds.json"
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["verdict"] for s in report["steps"][:10]] == ["allowed"] * 10
    assert report["steps"][10]["reason"] == "minor-action-used"


def test_a_failed_expectation_exits_1(tmp_path, capsys):
    """An expectation that does not hold is reported and the exit status is 1."""
    doc = dict(BASE, steps=[{"actor": "orc", "do": "standard",
                             "expect": {"verdict": "rejected"}}])
    assert main(["check", "--color", "never", _write(tmp_path, doc)]) == 1
    out = capsys.readouterr().out
    assert "FAIL expected rejected, got allowed" in out


# an expectation naming what the encounter or its ruleset lacks: (expect, what the line says)
NAMELESS = {
    "reason": ({"reason": "standard-used"}, "unknown reason code 'standard-used'"),
    "rule": ({"rules": ["4E-STANDARD-OWN-TRN"]}, "(did you mean '4E-STANDARD-OWN-TURN'?)"),
    "phase": ({"state": "actng"}, "unknown phase 'actng'"),
    "active": ({"active": "zed"}, "expect.active: unknown combatant 'zed'"),
    "initiative": ({"initiative": ["orc", "ayl"]}, "(did you mean 'ayla'?)"),
    "budget's combatant": ({"budgets": {"zed": {"move": 1}}}, "expect.budgets: unknown"),
    "budget": ({"budgets": {"orc": {"standrd": 0}}},
               "expect.budgets.orc: unknown budget 'standrd' for dnd4e "
               "(did you mean 'standard'?)"),
}


@pytest.mark.parametrize("name", sorted(NAMELESS))
def test_an_expectation_of_something_that_does_not_exist_is_bad_input(name, tmp_path, capsys):
    """A typo in what a step expects can never hold: one line, exit 2, the
    nearest name; the same expectation spelt right is checked."""
    expect, says = NAMELESS[name]
    doc = dict(BASE, steps=[{"actor": "orc", "do": "standard", "expect": expect}])
    assert main(["check", _write(tmp_path, doc)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and ": step 1: " in err and says in err, err
    right = json.loads(json.dumps(expect).replace("standard-used", "not-your-turn")
                       .replace("TRN", "TURN").replace("actng", "turn_acting")
                       .replace("zed", "orc").replace("ayl\"", "ayla\"")
                       .replace("standrd", "standard"))
    doc["steps"][0]["expect"] = right
    assert main(["check", _write(tmp_path, doc)]) in (0, 1)


def test_json_output_is_machine_readable(tmp_path, capsys):
    """--json prints each step's verdict, reason and rules."""
    doc = dict(BASE, steps=[{"actor": "ayla", "do": "standard"}])
    assert main(["check", "--json", _write(tmp_path, doc)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["steps"][0]["reason"] == "not-your-turn"
    assert report["steps"][0]["rules"] == ["4E-STANDARD-OWN-TURN"]


MALFORMED = {
    "not json": "{not json",
    "not an object": "[1, 2]",
    "wrong format": dict(BASE, format=2),
    "no format": {k: v for k, v in BASE.items() if k != "format"},
    "expected error not a code": dict(BASE, steps=[{"actor": "orc", "do": "standard",
                                                    "expect": {"error": {"code": 1}}}]),
    "unknown ruleset": dict(BASE, ruleset="dnd3e"),
    "unknown combatant": dict(BASE, steps=[{"actor": "zed", "do": "standard"}]),
    "unknown step kind": dict(BASE, steps=[{"actor": "orc", "do": "bonus"}]),
    "bad squares": dict(BASE, steps=[{"actor": "orc", "do": "move", "squares": 0}]),
    "unknown option": dict(BASE, options={"fast": True}),
    "unknown trigger id": dict(BASE, steps=[{"actor": "orc", "do": "standard"},
                                            {"actor": "ayla", "do": "interrupt",
                                             "to": "nope"}]),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input_gets_one_line_and_exit_2(name, tmp_path, capsys):
    """Bad input: exit 2, one line naming the file, no traceback."""
    path = _write(tmp_path, MALFORMED[name])
    assert main(["check", path]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(path)
    assert "Traceback" not in err


@pytest.mark.rule("4E-STACK")
def test_a_step_out_of_order_is_a_verdict_and_the_replay_goes_on(tmp_path, capsys):
    """Resolving with nothing pending is rejected, not bad input: later steps
    are still judged and their expectations checked."""
    doc = dict(BASE, steps=[{"do": "resolve", "expect": {"verdict": "rejected",
                                                          "reason": "nothing-pending"}},
                            {"actor": "orc", "do": "standard",
                             "expect": {"verdict": "allowed"}}])
    assert main(["check", "--json", _write(tmp_path, doc)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["verdict"] for s in report["steps"]] == ["rejected", "allowed"]


def test_a_missing_format_is_named_missing(tmp_path, capsys):
    path = _write(tmp_path, MALFORMED["no format"])
    assert main(["check", path]) == 2
    assert capsys.readouterr().err.strip() == f"{path}: missing field 'format' (always 1)"


def test_malformed_step_names_the_step(tmp_path, capsys):
    """The error line carries the step number and its line in the file."""
    doc = json.dumps(dict(BASE, steps=[{"actor": "orc", "do": "standard"},
                                       {"actor": "zed", "do": "interrupt"}]), indent=1)
    path = _write(tmp_path, doc)
    assert main(["check", path]) == 2
    err = capsys.readouterr().err.strip()
    assert ": step 2: unknown combatant 'zed'" in err
    line = err.split(":")[1]
    assert line.isdigit() and doc.splitlines()[int(line) - 1].strip().startswith("{")


def test_missing_file_exits_2(capsys):
    """A file that does not exist is bad input."""
    assert main(["check", "/nonexistent/scenario.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_python_dash_m_fsm_runs_the_cli():
    """`python -m fsm check` works as the console script does."""
    path = ROOT / "spec" / "scenarios" / "4e-interrupt-shift-away.json"
    proc = subprocess.run([sys.executable, "-m", "fsm", "check", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "lose" in proc.stdout


def test_no_command_prints_help_and_exits_2(capsys):
    """Without a command, the help is printed."""
    assert main([]) == 2
    assert "fsm" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["check"], ["check", "x.json", "--format", "html"], ["conformance", "--timeout", "soon"],
    ["diagram", "--view", "sideways"], ["spec", "show", "--bogus"], ["explore", "dnd4e",
                                                                      "--rounds", "two"],
    ["nonsense"],
])
def test_every_usage_mistake_gets_one_line_and_exit_2(argv, capsys):
    """Whatever the command, a usage mistake is one line on stderr naming the
    command and where to read more, with exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("fsm") and "--help)" in err[0], err


@pytest.mark.parametrize("argv,where", [
    (["site", "out", "--bogus"], "fsm site"),
    (["spec", "check", "--bogus"], "fsm spec check"),
    (["check", "a.json", "--zz"], "fsm check"),
    (["--bogus"], "fsm"),
])
def test_a_word_no_parser_takes_is_reported_by_its_command(argv, where, capsys):
    """The line names the (sub)command the word was given to, and its --help."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{where}: unrecognized arguments: ") and \
        err.endswith(f"(see {where} --help)"), err


@pytest.mark.parametrize("command", [["explore", "pf2e"], ["conformance"]])
@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_jobs_is_a_number_of_processes(command, jobs, capsys):
    assert main([*command, "--jobs", jobs]) == 2
    err = capsys.readouterr().err.strip()
    assert "argument --jobs" in err and len(err.splitlines()) == 1, err


# -- hostile files ----------------------------------------------------------------------

@pytest.mark.parametrize("path,message", [
    ("/dev/zero", "more than"),
    ("/proc/self/mem", "cannot read"),
])
def test_devices_and_unreadable_files_are_one_line(path, message, capsys):
    """A device is refused while reading, whatever size it reports; an
    unreadable file is one line too."""
    assert main(["check", path]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_a_folder_is_one_line(tmp_path, capsys):
    """A folder named like a scenario is bad input, not a traceback."""
    folder = tmp_path / "scenario.json"
    folder.mkdir()
    assert main(["check", str(folder)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_control_characters_are_escaped_in_text_and_markdown(tmp_path, capsys):
    """Escapes, newlines and direction overrides in names are shown escaped;
    JSON output keeps them exactly."""
    name = "\x1b[2Jwiped\nsecond\u202eevil"
    doc = dict(BASE, id="\x1b]0;title\x07", steps=[{"actor": "orc", "do": "standard",
                                                    "name": name}])
    path = _write(tmp_path, doc)
    for fmt in ("text", "markdown"):
        assert main(["check", "--format", fmt, "--color", "never", path]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\u202e" not in out and "second" in out
        assert "\\x1b[2Jwiped\\nsecond\\u202eevil" in out
    assert main(["check", "--format", "json", path]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "\x1b]0;title\x07"


def test_an_error_about_a_hostile_id_stays_on_one_line(tmp_path, capsys):
    """An unknown combatant whose id holds a newline is named on one line."""
    doc = dict(BASE, steps=[{"actor": "zed\nfake: line", "do": "standard"}])
    assert main(["check", _write(tmp_path, doc)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_readme_sample_is_what_fsm_check_prints(capsys, monkeypatch):
    """The Quick start's sample output is copied from a real run."""
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("fsm check spec/scenarios/4e-reaction-between-attack-rolls.json\n"
                         "```\n\n```\n", 1)[1].split("```", 1)[0]
    assert main(["check", "--color", "never",
                 "spec/scenarios/4e-reaction-between-attack-rolls.json"]) == 0
    assert capsys.readouterr().out == block


HOSTILE_DOCS = {
    "ruleset as nested lists": dict(BASE, ruleset=[["dnd4e"]]),
    "initiative as nested lists": dict(BASE, initiative=[["orc"], "ayla"]),
    "expect.budgets a number per combatant": dict(BASE, steps=[
        {"actor": "orc", "do": "standard", "expect": {"budgets": {"orc": 5}}}]),
    "expect.budgets a list": dict(BASE, steps=[
        {"actor": "orc", "do": "standard", "expect": {"budgets": [1]}}]),
    "expect.budgets null per combatant": dict(BASE, steps=[
        {"actor": "orc", "do": "standard", "expect": {"budgets": {"orc": None}}}]),
    "expect.rules a number": dict(BASE, steps=[
        {"actor": "orc", "do": "standard", "expect": {"rules": 5}}]),
    "expect.notes a number": dict(BASE, steps=[
        {"actor": "orc", "do": "standard", "expect": {"notes": 5}}]),
    "a 5000-digit integer": '{"format": 1, "id": "x", "ruleset": "dnd4e", "combatants": '
                            '[{"id": "orc", "side": "m"}], "steps": [{"actor": "orc", '
                            '"do": "move", "squares": ' + "9" * 5000 + '}]}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_DOCS))
def test_a_hostile_document_is_one_line_and_exit_2(name, tmp_path, capsys):
    """Each shape that once gave a traceback is now one line with exit 2."""
    path = _write(tmp_path, HOSTILE_DOCS[name])
    assert main(["check", path]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(path)


def test_a_5000_digit_integer_in_a_log_is_one_line(tmp_path, capsys):
    """The same in an event log, with the line number."""
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({"format": 1, "ruleset": "dnd4e",
                                "combatants": [{"id": "orc", "side": "m"}]}) + "\n" +
                    '{"actor": "orc", "do": "move", "squares": ' + "9" * 5000 + "}\n")
    assert main(["check", str(path)]) == 2
    assert ":2: an integer of 5000 digits" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_lone_surrogate_prints_in_every_format(fmt, tmp_path):
    """A name holding a lone surrogate is printed escaped, never a traceback."""
    path = tmp_path / "s.json"
    path.write_text('{"format": 1, "id": "\\ud800", "ruleset": "dnd4e", "combatants": '
                    '[{"id": "orc", "side": "m"}], "steps": [{"actor": "orc", '
                    '"do": "standard", "name": "\\udc00"}]}')
    proc = subprocess.run([sys.executable, "-m", "fsm", "check", "--format", fmt, str(path)],
                          capture_output=True, text=True, errors="replace")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "\\ud800" in proc.stdout


def test_an_unreadable_file_among_the_sources_is_passed_over(tmp_path, capsys):
    """--sources DIR with an unreadable file in it is read all the same."""
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "mem").symlink_to("/proc/self/mem")
    (folder / "notes.txt").write_text("not one of the texts")
    path = ROOT / "spec" / "scenarios" / "4e-reaction-when-hit.json"
    assert main(["check", "--sources", str(folder), str(path)]) == 0
    assert "every expectation holds" in capsys.readouterr().out


_MODULES_AFTER_CHECK = """
import sys
from fsm.cli import main
code = main(["check", "--color", "never", sys.argv[1]])
print("yaml" in sys.modules, code, file=sys.stderr)
"""


def test_a_check_of_a_json_scenario_reads_no_yaml(tmp_path):
    """A JSON scenario's check imports no PyYAML, whether its verdicts cite
    rules or not: the statements come from spec/statements.json."""
    allowed = _write(tmp_path, BASE)
    rejected = _write(tmp_path, {**BASE, "steps": [{"actor": "ayla", "do": "standard"}]},
                      "r.json")
    seen = {}
    for name, path in (("allowed", allowed), ("rejected", rejected)):
        proc = subprocess.run([sys.executable, "-c", _MODULES_AFTER_CHECK, path],
                              capture_output=True, text=True, cwd=tmp_path)
        seen[name] = proc.stderr.split()
    assert seen["allowed"] == ["False", "0"], seen
    assert seen["rejected"] == ["False", "0"], seen


_LOADED = """
import sys
from fsm.cli import main
code = main(sys.argv[1:])
print(code, *sorted(m for m in sys.modules if m.count(".") == 2
                    and m.startswith(("fsm.cli.", "fsm.rulesets."))), file=sys.stderr)
"""


@pytest.mark.parametrize("ruleset", ["dnd4e", "dnd5e", "pf2e"])
def test_a_check_loads_its_own_command_and_ruleset_only(tmp_path, ruleset):
    """fsm check of one ruleset's scenario imports neither the other
    commands' modules nor the other rulesets: they are loaded when a
    command line or a scenario names them."""
    from fsm.rulesets import RULESETS
    assert ruleset in RULESETS
    rs = RULESETS[ruleset]          # a turn action that needs no cost, the same in every run
    first = next(k for k in sorted(rs.turn_actions)
                 if not getattr(rs.spec_of.get(k), "cost_field", False))
    doc = {**BASE, "ruleset": ruleset, "steps": [{"actor": "ayla", "do": first}]}
    proc = subprocess.run([sys.executable, "-c", _LOADED, "check", _write(tmp_path, doc)],
                          capture_output=True, text=True, cwd=tmp_path)
    code, *loaded = proc.stderr.split()
    assert code in ("0", "1"), proc.stderr
    shared = {"common", "shared", "words", "readying"}     # readying: 4e and 5e
    assert {m.split(".")[1] for m in loaded} == {"cli", "rulesets"}, loaded
    assert {m.split(".")[2] for m in loaded} - shared == {"check", ruleset}, loaded


def test_a_check_loads_none_of_the_modules_it_once_paid_for(tmp_path):
    """Counted in modules, not milliseconds: a check of a scenario that cites
    rules loads neither shutil (argparse's way to the terminal's width), nor
    pathlib with urllib.parse, nor sysconfig, nor typing. Run without the
    interpreter's site (whose .pth files load some of them first), fsm and
    transitions found on PYTHONPATH."""
    import transitions
    where = [str(Path(__file__).resolve().parent.parent),
             str(Path(transitions.__file__).resolve().parent.parent)]
    import six
    where.append(str(Path(six.__file__).resolve().parent))
    doc = {**BASE, "steps": [{"actor": "ayla", "do": "standard"}]}     # refused: cites rules
    code = ("import sys\nfrom fsm.cli import main\ncode = main(['check', sys.argv[1]])\n"
            "print(code, *sorted({'shutil', 'pathlib', 'urllib.parse', 'sysconfig', 'typing'}"
            " & set(sys.modules)), 'fsm.report' in sys.modules, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-S", "-c", code, _write(tmp_path, doc)],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(where)})
    assert proc.stderr.split() == ["0", "True"], proc.stderr


def test_each_command_word_names_the_module_that_parses_it():
    """The command line is parsed by the parsers of the module its first
    word names (fsm.cli.WORDS): every command of the full parser is there."""
    import argparse

    from fsm.cli import COMMANDS, WORDS, build_parser
    full = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(full.choices) == set(WORDS)
    for word, module in WORDS.items():
        assert module in COMMANDS
        alone = next(a for a in build_parser(module)._actions
                     if isinstance(a, argparse._SubParsersAction))
        assert word in alone.choices


def test_statements_come_from_the_yaml_when_the_json_is_missing(tmp_path):
    """A spec folder without statements.json (one of its own, say) still has
    its statements cited, read from its rules.yaml; a statements.json that is
    not one fsm writes is not believed."""
    from fsm.report import Citations
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "rules.yaml").write_text(
        "rules:\n  - id: X-1\n    statement: >\n      One   thing\n      at a time.\n")
    assert Citations(tmp_path).statement("X-1") == "One thing at a time."
    (tmp_path / "spec" / "statements.json").write_text('{"statements": ["not", "a", "map"]}')
    assert Citations(tmp_path).statement("X-1") == "One thing at a time."
    (tmp_path / "spec" / "statements.json").write_text('{"statements": {"X-1": "From JSON."}}')
    assert Citations(tmp_path).statement("X-1") == "From JSON."


def test_a_rejection_cites_the_statement_of_its_rule(tmp_path, capsys):
    from fsm import spec as S
    statements = {r["id"]: " ".join(r["statement"].split())
                  for r in S.load(ROOT, with_tests=False).rules}
    path = _write(tmp_path, {**BASE, "steps": [{"actor": "ayla", "do": "standard"}]})
    main(["check", "--color", "never", path])
    out = capsys.readouterr().out
    cited = [line.strip() for line in out.splitlines() if line.startswith("       4E-")]
    assert cited, out
    for line in cited:
        rid, _, said = line.partition(": ")
        assert said == statements[rid], line


def _cells_md(text):
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    return [[c.strip().replace("\\|", "|") for c in row.strip("|").split(" | ")] for row in rows]


def _cells_bb(text):
    import re
    return [[c.strip() for c in re.findall(r"\[T[HD]\](.*?)\[/T[HD]\]", row)]
            for row in text.splitlines() if row.startswith("[TR]")]


@pytest.mark.parametrize("path", sorted((ROOT / "spec" / "scenarios").glob("*.json"))[:8],
                         ids=lambda p: p.stem)
def test_bbcode_holds_what_markdown_holds(path, capsys):
    """--format bbcode: the same table, options and rule statements as
    Markdown, in BBCode's tags; --at too."""
    for extra in ([], ["--at", "1"]):
        main(["check", "--format", "markdown", *extra, str(path)])
        md = capsys.readouterr().out
        main(["check", "--format", "bbcode", *extra, str(path)])
        bb = capsys.readouterr().out
        assert [[c.replace("[B]", "**").replace("[/B]", "**") for c in row]
                for row in _cells_bb(bb)] == _cells_md(md)
        assert "**" not in bb and ("[TABLE]" in bb) and "None" not in bb
        if not extra:
            assert "[B]Options.[/B]" in bb and md.count("- **") == bb.count("[*][B]")
