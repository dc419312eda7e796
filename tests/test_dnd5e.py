"""D&D 5e (SRD 5.2.1): the turn's action, Bonus Action, movement and free
interaction; the Reaction, Opportunity Attacks, Ready; spell slots and
Counterspell. Each test names the rules it holds; a Hypothesis machine
checks the limits over random timelines."""

from collections import defaultdict

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, rule as step_rule,
                                 run_state_machine_as_test)

from conftest import do, state_of
from fsm import Encounter, StepError

rule = pytest.mark.rule


def party(*extra, options=None, **fields):
    """Fighter and wizard (pcs) against an orc, fighter first; ``fields``
    adds combatant fields by id."""
    ids = ["fighter", "wizard", "orc", *extra]
    out = [{"id": i, "side": "monsters" if i in ("orc", "goblin") else "pcs",
            **fields.get(i, {})} for i in ids]
    return Encounter("dnd5e", out, options=options)


def scene(**at):
    """Combatants placed on the grid: name=[x, y] or name=([x, y], {fields})."""
    out = []
    for name, where in at.items():
        square, more = (where if isinstance(where, tuple) else (where, {}))
        out.append({"id": name, "side": "monsters" if name in ("orc", "ogre") else "pcs",
                    "at": square, **more})
    return Encounter("dnd5e", out)


def verdict(v):
    return v.verdict if v.verdict == "allowed" else v.reason


def finish(enc):
    """Resolve the top frame through every part."""
    top = enc.stack[-1]
    while top.outcome is None:
        do(enc, "resolve")
        if top.outcome is None:
            do(enc, "continue")


# -- the turn ---------------------------------------------------------------------------

@rule("5E-ACTION")
def test_one_action_a_turn_whatever_it_is():
    enc = party()
    assert verdict(do(enc, "dash", "fighter")) == "allowed"
    do(enc, "resolve")
    for kind in ("action", "dash", "disengage", "ready"):
        assert verdict(do(enc, kind, "fighter")) == "action-used"
    assert enc.budgets("fighter")["action"] == 0


@rule("5E-OWN-TURN", "5E-INITIATIVE")
def test_the_turn_belongs_to_its_owner_in_initiative_order():
    enc = party()
    for kind in ("action", "bonus", "move", "interact", "ready"):
        assert verdict(do(enc, kind, "wizard")) == "not-your-turn"
    do(enc, "end-turn")
    assert verdict(do(enc, "move", "wizard")) == "allowed"
    assert enc.active == "wizard"


@rule("5E-ONE-AT-A-TIME")
def test_nothing_new_while_the_action_is_unresolved():
    enc = party(fighter={"bonus": True})
    do(enc, "action", "fighter")
    before = state_of(enc)
    for kind in ("bonus", "move", "action"):
        assert verdict(do(enc, kind, "fighter")) in ("action-in-progress", "action-used")
    assert verdict(do(enc, "end-turn")) == "action-in-progress"
    assert state_of(enc) == before


@rule("5E-BONUS-GRANTED", "5E-BONUS-ONE")
def test_a_bonus_action_only_when_granted_and_one_a_turn():
    plain = party()
    assert verdict(do(plain, "bonus", "fighter")) == "no-bonus-action"
    rogue = party(fighter={"bonus": True})
    assert verdict(do(rogue, "bonus", "fighter")) == "allowed"
    do(rogue, "resolve")
    assert verdict(do(rogue, "bonus", "fighter")) == "bonus-action-used"
    for _ in range(3):
        do(rogue, "end-turn")
    assert verdict(do(rogue, "bonus", "fighter")) == "allowed"


@rule("5E-INCAPACITATED")
def test_incapacitated_takes_no_action_bonus_or_reaction_but_moves():
    enc = party(fighter={"incapacitated": True, "bonus": True})
    assert verdict(do(enc, "action", "fighter")) == "incapacitated"
    assert verdict(do(enc, "bonus", "fighter")) == "incapacitated"
    assert verdict(do(enc, "move", "fighter")) == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "action", "wizard", id="w")
    assert verdict(do(enc, "reaction", "fighter", to="w", before=True)) == "incapacitated"


@rule("5E-MOVE-SPEED", "5E-MOVE-BREAK-UP", "5E-DASH")
def test_movement_is_speed_in_feet_split_around_the_action_and_doubled_by_dash():
    enc = party(fighter={"speed": 25})
    do(enc, "move", "fighter", squares=2)
    finish(enc)
    do(enc, "action", "fighter")
    do(enc, "resolve")
    assert enc.budgets("fighter")["movement"] == 15
    assert verdict(do(enc, "move", "fighter", squares=4)) == "not-enough-movement"
    assert verdict(do(enc, "move", "fighter", squares=3)) == "allowed"
    finish(enc)
    for _ in range(3):
        do(enc, "end-turn")
    do(enc, "dash", "fighter")
    do(enc, "resolve")
    assert enc.budgets("fighter")["movement"] == 50
    assert verdict(do(enc, "move", "fighter", squares=11)) == "not-enough-movement"


@rule("5E-EXTRA-ATTACK-MOVE")
def test_a_move_between_two_attacks_of_one_action():
    enc = party()
    do(enc, "action", "fighter", attacks=2, id="atk")
    assert verdict(do(enc, "move", "fighter")) == "action-in-progress"
    do(enc, "resolve")
    assert verdict(do(enc, "move", "fighter", id="step")) == "allowed"
    do(enc, "resolve")
    assert verdict(do(enc, "continue")) == "allowed"
    do(enc, "resolve")
    assert enc.outcomes("resolved") == ["step", "atk"]


@rule("5E-INTERACT", "5E-INTERACT-DURING")
def test_one_free_interaction_during_a_move_or_action():
    enc = party()
    assert verdict(do(enc, "interact", "fighter")) == "not-during-move-or-action"
    do(enc, "move", "fighter")
    assert verdict(do(enc, "interact", "fighter")) == "allowed"
    do(enc, "resolve")
    assert verdict(do(enc, "interact", "fighter")) == "interaction-used"


# -- reactions -----------------------------------------------------------------------------

@rule("5E-REACTION-ONE", "5E-REACTION-ANY-TURN")
def test_one_reaction_until_the_start_of_your_next_turn():
    enc = party("goblin")
    do(enc, "action", "fighter", id="a")
    do(enc, "resolve")
    assert verdict(do(enc, "reaction", "fighter", to="a")) == "allowed"   # own turn
    do(enc, "resolve")
    do(enc, "end-turn")
    do(enc, "action", "wizard", id="b")
    do(enc, "resolve")
    assert verdict(do(enc, "reaction", "fighter", to="b")) == "reaction-used"
    do(enc, "end-turn")                       # the wizard's turn ends: still spent
    assert enc.budgets("fighter")["reaction"] == 0
    for _ in range(2):
        do(enc, "end-turn")
    do(enc, "move", "fighter")                # its own turn started: back
    assert enc.budgets("fighter")["reaction"] == 1


@rule("5E-REACTION-AFTER", "5E-REACTION-BEFORE", "5E-SHIELD", "5E-TRIGGER")
def test_a_reaction_follows_its_trigger_unless_it_says_before():
    enc = party()
    do(enc, "action", "fighter", id="hit")
    assert verdict(do(enc, "reaction", "orc", to="hit")) == "trigger-not-resolved"
    assert verdict(do(enc, "reaction", "orc", to="hit", before=True, slot=True)) == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    assert verdict(do(enc, "reaction", "wizard", to="hit", before=True)) == \
        "trigger-already-resolved"
    assert verdict(do(enc, "reaction", "wizard", to="hit")) == "allowed"
    assert verdict(do(enc, "reaction", "fighter", to="hit")) == "unresolved-above"


@rule("5E-REACTION-AFTER", "5E-STACK", "5E-CONTINUE-TURN")
def test_the_window_closes_when_play_moves_on():
    enc = party()
    do(enc, "action", "fighter", id="hit")
    do(enc, "resolve")
    do(enc, "move", "fighter")
    assert verdict(do(enc, "reaction", "orc", to="hit")) == "trigger-passed"


@rule("5E-TURN-MOMENTS", "5E-SURPRISE")
def test_a_turn_moment_is_answered_and_no_one_waits_for_a_first_turn():
    enc = party()
    assert verdict(do(enc, "reaction", "orc", to="turn-start")) == "allowed"


# -- opportunity attacks -----------------------------------------------------------------

@rule("5E-OA", "5E-REACH")
def test_the_opportunity_attack_comes_right_before_leaving_the_reach():
    enc = scene(fighter=[1, 0], orc=[0, 0])
    do(enc, "move", "fighter", path=[[1, 1], [2, 1]], id="run")
    assert verdict(do(enc, "opportunity", "orc", to="run")) == "not-provoked"  # still in
    do(enc, "resolve")
    do(enc, "continue")
    assert verdict(do(enc, "opportunity", "orc", to="run")) == "allowed"


@rule("5E-OA")
def test_entering_a_reach_provokes_nothing():
    enc = scene(fighter=[3, 0], orc=[0, 0])
    do(enc, "move", "fighter", path=[[2, 0], [1, 0]], id="in")
    for _ in range(2):
        assert verdict(do(enc, "opportunity", "orc", to="in")) == "not-provoked"
        do(enc, "resolve")
        if enc.stack[-1].outcome is None:
            do(enc, "continue")


@rule("5E-REACH")
def test_a_ten_foot_reach():
    enc = scene(fighter=[1, 0], ogre=([0, 0], {"reach": 2}))
    do(enc, "move", "fighter", path=[[2, 0], [3, 0]], id="run")
    assert verdict(do(enc, "opportunity", "ogre", to="run")) == "not-provoked"
    do(enc, "resolve")
    do(enc, "continue")
    assert verdict(do(enc, "opportunity", "ogre", to="run")) == "allowed"


@rule("5E-OA-SEE")
def test_an_unseen_mover_or_a_blinded_watcher_gives_no_opportunity_attack():
    enc = scene(fighter=([1, 0], {"unseen": True}), orc=[0, 0])
    do(enc, "move", "fighter", path=[[2, 0]], id="run")
    assert verdict(do(enc, "opportunity", "orc", to="run")) == "cannot-see"
    blind = scene(fighter=[1, 0], orc=([0, 0], {"blinded": True}))
    do(blind, "move", "fighter", path=[[2, 0]], id="run")
    assert verdict(do(blind, "opportunity", "orc", to="run")) == "cannot-see"


@rule("5E-OA-OWN-MOVEMENT", "5E-TELEPORT")
@pytest.mark.parametrize("forced", ["teleport", "push", "pull", "slide"])
def test_being_moved_or_teleporting_provokes_nothing(forced):
    enc = scene(fighter=[1, 0], orc=[0, 0])
    do(enc, "event", "fighter", forced=forced, path=[[2, 0]], id="moved")
    assert verdict(do(enc, "opportunity", "orc", to="moved")) == "not-own-movement"


@rule("5E-DISENGAGE")
def test_disengage_lasts_for_the_rest_of_the_turn():
    enc = scene(fighter=[1, 0], orc=[0, 0])
    do(enc, "disengage", "fighter")
    do(enc, "resolve")
    do(enc, "move", "fighter", path=[[2, 0]], id="away")
    assert verdict(do(enc, "opportunity", "orc", to="away")) == "disengaged"


# -- ready ------------------------------------------------------------------------------------

@rule("5E-READY", "5E-READY-AFTER", "5E-READY-LAPSE")
def test_ready_spends_the_action_now_and_the_reaction_on_release():
    enc = party()
    do(enc, "ready", "fighter", readies="strike the orc")
    do(enc, "resolve")
    budgets = enc.budgets("fighter")
    assert (budgets["action"], budgets["reaction"], budgets["readied"]) == \
        (0, 1, "strike the orc")
    do(enc, "end-turn")
    do(enc, "end-turn")
    do(enc, "move", "orc", id="near")
    assert verdict(do(enc, "readied", "fighter", to="near")) == "trigger-not-resolved"
    do(enc, "resolve")
    assert verdict(do(enc, "readied", "fighter", to="near")) == "allowed"
    assert enc.budgets("fighter")["reaction"] == 0
    lapse = party()
    do(lapse, "ready", "fighter")
    do(lapse, "resolve")
    for _ in range(3):
        do(lapse, "end-turn")
    do(lapse, "move", "fighter")
    assert lapse.budgets("fighter")["readied"] is None


@rule("5E-READY-SPELL", "5E-SLOT-ONE", "5E-CASTING-TIME")
def test_a_readied_spell_expends_its_slot_when_readied():
    enc = party(fighter={"bonus": True})
    do(enc, "ready", "fighter", slot=True)
    do(enc, "resolve")
    assert verdict(do(enc, "bonus", "fighter", slot=True)) == "spell-slot-used"
    assert verdict(do(enc, "bonus", "fighter", spell=True)) == "allowed"


# -- spells -------------------------------------------------------------------------------------

@rule("5E-SLOT-ONE")
@pytest.mark.parametrize("option,shield", [("counted", "spell-slot-used"),
                                           ("exempt", "allowed")])
def test_a_reaction_spell_with_a_slot_on_the_casters_own_turn(option, shield):
    enc = party(options={"slot_reactions": option})
    do(enc, "action", "fighter", slot=True)
    do(enc, "resolve")
    do(enc, "event", id="trap")
    assert verdict(do(enc, "reaction", "fighter", to="trap", before=True, slot=True)) == shield


@rule("5E-COUNTERSPELL")
def test_a_countered_spell_spends_its_action_not_its_slot():
    enc = party(fighter={"bonus": True})
    do(enc, "action", "fighter", slot=True, id="fire")
    assert verdict(do(enc, "counter")) == "not-counterspelled"
    do(enc, "reaction", "orc", to="fire", before=True, slot=True)
    do(enc, "resolve")
    assert verdict(do(enc, "counter")) == "allowed"
    assert enc.outcomes("disrupted") == ["fire"]
    assert enc.budgets("fighter")["action"] == 0
    assert enc.budgets("fighter")["slot"] == 1
    assert verdict(do(enc, "bonus", "fighter", slot=True)) == "allowed"


@rule("5E-COUNTERSPELL")
def test_only_a_spell_is_countered():
    enc = party()
    do(enc, "action", "fighter", id="swing")
    assert verdict(do(enc, "counter")) == "not-a-spell"


def test_flags_are_read_strictly():
    enc = party()
    with pytest.raises(StepError) as err:
        do(enc, "move", "fighter", slot=True)
    assert err.value.code == "field-of-another-kind"
    with pytest.raises(StepError) as err:
        do(enc, "action", "fighter", spell="yes")
    assert err.value.code == "bad-value"
    with pytest.raises(StepError):
        Encounter("dnd5e", [{"id": "a", "side": "x", "bonus": 1}])


# -- random timelines ---------------------------------------------------------------------------

class Timeline5e(RuleBasedStateMachine):
    """Arbitrary steps; after each allowed one, the limits hold by an
    independent count: one Reaction between the starts of a creature's
    turns, one action and one Bonus Action per turn, movement within Speed
    (doubled by Dash), one spell slot per turn; a refused step changes nothing."""

    KINDS = ["action", "dash", "disengage", "ready", "bonus", "move", "interact",
             "reaction", "opportunity", "readied", "counter", "event"] \
        + ["resolve"] * 4 + ["continue", "end-turn", "end-turn"]

    @initialize(n=st.integers(2, 4))
    def setup(self, n):
        self.enc = Encounter("dnd5e", [{"id": f"c{i}", "side": "ab"[i % 2], "bonus": i == 0}
                                       for i in range(n)])
        self.ids = []
        self.reactions = defaultdict(int)
        self.turn = defaultdict(lambda: defaultdict(int))
        self.serial = self.enc.turn_serial
        self.slots = defaultdict(int)
        self.moves = {}                 # move id -> [mover, squares, walked, pending]

    @step_rule(data=st.data())
    def step(self, data):
        enc = self.enc
        kind = data.draw(st.sampled_from(self.KINDS))
        step = {"do": kind}
        if kind not in ("resolve", "continue", "counter", "end-turn", "event") \
                or data.draw(st.booleans()):
            step["actor"] = data.draw(st.sampled_from(sorted(enc.fighters)))
        if kind in ("reaction", "opportunity", "readied") and self.ids and data.draw(st.booleans()):
            step["to"] = data.draw(st.sampled_from(self.ids))
        if kind == "move":
            step["squares"] = data.draw(st.integers(1, 8))
        if kind in ("action", "bonus", "reaction") and data.draw(st.booleans()):
            step["slot"] = True
        if kind == "reaction" and data.draw(st.booleans()):
            step["before"] = True
        if kind in ("move", "action") and data.draw(st.booleans()):
            step["provokes"] = [data.draw(st.sampled_from(sorted(enc.fighters)))]
        before = enc.fingerprint()
        try:
            v = enc.step(step)
        except StepError:
            assert enc.fingerprint() == before
            return
        if v.verdict != "allowed":
            assert enc.fingerprint() == before, (step, v)
            return
        if enc.turn_serial != self.serial:
            self.serial = enc.turn_serial
            self.turn.clear()
            self.reactions[enc.active] = 0
        actor = step.get("actor") or enc.active
        if enc.stack and enc.stack[-1].id not in self.ids and kind not in (
                "resolve", "continue", "counter", "end-turn"):
            self.ids.append(enc.stack[-1].id)
        if kind in ("reaction", "opportunity", "readied"):
            self.reactions[actor] += 1
            assert self.reactions[actor] <= 1, f"{actor}: two Reactions"
        if kind in ("action", "dash", "disengage", "ready"):
            self.turn[actor]["action"] += 1
            assert self.turn[actor]["action"] <= 1
            self.turn[actor]["dash"] += kind == "dash"
        if kind == "bonus":
            self.turn[actor]["bonus"] += 1
            assert self.turn[actor]["bonus"] <= 1
        if kind in ("resolve", "continue") and v.target_id in self.moves:
            move = self.moves[v.target_id]
            move[2] += kind == "resolve"
            move[3] = kind == "continue"
        if kind in ("action", "dash", "disengage", "ready", "bonus", "move", "end-turn"):
            for move in self.moves.values():       # a move between squares stops here
                if move[0] == actor and 1 <= move[2] < move[1] and not move[3]:
                    self.turn[actor]["feet"] -= 5 * (move[1] - move[2])
                    move[1] = move[2]
        if kind == "move":
            self.moves[enc.stack[-1].id] = [actor, step["squares"], 0, True]
            self.turn[actor]["feet"] += 5 * step["squares"]
            assert self.turn[actor]["feet"] <= 30 * (1 + self.turn[actor]["dash"])
        if step.get("slot"):
            self.turn[actor]["slot"] += 1
        if kind == "counter":
            owner = enc.find(v.target_id).owner
            self.turn[owner]["slot"] -= bool(enc.find(v.target_id).flags & {"slot"}) \
                if enc.find(v.target_id).turn == enc.turn_serial else 0
        assert all(t["slot"] <= 1 for t in self.turn.values())


@rule("5E-REACTION-ONE", "5E-ACTION", "5E-BONUS-ONE", "5E-MOVE-SPEED", "5E-SLOT-ONE")
def test_random_timelines_keep_the_limits():
    run_state_machine_as_test(
        Timeline5e, settings=settings(max_examples=150, stateful_step_count=40, deadline=None,
                                      derandomize=True,
                                      suppress_health_check=[HealthCheck.too_slow]))


def test_the_attribution_is_carried_by_the_readme_and_every_site_page():
    """CC-BY-4.0: the SRD 5.2.1's notice, word for word, in the README (the
    wheel's description) and the footer of every page of the web site."""
    from pathlib import Path

    from fsm.rulesets.dnd5e import ATTRIBUTION
    from fsm.site.html import esc, page
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert " ".join(ATTRIBUTION.split()) in " ".join(readme.split())
    assert f"<footer><p>{esc(ATTRIBUTION)}</p></footer>" in page("a page", "")
