"""Ending every process an engine under test started, however the run ends.

An engine runs in a session and process group of its own, so that a
Ctrl-C at the terminal reaches the runner alone, which then ends the
engine itself. Every process the engine starts inherits :data:`MARKER` in
its environment, the run's own value. To end an engine, its group is
killed, then every process carrying the marker (a daemon that left the
group with ``setsid()`` included) is killed and waited for, and /proc is
read again, until a reading finds none alive, none it could not tell
and no process newly ended: a process forked while one reading was made
is found by the next, as is the child of one that forked and exited
meanwhile; one just forked or exiting (whose environment reads empty)
is read again; none is reported gone before it has exited. On Linux, where the runner can read other processes'
environments; elsewhere only the group is ended. A process that clears
its environment escapes.
"""

from __future__ import annotations

import os
import select
import signal
import time
import uuid

MARKER = "FSM_ENGINE_RUN"      # set in an engine's environment: which run started it
ROUNDS = 100                   # readings of /proc before a process that will not die is left
KERNEL_THREAD = 0x00200000     # PF_KTHREAD in /proc/PID/stat: no environment, never an engine
WAIT = 5.0                     # seconds a killed process is given to exit, each reading


def new_marker() -> str:
    return f"{os.getpid()}-{uuid.uuid4().hex}"


def _needle(marker: str) -> bytes:
    return f"{MARKER}={marker}".encode() + b"\0"


CARRIES, CLEAR, UNSURE, ENDED = "carries", "clear", "unsure", "ended"


def _read(pid: int, needle: bytes) -> str:
    """What /proc says of ``pid`` now: it CARRIES the marker, is CLEAR of
    it (or a kernel thread), has ENDED (a zombie, whose environment reads
    empty), or is UNSURE: a process between fork and its first step, or
    one on its way out, reads as an empty environment while it still
    runs, and one listed may be gone by the time it is read."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            env = fh.read()
    except (FileNotFoundError, ProcessLookupError):
        env = b""
    except OSError:
        return CLEAR
    if needle in b"\0" + env:
        return CARRIES
    if env:
        return CLEAR
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        state, flags = fields[0], int(fields[6])
    except (OSError, IndexError, ValueError):
        return UNSURE
    if flags & KERNEL_THREAD:
        return CLEAR
    return ENDED if state in (b"Z", b"X") else UNSURE


def _carries(pid: int, needle: bytes) -> bool:
    return _read(pid, needle) == CARRIES


def reading(marker: str, ended: set | None = None):
    """One reading of /proc: the pids of the living processes carrying
    ``marker``, and whether the reading must be made again. It must when
    some process could not be told, or when a process has ended since
    the zombies in ``ended`` (which this reading updates) were seen: one
    that forked and exited after the listing passed its child's place
    leaves a child this reading did not list."""
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return [], False
    needle = _needle(marker)
    ended = set() if ended is None else ended
    found, again = [], False
    for pid in pids:
        if pid == os.getpid():
            continue
        seen = _read(pid, needle)
        if seen == CARRIES:
            found.append(pid)
        elif seen == UNSURE or (seen == ENDED and pid not in ended):
            again = True
        if seen == ENDED:
            ended.add(pid)
    return found, again


def marked(marker: str) -> list:
    """The pids of the living processes carrying ``marker``."""
    return reading(marker)[0]


def _kill(pid: int, needle: bytes):
    """SIGKILL ``pid`` if it still carries the marker; a pidfd to wait on
    (None when there is nothing to wait for or no pidfd here)."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    if not _carries(pid, needle):        # the pidfd, if any, names this very process
        if fd is not None:
            os.close(fd)
        return None
    try:
        if fd is not None:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    return fd


def _wait_gone(fds: list, pids: list, needle: bytes) -> None:
    """Wait, at most :data:`WAIT` s, until the killed processes have exited:
    on their pidfds where there are some, else by reading /proc again."""
    deadline = time.monotonic() + WAIT
    if fds:
        poller = select.poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        left = set(fds)
        while left and time.monotonic() < deadline:
            for fd, _ in poller.poll(max(0.0, deadline - time.monotonic()) * 1000):
                poller.unregister(fd)
                left.discard(fd)
        for fd in fds:
            os.close(fd)
        return
    while time.monotonic() < deadline and any(_carries(pid, needle) for pid in pids):
        time.sleep(0.01)


def end_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


def end_marked(marker: str) -> bool:
    """Kill every process carrying ``marker`` and wait for each to exit,
    until /proc shows none; False if some would not die in time."""
    if not marker:
        return True
    needle = _needle(marker)
    ended = set()
    for _ in range(ROUNDS):
        pids, again = reading(marker, ended)
        if not pids:
            if not again:
                return True
            time.sleep(0.001)          # let a forking or exiting process settle
            continue
        fds = [fd for fd in (_kill(pid, needle) for pid in pids) if fd is not None]
        _wait_gone(fds, pids, needle)
    return not marked(marker)
