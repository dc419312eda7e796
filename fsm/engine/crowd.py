"""Combatants no verdict can tell apart, so that what may happen now is judged
once for each kind of combatant, not once for each combatant.

Two combatants are *alike* when

* their fighters hold the same values but the id (side, budgets, square...);
* neither is the active combatant, nor the next in the initiative (the
  machine may start that one's turn as it settles before a step);
* neither is named anywhere else in what a verdict reads: the frames on the
  stack, those kept open and the one that left it last, the answers given
  (:class:`fsm.engine.state.Frozen` but the initiative and the past turns),
  and the values of any fighter.

Swapping the names of two alike combatants leaves that state as it was, but
for their places in the initiative and in the past turns; and the rules read
those only through whose turn it is now or next, and through the turn a serial in a
fighter's values names (the words of ``describe_turn``, the round of that
turn). So the verdict one of them gets for a step is the other's with the
two names swapped: :func:`reword` makes it, and fills the words again from
their templates. This is part of what a guard is (fsm.engine.guard): it may
tell the one who acts from others only by its values, by whether its turn
is now or next, and by where it is named.

Two of each class are tried, not one, and :func:`plan` holds the second's
answers to the first's reworded: the keys of what a guard saw that name the
one who acts are those that name each of the two (a word such as "never"
that is also a combatant's name stays a word), and a class whose two answer
apart (a guard that breaks the promise) is tried in full. The tests hold
``possible()`` to trying every combatant, over random timelines of every
ruleset in crowds of look-alikes; a guard that tells apart one that is not
among the two tried breaks them.

The classes are kept step by step: the encounter's journal notes each
fighter that changes (``Journal.changed``) and only those are placed again,
so that a call costs the same in a crowd of 50 as in one of 5,000 when they
come in a few kinds.
"""

from __future__ import annotations

from collections.abc import Mapping

from .frames import fighter_values, frame_values
from .setup import ANYONE
from .turn import next_in_order
from .verdict import Verdict, fill

_CONTAINERS = (tuple, list, frozenset, set)


def _named(value, names, found: set) -> set:
    """``found``, with every combatant id of ``names`` that ``value`` holds
    (in a tuple, list, set or dict, at any depth)."""
    kind = value.__class__
    if kind is str:
        if value in names:
            found.add(value)
    elif kind in _CONTAINERS:
        for v in value:
            _named(v, names, found)
    elif kind is dict:
        for k, v in value.items():
            _named(k, names, found)
            _named(v, names, found)
    return found


def _swap(value, old: str, new: str):
    """``value`` with the id ``old`` put as ``new`` wherever it is a whole
    value (a name inside words, such as "during orc's turn", stays)."""
    kind = value.__class__
    if kind is str:
        return new if value == old else value
    if kind in _CONTAINERS:
        return kind(_swap(v, old, new) for v in value)
    if kind is dict:
        return {k: new if v == old else v if v.__class__ is not dict and
                v.__class__ not in _CONTAINERS else _swap(v, old, new)
                for k, v in value.items()}
    return value


def _copy(verdict):
    """A copy of ``verdict``, field by field (what it saw copied too)."""
    out = object.__new__(Verdict)
    out.__dict__.update(verdict.__dict__)
    out.seen = dict(verdict.seen)
    return out


def reword(verdict, old: str, new: str, at=None):
    """The verdict ``new`` gets where ``old``, alike, got ``verdict``
    (``at``: the keys of its ``seen`` that name the one who acts, as
    :func:`plan` finds them; None: wherever a value is ``old``)."""
    says_from, because_from = verdict.templates
    if at is None:
        seen = _swap(verdict.seen, old, new)
    else:
        seen = verdict.seen.copy()
        for key in at:
            seen[key] = new
    says = verdict.says
    if says_from is not None and seen:
        says = fill(says_from, seen)
    because = verdict.because
    if because_from:
        because_from = tuple((words, _swap(values, old, new)) for words, values in because_from)
        because = tuple(words.format_map(values) for words, values in because_from)
    out = _copy(verdict)
    out.seen, out.says, out.because = seen, says, because
    out.templates = (says_from, because_from)
    return out


def _where_named(verdict, name: str):
    """The keys of the verdict's ``seen`` whose value is ``name``, or None
    when it holds lists of values (``name`` may be deeper)."""
    at = []
    for key, value in verdict.seen.items():
        if value == name:
            at.append(key)
        elif value.__class__ is dict or value.__class__ in _CONTAINERS:
            return None
    return tuple(at)


def plan(first: str, second: str, answers: dict, others: dict) -> dict | None:
    """How ``first``'s answers are worded for another of its class: for each
    kind, the keys of what was seen that name the one who acts (those that
    hold ``first`` in its answers and ``second`` in the answers of
    ``second``, so that a word that happens to be one of their names stays),
    or None for a swap wherever a value is the name. None when ``second``'s
    answers are not ``first``'s so worded: then the class is tried in full."""
    if answers.keys() != others.keys():
        return None
    out = {}
    for kind, verdict in answers.items():
        mine, theirs = _where_named(verdict, first), _where_named(others[kind], second)
        at = None if mine is None or theirs is None else \
            tuple(key for key in mine if key in theirs)
        if reword(verdict, first, second, at) != others[kind]:
            return None
        out[kind] = at
    return out


class Crowd:
    """An encounter's fighters grouped by their values but the id, kept up
    to date from the journal's note of who changed."""

    __slots__ = ("key_of", "groups", "_names")

    def __init__(self, enc):
        self.key_of: dict = {}       # combatant -> its values but the id
        self.groups: dict = {}       # those values -> {combatant: None}, in the order placed
        self._names: dict = {}       # those values -> the combatants they name
        enc.journal.changed = set()
        for fighter in enc.fighters.values():
            self._place(fighter)

    def _place(self, fighter) -> None:
        key = fighter_values(fighter)[1:]        # every slot but the first, the id
        old = self.key_of.get(fighter.id)
        if old == key:
            return
        if old is not None:
            group = self.groups[old]
            del group[fighter.id]
            if not group:
                del self.groups[old]
                self._names.pop(old, None)
        self.key_of[fighter.id] = key
        self.groups.setdefault(key, {})[fighter.id] = None

    def now(self, enc) -> tuple:
        """(the combatants alike to nobody, {values: the first two others
        that have them, or the one and None})."""
        changed = enc.journal.changed
        if changed:
            for fighter in changed:
                self._place(fighter)
            changed.clear()
        names = enc.fighters
        single = {enc.active, next_in_order(enc)}
        for frame in enc.stack:
            _named(frame_values(frame), names, single)
        for frame in enc.kept.values():
            _named(frame_values(frame), names, single)
        if enc.past_order:
            _named(frame_values(enc.past[enc.past_order[-1]]), names, single)
        _named(tuple(enc.uses.items()), names, single)
        for key in self.groups:
            named = self._names.get(key)
            if named is None:
                named = self._names[key] = frozenset(_named(key, names, set()))
            single |= named
        tried = {}
        for key, group in self.groups.items():
            two = []
            for cid in group:
                if cid not in single:
                    two.append(cid)
                    if len(two) == 2:
                        break
            if two:
                tried[key] = (two[0], two[1] if len(two) == 2 else None)
        return single, tried


def disagreement(enc):
    """Where :func:`fsm.engine.query.possible` and trying every combatant
    differ now, as (combatant, kind, shared answer, tried answer), or None:
    the check a ruleset of one's own can run on its guards, in a crowd of
    look-alikes (tests/test_crowd.py runs it on every ruleset here)."""
    shared, tried = enc.possible(), enc.possible(share=False)
    for who, row in tried.items():
        mine = shared[who]
        for kind in {**row, **mine}:
            if mine.get(kind) != row.get(kind):
                return who, kind, mine.get(kind), row.get(kind)
    return None


class Possible(Mapping):
    """What :func:`fsm.engine.query.possible` answers: combatant -> {kind:
    verdict}, then ``"*"``. The answers of a combatant alike to the one
    tried for it are worded for it the first time they are read."""

    __slots__ = ("_ids", "_answers", "_key_of", "_like", "_plans", "_star", "_made")

    def __init__(self, ids, answers, key_of, like, plans, star):
        self._ids, self._answers, self._key_of = ids, answers, key_of
        self._like, self._plans = like, plans   # values -> the one tried; its plan
        self._star, self._made = star, {}

    def __getitem__(self, who):
        if who == ANYONE:
            return self._star
        made = self._made.get(who)
        if made is None:       # each row its own, so that changing one changes no other
            if who in self._answers:
                made = {kind: _copy(v) for kind, v in self._answers[who].items()}
            else:
                like = self._like[self._key_of[who]]
                at = self._plans[like]
                made = {kind: reword(v, like, who, at[kind])
                        for kind, v in self._answers[like].items()}
            self._made[who] = made
        return made

    def __iter__(self):
        yield from self._ids
        yield ANYONE

    def __len__(self) -> int:
        return len(self._ids) + 1

    def __repr__(self) -> str:
        return repr(dict(self.items()))
