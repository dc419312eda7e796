"""An engine under test: a subprocess spoken to in JSON lines (spec/PROTOCOL.md).

An engine is started once and kept; a vector it cannot take (ruleset or
option value it does not support) is skipped, never failed. An engine that
crashes, hangs past the timeout, prints garbage or answers for the wrong
vector fails that vector, is restarted, and the run goes on.
"""

from __future__ import annotations

import json
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
import uuid

from ..errors import EngineError, EngineNotStarted
from ..io import jsonsafe
from .hello import check as check_hello
from .vectors import (FAIL, FORMAT, PASS, PROTOCOL, SKIP, Outcome, invalid, judge,
                      public_vector, unsupported)

MAX_LINE = 4 * 1024 * 1024        # bytes in one line from an engine (spec/PROTOCOL.md)


def _pump(fd: int, lines: queue.Queue) -> None:
    """Read an engine's output in bytes: whole lines, each at most MAX_LINE
    bytes and UTF-8, else a note of what was wrong; then end of output."""
    buffer = b""
    dropping = False
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        buffer += chunk
        while True:
            cut = buffer.find(b"\n")
            if cut < 0:
                if len(buffer) > MAX_LINE and not dropping:
                    lines.put(("long", None))
                    dropping = True
                if dropping:
                    buffer = b""
                break
            line, buffer = buffer[:cut], buffer[cut + 1:]
            if dropping:
                dropping = False
                continue
            if len(line) > MAX_LINE:
                lines.put(("long", None))
                continue
            try:
                lines.put(("line", line.decode("utf-8")))
            except UnicodeDecodeError as exc:
                lines.put(("bytes", exc.start))
    lines.put(("end", None))


class Engine:
    """A subprocess speaking the protocol; restarted when it misbehaves.

    The engine runs in a process group of its own, killed as a whole, so a
    launcher script and the engine it starts both go. Reads have a deadline
    and a byte limit per line; writes have a deadline; nothing an engine
    prints can raise past :class:`EngineError`.
    """

    def __init__(self, command: str, timeout: float):
        self.command = command
        self.timeout = timeout
        self.proc = None
        self.reader = None
        self.lines: queue.Queue = queue.Queue()
        self.hello: dict = {}
        self.restarts = 0
        self.marker = ""

    def start(self) -> dict:
        self.stop()
        try:
            argv = shlex.split(self.command)
            # every process the engine starts inherits the marker, even one that
            # leaves the process group (a daemon): stop() ends them all
            self.marker = f"{os.getpid()}-{uuid.uuid4().hex}"
            env = dict(os.environ, **{MARKER: self.marker})
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, start_new_session=True,
                                         env=env)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise EngineNotStarted(f"cannot start {self.command!r}: {why}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)   # send() waits with select
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=_pump, args=(self.proc.stdout.fileno(),
                                                           self.lines), daemon=True)
        self.reader.start()
        self.send({"type": "hello", "protocol": PROTOCOL, "format": FORMAT})
        hello = self.receive()
        problem = invalid("hello", hello)
        if problem:
            raise EngineError(f"the engine's hello is not the protocol's: {problem}")
        if hello.get("format") != FORMAT:
            raise EngineError(f"the engine speaks format {hello.get('format')!r}, not {FORMAT}")
        problem = check_hello(hello)
        if problem:
            raise EngineError(f"the engine's hello: {problem}")
        self.hello = hello
        return hello

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
                raise EngineError("the engine closed its input (crashed?)") from None

    def receive(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer within {self.timeout:g} s")
            try:
                kind, value = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineError(f"no answer within {self.timeout:g} s") from None
            if kind == "end":
                try:
                    code = self.proc.wait(timeout=min(1.0, max(left, 0.1)))
                except subprocess.TimeoutExpired:
                    code = None
                raise EngineError(f"the engine exited (status {code})" if code is not None
                                  else "the engine closed its output")
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
                raise EngineError(f"the engine printed something that is not JSON "
                                  f"({exc.message}): {shown!r}") from None

    def kill(self) -> None:
        """Kill the engine's whole process group, and every process carrying
        its marker that left the group."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            try:
                self.proc.kill()
            except OSError:
                pass
        _kill_marked(self.marker)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self.reader is not None:
            self.reader.join(timeout=2)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is self.proc.stdout and self.reader is not None and self.reader.is_alive():
                continue      # something outside the group still holds it: leave it
            try:
                pipe.close()
            except OSError:
                pass
        self.proc = None
        self.reader = None


MARKER = "FSM_ENGINE_RUN"      # set in an engine's environment: which run started it


def _kill_marked(marker: str) -> None:
    """SIGKILL every process whose environment holds ``MARKER=marker`` (Linux:
    read from /proc; elsewhere only the process group is ended)."""
    needle = f"{MARKER}={marker}".encode() + b"\0"
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                if needle not in fh.read() + b"\0":
                    continue
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            continue


def run_program(vectors, command: str, timeout: float = 10.0,
                hello_seen: dict | None = None) -> list[Outcome]:
    """Run ``vectors`` on ``command``; ``hello_seen``, when given, receives the
    engine's handshake (its name for the reports)."""
    engine = Engine(command, timeout)
    out = []
    try:
        hello = engine.start()
        if hello_seen is not None:
            hello_seen.update(hello)
    except EngineNotStarted:
        raise                    # bad input: the run has no engine to fail
    except EngineError as exc:
        engine.stop()
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
    engine.stop()
    return out
