"""Where the project's files are: the checkout the package runs from, or the
copy of spec/ an installed wheel carries under <prefix>/share."""

from __future__ import annotations

import os
import sys
from itertools import chain


DATA_NAME = "fsm-triggered-actions"     # <prefix>/share/<DATA_NAME>/spec in an installed wheel


def installed_roots() -> list:
    """Where an installed wheel may have put spec/: <prefix>/share/fsm-triggered-actions
    for the interpreter's prefix, its install schemes and the user scheme."""
    from pathlib import Path
    return [Path(p) for p in _installed_folders()]


def _installed_folders():
    """As :func:`installed_roots`, one at a time and as strings: the
    interpreter's prefix first, where a wheel installed in a venv puts it
    (``sysconfig`` is read only when it is not)."""
    seen = []
    for prefix in _prefixes():
        folder = os.path.join(prefix, "share", DATA_NAME) if prefix else ""
        if folder and folder not in seen:
            seen.append(folder)
            yield folder


def _prefixes():
    yield sys.prefix
    import sysconfig
    yield sysconfig.get_path("data")
    try:
        yield sysconfig.get_path("data", f"{os.name}_user")
    except KeyError:
        pass


def root_folder() -> str:
    """The folder holding spec/: the checkout the package runs from, else the
    copy an installed wheel carries, else the current directory. (A string:
    ``pathlib`` costs a check's start more than the rest of this module.)"""
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for root in chain((here,), _installed_folders()):
        if any(os.path.exists(os.path.join(root, "spec", name))
               for name in ("rules.yaml", "statements.json")):
            return root
    return os.getcwd()


def default_root():
    """:func:`root_folder`, as a :class:`pathlib.Path`."""
    from pathlib import Path
    return Path(root_folder())
