"""Writing where the user said, and nowhere else: never over a file of theirs
by surprise, never a traceback.

Every command that writes asks here first whether it can (:func:`check_folder`,
:func:`check_file`): a read-only place, a path running through a file or a
file where a folder should be is refused in one line (:class:`InputError`,
exit 2) before any work is done, not after minutes of it. A report is written
whole or not at all (:func:`write_whole`); a file that must not replace one
already there gets a fresh name beside it (:func:`write_new`).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError


def reason(exc: OSError) -> str:
    """What went wrong with a write, in the system's words."""
    return exc.strerror or str(exc)


def cannot_write(path, exc: OSError) -> InputError:
    """The one-line error for a write that failed (naming the path the
    system names, when it is another: a parent that is a file, say)."""
    where = exc.filename if exc.filename and str(exc.filename) != str(path) else None
    return InputError(path, f"cannot write: {reason(exc)}" + (f" ({where})" if where else ""))


def _existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists (whatever it is)."""
    path = Path(os.path.abspath(path))
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def check_folder(folder, about=None) -> None:
    """Refuse, in one line, a folder that cannot be written to or made:
    one that is a file, lies under a file, or is read-only. A folder that
    does not exist yet is judged by the nearest one above it, and not made.
    The error names ``about`` (a file to be written there) when given."""
    named = about if about is not None else folder
    there = _existing(Path(folder))
    here = Path(os.path.abspath(named))
    if not there.is_dir():
        if there == here:
            raise InputError(named, "is a file, not a folder")
        raise InputError(named, f"cannot write: {there} is a file, not a folder")
    try:
        import tempfile      # only when writing: not worth its import at start-up
        fd, probe = tempfile.mkstemp(prefix=".fsm-probe-", dir=there)
    except OSError as exc:
        raise InputError(named, f"cannot write: {reason(exc)}"
                                + ("" if there == here else f" ({there})")) from None
    os.close(fd)
    os.unlink(probe)


def check_file(path) -> None:
    """Refuse, in one line, a file that cannot be written: a folder of that
    name, or a folder above it that cannot be written or made."""
    if os.path.isdir(path):
        raise InputError(path, "is a folder, not a file")
    check_folder(os.path.dirname(os.path.abspath(path)), about=path)


def write_whole(path, text) -> None:
    """Write ``text`` to ``path`` whole or not at all: beside it first, then
    renamed over it, so that no half-written report is left behind."""
    folder = os.path.dirname(os.path.abspath(path))
    partial = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.partial")
    try:
        with open(partial, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(text)
        os.replace(partial, path)
    except OSError as exc:
        if os.path.exists(partial):
            os.unlink(partial)
        raise cannot_write(path, exc) from None


def write_new(path, render) -> Path:
    """Write a new file at ``path``, or beside it under a fresh name
    (``stem-2.ext``, ``stem-3.ext``...) when a file is there already: nothing
    is replaced. ``render(path)`` gives the text for the name chosen. Raises
    OSError when the place cannot be written (and leaves no part of a file)."""
    path = Path(path)
    n = 0
    while True:
        n += 1
        candidate = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        if os.path.lexists(candidate):
            continue
        text = render(candidate)
        try:
            fh = open(candidate, "x", encoding="utf-8")
        except FileExistsError:          # taken since it was looked at
            continue
        try:
            with fh:
                fh.write(text)
        except OSError:
            os.unlink(candidate)
            raise
        return candidate
