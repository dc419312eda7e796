"""D&D 5e: what features add to a turn (ASM-5E-FEATURES): Dash and Disengage
taken as the Bonus Action, the additional action of Action Surge or Haste.
Each test names the rules it holds."""

import pytest

from conftest import do
from fsm import Encounter, StepError

rule = pytest.mark.rule


def duel(**fields):
    """A rogue (pcs) and an orc, the rogue first; ``fields`` by id."""
    return Encounter("dnd5e", [{"id": "rogue", "side": "pcs", **fields.get("rogue", {})},
                               {"id": "orc", "side": "monsters", **fields.get("orc", {})}])


def verdict(v):
    return v.verdict if v.verdict == "allowed" else v.reason


@rule("5E-BONUS-DASH", "5E-DASH", "5E-BONUS-ONE", "5E-BONUS-GRANTED")
def test_a_dash_as_the_bonus_action_keeps_the_action():
    enc = duel(rogue={"bonus": True})
    assert verdict(do(enc, "dash", "rogue", bonus=True)) == "allowed"
    left = enc.budgets("rogue")
    assert (left["action"], left["bonus"], left["movement"]) == (1, 0, 60)
    do(enc, "resolve")
    assert verdict(do(enc, "disengage", "rogue", bonus=True)) == "bonus-action-used"
    assert verdict(do(enc, "disengage", "rogue")) == "allowed"
    plain = duel()
    assert verdict(do(plain, "dash", "rogue", bonus=True)) == "no-bonus-action"


@rule("5E-BONUS-DASH", "5E-DISENGAGE")
def test_a_disengage_as_the_bonus_action_provokes_nothing():
    enc = duel(rogue={"bonus": True})
    do(enc, "disengage", "rogue", bonus=True)
    do(enc, "resolve")
    do(enc, "move", "rogue", id="away", provokes=["orc"])
    assert verdict(do(enc, "opportunity", "orc", to="away")) == "disengaged"
    assert enc.budgets("rogue")["action"] == 1


@rule("5E-ADDITIONAL-ACTION", "5E-ACTION")
def test_one_additional_action_a_turn_back_with_the_next():
    enc = duel()
    do(enc, "action", "rogue")
    do(enc, "resolve")
    assert verdict(do(enc, "action", "rogue")) == "action-used"
    assert verdict(do(enc, "ready", "rogue", additional=True)) == "allowed"
    do(enc, "resolve")
    assert verdict(do(enc, "dash", "rogue", additional=True)) == "additional-action-used"
    do(enc, "end-turn")
    do(enc, "end-turn")
    assert verdict(do(enc, "dash", "rogue", additional=True)) == "allowed"
    assert enc.budgets("rogue")["action"] == 1


@rule("5E-ADDITIONAL-ACTION", "5E-CASTING-TIME")
def test_the_additional_action_is_never_the_magic_action():
    enc = duel()
    for flag in ("spell", "slot"):
        v = do(enc, "action", "rogue", additional=True, **{flag: True})
        assert verdict(v) == "additional-action-magic"
        assert v.rules == ("5E-ADDITIONAL-ACTION",)
    assert verdict(do(enc, "action", "rogue", spell=True)) == "allowed"


@rule("5E-BONUS-DASH", "5E-ADDITIONAL-ACTION")
def test_the_new_words_belong_to_their_kinds():
    enc = duel(rogue={"bonus": True})
    with pytest.raises(StepError) as bad:
        do(enc, "action", "rogue", bonus=True)
    assert bad.value.code == "field-of-another-kind"
    with pytest.raises(StepError) as bad:
        do(enc, "bonus", "rogue", additional=True)
    assert bad.value.code == "field-of-another-kind"


@rule("5E-BONUS-GRANTED", "5E-BONUS-ONE")
@pytest.mark.parametrize("flags", [{"spell": True}, {"slot": True}, {"spell": True, "slot": True}])
def test_a_spell_cast_as_a_bonus_action_is_its_own_grant(flags):
    """Misty Step needs no feature besides itself: the spell says it is cast
    as a Bonus Action. A Dash as a Bonus Action still needs one, and the
    turn's one Bonus Action is spent all the same."""
    enc = duel()
    assert verdict(do(enc, "dash", "rogue", bonus=True)) == "no-bonus-action"
    assert verdict(do(enc, "bonus", "rogue", **flags)) == "allowed"
    do(enc, "resolve")
    assert verdict(do(enc, "bonus", "rogue", spell=True)) == "bonus-action-used"
