"""Replay costs work linear in the number of steps and of stacked frames:
the work per step at 10,000 steps stays within 1.5x of that at 500. Work is
counted, not timed (Python function calls, through ``sys.setprofile``), so a
busy machine cannot change the figures."""

import sys

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


def calls(run) -> int:
    """How many Python functions ``run()`` calls."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def per_step(steps) -> float:
    doc = {"format": 1, "id": "long", "ruleset": "dnd4e", "combatants": COMBATANTS,
           "steps": steps}
    reports = []
    work = calls(lambda: reports.append(replay(doc)))
    assert reports[0].ok
    return work / len(steps)


def test_scenario_replay_is_linear_in_steps():
    """10,000 steps cost at most 1.5x per step what 500 do."""
    small, large = per_step(timeline(500)), per_step(timeline(10000))
    assert large / small <= 1.5, (small, large)


def test_stacked_frames_cost_no_more_per_step():
    """4,000 unresolved events stacked cost at most 1.5x per step what 250 do."""
    def stacked(n):
        enc = Encounter("dnd4e", COMBATANTS)

        def run():
            for _ in range(n):
                enc.step({"do": "event"})
        return calls(run) / n
    small, large = stacked(250), stacked(4000)
    assert large / small <= 1.5, (small, large)


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
