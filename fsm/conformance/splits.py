"""Splits: vectors in which answers move some, all or none of an attack's
targets out of its reach, so that whether the attack still happens shows in
verdicts alone.

A melee attack that interrupting answers leave with no target in reach is
lost (4e on a scene); one that still reaches any of its targets is not. An
engine that reads "any target out of reach" for "no target in reach", or
looks at the first target only, or the last, gets the same verdicts as the
rules while all its targets move together; it differs only when they split.
So on a scene of every ruleset with positions, the attacker stands between
its two targets, attacks both (one roll, and two rolls with the first
resolved), and every answer kind is tried by each target alone, then by
both in turn, each stepping straight away from the attacker and resolved at
once; then everything left is resolved. Rulesets in which no attack is lost by positions get the same
vectors, which then hold that nothing is lost. ``fsm conformance
--generate`` writes them beside the other generated vectors
(``spec/vectors/generated/split-*.json``).
"""

from __future__ import annotations

from ..engine import Encounter
from ..engine.rows import CONTINUE, END_TURN, RESOLVE
from ..io.scenario import FORMAT
from ..rulesets import RULESETS
from .recording import record, tally

ATTACKER = ("grok", "monsters", (0, 0))
TARGETS = (("ayla", "heroes", (1, 0)), ("brom", "heroes", (-1, 0)))
MOVERS = ((0,), (1,), (0, 1))          # which targets answer: each alone, then both
MAX_SETTLE = 12


def _close_attack(rs) -> tuple | None:
    """(step kind, attack kind) of the grid mode's first stated attack: the
    one at arm's length (its attack kinds come nearest first)."""
    others = tuple(t[0] for t in TARGETS)
    for kind, fields in rs.explore.grid_moves(ATTACKER[0], others):
        attack = dict(fields).get("attack")
        if attack is not None:
            return kind, attack
    return None


class _Split:
    def __init__(self, rs, answer: str, rolls: int, movers: tuple):
        self.rs, self.answer, self.rolls, self.movers = rs, answer, rolls, movers
        people = (ATTACKER, *TARGETS)
        self.combatants = [{"id": cid, "side": side, "at": list(at)}
                           for cid, side, at in people]
        self.order = [cid for cid, _, _ in people]
        self.enc = Encounter(rs, self.combatants, self.order)
        self.steps: list = []
        self.rules: set = set()

    def play(self, data: dict, facts: bool = False) -> str | None:
        verdict = record(self.enc, self.steps, data, facts)
        if verdict is not None and (verdict.verdict != "allowed" or data["do"] == RESOLVE):
            self.rules.update(verdict.rules)
        return verdict and verdict.verdict

    def vector(self, attacking: tuple) -> dict:
        kind, attack_kind = attacking
        attack = {"actor": ATTACKER[0], "do": kind, "id": "blow", "attack": attack_kind,
                  "targets": [t[0] for t in TARGETS]}
        if self.rolls > 1:
            attack["attacks"] = self.rolls
        self.play(attack)
        if self.rolls > 1:
            self.play({"do": RESOLVE})                  # the first roll
        for i in self.movers:
            who, _, (x, y) = TARGETS[i]
            away = [x + (1 if x > 0 else -1), y]        # straight away from the attacker
            if self.play({"actor": who, "do": self.answer, "to": "blow", "id": f"{who}-away",
                          "path": [away], "shift": True}) == "allowed":
                self.play({"do": RESOLVE})              # its answer, before the next one
        for _ in range(MAX_SETTLE):         # everything left, each verdict expected
            top = next((f for f in reversed(self.enc.stack) if f.pending or
                        f.between_parts), None)
            if top is None:
                break
            if self.play({"do": CONTINUE if top.between_parts else RESOLVE}) != "allowed":
                break
        self.play({"do": RESOLVE})          # after all: is anything left to resolve?
        self.play({"do": END_TURN}, facts=True)
        moved = " and ".join(TARGETS[i][0] for i in self.movers)
        both = len(self.movers) == len(TARGETS)
        return {
            "format": FORMAT,
            "id": (f"split-{self.rs.name}-{self.answer}-{self.rolls}-"
                   f"{'both' if both else TARGETS[self.movers[0]][0]}"),
            "ruleset": self.rs.name,
            "description": (f"{ATTACKER[0]} stands between ayla and brom and attacks both "
                            f"({attack_kind}, {self.rolls} roll(s)); {moved} answer(s) "
                            f"with '{self.answer}', stepping straight out of its reach; then "
                            f"everything is resolved. The attack is lost only where the "
                            f"rules lose an attack none of whose targets it still reaches."),
            "rules": sorted(self.rules),
            "combatants": self.combatants,
            "initiative": self.order,
            "steps": self.steps,
        }


def generate(rulesets=None) -> list[dict]:
    """Every split of every ruleset with a scene and a grid mode."""
    out = []
    for name, rs in sorted((rulesets or RULESETS).items()):
        if rs.scene is None or rs.explore is None or rs.explore.grid_moves is None:
            continue
        kind = _close_attack(rs)
        if kind is None:
            continue
        for answer in rs.answers:
            for rolls in (1, 2):
                for movers in MOVERS:
                    out.append(_Split(rs, answer, rolls, movers).vector(kind))
    return out


coverage = tally        # ruleset -> how many splits and steps (for COVERAGE.json)
