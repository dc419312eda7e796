"""Mutants that model the mistakes engine authors make.

``fsm mutate``'s first family switches the reference's own guards off; it
cannot see a bug an independent engine makes in its own way. This second
family builds engines with such bugs, each a small change of the table: a
wrong default, a budget refreshed at the wrong moment or for the wrong
combatants, a budget shared by a side instead of kept per creature, a window
closed too early or too late, a cost refunded on loss or disruption, an
answer that never sits on the stack, checks made in the wrong order. The
conformance suite is worth what it certifies: every one of them must make
some vector fail.
"""

from __future__ import annotations

from dataclasses import replace

from . import effects as fx
from . import guards as g
from . import table as T
from .frames import DONE
from .rulesets import RULESETS


def _swap_effect(rows, old, new):
    return tuple(replace(r, effects=tuple(new if e is old else e for e in r.effects))
                 for r in rows)


def _add_effect(rows, step, effect):
    return tuple(replace(r, effects=r.effects + (effect,)) if r.step == step else r
                 for r in rows)


def _swap_guard(rows, old, new):
    out = []
    for r in rows:
        out.append(replace(r, guards=tuple((new if fn is old else fn, rules)
                                           for fn, rules in r.guards)))
    return tuple(out)


def _as(fn, like):
    fn.__name__ = like.__name__
    fn.info = like.info
    if getattr(like, "routing", False):
        fn.routing = True
    return fn


# -- budgets refreshed at the wrong moment or for the wrong combatants ----------------

def immediate_back_every_turn(enc, st):
    """Every combatant's immediate action comes back at every turn's start."""
    for f in enc.fighters.values():
        f.immediate_used = False


def reactions_back_every_turn(enc, st):
    """Every creature's reactions come back at every turn's start."""
    for f in enc.fighters.values():
        f.reactions = f.reactions_max


def actions_back_at_turn_end(enc, st):
    """4e: the standard, move and minor actions come back as the turn ends."""
    f = enc.fighters[enc.active]
    f.standard = f.move = f.minor = 1


def _opportunity_round(enc, st):
    """One opportunity action per round instead of per turn."""
    f = enc.fighters[st.actor]
    if f.opportunity_turn < 1:
        return True
    index = f.opportunity_turn - 1 - enc.turns_base
    used_round = enc.turns[index][0] if 0 <= index < len(enc.turns) else 0
    return used_round != enc.round


# -- budgets shared by a side --------------------------------------------------------

def _side(enc, actor):
    side = enc.fighters[actor].side
    return [f for f in enc.fighters.values() if f.side == side]


def spend_immediate_side(enc, st):
    for f in _side(enc, st.actor):
        f.immediate_used = True
        f.immediate_turn = enc.turn_serial


def spend_reaction_side(enc, st):
    for f in _side(enc, st.actor):
        if f.reactions > 0:
            f.reactions -= 1


def spend_opportunity_side(enc, st):
    for f in _side(enc, st.actor):
        f.opportunity_turn = enc.turn_serial


def note_use_anyone(enc, st):
    """Answers to a trigger are remembered for everyone, not per creature."""
    kind = "reaction" if st.kind == "reaction" else "free"
    for actor in enc.fighters:
        key = (st.target.id, st.target.occurrence, actor)
        enc.uses[key] = enc.uses.get(key, ()) + ((kind, st.on),)


# -- costs refunded --------------------------------------------------------------------

def mark_lost_refunded(enc, st):
    top = enc.stack[-1]
    fx.mark_lost(enc, st)
    f = enc.fighters.get(top.owner)
    if f is not None and top.kind in ("standard", "ready"):
        f.standard += 1
    elif f is not None and top.kind == "move":
        f.move += 1


def mark_disrupted_refunded(enc, st):
    top = enc.stack[-1]
    fx.mark_disrupted(enc, st)
    f = enc.fighters.get(top.owner)
    if f is not None:
        f.actions += top.cost
        if top.kind == "reaction":
            f.reactions += 1


# -- frames dropped from the stack ------------------------------------------------------

def push_resolved(enc, st):
    """An answer that takes effect at once, never sitting on the stack."""
    fx.push_frame(enc, st)
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
    fx.open_next_turn(enc, st)
    enc.kept.update(kept)


# -- the catalogue -----------------------------------------------------------------------

def mistakes() -> list:
    """Every engine-author mistake, as a :class:`fsm.mutation.Mutant`."""
    from .mutation import Mutant

    out = []
    for ruleset, rs in RULESETS.items():
        rows, refusals = T.TABLES[ruleset]
        for opt in rs.options:
            values = opt.choices or (0, 1)
            for value in values:
                if value == opt.default:
                    continue
                out.append(Mutant(f"{ruleset}:default-{opt.name}={value}", ruleset,
                                  f"default of {opt.name} taken as {value}", rows, refusals,
                                  defaults={opt.name: value}))
    rows, refusals = T.TABLES["dnd4e"]
    answers = {"free-response", "no-action", "opportunity", "interrupt", "reaction",
               "readied"}
    catalogue = [
        ("immediate-back-every-turn", "every immediate action comes back at every turn",
         _add_effect(rows, "next-turn", immediate_back_every_turn)),
        ("actions-back-at-turn-end", "the turn's actions come back as it ends",
         _add_effect(rows, "end-turn", actions_back_at_turn_end)),
        ("opportunity-once-per-round", "one opportunity action per round, not per turn",
         _swap_guard(rows, g.opportunity_unused, _as(_opportunity_round, g.opportunity_unused))),
        ("immediate-shared-by-side", "one immediate action per side, not per creature",
         _swap_effect(rows, fx.spend_immediate, spend_immediate_side)),
        ("opportunity-shared-by-side", "one opportunity action per side and turn",
         _swap_effect(rows, fx.spend_opportunity, spend_opportunity_side)),
        ("lost-action-refunded", "a lost action gives its cost back",
         _swap_effect(rows, fx.mark_lost, mark_lost_refunded)),
        ("answers-resolve-at-once", "answers take effect at once, never on the stack",
         tuple(replace(r, effects=tuple(push_resolved if e is fx.push_frame else e
                                        for e in r.effects), dest=T.AFTER)
               if r.step in answers else r for r in rows)),
        ("windows-survive-the-turn", "windows kept open survive the next turn's start",
         _swap_effect(rows, fx.open_next_turn, keep_windows_past_the_turn)),
    ]
    out += [Mutant(f"dnd4e:{mid}", "dnd4e", why, new, refusals) for mid, why, new in catalogue]
    rows, refusals = T.TABLES["pf2e"]
    catalogue = [
        ("reactions-back-every-turn", "every creature's reactions come back at every turn",
         _add_effect(rows, "next-turn", reactions_back_every_turn)),
        ("reaction-shared-by-side", "one reaction per side, not per creature",
         _swap_effect(rows, fx.spend_reaction, spend_reaction_side)),
        ("one-answer-per-trigger-for-all", "one reaction or free action per trigger for "
         "everyone, not per creature", _swap_effect(rows, fx.note_use, note_use_anyone)),
        ("disruption-refunded", "a disrupted action gives its actions back",
         _swap_effect(rows, fx.mark_disrupted, mark_disrupted_refunded)),
        ("answers-resolve-at-once", "answers take effect at once, never on the stack",
         tuple(replace(r, effects=tuple(push_resolved if e is fx.push_frame else e
                                        for e in r.effects), dest=T.AFTER)
               if r.step in ("reaction", "free-response") else r for r in rows)),
    ]
    out += [Mutant(f"pf2e:{mid}", "pf2e", why, new, refusals) for mid, why, new in catalogue]
    out += precedence_mistakes()
    return out


def observable_precedences() -> dict | None:
    """ruleset -> {(step, row or refused, first, second)}: neighbouring checks that fail together
    somewhere in the reachable graph (spec/COVERAGE.json), or None without it."""
    import json
    import os
    from .spec import default_root

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
    from .mutation import Mutant

    observable = observable_precedences()
    out = []
    for ruleset, (rows, refusals) in T.TABLES.items():
        seen = set()
        for group, is_rows in ((rows, True), (refusals, False)):
            for r in group:
                if getattr(r, "by", T.PLAYER) != T.PLAYER:
                    continue
                for k in range(1, len(r.guards)):
                    first, second = r.guards[k - 1][0], r.guards[k][0]
                    if not (first.info.reason and second.info.reason) or \
                            first.info.reason == second.info.reason:
                        continue
                    where = "row" if is_rows else "refused"
                    key = (r.step, where, first.__name__, second.__name__)
                    if key in seen or (observable is not None
                                       and key not in observable.get(ruleset, ())):
                        continue
                    seen.add(key)
                    swapped = list(r.guards)
                    swapped[k - 1], swapped[k] = swapped[k], swapped[k - 1]
                    changed = tuple(replace(x, guards=tuple(swapped)) if x is r else x
                                    for x in group)
                    new_rows, new_refusals = (changed, refusals) if is_rows else (rows, changed)
                    out.append(Mutant(f"{ruleset}:order-{r.step}-{where}:{second.__name__}"
                                      f"-before-{first.__name__}", ruleset,
                                      f"{r.step}: {second.__name__} checked before "
                                      f"{first.__name__}", new_rows, new_refusals))
    return out
