"""The generated vectors for the order of errors (T-ERRORS): every fault gives
its own code alone, every pair its first fault's, each pair written in both
field orders, and an engine that reads two fields the other way round, or
reads a step's fields in the order written, fails them."""

import json

import pytest

from fsm.conformance import errororder
from fsm.conformance.reference import reference_result
from fsm.rulesets import RULESETS


@pytest.fixture(scope="module")
def made():
    return errororder.generate()


def test_every_pair_is_written_twice_in_both_orders(made):
    for name, vectors in made.items():
        assert vectors, name
        plain = [v for v in vectors if not v["id"].endswith("-reversed")]
        assert len(plain) * 2 == len(vectors)
        by_id = {v["id"]: v for v in vectors}
        for v in plain:
            twin = by_id[v["id"] + "-reversed"]
            step, other = v["steps"][0], twin["steps"][0]
            assert step == other
            fields = [k for k in step if k != "expect"]
            assert [k for k in other if k != "expect"] == fields[::-1]


def test_the_reference_gives_the_first_faults_code(made):
    for vectors in made.values():
        for v in vectors:
            got = reference_result(v)["steps"][0]
            assert got["verdict"] == "error"
            assert got["error"] == v["steps"][0]["expect"]["error"], v["id"]


def test_the_two_faults_of_a_pair_give_different_codes(made):
    """A pair whose faults share a code could not tell the order apart."""
    for name, vectors in made.items():
        rs = RULESETS[name]
        codes = {f.name: f.code for f in errororder.faults(rs)}
        for v in vectors:
            if "-alone" in v["id"]:
                continue
            names = [n for n in codes if f"{n} (" in v["description"]]
            assert len({codes[n] for n in names}) == 2, v["description"]


def test_a_fault_list_out_of_the_written_order_is_refused(monkeypatch):
    """Generation checks the reference: with the faults listed backwards the
    pairs expect the wrong code, and nothing is written."""
    written = errororder.faults
    monkeypatch.setattr(errororder, "faults", lambda rs: written(rs)[::-1])
    with pytest.raises(errororder.MisOrdered):
        errororder.vectors_for(RULESETS["dnd4e"])


def test_a_fault_that_does_not_give_its_code_is_refused(monkeypatch):
    written = errororder.faults

    def wrong(rs):
        out = written(rs)
        out[0] = errororder.Fault("an unknown field", "bad-value", {"colour": "red"},
                                  out[0].kinds)
        return out
    monkeypatch.setattr(errororder, "faults", wrong)
    with pytest.raises(errororder.MisOrdered, match="an unknown field"):
        errororder.vectors_for(RULESETS["dnd4e"])


def _faults_of(vector) -> list:
    """The two faults a vector's step has, in T-ERRORS' order."""
    return [f for f in errororder.faults(RULESETS[vector["ruleset"]])
            if f"{f.name} (" in vector["description"]]


def _as_written(vector) -> str:
    """A toy engine that reports the fault whose field comes first in the step
    as written (a fault that takes a field away counts as first)."""
    keys = list(vector["steps"][0])

    def place(fault):
        present = [keys.index(k) for k, v in fault.fields.items()
                   if v is not errororder.DELETE and k in keys]
        return min(present) if present else -1
    return min(_faults_of(vector), key=place).code


def test_an_engine_reading_fields_as_written_fails_the_reversed_vectors(made):
    """Reading a step's fields in the order they are written gets the read
    order right and the reversed twin wrong, for every pair whose faults both
    write a field (one that takes a field away has no place in the step)."""
    for vectors in made.values():
        by_id = {v["id"]: v for v in vectors}
        for v in vectors:
            if v["id"].endswith("-reversed") or "-alone" in v["id"] or any(
                    errororder.DELETE in f.fields.values() for f in _faults_of(v)):
                continue
            code = v["steps"][0]["expect"]["error"]
            assert _as_written(v) == code, v["id"]
            assert _as_written(by_id[v["id"] + "-reversed"]) != code, v["id"]


def test_the_generated_files_hold_the_pairs(made):
    """COVERAGE.json counts the pairs and codes of the committed vectors."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    coverage = json.loads((root / "spec" / "COVERAGE.json").read_text())["error_order"]
    assert coverage == errororder.coverage(made)
    committed = {p.stem for p in (root / "spec" / "vectors" / "generated").glob("err-*.json")}
    assert committed == {v["id"] for vs in made.values() for v in vs}


def test_every_fault_is_expected_by_some_vector(made):
    """Each fault of the list is the one expected in some vector: as the
    first of a pair, or alone when no later fault can share its step."""
    for name, vectors in made.items():
        described = " ".join(v["description"] for v in vectors)
        for fault in errororder.faults(RULESETS[name]):
            assert f"with {fault.name}" in described or f"faults, {fault.name} (" in described, \
                (name, fault.name)


def test_the_faults_are_written_reading_by_reading_of_the_table_of_fields(monkeypatch):
    """The faults come reading by reading of the one table of a step's fields
    (fsm.engine.steps.READINGS), in its order: each reading's faults give only
    the codes it declares, every code it declares is given by one of them in
    some ruleset, and alone each fault is refused by its own reading's check
    (the kind's is the one parse() makes before the others)."""
    from fsm.engine import steps
    reading_now = []

    def charged(reading):
        def read(enc, st, data):
            reading_now.append(reading.name)
            return reading.read(enc, st, data)
        return read
    monkeypatch.setattr(steps, "_READERS", tuple(charged(r) for r in steps.READINGS if r.read))
    assert list(errororder.READ_FAULTS) == [r.name for r in steps.READINGS]
    for reading in steps.READINGS:
        given = set()
        for rs in RULESETS.values():
            for fault in errororder.READ_FAULTS[reading.name](rs, errororder._Kinds(rs)):
                if None in fault.fields.values():
                    continue
                assert fault.code in reading.codes, (reading.name, rs.name, fault.name)
                given.add(fault.code)
                step = errororder._apply(errororder._base(rs, fault.kinds[0]), fault)
                enc = errororder.build(errororder._vector(rs, "alone", "", step,
                                                          bool(fault.scene)), "alone")
                reading_now.clear()
                with pytest.raises(errororder.StepError):
                    enc.step(dict(step))
                assert (reading_now or ["kind"])[-1] == reading.name, (rs.name, fault.name)
        assert given == set(reading.codes), reading.name
