"""What a guard is, and how its answer counts.

A guard reads the encounter and the step and answers ``True`` (the limit
holds), ``False`` (the step breaks it) or :data:`GM` (the text leaves the
decision to the game master and no option settles it). Guards never change
anything. Each carries the stable reason code reported when it fails and a
one-line explanation; the rule ids it enforces are attached per row of the
table, since one guard (say, "on your own turn") serves several rules.

Three kinds, all registered by name in :data:`GUARDS` so that a table row
can name them: rule limits (:func:`guard`), timing decisions of the
machine's own rows (:func:`timing`: a ``False`` refuses nothing), and the
routing of those rows to the phase beneath (:func:`routing`).
"""

from __future__ import annotations

GM = "gm"  # a guard's answer when the rules leave the step to the GM


class GuardInfo:
    __slots__ = ("name", "reason", "gm_reason", "says", "seen", "ok")

    def __init__(self, name, reason, gm_reason, says, seen, ok=None):
        self.name = name
        self.reason = reason
        self.gm_reason = gm_reason
        self.says = says
        self.seen = seen
        self.ok = ok              # what the limit saw when it let the step through


GUARDS: dict[str, object] = {}


def _register(fn, info, routing=False, structural=False):
    taken = GUARDS.get(fn.__name__)
    if taken is not None and (taken.__module__, taken.__qualname__) != \
            (fn.__module__, fn.__qualname__):
        # rows name their guards: a second guard of one name would silently
        # replace the first in every table built afterwards
        raise ValueError(f"a guard named {fn.__name__!r} exists already "
                         f"({taken.__module__}); give this one another name")
    fn.info = info
    if routing:
        fn.routing = True
    if structural:
        fn.structural = True
    GUARDS[fn.__name__] = fn
    return fn


def guard(reason: str, says: str, *, gm: str | None = None, seen=None, ok: str | None = None):
    """Register a rule limit with its reason code and a one-line explanation.

    ``says`` (why it refused) and ``ok`` (what it saw when it let the step
    through, for the reason of an allowed verdict) are formatted with the
    values returned by ``seen(enc, step)``.
    """
    return lambda fn: _register(fn, GuardInfo(fn.__name__, reason, gm, says, seen, ok))


def timing(says: str):
    """Register a timing decision of a machine row (spec/TIMING.md)."""
    return lambda fn: _register(fn, GuardInfo(fn.__name__, None, None, says, None),
                                routing=True)


def routing(fn):
    """Register a guard that only picks a machine row's destination."""
    return _register(fn, GuardInfo(fn.__name__, None, None, "", None), routing=True,
                     structural=True)


def _ok_words(enc, st, info) -> str:
    """What a limit saw when it let the step through, in words."""
    seen = info.seen(enc, st) if info.seen is not None else {}
    return info.ok.format_map({"actor": st.actor, **seen})


def judge(enc, st, fn, rules, is_routing) -> bool:
    """Whether guard ``fn`` lets the row fire, as every dispatcher takes it: a
    ``gm`` answer is noted and the checks after it still apply, whatever the
    step's ruling (the encounter undoes a denied step once they all passed); a
    failure is noted as a reason unless the guard only routes between rows."""
    answer = fn(enc, st)
    if answer is True:
        if enc.explaining and fn.info.ok:
            words = _ok_words(enc, st, fn.info)
            if words:                 # a limit that did not apply to this step says nothing
                enc.passed.append(words)
        return True
    if answer == GM:
        enc._gm_hits.append((fn, rules))
        return True
    if not is_routing:
        enc._failures.append((fn, rules))
    return False
