"""Every (phase, step kind) pair is decided by exactly one row or refusal.

For each ruleset, phase and player step kind: the table lists the pair in
one refusal or in rows (never both), and through the public API every
well-formed step gets a verdict; a rejection leaves the encounter as it was.
"""

import pytest
from transitions import MachineError

from fsm import Encounter
from fsm.engine import rows as T
from fsm.engine.steps import Step
from fsm.rulesets import RULESETS

COMBATANTS = [("orc", "monsters"), ("ayla", "heroes")]


def _in_phase(ruleset, phase):
    """An encounter resting in ``phase`` (turn_acting is reached through the machine)."""
    enc = Encounter(ruleset, COMBATANTS)
    act = RULESETS[ruleset].explore.turn_moves("orc", ["ayla"])[0][0]
    if phase == T.ACTING:
        step = Step(0, "end-turn")
        step.actor = enc.active
        enc.trigger("close", step=step)
    elif phase == T.BEFORE:
        enc.step({"actor": "orc", "do": act})
    elif phase == T.AFTER:
        enc.step({"actor": "orc", "do": act})
        enc.step({"do": "resolve"})
    elif phase == T.ENDING:
        enc.step({"do": "end-turn"})
    assert enc.state == phase
    return enc


def _pairs():
    for ruleset, rs in RULESETS.items():
        rows, refusals = rs.rows, rs.refusals
        kinds = RULESETS[ruleset].table.player_steps
        listed = {(s, r.trigger) for r in (*rows, *refusals) for s in r.sources}
        for phase in T.STATES:
            for kind in kinds:
                trig = kind.replace("-", "_")
                yield pytest.param(ruleset, phase, kind, (phase, trig) in listed,
                                   id=f"{ruleset}-{phase}-{kind}")


@pytest.mark.parametrize("ruleset,phase,kind,listed", list(_pairs()))
def test_every_pair_is_listed_once_and_an_unlisted_one_raises(ruleset, phase, kind, listed):
    """Each (phase, step kind) pair is listed by rows or by one refusal, never
    both; firing an unlisted pair on the machine raises and changes nothing."""
    enc = _in_phase(ruleset, phase)
    before = enc.fingerprint()
    step = Step(99, kind)
    step.actor = "ayla"
    step.target = enc.stack[-1] if enc.stack else None
    if listed:
        rows = [r for r in RULESETS[ruleset].rows if r.trigger == step.trigger
                and phase in r.sources]
        refusals = [r for r in RULESETS[ruleset].refusals if r.trigger == step.trigger
                    and phase in r.sources]
        assert len(refusals) + (1 if rows else 0) == 1, "one row or one refusal decides"
        return
    with pytest.raises(MachineError):
        enc.trigger(step.trigger, step=step)
    assert enc.fingerprint() == before


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_player_step_is_listed_in_every_phase(ruleset):
    """No well-formed step is left without a row or a refusal in any phase."""
    rows, refusals = RULESETS[ruleset].rows, RULESETS[ruleset].refusals
    listed = {(s, r.step) for r in (*rows, *refusals) for s in r.sources}
    missing = [(phase, kind) for phase in T.STATES for kind in RULESETS[ruleset].table.player_steps
               if (phase, kind) not in listed]
    assert missing == []


def test_every_player_step_of_each_ruleset_has_a_row():
    """No step kind is only refused: each can be allowed from some phase."""
    for ruleset, rs in RULESETS.items():
        rows, refusals = rs.rows, rs.refusals
        for kind in RULESETS[ruleset].table.player_steps:
            assert any(r.step == kind and r.by == T.PLAYER for r in rows)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("phase", T.STATES)
def test_every_step_kind_in_every_resting_phase_is_decided_or_refused(ruleset, phase):
    """Through the public API each well-formed step kind gets a verdict, never
    an error, and a rejection leaves the encounter as it was."""
    kinds = RULESETS[ruleset].table.player_steps
    for kind in kinds:
        for actor in ("orc", "ayla", None):
            enc = _in_phase(ruleset, phase)
            before = enc.fingerprint()
            data = {"do": kind}
            if actor is not None:
                data["actor"] = actor
            elif kind in enc.ruleset.turn_actions or kind in enc.ruleset.answer_kinds:
                continue
            spec = enc.ruleset.spec_of.get(kind)
            if spec is not None and spec.cost_field:
                data["cost"] = 2
            verdict = enc.step(data)
            if verdict.verdict == "rejected":
                assert enc.fingerprint() == before, (kind, actor, verdict.reason)
