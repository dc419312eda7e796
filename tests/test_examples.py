"""The worked example for engine authors (examples/stackless/): a 5e tracker
with no pending-action stack, written in JavaScript, and its adapter to the
protocol. It passes the suite for what its hello declares; broken, it fails."""

import json
import shlex
import shutil
from pathlib import Path

import pytest

from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "stackless"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (CI installs "
                                                     "npm, which brings it)")

# What the example reaches today is 89 vectors passed; a little less leaves
# room for vectors added to the suite that its hello does not declare.
AT_LEAST = 85


def _run(folder: Path, capsys):
    program = f"{shlex.quote(NODE)} {shlex.quote(str(folder / 'adapter.js'))}"
    code = main(["conformance", "--program", program, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def test_the_stackless_example_passes_what_it_declares(capsys):
    """Exit 0, no failure, most of its ruleset's vectors passed, the rest
    skipped for what its hello leaves out, and a headline that says how many
    rules that leaves untested."""
    code, report, err = _run(EXAMPLE, capsys)
    statuses = [o["status"] for o in report["outcomes"]]
    assert code == 0, err
    assert statuses.count("failed") == 0
    assert statuses.count("passed") >= AT_LEAST
    assert err.strip().splitlines()[-1] == report["summary"]
    skipped = {o["message"] for o in report["outcomes"] if o["status"] == "skipped"}
    assert any("'counter' step" in m for m in skipped)          # its declared steps
    assert any("field 'slot'" in m for m in skipped)            # its declared fields
    assert any("scene not supported" in m for m in skipped)     # no positions
    headline = report["headline"]
    assert headline.startswith("conforms to the fsm suite, format 1: ")
    assert "untested: outside its declared support" in headline


def test_the_example_fails_when_its_tracker_never_gives_the_reaction_back(tmp_path, capsys):
    """The same run against a copy whose tracker forgets to refresh the
    Reaction at the start of a creature's turn: vectors fail, the exit status
    is 1, and the headline names the rule they are charged to."""
    broken = tmp_path / "stackless"
    shutil.copytree(EXAMPLE, broken)
    tracker = broken / "tracker.js"
    text = tracker.read_text(encoding="utf-8")
    refresh = "movement: c.speed, reaction: true,"
    assert text.count(refresh) == 1
    tracker.write_text(text.replace(refresh, "movement: c.speed,"), encoding="utf-8")
    code, report, _ = _run(broken, capsys)
    assert code == 1
    assert [o["status"] for o in report["outcomes"]].count("failed") >= 1
    assert report["headline"].startswith("fails the fsm suite")
    assert "5E-REACTION-ONE" in report["headline"]


def test_the_readme_shows_the_hello_the_adapter_sends():
    """The README's worked example quotes the adapter's hello as it is."""
    import subprocess
    proc = subprocess.run([NODE, str(EXAMPLE / "adapter.js")], capture_output=True, text=True,
                          input=json.dumps({"type": "hello", "protocol": 1, "format": 1}) + "\n",
                          check=True)
    sent = json.loads(proc.stdout.splitlines()[0])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Writing an engine: a worked example", 1)[1]
    quoted = section.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(quoted) == sent
