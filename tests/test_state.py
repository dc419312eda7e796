"""The encounter's state records: each field holds what its name says (the
records are built from their values in field order, for speed), and what is
captured is put back."""

from fsm import Encounter
from fsm.engine import state as S
from fsm.engine.frames import frame_values


def _busy():
    enc = Encounter("dnd4e", [("ayla", "pcs"), ("orc", "monsters")])
    enc.step({"actor": "ayla", "do": "standard", "id": "axe"})
    enc.step({"actor": "orc", "do": "interrupt", "to": "axe"})
    enc.step({"do": "resolve"})
    return enc


def test_each_field_of_a_moment_is_the_value_it_names():
    enc = _busy()
    m = S.moment(enc)._asdict()
    assert m == {
        "state": enc.state, "round": enc.round, "turn_index": enc.turn_index,
        "turn_serial": enc.turn_serial, "turns": len(enc.turns), "order": enc.order,
        "stack": tuple(frame_values(f) for f in enc.stack), "past": len(enc.past_order),
        "kept": tuple(frame_values(f) for f in enc.kept.values()),
        "uses": tuple(enc.uses.items()), "log": len(enc.log),
        "outcomes": tuple(len(v) for v in enc._outcomes.values())}
    assert len(enc.stack) == 2 and m["log"] > 0


def test_each_field_of_a_frozen_state_is_the_value_it_names_and_thaws_back():
    enc = _busy()
    frozen = S.freeze(enc)
    f = frozen._asdict()
    assert (f["state"], f["round"], f["turn_index"], f["turn_serial"]) == \
        (enc.state, enc.round, enc.turn_index, enc.turn_serial)
    assert f["turns"] == tuple(enc.turns) and f["order"] == tuple(enc.order)
    assert f["stack"] == tuple(frame_values(x) for x in enc.stack)
    assert f["uses"] == tuple(enc.uses.items())
    assert f["last"] == (frame_values(enc.past[enc.past_order[-1]])
                         if enc.past_order else None)
    other = Encounter("dnd4e", [("ayla", "pcs"), ("orc", "monsters")])
    S.thaw(other, frozen)
    assert S.freeze(other) == frozen
    assert other.step({"do": "resolve"}).verdict == enc.step({"do": "resolve"}).verdict


def test_a_snapshot_restored_gives_the_fingerprint_back():
    enc = _busy()
    before = enc.fingerprint()
    snap = enc.snapshot()
    enc.step({"do": "resolve"})
    assert enc.fingerprint() != before
    enc.restore(snap)
    assert enc.fingerprint() == before


def test_a_step_tried_is_kept_only_when_its_verdict_suits():
    """step_if: a step kept leaves the encounter as step() would (the next
    step's id included); one not kept leaves it as it was, a journal
    included (a fighter the step moved is put back)."""
    enc, same = _busy(), _busy()
    before = enc.fingerprint()
    seen = []
    v = enc.step_if({"do": "resolve"}, lambda v: seen.append(v.verdict) or False)
    assert seen == ["allowed"] and v.verdict == "allowed"
    assert enc.fingerprint() == before and enc.journal.open == []
    assert enc.step_if({"do": "resolve"}, lambda v: True).verdict == "allowed"
    same.step({"do": "resolve"})
    assert enc.fingerprint() == same.fingerprint() and enc.journal.open == []
    assert enc.steps_seen == same.steps_seen
    step = {"actor": "ayla", "do": "standard"}
    assert enc.step(step) == same.step(step)          # s<N> ids alike after
