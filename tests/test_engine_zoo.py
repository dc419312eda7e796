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
