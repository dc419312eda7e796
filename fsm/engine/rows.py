"""The table's values: phases, rows, refusals, and the index the engine reads.

A ruleset's table is a tuple of :class:`Row` and a tuple of :class:`Refusal`.
Rows are written through a :class:`Guards` book, which names the guards a
ruleset may use; the rows then hold the guard values themselves. A row says which step, from which phases, to which phase, under which
guards (each with the rule ids it enforces on that row), and which effects
run once the guards pass. A refusal lists phases where a step can never be
allowed and the guards that say why, so that every (phase, step) pair is
decided by exactly one row or refusal. Machine rows (``by=MACHINE``) are
fired by the engine itself as it settles the stack before a step.

Phases (the machine's states) are those of the top frame of the stack::

    turn_start        a turn has begun; start-of-turn triggers may be answered
    turn_acting       the turn's owner may start an action; nothing is pending
    window_interrupt  a trigger is pending: declared, not yet resolved
    window_reaction   a trigger has resolved (wholly, or one of its parts)
    turn_end          the turn's owner has ended it; end-of-turn triggers open
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from types import ModuleType

from ..errors import TableError
from .guard import Guard

# The phases. STARTING and ENDING are the phases of a turn's moments, not the
# moments themselves (frames.TURN_START and TURN_END are kinds of frame).
STARTING = "turn_start"
ACTING = "turn_acting"
BEFORE = "window_interrupt"
AFTER = "window_reaction"
ENDING = "turn_end"

# Each phase in words, for people (the ids stay in JSON and tooltips)
PHASE_NOTES = {
    STARTING: "start-of-turn triggers open",
    ACTING: "the turn's owner may act",
    BEFORE: "a trigger is declared, unresolved",
    AFTER: "a trigger (or a part) resolved",
    ENDING: "end-of-turn triggers open",
}

# Each phase's name for people (a picture's node, a page): its id stays in tooltips
PHASE_NAMES = {
    STARTING: "turn starts",
    ACTING: "acting",
    BEFORE: "trigger declared",
    AFTER: "trigger resolved",
    ENDING: "turn ends",
}
STATES = (STARTING, ACTING, BEFORE, AFTER, ENDING)
TRIGGERED = (STARTING, BEFORE, AFTER, ENDING)   # phases where some trigger is open

PLAYER = "player"
MACHINE = "machine"

# The step names the engine itself knows, so every ruleset's table has rows
# for them (checked by fsm.rulesets.register): the turn's owner ends it, an
# event happens, the top of the stack resolves or goes on to its next part;
# and the machine's own rows, which the engine fires as it settles the stack.
END_TURN = "end-turn"
EVENT = "event"
RESOLVE = "resolve"
CONTINUE = "continue"
ENGINE_STEPS = (END_TURN, EVENT, RESOLVE, CONTINUE)
CLOSE = "close"
NEXT_TURN = "next-turn"
MACHINE_STEPS = (CLOSE, NEXT_TURN)


class _Cites:
    """What a row or refusal cites: its own rules, then its guards' rules."""

    def rule_ids(self) -> tuple:
        """The row's own rules, then its guards' rules, each once (computed once)."""
        ids = self.__dict__.get("_rule_ids")
        if ids is None:
            ids = tuple(dict.fromkeys(
                [*self.rules, *(r for _, rules in self.guards for r in rules)]))
            object.__setattr__(self, "_rule_ids", ids)
        return ids

    def cited(self, enc, st) -> tuple:
        """What an allowed step of this row cites: :meth:`rule_ids`, but the
        examples a guard finds it does not follow (PRECEDENCE.md)."""
        ids = self.rule_ids()
        left_out = {r for g, rules in self.guards if g.bears is not None
                    for r in set(rules) - set(g.bearing(enc, st, rules))}
        return tuple(r for r in ids if r not in left_out) if left_out else ids


@dataclass(frozen=True)
class Row(_Cites):
    """One transition: ``step`` from each of ``sources`` to ``dest``."""

    step: str
    sources: tuple
    dest: str
    guards: tuple = ()        # ((guard function, (rule ids, ...)), ...)
    effects: tuple = ()
    rules: tuple = ()         # rules the transition itself implements
    by: str = PLAYER

    @property
    def trigger(self) -> str:
        return self.step.replace("-", "_")


@dataclass(frozen=True)
class Refusal(_Cites):
    """Phases where ``step`` is always refused; the first failing guard names
    the reason. One of them must fail: a refusal whose guards all pass is a
    gap in the table (the engine raises :class:`fsm.errors.TableGap`)."""

    step: str
    sources: tuple
    guards: tuple = ()
    rules: tuple = ()

    @property
    def trigger(self) -> str:
        return self.step.replace("-", "_")

    by = PLAYER


def _ids(rules) -> tuple:
    return (rules,) if isinstance(rules, str) else tuple(rules)


class Guards:
    """The guards one ruleset's rows may name: the :class:`Guard` values of the
    given modules (or the values themselves), by name. Two different guards of
    one name are an error here, when the book is made, never a silent
    replacement; another ruleset's book is not touched. Rows name guards by
    keyword so that a table reads as the rules do; a name no guard of the
    book has is a :class:`~fsm.errors.TableError` when the row is written.
    (A static tool that follows names, not keywords, sees these guards as
    unused; the table's tests, ``fsm spec check`` and the mutants see each.)"""

    def __init__(self, *sources):
        self.by_name: dict[str, Guard] = {}
        for source in sources:
            values = vars(source).values() if isinstance(source, ModuleType) else [source]
            for g in values:
                if isinstance(g, Guard):
                    self.add(g)

    def add(self, g: Guard) -> Guard:
        taken = self.by_name.setdefault(g.name, g)
        if taken is not g:
            raise TableError(f"two guards are named {g.name!r} in one table; "
                             f"give one of them another name")
        return g

    def _named(self, named: dict) -> tuple:
        try:
            return tuple((self.by_name[name], _ids(rules)) for name, rules in named.items())
        except KeyError as exc:
            raise TableError(f"no guard named {exc.args[0]!r} in this table's book") from None

    def row(self, step, sources, dest, *effects, rules=(), by=PLAYER, **guards) -> Row:
        """A row; guards are given by name, each with the rule ids it enforces here."""
        return Row(step, tuple(sources), dest, self._named(guards), tuple(effects),
                   _ids(rules), by)

    def refuse(self, step, sources, rules=(), **guards) -> Refusal:
        return Refusal(step, tuple(sources), self._named(guards), _ids(rules))


def rewrite(rows, *, guard=None, effects=None, where=None) -> tuple:
    """``rows`` (or refusals) changed in one way, the only way the mutation
    kits change a table: each guard mapped by ``guard(g)``, each effects
    tuple by ``effects(row)``, on the rows ``where(row)`` holds (all by
    default). A row nothing changes is the same value."""
    out = []
    for r in rows:
        if where is None or where(r):
            if guard is not None:
                guards = tuple((guard(g), rules) for g, rules in r.guards)
                if any(a is not b for (a, _), (b, _) in zip(guards, r.guards)):
                    r = replace(r, guards=guards)
            if effects is not None and isinstance(r, Row):
                new = tuple(effects(r))
                if new != r.effects:
                    r = replace(r, effects=new)
        out.append(r)
    return tuple(out)


def guards_of(rows, refusals) -> dict:
    """The guards a table's rows and refusals hold, by name (first of each name)."""
    out: dict[str, Guard] = {}
    for r in (*rows, *refusals):
        for g, _ in r.guards:
            out.setdefault(g.name, g)
    return out


def check_names(rows, refusals) -> None:
    """Raise :class:`TableError` if two different guards of a table share a name."""
    book = Guards()
    for r in (*rows, *refusals):
        for g, _ in r.guards:
            book.add(g)


class Table:
    """A ruleset's rows and refusals, indexed by (phase, trigger)."""

    def __init__(self, rows: tuple, refusals: tuple):
        self.rows = tuple(rows)
        self.refusals = tuple(refusals)
        self.by_pair: dict = {}
        self.refuse_pair: dict = {}
        for r in self.rows:
            for s in r.sources:
                self.by_pair.setdefault((s, r.trigger), []).append(r)
        self.by_pair = {pair: tuple(rows) for pair, rows in self.by_pair.items()}
        for r in self.refusals:
            for s in r.sources:
                self.refuse_pair[(s, r.trigger)] = r
        self.player_steps = tuple(dict.fromkeys(r.step for r in self.rows if r.by == PLAYER))
        self.machine_steps = tuple(dict.fromkeys(r.step for r in self.rows if r.by == MACHINE))
        self.machine_triggers = tuple(s.replace("-", "_") for s in self.machine_steps)
        self.kinds = frozenset(self.player_steps)

        self.guards = guards_of(self.rows, self.refusals)

    def guard_names(self) -> set:
        return set(self.guards)

    @cached_property
    def reason_codes(self) -> frozenset:
        """Every reason code a verdict of this table can give."""
        return frozenset(code for g in self.guards.values()
                         for code in (g.reason, g.gm_reason) if code)

    @cached_property
    def cited(self) -> frozenset:
        """Every rule id a verdict of this table can cite."""
        return frozenset(rule for r in (*self.rows, *self.refusals) for rule in r.rule_ids())
