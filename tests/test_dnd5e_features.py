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


def _readied_against(when, trigger, fighter_at=(0, 0), goblin_at=(2, 0)):
    """The rogue readies for ``when``; on the orc's turn ``trigger`` resolves
    and the rogue's readied response answers it: its verdict."""
    enc = duel(rogue={"at": list(fighter_at)}, orc={"at": list(goblin_at)})
    do(enc, "ready", "rogue", when=when)
    do(enc, "resolve")
    do(enc, "end-turn")
    assert do(enc, trigger.pop("do"), "orc", id="t", **trigger).verdict == "allowed"
    do(enc, "resolve")
    return verdict(do(enc, "readied", "rogue", to="t"))


@rule("5E-READY")
@pytest.mark.parametrize("when,fits,misses", [
    ("moves", {"do": "move", "path": [[3, 0]]}, {"do": "action"}),
    ("enters-reach", {"do": "move", "path": [[1, 1]]}, {"do": "move", "path": [[2, 1]]}),
    ("leaves-reach", {"do": "move", "path": [[2, 0]]}, {"do": "move", "path": [[1, 1]]}),
    ("attacks", {"do": "action", "attack": "melee"}, {"do": "move", "path": [[3, 0]]}),
    ("casts", {"do": "action", "spell": True}, {"do": "action", "attack": "ranged"}),
])
def test_a_readied_response_answers_the_circumstance_its_ready_named(when, fits, misses):
    start = (1, 0) if when == "leaves-reach" else (2, 0)
    assert _readied_against(when, dict(fits), goblin_at=start) == "allowed"
    assert _readied_against(when, dict(misses), goblin_at=start) == "readied-trigger-not-met"


@rule("5E-READY")
def test_a_circumstance_not_on_the_list_is_an_error_and_changes_nothing():
    enc = duel()
    with pytest.raises(StepError) as err:
        do(enc, "ready", "rogue", when="sometime")
    assert err.value.code == "bad-value" and "moves" in str(err.value)
    assert enc.budgets("rogue")["action"] == 1


@rule("5E-READY")
def test_moving_about_inside_or_outside_the_reach_neither_enters_nor_leaves_it():
    for when in ("enters-reach", "leaves-reach"):
        inside, outside = {"do": "move", "path": [[1, 1]]}, {"do": "move", "path": [[3, 0]]}
        assert _readied_against(when, inside, goblin_at=(1, 0)) == "readied-trigger-not-met"
        assert _readied_against(when, outside, goblin_at=(2, 0)) == "readied-trigger-not-met"


@rule("5E-READY")
@pytest.mark.parametrize("by,expected", [("orc", "allowed"),
                                         ("goblin", "readied-trigger-not-met")])
def test_a_readied_response_waits_for_the_creature_its_ready_named(by, expected):
    """Readied for a move by ``by``: the orc's move fires it, not another's."""
    enc = Encounter("dnd5e", [{"id": "rogue", "side": "pcs"}, {"id": "orc", "side": "monsters"},
                              {"id": "goblin", "side": "monsters"}])
    do(enc, "ready", "rogue", when="moves", by=by)
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "move", "orc", id="o")
    do(enc, "resolve")
    assert verdict(do(enc, "readied", "rogue", to="o")) == expected
    with pytest.raises(StepError) as err:
        do(enc, "ready", "orc", by="nobody")
    assert err.value.code == "unknown-combatant"
