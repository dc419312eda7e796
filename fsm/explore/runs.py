"""The runs of one exploration: one walk per set of answerers, each walk's
states split among owners when asked, merged into one report."""

from __future__ import annotations

import itertools
import time
from dataclasses import replace

from .parallel import ParallelExplorer
from .walk import Config, Report, combatants_for, deadline_of, time_limit


def answerer_sets(cfg: Config) -> list:
    """Who answers triggers in each run: every set of ``responders`` combatants
    (all of them at once when ``responders`` is None or covers everyone)."""
    ids = [c["id"] for c in combatants_for(cfg)]
    k = cfg.responders
    if k is None or k >= len(ids):
        return [None]
    return [tuple(team) for team in itertools.combinations(ids, k)]


def explore(cfg: Config, progress=None, jobs: int = 1, scheduler=None) -> Report:
    """Explore every run of ``cfg`` (one per set of answerers), one after the
    other, and merge them; with ``jobs`` > 1 each run's states are split
    among that many worker processes, or among the workers of the Dask
    cluster at ``scheduler`` (:mod:`.parallel`), with the report of one
    process. Once a run has found a counterexample, the next ones look
    only for a shorter one. ``max_seconds`` bounds all the runs together:
    once it has passed, the run under way stops and no other starts."""
    deadline = deadline_of(cfg)
    runs = [replace(cfg, answerers=team, deadline=deadline) for team in answerer_sets(cfg)]
    total = Report(cfg)
    start = time.perf_counter()
    for number, run in enumerate(runs, 1):
        if deadline is not None and time.monotonic() > deadline:
            total.complete = False
            total.stopped = total.stopped or time_limit(cfg)
            break
        if total.violation is not None:
            run = replace(run, max_levels=len(total.violation.path) - 1)
        step = None if progress is None else (
            lambda rep, done, size, n=number: progress(total, rep, n, len(runs), done, size))
        _merge(total, ParallelExplorer(run, step, jobs, scheduler).run())
    total.seconds = time.perf_counter() - start
    return total


def _merge(total: Report, part: Report) -> None:
    for name in ("states", "transitions", "steps", "beyond", "reopened"):
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.depth_reached = max(total.depth_reached, part.depth_reached)
    total.stack_reached = max(total.stack_reached, part.stack_reached)
    total.complete = total.complete and part.complete
    total.stopped = total.stopped or part.stopped
    total.runs += 1
    if part.expanded:
        total.expanded = [a + b for a, b in zip(total.expanded, part.expanded)] \
            if total.expanded else list(part.expanded)
    total.exchanged += part.exchanged
    total.where = total.where or part.where
    if part.violation is not None and (total.violation is None or
                                       len(part.violation.path) < len(total.violation.path)):
        total.violation = part.violation
    total.audit.merge(part.audit)


