"""fsm check: replay scenarios (or an engine's event log) and give every step
its verdict; --at lists what each combatant may do at a point."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .. import report
from ..errors import InputError
from ..report import Citations, Style, describe
from ..scenario import build, is_log, load_source, play_step, replay, replay_log
from .common import RawFormatter, SEEDS_ENV, sources_folder


def add_parser(sub) -> None:
    check = sub.add_parser(
        "check", help="replay scenarios and give every step its verdict",
        description="Replay one or more scenarios and print each step's verdict.",
        epilog=EPILOG_CHECK, formatter_class=RawFormatter)
    check.add_argument("files", nargs="+", metavar="SCENARIO",
                       help="scenario files (.json, .yaml, .yml) or engine event logs "
                            "(.jsonl: a setup line, then one step per line)")
    check.add_argument("--format", choices=("text", "json", "markdown", "bbcode"),
                       default="text",
                       help="text for a terminal (default), json for programs, markdown "
                            "to paste into a forum thread or an issue, bbcode for a forum "
                            "that takes BBCode ([TABLE] as XenForo and vBulletin write it)")
    check.add_argument("--json", dest="format", action="store_const", const="json",
                       help="same as --format json")
    check.add_argument("--explain", action="store_true",
                       help="name the deciding guard and the values it saw")
    check.add_argument("--sources", metavar="DIR", default=os.environ.get(SEEDS_ENV),
                       help="folder holding your copy of the rule texts: cite the original "
                            "sentences too (default: $FSM_SOURCES)")
    check.add_argument("--at", type=int, metavar="STEP",
                       help="instead of replaying it all, list what each combatant may do "
                            "after step STEP (0: before the first)")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the verdicts (auto: only on a terminal)")
    check.add_argument("--diagram", metavar="FILE",
                       help="also draw the scenario: its path through the machine to FILE "
                            "(.dot, .svg, .png or .mmd) and a Mermaid sequence diagram to "
                            "FILE's stem + .sequence.mmd")
    check.set_defaults(func=cmd_check)


EPILOG_CHECK = """\
A scenario is a JSON or YAML file in the step format (spec/FORMAT.md):

  {"format": 1, "ruleset": "dnd4e",
   "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}],
   "steps": [{"actor": "orc", "do": "standard", "name": "club"},
             {"actor": "ayla", "do": "interrupt", "expect": {"verdict": "allowed"}}]}

Every step gets a verdict: allowed, rejected (with a reason code and the rule
ids behind it) or gm (the rules leave it to the game master). A step's
"expect" is checked against what happened; one that names a reason code, rule,
phase, combatant or budget the encounter does not have is bad input (with the
nearest name), since it could never hold.

exit status: 0 every expectation holds, 1 one does not, 2 bad input.
examples:
  fsm check spec/scenarios/4e-interrupt-shift-away.json
  fsm check --format json spec/scenarios/*.json
  fsm check my-engine-game.jsonl        (reports the first step the rules forbid)
  fsm check --explain --sources ../shared spec/scenarios/4e-reaction-when-hit.json
  fsm check --at 3 spec/scenarios/4e-reaction-between-attack-rolls.json
  fsm check --format markdown spec/scenarios/pf2-disrupted-spell.json > answer.md
  fsm check --format bbcode spec/scenarios/pf2-disrupted-spell.json   (for a forum post)
  fsm check spec/scenarios/4e-interrupt-shift-away.json --diagram shift.svg
                                        (also writes shift.sequence.mmd)
"""


def _check_log(path, args, style) -> int:
    rep = replay_log(path)
    if args.format == "json":
        out = {"file": rep.path, "steps": rep.steps, "gm": rep.gm, "ok": rep.ok,
               "failures": [{"line": l, "step": i, "message": m} for l, i, m in rep.failures]}
        if rep.forbidden:
            line, index, v, data = rep.forbidden
            out["forbidden"] = {"line": line, "step": index, **v.as_dict(),
                                "do": data.get("do"), "actor": data.get("actor")}
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for line, index, msg in rep.failures:
            print(f"{path}:{line}: step {index}: {style.paint('FAIL', '31;1')} {msg}")
        if rep.forbidden:
            line, index, v, data = rep.forbidden
            print(f"{path}:{line}: step {index}: {describe(data)} is "
                  f"{style.verdict('rejected')}: {v.reason} [{', '.join(v.rules)}]")
            if v.says:
                print(f"  why: {v.says}")
        print(f"{path}: {rep.steps} steps replayed, {rep.gm} left to the GM, "
              + ("every step allowed by the rules" if rep.ok else
                 "stopped at the first step the rules forbid" if rep.forbidden else
                 f"{len(rep.failures)} expectation(s) failed"))
    return 0 if rep.ok else 1


def cmd_check(args) -> int:
    style = Style(args.color == "always" or (args.color == "auto" and sys.stdout.isatty()))
    sources_folder(args.sources)
    if args.at is not None and len(args.files) != 1:
        raise InputError(args.files[0], "--at takes exactly one scenario")
    if args.diagram is not None:
        from .diagram import check_diagram_option
        check_diagram_option(args)
    cites = Citations(sources=args.sources)
    reports = []
    failed = False
    for path in args.files:
        if is_log(path):
            code = _check_log(path, args, style)
            failed = failed or code == 1
            continue
        doc, lines = load_source(path)
        enc = build(doc, path)
        if args.at is not None:
            return _check_at(doc, path, enc, lines, args, style)
        rep = replay(doc, path, enc, lines)
        failed = failed or not rep.ok
        reports.append(rep)
    if args.format == "json":
        payload = [report.as_json(r, cites) for r in reports]
        if payload:
            json.dump(payload[0] if len(payload) == 1 else payload, sys.stdout, indent=2,
                      ensure_ascii=False)
            sys.stdout.write("\n")
    elif args.format in ("markdown", "bbcode"):
        write = report.markdown if args.format == "markdown" else report.bbcode
        sys.stdout.write("\n".join(write(r, cites, args.explain) for r in reports))
    else:
        for rep in reports:
            sys.stdout.write(report.text(rep, cites, style, args.explain))
    if args.diagram is not None:
        from .diagram import draw_scenario
        draw_scenario(args.files[0], args.diagram)
    return 1 if failed else 0


def _check_at(doc, path, enc, lines, args, style) -> int:
    steps = doc["steps"]
    if not 0 <= args.at <= len(steps):
        raise InputError(path, f"--at {args.at}: the scenario has steps 1 to {len(steps)} "
                               f"(0: before the first)")
    for index, data in enumerate(steps[:args.at], 1):
        play_step(enc, data, path, index, lines)
    if args.format == "json":
        json.dump(report.possible_json(enc, args.at), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.format in ("markdown", "bbcode"):
        markup = report.MARKDOWN if args.format == "markdown" else report.BBCODE
        sys.stdout.write(report.possible_markdown(enc, args.at, markup))
    else:
        sys.stdout.write(report.possible_text(enc, args.at, style))
    return 0
