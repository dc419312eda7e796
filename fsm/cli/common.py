"""What the commands share: seconds and file arguments, the names of the
rulesets for help texts, the width help is written to. (Writing files:
fsm.io.writing.)"""

from __future__ import annotations

import argparse
import math
import os
import sys

from ..errors import InputError
from ..rulesets import RULESETS

SEEDS_ENV = "FSM_SOURCES"     # where the rule texts are, when --sources is not given


def ruleset_names() -> str:
    """'dnd4e or pf2e': the registered rulesets, for help texts and messages."""
    names = list(RULESETS)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def columns() -> int:
    """The terminal's width, as argparse finds it (``COLUMNS``, else the
    terminal of standard output, else 80), without the ``shutil`` module,
    which argparse imports for it and which costs a start-up more than the
    rest of the command line."""
    try:
        width = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            width = 0
    return width if width > 0 else 80


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, wrapping to :func:`columns`."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position,
                         columns() - 2 if width is None else width)


class RawFormatter(Formatter, argparse.RawDescriptionHelpFormatter):
    """The same, keeping the lines of a description and an epilog as written."""


MAX_SECONDS = 86_400.0      # a day: what every wait of the runner can be asked for
MAX_PROCESSES = 256


def seconds(text: str) -> float:
    """A positive, finite number of seconds, at most a day (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, at most "
                                         f"{MAX_SECONDS:g}, not {text}")
    return value


def command(text: str) -> str:
    """A command line, as a shell would split it (argparse type)."""
    import shlex
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"cannot read the command {text!r}: {exc}") from None
    if not words:
        raise argparse.ArgumentTypeError("the command is empty")
    return text


def processes(text: str) -> int:
    """A number of processes, 1 or more (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= MAX_PROCESSES:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_PROCESSES} processes, not {value}")
    return value


def output_path(text: str) -> str:
    """A file or folder to write to: not an empty string, which would mean
    the current folder (argparse type)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; name the file or folder to write")
    return text


def sources_folder(folder):
    """``--sources``: None, or a folder that exists."""
    if folder is not None and not os.path.isdir(folder):
        raise InputError(folder, "not a folder (--sources names the folder holding the texts)")
    return folder


def cpus() -> int:
    return os.cpu_count() or 1
