"""Shared helpers: small encounters and a one-call step."""

import pytest

from fsm import Encounter


def party4e(**options):
    """Orc (monsters) against Ayla and Bob (heroes), orc first."""
    return Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes"), ("bob", "heroes")],
                     options=options)


def party_pf2(reactions=None, **options):
    """Ogre (monsters) against Kyra and Ezren (heroes), ogre first."""
    kyra = {"id": "kyra", "side": "heroes"}
    if reactions is not None:
        kyra["reactions"] = reactions
    return Encounter("pf2e", [{"id": "ogre", "side": "monsters"}, kyra,
                              {"id": "ezren", "side": "heroes"}], options=options)


def do(enc, do, actor=None, **fields):
    step = {"do": do, **fields}
    if actor is not None:
        step["actor"] = actor
    return enc.step(step)


def state_of(enc):
    """Everything observable, plus the raw snapshot, for no-change assertions."""
    return enc.facts(), enc.fingerprint()


@pytest.fixture
def e4():
    return party4e()


@pytest.fixture
def p2():
    return party_pf2()
