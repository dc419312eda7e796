"""The conformance runner: in-process, through the protocol, against engines
that misbehave, as a pytest plugin, and its mutation score."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fsm import conformance as C
from fsm.cli import main
from fsm.conformance.mistakes import mistakes, zoo
from fsm.conformance.mutation import mutants
from fsm.conformance.scoring import score

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "vectors"
FAKE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'fake_engine.py'}"
FEW = [str(VECTORS / f"{v}.json") for v in (
    "4e-interrupt-too-late", "4e-immediate-once-per-round", "pf2-three-actions",
    "pf2-one-free-action-per-trigger")]


def _last_line(text):
    return text.strip().splitlines()[-1]


SCENARIOS = ROOT / "spec" / "scenarios"


def _default_count():
    return len(list(VECTORS.rglob("*.json"))) + \
        len([p for p in SCENARIOS.iterdir() if p.suffix in (".json", ".yaml")])


def test_every_vector_passes_in_process(capsys):
    """`fsm conformance` runs the whole suite, vectors and scenarios, against
    the reference machine."""
    assert main(["conformance"]) == 0
    last = _last_line(capsys.readouterr().out)
    assert last == f"{_default_count()} passed, 0 failed, 0 skipped"


def test_every_vector_passes_through_the_protocol(capsys):
    """The whole suite through `fsm serve` in a subprocess gives the same result."""
    assert main(["conformance", "--program", f"{sys.executable} -m fsm serve"]) == 0
    assert _last_line(capsys.readouterr().out) == \
        f"{_default_count()} passed, 0 failed, 0 skipped"


def test_the_report_gives_each_rules_status(tmp_path, capsys):
    """A wrong answer on one vector marks its rules as failing in the JSON and
    the Markdown and HTML reports; the others conform."""
    target = "4e-interrupt-too-late"
    report = tmp_path / "report.html"
    code = main(["conformance", *FEW, "--program", f"{FAKE} wrong-verdict {target}",
                 "--json", "--report", str(report)])
    assert code == 1
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["rules"]["4E-INTERRUPT"]["status"] == "fails"
    assert doc["rules"]["4E-INTERRUPT"]["failed"] == [target]
    assert doc["rules"]["PF2-THREE-ACTIONS"]["status"] == "conforms"
    assert doc["headline"].startswith("fails the fsm suite, format 1: 1 vector(s) failed, "
                                      "charged to 1 rule(s): 4E-INTERRUPT;")
    assert doc["rules"]["4E-INTERRUPT"]["charged"] == [target]
    assert _last_line(err) == "3 passed, 1 failed, 0 skipped"
    page = report.read_text(encoding="utf-8")
    assert "<title>Conformance of" in page and target in page
    md = tmp_path / "report.md"
    main(["conformance", *FEW, "--report", str(md)])
    assert "| 4E-INTERRUPT | conforms | 1 | 0 | 0 | 0 |  |" in md.read_text(encoding="utf-8")


def test_a_wrong_verdict_fails_the_vector_only(capsys):
    """An engine that allows what the rules reject fails those vectors and keeps running."""
    code = main(["conformance", *FEW, "--program", f"{FAKE} wrong-verdict"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL 4e-interrupt-too-late: step 3: expected rejected, got allowed" in out
    assert _last_line(out) == "0 passed, 4 failed, 0 skipped"


@pytest.mark.parametrize("mode,message", [
    ("crash", "the engine exited"),
    ("hang", "no answer within"),
    ("garbage", "not JSON"),
    ("wrong-id", "answered for vector"),
])
def test_a_misbehaving_engine_fails_one_vector_and_is_restarted(mode, message, capsys):
    """Crash, hang, garbage or a wrong id fail that vector; the others still pass."""
    code = main(["conformance", *FEW, "--timeout", "2",
                 "--program", f"{FAKE} {mode} 4e-immediate-once-per-round"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL 4e-immediate-once-per-round: " in out and message in out
    assert _last_line(out) == "3 passed, 1 failed, 0 skipped"


def test_a_slow_engine_within_the_timeout_passes(capsys):
    """Answering slowly is fine as long as it is within the timeout."""
    assert main(["conformance", *FEW, "--timeout", "5", "--program", f"{FAKE} slow"]) == 0
    assert _last_line(capsys.readouterr().out) == "4 passed, 0 failed, 0 skipped"


def test_unsupported_vectors_are_skipped_with_the_reason(capsys):
    """An engine without 4e skips the 4e vectors, never fails them."""
    assert main(["conformance", *FEW, "--program", f"{FAKE} pf2-only"]) == 0
    out = capsys.readouterr().out
    assert "SKIP 4e-interrupt-too-late: ruleset dnd4e not supported" in out
    assert _last_line(out) == "2 passed, 0 failed, 2 skipped"


def test_an_unsupported_option_value_is_skipped():
    """A vector using an option the engine does not list is skipped."""
    hello = C.reference_hello()
    del hello["rulesets"]["pf2e"]["options"]["similar_triggers"]
    doc = json.loads((VECTORS / "pf2-similar-triggers-gm.json").read_text())
    assert C.unsupported(doc, hello) == "option similar_triggers not supported"


def test_a_bad_handshake_fails_every_vector(capsys):
    """An engine that does not say hello fails the run without hanging, and
    the one reason is said once, not once per vector."""
    assert main(["conformance", *FEW, "--timeout", "2",
                 "--program", f"{FAKE} bad-hello"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 2 and out[0].startswith("FAIL handshake: ")
    assert out[0].endswith("(so all 4 vectors fail)")
    assert out[1] == "0 passed, 4 failed, 0 skipped"


@pytest.mark.parametrize("fuzz", [(), ("--fuzz", "3")])
def test_a_program_that_cannot_start_is_bad_input(fuzz, capsys):
    """A missing engine binary is a mistake in the command: one line on
    stderr and exit 2, not a failure of every vector; the line gives what
    the shell said (dash and bash word it differently)."""
    assert main(["conformance", *FEW, *fuzz, "--program", "/nonexistent/engine"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    said = captured.err.removeprefix("fsm conformance: cannot start '/nonexistent/engine': ")
    assert said != captured.err and said.count("\n") == 1
    assert "/nonexistent/engine" in said and ("not found" in said or "No such file" in said)


def test_an_engine_that_dies_later_fails_its_vectors_and_the_run_goes_on(capsys):
    """Only the first start is the command's: a restart that fails later is
    the engine's failure on that vector."""
    from fsm.conformance import engine as E
    starts = []

    class Vanishing(E.Engine):
        def start(self):
            starts.append(1)
            if len(starts) > 1:
                raise E.EngineNotStarted("cannot start it again")
            return super().start()

        def send(self, obj):
            if obj["type"] == "vector":
                raise E.EngineError("the engine exited")
            super().send(obj)

    vectors = C.collect([str(VECTORS / "pf2-similar-triggers-gm.json")])
    original = E.Engine
    E.Engine = Vanishing
    try:
        outcomes = E.run_program(vectors * 2, "fsm serve")
    finally:
        E.Engine = original
    assert [o.status for o in outcomes] == [C.FAIL, C.FAIL]
    assert outcomes[1].message == "cannot start it again"


def test_junit_and_json_reports(tmp_path, capsys):
    """--junit writes one testcase per vector; --json lists every outcome."""
    report = tmp_path / "report.xml"
    assert main(["conformance", *FEW, "--json", "--junit", str(report),
                 "--program", f"{FAKE} pf2-only"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [o["status"] for o in payload["outcomes"]].count("skipped") == 2
    suite = ET.parse(report).getroot()
    assert suite.get("tests") == "4" and suite.get("skipped") == "2"


def test_the_engine_never_sees_the_expectations():
    """Vectors go to the engine with every expect removed."""
    doc = json.loads((VECTORS / "4e-interrupt-too-late.json").read_text())
    assert "expect" not in json.dumps(C.public_vector(doc))


def test_serve_answers_malformed_messages_without_dying():
    """`fsm serve` answers garbage with an error line and keeps serving."""
    proc = subprocess.run([sys.executable, "-m", "fsm", "serve"], capture_output=True,
                          text=True, timeout=30,
                          input='nonsense\n{"type": "hello", "protocol": 1, "format": 1}\n')
    first, second = [json.loads(x) for x in proc.stdout.strip().splitlines()]
    assert first["type"] == "error" and second["type"] == "hello"


def test_the_pytest_plugin_runs_the_suite_against_an_adapter(tmp_path):
    """`pytest --fsm-adapter MODULE:NAME` turns each vector into a test item."""
    (tmp_path / "adapter.py").write_text(
        "from fsm.conformance import reference_result\n"
        "def good(vector):\n    return reference_result(vector)\n"
        "def bad(vector):\n    r = reference_result(vector)\n"
        "    for s in r['steps']:\n"
        "        s['verdict'] = 'allowed' if s['verdict'] == 'rejected' else s['verdict']\n"
        "    return r\n")
    (tmp_path / "test_engine.py").write_text("def test_engine_loads():\n    pass\n")
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    for path in FEW:
        base += ["--fsm-vectors", path]
    good = subprocess.run(base + ["--fsm-adapter", "adapter:good"], cwd=tmp_path,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path),
                                                                "PATH": ""})
    assert "5 passed" in good.stdout, good.stdout + good.stderr
    bad = subprocess.run(base + ["--fsm-adapter", "adapter:bad"], cwd=tmp_path,
                         capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path),
                                                               "PATH": ""})
    assert "4 failed, 1 passed" in bad.stdout, bad.stdout + bad.stderr


def test_the_readme_plugin_route_passes_an_engine_that_reports_no_state(tmp_path):
    """An engine without `state` or `stack` facts and without a hello passes
    every vector through the plugin: those facts are not held against it."""
    (tmp_path / "adapter.py").write_text(
        "from fsm.conformance import reference_result\n"
        "def run(vector):\n    r = reference_result(vector)\n"
        "    for s in r['steps']:\n"
        "        for k in ('state', 'stack'):\n"
        "            s.get('facts', {}).pop(k, None)\n"
        "    return r\n")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "--fsm-adapter", "adapter:run"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    n = len(C.collect(None))
    assert f"{n} passed" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_a_module_level_hello_is_read_as_the_readme_shows(tmp_path):
    """`hello` beside `run` in the adapter module limits what is run: one
    ruleset, no option, no scene (the hello lists no feature)."""
    (tmp_path / "adapter.py").write_text(
        "from fsm.conformance import reference_result\n"
        "hello = {'rulesets': {'pf2e': {'options': {}}}, 'facts': ['budgets']}\n"
        "def run(vector):\n    return reference_result(vector)\n")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "--fsm-adapter", "adapter:run"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    vectors = C.collect(None)
    plain_pf2 = sum(1 for _, d in vectors if d["ruleset"] == "pf2e" and not d.get("options")
                    and not C.uses_scene(d))
    assert f"{plain_pf2} passed" in done.stdout, done.stdout[-2000:]
    assert f"{len(vectors) - plain_pf2} skipped" in done.stdout


def test_every_mutant_is_killed():
    """Switching off any guard, or flipping a timing choice, fails at least two
    vectors (none rests on one vector alone)."""
    results = score(C.collect(None), enough=2)
    assert len(results) == len(mutants()) >= 30
    assert [m.id for m, killers in results if len(killers) < 2] == []


def test_a_missing_vector_lets_its_mutant_survive():
    """Without the vectors that break a limit, its mutant survives: the score
    measures. (Those that cite its rule, and those that expect its refusal
    without citing a rule, as the readings of a field's values do.)"""
    def breaks(d):
        return "4E-OPP-TRIGGER" in d.get("rules", ()) or any(
            isinstance(s, dict) and (s.get("expect") or {}).get("reason") == "not-provoked"
            for s in d.get("steps") or ())
    vectors = [(p, d) for p, d in C.collect(None) if not breaks(d)]
    results = dict((m.id, k) for m, k in score(vectors, only={"dnd4e:no-provoked"}))
    assert results == {"dnd4e:no-provoked": []}


def test_fsm_mutate_reports_k_of_n(capsys):
    """`fsm mutate` ends with the score of each family, then the score line;
    with only a few vectors, mutants survive and the exit status is 1."""
    assert main(["mutate", *FEW]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    g, m, z = len(mutants()), len(mistakes()), len(zoo())
    for line, family, n in zip(lines[-4:-1], ("guards", "mistakes", "zoo"), (g, m, z)):
        assert re.fullmatch(rf"{family}: \d+ of {n} with every fact reported, \d+ of \d+ on "
                            rf"verdicts alone( \(\d+ no verdict can show\))?", line), line
    killed, total, bare, shown = re.fullmatch(
        r"(\d+) of (\d+) mutants killed; on verdicts alone (\d+) of (\d+)", lines[-1]).groups()
    assert int(total) == g + m + z and 0 < int(killed) < g + m + z
    assert int(bare) <= int(killed) and int(shown) < int(total)
    assert any(line.startswith("SURVIVES") for line in lines)


def test_every_engine_author_mistake_is_killed():
    """Each mistake of the second family (wrong defaults, refresh moments, shared
    budgets, refunds, answers off the stack, order of checks) fails at least two
    vectors."""
    results = score(C.collect(None), families=("mistakes",), enough=2)
    ids = [m.id for m, _ in results]
    assert any(i.startswith("dnd4e:default-") for i in ids)
    assert any(":order-" in i for i in ids)
    assert len(results) >= 40
    assert [m.id for m, killers in results if len(killers) < 2] == []


def test_without_the_generated_vectors_an_order_of_checks_goes_unnoticed():
    """The precedence mutants are killed by the generated covering vectors: the
    hand-written ones alone leave some orders of checks unpinned."""
    hand = [(p, d) for p, d in C.collect(None) if "generated" not in Path(p).parts]
    survivors = [m.id for m, k in score(hand, families=("mistakes",), enough=1) if not k]
    assert survivors and all(":order-" in s for s in survivors)


@pytest.mark.parametrize("line", [
    '{"type": "vector", "vector": {"format": 1, "id": "x", "ruleset": [], "combatants": [], '
    '"steps": []}}',
    '{"type": "vector", "vector": {"format": 1, "id": "x", "ruleset": "dnd4e", "combatants": '
    '[{"id": "a", "side": "b"}], "initiative": [["a"]], "steps": []}}',
    '{"type": "vector", "vector": {"format": 1, "id": "x", "round": ' + "9" * 5000 + '}}',
    "[" * 200_000 + "]" * 200_000,
], ids=["ruleset-list", "initiative-nested", "5000-digits", "200k-deep"])
def test_fsm_serve_answers_bad_input_and_stays_up(line):
    """A bad line gets an error answer; the next hello is still answered."""
    proc = subprocess.run([sys.executable, "-m", "fsm", "serve"], capture_output=True,
                          text=True, input=line + '\n{"type": "hello", "protocol": 1}\n',
                          timeout=60)
    first, second = (json.loads(x) for x in proc.stdout.strip().splitlines())
    assert first["type"] in ("error", "result") and second["type"] == "hello"
    assert "Traceback" not in proc.stderr


def test_serve_starts_without_what_only_other_commands_use():
    """fsm serve is started once per conformance run by every engine author's
    CI: it loads neither the JUnit writer's XML and URL libraries nor PyYAML."""
    code = ("import io, sys; from fsm.cli import main; sys.stdin = io.StringIO(''); "
            "main(['serve']); print(sorted(m for m in ('xml.sax.saxutils', 'urllib.request', "
            "'yaml') if m in sys.modules), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stderr.strip().splitlines()[-1] == "[]", proc.stderr


_GAME = '''\
"""An engine that reports verdicts, reasons and four facts, and no rule ids
nor notes: the README's engine author."""
from fsm import Encounter, StepError

FACTS = ("budgets", "resolved", "lost", "disrupted")


class Game:
    def __init__(self, enc):
        self.enc = enc

    @classmethod
    def from_setup(cls, vector):
        return cls(Encounter(vector["ruleset"], vector["combatants"],
                             vector.get("initiative"), vector.get("options")))

    def play(self, step):
        try:
            v = self.enc.step(step)
        except StepError as exc:
            return {"verdict": "error", "error": exc.code, "message": str(exc)}
        facts = self.enc.facts()
        return {"verdict": v.verdict, "reason": v.reason,
                "facts": {k: facts[k] for k in FACTS}}
'''


def test_the_readme_plugin_example_passes_for_an_engine_of_verdicts_and_reasons(tmp_path):
    """The adapter of the README, copied from it as a user would, passes every
    vector it runs for an engine that cites no rule ids and writes no notes:
    what its hello does not claim is never compared."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    adapter = readme.split("# my_engine/fsm_adapter.py\n", 1)[1].split("```", 1)[0]
    package = tmp_path / "my_engine"
    package.mkdir()
    (package / "__init__.py").write_text(_GAME)
    (package / "fsm_adapter.py").write_text(adapter)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "--fsm-adapter", "my_engine.fsm_adapter:run"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    summary = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0 and " failed" not in summary, done.stdout[-3000:]
    assert int(summary.split(" passed")[0].split()[-1]) >= 80, summary


@pytest.mark.parametrize("mode,broken", [("shared-immediate", ["4E-IMM-ONCE"]),
                                         ("free-overlap", ["4E-ONE-AT-A-TIME"]),
                                         ("shift-provokes", ["4E-OPP-TRIGGER", "4E-SCENE-GRID"])])
def test_an_engine_with_one_broken_rule_is_reported_failing_that_rule_only(mode, broken,
                                                                            capsys):
    """The report charges the failures to the rules of the failing step's
    deciding check, not to every rule its vectors cover; no rule a failed
    vector covers conforms; the report never says "conforms" while a vector fails."""
    fourth = [str(p) for p in sorted(VECTORS.glob("4e-*.json"))]
    assert main(["conformance", *fourth, "--program", f"{FAKE} {mode}", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert sorted(r for r, e in doc["rules"].items() if e["charged"]) == broken
    failed = {o["id"] for o in doc["outcomes"] if o["status"] == "failed"}
    for rid, e in doc["rules"].items():
        assert (e["status"] == "fails") == bool(set(e["failed"]) & failed), rid
        assert e["status"] != "conforms" or not set(e["passed"]) & failed
    assert doc["headline"].startswith("fails the fsm suite")


def test_a_failure_names_its_file_step_and_a_command_that_replays_it(capsys):
    """Each FAIL line is followed by the vector's file, the failing step as
    written and one command that replays it."""
    target = "4e-interrupt-too-late"
    assert main(["conformance", *FEW, "--program", f"{FAKE} wrong-verdict {target}"]) == 1
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if line.startswith(f"FAIL {target}: step "))
    file_line, step_line, replay = (line.strip() for line in out[at + 1:at + 4])
    path = file_line.removeprefix("file: ")
    assert path.endswith(f"{target}.json")
    n = int(out[at].split(": step ")[1].split(":")[0])
    written = json.loads(Path(path).read_text())["steps"][n - 1]
    written.pop("expect", None)
    assert json.loads(step_line.split(": ", 1)[1]) == written
    assert replay == f"replay: fsm check {path} --explain"


def test_an_adapter_that_raises_gets_a_short_traceback(tmp_path):
    """An adapter's own exception is shown with pytest's short traceback, not
    hundreds of lines of pytest internals."""
    (tmp_path / "adapter.py").write_text(
        "def run(vector):\n    raise RuntimeError('my engine broke')\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--fsm-adapter", "adapter:run", "-x"], cwd=tmp_path,
                          capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert "my engine broke" in done.stdout
    assert len(done.stdout.splitlines()) < 40, done.stdout


def test_what_an_engine_says_is_escaped_in_every_report(tmp_path, capsys):
    """Control characters and a lone surrogate in an engine's answer reach no
    terminal raw, keep the JUnit XML well-formed and the Markdown and HTML
    reports writable; JSON keeps them exact."""
    target = "4e-interrupt-too-late"
    junit, md, page = tmp_path / "r.xml", tmp_path / "r.md", tmp_path / "r.html"
    argv = ["conformance", *FEW, "--program", f"{FAKE} hostile-text {target}", "-v"]
    for report in (md, page):
        assert main([*argv, "--junit", str(junit), "--report", str(report)]) == 1
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\\x1b[2J" in out
        ET.parse(junit)                          # well-formed
        text = report.read_text(encoding="utf-8")
        assert "\x1b" not in text and "\\x1b" in text
    assert main([*argv, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    failed = next(o for o in doc["outcomes"] if o["id"] == target)
    assert "\x1b[2J" in failed["message"]


def _vector_file(folder, name, **changes):
    doc = json.loads((VECTORS / "4e-interrupt-too-late.json").read_text(encoding="utf-8"))
    doc.update(changes)
    doc = {k: v for k, v in doc.items() if v is not None}
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("program", [(), ("--program", "fsm serve")])
def test_a_vector_without_an_id_is_bad_input(tmp_path, program, capsys):
    """Results are matched to a vector by its id: a vector without one is
    refused in one line before any runs, not a traceback."""
    path = _vector_file(tmp_path, "x.json", id=None)
    assert main(["conformance", path, *program]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"{path}: a vector needs an 'id' (a non-empty string, by convention "
                   f"its file name): results are matched to it")


def test_two_vectors_with_one_id_are_bad_input_and_one_file_twice_runs_once(tmp_path, capsys):
    first = _vector_file(tmp_path, "a.json")
    assert main(["conformance", str(tmp_path), first]) == 0
    assert _last_line(capsys.readouterr().out) == "1 passed, 0 failed, 0 skipped"
    second = _vector_file(tmp_path, "b.json")
    assert main(["conformance", first, second]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{second}: id '4e-interrupt-too-late' is also the id of {first}")


def test_a_scenario_without_an_id_is_named_by_its_file(tmp_path, capsys):
    path = _vector_file(tmp_path, "x.json", id=None)
    assert main(["check", "--color", "never", path]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{path} (dnd4e)"


@pytest.mark.parametrize("expect,says", [("allowed", "'expect' must be an object"),
                                         ({"verdit": "allowed"}, "unknown expectation 'verdit'")])
def test_a_vector_whose_expectation_is_malformed_is_bad_input(tmp_path, expect, says, capsys):
    """What a result is judged by is checked before any runs (it raised
    AttributeError on an expectation that is not an object)."""
    doc = json.loads((VECTORS / "4e-interrupt-too-late.json").read_text(encoding="utf-8"))
    doc["steps"][1]["expect"] = expect
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["conformance", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"{path}: step 2: {says}"


# -- what a hello may say ----------------------------------------------------------------

HELLO_ENGINE = ROOT / "tests" / "engines" / "hello_engine.py"


def _with_hello(hello: dict) -> str:
    return f"{sys.executable} {HELLO_ENGINE} '{json.dumps(hello)}'"


@pytest.mark.parametrize("hello,words", [
    ({"rulesets": {"pf2": {}}}, "unknown ruleset 'pf2' (did you mean 'pf2e'?)"),
    ({"rulesets": {}}, "names no ruleset"),
    ({"rulesets": {"pf2e": {"options": {"mod": ["encounter"]}}}},
     "unknown option 'mod' (did you mean 'mode'?)"),
    ({"rulesets": {"pf2e": {"options": {"mode": ["encountre"]}}}},
     "(did you mean 'encounter'?)"),
    ({"rulesets": {"dnd4e": {"options": {"readied_as": "integer-or-null"}}}}, "not integers"),
    ({"rulesets": {"pf2e": {"steps": ["acton"]}}}, "unknown step kind 'acton'"),
    ({"rulesets": {"pf2e": {"fields": ["cots"]}}}, "unknown step field 'cots'"),
    ({"facts": ["budget"]}, "unknown fact 'budget' (did you mean 'budgets'?)"),
    ({"facts": ["budgets.reactoin"]}, "unknown budget 'reactoin'"),
    ({"features": ["scenes"]}, "unknown feature 'scenes' (did you mean 'scene'?)"),
])
def test_a_hello_naming_what_the_suite_does_not_know_fails_in_one_line(hello, words, capsys):
    """A misspelt ruleset, option, value, step kind, field, fact or feature is a
    handshake failure in one line naming the nearest known name: never a run
    of skipped vectors that exits 0."""
    assert main(["conformance", *FEW, "--program", _with_hello(hello)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 2 and out[0].startswith("FAIL handshake: the engine's hello: "), out
    assert words in out[0]


def test_fuzzing_with_a_misspelt_hello_is_one_line(capsys):
    """--fuzz on a hello naming an unknown ruleset: one line, exit 1, no traceback."""
    pytest.importorskip("hypothesis")
    assert main(["conformance", "--fuzz", "5", "--program",
                 _with_hello({"rulesets": {"pf2": {}}})]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown ruleset 'pf2'" in err[0]


def test_a_run_that_tested_nothing_exits_1_and_says_so(capsys):
    """Every vector skipped (a ruleset the vectors do not use) is not a pass."""
    hello = {"rulesets": {"dnd5e": {}}}
    pf2 = [str(VECTORS / "pf2-three-actions.json")]
    assert main(["conformance", *pf2, "--program", _with_hello(hello), "--report",
                 "/dev/null"]) == 1
    out, err = capsys.readouterr()
    assert "nothing was tested: every vector was skipped (ruleset pf2e not supported)" in err
    assert "tested nothing of the fsm suite" in out


def test_a_vector_beyond_the_declared_steps_is_skipped_and_the_headline_says_so(capsys,
                                                                                tmp_path):
    """A hello listing the step kinds it models skips the vectors that need
    others, with the step and kind, and the headline counts the rules left
    untested: leaving kinds out never buys a clean headline."""
    hello = {"rulesets": {"dnd5e": {"steps": ["action", "move", "resolve", "end-turn",
                                              "reaction", "event"]}}}
    page = tmp_path / "report.html"
    assert main(["conformance", "--program", _with_hello(hello), "--json",
                 "--report", str(page)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "<strong>partial</strong>" in page.read_text(encoding="utf-8")
    skips = [o["message"] for o in doc["outcomes"] if o["status"] == "skipped"
             and "which the engine does not model" in o["message"]]
    assert any("'counter' step" in m for m in skips) and \
        any("'opportunity' step" in m for m in skips)
    assert "untested: outside its declared support" in doc["headline"]
    left = [r for r, e in doc["rules"].items() if e["outside_support"]]
    assert left and all(r.startswith("5E") for r in left)
    # a rule some of whose vectors ran and passed, others beyond support: partial
    partial = [r for r, e in doc["rules"].items() if e["status"] == "partial"]
    assert partial and all(doc["rules"][r]["passed"] and doc["rules"][r]["skipped"]
                           for r in partial)
    assert f"{len(partial)} rule(s) tested in part only" in doc["headline"]
    assert not [r for r, e in doc["rules"].items() if e["status"] == "conforms"
                and any(m for m in e["skipped"])]


def test_budgets_may_be_declared_one_by_one(capsys):
    """An engine reporting only its reaction budget is held to the reaction
    budget and to no other: a wrong action budget it does not report passes,
    and fails once it reports every budget."""
    vectors = [str(p) for p in sorted(VECTORS.glob("5e-*.json"))]
    alone = {"rulesets": {"dnd5e": {}}, "facts": ["budgets.reaction"], "reports": []}
    assert main(["conformance", *vectors, "--program", _with_hello(alone) + " action"]) == 0
    whole = dict(alone, facts=["budgets"])
    assert main(["conformance", *vectors, "--program", _with_hello(whole) + " action"]) == 1
    assert main(["conformance", *vectors, "--program", _with_hello(alone) + " reaction"]) == 1


# -- the trackers' mistakes -------------------------------------------------------------

MUTANT_ENGINE = ROOT / "tests" / "engines" / "mutant_engine.py"


def test_every_trackers_mistake_fails_on_verdicts_alone_and_is_charged_to_its_rule():
    """Each mistake of the zoo (reactions back every round, only on one's own
    turn, a Ready spending the reaction at once, ...) fails at least two
    vectors of an engine that reports verdicts and reason codes only, and
    some failure is charged to a rule the mistake breaks (its ruleset's
    zoo_rules, ids of spec/rules.yaml)."""
    from fsm.conformance.compat import blamed
    from fsm.conformance.reference import run_in_process
    from fsm.conformance.scoring import _with_defaults
    from fsm.spec import load
    known = {r["id"] for r in load(with_tests=False).rules}
    vectors = C.collect(None)
    doc_of = dict(vectors)
    mutants = zoo()
    assert len(mutants) >= 15
    short, uncharged = [], []
    for m in mutants:
        assert m.rules and set(m.rules) <= known, m.id
        mine = [(p, _with_defaults(d, m.defaults)) for p, d in vectors
                if d.get("ruleset") == m.ruleset]
        failed = [o for o in run_in_process(mine, ruleset=m.value, stop_after=12,
                                            verdicts_only=True) if o.status == C.FAIL]
        if len(failed) < 2:
            short.append(m.id)
        if not any(set(blamed(o, doc_of[o.path])) & set(m.rules) for o in failed):
            uncharged.append(m.id)
    assert short == [] and uncharged == []


@pytest.mark.parametrize("verdicts", [False, True], ids=["every-fact", "verdicts-only"])
def test_the_round_reset_bug_is_charged_to_the_reaction_rule(verdicts, tmp_path, capsys):
    """An engine giving every creature its reaction back when a round starts
    fails PF2-REACTION-ONE in the text, the HTML report and the JSON, whether
    it reports its budgets or verdicts alone."""
    program = f"{sys.executable} {MUTANT_ENGINE} pf2e:zoo-reactions-reset-per-round" + \
        (" --verdicts" if verdicts else "")
    pf2 = [str(p) for p in sorted(VECTORS.glob("**/*pf2*.json"))]
    page = tmp_path / "report.html"
    assert main(["conformance", *pf2, "--program", program, "--report", str(page)]) == 1
    text = capsys.readouterr().out
    headline = next(line for line in text.splitlines() if line.startswith("fails the fsm"))
    assert "PF2-REACTION-ONE" in headline.split("charged to", 1)[1]
    page_text = page.read_text(encoding="utf-8")
    assert "PF2-REACTION-ONE</td><td class=\"fails\"><strong>fails" in page_text
    assert ".fails { color: #b2182b; }" in page_text      # the page stands alone
    assert main(["conformance", *pf2, "--program", program, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["rules"]["PF2-REACTION-ONE"]["status"] == "fails"
    assert doc["rules"]["PF2-REACTION-ONE"]["charged"]
