"""Pathfinder 2e: actions, reactions, free actions, triggers and disruption."""

import pytest

from conftest import do, party_pf2, state_of
from fsm import Encounter

rule = pytest.mark.rule


def _kyra_turn(enc):
    """End the ogre's turn; Kyra's starts with her next step."""
    do(enc, "end-turn")


# -- the turn's actions (assumptions from the published rules) -------------------

@rule("PF2-THREE-ACTIONS")
def test_three_actions_a_turn_and_no_fourth(p2):
    """Three single actions fit in a turn; a fourth is rejected."""
    for _ in range(3):
        assert do(p2, "action", "ogre").verdict == "allowed"
        do(p2, "resolve")
    v = do(p2, "action", "ogre")
    assert (v.verdict, v.reason) == ("rejected", "no-actions-left")


@rule("PF2-THREE-ACTIONS")
def test_actions_come_back_at_the_start_of_your_turn(p2):
    """Spent actions return when the next own turn starts."""
    do(p2, "activity", "ogre", cost=3, parts=1)
    do(p2, "resolve")
    assert p2.budgets("ogre")["actions"] == 0
    for _ in range(3):
        do(p2, "end-turn")
    do(p2, "action", "ogre")
    assert p2.budgets("ogre")["actions"] == 2


@rule("PF2-ACTIVITY", "PF2-THREE-ACTIONS")
def test_an_activity_costing_more_than_what_is_left_is_rejected(p2):
    """After two single actions, a two-action activity does not fit."""
    for _ in range(2):
        do(p2, "action", "ogre")
        do(p2, "resolve")
    v = do(p2, "activity", "ogre", cost=2)
    assert (v.verdict, v.reason) == ("rejected", "no-actions-left")
    assert do(p2, "activity", "ogre", cost=1).verdict == "allowed"


@rule("PF2-ACTIVITY")
def test_an_activity_commits_all_its_actions_when_it_begins(p2):
    """A two-action activity spends both actions at once."""
    do(p2, "activity", "ogre", cost=2)
    assert p2.budgets("ogre")["actions"] == 1


@rule("PF2-OWN-TURN")
def test_actions_and_activities_only_on_your_own_turn(p2):
    """Kyra cannot use an action or an activity on the ogre's turn."""
    for kind, extra in (("action", {}), ("activity", {"cost": 1})):
        v = do(p2, kind, "kyra", **extra)
        assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("PF2-UNTRIGGERED-FREE")
def test_a_free_action_without_trigger_costs_nothing_on_your_turn(p2):
    """An untriggered free action is taken on your turn and spends no action."""
    assert do(p2, "free", "ogre").verdict == "allowed"
    assert p2.budgets("ogre")["actions"] == 3


@rule("PF2-UNTRIGGERED-FREE")
def test_a_free_action_without_trigger_on_another_turn_is_rejected(p2):
    """Without a trigger, a free action waits for your own turn."""
    v = do(p2, "free", "kyra")
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("PF2-SEQUENCE")
def test_a_new_action_waits_for_the_pending_one(p2):
    """One action at a time."""
    do(p2, "action", "ogre")
    v = do(p2, "action", "ogre")
    assert (v.verdict, v.reason) == ("rejected", "action-in-progress")


# -- reactions ------------------------------------------------------------------------

@rule("PF2-REACTION-ONE")
def test_a_second_reaction_before_your_next_turn_is_rejected():
    """One reaction between the start of one of your turns and the start of the next."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="a1")
    assert do(enc, "reaction", "kyra").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="a2")
    before = state_of(enc)
    v = do(enc, "reaction", "kyra")
    assert (v.verdict, v.reason) == ("rejected", "reaction-used-this-round")
    assert state_of(enc) == before


@rule("PF2-REACTION-ONE")
def test_the_reaction_comes_back_at_the_start_of_your_turn_not_at_its_end():
    """Spent on the ogre's turn, Kyra's reaction is back once her own turn starts."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre")
    do(enc, "reaction", "kyra")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn")                       # the ogre's turn ends
    do(enc, "action", "kyra", id="k1")        # Kyra's turn has started
    assert enc.budgets("kyra")["reactions"] == 1


@rule("PF2-REACTION-ONE")
def test_a_reaction_spent_on_your_own_turn_is_not_back_at_its_end():
    """The refresh is at the start of your turn: used on your turn, none until the next."""
    enc = party_pf2()
    do(enc, "end-turn")
    do(enc, "action", "kyra", id="stride")
    do(enc, "reaction", "kyra", to="stride")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "action", "ezren", id="bolt")
    v = do(enc, "reaction", "kyra", to="bolt")
    assert (v.verdict, v.reason) == ("rejected", "reaction-used-this-round")


@rule("PF2-OWN-TURN-REACTION")
def test_a_reaction_on_your_own_turn_is_allowed():
    """Unlike 4e, a creature may react on its own turn."""
    enc = party_pf2()
    do(enc, "action", "ogre", id="step")
    assert do(enc, "reaction", "ogre", to="step").verdict == "allowed"


@rule("PF2-FIRST-TURN")
def test_a_reaction_before_your_first_turn_is_the_gms_call(p2):
    """By default, reacting before your first turn gets the gm verdict."""
    do(p2, "action", "ogre")
    v = do(p2, "reaction", "kyra")
    assert (v.verdict, v.reason) == ("gm", "gm-before-first-turn")
    assert p2.budgets("kyra")["reactions"] == 0   # the GM allowed it (ruling: allow)


@rule("PF2-FIRST-TURN")
def test_a_gm_ruling_of_deny_changes_nothing(p2):
    """With ruling deny, a gm step leaves the encounter as it was."""
    do(p2, "action", "ogre")
    before = state_of(p2)
    v = do(p2, "reaction", "kyra", ruling="deny")
    assert v.verdict == "gm"
    assert state_of(p2) == before


@rule("PF2-FIRST-TURN")
@pytest.mark.parametrize("policy,verdict", [("allow", "allowed"), ("forbid", "rejected")])
def test_the_first_turn_option_settles_the_question(policy, verdict):
    """Option react_before_first_turn allows or forbids it."""
    enc = party_pf2(react_before_first_turn=policy)
    do(enc, "action", "ogre")
    v = do(enc, "reaction", "kyra")
    assert v.verdict == verdict
    if verdict == "rejected":
        assert v.reason == "before-first-turn"


@rule("PF2-EXPLORATION")
def test_outside_encounters_an_extra_reaction_is_the_gms_call():
    """In exploration, a reaction beyond the budget gets gm."""
    enc = party_pf2(mode="exploration")
    do(enc, "action", "ogre", id="a1")
    assert do(enc, "reaction", "kyra").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="a2")
    v = do(enc, "reaction", "kyra")
    assert (v.verdict, v.reason) == ("gm", "gm-exploration")


@rule("PF2-EXPLORATION")
@pytest.mark.parametrize("policy,verdict", [("encounter", "rejected"),
                                            ("unlimited", "allowed")])
def test_the_exploration_option_sets_a_policy(policy, verdict):
    """Option exploration_reactions applies the encounter limit or none."""
    enc = party_pf2(mode="exploration", exploration_reactions=policy)
    do(enc, "action", "ogre", id="a1")
    do(enc, "reaction", "kyra")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="a2")
    assert do(enc, "reaction", "kyra").verdict == verdict


@rule("PF2-EXTRA-REACTIONS")
def test_extra_reactions_still_one_per_trigger():
    """With two reactions a round, Kyra may not use both on one trigger."""
    enc = party_pf2(reactions=2, react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    assert do(enc, "reaction", "kyra", to="swing").verdict == "allowed"
    do(enc, "resolve")
    v = do(enc, "reaction", "kyra", to="swing")
    assert (v.verdict, v.reason) == ("rejected", "one-reaction-per-trigger")


@rule("PF2-EXTRA-REACTIONS")
def test_extra_reactions_on_different_triggers_are_allowed():
    """The second reaction of the round is fine on another trigger."""
    enc = party_pf2(reactions=2, react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    do(enc, "reaction", "kyra", to="swing")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="swing2")
    assert do(enc, "reaction", "kyra", to="swing2").verdict == "allowed"
    assert enc.budgets("kyra")["reactions"] == 0


@rule("PF2-TRIGGER")
def test_a_response_to_a_trigger_that_has_passed_is_rejected():
    """A trigger is answered while it happens, not after its owner moved on."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    do(enc, "resolve")
    do(enc, "action", "ogre", id="step")
    for kind in ("reaction", "free-response"):
        v = do(enc, kind, "kyra", to="swing")
        assert (v.verdict, v.reason) == ("rejected", "trigger-passed")


@rule("PF2-OPTIONAL")
def test_a_trigger_may_go_unanswered():
    """Nobody is forced to respond: the trigger resolves and the turn goes on."""
    enc = party_pf2()
    do(enc, "action", "ogre", id="swing")
    assert do(enc, "resolve").verdict == "allowed"
    assert do(enc, "end-turn").verdict == "allowed"
    assert enc.budgets("kyra")["reactions"] == 1


@rule("PF2-PER-CREATURE")
def test_several_creatures_may_each_answer_one_trigger():
    """Limits count per creature: Kyra and Ezren both react to the ogre's swing."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    assert do(enc, "reaction", "kyra", to="swing").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "reaction", "ezren", to="swing").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "free-response", "kyra", to="swing").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "free-response", "ezren", to="swing").verdict == "allowed"


# -- free actions -------------------------------------------------------------------

@rule("PF2-FREE-ONE-PER-TRIGGER")
def test_a_second_free_action_on_one_trigger_is_rejected():
    """One free action per trigger."""
    enc = party_pf2()
    do(enc, "action", "ogre", id="swing")
    assert do(enc, "free-response", "kyra", to="swing").verdict == "allowed"
    do(enc, "resolve")
    before = state_of(enc)
    v = do(enc, "free-response", "kyra", to="swing")
    assert (v.verdict, v.reason) == ("rejected", "one-free-action-per-trigger")
    assert state_of(enc) == before


@rule("PF2-FREE-UNLIMITED")
def test_free_actions_on_different_triggers_are_unlimited():
    """No cap on the number of free actions across triggers."""
    enc = party_pf2()
    for i in range(6):
        do(enc, "event", id=f"e{i}")
        assert do(enc, "free-response", "kyra", to=f"e{i}").verdict == "allowed"
        do(enc, "resolve")
        do(enc, "resolve")


@rule("PF2-FREE-AND-REACTION")
def test_a_free_action_and_a_reaction_may_share_a_trigger():
    """Kyra answers one trigger with both a free action and a reaction."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    assert do(enc, "free-response", "kyra", to="swing").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "reaction", "kyra", to="swing").verdict == "allowed"


@rule("PF2-SIMILAR-TRIGGERS")
def test_similar_but_different_triggers_are_the_gms_call():
    """Two labels of one action are similar triggers: gm by default."""
    enc = party_pf2()
    do(enc, "action", "ogre", id="cast", triggers=["begin", "manipulate"])
    do(enc, "free-response", "kyra", to="cast", on="begin")
    do(enc, "resolve")
    v = do(enc, "free-response", "kyra", to="cast", on="manipulate")
    assert (v.verdict, v.reason) == ("gm", "gm-similar-trigger")


@rule("PF2-SIMILAR-TRIGGERS")
@pytest.mark.parametrize("policy,verdict", [("same", "rejected"), ("distinct", "allowed")])
def test_the_similar_triggers_option_settles_it(policy, verdict):
    """Option similar_triggers counts them as one trigger or as two."""
    enc = party_pf2(similar_triggers=policy)
    do(enc, "action", "ogre", id="cast", triggers=["begin", "manipulate"])
    do(enc, "free-response", "kyra", to="cast", on="begin")
    do(enc, "resolve")
    v = do(enc, "free-response", "kyra", to="cast", on="manipulate")
    assert v.verdict == verdict
    if verdict == "rejected":
        assert v.reason == "similar-trigger-same"


@rule("PF2-TURN-TRIGGERS")
def test_the_start_and_the_end_of_a_turn_are_triggers(p2):
    """Free actions may answer the start and the end of a turn."""
    assert do(p2, "free-response", "ogre", to="turn-start").verdict == "allowed"
    do(p2, "resolve")
    do(p2, "end-turn")
    assert do(p2, "free-response", "ogre", to="turn-end").verdict == "allowed"
    do(p2, "resolve")
    v = do(p2, "free-response", "ogre", to="turn-end")
    assert v.reason == "one-free-action-per-trigger"


@rule("PF2-EX-RELEASE", "PF2-TURN-TRIGGERS", "PF2-FREE-ONE-PER-TRIGGER")
def test_release_one_object_at_turn_start_and_one_when_beginning_an_action(p2):
    """The text's example: two Releases on two triggers are fine, two on one are not."""
    assert do(p2, "free-response", "ogre", to="turn-start", name="Release").verdict \
        == "allowed"
    do(p2, "resolve")
    do(p2, "action", "ogre", id="stride")
    assert do(p2, "free-response", "ogre", to="stride", name="Release").verdict \
        == "allowed"
    do(p2, "resolve")
    v = do(p2, "free-response", "ogre", to="stride", name="Release")
    assert (v.verdict, v.reason) == ("rejected", "one-free-action-per-trigger")


# -- disruption ------------------------------------------------------------------------

@rule("PF2-DISRUPT")
def test_a_disrupted_action_has_no_effect_and_stays_spent(p2):
    """Disruption cancels the effect, not the cost."""
    do(p2, "action", "ogre", id="grab")
    v = do(p2, "disrupt")
    assert v.verdict == "allowed"
    facts = p2.facts()
    assert facts["disrupted"] == ["grab"] and "grab" not in facts["resolved"]
    assert p2.budgets("ogre")["actions"] == 2


@rule("PF2-DISRUPT")
def test_a_disrupted_reaction_stays_spent():
    """A disrupted reaction is still the round's reaction."""
    enc = party_pf2(react_before_first_turn="allow")
    do(enc, "action", "ogre", id="swing")
    do(enc, "reaction", "kyra", id="block")
    do(enc, "disrupt")
    assert enc.facts()["disrupted"] == ["block"]
    assert enc.budgets("kyra")["reactions"] == 0


@rule("PF2-DISRUPT")
def test_an_event_cannot_be_disrupted(p2):
    """Only actions, reactions, free actions and activities can be disrupted."""
    do(p2, "event", id="quake")
    v = do(p2, "disrupt")
    assert (v.verdict, v.reason) == ("rejected", "not-disruptable")


@rule("PF2-DISRUPT")
def test_nothing_reacts_to_what_a_disrupted_action_would_have_done():
    """A disrupted action's window still closes normally and it never resolves."""
    enc = party_pf2()
    do(enc, "action", "ogre", id="grab")
    do(enc, "disrupt")
    do(enc, "action", "ogre")
    assert "grab" not in enc.facts()["resolved"]


@rule("PF2-DISRUPT-ACTIVITY", "PF2-EX-SPELL")
def test_a_spell_disrupted_on_its_second_action_loses_both(p2):
    """All the actions committed to a disrupted activity are lost."""
    do(p2, "activity", "ogre", cost=2, id="spell", name="cast a spell")
    do(p2, "resolve")         # first action of the casting
    do(p2, "continue", "ogre")
    v = do(p2, "disrupt")     # disrupted during the second action
    assert v.verdict == "allowed"
    assert p2.budgets("ogre")["actions"] == 1
    assert p2.facts()["disrupted"] == ["spell"]


@rule("PF2-DISRUPT-GM", "PF2-EX-LEAP-ITEM")
def test_a_disruption_verdict_carries_a_gm_note(p2):
    """What else a disruption does (a Leap stopped midway) is for the GM."""
    do(p2, "action", "ogre", id="leap", name="Leap")
    v = do(p2, "disrupt")
    assert v.verdict == "allowed"
    assert any(n.startswith("gm:") for n in v.notes)


def test_pf2_budgets_show_actions_and_reactions(p2):
    """Budgets in PF2 are actions and reactions."""
    assert p2.budgets("kyra") == {"actions": 3, "reactions": 1}


def test_extra_reactions_are_set_per_combatant():
    """A combatant's reactions field sets its per-round budget."""
    enc = Encounter("pf2e", [{"id": "a", "side": "x", "reactions": 3},
                             {"id": "b", "side": "y"}])
    assert enc.budgets("a")["reactions"] == 3 and enc.budgets("b")["reactions"] == 1
