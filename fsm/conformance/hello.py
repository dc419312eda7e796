"""What an engine's hello says it supports (spec/PROTOCOL.md, *Handshake*),
checked against what the suite knows, and which vectors that reaches.

A hello that names a ruleset, option, option value, step kind, step field,
fact, report or feature the suite does not know is refused in one line
naming the nearest known name: a misspelt ``pf2`` must not turn a run into
853 skipped vectors and a green badge. A hello may declare partial
support: per ruleset, the step kinds (``steps``) and step fields
(``fields``) the engine models; a vector needing another is skipped with
the reason, and the report counts the rules it left untested. Facts may be
declared whole (``budgets``) or per budget (``budgets.reaction``).
"""

from __future__ import annotations

import json

from ..engine.facts import NAMES as FACT_NAMES
from ..engine.steps import fields_of, suggest

SCENE = "scene"          # the hello feature of an engine that reads positions and paths
FEATURES = (SCENE,)
REPORTS = ("rules", "notes")
BUDGETS = "budgets"
INTEGER_OR_NULL = "integer-or-null"


def uses_scene(doc: dict) -> bool:
    """Whether a vector places its combatants on a grid (spec/FORMAT.md, the scene)."""
    return any(isinstance(c, dict) and "at" in c for c in doc.get("combatants") or ())


def budget_names(rs) -> tuple:
    """The budgets ``rs`` reports for a combatant, in its order."""
    from ..engine.encounter import Encounter
    enc = Encounter(rs, [("a", "x"), ("b", "y")])
    return tuple(enc.budgets("a"))


def _unknown(what: str, name, known) -> str:
    return f"unknown {what} {name!r}{suggest(name, known)}"


def check(hello: dict) -> str | None:
    """The first thing ``hello`` names that the suite does not know, in one
    line, or None. (Its shape is checked before, by spec/result.schema.json.)"""
    from ..rulesets import RULESETS, discover
    discover()
    rulesets = hello.get("rulesets") or {}
    if not rulesets:
        return "the hello names no ruleset: no vector could run"
    budgets: set = set()
    for name, entry in rulesets.items():
        rs = RULESETS.get(name)
        if rs is None:
            return _unknown("ruleset", name, RULESETS) + f" (known: {', '.join(RULESETS)})"
        budgets.update(budget_names(rs))
        entry = entry or {}
        for opt_name, values in (entry.get("options") or {}).items():
            opt = rs.option(opt_name)
            if opt is None:
                return f"{name}: " + _unknown("option", opt_name, [o.name for o in rs.options])
            if values == INTEGER_OR_NULL:
                if opt.choices is not None:
                    return (f"{name}: option {opt_name} takes one of "
                            f"{', '.join(map(str, opt.choices))}, not integers")
                continue
            for value in values:
                problem = opt.check(value)
                if problem:
                    return f"{name}: {problem}{suggest(value, opt.choices or ())}"
        for kind in entry.get("steps") or ():
            if kind not in rs.player_steps:
                return f"{name}: " + _unknown("step kind", kind, rs.player_steps)
        known_fields = fields_of(rs)
        for field in entry.get("fields") or ():
            if field not in known_fields:
                return f"{name}: " + _unknown("step field", field, known_fields)
    for fact in hello.get("facts") or ():
        if fact.startswith(BUDGETS + "."):
            budget = fact[len(BUDGETS) + 1:]
            if budget not in budgets:
                return _unknown("budget", budget, budgets) + \
                    " in the hello's facts (budgets.NAME)"
        elif fact not in FACT_NAMES:
            return _unknown("fact", fact, FACT_NAMES)
    for report in hello.get("reports") or ():
        if report not in REPORTS:
            return _unknown("report", report, REPORTS)
    for feature in hello.get("features") or ():
        if feature not in FEATURES:
            return _unknown("feature", feature, FEATURES)
    return None


def facts_of(hello: dict) -> tuple:
    """The facts an engine reports: whole names, and ``budgets.NAME`` for a
    budget it reports alone."""
    return tuple(hello.get("facts") or ())


def unsupported(doc: dict, hello: dict) -> str | None:
    """Why an engine cannot take this vector (by its declared support), or None."""
    rulesets = hello.get("rulesets") or {}
    rs = doc.get("ruleset")
    if rs not in rulesets:
        return f"ruleset {rs} not supported"
    if uses_scene(doc) and SCENE not in (hello.get("features") or ()):
        return "scene not supported (the engine's hello lists no \"scene\" feature)"
    entry = rulesets[rs] or {}
    options = entry.get("options") or {}
    for name, value in (doc.get("options") or {}).items():
        if name not in options:
            return f"option {name} not supported"
        allowed = options[name]
        if isinstance(allowed, list) and value not in allowed:
            return f"option {name}={json.dumps(value)} not supported"
    return beyond_support(doc, entry)


def beyond_support(doc: dict, entry: dict) -> str | None:
    """The first step of ``doc`` whose kind or field the ruleset's entry of a
    hello leaves out (its ``steps`` and ``fields``), or None."""
    kinds, fields = entry.get("steps"), entry.get("fields")
    if kinds is None and fields is None:
        return None
    for i, step in enumerate(doc.get("steps") or (), 1):
        if not isinstance(step, dict):
            continue
        kind = step.get("do")
        if kinds is not None and isinstance(kind, str) and kind not in kinds:
            return f"step {i} is a {kind!r} step, which the engine does not model " \
                   f"(its hello's steps)"
        if fields is not None:
            for name in step:
                if name not in ("do", "expect") and name not in fields:
                    return f"step {i} has field {name!r}, which the engine does not " \
                           f"read (its hello's fields)"
    return None


def wanted_budgets(expected: dict, facts) -> dict | None:
    """The part of a ``budgets`` expectation an engine reporting ``facts`` is
    held to: all of it, the budgets it names alone, or None."""
    if BUDGETS in facts:
        return expected
    alone = {f[len(BUDGETS) + 1:] for f in facts if f.startswith(BUDGETS + ".")}
    if not alone:
        return None
    kept = {who: {k: v for k, v in b.items() if k in alone} for who, b in expected.items()
            if isinstance(b, dict)}
    kept = {who: b for who, b in kept.items() if b}
    return kept or None
