"""D&D 4e verdicts read off the Czech and French texts where a first reading
went wrong: an immediate reaction comes before the next attack roll of the
power that triggered it, and an attack roll it makes impossible is lost."""

import pytest

from conftest import do, party4e
from test_scene import grid

rule = pytest.mark.rule


def verdict(v):
    return v.verdict if v.verdict == "allowed" else v.reason


@rule("4E-REACTION-NEXT", "4E-INTERRUPT-LOST")
@pytest.mark.parametrize("continued_first", [True, False])
def test_a_reaction_between_two_rolls_lets_the_second_be_lost(continued_first):
    enc = party4e()
    do(enc, "standard", "orc", attacks=2, id="twin")
    do(enc, "resolve")
    if continued_first:                     # the reaction cuts into the second roll
        do(enc, "continue")
    do(enc, "reaction", "ayla", to="twin")
    do(enc, "resolve")
    if not continued_first:
        assert verdict(do(enc, "lose")) == "between-parts"
        do(enc, "continue")
    assert verdict(do(enc, "lose")) == "allowed"
    assert enc.facts()["lost"] == ["twin"]


@rule("4E-REACTION-NEXT")
def test_a_roll_resolved_after_the_reaction_cannot_be_lost():
    enc = party4e()
    do(enc, "standard", "orc", attacks=3, id="three")
    do(enc, "resolve")
    do(enc, "reaction", "ayla", to="three")
    do(enc, "resolve")
    do(enc, "continue")
    do(enc, "resolve")                      # the second roll went ahead
    do(enc, "continue")
    assert verdict(do(enc, "lose")) == "not-interrupted"


@rule("4E-SCENE-LOSS", "4E-REACTION-NEXT")
@pytest.mark.parametrize("square,lost", [((2, 0), ["twin"]), ((1, 1), [])])
def test_a_reaction_that_shifts_out_of_reach_loses_the_second_roll(square, lost):
    enc = grid(("orc", "m", (0, 0)), ("ayla", "h", (1, 0)))
    do(enc, "standard", "orc", attacks=2, attack="melee", targets=["ayla"], id="twin")
    do(enc, "resolve")
    do(enc, "reaction", "ayla", to="twin", path=[list(square)], shift=True)
    do(enc, "resolve")
    assert enc.facts()["lost"] == lost
