"""The mutation score: each mutant of each family run against the vectors of
its ruleset, in-process; a mutant is killed when some vector fails."""

from __future__ import annotations

from .mistakes import mistakes, zoo
from .mutation import Mutant, mutants
from .reference import run_in_process
from .vectors import FAIL

FAMILIES = ("guards", "mistakes", "zoo")


def family(name: str) -> list[Mutant]:
    """The mutants of one family: ``guards`` (the reference's own guards and
    timing switched off or forced), ``mistakes`` (:mod:`.mistakes`) or
    ``zoo`` (the mistakes real trackers ship, :data:`.mistakes.ZOO`)."""
    if name == "guards":
        return mutants()
    if name == "zoo":
        return zoo()
    return mistakes()


def _with_defaults(doc: dict, defaults: dict | None) -> dict:
    if not defaults:
        return doc
    return dict(doc, options={**defaults, **(doc.get("options") or {})})


def score(vectors, only=None, families=("guards",), enough=None,
          verdicts_only: bool = False) -> list[tuple[Mutant, list[str]]]:
    """For each mutant, the ids of the vectors that kill it (empty: it
    survives); with ``enough`` N, only the first N of them (a quicker score).
    ``verdicts_only``: as an engine reporting verdicts and reason codes only
    is judged, no facts and no rule ids."""
    results = []
    for m in (m for name in families for m in family(name)):
        if only and m.id not in only:
            continue
        mine = [(p, _with_defaults(d, m.defaults)) for p, d in vectors
                if d.get("ruleset") == m.ruleset]
        outcomes = run_in_process(mine, ruleset=m.value, stop_after=enough,
                                  verdicts_only=verdicts_only)
        results.append((m, [o.id for o in outcomes if o.status == FAIL]))
    return results



