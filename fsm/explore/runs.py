"""The runs of one exploration: one walk per set of answerers, in turn or
spread over worker processes, merged into one report."""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from dataclasses import replace

from .walk import Config, Explorer, Report, combatants_for


def answerer_sets(cfg: Config) -> list:
    """Who answers triggers in each run: every set of ``responders`` combatants
    (all of them at once when ``responders`` is None or covers everyone)."""
    ids = [c["id"] for c in combatants_for(cfg)]
    k = cfg.responders
    if k is None or k >= len(ids):
        return [None]
    return [tuple(team) for team in itertools.combinations(ids, k)]


def _run_one(cfg: Config) -> Report:
    return Explorer(cfg).run()


def explore(cfg: Config, progress=None, jobs: int = 1) -> Report:
    """Explore every run of ``cfg`` (one per set of answerers) and merge them;
    with ``jobs`` > 1 the runs share that many processes."""
    runs = [replace(cfg, answerers=team) for team in answerer_sets(cfg)]
    total = Report(cfg)
    start = time.perf_counter()
    if jobs > 1 and len(runs) > 1:
        _explore_parallel(runs, total, progress, jobs)
    else:
        _explore_serial(runs, total, progress)
    total.seconds = time.perf_counter() - start
    return total


def _explore_serial(runs, total, progress):
    for number, run in enumerate(runs, 1):
        if total.violation is not None:      # only a shorter counterexample is of interest
            run = replace(run, max_levels=len(total.violation.path) - 1)
        step = None if progress is None else (
            lambda rep, done, size, n=number: progress(total, rep, n, len(runs), done, size))
        _merge(total, Explorer(run, step).run())


def _ignore_interrupts():
    """Pool workers leave Ctrl-C to the parent, which stops the pool and exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _explore_parallel(runs, total, progress, jobs):
    context = multiprocessing.get_context("fork")
    with context.Pool(min(jobs, len(runs)), initializer=_ignore_interrupts) as pool:
        for number, report in enumerate(pool.imap_unordered(_run_one, runs), 1):
            _merge(total, report)
            if progress is not None:
                progress(total, None, number, len(runs), 0, 0)


def _merge(total: Report, part: Report) -> None:
    for name in ("states", "transitions", "steps", "beyond", "reopened"):
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.depth_reached = max(total.depth_reached, part.depth_reached)
    total.stack_reached = max(total.stack_reached, part.stack_reached)
    total.complete = total.complete and part.complete
    total.runs += 1
    if part.violation is not None and (total.violation is None or
                                       len(part.violation.path) < len(total.violation.path)):
        total.violation = part.violation
    total.audit.merge(part.audit)


