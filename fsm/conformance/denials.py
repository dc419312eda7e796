"""Denials: vectors in which the GM denies a step that comes right after a
frame has finished, so that "a denied step changes nothing" shows in
verdicts alone, the settling before it included.

Before each step the machine settles: a finished frame that the step does
not answer is closed, its window with it (T-SETTLE). A step the GM denies
is undone whole, that settling too (T-REFUSED): the finished frame is still
there to be answered. An engine that undoes only the step itself closes it
for good, and a later answer to it is refused or names an unknown frame.
Each vector: the first in order acts; the second answers it; that answer
finishes (resolved, or lost or disrupted where the ruleset has those
moves); the third answers the first action (not the finished answer) and
the GM denies it; then the first answers the finished answer. One vector
per way of finishing and per option value under which some answer is left
to the GM. ``fsm conformance --generate`` writes them beside the other
generated vectors (``spec/vectors/generated/deny-*.json``).
"""

from __future__ import annotations

from ..engine import Encounter
from ..engine.rows import CONTINUE, END_TURN, RESOLVE
from ..errors import StepError
from ..io.scenario import FORMAT
from ..rulesets import RULESETS
from .recording import record, tally
from .sweeps import PEOPLE, _option_variants

MAX_SETTLE = 12


class _Denial:
    def __init__(self, rs, options: dict, finish: str):
        self.rs, self.options, self.finish = rs, options, finish
        self.combatants = [{"id": cid, "side": side} for cid, side in PEOPLE]
        adjust = rs.explore.combatants
        self.combatants = adjust(self.combatants) if adjust is not None else self.combatants
        # the one who acts first, then the two who answer: one of each side
        self.order = [PEOPLE[2][0], PEOPLE[0][0], PEOPLE[1][0]]
        self.enc = Encounter(rs, self.combatants, self.order, options)
        self.steps: list = []
        self.rules: set = set()

    def play(self, data: dict, facts: bool = False) -> str | None:
        verdict = record(self.enc, self.steps, data, facts)
        if verdict is not None:
            self.rules.update(verdict.rules)
        return verdict and verdict.verdict

    def answer(self, actor: str, to: str, wanted: tuple, **fields) -> str | None:
        """Play the first answer kind whose verdict is one of ``wanted``."""
        for kind in self.rs.answers:
            data = {"actor": actor, "do": kind, "to": to, **fields}
            try:
                if self.enc.try_step(data).verdict in wanted:
                    return self.play(data)
            except StepError:
                continue
        return None

    def vector(self) -> dict | None:
        first, second, third = self.order
        kind = self.rs.explore.turn_moves(first, (second, third))[0][0]
        self.play({"actor": first, "do": kind, "id": "deed"})
        if self.answer(second, "deed", ("allowed", "gm"), id="answer", ruling="allow") is None:
            return None
        if self.play({"do": self.finish}) != "allowed":
            return None
        if self.answer(third, "deed", ("gm",), ruling="deny") is None:
            return None                     # nothing is left to the GM here
        self.answer(first, "answer", ("allowed", "gm", "rejected"))
        for _ in range(MAX_SETTLE):
            top = next((f for f in reversed(self.enc.stack) if f.pending or
                        f.between_parts), None)
            if top is None or self.play({"do": CONTINUE if top.between_parts
                                         else RESOLVE}) != "allowed":
                break
        self.play({"do": END_TURN}, facts=True)
        options = ", ".join(f"{k} {v}" for k, v in self.options.items()) or "default options"
        label = "-".join(f"{k}-{v}" for k, v in self.options.items()).replace("_", "-")
        return {
            "format": FORMAT,
            "id": f"deny-{self.rs.name}-{self.finish}" + (f"-{label}" if label else ""),
            "ruleset": self.rs.name,
            "description": (f"{first} acts; {second} answers it, and that answer is "
                            f"{self.finish}d; {third} answers {first}'s action and the GM "
                            f"denies it, which undoes the settling before it too; {first} "
                            f"then answers {second}'s answer, still there ({options})."),
            "rules": sorted(self.rules),
            **({"options": self.options} if self.options else {}),
            "combatants": self.combatants,
            "initiative": self.order,
            "steps": self.steps,
        }


def generate(rulesets=None) -> list[dict]:
    """Every denial of every ruleset with an explorer, for each way a frame
    finishes and each option value under which some answer is the GM's."""
    out, seen = [], set()
    for name, rs in sorted((rulesets or RULESETS).items()):
        if rs.explore is None:
            continue
        finishes = [RESOLVE] + sorted(rs.stack_moves - {RESOLVE, CONTINUE})
        for options in [{}] + [opts for _, opts in _option_variants(rs)]:
            for finish in finishes:
                made = _Denial(rs, options, finish).vector()
                # an option value that changes none of the verdicts adds nothing
                said = made and (name, tuple((s["do"], s["expect"]["verdict"],
                                              s["expect"]["reason"]) for s in made["steps"]))
                if made is not None and said not in seen:
                    seen.add(said)
                    out.append(made)
    return out


coverage = tally        # ruleset -> how many denials and steps (for COVERAGE.json)
