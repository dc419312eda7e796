"""Start-up as a user meets it: the project's wheel installed in a fresh
venv, its ``fsm`` console script checking a gallery question in an empty
folder, against the same venv's bare ``import transitions``.

The venv finds the dependencies in this interpreter's site-packages (listed
after its own in a .pth file), so nothing is downloaded; the wheel is built
from a copy of the sources, so the checkout is left as it was. Bytecode is
written by a first, unmeasured run, as after a user's first command.
"""

from __future__ import annotations

import os
import shutil
import site
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = ROOT / "spec" / "scenarios" / "5e-shield-before-the-hit-lands.json"


def _run(cmd, **kw) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {proc.returncode}: "
                           f"{(proc.stderr or proc.stdout).strip()[-400:]}")
    return proc.stdout


def install(tmp: Path) -> Path:
    """Build the wheel from a copy of the sources and install it in a venv
    under ``tmp``; the venv's bin folder."""
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
    Path(own.strip(), "outer-packages.pth").write_text("\n".join(outer) + "\n")
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
          "--ignore-installed", str(wheel)])
    return bindir


def _once(cmd, cwd) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=cwd)
    return time.perf_counter() - start


def wall(cmd, cwd, repeat=7) -> float:
    """The median of ``repeat`` runs of ``cmd`` in ``cwd``, in seconds."""
    return statistics.median(_once(cmd, cwd) for _ in range(repeat))


def walls(cmds: dict, cwd, repeat=7) -> dict:
    """The median of ``repeat`` runs of each of ``cmds`` (name: command), run
    in turn, one of each per round, so that a machine that slows down or
    speeds up during the measure weighs on each alike; in seconds."""
    times = {name: [] for name in cmds}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            times[name].append(_once(cmd, cwd))
    return {name: statistics.median(t) for name, t in times.items()}


def timed(bindir: Path, away: Path, repeat: int = 7) -> dict:
    """Median seconds of ``fsm check`` of the gallery question (copied into
    the empty folder ``away``), of ``import transitions`` and of a bare
    python, each from the venv of ``bindir``. The check must pass first: a
    command that fails fast would flatter the figure."""
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    console = bindir / ("fsm.exe" if os.name == "nt" else "fsm")
    question = away / QUESTION.name
    shutil.copy(QUESTION, question)
    check = [str(console), "check", question.name]
    out = _run(check, cwd=away)          # also writes the bytecode caches
    if "every expectation holds" not in out:
        raise RuntimeError(f"fsm check of {question.name} from the wheel: {out.strip()[-300:]}")
    return {"question": QUESTION.stem,
            **walls({"fsm_check": check,
                     "import_transitions": [str(python), "-c", "import transitions"],
                     "python": [str(python), "-c", "pass"]}, away, repeat)}


def wheel_start(repeat: int = 7) -> dict:
    """:func:`timed` on a wheel built and installed now, in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        bindir = install(Path(tmp))
        away = Path(tmp) / "elsewhere"
        away.mkdir()
        return timed(bindir, away, repeat)


if __name__ == "__main__":
    figures = wheel_start()
    print(f"fsm check {figures['question']} from a wheel: {figures['fsm_check'] * 1000:.0f} ms, "
          f"{figures['fsm_check'] / figures['import_transitions']:.2f}x import transitions "
          f"({figures['import_transitions'] * 1000:.0f} ms; bare python "
          f"{figures['python'] * 1000:.0f} ms)")
