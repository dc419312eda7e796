"""D&D 4e: the surprise round (spec/TIMING.md, T-4E-SURPRISE)."""

import pytest

from conftest import do
from fsm import Encounter, StepError

rule = pytest.mark.rule


def _fight(*surprised):
    return Encounter("dnd4e", [{"id": c, "side": s, **({"surprised": True} if c in surprised
                                                        else {})}
                               for c, s in (("rogue", "heroes"), ("orc", "monsters"))])


@rule("4E-SURPRISE")
@pytest.mark.parametrize("kind", ["free-response", "no-action", "interrupt", "reaction",
                                  "opportunity"])
def test_a_surprised_combatant_answers_nothing_until_round_2(kind):
    enc = _fight("orc")
    for rnd in (1, 2):
        do(enc, "standard", "rogue", id=f"stab{rnd}", provokes=["orc"])
        if kind == "reaction":
            do(enc, "resolve")
        before = enc.fingerprint()
        v = do(enc, kind, "orc", to=f"stab{rnd}")
        assert (rnd, v.verdict) == (rnd, "rejected" if rnd == 1 else "allowed"), v.says
        if rnd == 1:
            assert v.reason == "surprised" and enc.fingerprint() == before
            assert "surprised" in v.says
            do(enc, "resolve")
            do(enc, "end-turn", "rogue")
            assert do(enc, "minor", "orc").reason == "surprised"
            assert do(enc, "end-turn", "orc").verdict == "allowed"


@rule("4E-SURPRISE")
@pytest.mark.parametrize("first,second", [("standard", "move"), ("move", "minor"),
                                          ("minor", "standard"), ("ready", "minor")])
def test_the_others_take_one_action_in_the_surprise_round(first, second):
    enc = _fight("orc")
    do(enc, first, "rogue")
    do(enc, "resolve")
    assert do(enc, second, "rogue").reason == "surprise-round-one-action"
    assert do(enc, "free", "rogue").verdict == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn", "rogue")
    do(enc, "end-turn", "orc")
    do(enc, first, "rogue")
    do(enc, "resolve")
    assert do(enc, second, "rogue").verdict == "allowed"


@rule("4E-SURPRISE")
def test_without_anyone_surprised_there_is_no_surprise_round():
    enc = _fight()
    do(enc, "standard", "rogue")
    do(enc, "resolve")
    assert do(enc, "move", "rogue").verdict == "allowed"


def test_surprised_is_true_or_false():
    with pytest.raises(StepError):
        Encounter("dnd4e", [{"id": "rogue", "side": "a", "surprised": "yes"},
                            {"id": "orc", "side": "b"}])
