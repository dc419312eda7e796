"""Reading an engine's two outputs: its stdout as protocol lines, bounded,
and the last lines of its stderr, kept to say why it crashed.

Both are read by threads of their own, all the time, so an engine never
blocks on a full pipe, and neither can make the runner hold more than a
line's limit (stdout) or a few kilobytes (stderr) of what it printed.
"""

from __future__ import annotations

import os
import queue
import threading

from ..io.terminal import safe

MAX_LINE = 4 * 1024 * 1024        # bytes in one line from an engine (spec/PROTOCOL.md)
STDERR_KEPT = 8192                # bytes of an engine's stderr kept, the last ones
STDERR_LINES = 5                  # lines of it shown in a message
STDERR_WIDTH = 200                # characters of each shown line


def pump(fd: int, lines: queue.Queue) -> None:
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


class StderrTail:
    """The last :data:`STDERR_KEPT` bytes an engine wrote to stderr, read
    by a thread until the pipe closes."""

    def __init__(self, fd: int):
        self.kept = bytearray()
        self.closed = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(fd,), daemon=True)
        self.thread.start()

    def _read(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            with self.lock:
                self.kept += chunk
                del self.kept[:-STDERR_KEPT]
        self.closed.set()

    def tail(self, wait: float = 1.0) -> str:
        """The last few lines, on one line (`` | `` between them), escaped for
        a terminal, each cut to :data:`STDERR_WIDTH`; "" when it wrote
        nothing. Waits up to ``wait`` s for the pipe to close, so that what
        a crashing engine wrote last is there."""
        self.closed.wait(wait)
        with self.lock:
            text = bytes(self.kept).decode("utf-8", errors="replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        shown = []
        for line in lines[-STDERR_LINES:]:
            line = safe(line)
            shown.append(line if len(line) <= STDERR_WIDTH else line[:STDERR_WIDTH - 1] + "…")
        return " | ".join(shown)
