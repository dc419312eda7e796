"""Adjudication measured three ways on the same workload: fsm's
``Encounter.step``, the raw ``transitions`` dispatch of the triggers fsm
fires, and the lean table walker (bench/run.py reports them as ratios). The
workloads: every vector with seeded random timelines, or every vector and
scenario with long timelines of ordinary turns."""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path

from transitions import Machine

from fsm import Encounter, StepError
from fsm.engine import rows as T
from fsm.engine.dispatch import machine_transitions
from fsm.rulesets import RULESETS
from fsm.scenario import load

ROOT = Path(__file__).resolve().parent.parent
VECTORS = sorted((ROOT / "spec" / "vectors").glob("*.json"))
COMBATANTS = [{"id": "c1", "side": "monsters"}, {"id": "c2", "side": "heroes"},
              {"id": "c3", "side": "heroes", "reactions": 2}]


def workload(random_timelines: int, seed: int = 4) -> list:
    """Every vector, then seeded random timelines: (ruleset, combatants, options, steps)."""
    out = []
    for path in VECTORS:
        doc = load(path)
        out.append((doc["ruleset"], doc["combatants"], doc.get("options"), doc["steps"]))
    rng = random.Random(seed)
    for i in range(random_timelines):
        ruleset = ("dnd4e", "pf2e")[i % 2]
        out.append((ruleset, COMBATANTS, None, _random_steps(ruleset, rng)))
    return out


def _random_steps(ruleset, rng, length=60) -> list:
    kinds = list(RULESETS[ruleset].table.player_steps) + ["resolve"] * 4 + ["end-turn"] * 2
    steps = []
    for _ in range(length):
        step = {"do": rng.choice(kinds)}
        if step["do"] not in ("resolve", "continue", "lose", "disrupt", "end-turn", "event"):
            step["actor"] = rng.choice(["c1", "c2", "c3"])
        if step["do"] == "activity":
            step["cost"] = rng.randint(1, 3)
        if step["do"] in ("move", "standard") and rng.random() < 0.3:
            step["squares" if step["do"] == "move" else "attacks"] = 2
            step["provokes"] = ["c1", "c2", "c3"]
        steps.append(step)
    return steps


def LeanEncounter(*args):
    """An encounter dispatched by the lean table walker instead of ``transitions``."""
    return Encounter(*args, dispatcher="lean")


def _encounters(cls, load_):
    return [(cls(rs, combatants, None, options), steps) for rs, combatants, options, steps
            in load_]


def _replay(pairs) -> int:
    n = 0
    for enc, steps in pairs:
        for data in steps:
            try:
                enc.step(data)
            except StepError:
                pass
            n += 1
    return n


def _timed(fns, repeat=7) -> list:
    """The best of ``repeat`` runs of each ``fn()`` (a fresh setup each time).
    The functions take turns, so a slow spell of the machine hits them all
    alike instead of skewing the ratios between them."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            args = fn.setup()
            gc.collect()
            start = time.perf_counter()
            fn(*args)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def _triggers_fired(load_) -> list:
    """(phase, trigger) of every ``transitions`` call fsm makes on the workload."""
    calls = []
    for enc, steps in _encounters(Encounter, load_):
        fire = enc.trigger

        def recording(name, _fire=fire, _enc=enc, **kwargs):
            calls.append((_enc.state, name))
            return _fire(name, **kwargs)

        enc.trigger = recording
        _replay([(enc, steps)])
    return calls


class _Bare:
    """A model with nothing but a state."""


def _bare_machine(ruleset: str):
    """The machine fsm builds, with its guards and effects taken off."""
    model = _Bare()
    bare = [{k: t[k] for k in ("trigger", "source", "dest")}
            for t in machine_transitions(RULESETS[ruleset].rows)]
    Machine(model=model, states=list(T.STATES), initial=T.STARTING, send_event=True,
            auto_transitions=False, ignore_invalid_triggers=False, transitions=bare)
    return model


def realistic_workload(long_timelines: int, length: int = 600) -> list:
    """What users and engine logs send: every vector and scenario, then long
    timelines of ordinary turns (actions, answers, moves, resolutions, ends of
    turns), almost every step allowed."""
    out = []
    for path in VECTORS + sorted((ROOT / "spec" / "scenarios").glob("*.json")):
        doc = load(path)
        out.append((doc["ruleset"], doc["combatants"], doc.get("options"), doc["steps"]))
    for _ in range(long_timelines):
        out.append(("dnd4e", COMBATANTS, None, ordinary_turns(length)))
    return out


def ordinary_turns(n: int) -> list:
    """Ordinary turns: actions, answers, moves in two squares, ends of turns."""
    order, steps, turn = ["c1", "c2", "c3"], [], 0
    while len(steps) < n:
        actor, other = order[turn % 3], order[(turn + 1) % 3]
        steps += [{"actor": actor, "do": "standard"}, {"do": "resolve"},
                  {"actor": other, "do": "free-response"}, {"do": "resolve"},
                  {"actor": actor, "do": "move", "squares": 2}, {"do": "resolve"},
                  {"do": "continue"}, {"do": "resolve"}, {"do": "end-turn"}]
        turn += 1
    return steps[:n]


def verdict_mix(load_) -> dict:
    """The share of allowed, rejected, gm and unreadable steps in a workload."""
    counts = {"allowed": 0, "rejected": 0, "gm": 0, "error": 0}
    for enc, steps in _encounters(Encounter, load_):
        for data in steps:
            try:
                counts[enc.step(data).verdict] += 1
            except StepError:
                counts["error"] += 1
    total = sum(counts.values()) or 1
    return {k: v / total for k, v in counts.items()}


def adjudication(random_timelines: int, repeat: int = 7) -> dict:
    return adjudicate(workload(random_timelines), repeat)


def adjudicate(load_, repeat: int = 7) -> dict:
    fired = [(rs, call) for rs, combatants, options, steps in load_
             for call in _triggers_fired([(rs, combatants, options, steps)])]

    def fsm_run(pairs):
        _replay(pairs)

    fsm_run.setup = lambda: (_encounters(Encounter, load_),)

    def lean_run(pairs):
        _replay(pairs)

    lean_run.setup = lambda: (_encounters(LeanEncounter, load_),)

    def raw_run(models, fired):
        for model, (phase, name) in zip(models, fired):
            model.state = phase
            model.trigger(name)

    raw_run.setup = lambda: _raw_setup(fired)
    steps = sum(len(s) for *_, s in load_)
    t_fsm, t_lean, t_raw = _timed([fsm_run, lean_run, raw_run], repeat)
    return {"steps": steps, "triggers": len(fired), "fsm": steps / t_fsm,
            "raw_transitions": steps / t_raw, "dict_table": steps / t_lean,
            "mix": verdict_mix(load_)}


def _raw_setup(fired):
    """A bare model of the right ruleset for each fired trigger, and the triggers."""
    machines = {rs: _bare_machine(rs) for rs in {rs for rs, _ in fired}}
    return [machines[rs] for rs, _ in fired], [call for _, call in fired]

