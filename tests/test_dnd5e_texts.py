"""D&D 5e verdicts read off the SRD 5.2.1 where a first reading went wrong:
the countered exempt Reaction's slot, the Opportunity Attack's one melee
attack, the readied response's one attack and Speed, a move cut short by an
action, and the spaces a move may pass through. Each test names its rules."""

import pytest

from conftest import do
from fsm import Encounter
from test_dnd5e import party, scene, verdict

rule = pytest.mark.rule


@rule("5E-SLOT-ONE", "5E-COUNTERSPELL")
def test_a_countered_exempt_reaction_gives_back_no_slot():
    enc = party("shaman", options={"slot_reactions": "exempt"}, wizard={"bonus": True})
    do(enc, "end-turn")                      # the fighter's turn: the wizard's next
    do(enc, "bonus", "wizard", slot=True, id="misty")
    do(enc, "resolve")
    do(enc, "move", "wizard", provokes=["orc"], id="walk")
    do(enc, "opportunity", "orc", to="walk", id="swing")
    do(enc, "reaction", "wizard", to="swing", before=True, slot=True, id="shield")
    do(enc, "reaction", "shaman", to="shield", before=True, slot=True)
    do(enc, "resolve")
    assert verdict(do(enc, "counter")) == "allowed"
    assert enc.budgets()["wizard"]["slot"] == 0
    do(enc, "resolve")
    do(enc, "resolve")
    assert verdict(do(enc, "action", "wizard", slot=True)) == "spell-slot-used"


@rule("5E-OA")
def test_an_opportunity_attack_is_one_melee_attack():
    enc = party()
    do(enc, "move", "fighter", provokes=["orc"], id="away")
    assert verdict(do(enc, "opportunity", "orc", to="away", attacks=2)) == "one-melee-attack"
    assert verdict(do(enc, "opportunity", "orc", to="away", attack="ranged")) == \
        "one-melee-attack"
    assert verdict(do(enc, "opportunity", "orc", to="away", parts=1)) == "allowed"


def _ready_then_orc_moves(**ready):
    """The fighter readies (``ready``'s fields), and the orc's move resolves."""
    enc = party()
    do(enc, "ready", "fighter", **ready)
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "end-turn")                           # the wizard's turn
    do(enc, "move", "orc", id="near")
    do(enc, "resolve")
    return enc


@rule("5E-EXTRA-ATTACK-OWN-TURN", "5E-READY")
def test_a_readied_attack_makes_one_attack_a_readied_spell_its_rays():
    enc = _ready_then_orc_moves()
    assert verdict(do(enc, "readied", "fighter", to="near", attacks=2)) == \
        "extra-attack-on-your-turn"
    assert verdict(do(enc, "readied", "fighter", to="near", squares=2)) == "allowed"
    enc = _ready_then_orc_moves(spell=True)
    assert verdict(do(enc, "readied", "fighter", to="near", attacks=3)) == "allowed"


@rule("5E-READY")
def test_a_readied_move_goes_up_to_speed_not_the_movement_left():
    enc = _ready_then_orc_moves()
    assert enc.budgets()["fighter"]["movement"] == 30
    assert verdict(do(enc, "readied", "fighter", to="near", squares=7)) == \
        "not-enough-movement"
    assert verdict(do(enc, "readied", "fighter", to="near", squares=6)) == "allowed"
    assert enc.budgets()["fighter"]["movement"] == 30
