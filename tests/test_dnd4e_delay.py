"""D&D 4e: Delay (spec/TIMING.md, T-4E-DELAY)."""

import pytest

from conftest import do
from fsm import Encounter, StepError

rule = pytest.mark.rule
ORDER = ("fighter", "orc", "goblin")


def _fight(**fields):
    return Encounter("dnd4e", [{"id": c, "side": "heroes" if c == "fighter" else "monsters",
                                **fields.get(c, {})} for c in ORDER])


def _where(enc):
    return enc.active, enc.round, list(enc.order)


@rule("4E-DELAY")
@pytest.mark.parametrize("after,order,rnd", [
    ("orc", ["orc", "fighter", "goblin"], 1),
    ("goblin", ["orc", "goblin", "fighter"], 1),
])
def test_a_delayed_turn_is_taken_just_after_the_turn_that_ended(after, order, rnd):
    enc = _fight()
    assert do(enc, "delay", "fighter").verdict == "allowed"
    assert _where(enc) == ("orc", 1, list(ORDER))
    for who in ORDER[1:ORDER.index(after) + 1]:
        do(enc, "end-turn", who)
    assert do(enc, "return", "fighter").verdict == "allowed"
    assert _where(enc) == ("fighter", rnd, order)
    assert do(enc, "standard", "fighter").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn", "fighter")
    nxt = order[(order.index("fighter") + 1) % 3]
    assert do(enc, "standard", nxt).verdict == "allowed"
    assert enc.round == (1 if nxt == "goblin" else 2)


@rule("4E-DELAY")
@pytest.mark.parametrize("kind", ["standard", "move", "minor", "ready", "free"])
def test_a_turn_is_delayed_only_before_any_action(kind):
    enc = _fight()
    do(enc, kind, "fighter")
    do(enc, "resolve")
    before = enc.fingerprint()
    v = do(enc, "delay", "fighter")
    assert (v.verdict, v.reason) == ("rejected", "delay-after-acting")
    assert enc.fingerprint() == before and kind in v.says


@rule("4E-DELAY")
def test_return_is_refused_to_one_not_delaying_and_between_no_turns():
    enc = _fight()
    do(enc, "delay", "fighter")
    before = enc.fingerprint()
    assert do(enc, "return", "fighter").reason == "not-between-turns"
    assert do(enc, "return", "goblin").reason == "not-delaying"
    assert enc.fingerprint() == before
    do(enc, "end-turn", "orc")
    assert do(enc, "return", "goblin").reason == "not-delaying"
    assert do(enc, "return", "fighter").verdict == "allowed"


@rule("4E-DELAY")
def test_a_delayed_turn_not_taken_is_lost_and_gives_the_immediate_action_back():
    enc = _fight()
    do(enc, "delay", "fighter")
    do(enc, "standard", "orc")
    assert do(enc, "interrupt", "fighter").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn", "orc")
    do(enc, "standard", "goblin")
    assert do(enc, "interrupt", "fighter").reason == "immediate-used-this-round"
    do(enc, "resolve")
    do(enc, "end-turn", "goblin")
    v = do(enc, "delay", "fighter")          # round 2: the delayed turn was lost
    assert _where(enc) == ("orc", 2, list(ORDER))
    assert any("delayed turn is lost" in n for n in v.notes)
    do(enc, "standard", "orc")
    assert do(enc, "interrupt", "fighter").verdict == "allowed"


@rule("4E-DELAY")
def test_delay_and_return_make_no_frame():
    enc = _fight()
    for field in ("attack", "squares", "provokes"):
        with pytest.raises(StepError) as err:
            do(enc, "delay", "fighter", **{field: "melee" if field == "attack" else
                                           (2 if field == "squares" else ["orc"])})
        assert err.value.code == "field-of-another-kind"
    with pytest.raises(StepError) as err:
        do(enc, "return")
    assert err.value.code == "missing-actor"


@rule("4E-DELAY", "4E-SURPRISE")
def test_the_surprised_cannot_delay_and_a_delayed_surprise_turn_keeps_one_action():
    enc = _fight(orc={"surprised": True}, goblin={"surprised": True})
    do(enc, "delay", "fighter")
    assert do(enc, "delay", "orc").reason == "surprised"
    do(enc, "end-turn", "orc")
    do(enc, "end-turn", "goblin")
    do(enc, "return", "fighter")
    assert enc.round == 1
    do(enc, "minor", "fighter")
    do(enc, "resolve")
    assert do(enc, "move", "fighter").reason == "surprise-round-one-action"


@rule("4E-DELAY", "4E-IMM-ONCE")
def test_a_refused_immediate_action_says_whether_a_turn_of_its_own_has_ended():
    """A delaying combatant has begun a turn but ended none: the refusal says so;
    once its delayed turn has been lost (that turn is over), it says since then."""
    enc = _fight()
    do(enc, "delay", "fighter")
    do(enc, "standard", "orc")
    do(enc, "interrupt", "fighter")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn", "orc")
    do(enc, "standard", "goblin")
    v = do(enc, "interrupt", "fighter")
    assert v.reason == "immediate-used-this-round" and "has not ended a turn yet" in v.says
    do(enc, "resolve")
    do(enc, "end-turn", "goblin")
    do(enc, "delay", "fighter")             # round 2: the delayed turn was lost, then a delay
    do(enc, "standard", "orc")
    do(enc, "interrupt", "fighter")
    do(enc, "resolve")
    do(enc, "resolve")
    do(enc, "end-turn", "orc")
    do(enc, "standard", "goblin")
    v = do(enc, "interrupt", "fighter")
    assert v.reason == "immediate-used-this-round" and "since the end of its last turn" in v.says
