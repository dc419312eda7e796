"""Differential fuzzing: random timelines, the engine's verdicts against the
reference's, step by step, and the shortest disagreement as a vector.

A timeline is decoded from a list of integers that Hypothesis draws: each
integer picks one step among those the explorer's alphabet offers in the
reference's current situation (every turn action of every combatant, every
answer to every trigger on or off the stack, resolve, continue, lose or
disrupt, an event, the end of the turn), mostly among the steps the
reference allows, sometimes among those it refuses, out of order included.
Because the decoding runs on the reference, a shorter or smaller list still
decodes to a valid timeline, and Hypothesis's shrinking finds the shortest
one the engine gets wrong. It is written as a vector with every expectation
the reference gives, which ``fsm check`` replays and ``fsm conformance`` runs.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ..errors import EngineError
from .engine import Engine
from .vectors import judge, public_vector, unsupported
from ..engine import Encounter
from ..explore import Alphabet, Config, combatants_for
from ..rulesets import RULESETS

MAX_STEPS = 24
ALLOWED_SHARE = 4      # one choice in ALLOWED_SHARE asks for a refused step


@dataclass
class Disagreement:
    vector: dict
    problems: list
    examples: int


def _options(ruleset: str, hello: dict, picks) -> dict:
    """Options for a timeline: each left at its default most of the time, else
    a value the engine says it supports."""
    supported = ((hello.get("rulesets") or {}).get(ruleset) or {}).get("options") or {}
    out = {}
    for opt in RULESETS[ruleset].options:
        pick = next(picks)
        if pick % 3 == 0 or opt.name not in supported:
            continue
        accepted = supported[opt.name]
        values = list(accepted) if isinstance(accepted, list) else [None, 0, 1, 2]
        values = [v for v in values if v != opt.default] or values
        out[opt.name] = values[(pick - 1) // 3 % len(values)]
    return out


def decode(choices: list[int], hello: dict) -> dict:
    """The timeline (a vector with every expectation) that ``choices`` stand for."""
    rulesets = [r for r in RULESETS if not unsupported({"ruleset": r}, hello)]
    ruleset = rulesets[choices[0] % len(rulesets)] if choices else rulesets[0]
    setup = 1 + len(RULESETS[ruleset].options)
    options = _options(ruleset, hello, iter(choices[1:setup] + [0] * setup))
    combatants = combatants_for(Config(ruleset, combatants=3))
    enc = Encounter(ruleset, combatants, options=options)
    alphabet = Alphabet(ruleset, [c["id"] for c in combatants])
    steps = []
    for choice in choices[setup:][:MAX_STEPS]:
        moves = alphabet.moves(enc)
        want_refused = choice % ALLOWED_SHARE == 0
        start = (choice // ALLOWED_SHARE) % len(moves)
        data = None
        for k in range(len(moves)):
            candidate = moves[(start + k) % len(moves)].render(enc)
            if (enc.try_step(candidate).verdict == "rejected") == want_refused:
                data = candidate
                break
        if data is None:
            data = moves[start].render(enc)
        verdict = enc.step(data)
        expect = {"verdict": verdict.verdict, "reason": verdict.reason, **enc.facts()}
        steps.append(dict(data, expect=expect))
    body = json.dumps([ruleset, options, steps], sort_keys=True).encode()
    doc = {"format": 1, "id": f"fuzz-{ruleset}-{hashlib.sha256(body).hexdigest()[:10]}",
           "ruleset": ruleset, "description": "Found by fsm conformance --fuzz: the first "
           "step whose answer differs from the reference's.", "rules": [],
           "combatants": combatants, "steps": steps}
    if options:
        doc["options"] = options
    return doc


class _Probe:
    """Runs decoded timelines on the engine, restarting it when it misbehaves."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.alive = False
        self.runs = 0
        self.last: dict = {}

    def problems(self, doc: dict) -> list:
        self.runs += 1
        try:
            if not self.alive:
                self.engine.start()
                self.alive = True
            self.engine.send({"type": "vector", "vector": public_vector(doc)})
            result = self.engine.receive()
        except EngineError as exc:
            self.alive = False
            return [str(exc)]
        problems = judge(doc, result, self.engine.hello.get("facts") or ())
        if problems and problems[0].startswith(("answered for vector", "the answer is not")):
            self.alive = False
        return problems


def fuzz(command: str, examples: int, seed: int = 0, timeout: float = 10.0,
         hello: dict | None = None) -> tuple[Disagreement | None, int]:
    """Drive ``command`` with up to ``examples`` timelines; the shrunk
    disagreement (or None) and how many timelines were run."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    engine = Engine(command, timeout)
    try:
        hello = hello or engine.start()
    except EngineError:
        engine.stop()
        raise
    probe = _Probe(engine)
    probe.alive = True
    setup = 1 + max(len(r.options) for r in RULESETS.values())
    choices = st.lists(st.integers(0, 10_000), min_size=setup + 1, max_size=setup + MAX_STEPS)

    def disagrees(drawn) -> bool:
        doc = decode(list(drawn), hello)
        problems = probe.problems(doc)
        if problems:
            probe.last[id(drawn)] = problems
        return bool(problems)

    config = settings(max_examples=examples, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck),
                      phases=[Phase.generate, Phase.shrink], report_multiple_bugs=False)
    try:
        found = find(choices, disagrees, settings=config, random=random.Random(seed))
    except NoSuchExample:
        engine.stop()
        return None, probe.runs
    doc = decode(list(found), hello)
    problems = probe.problems(doc)
    engine.stop()
    return Disagreement(doc, problems, probe.runs), probe.runs
