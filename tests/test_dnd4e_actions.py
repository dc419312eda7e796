"""D&D 4e: the four action types, substitutions and the DM's free-action limit."""

import pytest

from conftest import do, party4e, state_of

rule = pytest.mark.rule


def _turn_of(enc, who):
    """End turns until it is ``who``'s turn."""
    while enc.active != who:
        do(enc, "end-turn")


@rule("4E-ACTION-TYPES")
def test_each_of_the_four_action_types_is_allowed_on_your_turn(e4):
    """A standard, a move, a minor and a free action all fit in one turn."""
    for kind in ("standard", "move", "minor", "free"):
        assert do(e4, kind, "orc").verdict == "allowed", kind
        assert do(e4, "resolve").verdict == "allowed"
    assert e4.budgets("orc")["standard"] == 0
    assert e4.budgets("orc")["move"] == 0
    assert e4.budgets("orc")["minor"] == 0


@rule("4E-STANDARD")
def test_second_standard_action_in_a_turn_is_rejected(e4):
    """One standard action per turn."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    v = do(e4, "standard", "orc")
    assert (v.verdict, v.reason) == ("rejected", "standard-action-used")
    assert "4E-STANDARD" in v.rules


@rule("4E-STANDARD-OWN-TURN")
def test_standard_action_on_another_combatants_turn_is_rejected(e4):
    """A standard action belongs to your own turn."""
    v = do(e4, "standard", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("4E-STANDARD-OWN-TURN")
def test_standard_action_comes_back_on_your_next_turn(e4):
    """The standard action is per turn: spent now, available next turn."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    for _ in range(3):
        do(e4, "end-turn")
    assert (e4.state, e4.active, e4.round) == ("turn_end", "bob", 1)
    assert do(e4, "standard", "orc").verdict == "allowed"
    assert (e4.active, e4.round) == ("orc", 2)


@rule("4E-MOVE")
def test_move_action_on_another_combatants_turn_is_rejected(e4):
    """Move actions only on your own turn."""
    v = do(e4, "move", "bob")
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("4E-MINOR")
def test_minor_action_on_another_combatants_turn_is_rejected(e4):
    """Minor actions only on your own turn."""
    v = do(e4, "minor", "bob")
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("4E-MOVE-ONE", "4E-SUBSTITUTE")
def test_two_moves_use_the_standard_action_and_a_third_is_rejected(e4):
    """The second move action is the standard action taken as a move; no third."""
    for _ in range(2):
        assert do(e4, "move", "orc").verdict == "allowed"
        do(e4, "resolve")
    assert e4.budgets("orc")["standard"] == 0
    v = do(e4, "move", "orc")
    assert (v.verdict, v.reason) == ("rejected", "move-action-used")


@rule("4E-MOVE-ONE", "4E-SUBSTITUTE")
def test_move_after_the_standard_action_leaves_no_second_move(e4):
    """With the standard action spent, only one move action remains."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    do(e4, "move", "orc")
    do(e4, "resolve")
    v = do(e4, "move", "orc")
    assert (v.verdict, v.reason) == ("rejected", "move-action-used")


@rule("4E-MINOR-ONE", "4E-SUBSTITUTE")
def test_three_minor_actions_use_move_and_standard_and_a_fourth_is_rejected(e4):
    """Minor actions may be taken with the move and the standard action."""
    for _ in range(3):
        assert do(e4, "minor", "orc").verdict == "allowed"
        do(e4, "resolve")
    assert e4.budgets("orc") | {} == {**e4.budgets("orc"), "standard": 0, "move": 0, "minor": 0}
    v = do(e4, "minor", "orc")
    assert (v.verdict, v.reason) == ("rejected", "minor-action-used")


@rule("4E-SUBSTITUTE")
def test_a_minor_action_spends_the_cheapest_slot_first(e4):
    """A minor action uses the minor slot while it lasts, keeping move and standard."""
    do(e4, "minor", "orc")
    do(e4, "resolve")
    assert (e4.budgets("orc")["minor"], e4.budgets("orc")["move"],
            e4.budgets("orc")["standard"]) == (0, 1, 1)
    do(e4, "minor", "orc")
    do(e4, "resolve")
    assert (e4.budgets("orc")["move"], e4.budgets("orc")["standard"]) == (0, 1)


@rule("4E-FREE")
def test_free_actions_are_unlimited_on_your_turn_and_on_others(e4):
    """Free actions: any number, on your own turn or on another combatant's."""
    for who in ("orc", "ayla", "bob", "ayla", "ayla"):
        assert do(e4, "free", who).verdict == "allowed"
        do(e4, "resolve")


@rule("4E-FREE")
def test_free_action_may_be_taken_while_an_action_is_pending(e4):
    """A bystander's free action fits even while the orc's attack is pending."""
    do(e4, "standard", "orc")
    assert do(e4, "free", "bob", name="shout a warning").verdict == "allowed"
    do(e4, "resolve")
    assert e4.state == "window_reaction"


@rule("4E-FREE-LIMIT")
def test_the_dms_free_action_limit_rejects_the_extra_one():
    """With a limit of 2 per turn, the third free action is rejected."""
    enc = party4e(free_actions_per_turn=2)
    for _ in range(2):
        assert do(enc, "free", "ayla").verdict == "allowed"
        do(enc, "resolve")
    v = do(enc, "free", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "free-action-limit")


@rule("4E-FREE-LIMIT")
def test_the_free_action_limit_counts_per_turn_and_per_combatant():
    """Another combatant, or the next turn, starts a fresh count."""
    enc = party4e(free_actions_per_turn=1)
    assert do(enc, "free", "ayla").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "free", "bob").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn")
    assert do(enc, "free", "ayla").verdict == "allowed"


@rule("4E-FREE-LIMIT")
def test_no_free_action_limit_by_default(e4):
    """Unless the DM sets one, there is no limit."""
    for _ in range(25):
        assert do(e4, "free", "ayla").verdict == "allowed"
        do(e4, "resolve")


@rule("4E-ONE-AT-A-TIME")
def test_a_new_action_waits_until_the_pending_one_is_done(e4):
    """Actions of a turn come one after another."""
    do(e4, "standard", "orc")
    before = state_of(e4)
    v = do(e4, "move", "orc")
    assert (v.verdict, v.reason) == ("rejected", "action-in-progress")
    assert state_of(e4) == before


@rule("4E-ONE-AT-A-TIME")
def test_the_turn_cannot_end_with_an_action_pending(e4):
    """Ending the turn waits for the pending action."""
    do(e4, "move", "orc", squares=2)
    do(e4, "resolve")
    v = do(e4, "end-turn")
    assert (v.verdict, v.reason) == ("rejected", "action-in-progress")


@rule("4E-SEQUENCE", "4E-ONE-AT-A-TIME")
def test_ending_someone_elses_turn_is_rejected(e4):
    """Only the turn's owner ends it."""
    v = do(e4, "end-turn", "bob")
    assert (v.verdict, v.reason) == ("rejected", "not-your-turn")


@rule("4E-NO-ACTION")
def test_a_triggered_power_that_is_no_action_spends_nothing(e4):
    """A power that needs a trigger but no action leaves every budget as it was."""
    do(e4, "standard", "orc")
    before = e4.budgets("ayla")
    assert do(e4, "no-action", "ayla").verdict == "allowed"
    assert e4.budgets("ayla") == before


@rule("4E-TRIGGERED-FREE")
def test_a_triggered_free_action_spends_no_immediate_action(e4):
    """A triggered free action leaves the immediate action available."""
    do(e4, "standard", "orc")
    assert do(e4, "free-response", "ayla").verdict == "allowed"
    do(e4, "resolve")
    assert e4.budgets("ayla")["immediate"] == 1
    assert do(e4, "interrupt", "ayla", to="s1").verdict == "allowed"


@rule("4E-TRIGGERED-FREE", "4E-FREE-LIMIT")
def test_a_triggered_free_action_counts_against_the_free_action_limit():
    """The DM's limit covers free actions with a trigger too."""
    enc = party4e(free_actions_per_turn=1)
    do(enc, "standard", "orc")
    assert do(enc, "free-response", "ayla").verdict == "allowed"
    do(enc, "resolve")
    v = do(enc, "free-response", "ayla", to="s1")
    assert (v.verdict, v.reason) == ("rejected", "free-action-limit")


@rule("4E-TRIGGER")
def test_a_triggered_action_answering_a_passed_trigger_is_rejected(e4):
    """Once the orc moves on, its earlier action is no longer a trigger."""
    do(e4, "standard", "orc", id="club")
    do(e4, "resolve")
    do(e4, "minor", "orc")
    do(e4, "resolve")  # the orc's next action takes effect: the club's window closes
    for kind in ("free-response", "no-action", "interrupt", "reaction"):
        before = state_of(e4)
        v = do(e4, kind, "ayla", to="club")
        assert (v.verdict, v.reason) == ("rejected", "trigger-passed"), kind
        assert state_of(e4) == before


@rule("4E-TRIGGER")
def test_a_triggered_action_answering_an_open_trigger_is_allowed(e4):
    """While the orc's action is happening, it can be answered."""
    do(e4, "standard", "orc", id="club")
    assert do(e4, "free-response", "ayla", to="club").verdict == "allowed"


def test_every_action_type_is_listed_in_the_budgets(e4):
    """Budgets show the three slots, the immediate and the opportunity action."""
    assert set(e4.budgets("ayla")) == {"standard", "move", "minor", "immediate",
                                         "opportunity", "free_used", "readied"}


def test_after_an_answer_to_the_turn_end_the_next_turn_starts(e4):
    """A free action answering the end of the orc's turn resolves; Ayla's action then starts her turn."""
    do(e4, "end-turn")
    assert do(e4, "no-action", "bob", to="turn-end").verdict == "allowed"
    do(e4, "resolve")
    before = e4.turn_serial
    assert do(e4, "end-turn", "orc").reason == "not-your-turn"
    assert do(e4, "standard", "ayla").verdict == "allowed"
    assert (e4.active, e4.turn_serial) == ("ayla", before + 1)
