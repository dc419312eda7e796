"""The written timing, held against the table.

``spec/TIMING.md`` states the timing of the machine in clauses; each clause
names the table rows, guards and effects that implement it (``Table:``) and
the sentences or register entries it rests on (``Rests on:``).
``spec/PRECEDENCE.md`` lists, for every phase and step kind, the checks in the
order the machine makes them; it is generated from the table.

:func:`check` verifies both: every citation exists, every name is in the
table, every timing guard and machine row is named by some clause, and the
precedence file is fresh. ``fsm spec check`` runs it.
"""

from __future__ import annotations

import re

from ..engine.rows import MACHINE, PLAYER, STATES
from ..rulesets import RULESETS

CLAUSE = re.compile(r"^### (T-[A-Z0-9-]+)\s*$")
MENTION = re.compile(r"\bT-[A-Z][A-Z0-9-]*[A-Z0-9]\b")


def clauses(text: str) -> list[dict]:
    """The clauses of TIMING.md: id, the ids it rests on, the table names it gives."""
    out: list[dict] = []
    for line in text.splitlines():
        m = CLAUSE.match(line)
        if m:
            out.append({"id": m.group(1), "rests": [], "table": [], "has_rests": False,
                        "has_table": False, "body": ""})
            continue
        if not out:
            continue
        current = out[-1]
        if line.startswith("Rests on:"):
            current["has_rests"] = True
            current["rests"] = _names(line[len("Rests on:"):])
        elif line.startswith("Table:"):
            current["has_table"] = True
            current["table"] = _names(line[len("Table:"):])
        else:
            current["body"] += line + "\n"
    return out


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def table_names() -> dict:
    """Every name the table gives: step names, guard names and effect names,
    each with what it is."""
    names: dict = {}
    for rs in RULESETS.values():
        for r in (*rs.rows, *rs.refusals):
            names.setdefault(r.step, "step")
            for g, _ in r.guards:
                names.setdefault(g.name, "guard")
            for fn in getattr(r, "effects", ()):
                names.setdefault(fn.__name__, "effect")
    return names


def timing_names() -> set:
    """What the timing document must show: every machine row's step, guards and
    effects, and every effect that closes or keeps windows on a player's row."""
    wanted = set()
    window_effects = {"owner_moves_on", "next_part", "resolve_part", "keep_window",
                      "close_part_window", "close_part_window_if_strict"}
    for rs in RULESETS.values():
        for r in rs.rows:
            if r.by == MACHINE:
                wanted.add(r.step)
                wanted.update(g.name for g, _ in r.guards)
                wanted.update(fn.__name__ for fn in r.effects)
            wanted.update(fn.__name__ for fn in r.effects if fn.__name__ in window_effects)
    return wanted


def check(text: str, known_ids: set, precedence_text: str | None) -> list[str]:
    """Every problem with TIMING.md and PRECEDENCE.md (empty when they hold)."""
    problems: list[str] = []
    add = problems.append
    found = clauses(text)
    if not found:
        return ["spec/TIMING.md: no clauses (### T-...)"]
    ids = [c["id"] for c in found]
    for cid in sorted({i for i in ids if ids.count(i) > 1}):
        add(f"spec/TIMING.md: clause {cid} is given twice")
    names = table_names()
    shown = set()
    for c in found:
        where = f"spec/TIMING.md {c['id']}"
        if not c["has_rests"] or not c["rests"]:
            add(f"{where}: cites nothing (a 'Rests on:' line of sentence or register ids)")
        if not c["has_table"] or not c["table"]:
            add(f"{where}: names nothing of the table (a 'Table:' line)")
        for rid in c["rests"]:
            if rid not in known_ids:
                add(f"{where}: rests on unknown id {rid}")
        for name in c["table"]:
            if name not in names:
                add(f"{where}: names {name!r}, which no row, guard or effect of the table has")
            shown.add(name)
    for mention in sorted(set(MENTION.findall(text)) - set(ids)):
        add(f"spec/TIMING.md: mentions {mention}, which is no clause")
    for name in sorted(timing_names() - shown):
        add(f"spec/TIMING.md: {name} decides timing in the table but no clause names it")
    if precedence_text is not None and precedence_text != render_precedence():
        add("spec/PRECEDENCE.md is stale: run `fsm spec map` to regenerate it")
    return problems


# -- the precedence table -----------------------------------------------------------

def _check_words(g, rules) -> str:
    """One check: its name, the reason it gives, the rule ids its verdict cites."""
    if g.reason and g.gm_reason:
        words = f"`{g.name}` → `{g.reason}` (or `{g.gm_reason}`)"
    elif g.reason:
        words = f"`{g.name}` → `{g.reason}`"
    elif g.gm_reason:
        words = f"`{g.name}` → `{g.gm_reason}`"
    else:
        words = f"`{g.name}`"
    return f"{words} [{', '.join(rules)}]" if rules else words


def _checks(r) -> str:
    return ", ".join(_check_words(fn, rules) for fn, rules in r.guards)


def _phases(sources) -> str:
    return ", ".join(f"`{s}`" for s in STATES if s in sources)


def render_precedence() -> str:
    """spec/PRECEDENCE.md: for each ruleset, step kind and phase, the checks in
    order (generated; never edited by hand)."""
    lines = [
        "# Precedence of checks (normative, generated)",
        "",
        "Generated by `fsm spec map` from the transition table; `fsm spec check` fails",
        "when it is stale. For every step kind a player may write, in every phase,",
        "the checks the machine makes **in this order**, after settling the stack",
        "(spec/TIMING.md, T-SETTLE). The first check that fails gives the verdict",
        "`rejected` with its reason; a check that leaves the step to the GM gives",
        "`gm` with the reason in parentheses, and the checks after it still apply.",
        "A *refused* line has no way to pass: one of its checks always fails there.",
        "",
        "The rule ids in brackets are those a verdict cites: a `rejected` or `gm`",
        "verdict cites the ids after the check that decided it (when several checks",
        "leave the step to the GM, the first of them decides the reason and the ids);",
        "an allowed step cites the ids after *allowed* in the line of its phase.",
        "Where a check lists the texts' examples of its rule (5e's Shield and",
        "Counterspell), a verdict, allowed or not, cites only those the step",
        "follows (TIMING.md, T-5E-REACTION); 4e's surprise (4E-SURPRISE) is cited",
        "only in a surprise round (T-4E-SURPRISE).",
        "",
    ]
    for ruleset, rs in RULESETS.items():
        rows, refusals = rs.rows, rs.refusals
        lines += [f"## {ruleset}", ""]
        for kind in rs.player_steps:
            lines += [f"### {kind}", "", "| phases | outcome | checks, in order |",
                      "|---|---|---|"]
            for r in rows:
                if r.step == kind and r.by == PLAYER:
                    lines.append(f"| {_phases(r.sources)} | allowed [{', '.join(r.rule_ids())}]"
                                 f" unless a check fails | {_checks(r) or 'none'} |")
            for r in refusals:
                if r.step == kind:
                    lines.append(f"| {_phases(r.sources)} | refused | {_checks(r)} |")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
