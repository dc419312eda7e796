"""The ``fsm`` command line.

Exit status, for every command: 0 success, 1 a check failed (an expectation,
a vector, a stale diagram, a gap in the spec), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from .scenario import InputError, build, load_source, replay

EPILOG_CHECK = """\
A scenario is a JSON or YAML file in the step format (spec/FORMAT.md):

  {"format": 1, "ruleset": "dnd4e",
   "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}],
   "steps": [{"actor": "orc", "do": "standard", "name": "club"},
             {"actor": "ayla", "do": "interrupt", "expect": {"verdict": "allowed"}}]}

Every step gets a verdict: allowed, rejected (with a reason code and the rule
ids behind it) or gm (the rules leave it to the game master). A step's
"expect" is checked against what happened.

exit status: 0 every expectation holds, 1 one does not, 2 bad input.
examples:
  fsm check spec/scenarios/4e-interrupt-shift-away.json
  fsm check --format json spec/scenarios/*.json
"""


def _describe(data: dict) -> str:
    kind = data.get("do", "?")
    who = data.get("actor")
    text = f"{who} {kind}" if who else kind
    if data.get("name"):
        text += f" \u201c{data['name']}\u201d"
    if data.get("to"):
        text += f" to {data['to']}"
    if data.get("on"):
        text += f" on {data['on']}"
    return text


class Style:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def verdict(self, verdict: str) -> str:
        code = {"allowed": "32", "rejected": "31", "gm": "33"}.get(verdict, "0")
        return self.paint(verdict, code)


def _text_report(rep, style: Style, explain: bool, out) -> None:
    doc = rep.doc
    title = doc.get("id") or rep.path
    out.write(f"{rep.path}: {title} ({doc['ruleset']})\n")
    if doc.get("description"):
        out.write(f"  {doc['description']}\n")
    for r in rep.results:
        v = r.verdict
        line = f"  {r.index:>3}  {_describe(r.data):<44} {style.verdict(v.verdict)}"
        if v.reason:
            line += f"  {v.reason}"
        if v.rules and v.verdict != "allowed":
            line += f"  [{', '.join(v.rules)}]"
        out.write(line + "\n")
        if explain and v.says:
            out.write(f"       {v.guard}: {v.says}\n")
        for note in v.notes:
            out.write(f"       note: {note}\n")
        for failure in r.failures:
            out.write(f"       {style.paint('FAIL', '31;1')} {failure}\n")
    if rep.ok:
        out.write(f"  ok: {len(rep.results)} steps, every expectation holds\n")
    else:
        out.write(f"  {len(rep.failures)} expectation(s) failed\n")


def _json_report(rep) -> dict:
    return {
        "file": rep.path,
        "id": rep.doc.get("id"),
        "ruleset": rep.doc["ruleset"],
        "ok": rep.ok,
        "steps": [
            {**r.verdict.as_dict(), "do": r.data.get("do"), "actor": r.data.get("actor"),
             "failures": r.failures,
             **({"guard": r.verdict.guard, "explain": r.verdict.says}
                if r.verdict.guard else {})}
            for r in rep.results
        ],
    }


def cmd_check(args) -> int:
    style = Style(args.color == "always" or (args.color == "auto" and sys.stdout.isatty()))
    reports = []
    failed = False
    for path in args.files:
        try:
            doc, lines = load_source(path)
            rep = replay(doc, path, build(doc, path), lines)
        except InputError as exc:
            print(exc.render(), file=sys.stderr)
            return 2
        failed = failed or not rep.ok
        reports.append(rep)
    if args.format == "json":
        payload = [_json_report(r) for r in reports]
        json.dump(payload[0] if len(payload) == 1 else payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for rep in reports:
            _text_report(rep, style, args.explain, sys.stdout)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fsm",
        description="Reference state machine for triggered actions (D&D 4e, Pathfinder 2e): "
                    "replay scenarios and get a verdict for every step, with the rules cited.",
        epilog="Run 'fsm COMMAND --help' for the details of a command.",
    )
    parser.add_argument("--version", action="version", version=f"fsm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser(
        "check", help="replay scenarios and give every step its verdict",
        description="Replay one or more scenarios and print each step's verdict.",
        epilog=EPILOG_CHECK, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("files", nargs="+", metavar="SCENARIO",
                       help="scenario files (.json, .yaml, .yml)")
    check.add_argument("--format", choices=("text", "json"), default="text",
                       help="text for people (default), json for programs")
    check.add_argument("--json", dest="format", action="store_const", const="json",
                       help="same as --format json")
    check.add_argument("--explain", action="store_true",
                       help="name the deciding guard and the values it saw")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the verdicts (auto: only on a terminal)")
    check.set_defaults(func=cmd_check)
    return parser


def main(argv=None) -> int:
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
    except InputError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
