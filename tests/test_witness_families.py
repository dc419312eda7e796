"""Small generated families, each holding one reading in verdicts alone.

Splits: which of an attack's targets must still be in reach for it to
happen, the rules' "none in reach" told apart from "any out of reach", "the
first out of reach" and "the last". Denials: a step the GM denies is undone
with the settling before it, so a frame that had finished is still there."""

import json
from pathlib import Path

import pytest

from fsm.conformance import reference_result
from fsm.conformance.vectors import judge, public_vector
from fsm.engine import adjudicate
from fsm.engine import state as S
from fsm.rulesets.dnd4e import scene

GENERATED = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "generated"
SPLITS, DENIALS = ([json.loads(p.read_text(encoding="utf-8"))
                    for p in sorted(GENERATED.glob(f"{family}-*.json"))]
                   for family in ("split", "deny"))

# ways to read "the attack still reaches a target" that engines get wrong
MISREADINGS = {
    "any-out-of-reach": lambda reaching, targets: reaching if reaching == targets else [],
    "first-only": lambda reaching, targets: reaching if targets[0] in reaching else [],
    "last-only": lambda reaching, targets: reaching if targets[-1] in reaching else [],
}


def _failing(vectors) -> list:
    return [v["id"] for v in vectors
            if judge(v, reference_result(public_vector(v)), (), reports=())]


def test_every_ruleset_with_a_scene_has_splits_and_4e_loses_only_when_none_reach():
    assert {v["ruleset"] for v in SPLITS} == {"dnd4e", "dnd5e", "pf2e"}
    lost = {v["id"] for v in SPLITS if v["steps"][-1]["expect"].get("lost")}
    assert "split-dnd4e-interrupt-1-both" in lost
    assert not {"split-dnd4e-interrupt-1-ayla", "split-dnd4e-interrupt-1-brom"} & lost
    assert all(v.endswith("-both") for v in lost), lost
    assert _failing(SPLITS) == []


@pytest.mark.parametrize("name", sorted(MISREADINGS))
def test_a_misread_quantifier_fails_a_split_on_verdicts_alone(name, monkeypatch):
    original = scene._reaching
    misread = MISREADINGS[name]

    def reaching(enc, frame):
        return misread(original(enc, frame), list(frame.targets))
    monkeypatch.setattr(scene, "_reaching", reaching)
    assert _failing([v for v in SPLITS if v["ruleset"] == "dnd4e"]), name


def test_every_way_of_finishing_a_frame_is_denied_after():
    """A denial after a resolution and after each other stack move that
    finishes a frame; each has a step left to the GM and denied."""
    assert {v["id"].split("-")[2] for v in DENIALS} >= {"resolve", "disrupt"}
    for v in DENIALS:
        assert any(s.get("ruling") == "deny" and s["expect"]["verdict"] == "gm"
                   for s in v["steps"]), v["id"]
    assert _failing(DENIALS) == []


def test_a_denial_that_keeps_its_settling_fails_on_verdicts_alone(monkeypatch):
    """An engine that undoes a denied step but not the settling before it."""
    decide = adjudicate.Adjudication._decide

    def keeps_settling(self, st, snap):
        if st.ruling != "deny":
            return decide(self, st, snap)
        settled = S.snapshot(self)
        try:
            verdict = decide(self, st, snap)
            if verdict.verdict == "gm":
                S.restore(self, settled)
            return verdict
        finally:
            S.release(self, settled)
    monkeypatch.setattr(adjudicate.Adjudication, "_decide", keeps_settling)
    assert sorted(_failing(DENIALS)) == sorted(v["id"] for v in DENIALS)
