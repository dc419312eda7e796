"""The ``fsm`` command line.

Exit status, for every command: 0 success, 1 a check failed (an expectation,
a vector, a stale diagram, a gap in the spec), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import difflib
import json
from pathlib import Path
import math
import os
import sys

from . import __version__
from . import report
from .report import Citations, Style, describe
from .scenario import (InputError, build, is_log, load_source, play_step, replay,
                       replay_log)

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
  fsm check --explain --sources ../shared/seeds spec/scenarios/4e-reaction-when-hit.json
  fsm check --at 3 spec/scenarios/4e-reaction-between-attack-rolls.json
  fsm check --format markdown spec/scenarios/pf2-disrupted-spell.json > answer.md
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
                print(f"  {v.guard}: {v.says}")
        print(f"{path}: {rep.steps} steps replayed, {rep.gm} left to the GM, "
              + ("every step allowed by the rules" if rep.ok else
                 "stopped at the first step the rules forbid" if rep.forbidden else
                 f"{len(rep.failures)} expectation(s) failed"))
    return 0 if rep.ok else 1


def cmd_check(args) -> int:
    style = Style(args.color == "always" or (args.color == "auto" and sys.stdout.isatty()))
    if args.sources is not None and not os.path.isdir(args.sources):
        raise InputError(args.sources, "not a folder (--sources names the folder holding "
                                       "the texts)")
    if args.at is not None and len(args.files) != 1:
        raise InputError(args.files[0], "--at takes exactly one scenario")
    if args.diagram is not None:
        _check_diagram_option(args)
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
    elif args.format == "markdown":
        sys.stdout.write("\n".join(report.markdown(r, cites, args.explain) for r in reports))
    else:
        for rep in reports:
            sys.stdout.write(report.text(rep, cites, style, args.explain))
    if args.diagram is not None:
        _draw_scenario(args.files[0], args.diagram)
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
    elif args.format == "markdown":
        sys.stdout.write(report.possible_markdown(enc, args.at))
    else:
        sys.stdout.write(report.possible_text(enc, args.at, style))
    return 0


SEEDS_ENV = "FSM_SOURCES"


def _spec_texts(spec_mod, spec, folder):
    if folder is None:
        return None
    if not os.path.isdir(folder):
        raise InputError(folder, "not a folder (--sources names the folder holding the texts)")
    return spec_mod.find_sources(spec, folder)


def _load_spec(spec_mod, root, with_tests=True):
    try:
        return spec_mod.load(root, with_tests=with_tests)
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
    problems += _timing_problems(spec)
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


def _timing_problems(spec) -> list:
    """TIMING.md's citations and table names, and PRECEDENCE.md's freshness."""
    from . import timing
    sdir = spec.root / "spec"
    path = sdir / "TIMING.md"
    if not path.exists():
        return [f"{path}: missing (the written timing of the machine)"]
    known = set(spec.sentence_by_id) | {e["id"] for _, e in spec.entries()}
    precedence = sdir / "PRECEDENCE.md"
    fresh = precedence.read_text(encoding="utf-8") if precedence.exists() else ""
    return timing.check(path.read_text(encoding="utf-8"), known, fresh)


def cmd_spec_show(args) -> int:
    from . import spec as spec_mod
    root = Path(args.root or spec_mod.default_root())
    # the links to tests need a checkout; the rest of the chain does not
    spec = _load_spec(spec_mod, root, with_tests=(root / "tests").is_dir())
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
    from . import timing
    text = spec_mod.render_map(spec)
    path = spec.root / "spec" / "MAP.md"
    if args.stdout:
        sys.stdout.write(text)
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    precedence = spec.root / "spec" / "PRECEDENCE.md"
    precedence.write_text(timing.render_precedence(), encoding="utf-8")
    print(f"wrote {precedence}")
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


def cmd_generate(args) -> int:
    from . import covering
    from .spec import default_root
    vectors, coverage = covering.generate(jobs=args.jobs)
    files = covering.render(vectors, coverage)
    root = args.root or default_root()
    if args.check:
        bad = covering.stale(root, files)
        for name in bad:
            print(f"  stale: {name}")
        print("generated vectors: " + ("fresh" if not bad else
                                       f"{len(bad)} file(s) stale: run fsm conformance "
                                       f"--generate"))
        return 1 if bad else 0
    covering.write(root, files)
    for line in covering.summary_lines(coverage):
        print(line)
    print(f"wrote {len(vectors)} vectors under {covering.folders(root)[0]}")
    return 0


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, "
                                         f"not {text}")
    return value


def cmd_fuzz(args) -> int:
    from .conformance import EngineError
    from .fuzz import fuzz
    if not args.program:
        raise InputError("--fuzz", "fuzzing compares an engine with the reference: give "
                                   "--program CMD")
    if args.fuzz < 1:
        raise InputError("--fuzz", f"the number of timelines must be at least 1, not {args.fuzz}")
    try:
        found, runs = fuzz(args.program, args.fuzz, args.seed, args.timeout)
    except EngineError as exc:
        print(f"fsm conformance --fuzz: handshake: {exc}", file=sys.stderr)
        return 1
    if found is None:
        print(f"fuzz: {runs} timelines (seed {args.seed}), no disagreement with the reference")
        return 0
    folder = args.out or "."
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, found.vector["id"] + ".json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(found.vector, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"fuzz: the engine disagrees with the reference after {runs} timelines "
          f"(seed {args.seed}); shortest timeline: {len(found.vector['steps'])} steps")
    for problem in found.problems[:5]:
        print(f"  {problem}")
    print(f"wrote {path} (replay it: fsm check {path}; "
          f"run it: fsm conformance {path} --program ...)")
    return 1


def cmd_conformance(args) -> int:
    from . import compat
    from . import conformance as C
    if args.generate or args.check_generated:
        args.check = args.check_generated
        return cmd_generate(args)
    if args.fuzz is not None:
        return cmd_fuzz(args)
    vectors = C.collect(args.paths)
    if args.program:
        outcomes = C.run_program(vectors, args.program, args.timeout)
    else:
        outcomes = C.run_in_process(vectors)
    engine = args.program or "the fsm reference machine"
    if args.junit:
        _write_report(args.junit, C.junit(outcomes))
    if args.report:
        page = compat.html_page if args.report.endswith((".html", ".htm")) else compat.markdown
        _write_report(args.report, page(outcomes, vectors, engine))
    if args.json:
        json.dump(compat.as_json(outcomes, vectors, engine), sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
        print(C.summary(outcomes), file=sys.stderr)
    else:
        for o in outcomes:
            if o.status == C.FAIL:
                print(f"FAIL {o.id}: {o.message}")
            elif o.status == C.SKIP:
                print(f"SKIP {o.id}: {o.message}")
            elif args.verbose:
                print(f"ok   {o.id}")
        if args.verbose or args.report:
            print(compat.headline(outcomes, vectors))
        print(C.summary(outcomes))
    return 1 if any(o.status == C.FAIL for o in outcomes) else 0


def _write_report(path, text) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(path, f"cannot write: {exc.strerror}") from None


def cmd_mutate(args) -> int:
    from . import conformance as C
    from .mutation import FAMILIES, score
    families = FAMILIES if args.family == "all" else (args.family,)
    vectors = C.collect(args.paths)
    scores = {name: score(vectors, families=(name,)) for name in families}
    results = [pair for name in families for pair in scores[name]]
    killed = sum(1 for _, killers in results if killers)
    if args.json:
        json.dump({"mutants": [{"id": m.id, "family": name, "ruleset": m.ruleset,
                                "description": m.description, "killed_by": killers}
                               for name in families for m, killers in scores[name]],
                   "families": {name: {"killed": sum(1 for _, k in scores[name] if k),
                                       "total": len(scores[name])} for name in families},
                   "killed": killed, "total": len(results)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for m, killers in results:
            if killers:
                print(f"killed    {m.id}  ({len(killers)} vectors, e.g. {killers[0]})")
            else:
                print(f"SURVIVES  {m.id}  ({m.description})")
        print("; ".join(f"{name}: {sum(1 for _, k in scores[name] if k)} of "
                        f"{len(scores[name])}" for name in families))
        print(f"{killed} of {len(results)} mutants killed")
    return 0 if killed == len(results) else 1


def cmd_serve(args) -> int:
    from .conformance import serve
    return serve(sys.stdin, sys.stdout)


# -- fsm diagram, and fsm check --diagram ---------------------------------------

EPILOG_DIAGRAM = """\
Pictures of the machine, drawn from the transition table (fsm/table.py):
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


def _add_diagram_parser(sub) -> None:
    dia = sub.add_parser(
        "diagram", help="draw the machine (DOT, SVG, PNG, Mermaid); check diagrams/ is fresh",
        description="Draw the machine of a ruleset from the one transition table, or "
                    "regenerate and check the committed pictures.",
        epilog=EPILOG_DIAGRAM, formatter_class=argparse.RawDescriptionHelpFormatter)
    dia.add_argument("ruleset", nargs="?", metavar="RULESET", help="dnd4e or pf2e")
    dia.add_argument("--view", choices=("overview", "windows"), default="overview",
                     help="overview (default) or the trigger windows in detail")
    dia.add_argument("--format", choices=("dot", "svg", "png", "mermaid"),
                     help="default: from -o's extension, else dot")
    dia.add_argument("-o", "--output", metavar="FILE", help="write to FILE")
    whole = dia.add_mutually_exclusive_group()
    whole.add_argument("--check", action="store_true",
                       help="regenerate every committed picture and fail on any difference")
    whole.add_argument("--write", action="store_true",
                       help="regenerate every committed picture under diagrams/")
    dia.add_argument("--dir", metavar="DIR", help=argparse.SUPPRESS)
    dia.set_defaults(func=cmd_diagram)


def cmd_diagram(args) -> int:
    from . import diagrams
    try:
        if args.check or args.write:
            return _diagram_all(diagrams, args)
        if args.ruleset is None:
            raise diagrams.DiagramError("name a ruleset (dnd4e or pf2e), or give --check "
                                        "or --write")
        fmt = args.format or (diagrams.format_for(args.output) if args.output else "dot")
        data = diagrams.render(args.ruleset, args.view, fmt)
        if args.output:
            with open(args.output, "wb") as fh:
                fh.write(data)
        elif fmt == "png":
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data.decode("utf-8"))
    except diagrams.DiagramError as exc:
        print(f"fsm diagram: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fsm diagram: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0


def _diagram_all(diagrams, args) -> int:
    if args.ruleset or args.output or args.format:
        raise diagrams.DiagramError("--check and --write take no ruleset, -o or --format")
    folder = diagrams.Path(args.dir) if args.dir else diagrams.DIAGRAMS_DIR
    if args.write:
        for path in diagrams.write_all(folder):
            print(f"wrote {path}")
        return 0
    if not folder.is_dir():
        if not args.dir:
            raise diagrams.DiagramError("the committed diagrams/ are part of a checkout of "
                                        "the project, not of an installed package; give "
                                        "--dir FOLDER to check a folder of diagrams")
        raise diagrams.DiagramError(f"no folder {folder} to check")
    result = diagrams.check_all(folder)
    print("\n".join(diagrams.check_lines(result, folder)))
    return 0 if result.ok else 1


def _check_diagram_option(args) -> None:
    from . import diagrams
    if len(args.files) != 1 or is_log(args.files[0]):
        raise InputError(args.files[0], "--diagram draws exactly one scenario "
                                        "(not an event log)")
    if args.at is not None:
        raise InputError(args.files[0], "--diagram draws the whole scenario; leave out --at")
    try:
        diagrams.format_for(args.diagram)
    except diagrams.DiagramError as exc:
        raise InputError(args.diagram, str(exc).split(": ", 1)[-1]) from None


def _draw_scenario(path, target) -> None:
    from . import diagrams
    try:
        written = diagrams.draw_scenario(path, target)
    except diagrams.DiagramError as exc:
        raise InputError(target, str(exc)) from None
    except OSError as exc:
        raise InputError(target, f"cannot write: {exc.strerror}") from None
    for drawn in written:
        print(f"wrote {drawn}", file=sys.stderr)


# -- fsm explore ------------------------------------------------------------------

EPILOG_EXPLORE = """\
Walks every timeline of a small encounter, breadth first: each turn action by
each combatant, each kind of answer by the answering combatants to each
trigger on the stack, resolve, continue, lose or disrupt, an event, the end
of the turn. Every invariant is checked after every step; the first broken
one is written, with the shortest timeline that breaks it, as a vector that
fsm check replays.

Bounds: states past the last of --rounds are checked but not expanded; so
are stacks of more than --depth frames above the turn (a frame that spends
no budget, such as a free action or an event, only as the first of them);
answers come from --responders combatants at a time, every such set in turn.

--audit also asks, in every reachable situation, whether each step kind is
decided by exactly one table row or one refusal; a gap passes only when
spec/divergences.yaml records it under gaps: with the id printed here.

exit status: 0 clean, 1 an invariant broke or the audit found an unrecorded
gap, 2 bad usage.
examples:
  fsm explore dnd4e
  fsm explore pf2e --combatants 3 --rounds 2 --responders 2 --audit
  fsm explore dnd4e --option opportunity_limit_turns=enemy --json
  fsm explore dnd4e --combatants 4 --out counterexamples
"""


def _add_explore_parser(sub) -> None:
    exp = sub.add_parser(
        "explore", help="walk every bounded timeline, check every invariant, audit the table",
        description="Breadth-first exploration of every timeline of a small encounter.",
        epilog=EPILOG_EXPLORE, formatter_class=argparse.RawDescriptionHelpFormatter)
    exp.add_argument("ruleset", metavar="RULESET", help="dnd4e or pf2e")
    exp.add_argument("--combatants", type=int, default=3, metavar="N",
                     help="combatants c1..cN on alternating sides (default 3)")
    exp.add_argument("--rounds", type=int, default=2, metavar="R", help="rounds (default 2)")
    exp.add_argument("--depth", type=int, default=2, metavar="D",
                     help="frames above the turn a timeline may stack (default 2)")
    exp.add_argument("--responders", type=int, default=1, metavar="K",
                     help="combatants answering triggers in one timeline (default 1; "
                          "every set of K is explored)")
    exp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a ruleset option, as in a scenario (repeatable)")
    exp.add_argument("--audit", action="store_true",
                     help="also list situations no row decides or two rows could decide")
    exp.add_argument("--json", action="store_true", help="print the result as JSON")
    exp.add_argument("--out", default=".", metavar="DIR",
                     help="where to write a counterexample vector (default: .)")
    exp.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                     help="processes sharing the runs (default: one per CPU)")
    exp.add_argument("--engine", choices=("lean", "transitions"), default="lean",
                     help="dispatch through the lean table walker (default) or transitions")
    exp.add_argument("--max-states", type=int, metavar="N", help=argparse.SUPPRESS)
    exp.set_defaults(func=cmd_explore)


def cmd_explore(args) -> int:
    from . import explore as X
    try:
        cfg = X.Config(args.ruleset, args.combatants, args.rounds, args.depth,
                       responders=args.responders, engine=args.engine,
                       max_states=args.max_states)
        X.check_config(cfg)
        cfg.options = dict(X.parse_option(text, args.ruleset) for text in args.option)
    except ValueError as exc:
        print(f"fsm explore: {exc}", file=sys.stderr)
        return 2
    bar = X.ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        result = X.explore(cfg, bar, jobs=max(1, args.jobs))
    finally:
        if bar is not None:
            bar.close()
    try:
        written = X.write_counterexample(result, args.out) if result.violation else None
    except OSError as exc:
        print(f"fsm explore: cannot write to {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    recorded = X.recorded_gaps() if args.audit else set()
    missing = X.unrecorded_gaps(result, recorded) if args.audit else []
    if args.json:
        payload = X.report_json(result, written)
        if args.audit:
            payload["audit"] = X.audit_json(result, recorded)
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(X.render_text(result, written, args.audit, recorded))
    return 1 if result.violation is not None or missing else 0


class _Parser(argparse.ArgumentParser):
    """Usage mistakes get one line (and where to read more), exit status 2;
    the subcommands' parsers are of this class too."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    check.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                       help="text for a terminal (default), json for programs, markdown "
                            "to paste into a forum thread or an issue")
    check.add_argument("--json", dest="format", action="store_const", const="json",
                       help="same as --format json")
    check.add_argument("--explain", action="store_true",
                       help="name the deciding guard and the values it saw")
    check.add_argument("--sources", metavar="DIR", default=os.environ.get("FSM_SOURCES"),
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

    conf = sub.add_parser(
        "conformance", help="run the conformance vectors against the reference or an engine",
        description="Run conformance vectors and report each as passed, failed or skipped.",
        epilog=EPILOG_CONFORMANCE, formatter_class=argparse.RawDescriptionHelpFormatter)
    conf.add_argument("paths", nargs="*", metavar="PATH",
                      help="vector files or folders, searched to any depth (default: "
                           "spec/vectors, generated ones included, and spec/scenarios)")
    conf.add_argument("--program", metavar="CMD",
                      help="an engine to test, started once (e.g. \"fsm serve\")")
    conf.add_argument("--timeout", type=_seconds, default=10.0, metavar="S",
                      help="seconds an engine may take per vector (default 10)")
    conf.add_argument("--json", action="store_true",
                      help="print the outcomes, and each rule's status, as JSON on stdout "
                           "(the summary line then goes to stderr)")
    conf.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    conf.add_argument("--report", metavar="FILE",
                      help="also write a compatibility report by rule id: HTML for "
                           "*.html, Markdown otherwise")
    conf.add_argument("-v", "--verbose", action="store_true", help="list passed vectors too")
    conf.add_argument("--generate", action="store_true",
                      help="walk the reachable graph of small encounters and write the "
                           "covering vectors under spec/vectors/generated/ (and "
                           "spec/COVERAGE.json), instead of running vectors")
    conf.add_argument("--check-generated", action="store_true",
                      help="exit 1 if spec/vectors/generated/ is not what --generate writes")
    conf.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                      help="processes for --generate (default: the CPUs)")
    conf.add_argument("--fuzz", type=int, metavar="N", default=None,
                      help="instead of the vectors, drive --program with up to N random "
                           "timelines, compare each step with the reference, and write "
                           "the shortest disagreement as a vector")
    conf.add_argument("--seed", type=int, default=0, metavar="S",
                      help="seed of --fuzz: the same seed gives the same timelines")
    conf.add_argument("--out", metavar="DIR", default=None,
                      help="where --fuzz writes the vector it found (default: here)")
    conf.add_argument("--root", default=None, help=argparse.SUPPRESS)
    conf.set_defaults(func=cmd_conformance)

    mut = sub.add_parser(
        "mutate", help="mutation score: does some vector notice each guard switched off?",
        description="Two families of mutants. guards: each guard of each ruleset's table "
                    "switched off, each timing guard of the machine rows forced to always "
                    "and to never fire, the effects that close or keep windows dropped, "
                    "interrupt and reaction timing swapped, the per-round refresh moved. "
                    "mistakes: engines with the bugs engine authors make (fsm/mistakes.py). "
                    "A mutant survives when no vector fails.",
        epilog="exit status: 0 every mutant killed, 1 some survive, 2 bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    mut.add_argument("paths", nargs="*", metavar="PATH",
                     help="vector files or folders (default: spec/vectors and spec/scenarios)")
    mut.add_argument("--json", action="store_true", help="print the score as JSON")
    mut.add_argument("--family", choices=("all", "guards", "mistakes"), default="all",
                     help="guards: the reference's guards and timing switched off or "
                          "forced; mistakes: engines with the bugs engine authors make "
                          "(wrong defaults, refresh moments, shared budgets, refunds, "
                          "order of checks); default: both")
    mut.set_defaults(func=cmd_mutate)

    srv = sub.add_parser(
        "serve", help="speak the conformance protocol on stdin/stdout as the reference engine",
        description="Answer the JSON-lines conformance protocol (spec/PROTOCOL.md) on "
                    "stdin/stdout with the reference machine, until stdin closes.")
    srv.set_defaults(func=cmd_serve)

    _add_diagram_parser(sub)
    _add_explore_parser(sub)

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
                    "reference resolving, MAP.md and PRECEDENCE.md fresh, every clause "
                    "of TIMING.md citing what exists and naming what the table has; with "
                    "--sources, every fingerprint and the tiling of each text.",
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
    sm = spec_sub.add_parser("map", help="regenerate spec/MAP.md and spec/PRECEDENCE.md",
                             description="Regenerate the readable map spec/MAP.md and the "
                                         "precedence of checks spec/PRECEDENCE.md, both "
                                         "generated from the spec files and the table.")
    sm.add_argument("--stdout", action="store_true", help="print instead of writing the file")
    sm.add_argument("--root", default=None, help=argparse.SUPPRESS)
    sm.set_defaults(func=cmd_spec_map)
    spec.set_defaults(func=lambda args: (spec.print_help(), 2)[1])
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
    except InputError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"fsm {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
