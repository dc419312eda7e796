"""The ``fsm`` command line: one module per command, errors mapped here once.

Exit status, for every command: 0 success, 1 a check failed (an expectation,
a vector, a stale diagram, a gap in the spec), 2 bad input or usage (any
:class:`fsm.errors.FsmError`: one line, never a traceback), 3 a situation the
table does not decide (:class:`fsm.errors.TableGap`, a bug to report), 130
interrupted.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from .. import __version__
from ..errors import FsmError, InputError, TableGap
from ..rulesets import RULESETS
from .common import Formatter

# The commands' modules here, in the order --help lists them, each imported
# when its parsers are built; and the module of each command word.
COMMANDS = ("check", "conformance", "diagram", "explore", "spec", "site")
WORDS = {**{name: name for name in COMMANDS}, "mutate": "conformance", "serve": "conformance"}
TABLE_GAP = 3


class _Parser(argparse.ArgumentParser):
    """Usage mistakes get one line (and where to read more), exit status 2;
    the subcommands' parsers are of this class too. Help wraps to the
    terminal's width (:class:`fsm.cli.common.Formatter`)."""

    def __init__(self, *args, formatter_class=Formatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but a word no parser takes is reported by the
        (sub)command it was given to, whose --help lists what it takes."""
        args, extras = self.parse_known_args(args, namespace)
        if extras:
            _chosen(self, args).error(f"unrecognized arguments: {' '.join(extras)}")
        return args


def _chosen(parser, args) -> argparse.ArgumentParser:
    """The innermost subcommand's parser that ``args`` went through."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(args, action.dest, None)
            if name in action.choices:
                return _chosen(action.choices[name], args)
    return parser


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of those of the module ``only``
    (a command line that names a command is parsed by its module's parsers
    alone: the other modules are not loaded for it, nor every ruleset for
    the description)."""
    described = () if only else RULESETS.values()
    parser = _Parser(
        prog="fsm",
        description="Reference state machine for triggered actions in combat ("
                    + "; ".join(f"{rs.name}: {rs.long_title}" for rs in described)
                    + "): replay scenarios and get a verdict for every step, with the "
                    "rules cited.",
        epilog="Run 'fsm COMMAND --help' for the details of a command.",
    )
    parser.add_argument("--version", action="version", version=f"fsm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only else COMMANDS:
        import_module(f".{name}", __name__).add_parser(sub)
    return parser


def _never_unencodable() -> None:
    """A lone surrogate from a user's file prints as its escape, never as a
    traceback (JSON stays exact: the escape is JSON's own)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass


def main(argv=None) -> int:
    _never_unencodable()
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(WORDS.get(argv[0]) if argv else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except TableGap as exc:
        print(f"fsm {args.command}: internal error, a situation the table does not decide "
              f"(please report it): {exc.render()}", file=sys.stderr)
        return TABLE_GAP
    except InputError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    except FsmError as exc:
        print(f"fsm {args.command}: {exc.render()}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"fsm {args.command}: interrupted", file=sys.stderr)
        return 130

