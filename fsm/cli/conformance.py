"""fsm conformance (run, generate, fuzz), fsm mutate and fsm serve: the
conformance suite and what certifies it."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from ..errors import EngineError, EngineNotStarted, InputError
from ..paths import default_root
from ..io.terminal import safe
from ..io.writing import cannot_write, check_file, check_folder, write_new, write_whole
from .common import RawFormatter, command, cpus, output_path, processes, seconds


def add_parser(sub) -> None:
    conf = sub.add_parser(
        "conformance", help="run the conformance vectors against the reference or an engine",
        description="Run conformance vectors and report each as passed, failed or skipped.",
        epilog=EPILOG_CONFORMANCE, formatter_class=RawFormatter)
    conf.add_argument("paths", nargs="*", metavar="PATH",
                      help="vector files or folders, searched to any depth (default: "
                           "spec/vectors, generated ones included, and spec/scenarios)")
    conf.add_argument("--program", metavar="CMD", type=command,
                      help="an engine to test, started once and run by /bin/sh -c as a "
                           "shell runs a command line (e.g. \"fsm serve\", \"cd engine && "
                           "node main.js\", \"RUST_LOG=warn ./engine 2>engine.log\")")
    conf.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                      help="seconds an engine may take per vector (default 10, at most a "
                           "day)")
    conf.add_argument("--handshake-timeout", type=seconds, default=None, metavar="S",
                      help="seconds an engine may take to start and say hello, each time "
                           "it is started (default 60: a cold JVM or ts-node takes several; "
                           "never less than --timeout)")
    conf.add_argument("--json", action="store_true",
                      help="print the outcomes, and each rule's status, as JSON on stdout "
                           "(the summary line then goes to stderr)")
    conf.add_argument("--junit", metavar="FILE", type=output_path,
                      help="also write a JUnit XML report")
    conf.add_argument("--report", metavar="FILE", type=output_path,
                      help="also write a compatibility report by rule id: HTML for "
                           "*.html, Markdown otherwise")
    conf.add_argument("-v", "--verbose", action="store_true", help="list passed vectors too")
    conf.add_argument("--generate", action="store_true",
                      help="walk the reachable graph of small encounters and write the "
                           "covering vectors under spec/vectors/generated/ (and "
                           "spec/COVERAGE.json), instead of running vectors")
    conf.add_argument("--check-generated", action="store_true",
                      help="exit 1 if spec/vectors/generated/ is not what --generate writes")
    conf.add_argument("--jobs", type=processes, default=cpus(), metavar="N",
                      help="processes for --generate (default: the CPUs)")
    conf.add_argument("--fuzz", type=int, metavar="N", default=None,
                      help="instead of the vectors, drive --program with up to N random "
                           "timelines, compare each step with the reference, and write "
                           "the shortest disagreement as a vector")
    conf.add_argument("--seed", type=int, default=0, metavar="S",
                      help="seed of --fuzz: the same seed gives the same timelines")
    conf.add_argument("--out", metavar="PATH", default=None, type=output_path,
                      help="where --fuzz writes the vector it found: a folder (made if "
                           "need be; default: here) or a .json file. A file already there "
                           "is never replaced: the vector gets a fresh name beside it "
                           "(NAME-2.json...); if it cannot be written at all, it is "
                           "printed on stdout")
    conf.add_argument("--root", default=None, help=argparse.SUPPRESS)
    conf.set_defaults(func=cmd_conformance)

    mut = sub.add_parser(
        "mutate", help="mutation score: does some vector notice each guard switched off?",
        description="Two families of mutants. guards: each guard of each ruleset's table "
                    "switched off, each timing guard of the machine rows forced to always "
                    "and to never fire, the effects that close or keep windows dropped, "
                    "interrupt and reaction timing swapped, the per-round refresh moved. "
                    "mistakes: engines with the bugs engine authors make (fsm/conformance/mistakes.py). "
                    "A mutant survives when no vector fails.",
        epilog="Each family is scored twice: as an engine reporting every fact and rule id "
               "is judged, and as one reporting verdicts and reason codes only (a few "
               "mutants no verdict can show are counted apart, each with its reason).\n"
               "exit status: 0 every mutant killed both ways, 1 some survive, 2 bad input.",
        formatter_class=RawFormatter)
    mut.add_argument("paths", nargs="*", metavar="PATH",
                     help="vector files or folders (default: spec/vectors and spec/scenarios)")
    mut.add_argument("--json", action="store_true", help="print the score as JSON")
    mut.add_argument("--every-vector", action="store_true",
                     help="run every vector on every mutant and count all that kill it "
                          "(slower; by default a mutant is left once two vectors kill it)")
    mut.add_argument("--family", choices=("all", "guards", "mistakes", "zoo"), default="all",
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


EPILOG_CONFORMANCE = """\
Without --program the vectors run against the reference machine in-process.
With --program, CMD is run by /bin/sh -c (so cd, VAR=value, pipes and
redirections work as in a shell) and spoken to in JSON lines on its
stdin/stdout (spec/PROTOCOL.md): a handshake, then one vector per line, one
result per line. What it writes to stderr is not read as protocol, but its
last lines are shown when it crashes or fails its handshake. Vectors the
engine does not support are skipped; a crash, a hang past --timeout, garbage
or an answer for the wrong vector fails that vector, the engine is restarted
and the run goes on. An engine that fails its handshake (no hello within
--handshake-timeout) fails every vector, said in one line. However the run
ends, Ctrl-C included, every process the engine started is ended.

The last line is always: N passed, N failed, N skipped.
The engine's hello is checked first: a ruleset, option, option value, step
kind, step field, fact, report or feature the suite does not know is a
handshake failure, in one line naming the nearest known name.
exit status: 0 no vector failed and some ran, 1 some failed or none ran (every
vector skipped), 2 bad input (a --program the shell cannot run at all: no
such program, a command line that does not parse), 130 interrupted.
examples:
  fsm conformance
  fsm conformance spec/vectors --program "fsm serve" --junit report.xml
  fsm conformance --program "node my-engine.js" --timeout 5
  fsm conformance --program "cd ../my-engine && npx tsx src/main.ts"
"""


@contextmanager
def _terminate_as_interrupt():
    """SIGTERM (a CI job cancelled, say) ends a run as Ctrl-C does: the
    engine and every process it started are ended, then exit 130."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def cmd_generate(args) -> int:
    from ..conformance import covering
    root = args.root or default_root()
    if not args.check:
        for folder in covering.folders(root):
            check_folder(folder)
    vectors, coverage = covering.generate(jobs=args.jobs)
    files = covering.render(vectors, coverage)
    if args.check:
        bad = covering.stale(root, files)
        for name in bad:
            print(f"  stale: {name}")
        print("generated vectors: " + ("fresh" if not bad else
                                       f"{len(bad)} file(s) stale: run fsm conformance "
                                       f"--generate"))
        return 1 if bad else 0
    try:
        covering.write(root, files)
    except OSError as exc:
        raise cannot_write(exc.filename or covering.folders(root)[0], exc) from None
    for line in covering.summary_lines(coverage):
        print(line)
    print(f"wrote {len(vectors)} vectors under {covering.folders(root)[0]}")
    return 0


def cmd_fuzz(args) -> int:
    from ..conformance.fuzz import Language, fuzz
    try:
        import hypothesis  # noqa: F401  (only --fuzz needs it)
    except ImportError:
        raise InputError("--fuzz", "fuzzing needs Hypothesis: install fsm with its 'fuzz' "
                                   "extra, python -m pip install 'PATH[fuzz]' (PATH: the "
                                   "checkout or wheel you installed)") from None
    if not args.program:
        raise InputError("--fuzz", "fuzzing compares an engine with the reference: give "
                                   "--program CMD")
    if args.fuzz < 1:
        raise InputError("--fuzz", f"the number of timelines must be at least 1, not {args.fuzz}")
    (check_file if _out_is_file(args.out) else check_folder)(args.out or ".")
    try:
        language = Language()
        with _terminate_as_interrupt():
            found, runs = fuzz(args.program, args.fuzz, args.seed, args.timeout,
                               language=language, handshake=args.handshake_timeout)
    except EngineNotStarted:
        raise                    # bad input: exit 2
    except EngineError as exc:
        print(f"fsm conformance --fuzz: handshake: {exc}", file=sys.stderr)
        return 1
    if found is None:
        print(f"fuzz: {runs} timelines (seed {args.seed}), no disagreement with the reference")
        print(f"fuzz: the timelines touched {language.summary()}")
        return 0
    print(f"fuzz: the engine disagrees with the reference after {runs} timelines "
          f"(seed {args.seed}); shortest timeline: {len(found.vector['steps'])} steps")
    for problem in found.problems[:5]:
        print(f"  {problem}")
    path = keep_vector(found.vector, args.out)
    if path is not None:
        print(f"wrote {path} (replay it: fsm check {path}; "
              f"run it: fsm conformance {path} --program ...)")
    return 1


def _out_is_file(out) -> bool:
    """--out names a file (one there, or a new .json), else a folder."""
    return out is not None and (os.path.isfile(out) or
                                (not os.path.isdir(out) and out.lower().endswith(".json")))


def keep_vector(vector: dict, out) -> str | None:
    """Write the vector --fuzz found where --out says, never over a file
    (a fresh name instead; in a folder the vector's id follows its file's
    name); when that cannot be written, print it on stdout, with one line on
    stderr. Return the path written, or None."""
    def text(path) -> str:
        doc = vector if as_file else {**vector, "id": path.stem}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

    as_file = _out_is_file(out)
    target = Path(out) if as_file else Path(out or ".", vector["id"] + ".json")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return str(write_new(target, text))
    except OSError as exc:
        print(f"fsm conformance: {cannot_write(target, exc).render()}; the vector "
              f"follows on stdout", file=sys.stderr)
        sys.stdout.write(text(target))
        return None


def cmd_conformance(args) -> int:
    from ..conformance import compat
    from .. import conformance as C
    if args.generate or args.check_generated:
        args.check = args.check_generated
        return cmd_generate(args)
    if args.fuzz is not None:
        return cmd_fuzz(args)
    for report in (args.junit, args.report):
        if report:
            check_file(report)
    vectors = C.collect(args.paths)
    hello: dict = {}
    if args.program:
        with _terminate_as_interrupt():
            outcomes = C.run_program(vectors, args.program, args.timeout, hello,
                                     args.handshake_timeout)
    else:
        outcomes = C.run_in_process(vectors)
    # the reports name the engine as its handshake does, else by its command
    engine = str(hello.get("engine") or args.program or "the fsm reference machine")
    if args.junit:
        write_whole(args.junit, C.junit(outcomes))
    if args.report:
        page = compat.html_page if args.report.endswith((".html", ".htm")) else compat.markdown
        write_whole(args.report, page(outcomes, vectors, engine))
    if args.json:
        json.dump(compat.as_json(outcomes, vectors, engine), sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
        print(C.summary(outcomes), file=sys.stderr)
    elif _no_handshake(outcomes):
        print(f"FAIL {safe(outcomes[0].message)} (so all {len(outcomes)} vectors fail)")
        print(C.summary(outcomes))
    else:
        docs = dict(vectors)
        for o in outcomes:
            if o.status == C.FAIL:
                print(f"FAIL {safe(o.id)}: {safe(o.message)}")
                for line in compat.replay_lines(o.path, docs.get(o.path) or {},
                                                compat.failing_step(o)):
                    print(f"     {line}")
            elif o.status == C.SKIP:
                print(f"SKIP {safe(o.id)}: {safe(o.message)}")
            elif args.verbose:
                print(f"ok   {safe(o.id)}")
        if args.verbose or args.report or args.program:
            print(compat.headline(outcomes, vectors))
        print(C.summary(outcomes))
    if any(o.status == C.FAIL for o in outcomes):
        return 1
    if not any(o.status == C.PASS for o in outcomes):
        why = sorted({o.message for o in outcomes})
        print("fsm conformance: nothing was tested: every vector was skipped"
              + (f" ({safe(why[0])}" + (f", and {len(why) - 1} other reason(s))"
                                        if len(why) > 1 else ")") if why else ""),
              file=sys.stderr)
        return 1
    return 0


def _no_handshake(outcomes) -> bool:
    """Whether the engine never got past its handshake (one reason for every
    vector, said once)."""
    from .. import conformance as C
    return bool(outcomes) and all(o.status == C.FAIL and o.message == outcomes[0].message
                                  for o in outcomes) and \
        outcomes[0].message.startswith("handshake:")


def cmd_mutate(args) -> int:
    from .. import conformance as C
    from ..conformance.scoring import FAMILIES, score
    families = FAMILIES if args.family == "all" else (args.family,)
    vectors = C.collect(args.paths)
    # each family twice: as an engine reporting every fact and rule id is
    # judged, and as one reporting verdicts and reason codes only
    enough = None if args.every_vector else 2
    full = {name: score(vectors, families=(name,), enough=enough) for name in families}
    bare = {name: dict((m.id, k) for m, k in score(vectors, families=(name,),
                                                   verdicts_only=True, enough=enough))
            for name in families}
    rows = [(name, m, killers, bare[name][m.id]) for name in families
            for m, killers in full[name]]
    if args.json:
        json.dump({"mutants": [{"id": m.id, "family": name, "ruleset": m.ruleset,
                                "description": m.description, "killed_by": k,
                                "killed_by_verdicts": v, "silent": m.silent or None}
                               for name, m, k, v in rows],
                   "families": {name: _tally(r for r in rows if r[0] == name)
                                for name in families},
                   **_tally(rows)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for name, m, k, v in rows:
            if k and (v or m.silent):
                most = "" if args.every_vector else "+"
                print(f"killed    {m.id}  ({len(k)}{most} vectors, {len(v)}{most if v else ''} "
                      f"on verdicts alone, e.g. {(v or k)[0]})")
            elif k:
                print(f"SURVIVES  {m.id} on verdicts alone  ({m.description})")
            else:
                print(f"SURVIVES  {m.id}  ({m.description})")
        for name in families:
            t = _tally(r for r in rows if r[0] == name)
            print(f"{name}: {t['killed']} of {t['total']} with every fact reported, "
                  f"{t['killed_by_verdicts']} of {t['total'] - t['silent']} on verdicts alone"
                  + (f" ({t['silent']} no verdict can show)" if t["silent"] else ""))
    t = _tally(rows)
    if not args.json:
        print(f"{t['killed']} of {t['total']} mutants killed; on verdicts alone "
              f"{t['killed_by_verdicts']} of {t['total'] - t['silent']}")
    return 0 if t["killed"] == t["total"] and \
        t["killed_by_verdicts"] == t["total"] - t["silent"] else 1


def _tally(rows) -> dict:
    rows = list(rows)
    return {"killed": sum(1 for _, _, k, _ in rows if k),
            "killed_by_verdicts": sum(1 for _, m, _, v in rows if v and not m.silent),
            "silent": sum(1 for _, m, _, _ in rows if m.silent),
            "total": len(rows)}


def cmd_serve(args) -> int:
    from ..conformance import serve
    return serve(sys.stdin, sys.stdout)
