"""The scene: with positions, provocation, movement reactions and lost
attacks are derived from where everyone stands (spec/TIMING.md, T-SCENE)."""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fsm import Encounter, StepError
from fsm.cli import main

rule = pytest.mark.rule


def grid(*placed, **options):
    """An encounter from (id, side, (x, y)[, reach]) tuples, first one acting."""
    combatants = []
    for entry in placed:
        c = {"id": entry[0], "side": entry[1], "at": list(entry[2])}
        if len(entry) > 3:
            c["reach"] = entry[3]
        combatants.append(c)
    return Encounter("dnd4e", combatants, options=options)


def step(enc, do, actor=None, **fields):
    data = {"do": do, **fields}
    if actor is not None:
        data["actor"] = actor
    return enc.step(data)


# -- provocation ---------------------------------------------------------------------------

@rule("4E-SCENE-GRID")
@rule("4E-OPP-TRIGGER")
def test_a_melee_attack_next_to_an_enemy_provokes_nothing():
    """The commonest question: with positions, a melee attack provokes no
    opportunity action; a ranged one from the same square does."""
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)))
    step(enc, "standard", "orc", attack="melee", targets=["ayla"])
    v = step(enc, "opportunity", "ayla")
    assert (v.verdict, v.reason, v.rules) == ("rejected", "not-provoked",
                                              ("4E-OPP-TRIGGER", "4E-SCENE-GRID"))
    assert "a melee attack provokes nobody" in v.says
    step(enc, "resolve")
    step(enc, "end-turn", "orc")
    step(enc, "end-turn", "ayla")
    step(enc, "standard", "orc", attack="ranged", targets=["ayla"])
    assert step(enc, "opportunity", "ayla").verdict == "allowed"


@rule("4E-OPP-TRIGGER", "4E-OPP-ONCE")
def test_an_opportunity_action_with_its_own_trigger_needs_no_provocation():
    """An opportunity action that is no opportunity attack answers what its
    power names, on a grid or off it; it still spends the turn's one."""
    for placed in (True, False):
        where = {"orc": (0, 0), "ayla": (1, 0)} if placed else {}
        enc = Encounter("dnd4e", [{"id": c, "side": side, **(
            {"at": list(where[c])} if placed else {})} for c, side in
            (("orc", "m"), ("ayla", "h"))])
        step(enc, "standard", "orc", attack="melee", targets=["ayla"], id="club")
        assert step(enc, "opportunity", "ayla").reason == "not-provoked"
        v = step(enc, "opportunity", "ayla", own_trigger=True)
        assert v.verdict == "allowed", placed
        step(enc, "resolve")
        assert step(enc, "opportunity", "ayla", to="club", own_trigger=True).reason == \
            "opportunity-used-this-turn"
    with pytest.raises(StepError) as err:
        step(enc, "interrupt", "ayla", own_trigger=True)
    assert err.value.code == "field-of-another-kind"


@rule("4E-SCENE-GRID", "4E-OPP-TRIGGER")
def test_a_teleport_of_ones_own_jumps_and_provokes_nobody():
    """teleport: true makes a step's path the one square arrived at; the
    same path walked is no path at all."""
    enc = grid(("ayla", "h", (0, 0)), ("orc", "m", (1, 0)))
    with pytest.raises(StepError) as err:
        step(enc, "move", "ayla", path=[[0, 5]])
    assert err.value.code == "bad-path"
    with pytest.raises(StepError) as err:
        step(enc, "free", "ayla", path=[[0, 5]], teleport=True)
    assert err.value.code == "bad-path"          # free takes no teleport: a walk, read first
    with pytest.raises(StepError) as err:
        step(enc, "free", "ayla", teleport=True)
    assert err.value.code == "field-of-another-kind"
    assert step(enc, "move", "ayla", path=[[0, 5]], teleport=True).verdict == "allowed"
    assert step(enc, "opportunity", "orc").reason == "not-provoked"
    step(enc, "resolve")
    assert enc.fighters["ayla"].at == (0, 5)


@rule("4E-SCENE-GRID")
def test_diagonal_neighbours_are_adjacent_and_further_squares_are_not():
    """A ranged attack provokes an enemy on a diagonal square, not one two
    squares away."""
    for who, verdict in (("ayla", "allowed"), ("bob", "rejected")):
        enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 1)), ("bob", "h", (2, 0)))
        step(enc, "standard", "orc", attack="area")
        assert step(enc, "opportunity", who).verdict == verdict


@rule("4E-SCENE-GRID")
def test_a_move_provokes_for_the_square_it_leaves_not_the_square_it_enters():
    """Leaving a square next to an enemy provokes while that part is pending;
    the next part, leaving a square further away, does not; a shift never."""
    def moving(shift=False, parts_done=0):
        enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)))
        step(enc, "move", "orc", path=[[-1, 0], [-2, 0]], shift=shift)
        for _ in range(parts_done):
            step(enc, "resolve")
            step(enc, "continue")
        return step(enc, "opportunity", "ayla")

    assert moving().verdict == "allowed"
    second = moving(parts_done=1)
    assert second.reason == "not-provoked" and "not next to" in second.says
    assert "a shift provokes nobody" in moving(shift=True).says


@rule("4E-SCENE-STATED")
def test_a_stated_provocation_the_positions_contradict_is_refused_and_changes_nothing():
    """With positions a stated `provokes` must be what they show; the refusal
    leaves the encounter as it was; without positions it is taken as stated."""
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)), ("bob", "h", (4, 4)))
    before = enc.fingerprint()
    v = step(enc, "standard", "orc", attack="ranged", provokes=["ayla", "bob"])
    assert (v.verdict, v.reason, v.rules) == ("rejected", "provocation-contradicts-scene",
                                              ("4E-SCENE-STATED",))
    assert "['ayla'] where everyone stands" in v.says
    assert enc.fingerprint() == before
    assert step(enc, "standard", "orc", attack="ranged", provokes=["ayla"]).verdict == "allowed"
    plain = Encounter("dnd4e", [("orc", "m"), ("ayla", "h")])
    assert step(plain, "standard", "orc", attack="melee", provokes=["ayla"]).verdict == "allowed"
    assert step(plain, "opportunity", "ayla").verdict == "allowed"


# -- movement and reach -----------------------------------------------------------------------

@rule("4E-REACTION-MOVE")
@rule("4E-SCENE-GRID")
def test_entered_reach_on_square_2_and_stopped_on_square_4():
    """The ogre enters Ayla's reach on square 2 and stops on square 4: her
    reaction is refused before square 2 resolves, allowed from then until the
    last square resolves, and too late afterwards."""
    path = [[1, 0], [2, 0], [3, 1], [4, 1]]

    def ogre_at(done):
        enc = grid(("ogre", "m", (0, 0)), ("ayla", "h", (3, 0)))
        step(enc, "move", "ogre", path=path, id="stride")
        for n in range(done):
            step(enc, "resolve")
            if n + 1 < len(path):
                step(enc, "continue")
        return enc

    verdicts = [step(ogre_at(done), "reaction", "ayla", on="enters-reach").reason
                for done in range(5)]
    assert verdicts == ["moved-less-than-one-square", "reach-not-entered", None, None,
                        "not-mid-move"]


@rule("4E-REACTION-MOVE")
def test_a_path_that_starts_inside_the_reach_never_enters_it():
    """Entering means coming from outside: a move that starts within the
    reach and stays there gives no reaction to entering it."""
    enc = grid(("ogre", "m", (0, 0)), ("ayla", "h", (2, 0), 2))
    step(enc, "move", "ogre", path=[[0, 1], [0, 2]])
    step(enc, "resolve")
    step(enc, "continue")
    assert step(enc, "reaction", "ayla", on="enters-reach").reason == "reach-not-entered"


@rule("4E-REACTION-MOVE")
@rule("4E-SCENE-GRID")
def test_a_move_without_a_path_enters_no_reach():
    """With a scene, a move given in squares moves nobody on the grid: it
    enters no reach while it is under way, and the mover stays where it
    stood; once its last square is done, the move is over (not-mid-move,
    checked first)."""
    enc = grid(("ogre", "m", (0, 0)), ("ayla", "h", (3, 0)))
    step(enc, "move", "ogre", squares=3)
    reasons = []
    for n in range(3):
        step(enc, "resolve")
        reasons.append(step(enc, "reaction", "ayla", on="enters-reach").reason)
        if n < 2:
            step(enc, "continue")
    assert reasons == ["reach-not-entered", "reach-not-entered", "not-mid-move"]
    assert enc.fighters["ogre"].at == (0, 0)


# -- lost attacks --------------------------------------------------------------------------

@rule("4E-SCENE-LOSS")
@rule("4E-INTERRUPT-LOST")
def test_shifting_out_of_reach_loses_the_attack_by_itself():
    """The texts' example on a grid: the interrupt shifts Ayla away, the
    orc's melee attack is lost without anyone saying so."""
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)))
    step(enc, "standard", "orc", attack="melee", targets=["ayla"], id="club")
    step(enc, "interrupt", "ayla", path=[[2, 0]], shift=True)
    step(enc, "resolve")
    assert enc.facts()["lost"] == ["club"]
    assert enc.facts()["positions"] == {"orc": [0, 0], "ayla": [2, 0]}


@rule("4E-SCENE-LOSS")
@rule("4E-INTERRUPT-LOST")
def test_a_loss_the_positions_cannot_show_is_still_declared():
    """A reach-2 glaive still reaches Ayla after her one-square shift: the
    positions do not make the attack lost, but the interrupt may have stopped
    it some other way, so a `lose` is allowed (cs-4e.026, fr-4e.051)."""
    enc = grid(("orc", "m", (0, 0), 2), ("ayla", "h", (1, 0)))
    step(enc, "standard", "orc", attack="melee", targets=["ayla"], id="glaive")
    step(enc, "interrupt", "ayla", path=[[2, 0]], shift=True)
    step(enc, "resolve")
    assert enc.facts()["lost"] == []
    assert step(enc, "lose").verdict == "allowed"
    assert enc.facts()["lost"] == ["glaive"]


@rule("4E-SCENE-LOSS")
@rule("4E-READY-TIMING")
@pytest.mark.parametrize("readied_as,lost", [("interrupt", ["club"]), ("reaction", [])])
def test_a_readied_interrupt_that_shifts_away_loses_the_attack(readied_as, lost):
    """A readied action taken as an interrupt gets ahead of the club as any
    interrupt does: shifting out of reach makes the attack lost. Taken as a
    reaction it comes after the attack, which then has nothing to lose."""
    enc = grid(("ayla", "h", (1, 0)), ("orc", "m", (0, 0)), readied_as=readied_as)
    step(enc, "ready", "ayla")
    step(enc, "resolve")
    step(enc, "end-turn")
    step(enc, "standard", "orc", attack="melee", targets=["ayla"], id="club")
    if readied_as == "reaction":
        step(enc, "resolve")
    assert step(enc, "readied", "ayla", path=[[2, 0]], shift=True).verdict == "allowed"
    step(enc, "resolve")
    assert enc.facts()["lost"] == lost


@rule("4E-REACTION-MOVE")
@rule("4E-SCENE-GRID")
def test_a_move_that_enters_the_reach_on_its_last_square_is_answered_after_it():
    """Entering Ayla's reach on its last square, the ogre's move has no
    square left to break into: the reaction comes once the move resolved, as
    any reaction after its trigger (cs-4e.031, fr-4e.056)."""
    enc = grid(("ogre", "m", (0, 0)), ("ayla", "h", (3, 0)))
    step(enc, "move", "ogre", path=[[1, 0], [2, 0]], id="walk")
    step(enc, "resolve")
    step(enc, "continue")
    v = step(enc, "reaction", "ayla", on="enters-reach")
    assert v.reason == "reach-not-entered"
    step(enc, "resolve")
    assert step(enc, "reaction", "ayla", on="enters-reach").verdict == "allowed"


@rule("4E-SCENE-GRID")
@rule("4E-OPP-TRIGGER")
def test_a_shift_with_a_ranged_attack_still_provokes_for_the_attack():
    """A shift stops the movement provoking, not a ranged attack made in the
    same step: an enemy next to the attacker may take its opportunity action."""
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)), ("bob", "h", (5, 5)))
    step(enc, "standard", "orc", path=[[0, 1]], shift=True, attack="ranged", id="shot")
    assert step(enc, "opportunity", "ayla").verdict == "allowed"
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)), ("bob", "h", (5, 5)))
    step(enc, "standard", "orc", path=[[0, 1]], shift=True, attack="melee", id="cut")
    assert step(enc, "opportunity", "ayla").reason == "not-provoked"


# -- reading the scene ------------------------------------------------------------------------

@pytest.mark.parametrize("combatants,steps,message", [
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y"}], [],
     "give every combatant a position"),
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y", "at": [0, 0]}], [],
     "both at (0,0)"),
    ([{"id": "a", "side": "x", "at": [0, "1"]}, {"id": "b", "side": "y", "at": [1, 1]}], [],
     "must be a square"),
    ([{"id": "a", "side": "x"}, {"id": "b", "side": "y"}],
     [{"actor": "a", "do": "move", "path": [[1, 0]]}], "needs a scene"),
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y", "at": [5, 5]}],
     [{"actor": "a", "do": "move", "path": [[2, 0]]}], "is not next to (0,0)"),
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y", "at": [5, 5]}],
     [{"actor": "a", "do": "move", "path": [[1, 0]], "squares": 3}], "disagrees with the path"),
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y", "at": [5, 5]}],
     [{"actor": "a", "do": "move", "shift": True}], "give the 'path'"),
    ([{"id": "a", "side": "x", "at": [0, 0]}, {"id": "b", "side": "y", "at": [5, 5]}],
     [{"actor": "a", "do": "standard", "attack": "psychic"}], "'attack' must be one of"),
])
def test_a_scene_that_cannot_be_read_is_one_line_and_exit_2(combatants, steps, message,
                                                              tmp_path, capsys):
    """Positions and paths that cannot be read are input errors: exit 2, one
    line naming the file and what is wrong."""
    doc = {"format": 1, "ruleset": "dnd4e", "combatants": combatants, "steps": steps}
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_malformed_path_changes_nothing():
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)))
    before = enc.fingerprint()
    with pytest.raises(StepError):
        step(enc, "move", "orc", path=[[0, 1], [5, 5]])
    assert enc.fingerprint() == before


# -- a property over random boards -------------------------------------------------------

squares = st.tuples(st.integers(-3, 3), st.integers(-3, 3))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=squares, enemy=squares, steps=st.lists(
    st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]),
    min_size=1, max_size=5), shift=st.booleans(), at_part=st.integers(0, 4))
def test_an_opportunity_action_is_allowed_exactly_when_the_mover_leaves_an_adjacent_square(
        start, enemy, steps, shift, at_part):
    """On random boards, an opportunity action against a move is allowed
    exactly when the part in play leaves a square next to the enemy and the
    move is not a shift (computed here from the grid, independently)."""
    if start == enemy:
        return
    path, here = [], start
    for dx, dy in steps:
        here = (here[0] + dx, here[1] + dy)
        path.append(list(here))
    if tuple(path[-1]) == enemy:       # a path may not end where someone stands
        with pytest.raises(StepError):
            step(grid(("orc", "m", start), ("ayla", "h", enemy)), "move", "orc", path=path)
        return
    enc = grid(("orc", "m", start), ("ayla", "h", enemy))
    step(enc, "move", "orc", path=path, shift=shift)
    part = min(at_part, len(path) - 1)
    for _ in range(part):
        step(enc, "resolve")
        step(enc, "continue")
    left = start if part == 0 else tuple(path[part - 1])
    next_to = max(abs(left[0] - enemy[0]), abs(left[1] - enemy[1])) == 1
    verdict = step(enc, "opportunity", "ayla").verdict
    assert verdict == ("allowed" if next_to and not shift else "rejected")


@rule("4E-SCENE-GRID", "4E-OPP-TRIGGER")
def test_a_power_that_moves_then_attacks_provokes_from_where_each_part_happens():
    """On random boards, a step with a path and an attack, in either order
    (``attack_after``): while a square is pending only the movement can
    provoke, from the square left, unless it is a shift; the attack provokes
    from where it is made (where the mover stands at any part, or only at the
    attack's own part, after the last square); a melee or close attack never
    does. Computed here from the grid, independently; the run must have
    seen each moment provoke and not provoke."""
    seen = Counter()
    near = st.tuples(st.integers(-2, 2), st.integers(-2, 2))

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(start=near, off=st.tuples(st.integers(-1, 1), st.integers(-2, 2)), steps=st.lists(st.sampled_from(
        [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]), min_size=1, max_size=2),
        shift=st.booleans(), after=st.sampled_from([True, True, False]),
        attack=st.sampled_from(["ranged", "area", "melee", "close"]), at_part=st.integers(0, 3))
    def run(start, off, steps, shift, after, attack, at_part):
        path, here = [], start
        for dx, dy in steps:
            here = (here[0] + dx, here[1] + dy)
            path.append(list(here))
        enemy = (here[0] + off[0], here[1] + off[1])      # somewhere near the path's end
        if enemy in (start, tuple(path[-1])):
            return
        enc = grid(("orc", "m", start), ("ayla", "h", enemy))
        step(enc, "standard", "orc", path=path, shift=shift, attack=attack, attack_after=after)
        part = min(at_part, len(path) if after else len(path) - 1)
        for _ in range(part):
            step(enc, "resolve")
            step(enc, "continue")
        on_square = part < len(path)
        where = (start if part == 0 else tuple(path[part - 1])) if on_square else tuple(path[-1])
        next_to = max(abs(where[0] - enemy[0]), abs(where[1] - enemy[1])) == 1
        shoots = attack in ("ranged", "area") and (not after or not on_square)
        expected = next_to and ((on_square and not shift) or shoots)
        moment = "a square" if on_square else "the attack after the path"
        event(f"{moment}: {'provoked' if expected else 'not provoked'}")
        seen[moment, expected] += 1
        assert (step(enc, "opportunity", "ayla").verdict == "allowed") == expected
    run()
    for moment in ("a square", "the attack after the path"):
        for provoked in (True, False):
            assert seen[moment, provoked] >= 10, dict(seen)


@rule("4E-SCENE-GRID", "4E-OPP-TRIGGER")
def test_an_attack_after_the_path_is_said_to_come_after_it():
    """A refusal while the square is pending says where the attack will be
    made from; the step's name reads move, then attack."""
    from fsm.report import _scene_words
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 1)))
    fields = dict(path=[[1, 0]], shift=True, attack="ranged", targets=["ayla"],
                  attack_after=True)
    assert _scene_words(fields) == " shifting (1,0) then (ranged attack at ayla)"
    step(enc, "standard", "orc", **fields)
    v = step(enc, "opportunity", "ayla")
    assert v.reason == "not-provoked"
    assert "its ranged attack comes after the path, from (1,0)" in v.says, v.says
    assert step(enc, "resolve").verdict == "allowed" and enc.fighters["orc"].at == (1, 0)
    assert step(enc, "continue").verdict == "allowed"
    assert step(enc, "opportunity", "ayla").verdict == "allowed"
    step(enc, "resolve")
    assert step(enc, "resolve").verdict == "allowed" and enc.fighters["orc"].at == (1, 0)


def test_a_player_reads_the_move_then_the_attack():
    from fsm.rulesets import get
    from fsm.site.words import Namer
    namer = Namer(get("dnd4e"), {"steps": [], "combatants": []})
    fields = {"do": "standard", "path": [[1, 0]], "shift": True, "attack": "ranged",
              "targets": ["ayla"]}
    assert namer.details(fields)[-2:] == ["ranged attack at Ayla", "shifting 1 square to (1,0)"]
    assert namer.details({**fields, "attack_after": True})[-2:] == \
        ["shifting 1 square to (1,0)", "then ranged attack at Ayla"]
