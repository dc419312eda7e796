"""How a walk splits among owners: local processes and the actors of a local
Dask cluster, 2 and 4 owners, against one process on the same walk.

    python bench/split.py                  # pf2e 3x2 and dnd4e 2x2
    python bench/split.py --smoke          # seconds

For each: the states each owner expanded, their sum over the single run's
states (1.00: each state expanded once), whether the report is the one a
single process gives, and the bytes sent between owners per state.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fsm.explore import Config, Explorer, ParallelExplorer  # noqa: E402


def _summary(report) -> tuple:
    return (report.states, report.transitions, report.steps, report.beyond, report.reopened,
            report.depth_reached, report.stack_reached, report.complete,
            dict(report.audit.counts))


def _row(cfg, backend, owners, single, report, seconds) -> dict:
    return {"ruleset": cfg.ruleset, "combatants": cfg.combatants, "rounds": cfg.rounds,
            "backend": backend, "owners": owners, "expanded": report.expanded,
            "sum_over_single": sum(report.expanded) / single.states,
            "identical": _summary(report) == _summary(single),
            "bytes_per_state": report.exchanged / report.states, "seconds": seconds}


def split(cases, owner_counts=(2, 4)) -> list:
    """One walk per case (one answering combatant, the second), single and
    split; a Dask cluster of 2 worker processes when Dask is installed."""
    try:
        import distributed
    except ImportError:
        distributed = None
    rows = []
    cluster = None if distributed is None else distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        for ruleset, combatants, rounds in cases:
            cfg = Config(ruleset, combatants, rounds, answerers=("c2",))
            start = time.perf_counter()
            single = Explorer(cfg).run()
            rows.append({"ruleset": ruleset, "combatants": combatants, "rounds": rounds,
                         "backend": "one process", "owners": 1, "expanded": [single.states],
                         "sum_over_single": 1.0, "identical": True, "bytes_per_state": 0.0,
                         "seconds": time.perf_counter() - start})
            backends = [("processes", None)]
            if cluster is not None:
                backends.append(("dask", cluster.scheduler_address))
            for backend, address in backends:
                for owners in owner_counts:
                    start = time.perf_counter()
                    report = ParallelExplorer(cfg, jobs=owners, scheduler=address).run()
                    rows.append(_row(cfg, backend, owners, single, report,
                                     time.perf_counter() - start))
                    print(f"  split {ruleset} {combatants}x{rounds} {backend} {owners}: "
                          f"{report.expanded}", file=sys.stderr)
    finally:
        if cluster is not None:
            cluster.close()
    return rows


def table(rows) -> str:
    lines = ["| walk (answering: c2) | owners | states expanded by each | sum / single run "
             "| report as one process's | bytes exchanged per state | seconds |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['ruleset']} {r['combatants']}x{r['rounds']} | {r['owners']} "
                     f"({r['backend']}) | {' / '.join(f'{n:,}' for n in r['expanded'])} "
                     f"| {r['sum_over_single']:.3f} | {'yes' if r['identical'] else 'NO'} "
                     f"| {r['bytes_per_state']:,.0f} | {r['seconds']:.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a walk of seconds")
    args = parser.parse_args(argv)
    cases = [("pf2e", 2, 1)] if args.smoke else [("pf2e", 3, 2), ("dnd4e", 2, 2)]
    print(table(split(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
