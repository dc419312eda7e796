"""Explanations in a player's words: what an allowed step rests on, what an
effect did without being asked (a move stopped, a readied spell gone), and
the option that would reverse a refusal. Each names the rules it holds."""

import pytest

from conftest import do
from fsm import Encounter

rule = pytest.mark.rule


def explaining(ruleset, combatants, **options):
    enc = Encounter(ruleset, combatants, options=options or None)
    enc.explaining = True
    return enc


def one_said(v, words):
    return any(words in line for line in (*(v.because or ()), *v.notes, v.says or ""))


@rule("4E-INTERRUPT-LOST", "4E-IMM-ONCE")
def test_a_pending_trigger_is_not_said_to_have_taken_effect_nor_a_first_turn_to_have_ended():
    enc = explaining("dnd4e", [("orc", "m"), ("ayla", "h"), ("bob", "h")])
    do(enc, "standard", "orc", id="club")
    v = do(enc, "interrupt", "ayla")
    assert not one_said(v, "took effect") and not one_said(v, "end of its last turn")
    assert one_said(v, "in this encounter")
    do(enc, "resolve")
    v = do(enc, "lose")
    assert one_said(v, "ayla's immediate interrupt")
    do(enc, "end-turn")
    do(enc, "standard", "ayla", id="bolt")
    do(enc, "resolve")
    v = do(enc, "reaction", "bob", to="bolt")
    assert one_said(v, "bolt was not lost")


@rule("PF2-EXTRA-REACTIONS")
def test_a_reaction_to_the_next_part_names_that_part():
    enc = explaining("pf2e", [{"id": "ogre", "side": "m"},
                              {"id": "kyra", "side": "h", "reactions": 2}],
                     react_before_first_turn="allow")
    do(enc, "activity", "ogre", cost=2, id="charge")
    do(enc, "resolve")
    assert one_said(do(enc, "reaction", "kyra", to="charge"), "part 1 of charge")
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    assert one_said(do(enc, "reaction", "kyra", to="charge"), "part 2 of charge")


@rule("5E-READY-SPELL", "5E-READY-LAPSE", "5E-MOVE-BREAK-UP")
def test_what_an_effect_did_is_noted():
    enc = explaining("dnd5e", [{"id": "wizard", "side": "p"}, {"id": "orc", "side": "m"}])
    do(enc, "ready", "wizard", spell=True, readies="a bolt at the orc")
    do(enc, "resolve")
    v = do(enc, "event", "wizard", concentration=True)
    assert any("dissipates" in n for n in v.notes)
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "ready", "orc")
    do(enc, "resolve")
    do(enc, "end-turn")
    v = do(enc, "end-turn")                 # the wizard's turn ends; the orc's starts
    v = do(enc, "move", "orc", squares=3, id="walk")
    assert any("an action still readied: it lapses" in n for n in v.notes)
    do(enc, "resolve")
    v = do(enc, "end-turn")
    assert any("walk, orc's move, stops after 1 of its 3 squares" in n for n in v.notes)


@rule("5E-SLOT-ONE", "4E-OPP-ONCE", "PF2-SIMILAR-TRIGGERS")
def test_a_refusal_an_option_reverses_names_the_option():
    enc = explaining("dnd5e", [{"id": "wizard", "side": "p"}, {"id": "orc", "side": "m"}])
    do(enc, "action", "wizard", slot=True, id="spell")
    v = do(enc, "reaction", "wizard", before=True, slot=True)
    assert v.reason == "spell-slot-used" and "option slot_reactions: exempt" in v.says
    v = do(enc, "action", "wizard", slot=True)
    assert "option" not in (v.says or "")
    pf = explaining("pf2e", [{"id": "ogre", "side": "m"},
                             {"id": "kyra", "side": "h", "reactions": 2}],
                    similar_triggers="same", react_before_first_turn="allow")
    do(pf, "action", "ogre", triggers=["a", "b"], id="swing")
    do(pf, "reaction", "kyra", to="swing", on="a")
    do(pf, "resolve")
    v = do(pf, "reaction", "kyra", to="swing", on="b")
    assert v.reason == "similar-trigger-same" and "option similar_triggers: distinct" in v.says


@rule("5E-ACTION", "5E-SLOT-ONE")
def test_an_allowed_step_is_under_the_rules_that_bear_on_it():
    enc = explaining("dnd5e", [{"id": "fighter", "side": "p"}, {"id": "orc", "side": "m"}])
    v = do(enc, "action", "fighter")
    assert "5E-ACTION" in v.bears and "5E-SLOT-ONE" not in v.bears \
        and "5E-SLOT-ONE" in v.rules
    do(enc, "resolve")
    do(enc, "end-turn")
    v = do(enc, "action", "orc", slot=True)
    assert "5E-SLOT-ONE" in v.bears


@rule("5E-REACTION-BEFORE", "5E-SHIELD", "5E-COUNTERSPELL")
def test_a_reaction_spell_too_late_cites_the_example_it_follows():
    enc = explaining("dnd5e", [{"id": "orc", "side": "m"}, {"id": "shaman", "side": "m"},
                               {"id": "wizard", "side": "p"}])
    do(enc, "action", "orc", id="axe")
    do(enc, "resolve")
    shield = do(enc, "reaction", "wizard", to="axe", before=True, slot=True)
    assert shield.reason == "trigger-already-resolved"
    assert shield.rules == ("5E-REACTION-BEFORE", "5E-SHIELD")
    do(enc, "end-turn")
    do(enc, "action", "shaman", id="bolt", slot=True)
    do(enc, "resolve")
    counter = do(enc, "reaction", "wizard", to="bolt", before=True, spell=True)
    assert counter.rules == ("5E-REACTION-BEFORE", "5E-COUNTERSPELL")
    plain = do(enc, "reaction", "wizard", to="bolt", before=True)   # no spell: neither
    assert plain.rules == ("5E-REACTION-BEFORE",)


@rule("5E-SHIELD", "5E-REACTION-BEFORE")
def test_the_too_late_shield_cites_shields_own_sentence_not_counterspells():
    import yaml
    from fsm.paths import default_root
    spec = yaml.safe_load((default_root() / "spec" / "sentences.yaml").read_text())
    rules_of = {s["id"]: s["rules"] for s in spec["sentences"]}
    cited = {sid for sid, rules in rules_of.items()
             if set(rules) & {"5E-REACTION-BEFORE", "5E-SHIELD"}}
    assert "srd-5e.147" in cited and "srd-5e.136" not in cited
    assert "srd-5e.043" in cited              # a Reaction's description may set its timing
