"""D&D 4e: opportunity actions, immediate interrupts and reactions, readied actions."""

import pytest

from conftest import do, party4e, state_of
from fsm import Encounter

rule = pytest.mark.rule


def _to_turn(enc, who):
    while not (enc.active == who and enc.state == "turn_start"):
        do(enc, "end-turn")


# -- opportunity actions -----------------------------------------------------

@rule("4E-OPP-TRIGGER", "4E-OPP-ANYONE")
def test_an_enemy_leaving_an_adjacent_square_provokes_an_opportunity_attack(e4):
    """Bob, with no special ability, attacks the orc that leaves his side."""
    do(e4, "move", "orc", id="walk", provokes=["bob"])
    v = do(e4, "opportunity", "bob", to="walk")
    assert v.verdict == "allowed"
    assert e4.budgets("bob")["opportunity"] == 0


@rule("4E-OPP-TRIGGER")
def test_an_opportunity_action_against_an_unprovoking_action_is_rejected(e4):
    """Only a combatant the trigger provokes may take the opportunity action."""
    do(e4, "move", "orc", id="walk", provokes=["bob"])
    v = do(e4, "opportunity", "ayla", to="walk")
    assert (v.verdict, v.reason) == ("rejected", "not-provoked")


@rule("4E-OPP-TRIGGER")
def test_an_opportunity_action_against_an_ally_is_rejected():
    """Opportunity actions answer an enemy lowering its guard, not an ally."""
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("bob", "heroes"), ("orc", "monsters")])
    do(enc, "move", "ayla", provokes=["bob"])
    v = do(enc, "opportunity", "bob")
    assert (v.verdict, v.reason) == ("rejected", "trigger-not-by-enemy")


@rule("4E-OPP-ONCE")
def test_a_second_opportunity_action_in_the_same_turn_is_rejected(e4):
    """One opportunity action per other combatant's turn."""
    do(e4, "move", "orc", squares=2, provokes=["bob"])
    assert do(e4, "opportunity", "bob").verdict == "allowed"
    do(e4, "resolve")  # bob's attack
    do(e4, "resolve")  # first square
    do(e4, "continue", "orc")
    before = state_of(e4)
    v = do(e4, "opportunity", "bob", to="s1")
    assert (v.verdict, v.reason) == ("rejected", "opportunity-used-this-turn")
    assert state_of(e4) == before


@rule("4E-OPP-ONCE")
def test_opportunity_actions_come_back_on_another_combatants_turn():
    """Used during the orc's turn, Bob's opportunity action is there again on the goblin's."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("goblin", "monsters"), ("bob", "heroes")])
    do(enc, "move", "orc", provokes=["bob"])
    assert do(enc, "opportunity", "bob").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "move", "goblin", provokes=["bob"])
    assert enc.budgets("bob")["opportunity"] == 1
    assert do(enc, "opportunity", "bob").verdict == "allowed"


@rule("4E-OPP-OWN-TURN")
def test_no_opportunity_action_on_your_own_turn():
    """An orc's readied move on Ayla's turn provokes her, but it is her turn."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    do(enc, "ready", "orc", readies="move")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "standard", "ayla", id="spell")
    assert do(enc, "readied", "orc", to="spell", id="dash", provokes=["ayla"]).verdict \
        == "rejected"  # readied actions come after the trigger by default
    do(enc, "resolve")
    assert do(enc, "readied", "orc", to="spell", id="dash", squares=1,
              provokes=["ayla"]).verdict == "allowed"
    v = do(enc, "opportunity", "ayla", to="dash")
    assert (v.verdict, v.reason) == ("rejected", "opportunity-on-own-turn")


@rule("4E-OPP-INTERRUPTS")
def test_an_opportunity_action_comes_before_its_trigger_resolves(e4):
    """Once the provoking action has resolved, it is too late."""
    do(e4, "move", "orc", id="walk", provokes=["bob"])
    do(e4, "resolve")
    v = do(e4, "opportunity", "bob", to="walk")
    assert (v.verdict, v.reason) == ("rejected", "trigger-already-resolved")


@rule("4E-OPP-INTERRUPTS", "4E-INTERRUPT-LOST")
def test_an_opportunity_attack_that_drops_the_mover_makes_its_move_lost(e4):
    """The opportunity action interrupts: the move it stops is lost, and stays spent."""
    do(e4, "move", "orc", id="walk", provokes=["bob"])
    do(e4, "opportunity", "bob", id="aoo")
    do(e4, "resolve")
    v = do(e4, "lose")
    assert v.verdict == "allowed"
    assert e4.facts()["lost"] == ["walk"] and e4.facts()["resolved"] == ["aoo"]
    assert e4.budgets("orc")["move"] == 0


# -- immediate actions -----------------------------------------------------------

@rule("4E-IMM-ONCE")
def test_a_second_immediate_action_in_a_round_is_rejected(e4):
    """One immediate action per round."""
    do(e4, "standard", "orc", id="club")
    assert do(e4, "interrupt", "ayla").verdict == "allowed"
    do(e4, "resolve")
    do(e4, "resolve")
    before = state_of(e4)
    v = do(e4, "reaction", "ayla", to="club")
    assert (v.verdict, v.reason) == ("rejected", "immediate-used-this-round")
    assert v.rules == ("4E-IMM-ONCE",)
    assert state_of(e4) == before


@rule("4E-IMM-ONCE")
def test_an_immediate_action_before_your_first_turn_is_allowed(e4):
    """Not having used one since the end of your last turn includes having had no turn."""
    assert e4.fighters["ayla"].turns_started == 0
    do(e4, "standard", "orc")
    assert do(e4, "interrupt", "ayla").verdict == "allowed"


@rule("4E-IMM-ONCE")
def test_the_immediate_action_comes_back_at_the_end_of_your_turn(e4):
    """Used on the orc's turn, Ayla's immediate action is back once her own turn ends."""
    do(e4, "standard", "orc")
    do(e4, "interrupt", "ayla")
    do(e4, "resolve")
    do(e4, "resolve")
    do(e4, "end-turn")  # orc
    assert e4.budgets("ayla")["immediate"] == 0
    do(e4, "end-turn", "ayla")
    assert e4.budgets("ayla")["immediate"] == 1
    do(e4, "standard", "bob")
    # an ally's action can trigger her powers too; the budget is what matters here
    assert do(e4, "reaction", "ayla").verdict == "rejected"  # bob's action is pending
    do(e4, "resolve")
    assert do(e4, "reaction", "ayla").verdict == "allowed"


@rule("4E-IMM-ONCE")
def test_the_immediate_action_does_not_come_back_at_the_start_of_your_turn(e4):
    """The reset is at the end of your own turn, not its start."""
    do(e4, "standard", "orc")
    do(e4, "interrupt", "ayla")
    do(e4, "resolve")
    do(e4, "resolve")
    do(e4, "end-turn")  # orc ends; ayla's turn is about to start
    do(e4, "minor", "ayla")  # ayla's turn has started
    assert e4.budgets("ayla")["immediate"] == 0


@rule("4E-IMM-OWN-TURN")
def test_no_immediate_action_on_your_own_turn():
    """The orc's readied strike on Ayla's turn cannot be answered by her immediate action."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")])
    do(enc, "ready", "orc", readies="standard")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "move", "ayla", id="step")
    do(enc, "resolve")
    assert do(enc, "readied", "orc", to="step", id="strike").verdict == "allowed"
    for kind in ("interrupt", "reaction"):
        v = do(enc, kind, "ayla", to="strike")
        assert (v.verdict, v.reason) == ("rejected", "immediate-on-own-turn"), kind


@rule("4E-IMM-KINDS")
def test_interrupts_and_reactions_share_one_budget(e4):
    """An interrupt spends the same immediate action a reaction would."""
    do(e4, "standard", "orc", id="club")
    do(e4, "reaction", "bob")  # too early, and harmless
    assert do(e4, "interrupt", "bob").verdict == "allowed"
    do(e4, "resolve")
    do(e4, "resolve")
    v = do(e4, "reaction", "bob", to="club")
    assert v.reason == "immediate-used-this-round"


@rule("4E-IMM-TRIGGER")
def test_an_immediate_action_needs_its_trigger_to_be_happening(e4):
    """An immediate action cannot answer a trigger that has passed."""
    do(e4, "minor", "orc", id="draw")
    do(e4, "resolve")
    do(e4, "move", "orc")
    do(e4, "resolve")  # the orc's move takes effect: the draw has passed
    v = do(e4, "interrupt", "ayla", to="draw")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")


@rule("4E-INTERRUPT")
def test_an_interrupt_after_its_trigger_resolved_is_rejected(e4):
    """An interrupt acts before the triggering action resolves, never after."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    v = do(e4, "interrupt", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "trigger-already-resolved")


@rule("4E-INTERRUPT")
def test_an_interrupt_resolves_before_its_trigger(e4):
    """The interrupt's frame sits above the trigger and resolves first."""
    do(e4, "standard", "orc", id="club")
    do(e4, "interrupt", "ayla", id="shift")
    assert e4.facts()["stack"] == ["club", "shift"]
    do(e4, "resolve")
    do(e4, "resolve")
    assert e4.facts()["resolved"] == ["shift", "club"]


@rule("4E-INTERRUPT-LOST")
def test_an_action_nobody_interrupted_cannot_be_lost(e4):
    """Losing an action takes an interrupt that got ahead of it."""
    do(e4, "standard", "orc")
    before = state_of(e4)
    v = do(e4, "lose")
    assert (v.verdict, v.reason) == ("rejected", "not-interrupted")
    assert state_of(e4) == before


@rule("4E-INTERRUPT-LOST")
def test_an_interrupt_still_pending_cannot_make_its_trigger_lost(e4):
    """Only an interrupt that has resolved makes the trigger lost."""
    do(e4, "standard", "orc")
    do(e4, "reaction", "bob")  # rejected: not resolved
    do(e4, "interrupt", "ayla")
    v = do(e4, "lose")  # the pending frame is ayla's interrupt, which nobody interrupted
    assert v.reason == "not-interrupted"


@rule("4E-INTERRUPT-LOST")
def test_a_lost_action_gives_nothing_to_react_to(e4):
    """A reaction waits for its trigger to resolve; a lost action never does."""
    do(e4, "standard", "orc", id="club")
    do(e4, "interrupt", "ayla")
    do(e4, "resolve")
    do(e4, "lose")
    v = do(e4, "reaction", "bob", to="club")
    assert (v.verdict, v.reason) == ("rejected", "trigger-cancelled")


@rule("4E-REACTION")
def test_a_reaction_before_its_trigger_resolves_is_rejected(e4):
    """The triggering action resolves completely before the reaction."""
    do(e4, "standard", "orc")
    v = do(e4, "reaction", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "trigger-not-resolved")
    do(e4, "resolve")
    assert do(e4, "reaction", "ayla").verdict == "allowed"


@rule("4E-REACTION-MOVE")
def test_a_reaction_breaks_into_movement_only_after_one_square(e4):
    """No reaction at square zero; after a square, before the move ends."""
    do(e4, "move", "orc", id="walk", squares=3)
    v = do(e4, "reaction", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "moved-less-than-one-square")
    do(e4, "resolve")
    do(e4, "continue", "orc")
    v = do(e4, "reaction", "ayla", to="walk")
    assert v.verdict == "allowed"
    assert e4.stack[-2].done == 1 and e4.stack[-2].outcome is None


@rule("4E-REACTION-MOVE")
def test_only_movement_can_be_broken_into(e4):
    """A pending attack cannot be reacted to mid-way, as a move can."""
    do(e4, "standard", "orc", attacks=2)
    v = do(e4, "reaction", "ayla")
    assert v.reason == "trigger-not-resolved"


@rule("4E-REACTION-NEXT")
def test_a_reaction_comes_before_the_triggering_combatants_next_action(e4):
    """Once the orc's next action takes effect, the reaction to its last one is gone."""
    do(e4, "standard", "orc", id="club")
    do(e4, "resolve")
    do(e4, "move", "orc", id="walk")
    do(e4, "resolve")
    v = do(e4, "reaction", "ayla", to="club")
    assert (v.verdict, v.reason) == ("rejected", "trigger-passed")
    assert "walk took effect" in v.says


@rule("4E-REACTION-NEXT", "4E-REACTION-WINDOW")
def test_a_reaction_interrupts_the_next_action_of_the_triggering_combatant(e4):
    """A reaction declared after the orc began its next action comes before it."""
    do(e4, "standard", "orc", id="club")
    do(e4, "resolve")
    do(e4, "move", "orc", id="walk")
    v = do(e4, "reaction", "ayla", to="club", id="riposte")
    assert v.verdict == "allowed"
    assert [f.id for f in e4.stack] == ["walk", "riposte"]
    do(e4, "resolve")
    do(e4, "resolve")
    assert e4.facts()["resolved"] == ["club", "riposte", "walk"]


@rule("4E-REACTION-NEXT")
def test_a_reaction_may_still_come_while_the_triggering_combatant_waits(e4):
    """Before the orc does anything else, the reaction window is open."""
    do(e4, "standard", "orc", id="club")
    do(e4, "resolve")
    do(e4, "free", "bob")
    do(e4, "resolve")
    assert do(e4, "reaction", "ayla", to="club").verdict == "allowed"


# -- readied actions -------------------------------------------------------------

@rule("4E-READY", "4E-READY-COST")
def test_readying_costs_the_standard_action():
    """Readying is a standard action."""
    enc = party4e()
    do(enc, "ready", "orc", readies="standard")
    do(enc, "resolve")
    assert enc.budgets("orc")["standard"] == 0
    assert enc.budgets("orc")["readied"] == "standard"
    v = do(enc, "standard", "orc")
    assert v.reason == "standard-action-used"


@rule("4E-READY-COST")
def test_readying_after_the_standard_action_is_rejected(e4):
    """No standard action left, nothing to ready with."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    v = do(e4, "ready", "orc")
    assert (v.verdict, v.reason) == ("rejected", "standard-action-used")


@rule("4E-READY")
def test_a_readied_response_without_a_readied_action_is_rejected(e4):
    """Only what was readied can be taken when the trigger comes."""
    do(e4, "standard", "orc")
    do(e4, "resolve")
    v = do(e4, "readied", "ayla")
    assert (v.verdict, v.reason) == ("rejected", "no-readied-action")


def _ready_ayla():
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("bob", "heroes"), ("orc", "monsters")])
    do(enc, "ready", "ayla", readies="standard")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "end-turn")  # bob
    return enc


@rule("4E-READY", "4E-IMM-ONCE")
def test_the_readied_action_is_the_rounds_immediate_action():
    """Taking the readied action spends the immediate action."""
    enc = _ready_ayla()
    do(enc, "standard", "orc", id="club")
    do(enc, "resolve")
    assert do(enc, "readied", "ayla", to="club").verdict == "allowed"
    assert enc.budgets("ayla")["immediate"] == 0
    do(enc, "resolve")
    v = do(enc, "reaction", "ayla", to="club")
    assert v.reason == "immediate-used-this-round"


@rule("4E-READY")
def test_a_readied_action_is_refused_once_the_immediate_action_is_spent():
    """With the immediate action already used, the readied action cannot be taken."""
    enc = _ready_ayla()
    do(enc, "standard", "orc", id="club")
    do(enc, "interrupt", "ayla")
    do(enc, "resolve")
    do(enc, "resolve")
    v = do(enc, "readied", "ayla", to="club")
    assert (v.verdict, v.reason) == ("rejected", "immediate-used-this-round")


@rule("4E-READY-TIMING")
def test_a_readied_action_comes_after_its_trigger_by_default():
    """Taken as an immediate reaction, it waits for the trigger to resolve."""
    enc = _ready_ayla()
    do(enc, "standard", "orc", id="club")
    v = do(enc, "readied", "ayla", to="club")
    assert (v.verdict, v.reason) == ("rejected", "readied-timing")


@rule("4E-READY-TIMING")
def test_the_readied_as_interrupt_option_takes_it_before_the_trigger():
    """With readied_as=interrupt the readied action comes first and can make the trigger lost."""
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("orc", "monsters")],
                    options={"readied_as": "interrupt"})
    do(enc, "ready", "ayla")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "standard", "orc", id="club")
    assert do(enc, "readied", "ayla", to="club").verdict == "allowed"
    do(enc, "resolve")
    assert do(enc, "lose").verdict == "allowed"
    enc2 = Encounter("dnd4e", [("ayla", "heroes"), ("orc", "monsters")],
                     options={"readied_as": "interrupt"})
    do(enc2, "ready", "ayla")
    do(enc2, "resolve")
    do(enc2, "end-turn")
    do(enc2, "standard", "orc", id="club")
    do(enc2, "resolve")
    assert do(enc2, "readied", "ayla", to="club").reason == "readied-timing"


@rule("4E-READY-INITIATIVE")
def test_after_a_readied_action_the_readier_moves_just_before_the_trigger():
    """Ayla, first in order, readies; the orc's action triggers it; she now acts just before the orc."""
    enc = _ready_ayla()
    assert enc.facts()["initiative"] == ["ayla", "bob", "orc"]
    do(enc, "standard", "orc", id="club")
    do(enc, "resolve")
    do(enc, "readied", "ayla", to="club")
    do(enc, "resolve")
    assert enc.facts()["initiative"] == ["bob", "ayla", "orc"]
    assert enc.active == "orc"
    do(enc, "end-turn")
    do(enc, "minor", "bob")
    assert enc.active == "bob" and enc.round == 2
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "minor", "ayla")
    assert enc.active == "ayla"


@rule("4E-READY-LAPSE")
def test_an_unused_readied_action_lapses_at_the_start_of_your_next_turn():
    """A readied action that never triggered is gone when your turn comes round."""
    enc = party4e()
    do(enc, "ready", "orc")
    do(enc, "resolve")
    for _ in range(3):
        do(enc, "end-turn")
    do(enc, "minor", "orc")
    assert enc.budgets("orc")["readied"] is None


def _ally_turn_provocation(**options):
    """On Bob's turn, the orc's readied move provokes Ayla twice."""
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")],
                    options=options)
    do(enc, "ready", "orc", readies="move")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "end-turn")                     # ayla
    do(enc, "free", "bob", id="shout")
    do(enc, "resolve")
    do(enc, "readied", "orc", to="shout", id="dash", squares=2, provokes=["ayla"])
    assert do(enc, "opportunity", "ayla", to="dash").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "continue", "orc")
    return enc, do(enc, "opportunity", "ayla", to="dash")


@rule("4E-OPP-ONCE")
def test_the_opportunity_limit_holds_on_an_allys_turn_by_default():
    """On Bob's turn, Ayla gets one opportunity action, not two (Czech text)."""
    enc, v = _ally_turn_provocation()
    assert (v.verdict, v.reason) == ("rejected", "opportunity-used-this-turn")


@rule("4E-OPP-ONCE")
def test_the_enemy_turns_option_lifts_the_limit_on_an_allys_turn():
    """With opportunity_limit_turns=enemy (French text), the limit counts enemies' turns only."""
    enc, v = _ally_turn_provocation(opportunity_limit_turns="enemy")
    assert v.verdict == "allowed"
