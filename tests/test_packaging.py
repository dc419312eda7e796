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
sys.path.insert(0, str(ROOT / "bench"))
import startup  # noqa: E402  (bench/startup.py)


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert proc.returncode == 0, (cmd, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv with the project's wheel installed in it, built from a copy of
    the sources, as the bench builds it (bench/startup.py): the venv finds the
    dependencies (and pip) in this interpreter's site-packages, listed after
    its own in a .pth file, so it works whether the tests run in a venv or not."""
    tmp = tmp_path_factory.mktemp("wheel")
    bindir = startup.install(tmp)
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    away = tmp / "elsewhere"          # a working directory with no spec/ in it
    away.mkdir()
    return python, bindir.parent, away


def test_the_wheel_finds_its_own_spec_under_share(installed):
    python, venv, away = installed
    out = _run([str(python), "-c", "import fsm, fsm.spec as S; "
                "print(fsm.__file__); print(S.default_root())"], cwd=away).stdout.split("\n")
    assert Path(out[0]).resolve().is_relative_to(venv.resolve()), out
    assert Path(out[1]).resolve() == (venv / "share" / S.DATA_NAME).resolve(), out
    assert (venv / "share" / S.DATA_NAME / "spec" / "protocol.d.ts").is_file()
    assert (Path(out[0]).parent / "conformance" / "report.css").is_file()   # --report's style


def test_the_installed_fsm_runs_every_vector_outside_a_checkout(installed):
    python, venv, away = installed
    proc = subprocess.run([str(python), "-m", "fsm", "conformance"], cwd=away,
                          capture_output=True, text=True)
    from fsm.conformance import collect
    count = len(collect(None))      # the vectors, the generated ones and the scenarios
    assert proc.returncode == 0, proc.stdout[-1000:] + proc.stderr[-1000:]
    assert proc.stdout.strip().splitlines()[-1] == f"{count} passed, 0 failed, 0 skipped"


def test_the_bench_times_a_gallery_check_by_the_installed_script(installed):
    """bench/startup.py's figures come from a check that passed, run by the
    console script the wheel installed, in a folder of its own."""
    python, venv, away = installed
    folder = away / "bench"
    folder.mkdir()
    figures = startup.timed(python.parent, folder, repeat=1)
    assert figures["question"] == startup.QUESTION.stem
    assert all(figures[k] > 0 for k in ("fsm_check", "import_transitions", "python"))
    assert (python.parent / "fsm").is_file() or (python.parent / "fsm.exe").is_file()


def test_the_readmes_library_examples_run_from_the_wheel(installed):
    """The README's library examples, pasted into a file in an empty folder
    and run with the installed package, give the results they show."""
    from conftest import readme_library_script
    python, venv, away = installed
    script, checked = readme_library_script()
    (away / "example.py").write_text(script, encoding="utf-8")
    _run([str(python), "example.py"], cwd=away)
    assert checked >= 4


def test_the_readmes_plugin_install_line_names_an_extra_the_wheel_has(installed):
    """The README installs the pytest plugin with the `pytest` extra: the
    wheel declares it (pytest with it), and pip takes the line as written."""
    import re
    python, venv, away = installed
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(l for l in readme.splitlines() if "--fsm-adapter" not in l and
                re.search(r"pip install \S*\[pytest\]", l))
    assert '"path/to/fsm[pytest]"' in line, line
    shown = _run([str(python), "-c", "import importlib.metadata as m; "
                  "d = m.distribution('fsm-triggered-actions'); "
                  "print(d.metadata.get_all('Provides-Extra')); print(d.requires)"]).stdout
    extras, requires = shown.splitlines()
    assert "'pytest'" in extras
    assert re.search(r"pytest>=[\d.]+ *; *extra *== *.pytest.", requires), requires
    wheel = next((away.parent / "dist").glob("*.whl"))
    _run([str(python), "-m", "pip", "install", "-q", "--no-index", f"{wheel}[pytest]"])
    done = _run([str(python), "-m", "pytest", "--help"], cwd=away)
    assert "--fsm-adapter" in done.stdout


def test_the_installed_fsm_cites_rules_in_our_words(installed):
    python, venv, away = installed
    scenario = venv / "share" / S.DATA_NAME / "spec" / "scenarios" / \
        "4e-reaction-between-attack-rolls.json"
    proc = _run([str(python), "-m", "fsm", "check", "--color", "never", str(scenario)], cwd=away)
    statements = {r["id"]: " ".join(r["statement"].split())
                  for r in S.load(ROOT, with_tests=False).rules}
    assert f"4E-REACTION: {statements['4E-REACTION']}" in proc.stdout


def test_a_spec_path_outside_a_checkout_is_pointed_to_the_installed_copy(installed):
    """The README's first check, run from an empty folder with a wheel: one
    line, exit 2, naming where the installed spec/ holds the file."""
    python, venv, away = installed
    name = "spec/scenarios/4e-reaction-between-attack-rolls.json"
    proc = subprocess.run([str(python), "-m", "fsm", "check", name], cwd=away,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{name}: cannot read: ")
    assert lines[0].endswith(f"(fsm's own spec/ has it: {venv / 'share' / S.DATA_NAME / name})")


@pytest.mark.parametrize("command,says", [("check", "needs a checkout"),
                                          ("map", "run it in a checkout of the project")])
def test_spec_check_outside_a_checkout_says_what_it_needs(installed, command, says):
    """Checking the map and regenerating it need a checkout: one line each,
    and nothing written into the installed package."""
    python, venv, away = installed
    spec = venv / "share" / S.DATA_NAME / "spec"
    before = sorted((p.name, p.stat().st_mtime_ns) for p in spec.iterdir())
    proc = subprocess.run([str(python), "-m", "fsm", "spec", command], cwd=away,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], proc.stderr
    assert sorted((p.name, p.stat().st_mtime_ns) for p in spec.iterdir()) == before


def test_the_installed_fsm_shows_a_rule_outside_a_checkout(installed):
    """`fsm spec show` needs no checkout: only its list of tests does."""
    python, venv, away = installed
    proc = subprocess.run([str(python), "-m", "fsm", "spec", "show", "4E-IMM-ONCE"],
                          cwd=away, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "tests: (listed in a checkout of the project)" in proc.stdout
    assert "4e-immediate-once-per-round" in proc.stdout


@pytest.mark.parametrize("mode", ["--check", "--write"])
def test_the_installed_fsm_diagram_check_says_it_needs_a_checkout(installed, mode):
    """`fsm diagram --check` and `--write` outside a checkout say so, naming no
    path in site-packages, and write nothing into the installed package."""
    python, venv, away = installed
    proc = subprocess.run([str(python), "-m", "fsm", "diagram", mode], cwd=away,
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "checkout" in proc.stderr and "site-packages" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (venv / "share" / S.DATA_NAME / "diagrams").exists()


def test_the_sdist_carries_what_its_tests_need(tmp_path):
    """The source distribution holds the conftest, the fake engines, the
    generated vectors and the committed diagrams."""
    import tarfile
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        "__pycache__", "*.pyc", ".git", "*.egg-info", "build", "dist"))
    done = _run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                 "print(b.build_sdist(sys.argv[1]))", str(tmp_path / "dist")], cwd=src)
    name = done.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / "dist" / name) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for wanted in ("tests/conftest.py", "tests/engines/fake_engine.py",
                   "diagrams/dnd4e-overview.dot", "spec/TIMING.md", "spec/COVERAGE.json",
                   "spec/result.schema.json", "spec/protocol.d.ts", ".ci/run",
                   "examples/stackless/adapter.js", "examples/stackless/tracker.js"):
        assert wanted in names, wanted
    assert any(n.startswith("spec/vectors/generated/gen-") for n in names)
