"""fsm diagram: draw the machine of a ruleset, regenerate or check the
committed pictures; and the pictures fsm check --diagram draws."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import DiagramError, InputError
from ..io.writing import cannot_write, check_file, check_folder
from ..scenario import is_log
from .common import RawFormatter, output_path, ruleset_names


def add_parser(sub) -> None:
    dia = sub.add_parser(
        "diagram", help="draw the machine (DOT, SVG, PNG, Mermaid); check diagrams/ is fresh",
        description="Draw the machine of a ruleset from the one transition table, or "
                    "regenerate and check the committed pictures.",
        epilog=EPILOG_DIAGRAM, formatter_class=RawFormatter)
    dia.add_argument("ruleset", nargs="?", metavar="RULESET", help=ruleset_names())
    dia.add_argument("--view", choices=("overview", "windows"), default="overview",
                     help="overview (default) or the trigger windows in detail")
    dia.add_argument("--format", choices=("dot", "svg", "png", "mermaid"),
                     help="default: from -o's extension, else dot")
    dia.add_argument("-o", "--output", metavar="FILE", type=output_path, help="write to FILE")
    whole = dia.add_mutually_exclusive_group()
    whole.add_argument("--check", action="store_true",
                       help="regenerate every committed picture and fail on any difference")
    whole.add_argument("--write", action="store_true",
                       help="regenerate every committed picture under diagrams/")
    dia.add_argument("--dir", metavar="DIR", help=argparse.SUPPRESS)
    dia.set_defaults(func=cmd_diagram)


EPILOG_DIAGRAM = """\
Pictures of the machine, drawn from each ruleset's transition table:
  overview  the turn phases and trigger windows, one edge per group of steps
  windows   every step that opens, answers or closes a trigger window, with
            each of its guards and the rule ids the guard enforces there

Without -o the picture goes to standard output; with -o its format comes from
the file's extension unless --format is given. The committed pictures live
under diagrams/: --write regenerates them, --check regenerates them in memory
and compares (DOT and Mermaid exactly, SVG byte for byte when the local
Graphviz is the version that drew the committed copies).

exit status: 0 done (or every picture fresh), 1 a picture is stale, 2 bad usage.
examples:
  fsm diagram dnd4e                               (the overview as DOT)
  fsm diagram pf2e --view windows -o pf2e-windows.svg
  fsm diagram dnd4e --format mermaid
  fsm diagram --write                             (regenerate diagrams/)
  fsm diagram --check
  fsm check spec/scenarios/4e-interrupt-shift-away.json --diagram shift.svg
"""


def cmd_diagram(args) -> int:
    from .. import diagrams
    try:
        if args.check or args.write:
            return _diagram_all(diagrams, args)
        if args.ruleset is None:
            raise DiagramError(f"name a ruleset ({ruleset_names()}), or give --check "
                               f"or --write")
        fmt = args.format or (diagrams.format_for(args.output) if args.output else "dot")
        if args.output:
            check_file(args.output)
        data = diagrams.render(args.ruleset, args.view, fmt)
        if args.output:
            with open(args.output, "wb") as fh:
                fh.write(data)
        elif fmt == "png":
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data.decode("utf-8"))
    except OSError as exc:
        raise cannot_write(exc.filename or args.output or args.dir, exc) from None
    return 0


def _diagram_all(diagrams, args) -> int:
    if args.ruleset or args.output or args.format:
        raise DiagramError("--check and --write take no ruleset, -o or --format")
    folder = Path(args.dir) if args.dir else diagrams.DIAGRAMS_DIR
    if not args.dir and not folder.is_dir():
        raise DiagramError("the committed diagrams/ are part of a checkout of the project, "
                           "not of an installed package; give --dir FOLDER to "
                           f"{'write' if args.write else 'check'} a folder of diagrams")
    if args.write:
        check_folder(folder)
        for path in diagrams.write_all(folder):
            print(f"wrote {path}")
        return 0
    if not folder.is_dir():
        raise DiagramError(f"no folder {folder} to check")
    result = diagrams.check_all(folder)
    print("\n".join(diagrams.check_lines(result, folder)))
    return 0 if result.ok else 1


def check_diagram_option(args) -> None:
    from .. import diagrams
    if len(args.files) != 1 or is_log(args.files[0]):
        raise InputError(args.files[0], "--diagram draws exactly one scenario "
                                        "(not an event log)")
    if args.at is not None:
        raise InputError(args.files[0], "--diagram draws the whole scenario; leave out --at")
    try:
        diagrams.format_for(args.diagram)
    except DiagramError as exc:
        raise InputError(args.diagram, str(exc).split(": ", 1)[-1]) from None
    check_file(args.diagram)


def draw_scenario(path, target) -> None:
    from .. import diagrams
    try:
        written = diagrams.draw_scenario(path, target)
    except DiagramError as exc:
        raise InputError(target, str(exc)) from None
    except OSError as exc:
        raise cannot_write(target, exc) from None
    for drawn in written:
        print(f"wrote {drawn}", file=sys.stderr)
