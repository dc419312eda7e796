"""One walk with each level's frontier spread over worker processes.

The walk stays breadth first and gives the same report as one process: the
same states, numbered in the same order, the same counts, audit and
shortest counterexample. Each level, the frontier is cut into chunks, in
order; a worker (a forked process holding its own encounter) expands every
state of a chunk and sends back, state by state and move by move, what each
allowed move reached within the bounds: the state's canonical key, its
frozen form and its round. The parent takes the chunks in frontier order and
does what the single process does with each successor (number it when new,
expand it again when met in an earlier round), so nothing depends on which
worker finished first. A worker does not send a key twice unless it meets
it again in an earlier round: what it sent before is known to the parent by
the time the later chunk is read.

Counterexamples and audit examples are timelines, built by the parent from
its own table of parents; the worker sends the state number and move.
"""

from __future__ import annotations

import multiprocessing
import signal

from .state import freeze
from .walk import Config, Explorer, Report

CHUNKS_PER_JOB = 8        # chunks per worker and level: small enough to balance
MAX_CHUNK = 256


class _Later:
    """A timeline the parent builds: the state number and the move."""

    __slots__ = ("index", "step")

    def __init__(self, index, move):
        self.index, self.step = index, move

    def __reduce__(self):
        return (_Later, (self.index, self.step))


class _Worker(Explorer):
    """The walk's expansion, run in a worker process on chunks of a level."""

    def __init__(self, cfg: Config):
        super().__init__(cfg)
        self.sent: dict = {}        # key -> earliest round sent
        self.out: list = []
        self.found = None

    def reach(self, key, index, move, book, nxt, frozen=None, round_=None):
        round_ = self.enc.round
        earlier = self.sent.get(key)
        if earlier is not None and earlier <= round_:
            return
        self.sent[key] = round_
        self.out.append((index, move, key, freeze(self.enc), book, round_))

    def violate(self, index, move, problem):
        self.found = (index, move, problem)
        self.report.violation = problem         # stops the expansion of this chunk

    def path(self, index, move):
        return _Later(index, move)

    def chunk(self, entries) -> tuple:
        self.report, self.found = Report(self.cfg), None
        successors = []
        for index, frozen, book in entries:
            self.out = []
            self._expand(index, frozen, book, None)
            successors.append(self.out)
            if self.found is not None:
                break
        r = self.report
        return successors, (r.steps, r.transitions, r.beyond, r.stack_reached), r.audit, \
            self.found


_WORKER: _Worker | None = None


def _start(cfg: Config) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle
    _WORKER = _Worker(cfg)


def _chunk(entries) -> tuple:
    return _WORKER.chunk(entries)


class ParallelExplorer(Explorer):
    """:class:`~.walk.Explorer` with the frontier of each level expanded by
    ``jobs`` worker processes (one process when ``jobs`` < 2 or for a shard)."""

    def __init__(self, cfg: Config, progress=None, jobs: int = 2):
        super().__init__(cfg, progress)
        self.jobs = jobs
        self.pool = None

    def run(self) -> Report:
        if self.jobs < 2 or self.cfg.shard is not None:
            return super().run()
        context = multiprocessing.get_context("fork")
        with context.Pool(self.jobs, initializer=_start, initargs=(self.cfg,)) as pool:
            self.pool = pool
            try:
                return super().run()
            finally:
                self.pool = None

    def level(self, frontier) -> list:
        if self.pool is None:
            return super().level(frontier)
        size = max(1, min(MAX_CHUNK, len(frontier) // (self.jobs * CHUNKS_PER_JOB)))
        chunks = [frontier[i:i + size] for i in range(0, len(frontier), size)]
        nxt, done = [], 0
        for entries, answer in zip(chunks, self.pool.imap(_chunk, chunks)):
            successors, counters, audit, found = answer
            self._take(successors, counters, audit, nxt)
            done += len(entries)
            if found is not None:
                index, move, problem = found
                Explorer.violate(self, index, move, problem)
            self.check_time()
            if self.report.violation is not None or not self.report.complete:
                break
            if self.progress is not None:
                self.progress(self.report, done, len(frontier))
        return nxt

    def _take(self, successors, counters, audit, nxt) -> None:
        steps, transitions, beyond, stack = counters
        report = self.report
        report.steps += steps
        report.transitions += transitions
        report.beyond += beyond
        report.stack_reached = max(report.stack_reached, stack)
        for finding in audit.findings.values():
            if isinstance(finding.example, _Later):
                finding.example = Explorer.path(self, finding.example.index,
                                                 finding.example.step)
        report.audit.merge(audit)
        for per_state in successors:
            for index, move, key, frozen, book, round_ in per_state:
                self.reach(key, index, move, book, nxt, frozen, round_)
            if not report.complete:
                return
