"""D&D 4e: a Ready that names the circumstance it waits for (``when``, ``by``;
spec/TIMING.md, T-4E-READY)."""

import pytest

from conftest import do
from fsm import Encounter, StepError

rule = pytest.mark.rule
CIRCUMSTANCES = ("moves", "enters-reach", "leaves-reach", "attacks")


def _readied(when=None, by=None, orc_at=(3, 0), readied_as="reaction"):
    """Ayla (at 0,0) readies for ``when`` by ``by``; the orc's turn begins."""
    enc = Encounter("dnd4e", [{"id": "ayla", "side": "heroes", "at": [0, 0]},
                              {"id": "orc", "side": "monsters", "at": list(orc_at)},
                              {"id": "gob", "side": "monsters", "at": [0, 4]}],
                    options={"readied_as": readied_as})
    fields = {k: v for k, v in (("when", when), ("by", by)) if v}
    assert do(enc, "ready", "ayla", **fields).verdict == "allowed"
    do(enc, "resolve")
    do(enc, "end-turn", "ayla")
    return enc


# Each circumstance: a trigger that is not it, then one that is, on the orc's turn
TRIGGERS = {
    "moves": ((3, 0), [{"do": "minor", "actor": "orc"}], [{"do": "move", "actor": "orc",
                                                          "path": [[2, 0]]}]),
    "attacks": ((3, 0), [{"do": "minor", "actor": "orc"}],
                [{"do": "standard", "actor": "orc", "attack": "ranged"}]),
    "enters-reach": ((3, 0), [{"do": "move", "actor": "orc", "path": [[2, 0], [1, 0]]}],
                     [{"do": "continue"}]),
    "leaves-reach": ((1, 0), [{"do": "move", "actor": "orc", "path": [[1, 1], [2, 1]]}],
                     [{"do": "continue"}]),
}


@rule("4E-READY", "4E-READY-TIMING")
@pytest.mark.parametrize("readied_as", ["reaction", "interrupt"])
@pytest.mark.parametrize("when", CIRCUMSTANCES)
def test_a_readied_action_answers_only_the_circumstance_its_ready_named(when, readied_as):
    """Read on the trigger's part just resolved, or, as an interrupt, on its
    part pending: the first trigger is refused and changes nothing, the
    second is answered."""
    orc_at, first, second = TRIGGERS[when]
    enc = _readied(when, orc_at=orc_at, readied_as=readied_as)
    for steps, verdict in ((first, "rejected"), (second, "allowed")):
        for data in steps:
            assert enc.step(data).verdict == "allowed", data
        if readied_as == "reaction":
            assert do(enc, "resolve").verdict == "allowed"
        before = enc.fingerprint()
        v = do(enc, "readied", "ayla")
        assert v.verdict == verdict, (when, readied_as, v.reason, v.says)
        if verdict == "rejected":
            assert v.reason == "readied-trigger-not-met" and enc.fingerprint() == before
            assert "is not what ayla readied for" in v.says, v.says
            if readied_as == "interrupt":
                do(enc, "resolve")


@rule("4E-READY")
def test_a_readied_action_for_the_goblin_does_not_answer_the_orc():
    enc = _readied("attacks", "gob")
    do(enc, "standard", "orc", attack="ranged", targets=["ayla"])
    do(enc, "resolve")
    assert do(enc, "readied", "ayla").reason == "readied-trigger-not-met"
    do(enc, "end-turn", "orc")
    do(enc, "standard", "gob", attack="ranged", targets=["ayla"])
    do(enc, "resolve")
    assert do(enc, "readied", "ayla").verdict == "allowed"


@rule("4E-READY")
def test_without_when_or_by_any_trigger_is_answered():
    enc = _readied()
    do(enc, "minor", "orc")
    do(enc, "resolve")
    assert do(enc, "readied", "ayla").verdict == "allowed"


@pytest.mark.parametrize("fields,code", [
    ({"when": "casts"}, "bad-value"),            # 4e's steps say no spell
    ({"when": 3}, "bad-value"),
    ({"by": "troll"}, "unknown-combatant"),
])
def test_a_circumstance_that_cannot_be_read_is_refused_and_changes_nothing(fields, code):
    enc = Encounter("dnd4e", [("ayla", "heroes"), ("orc", "monsters")])
    before = enc.fingerprint()
    with pytest.raises(StepError) as err:
        do(enc, "ready", "ayla", **fields)
    assert err.value.code == code and enc.fingerprint() == before
    with pytest.raises(StepError) as err:
        do(enc, "standard", "ayla", when="moves")
    assert err.value.code == "field-of-another-kind"
