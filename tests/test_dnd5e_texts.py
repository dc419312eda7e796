"""D&D 5e verdicts read off the SRD 5.2.1 where a first reading went wrong:
the countered exempt Reaction's slot, the Opportunity Attack's one melee
attack, the readied response's one attack and Speed, a move cut short by an
action, and the spaces a move may pass through. Each test names its rules."""

import pytest

from conftest import do
from fsm import StepError
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


@rule("5E-MOVE-BREAK-UP", "5E-MOVE-SPEED", "5E-ONE-AT-A-TIME")
@pytest.mark.parametrize("kind", ["action", "dash", "disengage", "ready", "bonus", "move",
                                  "end-turn"])
def test_a_step_of_the_turn_between_two_squares_stops_the_move(kind):
    enc = party(fighter={"bonus": True})
    do(enc, "move", "fighter", squares=6, id="run")
    do(enc, "resolve")
    do(enc, "continue")
    assert verdict(do(enc, kind, "fighter")) == "action-in-progress"   # a square under way
    do(enc, "resolve")
    assert verdict(do(enc, kind, "fighter")) == "allowed"
    assert "run" in enc.facts()["resolved"] and "run" not in enc.facts()["stack"]
    left = {"dash": 50, "move": 15}.get(kind, 20)     # 20 ft back; Dash adds 30; a move 5
    assert enc.budgets()["fighter"]["movement"] == left


@rule("5E-MOVE-BREAK-UP", "5E-EXTRA-ATTACK-MOVE")
def test_continue_goes_on_with_the_move_and_no_one_else_stops_it():
    enc = party()
    do(enc, "move", "fighter", squares=3, id="run")
    do(enc, "resolve")
    assert verdict(do(enc, "action", "wizard")) == "not-your-turn"
    assert verdict(do(enc, "continue")) == "allowed"
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    assert enc.facts()["resolved"] == ["run"] and enc.budgets()["fighter"]["movement"] == 15


@rule("5E-SPACES")
def test_a_path_passes_allies_and_the_incapacitated_not_able_enemies():
    enc = scene(fighter=[0, 0], wizard=[1, 0], orc=[2, 0],
                ogre=([1, 1], {"incapacitated": True}))
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 1]])) == "allowed"
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", path=[[2, 0], [3, 0]])) == "enemy-space"
    assert verdict(do(enc, "move", "fighter", path=[[1, 1], [0, 1]])) == "allowed"
    enc = scene(fighter=[0, 0], orc=[1, 0])
    assert verdict(do(enc, "action", "fighter", path=[[1, 0], [2, 0]])) == "enemy-space"


@rule("5E-SPACES")
@pytest.mark.parametrize("mine,theirs,passes", [
    ("medium", "tiny", True), ("medium", "small", False), ("medium", "large", False),
    ("medium", "huge", True), ("medium", "gargantuan", True), ("large", "small", True),
    ("tiny", "small", False), ("small", "tiny", True), ("tiny", "medium", True),
    ("huge", "large", False), ("gargantuan", "medium", True), ("small", "small", False)])
def test_a_path_passes_a_tiny_creature_and_one_two_sizes_apart(mine, theirs, passes):
    enc = scene(fighter=([0, 0], {"size": mine}), orc=([1, 0], {"size": theirs}))
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 0]])) == \
        ("allowed" if passes else "enemy-space")


def test_a_size_is_one_of_six_words():
    with pytest.raises(StepError) as info:
        scene(fighter=([0, 0], {"size": "larg"}), orc=[1, 0])
    assert "one of tiny, small, medium, large, huge, gargantuan" in str(info.value)
    assert "did you mean 'large'" in str(info.value)
    with pytest.raises(StepError):
        scene(fighter=([0, 0], {"size": 3}), orc=[1, 0])


@rule("5E-SPACES", "5E-MOVE-SPEED")
def test_another_creatures_space_is_difficult_terrain_unless_tiny_or_an_ally():
    enc = scene(fighter=[0, 0], orc=([1, 0], {"incapacitated": True}),
                ogre=([1, 1], {"size": "tiny"}), wizard=[1, -1])
    enc.explaining = True
    for path, spent in (([[1, 0], [2, 0]], 15), ([[1, 1], [2, 1]], 10),
                        ([[1, -1], [2, -1]], 10)):
        v = enc.try_step({"do": "move", "actor": "fighter", "path": path})
        assert verdict(v) == "allowed", v
        assert any(f"enough for {spent} ft" in line for line in v.because), v.because
    do(enc, "move", "fighter", path=[[0, 1], [1, 0], [2, 0]], id="over")
    assert enc.budgets()["fighter"]["movement"] == 10             # 5 + 10 + 5 spent
    do(enc, "resolve")
    do(enc, "action", "fighter")      # stops the move: the squares not walked, as counted
    assert enc.budgets()["fighter"]["movement"] == 25
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", squares=6)) == "not-enough-movement"
    enc = scene(fighter=[0, 0], orc=([1, 0], {"incapacitated": True}))
    do(enc, "move", "fighter", path=[[1, 0], [2, 0]])        # 10 + 5 ft, kept for a stop
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")
    do(enc, "action", "fighter", slot=True)
    assert verdict(do(enc, "counter")) == "not-counterspelled"


@rule("5E-READY", "5E-SPACES")
def test_a_readied_move_through_difficult_terrain_goes_up_to_speed():
    enc = scene(fighter=[0, 0], orc=([1, 0], {"incapacitated": True}), goblin=[9, 9])
    do(enc, "ready", "fighter", readies="a move")
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "end-turn")
    do(enc, "move", "goblin", path=[[9, 8]], id="go")
    do(enc, "resolve")
    five = [[1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]
    assert verdict(enc.try_step({"do": "readied", "actor": "fighter", "to": "go",
                                 "path": five})) == "allowed"          # 10 + 4 x 5 = 30 ft
    assert verdict(enc.try_step({"do": "readied", "actor": "fighter", "to": "go",
                                 "path": five + [[6, 0]]})) == "not-enough-movement"


@rule("5E-SPACES", "5E-MOVE-SPEED")
def test_an_able_enemys_space_is_difficult_terrain_too_and_the_budget_is_checked_first():
    enc = scene(fighter=([0, 0], {"speed": 10}), orc=[1, 0])
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 0]])) == "not-enough-movement"
    enc = scene(fighter=([0, 0], {"speed": 15}), orc=[1, 0])
    assert verdict(do(enc, "move", "fighter", path=[[1, 0], [2, 0]])) == "enemy-space"
