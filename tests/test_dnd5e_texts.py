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
