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
from fsm.errors import InputError
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
EXPECT = ["verdict", "reason", "rules", "notes", "budgets", "resolved", "lost", "disrupted",
          "stack", "state", "round", "active", "initiative", "positions", "error"]


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
def test_fsm_conformance_runs_any_vector_or_refuses_it_in_one_line(tmp_path_factory, doc,
                                                                     capsys):
    """A vector file given to the suite is run (exit 0 or 1) or refused with
    one line and exit 2; never a traceback."""
    path = tmp_path_factory.mktemp("hostile") / "vector.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["conformance", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and not out, err
    else:
        assert out.strip().splitlines()[-1].endswith("skipped")


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


# -- the scans that read a JSON text's shape before (depth) and after (where
#    each step starts) it is parsed --

TRICKY = st.text(st.sampled_from('"\\[]{},:\n \té'), max_size=8)
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-99, 99), TRICKY),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(TRICKY, inner, max_size=3)),
    max_leaves=12)
LAYOUT = st.fixed_dictionaries({
    "indent": st.sampled_from([None, 0, 1, 3, "\t"]),
    "separators": st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " :  ")]),
    "ensure_ascii": st.booleans()})


def _nesting(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_nesting, value), default=0)
    return 0


@given(JSON_VALUE, LAYOUT)
@settings(max_examples=300, deadline=None)
def test_the_depth_scan_counts_nesting_and_skips_strings(value, layout):
    from fsm.io.jsonsafe import depth
    assert depth(json.dumps(value, **layout)) == _nesting(value)


@given(st.dictionaries(TRICKY, JSON_VALUE, max_size=3), st.lists(JSON_VALUE, max_size=5),
       st.booleans(), LAYOUT)
@settings(max_examples=300, deadline=None)
def test_each_step_is_found_where_its_text_starts(others, steps, steps_first, layout):
    """StepLines gives, for step N, the line and column of the first
    character of its JSON text: decoding from there gives the step back."""
    from fsm.io.scenario import StepLines
    others.pop("steps", None)
    doc = {"steps": steps, **others} if steps_first else {**others, "steps": steps}
    text = json.dumps(doc, **layout)
    found = StepLines(text)
    assert sorted(found) == list(range(1, len(steps) + 1))
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    for n, (line, column) in found.items():
        at = starts[line - 1] + column - 1
        assert json.JSONDecoder().raw_decode(text, at)[0] == steps[n - 1]


def test_a_replay_without_a_bad_step_never_looks_for_the_steps(tmp_path):
    """Where the steps start is only needed to say where a bad one is."""
    from fsm.io.scenario import load_source
    from fsm.scenario import build, replay
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASES[0]), encoding="utf-8")
    doc, lines = load_source(good)
    replay(doc, good, build(doc, good), lines)
    assert lines._found is None
    bad = tmp_path / "bad.json"
    doc = copy.deepcopy(BASES[0])
    doc["steps"][1]["actor"] = "nobody"
    bad.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    doc, lines = load_source(bad)
    with pytest.raises(InputError) as err:
        replay(doc, bad, build(doc, bad), lines)
    assert (err.value.step, err.value.line) == (2, lines[2][0])
    assert bad.read_text().splitlines()[err.value.line - 1].strip() == "{"


@pytest.mark.parametrize("ruleset,step,message", [
    ("pf2e", {"do": "activity", "cost": 1}, "an activity step needs an 'actor'"),
    ("pf2e", {"actor": "c1", "do": "activity"}, "an activity needs a 'cost' of 1 to 3 actions"),
    ("dnd4e", {"do": "interrupt"}, "an interrupt step needs an 'actor'"),
    ("dnd4e", {"do": "move"}, "a move step needs an 'actor'"),
])
def test_a_step_error_reads_as_english(ruleset, step, message):
    """The article agrees with the step kind named: 'an activity', 'a move'."""
    enc = Encounter(ruleset, [("c1", "monsters"), ("c2", "heroes")])
    with pytest.raises(StepError) as err:
        enc.step(step)
    assert str(err.value) == message


@pytest.mark.parametrize("argv,says", [
    (["conformance", "--program", "python 'unbalanced"], "No closing quotation"),
    (["conformance", "--program", "fsm serve", "--timeout", "1e10"], "at most 86400"),
    (["explore", "dnd4e", "--jobs", "100000"], "1 to 256 processes"),
    (["explore", "dnd4e", "--option", "free_actions_per_turn=" + "9" * 50], "at most 40"),
    (["site", ""], "an empty path"),
    (["conformance", "--report", " "], "an empty path"),
    (["diagram", "dnd4e", "-o", ""], "an empty path"),
])
def test_command_line_values_out_of_bounds_are_one_line_and_exit_2(argv, says, capsys):
    """What files refuse, the command line refuses too: one line, exit 2."""
    from fsm.cli import main as fsm_main
    assert fsm_main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err


def test_fsm_serve_refuses_a_line_past_the_limit_and_goes_on():
    """A line longer than the runner's per-line limit gets one error answer
    and is skipped without being held whole; the next line is answered."""
    import subprocess
    import sys
    from fsm.conformance.engine import MAX_LINE
    data = b"[" * (MAX_LINE + 10) + b"\n" + b'{"type": "hello"}\n'
    proc = subprocess.run([sys.executable, "-m", "fsm", "serve"], input=data,
                          capture_output=True, timeout=120)
    first, second = proc.stdout.decode().splitlines()
    assert json.loads(first) == {"type": "error",
                                 "message": f"a line longer than {MAX_LINE} bytes; refused"}
    assert json.loads(second)["type"] == "hello"


@pytest.mark.parametrize("argv,says", [
    (["explore", "merge", "parts/a.json"], "'fsm explore merge' are gone"),
    (["explore", "pf2e", "--shard", "0/2"], "split the states among owners with --jobs"),
    (["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--scheduler",
      "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    (["explore", "pf2e", "--scheduler", "no-such-scheme://x"], "cannot reach the Dask"),
])
def test_explore_shards_and_unreachable_schedulers_are_one_line(argv, says, capsys):
    """The old shard commands say what replaced them; a scheduler that is
    not there is named: exit 2, one line, no traceback."""
    pytest.importorskip("distributed")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err, err


def _wrong_server(banner: bool):
    """A TCP server that is no Dask scheduler: one that sends an SSH banner
    and hangs up, or one that takes the connection and never says a word."""
    import socket
    import threading
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held = []

    def serve():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            if banner:
                conn.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 3)
                conn.close()
            else:
                held.append(conn)
    threading.Thread(target=serve, daemon=True).start()
    return srv, f"tcp://127.0.0.1:{srv.getsockname()[1]}"


@pytest.mark.parametrize("banner", [True, False])
def test_a_scheduler_address_where_something_else_answers_is_one_line(banner, capsys,
                                                                      monkeypatch):
    """Something that is not a Dask scheduler at the address: one line, exit
    2, no traceback; one that never answers is given up after a while (15 s;
    here 2 s, the waiting being all the same)."""
    pytest.importorskip("distributed")
    from fsm.explore import cluster
    assert cluster.CONNECT_SECONDS + cluster.ANSWER_SECONDS == 15
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    monkeypatch.setattr(cluster, "ANSWER_SECONDS", 1)
    srv, address = _wrong_server(banner)
    try:
        assert main(["explore", "pf2e", "--combatants", "2", "--rounds", "1",
                     "--scheduler", address]) == 2
    finally:
        srv.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert ("is not a Dask scheduler" if banner else "answered as a Dask scheduler within 2 s") \
        in err, err


# -- one limit on a scenario's values, whatever its syntax --

def _values(node) -> int:
    """Values of a document as the limit counts them: every object, array,
    key and scalar, the whole document included."""
    if isinstance(node, dict):
        return 1 + sum(1 + _values(v) for v in node.values())
    if isinstance(node, list):
        return 1 + sum(map(_values, node))
    return 1


def _scenario_of(total: int) -> dict:
    """A scenario of exactly ``total`` values: steps of three values each,
    and a list of tags to make up the rest."""
    doc = {"format": 1, "ruleset": "dnd4e", "tags": [],
           "combatants": [{"id": "orc", "side": "monsters"}], "steps": []}
    doc["steps"] = [{"do": "resolve"} for _ in range((total - _values(doc)) // 3)]
    doc["tags"] = ["t"] * (total - _values(doc))
    assert _values(doc) == total
    return doc


def _block_yaml(doc) -> str:
    """``doc`` (scalars, lists of scalars or of flat objects) in YAML's block
    style, written out at once (PyYAML's emitter takes seconds for this)."""
    out = []
    for key, value in doc.items():
        if not isinstance(value, list):
            out.append(f"{key}: {json.dumps(value)}")
            continue
        out.append(f"{key}:" if value else f"{key}: []")
        for item in value:
            if isinstance(item, dict):
                pairs = [f"{k}: {json.dumps(v)}" for k, v in item.items()]
                out.append("- " + "\n  ".join(pairs))
            else:
                out.append(f"- {json.dumps(item)}")
    return "\n".join(out) + "\n"


def _written(tmp_path, doc, syntax):
    path = tmp_path / f"scenario.{syntax}"
    path.write_text(json.dumps(doc) if syntax == "json" else _block_yaml(doc),
                    encoding="utf-8")
    if syntax == "yaml" and _values(doc) < 10_000:     # the writer's own check
        import yaml
        assert yaml.safe_load(path.read_text(encoding="utf-8")) == doc
    return path


def _accepted(path) -> bool:
    from fsm.io.scenario import load_source
    try:
        load_source(path)
    except InputError as exc:
        assert "more than" in exc.message and "values" in exc.message, exc.message
        return False
    return True


@pytest.mark.parametrize("syntax", ["json", "yaml"])
@pytest.mark.parametrize("past", [0, 1])
def test_json_and_yaml_are_held_to_one_limit_on_values(syntax, past, tmp_path, monkeypatch):
    """At the limit a scenario is read, one value past it refused, in either
    syntax (the limit lowered here, as it is one number for both)."""
    from fsm.io import jsonsafe
    monkeypatch.setattr(jsonsafe, "MAX_VALUES", 3000)
    path = _written(tmp_path, _scenario_of(3000 + past), syntax)
    assert _accepted(path) is not past


@pytest.mark.parametrize("syntax,past", [("json", 0), ("json", 1), ("yaml", 1)])
def test_the_limit_on_values_is_the_same_at_its_real_size(syntax, past, tmp_path):
    """The real limit, 200,000 values (YAML at the limit takes seconds to
    compose, so only its side past the limit is read here)."""
    from fsm.io.jsonsafe import MAX_VALUES
    path = _written(tmp_path, _scenario_of(MAX_VALUES + past), syntax)
    assert _accepted(path) is not past


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_a_scenario_of_50000_steps_is_refused_in_either_syntax(syntax, tmp_path, capsys):
    doc = {"format": 1, "ruleset": "dnd4e",
           "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}],
           "steps": [{"actor": "orc", "do": "standard"} for _ in range(50_000)]}
    path = _written(tmp_path, doc, syntax)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"{path}: document of more than 200000 values; refused\n"
