"""Mutants that model the mistakes engine authors make.

``fsm mutate``'s first family switches the reference's own guards off; it
cannot see a bug an independent engine makes in its own way. This second
family builds engines with such bugs, each a small change of a table: a
wrong default for any option, two checks made in the other order wherever
both can fail (this module), and each ruleset's own catalogue (a budget
refreshed at the wrong moment or for the wrong combatants, shared by a side
instead of kept per creature, a cost refunded on loss or disruption, an
answer that never sits on the stack, windows that outlive the turn). The
conformance suite is worth what it certifies: every one of them must make
some vector fail.
"""

from __future__ import annotations

from dataclasses import replace

from ..engine.frames import DONE
from ..engine.rows import AFTER, rewrite
from ..rulesets import RULESETS, common
from .mutation import Mutant


class Kit:
    """What a ruleset's catalogue builds its mistakes with."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    @staticmethod
    def swap_effect(rows, old, new):
        return rewrite(rows, effects=lambda r: (new if e is old else e for e in r.effects))

    @staticmethod
    def add_effect(rows, step, effect):
        return rewrite(rows, effects=lambda r: r.effects + (effect,),
                       where=lambda r: r.step == step)

    @staticmethod
    def swap_guard(rows, old, new):
        return rewrite(rows, guard=lambda g: new if g is old else g)

    @staticmethod
    def as_guard(check, like):
        """Guard ``like`` (its name, reasons and kind) deciding with ``check``."""
        return like.checking(check)

    def answers_at_once(self, rows):
        """Answers pushed already resolved: an engine without a stack of answers."""
        answers = self.ruleset.answer_kinds
        pushed = rewrite(rows, effects=lambda r: (push_resolved if e is common.push_frame
                                                  else e for e in r.effects),
                         where=lambda r: r.step in answers)
        return tuple(replace(r, dest=AFTER) if r.step in answers else r for r in pushed)

    def windows_survive_the_turn(self, rows):
        return self.swap_effect(rows, common.open_next_turn, keep_windows_past_the_turn)


def push_resolved(enc, st):
    """An answer that takes effect at once, never sitting on the stack."""
    common.push_frame(enc, st)
    top = enc.stack[-1]
    top.done = top.parts
    top.phase = "resolved"
    top.window_part = top.done
    top.outcome = DONE
    enc.note(st, top, DONE)


def keep_windows_past_the_turn(enc, st):
    """The next turn starts, but windows kept open stay open."""
    kept = dict(enc.kept)
    enc.kept.clear()
    common.open_next_turn(enc, st)
    enc.kept.update(kept)


def mistakes() -> list:
    """Every engine-author mistake, as a :class:`~fsm.conformance.mutation.Mutant`."""

    out = []
    for name, rs in RULESETS.items():
        for opt in rs.options:
            for value in opt.choices or (0, 1):
                if value != opt.default:
                    out.append(Mutant(f"{name}:default-{opt.name}={value}", name,
                                      f"default of {opt.name} taken as {value}", rs.rows,
                                      rs.refusals, defaults={opt.name: value}))
    for name, rs in RULESETS.items():
        if rs.mistakes is not None:
            out += [Mutant(f"{name}:{mid}", name, why, rows, refusals)
                    for mid, why, rows, refusals in rs.mistakes(rs.rows, rs.refusals, Kit(rs))]
    out += precedence_mistakes()
    return out


def observable_precedences() -> dict | None:
    """ruleset -> {(step, row or refused, first, second)}: neighbouring checks that
    fail together somewhere in the reachable graph (spec/COVERAGE.json), or None
    without it."""
    import json
    import os
    from ..paths import default_root

    path = os.path.join(str(default_root()), "spec", "COVERAGE.json")
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    return {rs: {tuple(k[1:]) for k in c.get("precedence", ())}
            for rs, c in doc.get("rulesets", {}).items()}


def precedence_mistakes() -> list:
    """A check made too early: in each row and refusal, a guard moved before
    the guard just ahead of it, where the two can fail together (the orders
    that can differ, as spec/COVERAGE.json lists them)."""

    observable = observable_precedences()
    out = []
    for name, rs in RULESETS.items():
        rows, refusals = rs.rows, rs.refusals
        seen = set()
        for group, is_rows in ((rows, True), (refusals, False)):
            for r in group:
                if getattr(r, "by", "player") != "player":
                    continue
                for k in range(1, len(r.guards)):
                    first, second = r.guards[k - 1][0], r.guards[k][0]
                    if not (first.reason and second.reason) or \
                            first.reason == second.reason:
                        continue
                    where = "row" if is_rows else "refused"
                    key = (r.step, where, first.name, second.name)
                    if key in seen or (observable is not None
                                       and key not in observable.get(name, ())):
                        continue
                    seen.add(key)
                    swapped = list(r.guards)
                    swapped[k - 1], swapped[k] = swapped[k], swapped[k - 1]
                    changed = tuple(replace(x, guards=tuple(swapped)) if x is r else x
                                    for x in group)
                    new_rows, new_refusals = (changed, refusals) if is_rows else (rows, changed)
                    out.append(Mutant(f"{name}:order-{r.step}-{where}:{second.name}"
                                      f"-before-{first.name}", name,
                                      f"{r.step}: {second.name} checked before "
                                      f"{first.name}", new_rows, new_refusals))
    return out
