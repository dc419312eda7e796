"""The written rules are enough to build an engine: engines written from
the prose of spec/ alone, one per ruleset (tests/engines/prose_*.py, no code shared with fsm)
pass every vector and agree with the reference on random timelines."""

import ast
import sys
from pathlib import Path

import pytest

from fsm.cli import main

ROOT = Path(__file__).resolve().parent.parent
ENGINES = {r: ROOT / "tests" / "engines" / f"prose_{r}.py" for r in ("dnd4e", "pf2e", "dnd5e")}


def _command(ruleset):
    return f"{sys.executable} {ENGINES[ruleset]}"


@pytest.mark.parametrize("ruleset", sorted(ENGINES))
def test_the_prose_engine_shares_no_code_with_fsm(ruleset):
    """It imports the standard library only: nothing of fsm, nothing installed."""
    tree = ast.parse(ENGINES[ruleset].read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported and imported <= set(sys.stdlib_module_names), imported


@pytest.mark.parametrize("ruleset", sorted(ENGINES))
def test_the_prose_engine_passes_every_vector_of_its_ruleset(ruleset, capsys):
    """Every vector and scenario of its ruleset passes (those with a scene,
    which it does not claim, are skipped)."""
    assert main(["conformance", "--program", _command(ruleset)]) == 0
    out = capsys.readouterr()
    summary = (out.out + out.err).strip().splitlines()[-1]
    passed = int(summary.split()[0])
    assert passed >= 80 and " 0 failed" in summary, summary


@pytest.mark.parametrize("ruleset", sorted(ENGINES))
def test_the_prose_engine_agrees_with_the_reference_on_random_timelines(ruleset, tmp_path,
                                                                         capsys):
    """Differential fuzzing finds no timeline on which it and the reference
    differ, step by step (verdicts, reasons, facts)."""
    code = main(["conformance", "--program", _command(ruleset), "--fuzz", "200",
                 "--seed", "11", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "200 timelines (seed 11), no disagreement" in out
    assert not list(tmp_path.glob("fuzz-*.json"))
