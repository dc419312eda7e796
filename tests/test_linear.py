"""Replay costs time linear in the number of steps and of stacked frames:
the time per step at 20,000 steps stays within 1.5x of that at 1,000 (a ratio
measured in one run, never a wall-clock limit)."""

import time

from fsm import Encounter
from fsm.scenario import replay

COMBATANTS = [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"},
              {"id": "bob", "side": "heroes"}]


def timeline(n: int) -> list:
    """A realistic mix: actions, answers, resolutions and turns, every step
    allowed, a verdict expected on each."""
    steps = []
    order = ["orc", "ayla", "bob"]
    turn = 0
    while len(steps) < n:
        actor = order[turn % 3]
        other = order[(turn + 1) % 3]
        steps += [{"actor": actor, "do": "standard"}, {"do": "resolve"},
                  {"actor": other, "do": "free-response"}, {"do": "resolve"},
                  {"actor": actor, "do": "move", "squares": 2}, {"do": "resolve"},
                  {"do": "continue"}, {"do": "resolve"}, {"do": "end-turn"}]
        turn += 1
    for step in steps[:n]:
        step["expect"] = {"verdict": "allowed"}
    return steps[:n]


def per_step(steps, doc=None) -> float:
    best = float("inf")
    for _ in range(3):
        doc = {"format": 1, "id": "long", "ruleset": "dnd4e", "combatants": COMBATANTS,
               "steps": steps}
        start = time.perf_counter()
        rep = replay(doc)
        best = min(best, (time.perf_counter() - start) / len(steps))
        assert rep.ok
    return best


def test_scenario_replay_is_linear_in_steps():
    """20,000 steps cost at most 1.5x per step what 1,000 do."""
    small, large = per_step(timeline(1000)), per_step(timeline(20000))
    assert large / small <= 1.5, (small, large)


def test_stacked_frames_cost_no_more_per_step():
    """8,000 unresolved events stacked cost at most 1.5x per step what 500 do."""
    def stacked(n):
        best = float("inf")
        for _ in range(3):
            enc = Encounter("dnd4e", COMBATANTS)
            start = time.perf_counter()
            for _ in range(n):
                enc.step({"do": "event"})
            best = min(best, (time.perf_counter() - start) / n)
        return best
    assert stacked(8000) / stacked(500) <= 1.5


def test_a_step_saves_only_the_fighters_it_changes():
    """Copy on write: undoing a step in an encounter of 1,000 combatants
    restores the few fighters the step changed, and nothing else is saved; a
    refused step leaves the whole encounter as it was."""
    combatants = [(f"c{i}", ("monsters", "heroes")[i % 2]) for i in range(1000)]
    enc = Encounter("dnd4e", combatants)
    enc.step({"actor": "c0", "do": "standard"})
    snap = enc.snapshot()
    enc.step({"actor": "c1", "do": "interrupt"})
    saved = snap[-1]
    assert [f.id for f in saved] == ["c1"]
    changed = enc.fingerprint()
    enc.restore(snap)
    assert enc.fingerprint() != changed and enc.journal.open == []
    enc.step({"do": "resolve"})                  # the window after the standard opens
    before = enc.fingerprint()
    assert enc.step({"actor": "c0", "do": "interrupt"}).reason == "immediate-on-own-turn"
    assert enc.fingerprint() == before and enc.journal.open == []
