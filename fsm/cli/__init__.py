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

from .. import __version__
from ..errors import FsmError, InputError, TableGap
from ..rulesets import RULESETS
from . import check, conformance, diagram, explore, site, spec

# The commands, in the order --help lists them.
COMMANDS = (check, conformance, diagram, explore, spec, site)
TABLE_GAP = 3


class _Parser(argparse.ArgumentParser):
    """Usage mistakes get one line (and where to read more), exit status 2;
    the subcommands' parsers are of this class too."""

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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fsm",
        description="Reference state machine for triggered actions in combat ("
                    + "; ".join(f"{rs.name}: {rs.long_title}" for rs in RULESETS.values())
                    + "): replay scenarios and get a verdict for every step, with the "
                    "rules cited.",
        epilog="Run 'fsm COMMAND --help' for the details of a command.",
    )
    parser.add_argument("--version", action="version", version=f"fsm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
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
    parser = build_parser()
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

