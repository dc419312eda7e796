"""What a guard is, and how its answer counts.

A guard reads the encounter and the step and answers ``True`` (the limit
holds), ``False`` (the step breaks it) or :data:`GM` (the text leaves the
decision to the game master and no option settles it). Guards never change
anything. Each is a :class:`Guard` value: its name, the stable reason code
reported when it fails, a one-line explanation, and whether it decides a
rule limit or only the machine's own timing. The rule ids it enforces are
attached per row of the table, since one guard (say, "on your own turn")
serves several rules.

Three kinds: rule limits (:func:`guard`), timing decisions of the machine's
own rows (:func:`timing`: a ``False`` refuses nothing), and the routing of
those rows to the phase beneath (:func:`routing`, *structural*: it picks a
destination and decides nothing). A guard belongs to no global registry: a
table's rows hold the values themselves, and a ruleset's rows name theirs
through a :class:`fsm.engine.rows.Guards` book of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

GM = "gm"  # a guard's answer when the rules leave the step to the GM


def guard_title(name: str) -> str:
    """A guard's name in words, for people ('trigger still open'); the name
    itself stays in JSON and tooltips."""
    return name.replace("_", " ")


@dataclass(frozen=True, eq=False)
class Guard:
    """A guard: ``check(enc, step)`` and what is reported about it.

    ``says`` (why it refused) and ``ok`` (what it saw when it let the step
    through, for the reason of an allowed verdict) are formatted with the
    values returned by ``seen(enc, step)``. Two guards are the same guard
    only if they are the same value (a mutant with the same name is another).
    """

    name: str
    check: Callable
    reason: str | None = None     # the reason code of a refusal
    gm_reason: str | None = None  # the reason code when it leaves the step to the GM
    says: str = ""
    seen: Callable | None = None
    ok: str | None = None
    routing: bool = False         # a machine row's decision: a False refuses nothing
    structural: bool = False      # only picks a machine row's destination
    once: bool = False            # only keeps its machine row from firing again on what
                                  # it did: forced, it loops or repeats another timing guard
    bears: Callable | None = None  # (enc, step, rules) -> those of its row's rules that
                                   # bear on the step (an example that fits it); all without

    def bearing(self, enc, st, rules) -> tuple:
        """Of ``rules`` (its row's for it), those that bear on the step."""
        return tuple(rules) if self.bears is None else tuple(self.bears(enc, st, rules))

    def __call__(self, enc, st):
        return self.check(enc, st)

    @property
    def title(self) -> str:
        return guard_title(self.name)

    def checking(self, check: Callable) -> "Guard":
        """The same guard (name, reasons, kind) deciding with ``check``."""
        return replace(self, check=check)

    def answering(self, answer) -> "Guard":
        """The same guard always answering ``answer``."""
        return replace(self, check=lambda enc, st: answer)

    def __repr__(self) -> str:
        return f"<guard {self.name}>"


class Outcomes:
    """What the guards of a step's rows said, in the order they said it: the
    checks that failed and those that left it to the GM (each with the rule
    ids of its row), and what the limits saw when they let it through."""

    __slots__ = ("failed", "gm", "passed", "notes", "cited")

    def __init__(self, notes=()):
        self.failed: list = []
        self.gm: list = []
        self.passed: list = []        # (words, their template, the values put in)
        self.notes: list = list(notes)   # what an effect did unasked (kept: settling's)
        self.cited: list = []         # the rule ids of the limits that said something

    def explained(self) -> tuple:
        """(the words of what the limits saw, each as (template, values))."""
        return (tuple(words for words, _, _ in self.passed),
                tuple((template, values) for _, template, values in self.passed))


def guard(reason: str, says: str, *, gm: str | None = None, seen=None, ok: str | None = None,
          bears=None):
    """A rule limit with its reason code and a one-line explanation; ``bears``
    picks, of its row's rules, those a verdict cites for the step (default: all)."""
    return lambda fn: Guard(fn.__name__, fn, reason, gm, says, seen, ok, bears=bears)


def timing(says: str, *, once: bool = False):
    """A timing decision of a machine row (spec/TIMING.md); ``once``: it only
    keeps the row from firing twice (no decision to force)."""
    return lambda fn: Guard(fn.__name__, fn, says=says, routing=True, once=once)


def routing(fn) -> Guard:
    """A guard that only picks a machine row's destination."""
    return Guard(fn.__name__, fn, routing=True, structural=True)


def _ok_values(enc, st, g: Guard) -> dict:
    """What a limit saw when it let the step through, to fill its ``ok`` words."""
    seen = g.seen(enc, st) if g.seen is not None else {}
    return {"actor": st.actor, **seen}


def judge(enc, st, g: Guard, rules) -> bool:
    """Whether guard ``g`` lets the row fire, as every dispatcher takes it: a
    ``gm`` answer is noted and the checks after it still apply, whatever the
    step's ruling (the encounter undoes a denied step once they all passed); a
    failure is noted as a reason unless the guard only routes between rows.
    What is noted goes to the step's own record (:class:`Outcomes`), since a
    ``transitions`` condition can only answer yes or no."""
    answer = g.check(enc, st)
    if answer is True:
        if enc.explaining and g.ok:
            values = _ok_values(enc, st, g)
            words = g.ok.format_map(values)
            if words:                 # a limit that did not apply to this step says nothing
                st.outcomes.passed.append((words, g.ok, values))
                st.outcomes.cited.extend(g.bearing(enc, st, rules))
        return True
    if answer == GM:
        st.outcomes.gm.append((g, rules))
        return True
    if not g.routing:
        st.outcomes.failed.append((g, rules))
    return False
