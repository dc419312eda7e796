"""An installed wheel works outside a checkout: it carries spec/ (rules,
vectors, scenarios) and finds it under <prefix>/share."""

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from fsm import spec as S

ROOT = Path(__file__).resolve().parent.parent


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert proc.returncode == 0, (cmd, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv with the project's wheel installed in it, built from a copy of
    the sources. The venv finds the dependencies (and pip) in this
    interpreter's site-packages, listed after its own in a .pth file, so it
    works whether the tests run in a venv or not."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("fsm", "spec"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"),
          str(src)])
    wheel = next((tmp / "dist").glob("*.whl"))
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    own = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    outer = [p for p in (*site.getsitepackages(), site.getusersitepackages())
             if os.path.isdir(p)]
    Path(own.stdout.strip(), "outer-packages.pth").write_text("\n".join(outer) + "\n")
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
          "--ignore-installed", str(wheel)])
    away = tmp / "elsewhere"          # a working directory with no spec/ in it
    away.mkdir()
    return python, venv, away


def test_the_wheel_finds_its_own_spec_under_share(installed):
    python, venv, away = installed
    out = _run([str(python), "-c", "import fsm, fsm.spec as S; "
                "print(fsm.__file__); print(S.default_root())"], cwd=away).stdout.split("\n")
    assert Path(out[0]).resolve().is_relative_to(venv.resolve()), out
    assert Path(out[1]).resolve() == (venv / "share" / S.DATA_NAME).resolve(), out


def test_the_installed_fsm_runs_every_vector_outside_a_checkout(installed):
    python, venv, away = installed
    proc = subprocess.run([str(python), "-m", "fsm", "conformance"], cwd=away,
                          capture_output=True, text=True)
    from fsm.conformance import collect
    count = len(collect(None))      # the vectors, the generated ones and the scenarios
    assert proc.returncode == 0, proc.stdout[-1000:] + proc.stderr[-1000:]
    assert proc.stdout.strip().splitlines()[-1] == f"{count} passed, 0 failed, 0 skipped"


def test_the_installed_fsm_cites_rules_in_our_words(installed):
    python, venv, away = installed
    scenario = venv / "share" / S.DATA_NAME / "spec" / "scenarios" / \
        "4e-reaction-between-attack-rolls.json"
    proc = _run([str(python), "-m", "fsm", "check", "--color", "never", str(scenario)], cwd=away)
    statements = {r["id"]: " ".join(r["statement"].split())
                  for r in S.load(ROOT, with_tests=False).rules}
    assert f"4E-REACTION: {statements['4E-REACTION']}" in proc.stdout


def test_spec_check_outside_a_checkout_says_what_it_needs(installed):
    python, venv, away = installed
    proc = subprocess.run([str(python), "-m", "fsm", "spec", "check"], cwd=away,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs a checkout" in lines[0], proc.stderr
