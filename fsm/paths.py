"""Where the project's files are: the checkout the package runs from, or the
copy of spec/ an installed wheel carries under <prefix>/share."""

from __future__ import annotations

import os
import sys
from pathlib import Path


DATA_NAME = "fsm-triggered-actions"     # <prefix>/share/<DATA_NAME>/spec in an installed wheel


def installed_roots() -> list:
    """Where an installed wheel may have put spec/: <prefix>/share/fsm-triggered-actions
    for the interpreter's prefix, its install schemes and the user scheme."""
    import sysconfig
    prefixes = [sys.prefix, sysconfig.get_path("data")]
    try:
        prefixes.append(sysconfig.get_path("data", f"{os.name}_user"))
    except KeyError:
        pass
    out = []
    for p in prefixes:
        root = Path(p) / "share" / DATA_NAME
        if p and root not in out:
            out.append(root)
    return out


def default_root() -> Path:
    """The folder holding spec/: the checkout the package runs from, else the
    copy an installed wheel carries, else the current directory."""
    here = Path(__file__).resolve().parent.parent
    for root in (here, *installed_roots()):
        if (root / "spec" / "rules.yaml").exists() or (root / "spec" / "statements.json").exists():
            return root
    return Path.cwd()
