"""What the commands share: seconds and file arguments, writing a report,
the names of the rulesets for help texts."""

from __future__ import annotations

import argparse
import math
import os

from ..errors import InputError
from ..rulesets import RULESETS

SEEDS_ENV = "FSM_SOURCES"     # where the rule texts are, when --sources is not given


def ruleset_names() -> str:
    """'dnd4e or pf2e': the registered rulesets, for help texts and messages."""
    names = list(RULESETS)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, "
                                         f"not {text}")
    return value


def processes(text: str) -> int:
    """A number of processes, 1 or more (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more processes, not {value}")
    return value


def sources_folder(folder):
    """``--sources``: None, or a folder that exists."""
    if folder is not None and not os.path.isdir(folder):
        raise InputError(folder, "not a folder (--sources names the folder holding the texts)")
    return folder


def write_report(path, text) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(path, f"cannot write: {exc.strerror}") from None


def cpus() -> int:
    return os.cpu_count() or 1
