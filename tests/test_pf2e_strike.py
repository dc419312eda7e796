"""Pathfinder 2e: Reactive Strike (the text's Attack of Opportunity), its
triggers by trait, reach and timing, and its critical hit (T-PF2-REACTIVE-STRIKE)."""

import pytest

from conftest import do, party_pf2, state_of
from fsm import Encounter

rule = pytest.mark.rule


def _strike_at(fields, **strike):
    """The ogre's action with ``fields``, and Kyra's Reactive Strike at it."""
    enc = party_pf2(react_before_first_turn="allow")
    assert do(enc, "action", "ogre", id="t", **fields).verdict == "allowed"
    return do(enc, "opportunity", "kyra", to="t", **strike)


_NEAR = {"provokes": ["kyra"]}


@rule("PF2-REACTIVE-STRIKE")
@pytest.mark.parametrize("fields", [
    {"manipulate": True}, {"move": True}, {"squares": 2}, {"attack": "ranged"},
    {"manipulate": True, "attack": "melee"}, {"step": True, "manipulate": True},
    {"step": True, "attack": "ranged"}, {"squares": 1, "move": False},
], ids=["manipulate", "move", "squares", "ranged", "manipulating-melee", "manipulating-step",
        "shooting-step", "squares-said-no-move"])
def test_a_manipulate_or_move_action_or_a_ranged_attack_within_reach_provokes(fields):
    """Each way an action provokes, by a creature within reach."""
    assert _strike_at({**fields, **_NEAR}).verdict == "allowed"


@rule("PF2-REACTIVE-STRIKE")
@pytest.mark.parametrize("fields", [
    {}, {"attack": "melee"}, {"step": True}, {"step": True, "move": True},
    {"step": True, "squares": 1}, {"manipulate": True, "provokes": []},
    {"manipulate": True, "provokes": ["ezren"]},
], ids=["no-trait", "melee", "step", "step-said-move", "step-in-squares", "nobody-near",
        "someone-else-near"])
def test_what_does_not_provoke(fields):
    """No trait that provokes, a Step, or nobody within reach: not-provoked,
    and the step changes nothing."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="t", **{**_NEAR, **fields})
    before = state_of(enc)
    v = do(enc, "opportunity", "kyra", to="t")
    assert (v.verdict, v.reason) == ("rejected", "not-provoked")
    assert state_of(enc) == before


@rule("PF2-REACTIVE-STRIKE")
def test_an_event_or_ones_own_action_does_not_provoke():
    enc = party_pf2(react_before_first_turn="allow", reactions=2)
    do(enc, "event", "ogre", id="fall", provokes=["kyra"])
    v = do(enc, "opportunity", "kyra", to="fall")
    assert (v.verdict, v.reason) == ("rejected", "not-provoked")
    do(enc, "reaction", "kyra", id="mine", to="fall", manipulate=True, provokes=["kyra"])
    v = do(enc, "opportunity", "kyra", to="mine")
    assert (v.verdict, v.reason) == ("rejected", "not-provoked")


@rule("PF2-REACTIVE-STRIKE")
def test_it_comes_while_its_trigger_is_under_way():
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="t", manipulate=True, provokes=["kyra"])
    do(enc, "resolve")
    v = do(enc, "opportunity", "kyra", to="t")
    assert (v.verdict, v.reason) == ("rejected", "trigger-already-resolved")
    enc = party_pf2(react_before_first_turn="allow")
    v = do(enc, "opportunity", "kyra", to="turn-start")
    assert (v.verdict, v.reason) == ("rejected", "trigger-already-resolved")


@rule("PF2-REACTIVE-STRIKE")
@pytest.mark.parametrize("shape", [{"attacks": 2}, {"parts": 2}, {"attack": "ranged"}])
def test_it_is_one_melee_strike(shape):
    v = _strike_at({"manipulate": True, **_NEAR}, **shape)
    assert (v.verdict, v.reason) == ("rejected", "one-melee-attack")


@rule("PF2-REACTIVE-STRIKE", "PF2-REACTION-ONE", "PF2-EXTRA-REACTIONS")
def test_it_is_the_creatures_reaction():
    """It spends the reaction, and with two a round it still is one per trigger."""
    enc = party_pf2(react_before_first_turn="allow", reactions=2)
    do(enc, "action", "ogre", id="t", manipulate=True, provokes=["kyra"])
    assert do(enc, "opportunity", "kyra").verdict == "allowed"
    assert enc.budgets("kyra")["reactions"] == 1
    do(enc, "resolve")
    for kind in ("reaction", "opportunity"):
        v = do(enc, kind, "kyra", to="t")
        assert (v.verdict, v.reason) == ("rejected", "one-reaction-per-trigger")


@rule("PF2-REACTIVE-STRIKE")
def test_with_positions_reach_is_where_the_mover_stands():
    """On the grid, the square being left decides; a stated provokes is not read."""
    enc = Encounter("pf2e", [{"id": "ogre", "side": "monsters", "at": [1, 0]},
                             {"id": "kyra", "side": "heroes", "at": [0, 0], "reactions": 2},
                             {"id": "ezren", "side": "heroes", "at": [5, 5], "reach": 2}],
                    options={"react_before_first_turn": "allow"})
    do(enc, "action", "ogre", id="walk", path=[[2, 0], [3, 0]])
    assert do(enc, "opportunity", "ezren", to="walk").reason == "not-provoked"
    assert do(enc, "opportunity", "kyra", to="walk").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="far", manipulate=True, provokes=["kyra"])
    assert do(enc, "opportunity", "kyra", to="far").reason == "not-provoked"


@rule("PF2-STRIKE-CRITICAL", "PF2-DISRUPT")
@pytest.mark.parametrize("fields,critical,disrupted", [
    ({"manipulate": True}, True, True), ({"manipulate": True}, False, False),
    ({"move": True}, True, False),
], ids=["critical-on-manipulate", "hit-on-manipulate", "critical-on-move"])
def test_a_critical_hit_disrupts_a_manipulate_action(fields, critical, disrupted):
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="t", provokes=["kyra"], **fields)
    do(enc, "opportunity", "kyra", critical=critical)
    do(enc, "resolve")
    v = do(enc, "resolve")
    assert (v.verdict == "rejected") is disrupted
    assert enc.budgets("ogre")["actions"] == 2


@rule("PF2-DISRUPT-ACTIVITY")
@pytest.mark.parametrize("option,resolved,pending,back", [
    ("all", 0, True, 0), ("all", 1, False, 0), ("begun", 0, True, 2), ("begun", 1, False, 2),
    ("begun", 1, True, 1), ("begun", 2, True, 0),
])
def test_a_disrupted_activity_gives_back_what_was_not_begun_when_the_gm_says_so(
        option, resolved, pending, back):
    """disrupted_activity: all keeps the three actions spent; begun gives back
    those of the parts not begun."""
    enc = party_pf2(disrupted_activity=option)
    do(enc, "activity", "ogre", cost=3)
    for k in range(resolved):
        do(enc, "resolve")
        if k < resolved - 1 or pending:
            do(enc, "continue")
    assert do(enc, "disrupt").verdict == "allowed"
    assert enc.budgets("ogre")["actions"] == back


@rule("PF2-DISRUPT-ACTIVITY")
def test_an_activity_that_moves_gives_nothing_back():
    """Its parts are squares, not actions."""
    enc = party_pf2(disrupted_activity="begun")
    do(enc, "activity", "ogre", cost=2, squares=2)
    do(enc, "disrupt")
    assert enc.budgets("ogre")["actions"] == 1
