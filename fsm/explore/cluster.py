"""Where the owners of a split walk run: local processes, one per job, or
actors on a Dask cluster (the optional ``dask`` extra). Both offer the same
three calls: ``call`` (every owner, the same arguments), ``call_each`` (every
owner, its own arguments) and ``one`` (one owner), each returning what the
owners' methods return, in owner order. An owner's failure is raised here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import traceback

from ..errors import ConfigError, FsmError
from .owner import Owner


class OwnerFailed(FsmError):
    """An owner's method raised: the message is the error's last line, and
    ``detail`` the whole traceback, as the owner gave it."""

    def __init__(self, detail: str):
        lines = detail.strip().splitlines()
        super().__init__(f"an owner of the walk failed: {lines[-1] if lines else 'no reason given'}")
        self.detail = detail


def _serve(conn, cfg, number, parts) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle
    owner = Owner(cfg, number, parts)
    while True:
        message = conn.recv()
        if message is None:
            break
        name, args = message
        try:
            conn.send((True, getattr(owner, name)(*args)))
        except Exception:   # sent to the parent, which raises it there
            conn.send((False, traceback.format_exc()))
    conn.close()


class LocalOwners:
    """``parts`` forked processes, each holding one owner."""

    def __init__(self, cfg, parts: int):
        self.parts = parts
        self.where = "local processes"
        context = multiprocessing.get_context("fork")
        self.conns, self.procs = [], []
        try:
            for number in range(parts):
                mine, theirs = context.Pipe()
                proc = context.Process(target=_serve, args=(theirs, cfg, number, parts),
                                       daemon=True)
                proc.start()
                theirs.close()
                self.conns.append(mine)
                self.procs.append(proc)
        except BaseException:
            self.close()
            raise

    def call_each(self, name, args_list) -> list:
        for conn, args in zip(self.conns, args_list):
            self._send(conn, (name, args))
        return [self._answer(conn) for conn in self.conns]

    def call(self, name, *args) -> list:
        return self.call_each(name, [args] * self.parts)

    def one(self, number, name, *args):
        self._send(self.conns[number], (name, args))
        return self._answer(self.conns[number])

    @staticmethod
    def _send(conn, message) -> None:
        try:
            conn.send(message)
        except OSError:         # a broken pipe: the owner is gone
            raise OwnerFailed("an owner process ended before it was asked") from None

    @staticmethod
    def _answer(conn):
        try:
            ok, value = conn.recv()
        except EOFError:
            raise OwnerFailed("an owner process ended before it answered") from None
        if not ok:
            raise OwnerFailed(value)
        return value

    def close(self, at_once: bool = False) -> None:
        """Ask each owner to end; ``at_once`` (the walk was interrupted, or
        failed): stop them where they are."""
        for conn in self.conns:
            with contextlib.suppress(OSError):
                if not at_once:
                    conn.send(None)
                conn.close()
        for proc in self.procs:
            if at_once:
                proc.kill()
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()


class DaskOwners:
    """One owner actor per part on the Dask cluster at ``address``, dealt
    out over its workers in turn; ``parts`` None: one per worker."""

    def __init__(self, cfg, parts, address):
        self.client = _connect(address)
        workers = sorted(self.client.scheduler_info()["workers"])
        if not workers:
            self.client.close()
            raise ConfigError(f"the Dask scheduler at {address} has no workers")
        self.parts = parts or len(workers)
        self.where = f"Dask at {address}"
        futures = [self.client.submit(Owner, cfg, number, self.parts, actor=True, pure=False,
                                      workers=[workers[number % len(workers)]])
                   for number in range(self.parts)]
        try:
            self.actors = [self._answer(f) for f in futures]   # a worker lacking fsm, say
        except OwnerFailed:
            self.client.close()
            raise

    def call_each(self, name, args_list) -> list:
        futures = [getattr(actor, name)(*args) for actor, args in zip(self.actors, args_list)]
        return [self._answer(f) for f in futures]

    def call(self, name, *args) -> list:
        return self.call_each(name, [args] * self.parts)

    def one(self, number, name, *args):
        return self._answer(getattr(self.actors[number], name)(*args))

    @staticmethod
    def _answer(future):
        try:
            return future.result()
        except Exception as exc:    # raised on the worker, brought back by Dask
            raise OwnerFailed("".join(traceback.format_exception(exc))) from exc

    def close(self, at_once: bool = False) -> None:
        self.actors = []        # the actors go with the last reference to them
        self.client.close()


CONNECT_SECONDS = 5         # for the scheduler to take the connection
ANSWER_SECONDS = 10         # more, for it to answer as a Dask scheduler does


def _connect(address):
    """A client of the scheduler at ``address``, or ConfigError (one line):
    nothing there, or something there that is no Dask scheduler (one that
    never answers included: the attempt is given up after a while)."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError("--scheduler needs Dask: pip install "
                          "'fsm-triggered-actions[dask]'") from None
    box: dict = {}

    def attempt():
        try:
            box["client"] = Client(address, timeout=f"{CONNECT_SECONDS}s")
        except BaseException as exc:   # whatever a wrong server makes Dask raise
            box["error"] = exc

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + ANSWER_SECONDS)
    if thread.is_alive():
        raise ConfigError(f"nothing at {address} answered as a Dask scheduler within "
                          f"{CONNECT_SECONDS + ANSWER_SECONDS} s")
    if "error" in box:
        exc = box["error"]
        if not isinstance(exc, (OSError, TimeoutError, ValueError)):
            raise ConfigError(f"what answers at {address} is not a Dask scheduler "
                              f"({type(exc).__name__} on connecting)")
        words = " ".join(str(exc).split())[:160] or type(exc).__name__
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {words}")
    return box["client"]


@contextlib.contextmanager
def owners(cfg, jobs: int | None, scheduler=None):
    """The owners of one walk: ``jobs`` local processes, or actors on the Dask
    cluster at ``scheduler`` (``jobs`` of them; None: one per worker)."""
    group = LocalOwners(cfg, jobs) if scheduler is None else DaskOwners(cfg, jobs, scheduler)
    try:
        yield group
    except BaseException:
        group.close(at_once=True)
        raise
    group.close()
