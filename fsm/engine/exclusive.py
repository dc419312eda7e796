"""One call at a time on one encounter, whatever the threads.

An :class:`~fsm.engine.encounter.Encounter` is one mutable value. A step
changes it, and the questions that try a step and put the state back
(``try_step``, ``possible``) change it for a while too: two threads calling
into one encounter at once would interleave those changes, undo each
other's steps or leave the stack half built. So each public method that
reads or changes the state holds the encounter's lock for the whole call.
The lock is re-entrant (``try_step`` plays ``step``, ``facts`` reads
``budgets``); a second thread waits until the first one's call has ended,
and then sees the encounter as that call left it. Uncontended, the lock
costs a third of a microsecond a call (bench/README.md).
"""

from __future__ import annotations

import threading
from functools import wraps

new_lock = threading.RLock


def one_call_at_a_time(*names):
    """Class decorator: the methods ``names`` hold ``self._lock`` while they
    run (the class's ``__init__`` sets ``self._lock = new_lock()``)."""

    def wrap(method):
        @wraps(method)
        def locked(self, *args, **kwargs):
            with self._lock:
                return method(self, *args, **kwargs)
        return locked

    def decorate(cls):
        for name in names:
            setattr(cls, name, wrap(getattr(cls, name)))
        return cls

    return decorate
