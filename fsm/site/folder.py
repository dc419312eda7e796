"""Where ``fsm site`` may write: a new or empty folder, or one it built.

A folder holding files ``fsm site`` did not write is the user's, and a site
built over it would replace their ``index.html`` or ``style.css`` without a
word: it is refused unless ``--replace`` is given. Each build leaves
:data:`MARKER` in the folder, listing the files it wrote; the next build
there replaces those, removes the ones it no longer writes, and leaves
every other file alone. The project's own folders (the checkout's root,
``spec/``, ``fsm/``, ``tests/``...) are never a site's place, ``--replace``
or not: a site belongs in a folder of its own, such as ``site/``.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..errors import InputError
from ..io.writing import check_folder

MARKER = ".fsm-site"
HEADER = "# fsm site: the files this folder's site is made of, one a line"
PROJECT_FOLDERS = (".git", ".ci", "bench", "diagrams", "fsm", "spec", "tests")
SHOWN = 3           # names of the user's files a refusal shows


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _refuse_project(out: Path, root: Path) -> None:
    """The checkout's root and its own folders are the project's, not a site's."""
    real, root = Path(os.path.realpath(out)), Path(os.path.realpath(root))
    mine = [name for name in PROJECT_FOLDERS if _inside(real, root / name)]
    if real == root or mine:
        what = f"the project's own {mine[0]}/ folder" if mine else "the project's checkout"
        raise InputError(out, f"is {what} ({root}); build the site into a folder of its "
                              f"own, such as site/")


def built_before(out: Path) -> set | None:
    """The files a build left listed in ``out``'s marker (relative POSIX
    paths, none leading out of the folder), or None when there is no marker
    (or a file of that name fsm did not write)."""
    try:
        lines = (out / MARKER).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != HEADER:
        return None
    names = set()
    for line in lines[1:]:
        name = PurePosixPath(line)
        if line and not name.is_absolute() and ".." not in name.parts:
            names.add(str(name))
    return names


def _some_files(out: Path, enough: int) -> list:
    """Up to ``enough`` files under ``out`` (relative POSIX paths), sorted
    as found; the walk stops there, however large the folder."""
    found = []
    for here, dirs, files in os.walk(out):
        dirs.sort()
        for name in sorted(files):
            found.append(Path(here, name).relative_to(out).as_posix())
            if len(found) >= enough:
                return found
    return found


def _named(names: list) -> str:
    shown = ", ".join(names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def prepare(out, root, replace: bool) -> set:
    """Check, before anything is built, that ``out`` may take a site: refuse
    the project's folders, a file, an unwritable place, and (without
    ``replace``) a folder holding files of the user's. Return the names the
    previous build listed (empty when none)."""
    out = Path(out)
    _refuse_project(out, root)
    check_folder(out)
    if not out.is_dir():
        return set()
    previous = built_before(out)
    if previous is None and not replace:
        theirs = _some_files(out, SHOWN + 1)
        if theirs:
            shown = ", ".join(theirs[:SHOWN]) + (" and more" if len(theirs) > SHOWN else "")
            raise InputError(out, f"holds files fsm site did not write ({shown}); "
                                  f"give a new or empty folder, or --replace to write the "
                                  f"site over them")
    return previous or set()


def clashes(out, names, previous: set) -> list:
    """The names the site would write over that its previous build did not
    write: the user's files, which only ``--replace`` replaces."""
    out = Path(out)
    return sorted(n for n in names if n not in previous and os.path.lexists(out / n))


def refuse_clashes(out, clashing: list) -> None:
    raise InputError(out, f"the site would replace files fsm site did not write "
                          f"({_named(clashing)}); move them, or give --replace")


def write_marker(out, names) -> None:
    Path(out, MARKER).write_text("\n".join([HEADER, *sorted(names)]) + "\n", encoding="utf-8")


def remove_stale(out, stale) -> int:
    """Remove the files of the previous build that this one no longer
    writes (those listed in the marker only), and the folders they leave
    empty; return how many files went."""
    out = Path(out)
    gone = 0
    for name in sorted(stale):
        path = out / name
        if path.is_file() and not path.is_symlink():
            path.unlink()
            gone += 1
        folder = path.parent
        while folder != out and _inside(folder, out) and folder.is_dir() \
                and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
    return gone
