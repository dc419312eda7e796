"""The live checker page (``fsm site OUT --live``): paste or edit a scenario
and the project's own ``fsm`` package judges it in the browser, under
Pyodide.

What the build writes under ``OUT/live/``:

* ``pyodide/``: the runtime's files from the ``pyodide`` npm package (fetched
  with ``npm pack`` at build time, or taken from ``--pyodide`` when given);
* ``fsm-live.zip``: the pure-Python code the page runs: ``fsm``,
  ``transitions`` and ``six``, PyYAML's Python half, the ``graphviz``
  package (imported by ``fsm.diagrams``, never run: the page draws no DOT),
  ``spec/statements.json`` (the rule statements) and the licences of what it
  carries;
* ``index.html``: the page (:mod:`.live_page`). The scenario is in the
  address (``#scenario=`` its text in base64url, ``&step=N`` the step
  shown), so a link reproduces it;
* ``answers/``: the verdicts of each worked example, judged when the site is
  built, which the page shows at once for a link to one of them while
  Python starts;
* ``live.js``, ``builder*.js``, ``live.css``: its script and style.

Nothing is fetched from elsewhere when the page is viewed; browsers load
WebAssembly only over HTTP, so the site is served (any static server).
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path

from ..errors import ConfigError

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
BUNDLE = "fsm-live.zip"
CARRIED = (("transitions", "transitions"), ("six", "six"), ("yaml", "PyYAML"),
           ("graphviz", "graphviz"))


def pyodide_files(given=None) -> dict:
    """name -> bytes of the runtime's files, from ``given`` (a folder holding
    them or the npm package's .tgz) or from ``npm pack``."""
    if given is not None:
        return _from_given(Path(given))
    npm = shutil.which("npm")
    if npm is None:
        raise ConfigError("fsm site --live needs npm (Node.js) to fetch the pyodide package; "
                          "install npm, or give --pyodide with a copy of the package")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}",
                                   "--pack-destination", tmp, "--silent"],
                                  capture_output=True, text=True, timeout=600, check=False)
        except subprocess.TimeoutExpired:
            raise ConfigError("npm pack pyodide did not finish in 10 minutes") from None
        packed = sorted(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not packed:
            last = (done.stderr.strip().splitlines() or ["no package written"])[-1]
            raise ConfigError(f"npm pack pyodide@{PYODIDE_VERSION} failed: {last}")
        return _from_tgz(packed[0])


def _from_given(path: Path) -> dict:
    if path.is_dir():
        found = {name: path / name for name in PYODIDE_FILES}
        missing = [name for name, p in found.items() if not p.is_file()]
        if missing:
            raise ConfigError(f"--pyodide {path}: no {missing[0]} there")
        return {name: p.read_bytes() for name, p in found.items()}
    if path.is_file() and path.name.endswith(".tgz"):
        return _from_tgz(path)
    raise ConfigError(f"--pyodide {path}: give the pyodide npm package's folder or .tgz")


def _from_tgz(path: Path) -> dict:
    out = {}
    try:
        with tarfile.open(path, "r:gz") as tar:
            for name in PYODIDE_FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise KeyError(name)
                out[name] = member.read()
    except (tarfile.TarError, KeyError, OSError) as exc:
        raise ConfigError(f"{path}: not the pyodide package ({exc})") from None
    return out


def _python_files(folder: Path):
    for p in sorted(folder.rglob("*.py")):
        if "__pycache__" not in p.parts:
            yield p


def bundle(root: Path) -> bytes:
    """The zip the page unpacks into Pyodide's file system."""
    import fsm
    import graphviz
    import six
    import transitions
    import yaml
    target = tempfile.SpooledTemporaryFile()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for package in (fsm, transitions, yaml, graphviz):
            folder = Path(package.__file__).parent
            for p in _python_files(folder):
                z.write(p, f"{folder.name}/{p.relative_to(folder).as_posix()}")
        z.write(six.__file__, "six.py")
        z.write(root / "spec" / "statements.json", "spec/statements.json")
        for module, dist in CARRIED:
            for name, text in _licences(dist):
                z.writestr(f"licences/{module}-{name}", text)
    target.seek(0)
    return target.read()


def _licences(dist: str) -> list:
    """(file name, bytes) of the licence files an installed distribution lists."""
    try:
        files = importlib.metadata.distribution(dist).files or ()
    except importlib.metadata.PackageNotFoundError:
        return []
    out = []
    for f in files:
        name = Path(str(f)).name
        in_metadata = Path(str(f)).parts[0].endswith(".dist-info")
        if in_metadata and name.upper().startswith(("LICENSE", "LICENCE", "COPYING")):
            try:
                out.append((name, Path(f.locate()).read_bytes()))
            except OSError:
                continue
    return out


def live_files(root: Path, examples: dict, pictures: dict, edges: dict, runtime: dict) -> dict:
    """Site-relative name -> text or bytes of every file of the live checker."""
    from .live_page import answers, live_page
    files = {f"live/pyodide/{name}": data for name, data in runtime.items()}
    files[f"live/{BUNDLE}"] = bundle(root)
    known, files_of = answers(examples, edges)
    files.update(files_of)
    files["live/index.html"] = live_page(examples, pictures, edges, known, PYODIDE_VERSION)
    return files
