"""D&D 5e: conditions that change during the encounter (T-5E-CONDITIONS).
An event on a creature may make it Incapacitated, unseen or Blinded, or end
that; becoming Incapacitated breaks its Concentration. Each test names the
rules it holds."""

import pytest

from conftest import do
from fsm import Encounter, StepError
from fsm.rulesets import RULESETS
from fsm.rulesets.dnd5e.conditions import CONDITIONS
from fsm.site.fields import step_fields
from fsm.site.words import Namer

rule = pytest.mark.rule


def party(scene=False):
    """A fighter and a wizard (pcs) against an orc, the fighter first; on a
    grid, in a row: fighter, orc, wizard."""
    where = {"fighter": [0, 0], "orc": [1, 0], "wizard": [2, 0]}
    return Encounter("dnd5e", [{"id": c, "side": "monsters" if c == "orc" else "pcs",
                                **({"at": where[c]} if scene else {})}
                               for c in ("fighter", "wizard", "orc")])


def verdict(v):
    return v.verdict if v.verdict == "allowed" else v.reason


def befall(enc, who, **conditions):
    """An event on ``who`` that changes ``conditions``, resolved at once."""
    assert do(enc, "event", who, **conditions).verdict == "allowed"
    assert do(enc, "resolve").verdict == "allowed"


@rule("5E-INCAPACITATED")
def test_an_event_makes_a_creature_incapacitated_and_then_able_again():
    enc = party()
    befall(enc, "orc", incapacitated=True)
    do(enc, "move", "fighter", id="away", provokes=["orc"])
    assert verdict(do(enc, "opportunity", "orc", to="away")) == "incapacitated"
    assert enc.budgets("orc")["reaction"] == 1            # a refused step spends nothing
    do(enc, "resolve")
    befall(enc, "orc", incapacitated=False)
    do(enc, "move", "fighter", id="again", provokes=["orc"])
    assert verdict(do(enc, "opportunity", "orc", to="again")) == "allowed"


@rule("5E-INCAPACITATED")
def test_a_creature_incapacitated_on_its_turn_takes_no_action_but_moves():
    enc = party()
    befall(enc, "fighter", incapacitated=True)
    assert verdict(do(enc, "action", "fighter")) == "incapacitated"
    assert verdict(do(enc, "dash", "fighter")) == "incapacitated"
    assert verdict(do(enc, "move", "fighter")) == "allowed"     # movement is no action


@rule("5E-INCAPACITATED")
def test_a_field_not_given_leaves_its_condition_as_it_was():
    enc = party()
    befall(enc, "orc", incapacitated=True)
    befall(enc, "orc", blinded=True)
    befall(enc, "orc", unseen=False)
    assert enc.fighters["orc"].incapacitated and enc.fighters["orc"].blinded
    befall(enc, "orc", incapacitated=False, blinded=False)
    assert not (enc.fighters["orc"].incapacitated or enc.fighters["orc"].blinded)


@rule("5E-INCAPACITATED")
def test_without_an_actor_the_fields_change_nobody():
    enc = party()
    before = {c: (f.incapacitated, f.unseen, f.blinded) for c, f in enc.fighters.items()}
    assert verdict(do(enc, "event", incapacitated=True, blinded=True)) == "allowed"
    assert {c: (f.incapacitated, f.unseen, f.blinded)
            for c, f in enc.fighters.items()} == before


@rule("5E-INCAPACITATED-CONCENTRATION", "5E-READY-SPELL")
def test_becoming_incapacitated_dissipates_a_readied_spell_not_a_readied_attack():
    enc = party()
    do(enc, "ready", "fighter", readies="an attack")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "ready", "wizard", slot=True, readies="a spell")
    do(enc, "resolve")
    do(enc, "end-turn")
    stun = do(enc, "event", "wizard", incapacitated=True)
    assert enc.budgets("wizard")["readied"] is None
    assert any("dissipates" in n for n in stun.notes)
    do(enc, "event", "fighter", incapacitated=True)
    assert enc.budgets("fighter")["readied"] == "an attack"
    do(enc, "resolve")
    do(enc, "resolve")
    befall(enc, "wizard", incapacitated=False)
    befall(enc, "fighter", incapacitated=False)
    do(enc, "move", "orc", id="go")
    do(enc, "resolve")
    assert verdict(do(enc, "readied", "wizard", to="go")) == "nothing-readied"
    assert verdict(do(enc, "readied", "fighter", to="go")) == "allowed"


@rule("5E-INCAPACITATED-CONCENTRATION")
def test_only_becoming_incapacitated_breaks_concentration():
    enc = party()
    do(enc, "ready", "fighter", spell=True, readies="a spell")
    do(enc, "resolve")
    befall(enc, "fighter", unseen=True, blinded=True, incapacitated=False)
    assert enc.budgets("fighter")["readied"] == "a spell"


@rule("5E-OA-SEE")
@pytest.mark.parametrize("who,field", [("orc", "blinded"), ("fighter", "unseen")])
def test_sight_lost_and_regained_mid_fight(who, field):
    enc = party(scene=True)
    befall(enc, who, **{field: True})
    do(enc, "move", "fighter", path=[[0, 1]], id="one")
    do(enc, "resolve")
    do(enc, "move", "fighter", path=[[-1, 1]], id="two")
    assert verdict(do(enc, "opportunity", "orc", to="two")) == "cannot-see"
    do(enc, "resolve")
    befall(enc, who, **{field: False})
    do(enc, "move", "fighter", path=[[0, 1]], id="three")
    do(enc, "resolve")
    do(enc, "move", "fighter", path=[[-1, 1]], id="four")
    assert verdict(do(enc, "opportunity", "orc", to="four")) == "allowed"


@rule("5E-SPACES")
def test_a_creature_incapacitated_mid_fight_may_be_passed():
    enc = party(scene=True)
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 1]])) == "enemy-space"
    befall(enc, "orc", incapacitated=True)
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 1]])) == "allowed"


@pytest.mark.parametrize("field", CONDITIONS)
def test_a_condition_field_is_an_events_true_or_false(field):
    enc = party()
    with pytest.raises(StepError) as info:
        do(enc, "action", "fighter", **{field: True})
    assert (info.value.field, info.value.code) == (field, "field-of-another-kind")
    with pytest.raises(StepError) as info:
        do(enc, "event", "orc", **{field: "yes"})
    assert (info.value.field, info.value.code) == (field, "bad-value")


def test_the_words_and_the_builder_say_both_ways_of_each_condition():
    rs = RULESETS["dnd5e"]
    assert set(rs.words.unflags) == set(CONDITIONS)
    fields = {f["name"]: f for f in step_fields(rs, "event", ["orc"], str, False)}
    for name in CONDITIONS:
        assert fields[name]["type"] == "choice" and fields[name]["choices"] == [True, False]
    namer = Namer(rs, {"steps": []})
    assert namer.details({"do": "event", "incapacitated": True, "blinded": False}) == \
        ["seeing again", "becoming Incapacitated"]
    assert namer.details({"do": "event", "concentration": False}) == []


# -- Prone: crawling and standing up (T-5E-PRONE) ------------------------------------------

@rule("5E-PRONE", "5E-MOVE-SPEED")
def test_a_prone_creature_crawls_unless_it_stands_up_first():
    enc = party()
    befall(enc, "fighter", prone=True)
    assert do(enc, "move", "fighter", squares=2).verdict == "allowed"
    assert enc.budgets("fighter")["movement"] == 10                   # 2 x 10 ft, crawled
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", stand=True)) == "not-enough-movement"
    assert enc.fighters["fighter"].prone                               # refused: still Prone


@rule("5E-PRONE")
def test_standing_up_costs_half_the_speed_and_ends_prone():
    enc = Encounter("dnd5e", [{"id": "fighter", "side": "pcs", "prone": True, "speed": 35},
                              {"id": "orc", "side": "monsters"}])
    assert verdict(do(enc, "move", "fighter", stand=True)) == "allowed"
    assert enc.budgets("fighter")["movement"] == 18 and not enc.fighters["fighter"].prone
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", stand=True)) == "not-prone"
    assert verdict(do(enc, "move", "fighter", squares=3)) == "allowed"  # walked: 5 ft each
    assert enc.budgets("fighter")["movement"] == 3


@rule("5E-PRONE", "5E-SPACES")
def test_crawling_through_difficult_terrain_costs_15_ft_a_square():
    enc = party(scene=True)
    befall(enc, "fighter", prone=True)
    befall(enc, "orc", incapacitated=True)
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 1]])) == "allowed"
    assert enc.budgets("fighter")["movement"] == 5                    # 15 + 10


@rule("5E-PRONE")
def test_a_creature_with_no_speed_cannot_stand():
    enc = Encounter("dnd5e", [{"id": "ogre", "side": "monsters", "prone": True, "speed": 0},
                              {"id": "orc", "side": "monsters"}])
    assert verdict(do(enc, "move", "ogre", stand=True)) == "not-enough-movement"


@pytest.mark.parametrize("flag,words", [("stand", "standing up first"),
                                        ("difficult", "through Difficult Terrain")])
def test_the_builder_offers_a_moves_true_false_fields(flag, words):
    rs = RULESETS["dnd5e"]
    fields = {f["name"]: f for f in step_fields(rs, "move", ["orc"], str, False)}
    assert fields[flag]["type"] == "flag"
    assert Namer(rs, {"steps": []}).details({"do": "move", flag: True}) == [words]


# -- Difficult Terrain said by the move (T-5E-SPACES) ---------------------------------------

@rule("5E-SPACES", "5E-MOVE-SPEED")
def test_a_move_through_difficult_terrain_covers_10_ft_a_square():
    enc = party()
    assert verdict(do(enc, "move", "fighter", squares=4, difficult=True)) == \
        "not-enough-movement"                                           # 40 ft with 30
    assert verdict(do(enc, "move", "fighter", squares=2, difficult=True)) == "allowed"
    assert enc.budgets("fighter")["movement"] == 10
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", squares=4, difficult=False)) == "allowed"
    assert enc.budgets("fighter")["movement"] == 0                      # 10 + 10 back - 20


@rule("5E-SPACES", "5E-PRONE")
def test_difficult_terrain_counts_once_a_square_and_a_crawl_adds_to_it():
    enc = party(scene=True)
    befall(enc, "orc", incapacitated=True)
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [1, 1]], difficult=True)) == \
        "allowed"
    assert enc.budgets("fighter")["movement"] == 10                     # 10 + 10, not 15 + 10
    crawler = party()
    befall(crawler, "fighter", prone=True)
    assert verdict(do(crawler, "move", "fighter", squares=2, difficult=True)) == "allowed"
    assert crawler.budgets("fighter")["movement"] == 0                  # 15 + 15


@rule("5E-READY", "5E-SPACES")
def test_a_readied_response_through_difficult_terrain_is_a_move():
    enc = Encounter("dnd5e", [{"id": "orc", "side": "monsters"},
                              {"id": "snail", "side": "pcs", "speed": 5}])
    do(enc, "end-turn")
    assert verdict(do(enc, "ready", "snail", readies="a move")) == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "event", "orc", id="noise")
    do(enc, "resolve")
    assert verdict(do(enc, "readied", "snail", to="noise", difficult=True)) == \
        "not-enough-movement"                                           # one square, 10 ft
    assert verdict(do(enc, "readied", "snail", to="noise", squares=1)) == "allowed"


def test_difficult_is_a_field_of_moves_only():
    with pytest.raises(StepError) as err:
        do(party(), "action", "fighter", difficult=True)
    assert err.value.code == "field-of-another-kind"


# -- a teleport of one's own (T-5E-OPPORTUNITY, T-5E-SPACES) ---------------------------------

@rule("5E-TELEPORT", "5E-OA-OWN-MOVEMENT")
def test_a_teleport_of_ones_own_spends_no_movement_and_provokes_nothing():
    enc = Encounter("dnd5e", [{"id": "wizard", "side": "pcs", "at": [0, 0], "bonus": True},
                              {"id": "orc", "side": "monsters", "at": [1, 0]}])
    assert verdict(do(enc, "bonus", "wizard", slot=True, teleport=True,
                      path=[[4, 4]])) == "allowed"
    assert verdict(do(enc, "opportunity", "orc")) == "not-own-movement"
    do(enc, "resolve")
    assert enc.fighters["wizard"].at == (4, 4)
    assert enc.budgets("wizard")["movement"] == 30
    with pytest.raises(StepError) as err:
        do(enc, "move", "wizard", teleport=True)
    assert err.value.code == "field-of-another-kind"
