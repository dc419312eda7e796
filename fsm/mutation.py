"""Mutation score of the conformance suite: does some vector notice when a
guard is switched off, or a timing choice flipped?

Each mutant is a changed copy of one ruleset's table. The machine is rebuilt
from it, every vector of that ruleset is replayed in-process, and the mutant
is *killed* when at least one vector fails. A surviving mutant is a rule
limit no vector checks.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace

from . import effects as fx
from . import encounter as E
from . import table as T


@dataclass
class Mutant:
    id: str
    ruleset: str
    description: str
    rows: tuple
    refusals: tuple
    defaults: dict | None = None    # options taken by vectors that do not set them


def _constant(fn, answer: bool):
    def mutant(enc, st):
        return answer

    mutant.__name__ = fn.__name__
    mutant.info = fn.info
    mutant.routing = getattr(fn, "routing", False)
    return mutant


def _always(fn):
    return _constant(fn, True)


def _without_guard(rows, name, answer=True):
    out = []
    for r in rows:
        guards = tuple((_constant(fn, answer) if fn.__name__ == name else fn, rules)
                       for fn, rules in r.guards)
        out.append(replace(r, guards=guards))
    return tuple(out)


def _without_effect(rows, effect):
    return tuple(replace(r, effects=tuple(e for e in r.effects if e is not effect))
                 for r in rows)


def _timing_guards(rows) -> list:
    """Guards of machine rows that decide timing (not the ones that only pick
    the destination), in table order."""
    names = {}
    for r in rows:
        if r.by != T.MACHINE:
            continue
        for fn, _ in r.guards:
            if getattr(fn, "routing", False) and not getattr(fn, "structural", False):
                names.setdefault(fn.__name__, fn)
    return list(names)


def _swap_guard(rows, step, old, new_fn):
    out = []
    for r in rows:
        if r.step == step:
            guards = tuple((new_fn if fn.__name__ == old else fn, rules) for fn, rules in r.guards)
            r = replace(r, guards=guards)
        out.append(r)
    return tuple(out)


def _move_effect(rows, effect, from_step, to_step):
    out = []
    for r in rows:
        if r.step == from_step:
            r = replace(r, effects=tuple(e for e in r.effects if e is not effect))
        elif r.step == to_step:
            r = replace(r, effects=r.effects + (effect,))
        out.append(r)
    return tuple(out)


def reset_reactions_at_turn_end(enc, st):
    """Mutant effect: PF2 reactions come back at the end of your turn, not its start."""
    f = enc.fighters[enc.active]
    f.reactions = f.reactions_max


def refresh_actions_only(enc, st):
    """Mutant effect: the start of a PF2 turn gives back actions but not the reaction."""
    f = enc.fighters[enc.active]
    f.actions = f.actions_max


def mutants() -> list[Mutant]:
    from . import guards as g

    out = []
    for ruleset, (rows, refusals) in T.TABLES.items():
        names = sorted(T.guard_names(ruleset) - {n for n in T.guard_names(ruleset)
                                                  if getattr(getattr(g, n, None), "routing",
                                                             False)})
        for name in names:
            out.append(Mutant(f"{ruleset}:no-{name}", ruleset, f"guard {name} switched off",
                              _without_guard(rows, name), _without_guard(refusals, name)))
        # the timing of the machine rows (spec/TIMING.md): each decision forced
        # either way
        for name in _timing_guards(rows):
            if name == "not_kept":
                continue
            for answer, word in ((True, "always"), (False, "never")):
                out.append(Mutant(f"{ruleset}:{name}-{word}", ruleset,
                                  f"timing guard {name} answers {word} yes",
                                  _without_guard(rows, name, answer), refusals))
        for effect in (fx.owner_moves_on, fx.keep_window):
            if any(effect in r.effects for r in rows):
                out.append(Mutant(f"{ruleset}:no-{effect.__name__}", ruleset,
                                  f"effect {effect.__name__} dropped",
                                  _without_effect(rows, effect), refusals))
    rows, refusals = T.TABLES["dnd4e"]
    flipped = _swap_guard(_swap_guard(rows, "interrupt", "trigger_pending", g.trigger_resolved),
                          "reaction", "trigger_resolved", g.trigger_pending)
    out.append(Mutant("dnd4e:interrupt-reaction-flipped", "dnd4e",
                      "interrupts come after their trigger, reactions before", flipped, refusals))
    out.append(Mutant("dnd4e:immediate-reset-at-turn-start", "dnd4e",
                      "the immediate action comes back at the start of your turn, not its end",
                      _move_effect(rows, fx.reset_immediate, "end-turn", "next-turn"),
                      refusals))
    rows, refusals = T.TABLES["pf2e"]
    moved = []
    for r in rows:
        if r.step == "next-turn":
            r = replace(r, effects=tuple(refresh_actions_only if e is fx.refresh_pf2_budgets
                                         else e for e in r.effects))
        elif r.step == "end-turn":
            r = replace(r, effects=(reset_reactions_at_turn_end,) + r.effects)
        moved.append(r)
    out.append(Mutant("pf2e:reaction-refresh-at-turn-end", "pf2e",
                      "the reaction comes back at the end of your turn, not its start",
                      tuple(moved), refusals))
    return out


@contextmanager
def installed(mutant: Mutant):
    """Run the machine on the mutant's table for the duration of the block."""
    saved = T.TABLES[mutant.ruleset]
    T.TABLES[mutant.ruleset] = (mutant.rows, mutant.refusals)
    E._TRANSITIONS_CACHE.pop(mutant.ruleset, None)
    E._INDEX_CACHE.pop(mutant.ruleset, None)
    try:
        yield
    finally:
        T.TABLES[mutant.ruleset] = saved
        E._TRANSITIONS_CACHE.pop(mutant.ruleset, None)
        E._INDEX_CACHE.pop(mutant.ruleset, None)


FAMILIES = ("guards", "mistakes")


def family(name: str) -> list[Mutant]:
    """The mutants of one family: ``guards`` (the reference's own guards and
    timing switched off or forced) or ``mistakes`` (:mod:`fsm.mistakes`)."""
    if name == "guards":
        return mutants()
    from .mistakes import mistakes
    return mistakes()


def _with_defaults(doc: dict, defaults: dict | None) -> dict:
    if not defaults:
        return doc
    return dict(doc, options={**defaults, **(doc.get("options") or {})})


def score(vectors, only=None, families=("guards",)) -> list[tuple[Mutant, list[str]]]:
    """For each mutant, the ids of the vectors that kill it (empty: it survives)."""
    from .conformance import run_in_process, FAIL

    results = []
    for m in (m for name in families for m in family(name)):
        if only and m.id not in only:
            continue
        mine = [(p, _with_defaults(d, m.defaults)) for p, d in vectors
                if d.get("ruleset") == m.ruleset]
        with installed(m):
            outcomes = run_in_process(mine)
        results.append((m, [o.id for o in outcomes if o.status == FAIL]))
    return results
