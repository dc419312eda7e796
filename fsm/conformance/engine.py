"""An engine under test: a subprocess spoken to in JSON lines (spec/PROTOCOL.md).

An engine is started once and kept; a vector it cannot take (ruleset or
option value it does not support) is skipped, never failed. An engine that
crashes, hangs past the timeout, prints garbage or answers for the wrong
vector fails that vector, is restarted, and the run goes on.

The command is run by ``/bin/sh -c``, as a shell would run it (``cd dir &&
node x.js``, ``FOO=1 ./engine``, ``./engine 2>log`` all work), in a process
group of its own; however the run ends (done, a failure, Ctrl-C), every
process it started is ended (:mod:`.reaper`). What the engine writes to
stderr is not read as protocol: its last lines are kept (:mod:`.pipes`) and
shown when it crashes or fails its handshake.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import threading
import time
from contextlib import contextmanager

from ..errors import EngineError, EngineNotStarted
from ..io import jsonsafe
from . import reaper
from .pipes import MAX_LINE, StderrTail, pump
from .reaper import MARKER  # noqa: F401  (the name engines see, re-exported)
from .hello import check as check_hello
from .vectors import (FAIL, FORMAT, PASS, PROTOCOL, SKIP, Outcome, invalid, judge,
                      public_vector, unsupported)

SHELL = "/bin/sh"
HANDSHAKE_TIMEOUT = 60.0   # seconds to wait for a hello: cold starts (bench/README.md)
NOT_RUN = (126, 127)       # the shell's statuses for a command it could not run


_holding = []        # the signals held off by the outermost _uninterrupted(), if any


@contextmanager
def _uninterrupted():
    """Hold off Ctrl-C (and SIGTERM) while the engine's processes are being
    ended, then raise it: an interruption never leaves half of them running.
    Only the main thread can do this; elsewhere, or inside another
    _uninterrupted(), nothing more is done."""
    if _holding or threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    saved = {sig: signal.signal(sig, lambda s, f: caught.append(s))
             for sig in (signal.SIGINT, signal.SIGTERM)}
    _holding.append(caught)
    try:
        yield
    finally:
        _holding.pop()
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        if caught:
            raise KeyboardInterrupt


class Engine:
    """A subprocess speaking the protocol; restarted when it misbehaves.

    The engine runs through ``/bin/sh -c`` in a process group of its own;
    ending it ends the group and every process carrying the run's marker. Reads
    have a deadline and a byte limit per line; writes have a deadline; the
    first hello of each start may take ``handshake`` seconds (cold starts of
    a JVM or ts-node take several); nothing an engine prints can raise past
    :class:`EngineError`.
    """

    def __init__(self, command: str, timeout: float, handshake: float | None = None):
        self.command = command
        self.timeout = timeout
        self.handshake = max(handshake if handshake is not None else HANDSHAKE_TIMEOUT, timeout)
        self.proc = None
        self.reader = None
        self.stderr = None
        self.lines: queue.Queue = queue.Queue()
        self.hello: dict = {}
        self.restarts = 0
        self.starts = 0
        self.marker = ""

    def start(self) -> dict:
        self.stop()
        self.starts += 1
        self.marker = reaper.new_marker()
        env = dict(os.environ, **{reaper.MARKER: self.marker})
        try:
            self.proc = subprocess.Popen([SHELL, "-c", self.command], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True, env=env)
        except OSError as exc:
            raise EngineNotStarted(f"cannot start {self.command!r}: {SHELL}: "
                                   f"{exc.strerror or exc}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)   # send() waits with select
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=pump, args=(self.proc.stdout.fileno(),
                                                          self.lines), daemon=True)
        self.reader.start()
        self.stderr = StderrTail(self.proc.stderr.fileno())
        self.send({"type": "hello", "protocol": PROTOCOL, "format": FORMAT})
        hello = self.receive(self.handshake, "hello")
        problem = invalid("hello", hello)
        if problem:
            raise EngineError(self._with_stderr(f"the engine's hello is not the protocol's: "
                                                f"{problem}"))
        if hello.get("format") != FORMAT:
            raise EngineError(f"the engine speaks format {hello.get('format')!r}, not {FORMAT}")
        problem = check_hello(hello)
        if problem:
            raise EngineError(f"the engine's hello: {problem}")
        self.hello = hello
        return hello

    def _with_stderr(self, message: str, wait: float = 0.2) -> str:
        tail = self.stderr.tail(wait) if self.stderr is not None else ""
        return f"{message}; its stderr ended: {tail}" if tail else message

    def _ended(self, left: float) -> EngineError:
        """The error for an engine that closed its output or input: its exit
        status and the end of its stderr. A command the shell could not run
        at all, at the first start, is bad input (EngineNotStarted)."""
        try:
            code = self.proc.wait(timeout=min(1.0, max(left, 0.1)))
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr.tail() if self.stderr is not None else ""
        if code in NOT_RUN and self.starts == 1:
            return EngineNotStarted(f"cannot start {self.command!r}: "
                                    + (tail or f"{SHELL} -c ended with status {code}"))
        said = f"the engine exited (status {code})" if code is not None \
            else "the engine closed its output"
        return EngineError(f"{said}; its stderr ended: {tail}" if tail else said)

    def send(self, obj: dict) -> None:
        """Write one message, waiting at most the timeout for the engine to read
        it (the pipe is non-blocking: no thread per message)."""
        data = memoryview((json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8"))
        fd = self.proc.stdin.fileno()
        deadline = time.monotonic() + self.timeout
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                self.kill()
                raise EngineError(f"the engine did not read its input within {self.timeout:g} s")
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                raise self._ended(1.0) from None

    def receive(self, timeout: float | None = None, what: str = "answer") -> dict:
        """The next message, within ``timeout`` s (default: the timeout per vector)."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise queue.Empty
                kind, value = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineError(self._with_stderr(f"no {what} within {timeout:g} s")) from None
            if kind == "end":
                raise self._ended(left)
            if kind == "long":
                raise EngineError(f"the engine printed a line longer than {MAX_LINE} bytes")
            if kind == "bytes":
                raise EngineError(f"the engine printed a line that is not UTF-8 "
                                  f"(byte {value})")
            if not value.strip():
                continue
            try:
                return jsonsafe.loads(value)
            except jsonsafe.JSONError as exc:
                shown = value.strip()[:60].encode("unicode_escape").decode("ascii")
                raise EngineError(self._with_stderr(
                    f"the engine printed something that is not JSON ({exc.message}): "
                    f"{shown!r}")) from None

    def kill(self) -> None:
        """End the engine's whole process group, and every process carrying
        its marker that left the group, each waited for until it has exited."""
        if self.proc is None:
            return
        with _uninterrupted():
            reaper.end_group(self.proc.pid)
            reaper.end_marked(self.marker)

    def stop(self) -> None:
        if self.proc is None:
            return
        with _uninterrupted():
            self.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for thread in (self.reader, self.stderr and self.stderr.thread):
                if thread is not None:
                    thread.join(timeout=2)
            for pipe, thread in ((self.proc.stdin, None), (self.proc.stdout, self.reader),
                                 (self.proc.stderr, self.stderr and self.stderr.thread)):
                if thread is not None and thread.is_alive():
                    continue      # something outside the group still holds it: leave it
                try:
                    pipe.close()
                except OSError:
                    pass
            self.proc = None
            self.reader = None
            self.stderr = None


def run_program(vectors, command: str, timeout: float = 10.0,
                hello_seen: dict | None = None, handshake: float | None = None) -> list[Outcome]:
    """Run ``vectors`` on ``command``; ``hello_seen``, when given, receives the
    engine's handshake (its name for the reports). However the run ends, a
    Ctrl-C included, the engine and every process it started are ended."""
    engine = Engine(command, timeout, handshake)
    try:
        return _run(engine, vectors, hello_seen)
    finally:
        engine.stop()


def _run(engine: Engine, vectors, hello_seen) -> list[Outcome]:
    out = []
    try:
        hello = engine.start()
        if hello_seen is not None:
            hello_seen.update(hello)
    except EngineNotStarted:
        raise                    # bad input: the run has no engine to fail
    except EngineError as exc:
        return [Outcome(doc.get("id", path), path, FAIL, f"handshake: {exc}")
                for path, doc in vectors]
    alive = True
    for path, doc in vectors:
        why = unsupported(doc, hello)
        if why:
            out.append(Outcome(doc["id"], path, SKIP, why))
            continue
        start = time.perf_counter()
        try:
            if not alive:
                hello = engine.start()
                engine.restarts += 1
                alive = True
            engine.send({"type": "vector", "vector": public_vector(doc)})
            result = engine.receive()
        except EngineError as exc:
            out.append(Outcome(doc["id"], path, FAIL, str(exc), time.perf_counter() - start))
            alive = False
            continue
        problems = judge(doc, result, hello.get("facts") or (),
                         reports=hello.get("reports") or ())
        if problems and problems[0].startswith("answered for vector"):
            alive = False  # out of step with the engine: start afresh
        if problems and problems[0] == "the answer is not a result object":
            alive = False
        out.append(Outcome(doc["id"], path, FAIL if problems else PASS,
                           problems[0] if problems else "", time.perf_counter() - start,
                           problems))
    return out
