"""Random timelines: the invariants of both rulesets hold after every step.

A Hypothesis state machine feeds an encounter arbitrary steps (most of them
nonsensical or forbidden) and checks, after each one, the limits the rules
set, from an independent record of the steps that were allowed.
"""

from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, rule,
                                 run_state_machine_as_test)

from fsm import Encounter, StepError

IMMEDIATE = {"interrupt", "reaction", "readied"}
TRIGGERED_4E = IMMEDIATE | {"opportunity"}


class Timeline(RuleBasedStateMachine):
    ruleset = "dnd4e"
    options = {}

    def __init__(self):
        super().__init__()
        self.enc = None
        self.ids = []
        self.allowed = []       # (kind, actor, active, turn serial, data, verdict)
        self.turn_ends = defaultdict(list)   # combatant -> serials where its turn ended

    @initialize(n=st.integers(2, 4), options=st.sampled_from([{}, {}, None]))
    def setup(self, n, options):
        sides = ["monsters", "heroes", "heroes", "monsters"]
        combatants = [{"id": f"c{i}", "side": sides[i]} for i in range(n)]
        if self.ruleset == "pf2e":
            combatants[0]["reactions"] = 2
        self.enc = Encounter(self.ruleset, combatants, options=self.options)

    @rule(data=st.data())
    def step(self, data):
        enc = self.enc
        # progress steps are drawn more often, so timelines reach later rounds
        kinds = list(enc.ruleset.steps) + ["resolve"] * 4 + ["end-turn"] * 2 + ["continue"]
        kind = data.draw(st.sampled_from(kinds))
        step = {"do": kind}
        if data.draw(st.booleans()) or kind not in ("resolve", "continue", "lose",
                                                      "disrupt", "end-turn", "event"):
            who = data.draw(st.sampled_from(["<active>"] + sorted(enc.fighters)))
            step["actor"] = enc.active if who == "<active>" else who
        if kind in ("free-response", "no-action", "opportunity", "interrupt", "reaction",
                    "readied") and self.ids and data.draw(st.booleans()):
            step["to"] = data.draw(st.sampled_from(self.ids + ["turn-start", "turn-end"]))
        if kind in ("move", "standard", "action", "readied", "reaction", "interrupt") and \
                data.draw(st.booleans()):
            step[data.draw(st.sampled_from(["squares", "attacks"]))] = \
                data.draw(st.integers(1, 3))
        if kind == "activity":
            step["cost"] = data.draw(st.integers(1, 3))
        if data.draw(st.booleans()):
            step["provokes"] = data.draw(st.lists(st.sampled_from(sorted(enc.fighters)),
                                                  max_size=2, unique=True))
        if kind in ("reaction", "free-response") and data.draw(st.booleans()):
            step["on"] = data.draw(st.sampled_from(["", "begin", "manipulate"]))
        if kind in ("action", "activity", "standard", "move") and data.draw(st.booleans()):
            step["triggers"] = ["", "begin", "manipulate"]
        before = enc.fingerprint()
        facts_before = enc.facts()
        try:
            verdict = enc.step(step)
        except StepError:
            assert enc.fingerprint() == before, step
            return
        if verdict.verdict == "rejected" or (verdict.verdict == "gm"
                                             and step.get("ruling") == "deny"):
            assert enc.fingerprint() == before, (step, verdict)
            assert enc.facts() == facts_before
            return
        self.allowed.append((kind, step.get("actor") or enc.active, enc.active,
                             enc.turn_serial, step, verdict))
        if kind == "end-turn":
            self.turn_ends[enc.active].append(enc.turn_serial)
        if enc.stack and enc.stack[-1].id not in self.ids:
            self.ids.append(enc.stack[-1].id)

    @invariant()
    def budgets_never_below_zero(self):
        if self.enc is None:
            return
        for who, b in self.enc.budgets().items():
            for key, value in b.items():
                if isinstance(value, int):
                    assert value >= 0, (who, key, value)


class Timeline4e(Timeline):
    ruleset = "dnd4e"

    @invariant()
    def no_triggered_action_on_your_own_turn(self):
        for kind, actor, active, serial, step, v in self.allowed:
            if kind in TRIGGERED_4E:
                assert actor != active, (kind, actor)

    @invariant()
    def one_immediate_action_between_ends_of_your_turns(self):
        per_window = Counter()
        for kind, actor, active, serial, step, v in self.allowed:
            if kind in IMMEDIATE:
                window = sum(1 for s in self.turn_ends[actor] if s < serial)
                per_window[(actor, window)] += 1
        assert all(n <= 1 for n in per_window.values()), per_window

    @invariant()
    def one_opportunity_action_per_other_combatants_turn(self):
        per_turn = Counter((actor, serial) for kind, actor, active, serial, step, v
                           in self.allowed if kind == "opportunity")
        assert all(n <= 1 for n in per_turn.values()), per_turn

    @invariant()
    def one_standard_action_per_turn(self):
        per_turn = Counter((actor, serial) for kind, actor, active, serial, step, v
                           in self.allowed if kind in ("standard", "ready"))
        assert all(n <= 1 for n in per_turn.values()), per_turn


class TimelinePf2(Timeline):
    ruleset = "pf2e"
    options = {"react_before_first_turn": "allow"}

    @invariant()
    def reactions_within_budget_between_starts_of_your_turns(self):
        per_window = Counter()
        for kind, actor, active, serial, step, v in self.allowed:
            if kind == "reaction":
                starts = [i + 1 for i, (_, who) in enumerate(self.enc.turns) if who == actor]
                window = sum(1 for s in starts if s <= serial)
                per_window[(actor, window)] += 1
        for (actor, window), n in per_window.items():
            assert n <= self.enc.fighters[actor].reactions_max, (actor, window, n)

    @invariant()
    def never_two_same_responses_on_one_trigger(self):
        seen = Counter()
        for kind, actor, active, serial, step, v in self.allowed:
            if kind in ("reaction", "free-response"):
                target = v.target_id
                seen[(kind, actor, target, step.get("on", ""))] += 1
        assert all(n <= 1 for n in seen.values()), seen

    @invariant()
    def at_most_three_actions_per_turn(self):
        spent = Counter()
        for kind, actor, active, serial, step, v in self.allowed:
            if kind == "action":
                spent[(actor, serial)] += 1
            elif kind == "activity":
                spent[(actor, serial)] += step["cost"]
        assert all(n <= 3 for n in spent.values()), spent

    @invariant()
    def a_disrupted_action_never_has_effects(self):
        if self.enc is None:
            return
        facts = self.enc.facts()
        assert not set(facts["disrupted"]) & set(facts["resolved"])


SETTINGS = settings(max_examples=100, stateful_step_count=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

@pytest.mark.rule("4E-IMM-ONCE", "4E-IMM-OWN-TURN", "4E-OPP-ONCE", "4E-OPP-OWN-TURN",
                  "4E-STANDARD")
def test_4e_timelines_keep_every_limit():
    """Random 4e timelines (Hypothesis rule-based state machine): every
    invariant above holds after every step."""
    run_state_machine_as_test(Timeline4e, settings=SETTINGS)


@pytest.mark.rule("PF2-REACTION-ONE", "PF2-EXTRA-REACTIONS", "PF2-FREE-ONE-PER-TRIGGER",
                  "PF2-THREE-ACTIONS", "PF2-DISRUPT")
def test_pf2_timelines_keep_every_limit():
    """Random Pathfinder timelines: every invariant above holds after every step."""
    run_state_machine_as_test(TimelinePf2, settings=SETTINGS)
