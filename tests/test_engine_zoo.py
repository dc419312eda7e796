"""The runner survives any engine: each faulty engine fails its vector with a
one-line reason, every vector is accounted for, the summary is the last line,
no traceback is printed, no process is left behind, memory stays bounded."""

import json
import os
import resource
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "vectors"
ENGINE = ROOT / "tests" / "engines" / "fake_engine.py"
FEW = [str(VECTORS / f"{v}.json") for v in (
    "4e-interrupt-too-late", "4e-immediate-once-per-round", "pf2-three-actions")]
TARGET = "4e-immediate-once-per-round"


def _alive(marker: str) -> list:
    """Pids whose command line holds ``marker``."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    out.append(int(pid))
        except OSError:
            continue
    return out


def _run(program, *extra, vectors=FEW, timeout="2"):
    cmd = [sys.executable, "-m", "fsm", "conformance", *vectors, "--timeout", timeout,
           "--program", program, *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)


CASES = {
    "crash": "the engine exited",
    "hang": "no answer within",
    "garbage": "not JSON",
    "wrong-id": "answered for vector",
    "huge-int": "digits",
    "deep": "nested deeper",
    "bad-utf8": "not UTF-8",
    "long-line": "longer than",
    "endless": "longer than",
    "bad-rules": "not a well-formed result",
    "bad-notes": "not a well-formed result",
    "bad-verdict": "not a well-formed result",
    "bad-facts": "not a well-formed result",
    "bad-budgets": "not a well-formed result",
    "bad-budget-values": "not a well-formed result",
}


@pytest.mark.parametrize("mode", sorted(CASES))
def test_a_faulty_engine_fails_its_vector_and_the_run_goes_on(mode):
    """One faulty answer fails one vector; the others pass; nothing is left."""
    marker = f"zoo-{uuid.uuid4().hex}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = _run(f"{sys.executable} {ENGINE} {mode} {TARGET} {marker}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "2 passed, 1 failed, 0 skipped"
    failed = [line for line in lines if line.startswith("FAIL ")]
    assert len(failed) == 1 and failed[0].startswith(f"FAIL {TARGET}: ")
    assert CASES[mode] in failed[0]
    assert _alive(marker) == []
    # the runner's peak memory (KiB) stays far below the 6 MB lines it was sent
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < max(before, 0) + 400_000


def test_a_wrapper_and_its_child_are_killed_together():
    """A launcher script whose engine hangs: both go, nothing deadlocks."""
    marker = f"zoo-{uuid.uuid4().hex}"
    program = f"sh -c '{sys.executable} {ENGINE} hang {TARGET} {marker}; true'"
    done = _run(program)
    assert done.returncode == 1
    assert done.stdout.strip().splitlines()[-1] == "2 passed, 1 failed, 0 skipped"
    assert _alive(marker) == []


def test_an_engine_that_stops_reading_fails_on_a_write_deadline(tmp_path):
    """A large vector sent to an engine that no longer reads does not hang the runner."""
    doc = json.loads((VECTORS / "4e-interrupt-too-late.json").read_text())
    doc["steps"][0]["name"] = "x" * 400_000
    big = tmp_path / "4e-interrupt-too-late.json"
    big.write_text(json.dumps(doc))
    marker = f"zoo-{uuid.uuid4().hex}"
    done = _run(f"{sys.executable} {ENGINE} no-read - {marker}", vectors=[str(big)])
    assert done.returncode == 1
    assert "did not read its input" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "0 passed, 1 failed, 0 skipped"
    assert _alive(marker) == []


@pytest.mark.parametrize("mode", ["hello-list", "hello-number", "bad-hello"])
def test_a_malformed_hello_fails_every_vector_in_one_line_each(mode):
    """A hello that is not the protocol's: every vector fails, with the reason."""
    done = _run(f"{sys.executable} {ENGINE} {mode}")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 passed, 3 failed, 0 skipped"


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "soon"])
def test_the_timeout_is_a_positive_finite_number(value):
    """--timeout nan, inf, 0 or -1: one line, exit 2."""
    done = _run("true", timeout=value)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "--timeout" in done.stderr


def test_with_json_the_summary_is_the_last_line_of_stderr():
    """--json prints one JSON document on stdout and the summary last on stderr."""
    done = _run(f"{sys.executable} -m fsm serve", "--json")
    assert json.loads(done.stdout)["summary"] == "3 passed, 0 failed, 0 skipped"
    assert done.stderr.strip().splitlines()[-1] == "3 passed, 0 failed, 0 skipped"


def test_a_daemon_that_leaves_the_process_group_is_ended_too():
    """An engine that double-forks a setsid() daemon holding its output: the
    runner ends the daemon as well (it carries the run's marker)."""
    marker = f"zoo-{uuid.uuid4().hex}"
    done = _run(f"{sys.executable} {ENGINE} daemon - {marker}")
    assert done.stdout.strip().splitlines()[-1] == "3 passed, 0 failed, 0 skipped", done.stdout
    assert _alive(marker) == []


def _living(marker: str) -> list:
    """Pids of processes still running (not zombies) with ``marker`` in
    their command line."""
    out = []
    for pid in _alive(marker):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in (b"Z", b"X"):
            out.append(pid)
    return out


def _end(pids):
    import signal
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.mark.parametrize("mode", ["daemon", "daemon-swarm"])
def test_every_process_an_engine_started_is_gone_once_it_is_stopped(mode):
    """An engine double-forks a daemon that leaves its group (and, in the
    swarm, goes on starting daemons while the engine is being stopped):
    when stop() returns, none of them is running, run after run."""
    from fsm.conformance.engine import Engine
    left = []
    for run in range(12):
        marker = f"zoo-{uuid.uuid4().hex}"
        engine = Engine(f"{sys.executable} {ENGINE} {mode} - {marker}", 30)
        try:
            assert engine.start()["type"] == "hello"
        finally:
            engine.stop()
        alive = _living(marker)
        left.append(len(alive))
        _end(alive)
    assert left == [0] * 12


# -- what an engine author sees in the first hour --

@pytest.mark.parametrize("program,says", [
    ("{python} -c 'import nosuchmodule_of_the_engine'",
     "ModuleNotFoundError: No module named 'nosuchmodule_of_the_engine'"),
    ("{python} {broken}", "SyntaxError"),
    ("{python} {engine} raise-at-hello", "RuntimeError: this engine cannot start: no rules loaded"),
])
def test_an_engine_that_fails_its_handshake_shows_the_end_of_its_stderr(program, says,
                                                                        tmp_path):
    broken = tmp_path / "engine.py"
    broken.write_text("import sys\ndef answer(:\n    pass\n")
    done = _run(program.format(python=sys.executable, broken=broken, engine=ENGINE))
    assert done.returncode == 1, done.stdout + done.stderr
    first, last = done.stdout.strip().splitlines()
    assert first.startswith("FAIL handshake: the engine exited (status 1); its stderr ended: ")
    assert says in first and first.endswith("(so all 3 vectors fail)")
    assert last == "0 passed, 3 failed, 0 skipped"


def test_an_engine_that_crashes_on_a_vector_shows_the_end_of_its_stderr():
    done = _run(f"{sys.executable} {ENGINE} raise {TARGET}")
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
    assert failed == [f"FAIL {TARGET}: the engine exited (status 1); its stderr ended: "
                      + failed[0].split("its stderr ended: ", 1)[1]]
    assert failed[0].endswith(f"ValueError: my engine cannot read vector {TARGET}")
    assert done.stdout.strip().splitlines()[-1] == "2 passed, 1 failed, 0 skipped"


def test_the_stderr_shown_is_a_few_lines_short_and_safe_for_a_terminal():
    """A long line is cut, only the last lines are shown, and escapes reach
    no terminal raw."""
    code = ("import sys; sys.stderr.write('\\x1b[2J' + 'x' * 100000 + '\\n' + "
            "''.join(f'line {i}\\n' for i in range(50)) + 'the last one\\x07\\n'); "
            "sys.exit(1)")
    done = _run(f"{sys.executable} -c \"{code}\"")
    first = done.stdout.splitlines()[0]
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert first.endswith("line 46 | line 47 | line 48 | line 49 | the last one\\x07 "
                          "(so all 3 vectors fail)"), first
    assert "line 45" not in first and len(first) < 1200


def test_the_command_is_run_by_a_shell(tmp_path):
    """cd, a variable set for the command and a pipe work as in a shell."""
    log = tmp_path / "answers.jsonl"
    done = _run(f"cd {ENGINE.parent} && FSM_FAKE=1 {sys.executable} {ENGINE.name} slow "
                f"| tee {log}")
    assert done.stdout.strip().splitlines()[-1] == "3 passed, 0 failed, 0 skipped", done.stdout
    assert json.loads(log.read_text().splitlines()[0])["type"] == "hello"


def test_a_command_the_shell_cannot_run_is_bad_input_and_says_why():
    done = _run("./no-such-engine --serve")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("fsm conformance: cannot start './no-such-engine --serve': ")
    assert "not found" in done.stderr and done.stderr.count("\n") == 1


def test_the_hello_may_take_longer_than_a_vector():
    """An engine that takes longer to start than --timeout allows a vector
    passes: its hello has --handshake-timeout (60 s by default)."""
    done = _run(f"{sys.executable} {ENGINE} late-hello 1.5", timeout="1")
    assert done.stdout.strip().splitlines()[-1] == "3 passed, 0 failed, 0 skipped", done.stdout


def test_no_hello_says_what_it_waited_for():
    marker = f"zoo-{uuid.uuid4().hex}"
    done = _run(f"{sys.executable} {ENGINE} late-hello 600 {marker}", "--handshake-timeout",
                "1", timeout="1")
    assert done.stdout.startswith("FAIL handshake: no hello within 1 s (so all 3 vectors fail)")
    assert _living(marker) == []


def test_the_default_handshake_wait_is_the_one_the_help_gives():
    from fsm.cli import build_parser
    from fsm.conformance.engine import HANDSHAKE_TIMEOUT, Engine
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["conformance"]
    helped = next(a for a in sub._actions if a.dest == "handshake_timeout").help
    assert f"(default {HANDSHAKE_TIMEOUT:g}:" in helped
    assert Engine("x", 10).handshake == HANDSHAKE_TIMEOUT
    assert Engine("x", 100, 1).handshake == 100        # never less than --timeout


@pytest.mark.parametrize("mode,stop", [("no-read", "SIGINT"), ("hang", "SIGINT"),
                                       ("hang", "SIGTERM")])
def test_ctrl_c_ends_the_engine_whatever_it_is_doing_and_exits_130(mode, stop, tmp_path):
    """SIGINT to the runner (or SIGTERM) while the engine does not read its
    input, or reads it but never answers: the engine's whole group and its
    marked processes end, the runner exits 130 with one line. The test waits
    for the engine to say it has got there (a FIFO), not for a while."""
    import signal
    import threading
    marker = f"zoo-{uuid.uuid4().hex}"
    ack = tmp_path / "ack"
    os.mkfifo(ack)
    said = []
    listener = threading.Thread(target=lambda: said.append(ack.read_text()), daemon=True)
    listener.start()
    cmd = [sys.executable, "-m", "fsm", "conformance", *FEW, "--timeout", "600",
           "--program", f"{sys.executable} {ENGINE} {mode} {TARGET} {marker}"]
    # the runner starts as from a terminal, Ctrl-C live, even when this test
    # runs where SIGINT is ignored (a job started in the background): an
    # ignored signal would stay ignored in the runner
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=dict(os.environ, FAKE_ENGINE_ACK=str(ack)))
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        listener.join(timeout=120)            # a bound for a broken run, not a wait
        assert said, "the engine never got there"
        assert _living(marker)                 # the engine is running
        proc.send_signal(getattr(signal, stop))
        out, err = proc.communicate(timeout=120)
        left = _living(marker)
    finally:
        proc.kill()
        _end(_living(marker))
    assert proc.returncode == 130, out + err
    assert err == "fsm conformance: interrupted\n"
    assert left == []
