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

from dataclasses import dataclass, replace
from pathlib import Path

from ..engine.frames import RESOLVED
from ..engine.rows import AFTER, rewrite
from ..rulesets import RULESETS, common
from .mutation import SILENT, Mutant


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

    @staticmethod
    def drop_effect(rows, effect):
        return rewrite(rows, effects=lambda r: (e for e in r.effects if e is not effect))

    @staticmethod
    def on_answers(rows, answers, make):
        """``rows`` with each guard ``g`` of the answer rows replaced by ``make(g)``."""
        return rewrite(rows, guard=make, where=lambda r: r.step in answers)

    @staticmethod
    def forced(rows, refusals, guard, answer=True, where=None):
        """The guard named ``guard`` always answering ``answer`` (on the rows
        ``where`` holds, all by default)."""
        swap = {}

        def change(g):
            if g.name != guard:
                return g
            return swap.setdefault(g, g.answering(answer))
        return (rewrite(rows, guard=change, where=where),
                rewrite(refusals, guard=change, where=where))


def push_resolved(enc, st):
    """An answer that takes effect at once, never sitting on the stack."""
    common.push_frame(enc, st)
    top = enc.stack[-1]
    top.done = top.parts
    top.phase = "resolved"
    top.window_part = top.done
    top.outcome = RESOLVED
    enc.note(st, top, RESOLVED)


def keep_windows_past_the_turn(enc, st):
    """The next turn starts, but windows kept open stay open."""
    kept = dict(enc.kept)
    enc.kept.clear()
    common.open_next_turn(enc, st)
    enc.kept.update(kept)


@dataclass(frozen=True)
class Known:
    """A mistake real trackers and game systems ship, as a mutant each ruleset
    it applies to builds (its ``zoo`` hook): what goes wrong, what the texts
    say instead (in our words; each ruleset's ``zoo_rules`` names the rules it
    breaks there), and public reports that show it or its fix
    (``owner/project#number``, an issue or pull request)."""

    id: str
    wrong: str
    texts: str
    reports: tuple = ()


ZOO = (
    Known("reactions-reset-per-round",
          "every creature's reaction (4e: immediate action) comes back when a new round "
          "starts",
          "a Reaction or PF2 reaction comes back at the start of its owner's own turn; a 4e "
          "immediate action at the end of its owner's own turn",
          ("Nimble-Co/FoundryVTT-Nimble#278",
           "Nimble-Co/FoundryVTT-Nimble#48",
           "massif-press/compcon#346",
           "Obsidian-TTRPG-Community/initiative-tracker#139")),
    Known("reactions-only-on-own-turn",
          "a reaction is allowed only on its owner's own turn",
          "a reaction may be taken on any creature's turn, whenever its trigger occurs",
          ("Nimble-Co/FoundryVTT-Nimble#734", "foundryvtt/pf2e#11392")),
    Known("ready-spends-the-reaction-at-once",
          "taking the Ready action spends the reaction (4e: the immediate action) at once",
          "the reaction is spent only when the readied action is released",
          ("SolastaMods/SolastaUnfinishedBusiness#2234",)),
    Known("readied-fires-twice",
          "releasing a readied action spends nothing and leaves it readied, so it can "
          "fire again",
          "a readied action is taken once, when its trigger comes, as the creature's "
          "reaction (4e: immediate action)",
          ("SolastaMods/SolastaUnfinishedBusiness#4395",)),
    Known("opportunity-on-entering-reach",
          "an Opportunity Attack is offered when a creature enters the reach",
          "only leaving the reach of a creature that can see you provokes one",
          ("gambit07/gambits-premades#52",)),
    Known("opportunity-after-the-move",
          "an Opportunity Attack is offered once the move has finished",
          "it comes right before the creature leaves the reach, during the move",
          ("SolastaMods/SolastaUnfinishedBusiness#4456",)),
    Known("forced-movement-provokes",
          "being pushed, pulled or teleported provokes opportunity attacks",
          "only a creature's own movement provokes; forced movement and teleportation "
          "do not",
          ("Vek17/TabletopTweaks-Base#289",)),
    Known("disengage-outlasts-the-turn",
          "the Disengage action keeps protecting its creature after its turn",
          "Disengage lasts for the rest of the current turn only",
          ("EnderWiggin/SolastaUnfinishedBusiness#11",)),
    Known("incapacitated-reacts",
          "an Incapacitated creature still takes reactions",
          "an Incapacitated creature takes no action, Bonus Action or Reaction",
          ("grannypron/uaf#30", "DFreds/dfreds-convenient-effects#14")),
    Known("no-slot-limit",
          "nothing limits the spell slots expended in one turn",
          "a creature expends at most one spell slot per turn (SRD 5.2.1)",
          ("Yoonmoonsik/dnd2024#170",
           "SolastaMods/SolastaUnfinishedBusiness#4284",
           "ZerdBG3/RAW#35")),
    Known("reactions-before-the-first-turn",
          "a creature reacts before its first turn of the encounter as if nothing were "
          "in question",
          "whether a creature may react before its first turn is the GM's call unless an "
          "option settles it",
          ("foundryvtt/pf2e#18990",)),
    Known("two-reactions-on-one-trigger",
          "a creature with more reactions uses two of them on one trigger",
          "however many reactions a creature has, one per trigger",
          ("long-war-2/lwotc#1718",)),
    Known("free-action-per-turn",
          "a triggered free action is limited to one per turn",
          "triggered free actions are unlimited, one per trigger"),
    Known("opportunity-on-own-turn",
          "an opportunity action (or an immediate action) is allowed on its owner's own "
          "turn",
          "neither is taken on one's own turn",
          ("GrognardsFromHell/TemplePlus#69",)),
)


def zoo() -> list:
    """The mistakes of :data:`ZOO`, as mutants of every ruleset they apply to
    (ids ``RULESET:zoo-ID``; a mutant's description names the mistake)."""
    known = {k.id: k for k in ZOO}
    out = []
    for name, rs in RULESETS.items():
        if rs.zoo is None:
            continue
        for kid, (rows, refusals) in rs.zoo(rs.rows, rs.refusals, Kit(rs)).items():
            if kid not in known:
                raise KeyError(f"ruleset {name} builds zoo mistake {kid!r}, which ZOO lacks")
            if kid not in rs.zoo_rules:
                raise KeyError(f"ruleset {name} builds zoo mistake {kid!r} and names no rule "
                               f"it breaks (its zoo_rules)")
            out.append(Mutant(f"{name}:zoo-{kid}", name, known[kid].wrong, rows, refusals,
                              rules=tuple(rs.zoo_rules[kid])))
    return out


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
            out += [Mutant(f"{name}:{mid}", name, why, rows, refusals,
                           silent=SILENT.get(f"{name}:{mid}", ""))
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


def catalogue(vectors=None, enough: int = 3) -> list:
    """The zoo as a tracker's author reads it: for each mistake of
    :data:`ZOO`, what goes wrong, what the texts say, the public reports,
    and per ruleset it applies to the rules it breaks there and the first
    ``enough`` vectors that catch it in an engine reporting verdicts and
    reason codes only (ids; written vectors before generated ones, which are
    longer to read)."""
    from . import collect
    from .scoring import score
    vectors = collect(None) if vectors is None else vectors
    vectors = sorted(vectors, key=lambda pd: "generated" in Path(pd[0]).parts)
    found = score(vectors, families=("zoo",), enough=enough, verdicts_only=True)
    by_id: dict = {}
    for mutant, killers in found:
        kid = mutant.id.split(":zoo-", 1)[1]
        by_id.setdefault(kid, {})[mutant.ruleset] = {"rules": list(mutant.rules),
                                                      "vectors": killers}
    return [{"id": k.id, "wrong": k.wrong, "texts": k.texts, "reports": list(k.reports),
             "rulesets": by_id.get(k.id, {})} for k in ZOO]
