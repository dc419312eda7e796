"""One owner of a walk split N ways: the states whose stable hash falls to
it (:func:`owner_of`) are its own, to number and to expand, and no one
else's.

The walk stays breadth first, level by level. Each owner expands the states
of its own frontier, in order, and sorts what each move reaches within the
bounds into one bucket per owner. The buckets are exchanged; each owner
takes the records of its own states, in order, and does what one process
does with each (number it when new, expand it again when it is met in an
earlier round), then holds the next level's frontier. Nothing depends on
which owner finished first:

- every frontier entry carries its *order*, the numbers of the moves that
  led to it (each move numbered ``2 * position + denied`` in its state's
  alphabet), and one process expands a level in that order, so sorting by
  it puts every owner's records where one process meets them;
- a state's fate depends on its own records only (have I seen it, in which
  round), so the owner that holds all of them decides as one process would.

An owner sends a state once a level (again only if it meets it in an
earlier round): what it remembers is its own states and one level's sends,
not every state it ever reached. Sending a state again in a later level
costs 16-19% more bytes than remembering every send would (bench/README),
and no more CPU that the walks measured could show.

A level where something stops the walk (a broken invariant, the state limit)
is expanded again by every owner, up to the state where one process would
have stopped (a broken invariant stops that state's expansion again, at the
same move), before its records are taken: the counts, audit and
counterexample are then those of one process. Timelines are built from the
owners' parents (each state's parent's hash and the move), asked for along
the chain.

States are known by a 96-bit BLAKE2b hash of their canonical picture, stable
across processes and machines; two states of a walk sharing one is as
likely as nothing in practice (about 1 in 10^16 at a million states).
"""

from __future__ import annotations

import hashlib
import pickle
import time

from .state import freeze
from .walk import Config, Explorer, Report

DIGEST = 12


def stable(value):
    """A value made comparable across processes: sets sorted, tuples kept."""
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((stable(v) for v in value), key=repr)))
    if isinstance(value, (tuple, list)):
        return tuple(stable(v) for v in value)
    return value


def state_hash(key) -> bytes:
    """The state's name among the owners: the same in every process."""
    return hashlib.blake2b(repr(stable(key)).encode("utf-8"), digest_size=DIGEST).digest()


def owner_of(digest: bytes, parts: int) -> int:
    return int.from_bytes(digest[:8], "big") % parts


class Later:
    """A timeline the coordinator builds: the move tried from the state
    ``digest``, and the order it was tried in."""

    __slots__ = ("order", "digest", "step")

    def __init__(self, order, digest, move):
        self.order, self.digest, self.step = order, digest, move

    def __reduce__(self):
        return (Later, (self.order, self.digest, self.step))


class Owner(Explorer):
    """The states of one of ``parts`` owners: their parents, their earliest
    round, the frontier of the level under way."""

    def __init__(self, cfg: Config, number: int, parts: int):
        super().__init__(cfg)
        self.number, self.parts = number, parts
        self.known: dict = {}       # digest -> [earliest round, parent digest, move]
        self.frontier: list = []    # (order, digest, frozen, book), in order
        self.sending: dict = {}     # key -> earliest round sent, in the level under way
        self.incoming: list = []
        book = self.watch.initial()
        self.root = state_hash(self._key(book))
        if owner_of(self.root, parts) == number:
            self.known[self.root] = [self.enc.round, None, None]
            self.frontier = [((), self.root, freeze(self.enc), book)]
        self.order, self.found = (), None
        self.buckets: list = []

    # -- one level: expand, exchange, take --
    def expand(self, cut=None, seconds=None) -> dict:
        """Expand the frontier in order: all of it, or its entries up to the
        one of order ``cut`` (where a violation stops the expansion again, as
        it did the first time); stop after the entry under way once
        ``seconds`` pass."""
        deadline = None if seconds is None else time.monotonic() + seconds
        self.report, self.found, self.sending = Report(self.cfg), None, {}
        self.buckets = [[] for _ in range(self.parts)]
        done, stopped = 0, False
        for order, digest, frozen, book in self.frontier:
            if cut is not None and order > cut:
                break
            self.order = order
            self._expand(digest, frozen, book, None)
            done += 1
            if self.found is not None:
                break
            if deadline is not None and time.monotonic() > deadline:
                stopped = True
                break
        r = self.report
        return {"buckets": [pickle.dumps(b, pickle.HIGHEST_PROTOCOL) for b in self.buckets],
                "counters": (r.steps, r.transitions, r.beyond, r.stack_reached),
                "counts": r.audit.counts, "findings": r.audit.findings,
                "found": self.found, "expanded": done, "stopped": stopped}

    def receive(self, buckets: list) -> list:
        """This owner's records of the level, from every owner; the orders
        of the ones that reach a state it has not numbered (first reach
        only), in order."""
        records = [r for b in buckets for r in pickle.loads(b)]
        records.sort(key=lambda r: r[0])
        self.incoming = records
        new, fresh = [], set()
        for record in records:
            digest = record[1]
            if digest not in self.known and digest not in fresh:
                fresh.add(digest)
                new.append(record[0])
        return new

    def take(self) -> tuple:
        """Number the new states, reopen the ones met in an earlier round;
        the next frontier. Returns (new states, reopened, frontier size)."""
        nxt, states, reopened = [], 0, 0
        for order, digest, parent, move, frozen, book, round_ in self.incoming:
            known = self.known.get(digest)
            if known is not None and round_ >= known[0]:
                continue
            if known is not None:
                known[0] = round_
                reopened += 1
            else:
                self.known[digest] = [round_, parent, move]
                states += 1
            nxt.append((order, digest, frozen, book))
        self.frontier, self.incoming, self.sending = nxt, [], {}
        return states, reopened, len(nxt)

    def parent(self, digest) -> tuple:
        """The state ``digest`` was first reached from, and by which move."""
        _, parent, move = self.known[digest]
        return parent, move

    def digests(self) -> set:
        return set(self.known)

    # -- the walk's hooks --
    def _choice(self, move) -> tuple:
        return self.order + (2 * self.move_number + (move.ruling == "deny"),)

    def reach(self, key, index, move, book, nxt, frozen=None, round_=None):
        round_ = self.enc.round
        earlier = self.sending.get(key)
        if earlier is not None and earlier <= round_:
            return          # its owner has it from this owner in this level, as early
        self.sending[key] = round_
        digest = state_hash(key)
        self.buckets[owner_of(digest, self.parts)].append(
            (self._choice(move), digest, index, move, freeze(self.enc), book, round_))

    def violate(self, index, move, problem):
        self.found = (self._choice(move), index, move, problem)
        self.report.violation = problem          # stops the expansion here

    def path(self, index, move):
        return Later(self._choice(move), index, move)
