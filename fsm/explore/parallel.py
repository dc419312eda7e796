"""One walk split N ways: each state is expanded once, by the owner its
hash falls to (:mod:`.owner`), and the report is the one a single process
gives: the same states, counts, audit and shortest counterexample.

The owners are local processes (``--jobs``) or actors on a Dask cluster
(``--scheduler``), both in :mod:`.cluster`. The coordinator here runs the
levels: it asks every owner to expand its frontier, passes the buckets of
records to their owners without reading them, and adds up what comes back.
A level where one process would have stopped (a broken invariant, the state
limit) is expanded again by every owner, up to that state, first.
"""

from __future__ import annotations

import heapq
import time

from . import cluster
from .owner import Later, owner_of
from .walk import Config, Explorer, Report, Violation, replay_verdicts, time_limit, timeline


class ParallelExplorer(Explorer):
    """:class:`~.walk.Explorer` with the states split among ``jobs`` owners:
    local processes, or the Dask workers at ``scheduler`` (one process of
    its own when ``jobs`` < 2 and there is no scheduler)."""

    def __init__(self, cfg: Config, progress=None, jobs: int = 2, scheduler=None,
                 keep: bool = False):
        super().__init__(cfg, progress)
        self.jobs, self.scheduler = jobs, scheduler
        self.owners = None
        self.keep = keep            # keep the hashes of the states numbered (.numbered)
        self.numbered: set | None = None

    def run(self) -> Report:
        if self.scheduler is None and self.jobs < 2:
            return super().run()
        with cluster.owners(self.cfg, self.jobs, self.scheduler) as owners:
            self.owners = owners
            try:
                report = self._levels()
                if self.keep:
                    self.numbered = set().union(*owners.call("digests"))
                return report
            finally:
                self.owners = None

    def _levels(self) -> Report:
        start = time.perf_counter()
        report, owners = self.report, self.owners
        report.expanded = [0] * owners.parts
        report.where = owners.where
        report.states = 1                       # the start, numbered by its owner
        pending, limit = 1, self.cfg.max_levels
        while pending and report.violation is None and report.complete:
            if limit is not None and report.depth_reached >= limit:
                break
            pending = self._level()
            if pending:
                report.depth_reached += 1
        report.seconds = time.perf_counter() - start
        return report

    def _level(self) -> int:
        """One level of the walk, on every owner; the next frontier's size."""
        owners, cfg = self.owners, self.cfg
        seconds = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        results = owners.call("expand", None, seconds)
        found = min((r["found"] for r in results if r["found"]), default=None,
                    key=lambda f: f[0])
        cut = None
        if found is not None:      # every owner again, up to the violation's state
            cut = found[0][:-1]
            results = owners.call("expand", cut)
        news = self._deliver(results)
        if cfg.max_states:
            room = cfg.max_states - self.report.states
            first = list(heapq.merge(*news))
            if len(first) >= room:               # one process stops after this entry
                entry = first[room - 1][:-1]
                if cut is None or entry < cut:
                    cut, found = entry, None
                    results = owners.call("expand", cut)
                    self._deliver(results)
        taken = owners.call("take")
        self._add_up(results, taken, found)
        if any(r["stopped"] for r in results):
            self.stop(time_limit(cfg))
        self.check_time()
        if cfg.max_states and self.report.states >= cfg.max_states:
            self.stop(f"--max-states {cfg.max_states:,}")
        if self.progress is not None:
            self.progress(self.report, 1, 1)
        return sum(size for _, _, size in taken)

    def _deliver(self, results) -> list:
        """Each owner's records to it; the orders of the states new to each."""
        parts = self.owners.parts
        incoming = [[r["buckets"][j] for r in results] for j in range(parts)]
        self.report.exchanged += sum(len(b) for share in incoming for b in share)
        return self.owners.call_each("receive", [(share,) for share in incoming])

    def _add_up(self, results, taken, found) -> None:
        report = self.report
        level = {}
        for number, r in enumerate(results):
            steps, transitions, beyond, stack = r["counters"]
            report.steps += steps
            report.transitions += transitions
            report.beyond += beyond
            report.stack_reached = max(report.stack_reached, stack)
            report.expanded[number] += r["expanded"]
            report.audit.counts.update(r["counts"])
            for key, finding in r["findings"].items():
                mine = level.get(key)
                if mine is None or finding.example.order < mine.example.order:
                    finding.count += mine.count if mine is not None else 0
                    level[key] = finding
                else:
                    mine.count += finding.count
        for key, finding in sorted(level.items(), key=lambda kv: kv[1].example.order):
            mine = report.audit.findings.get(key)
            if mine is not None:
                mine.count += finding.count
                continue
            finding.example = self._timeline(finding.example)
            report.audit.findings[key] = finding
        for states, reopened, _ in taken:
            report.states += states
            report.reopened += reopened
        if found is not None:
            path = self._timeline(Later(*found[:3]))
            report.violation = Violation(found[3], path,
                                         replay_verdicts(self.cfg, self.combatants, path))

    def _timeline(self, later: Later) -> list:
        """The first timeline to the state ``later.digest``, then its move,
        from the owners' parents."""
        moves, digest = [later.step], later.digest
        while True:
            parent, move = self.owners.one(owner_of(digest, self.owners.parts), "parent", digest)
            if parent is None:
                break
            moves.append(move)
            digest = parent
        moves.reverse()
        return timeline(self.cfg, self.combatants, moves)
