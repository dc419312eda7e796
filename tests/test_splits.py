"""The split vectors hold, in verdicts alone, which of an attack's targets
must still be in reach for it to happen: the rules' "none in reach" is told
apart from "any out of reach", "the first out of reach" and "the last"."""

import json
from pathlib import Path

import pytest

from fsm.conformance import reference_result
from fsm.conformance.vectors import judge, public_vector
from fsm.rulesets.dnd4e import scene

GENERATED = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "generated"
SPLITS = [json.loads(p.read_text(encoding="utf-8"))
          for p in sorted(GENERATED.glob("split-*.json"))]

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
