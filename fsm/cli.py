"""The ``fsm`` command line.

Exit status, for every command: 0 success, 1 a check failed (an expectation,
a vector, a stale diagram, a gap in the spec), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys

from . import __version__
from .scenario import InputError, build, is_log, load_source, replay, replay_log

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
  fsm check my-engine-game.jsonl        (reports the first step the rules forbid)
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
            print(f"{path}:{line}: step {index}: {_describe(data)} is "
                  f"{style.verdict('rejected')}: {v.reason} [{', '.join(v.rules)}]")
            if v.says:
                print(f"  {v.guard}: {v.says}")
        print(f"{path}: {rep.steps} steps replayed, {rep.gm} left to the GM, "
              + ("every step allowed by the rules" if rep.ok else
                 "stopped at the first step the rules forbid" if rep.forbidden else
                 f"{len(rep.failures)} expectation(s) failed"))
    return 0 if rep.ok else 1


def cmd_check(args) -> int:
    style = Style(args.color == "always" or (args.color == "auto" and sys.stdout.isatty()))
    reports = []
    failed = False
    for path in args.files:
        if is_log(path):
            code = _check_log(path, args, style)
            failed = failed or code == 1
            continue
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


SEEDS_ENV = "FSM_SOURCES"


def _spec_texts(spec_mod, spec, folder):
    if folder is None:
        return None
    if not os.path.isdir(folder):
        raise InputError(folder, "not a folder (--sources names the folder holding the texts)")
    return spec_mod.find_sources(spec, folder)


def _load_spec(spec_mod, root):
    try:
        return spec_mod.load(root)
    except (spec_mod.SpecError, RuntimeError) as exc:
        print(f"fsm spec: {exc}", file=sys.stderr)
        return None


def cmd_spec_check(args) -> int:
    from . import spec as spec_mod
    spec = _load_spec(spec_mod, args.root)
    if spec is None:
        return 2
    texts = _spec_texts(spec_mod, spec, args.sources)
    map_path = spec.root / "spec" / "MAP.md"
    map_text = map_path.read_text(encoding="utf-8") if map_path.exists() else ""
    problems = spec_mod.check(spec, texts, map_text)
    cov = spec_mod.coverage(spec)
    total = sum(c["sentences"] for c in cov.values())
    covered = sum(c["covered"] for c in cov.values())
    if args.json:
        payload = spec_mod.sentence_json(spec, None)
        payload["ok"] = not problems
        payload["problems"] = problems
        payload["fingerprints_checked"] = texts is not None
        json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for problem in problems:
            print(f"  {problem}")
        for src, c in cov.items():
            pct = 100.0 * c["covered"] / c["sentences"] if c["sentences"] else 0.0
            print(f"{src}: {c['covered']}/{c['sentences']} sentences covered ({pct:.0f}%)")
        where = f"fingerprints verified against {args.sources}" if texts is not None \
            else "fingerprints not verified (no --sources)"
        rules = [r for r in spec.rules if r.get("status", "active") != "retired"]
        print(f"{covered}/{total} sentences, {len(rules)} rules, "
              f"{len(spec.divergences)} divergences, {len(spec.assumptions)} assumptions, "
              f"{len(spec.gm)} GM decisions; {where}")
        print("spec check: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def cmd_spec_show(args) -> int:
    from . import spec as spec_mod
    spec = _load_spec(spec_mod, args.root)
    if spec is None:
        return 2
    texts = _spec_texts(spec_mod, spec, args.sources)
    lines = spec_mod.show(spec, args.id, texts)
    if lines is None:
        ids = list(spec.sentence_by_id) + list(spec.rule_by_id) + \
            [e["id"] for _, e in spec.entries()]
        near = difflib.get_close_matches(args.id, ids, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        print(f"fsm spec show: no sentence, rule or divergence {args.id!r}{hint}",
              file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def cmd_spec_map(args) -> int:
    from . import spec as spec_mod
    spec = _load_spec(spec_mod, args.root)
    if spec is None:
        return 2
    text = spec_mod.render_map(spec)
    path = spec.root / "spec" / "MAP.md"
    if args.stdout:
        sys.stdout.write(text)
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


EPILOG_CONFORMANCE = """\
Without --program the vectors run against the reference machine in-process.
With --program, CMD is started once and spoken to in JSON lines on its
stdin/stdout (spec/PROTOCOL.md): a handshake, then one vector per line, one
result per line. Vectors the engine does not support are skipped; a crash, a
hang past --timeout, garbage or an answer for the wrong vector fails that
vector, the engine is restarted and the run goes on.

The last line is always: N passed, N failed, N skipped.
exit status: 0 no vector failed, 1 some failed, 2 bad input.
examples:
  fsm conformance
  fsm conformance spec/vectors --program "fsm serve" --junit report.xml
  fsm conformance --program "node my-engine.js" --timeout 5
"""


def cmd_conformance(args) -> int:
    from . import conformance as C
    vectors = C.collect(args.paths)
    if args.program:
        outcomes = C.run_program(vectors, args.program, args.timeout)
    else:
        outcomes = C.run_in_process(vectors)
    if args.junit:
        try:
            with open(args.junit, "w", encoding="utf-8") as fh:
                fh.write(C.junit(outcomes))
        except OSError as exc:
            raise InputError(args.junit, f"cannot write: {exc.strerror}") from None
    if args.json:
        json.dump({"outcomes": [{"id": o.id, "file": o.path, "status": o.status,
                                 "message": o.message, "details": o.details}
                                for o in outcomes],
                   "summary": C.summary(outcomes)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for o in outcomes:
            if o.status == C.FAIL:
                print(f"FAIL {o.id}: {o.message}")
            elif o.status == C.SKIP:
                print(f"SKIP {o.id}: {o.message}")
            elif args.verbose:
                print(f"ok   {o.id}")
        print(C.summary(outcomes))
    return 1 if any(o.status == C.FAIL for o in outcomes) else 0


def cmd_mutate(args) -> int:
    from . import conformance as C
    from .mutation import score
    results = score(C.collect(args.paths))
    killed = sum(1 for _, killers in results if killers)
    if args.json:
        json.dump({"mutants": [{"id": m.id, "ruleset": m.ruleset, "description": m.description,
                                "killed_by": killers} for m, killers in results],
                   "killed": killed, "total": len(results)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for m, killers in results:
            if killers:
                print(f"killed    {m.id}  ({len(killers)} vectors, e.g. {killers[0]})")
            else:
                print(f"SURVIVES  {m.id}  ({m.description})")
        print(f"{killed} of {len(results)} mutants killed")
    return 0 if killed == len(results) else 1


def cmd_serve(args) -> int:
    from .conformance import serve
    return serve(sys.stdin, sys.stdout)


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
                       help="scenario files (.json, .yaml, .yml) or engine event logs "
                            "(.jsonl: a setup line, then one step per line)")
    check.add_argument("--format", choices=("text", "json"), default="text",
                       help="text for people (default), json for programs")
    check.add_argument("--json", dest="format", action="store_const", const="json",
                       help="same as --format json")
    check.add_argument("--explain", action="store_true",
                       help="name the deciding guard and the values it saw")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the verdicts (auto: only on a terminal)")
    check.set_defaults(func=cmd_check)

    conf = sub.add_parser(
        "conformance", help="run the conformance vectors against the reference or an engine",
        description="Run conformance vectors and report each as passed, failed or skipped.",
        epilog=EPILOG_CONFORMANCE, formatter_class=argparse.RawDescriptionHelpFormatter)
    conf.add_argument("paths", nargs="*", metavar="PATH",
                      help="vector files or folders (default: spec/vectors)")
    conf.add_argument("--program", metavar="CMD",
                      help="an engine to test, started once (e.g. \"fsm serve\")")
    conf.add_argument("--timeout", type=float, default=10.0, metavar="S",
                      help="seconds an engine may take per vector (default 10)")
    conf.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    conf.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    conf.add_argument("-v", "--verbose", action="store_true", help="list passed vectors too")
    conf.set_defaults(func=cmd_conformance)

    mut = sub.add_parser(
        "mutate", help="mutation score: does some vector notice each guard switched off?",
        description="For each guard of each ruleset's table, rerun the vectors with that guard "
                    "switched off; also with interrupt and reaction timing swapped and with "
                    "the per-round refresh moved to the other end of the turn. A mutant "
                    "survives when no vector fails.",
        epilog="exit status: 0 every mutant killed, 1 some survive, 2 bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    mut.add_argument("paths", nargs="*", metavar="PATH",
                     help="vector files or folders (default: spec/vectors)")
    mut.add_argument("--json", action="store_true", help="print the score as JSON")
    mut.set_defaults(func=cmd_mutate)

    srv = sub.add_parser(
        "serve", help="speak the conformance protocol on stdin/stdout as the reference engine",
        description="Answer the JSON-lines conformance protocol (spec/PROTOCOL.md) on "
                    "stdin/stdout with the reference machine, until stdin closes.")
    srv.set_defaults(func=cmd_serve)

    spec = sub.add_parser(
        "spec", help="the sentence map: check it, show a chain, regenerate MAP.md",
        description="Every sentence of the three texts is traced to rules, transitions, "
                    "guards, tests and vectors. The texts themselves are never stored: give "
                    "your copies with --sources to verify fingerprints or print originals.")
    spec_sub = spec.add_subparsers(dest="spec_command", metavar="SUBCOMMAND")
    sc = spec_sub.add_parser(
        "check", help="exit 0 only when every sentence, rule and link holds",
        description="Check the whole map: every sentence covered, every rule implemented "
                    "by the table, tested (rule marker) and covered by a vector, every "
                    "reference resolving, MAP.md fresh; with --sources, every fingerprint "
                    "and the tiling of each text.",
        epilog="exit status: 0 the map holds, 1 problems were found, 2 bad usage.\n"
               "example: fsm spec check --sources ../shared/seeds",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("--sources", metavar="DIR", default=os.environ.get(SEEDS_ENV),
                    help=f"folder holding the texts, found by SHA-256 whatever their names "
                         f"(default: ${SEEDS_ENV})")
    sc.add_argument("--json", action="store_true",
                    help="print every sentence entry, divergence and assumption as JSON")
    sc.add_argument("--root", default=None, help=argparse.SUPPRESS)
    sc.set_defaults(func=cmd_spec_check)
    ss = spec_sub.add_parser(
        "show", help="the chain for a sentence, rule or divergence id",
        description="Print sentence -> paraphrase -> rule -> transitions -> tests -> vectors "
                    "for a sentence id (cs-4e.021), a rule id (4E-IMM-ONCE) or a divergence, "
                    "assumption or GM entry (DIV-OPP-TURN-SCOPE). With --sources, the "
                    "original sentence is printed beside the paraphrase.")
    ss.add_argument("id", help="a sentence, rule or divergence id")
    ss.add_argument("--sources", metavar="DIR", default=os.environ.get(SEEDS_ENV),
                    help="folder holding the texts (default: $FSM_SOURCES)")
    ss.add_argument("--root", default=None, help=argparse.SUPPRESS)
    ss.set_defaults(func=cmd_spec_show)
    sm = spec_sub.add_parser("map", help="regenerate spec/MAP.md",
                             description="Regenerate the readable map spec/MAP.md.")
    sm.add_argument("--stdout", action="store_true", help="print instead of writing the file")
    sm.add_argument("--root", default=None, help=argparse.SUPPRESS)
    sm.set_defaults(func=cmd_spec_map)
    spec.set_defaults(func=lambda args: (spec.print_help(), 2)[1])
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
