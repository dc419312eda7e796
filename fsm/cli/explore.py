"""fsm explore: walk every bounded timeline of a small encounter, check every
invariant, audit the table."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import ConfigError
from ..io.writing import cannot_write, check_folder
from .common import RawFormatter, cpus, output_path, processes, ruleset_names, seconds


def add_parser(sub) -> None:
    exp = sub.add_parser(
        "explore", help="walk every bounded timeline, check every invariant, audit the table",
        description="Breadth-first exploration of every timeline of a small encounter.",
        epilog=EPILOG_EXPLORE, formatter_class=RawFormatter)
    exp.add_argument("ruleset", metavar="RULESET", help=ruleset_names())
    exp.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    exp.add_argument("--shard", help=argparse.SUPPRESS)
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
    exp.add_argument("--grid", action="store_true",
                     help="place the combatants on a line, next to each other, and walk "
                          "moves with paths, shifts, melee and ranged attacks, so the "
                          "invariants cover what positions decide (dnd4e)")
    exp.add_argument("--audit", action="store_true",
                     help="also list situations no row decides or two rows could decide")
    exp.add_argument("--json", action="store_true", help="print the result as JSON")
    exp.add_argument("--out", default=".", metavar="DIR", type=output_path,
                     help="where to write a counterexample vector (default: .); a file "
                          "of its name already there is kept, and the vector gets a fresh "
                          "name beside it")
    exp.add_argument("--jobs", type=processes, metavar="J",
                     help="owners the states are split among, each a process (default: one "
                          "per CPU; with --scheduler, one per Dask worker, and more than the "
                          "workers are dealt out over them in turn); the report is the same "
                          "for any number")
    exp.add_argument("--scheduler", metavar="ADDRESS",
                     help="split the states among the workers of the Dask cluster at "
                          "ADDRESS (tcp://host:8786), across machines; needs "
                          "pip install 'fsm-triggered-actions[dask]'")
    exp.add_argument("--engine", choices=("lean", "transitions"), default="lean",
                     help="dispatch through the lean table walker (default) or transitions")
    exp.add_argument("--max-seconds", type=seconds, metavar="S",
                     help="stop once S seconds have passed, all runs together: the report "
                          "says how far it got, and the exit status is 3 unless something "
                          "broke (where it stops depends on the machine; --max-states "
                          "does not)")
    exp.add_argument("--max-states", type=int, metavar="N",
                     help="stop each run once it has numbered N states, to try a bound "
                          "larger than the time at hand: the report says how far it got, "
                          "and the exit status is 3 unless something broke")
    exp.set_defaults(func=cmd_explore)


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
gap, 2 bad usage (a scheduler not there included), 3 stopped at --max-states
or --max-seconds before the bounds were covered (nothing broke in the states
walked), 4 an owner of a split walk failed (a Dask worker lost, say).

The states are split among owners by a stable hash: each state is expanded
once, by its owner, and the report is the one a single process gives (the
same states, counts, audit and shortest counterexample). The owners are
--jobs local processes, or, past one machine, the workers of a Dask cluster
(--scheduler ADDRESS: start one with 'dask scheduler' and a 'dask worker
ADDRESS' on each machine). The report says where the owners ran, how many
states each expanded (in a run stopped short, the states numbered last are
not expanded) and how many bytes went between them per state.

examples:
  fsm explore dnd4e
  fsm explore pf2e --combatants 3 --rounds 2 --responders 2 --audit
  fsm explore dnd4e --option opportunity_limit_turns=enemy --json
  fsm explore dnd4e --combatants 4 --out counterexamples
  fsm explore dnd4e --combatants 4 --jobs 4
  fsm explore dnd4e --combatants 4 --scheduler tcp://10.0.0.5:8786
  fsm explore dnd4e --combatants 5 --rounds 3 --max-states 100000
  fsm explore dnd4e --combatants 5 --rounds 3 --max-seconds 60
"""


def cmd_explore(args) -> int:
    from .. import explore as X
    from ..explore.cluster import OwnerFailed
    if args.ruleset == "merge" or args.shard is not None:
        raise ConfigError("shards and 'fsm explore merge' are gone: each shard walked nearly "
                          "all of the space; split the states among owners with --jobs N, "
                          "or --scheduler ADDRESS past one machine")
    if args.files:
        raise ConfigError(f"unexpected arguments after the ruleset: {' '.join(args.files)}")
    cfg = X.Config(args.ruleset, args.combatants, args.rounds, args.depth,
                   responders=args.responders, engine=args.engine,
                   max_states=args.max_states, max_seconds=args.max_seconds, grid=args.grid)
    X.check_config(cfg)
    check_folder(args.out)             # before the walk, not after it
    cfg.options = dict(X.parse_option(text, args.ruleset) for text in args.option)
    jobs = args.jobs if args.jobs is not None or args.scheduler else cpus()
    bar = X.ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        result = X.explore(cfg, bar, jobs=jobs, scheduler=args.scheduler)
    except (BlockingIOError, ChildProcessError) as exc:   # fork refused: no room
        print(f"fsm explore: cannot start {jobs} processes ({exc.strerror or exc}); "
              f"try fewer --jobs", file=sys.stderr)
        return 2
    except OwnerFailed as exc:      # a worker lost, an owner's error: not bad usage
        print(f"fsm explore: {exc}", file=sys.stderr)
        return 4
    finally:
        if bar is not None:
            bar.close()
    try:
        written = X.write_counterexample(result, args.out) if result.violation else None
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
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
    if result.violation is not None or missing:
        return 1
    return 0 if result.complete else 3
