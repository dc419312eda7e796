"""Mutation score of the conformance suite: does some vector notice when a
guard is switched off, a timing decision forced, or a timing choice flipped?

Each mutant is a ruleset value with a changed table (:meth:`Ruleset.with_table`):
every vector of that ruleset is replayed on it, in-process, and the mutant
is *killed* when at least one vector fails. A surviving mutant is a rule
limit no vector checks. Nothing global is replaced: the engine is built
from the mutant's table, passed in as a value.

Two families: ``guards`` (this module) and ``mistakes``
(:mod:`fsm.conformance.mistakes`); :mod:`fsm.conformance.scoring` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.rows import MACHINE, rewrite
from ..rulesets import RULESETS


@dataclass
class Mutant:
    id: str
    ruleset: str
    description: str
    rows: tuple
    refusals: tuple
    defaults: dict | None = None    # options taken by vectors that do not set them
    silent: str = ""                # why no verdict can show it (only facts can), if so
    rules: tuple = ()               # the rule ids it breaks, where that is declared

    @property
    def value(self):
        """The ruleset running on the mutant's table."""
        return RULESETS[self.ruleset].with_table(self.rows, self.refusals)


def replace_guard(rows, name, make):
    """``rows`` with every guard named ``name`` replaced by ``make(guard)``
    (made once per guard value, so the table still holds one guard of that name)."""
    made: dict = {}

    def swap(g):
        if g.name != name:
            return g
        if g not in made:
            made[g] = make(g)
        return made[g]
    return rewrite(rows, guard=swap)


def with_guard_forced(rows, name, answer=True):
    """``rows`` with the guard named ``name`` always answering ``answer``."""
    return replace_guard(rows, name, lambda g: g.answering(answer))


def _without_effect(rows, effect):
    return rewrite(rows, effects=lambda r: (e for e in r.effects if e is not effect))


def _timing_guards(rows) -> list:
    """Guards of machine rows that decide timing (not the ones that only pick
    the destination, nor those that only keep a row from firing twice), in
    table order."""
    names: dict = {}
    for r in rows:
        if r.by == MACHINE:
            for g, _ in r.guards:
                if g.routing and not (g.structural or g.once):
                    names.setdefault(g.name, g)
    return list(names)


# effects that close or keep windows, wherever a table uses them
WINDOW_EFFECTS = ("owner_moves_on", "keep_window")


# Mutants no verdict can tell from the reference, each with the reason: an
# engine reporting verdicts alone cannot be held to them, only one reporting
# its budgets. ``fsm mutate`` counts them apart when it scores verdicts only.
SILENT = {
    "dnd4e:immediate-reset-at-turn-start":
        "between the end and the start of one's turn come only one's own turn's "
        "steps, and no immediate action is taken on one's own turn",
    "dnd4e:actions-back-at-turn-end":
        "the actions come back at the start of the next turn all the same, and none is "
        "taken off one's own turn",
}


def mutants() -> list[Mutant]:
    out = []
    for name, rs in RULESETS.items():
        rows, refusals = rs.rows, rs.refusals
        for guard in sorted(g for g in rs.table.guard_names()
                            if not _is_routing(rows, refusals, g)):
            out.append(Mutant(f"{name}:no-{guard}", name, f"guard {guard} switched off",
                              with_guard_forced(rows, guard), with_guard_forced(refusals, guard)))
        # the timing of the machine rows (spec/TIMING.md): each decision forced
        for guard in _timing_guards(rows):
            for answer, word in ((True, "always"), (False, "never")):
                out.append(Mutant(f"{name}:{guard}-{word}", name,
                                  f"timing guard {guard} answers {word} yes",
                                  with_guard_forced(rows, guard, answer), refusals))
        effects = {e.__name__: e for r in rows for e in r.effects}
        for effect in WINDOW_EFFECTS:
            if effect in effects:
                out.append(Mutant(f"{name}:no-{effect}", name, f"effect {effect} dropped",
                                  _without_effect(rows, effects[effect]), refusals))
        if rs.mutants is not None:
            out += [Mutant(f"{name}:{mid}", name, why, new_rows, new_refusals,
                           silent=SILENT.get(f"{name}:{mid}", ""))
                    for mid, why, new_rows, new_refusals in rs.mutants(rows, refusals)]
    return out


def _is_routing(rows, refusals, name) -> bool:
    for r in (*rows, *refusals):
        for g, _ in r.guards:
            if g.name == name:
                return g.routing
    return False
