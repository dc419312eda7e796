"""possible() in a crowd: look-alike combatants judged once (fsm.engine.crowd),
held to trying every combatant."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsm import Encounter
from fsm.conformance import collect
from fsm.conformance.fuzz import decode, head_length
from fsm.conformance.mutation import replace_guard
from fsm.conformance.reference import reference_hello
from fsm.engine.crowd import Crowd, Possible, disagreement
from fsm.engine.state import freeze, thaw
from fsm.errors import StepError
from fsm.rulesets import RULESETS

from conftest import party4e, readme_library_script


def look_alikes(combatants, copies=2):
    """``combatants`` and ``copies`` more of each (same side and fields, a new
    id; on a grid, squares far from the others)."""
    out = list(combatants)
    for c in combatants:
        for j in range(copies):
            twin = dict(c) if isinstance(c, dict) else {"id": c[0], "side": c[1]}
            twin["id"] = f"{twin['id']}~{j}"
            if "at" in twin:
                twin["at"] = [twin["at"][0] + 100 * (j + 1), twin["at"][1]]
            out.append(twin)
    return out


def read_all(answer) -> dict:
    return {who: dict(row) for who, row in answer.items()}


def agree(enc) -> None:
    """possible() equals trying every combatant, verdict for verdict (its words,
    what was seen and why an allowed step is allowed included)."""
    shared, tried = enc.possible(), enc.possible(share=False)
    assert list(shared) == list(tried)
    assert read_all(shared) == tried


def replay_in_crowd(doc, explaining=False, ruleset=None, copies=2, seen=None):
    """The vector's steps, in a crowd of look-alikes of its combatants, with
    possible() held to trying everyone before each step (when ``seen``, a
    set, is given: before each step that no vector of the same set-up has
    been checked at with the same steps before it, noted in ``seen``)."""
    combatants = look_alikes(doc["combatants"], copies)
    order = doc.get("initiative")
    if order:
        order = list(order) + [c["id"] for c in combatants[len(doc["combatants"]):]]
    enc = Encounter(ruleset or doc["ruleset"], combatants, order, doc.get("options"))
    enc.explaining = explaining
    steps = [{k: v for k, v in data.items() if k != "expect"} for data in doc["steps"]]
    at = "" if seen is None else json.dumps([doc["ruleset"], combatants, order,
                                             doc.get("options")], sort_keys=True)
    for data in [*steps, None]:
        if seen is None or at not in seen:
            agree(enc)
            if seen is not None:
                seen.add(at)
        if data is None:
            break
        at += "" if seen is None else json.dumps(data, sort_keys=True)
        try:
            enc.step(data)
        except StepError:
            break
    return enc


HELLO = reference_hello()
TIMELINES = st.lists(st.integers(0, 2 ** 16), min_size=head_length() + 1,
                     max_size=head_length() + 24)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TIMELINES, st.booleans())
def test_possible_in_a_crowd_is_trying_everyone(choices, explaining):
    """Random timelines of the whole step language (every ruleset, with or
    without a scene, dressed steps and all), replayed among two look-alikes
    of every combatant: before every step, possible() gives each combatant
    what trying it gives."""
    replay_in_crowd(decode(choices, HELLO), explaining)


def test_the_gallery_in_a_crowd_is_trying_everyone():
    docs = [doc for path, doc in collect([]) if "/scenarios/" in path.replace("\\", "/")]
    assert len(docs) > 20
    for doc in docs:
        replay_in_crowd(doc, explaining=True)


SHARDS = 8        # the vectors in parts, so that test workers share them
LONG = 60         # steps of a long vector played in the crowd: its first


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_vector_in_a_crowd_is_trying_everyone(shard):
    """Every vector of situations, at most its first LONG steps: not the
    sweeps (their turns repeat the situations of the covering vectors with
    more spent), nor those of how one step is read (``err-``, ``val-``: a
    step or two from the start, a crowd changes nothing of their reading)."""
    docs = sorted((doc for _, doc in collect([])
                   if not doc.get("id", "").startswith(("sweep-", "err-", "val-"))),
                  key=_set_up)
    # a situation many vectors share (their set-up and first steps) is checked
    # once: sorted, neighbours share the most, and each part is a run of them
    seen: set = set()
    mine = docs[shard * len(docs) // SHARDS:(shard + 1) * len(docs) // SHARDS]
    for doc in mine:
        replay_in_crowd(dict(doc, steps=doc["steps"][:LONG]), seen=seen)
    assert len(seen) > len(mine)


def _set_up(doc) -> str:
    return json.dumps([doc["ruleset"], doc["combatants"], doc.get("initiative"),
                       doc.get("options"), doc["steps"]], sort_keys=True)


def _reading_names(*suffixes):
    """4e with a guard that (against the contract) tells look-alikes apart
    by their names: no immediate action for a combatant whose id ends in
    one of ``suffixes``."""
    rs = RULESETS["dnd4e"]

    def by_name(enc, st):
        return st.actor != enc.active and not st.actor.endswith(suffixes)
    rows, refusals = (replace_guard(t, "immediate_not_own_turn",
                                    lambda g: g.checking(by_name))
                      for t in (rs.rows, rs.refusals))
    return rs.with_table(rows, refusals)


ORC_AND_AYLA = {"ruleset": "dnd4e", "combatants": [{"id": "orc", "side": "monsters"},
                                                   {"id": "ayla", "side": "heroes"}],
                "steps": [{"actor": "orc", "do": "standard"}]}


def test_two_of_a_class_answering_apart_are_all_tried():
    """Of each class two are tried: when a guard tells them apart (here, by
    name), possible() tries the whole class and stays exact."""
    enc = replay_in_crowd(ORC_AND_AYLA, ruleset=_reading_names("~1", "~3"), copies=4)
    assert enc.possible()["ayla~3"]["interrupt"].reason == "immediate-on-own-turn"
    assert enc.possible()["ayla~2"]["interrupt"].verdict == "allowed"


def test_a_guard_that_reads_a_name_is_caught():
    """The check can fail: a guard that tells apart a look-alike that is not
    one of the two tried makes possible() differ from trying everyone, and
    the check says so."""
    with pytest.raises(AssertionError):
        replay_in_crowd(ORC_AND_AYLA, ruleset=_reading_names("~3"), copies=4)
    replay_in_crowd(ORC_AND_AYLA, copies=4)     # the true table passes the same check


def test_disagreement_names_where_sharing_and_trying_differ():
    """The check a ruleset's author runs: None on the true table, and on the
    name-reading one the combatant, the kind and both answers."""
    def after_the_attack(ruleset=None):
        doc = dict(ORC_AND_AYLA, combatants=look_alikes(ORC_AND_AYLA["combatants"], 4))
        enc = Encounter(ruleset or "dnd4e", doc["combatants"])
        enc.step(doc["steps"][0])
        return enc
    assert disagreement(after_the_attack()) is None
    who, kind, shared, tried = disagreement(after_the_attack(_reading_names("~3")))
    assert who.endswith("~3") and kind == "interrupt"
    assert tried.reason == "immediate-on-own-turn" and shared != tried


def test_a_name_that_is_also_a_word_stays_a_word():
    """Combatants named like the words a guard reports ("never", "pending",
    "on the stack", "none yet"): a word that happens to be the tried one's
    name is not taken for its name."""
    words = ["never", "pending", "on the stack", "none yet", "long ago", "resolved"]
    doc = {"ruleset": "dnd4e",
           "combatants": [{"id": "orc", "side": "monsters"}, {"id": "ayla", "side": "heroes"}]
           + [{"id": w, "side": "heroes"} for w in words],
           "steps": [{"actor": "orc", "do": "standard"}, {"actor": "never", "do": "interrupt"},
                     {"do": "resolve"}, {"do": "resolve"}, {"do": "end-turn"}]}
    replay_in_crowd(doc, explaining=True, copies=1)
    replay_in_crowd(dict(doc, ruleset="pf2e", steps=[{"actor": "orc", "do": "action"},
                                                     {"actor": "never", "do": "reaction"}]),
                    copies=1)


def _tries(enc) -> int:
    count = 0
    real = enc.try_step

    def counted(data):
        nonlocal count
        count += 1
        return real(data)
    enc.try_step = counted
    enc.possible()
    del enc.try_step
    return count


def crowd(n):
    enc = Encounter("dnd4e", [(f"c{i}", ("monsters", "heroes")[i % 2]) for i in range(n)])
    enc.step({"actor": enc.active, "do": "standard"})
    return enc


def test_the_work_of_a_call_does_not_grow_with_the_crowd():
    """Counted, not timed: with an attack on the stack, 8 and 800 combatants
    of two sides take the same number of tries (the attacker, the next in
    line and two of each side), and stay so as the look-alikes act."""
    small, large = crowd(8), crowd(800)
    assert _tries(small) == _tries(large) < 8 * len(RULESETS["dnd4e"].player_steps)
    for enc in (small, large):
        enc.step({"actor": "c3", "do": "interrupt"})      # c3 leaves the heroes' class
    assert _tries(small) == _tries(large)
    agree(small)


def test_classes_follow_the_fighters_through_undo_and_thaw():
    """A step tried and undone, a refused step and a frozen state put back all
    change fighters behind the journal's back or through it: the classes
    follow each time."""
    enc = Encounter("dnd4e", look_alikes([("orc", "monsters"), ("ayla", "heroes")], 3))
    agree(enc)
    start = freeze(enc)
    enc.step({"actor": "orc", "do": "standard"})
    enc.step({"actor": "ayla~1", "do": "interrupt"})
    agree(enc)
    assert enc.step({"actor": "ayla~1", "do": "interrupt"}).verdict == "rejected"
    agree(enc)
    assert enc.possible()["ayla~1"]["interrupt"].reason == "immediate-used-this-round"
    thaw(enc, start)
    agree(enc)
    assert enc.possible()["ayla~1"]["interrupt"].verdict == "allowed"


def test_the_answer_reads_like_a_dict():
    enc = party4e()
    enc.step({"actor": "orc", "do": "standard"})
    answer = enc.possible()
    assert isinstance(answer, Possible)
    assert list(answer) == ["orc", "ayla", "bob", "*"] and len(answer) == 4
    assert "bob" in answer and "nobody" not in answer
    with pytest.raises(KeyError):
        answer["nobody"]
    assert answer["bob"]["interrupt"].verdict == "allowed"
    assert answer["*"]["resolve"].verdict == "allowed"
    assert answer == enc.possible(share=False)


def test_an_observer_is_told_of_every_try():
    """An encounter with an observer tries everyone, so that the observer
    hears of each try as before."""
    heard = []

    class Ears:
        def on_decided(self, enc, st, verdict):
            heard.append(st.actor)
    enc = Encounter("dnd4e", look_alikes([("orc", "monsters"), ("ayla", "heroes")], 2),
                    observer=Ears())
    enc.possible()
    assert {"ayla~0", "ayla~1", "orc~0", "orc~1"} <= set(heard)


def test_who_is_tried_for_itself():
    """Each place the module's docstring lists singles a combatant out: whose
    turn it is and whose comes next, a frame's owner and targets, an answer
    given, a fighter's values."""
    ids = [f"c{i}" for i in range(12)]
    enc = Encounter("dnd5e", [{"id": c, "side": ("monsters", "heroes")[i % 2]}
                              for i, c in enumerate(ids)])
    single, tried = Crowd(enc).now(enc)
    assert single == {"c0", "c1"} and sorted(tried.values()) == [("c2", "c4"), ("c3", "c5")]
    for step in ({"actor": "c0", "do": "action", "targets": ["c4"]}, {"do": "resolve"},
                 {"actor": "c5", "do": "reaction"}, {"do": "resolve"}):
        assert enc.step(step).allowed
    enc.uses[("elsewhere", 1, "c6")] = (("free", ""),)
    enc.fighters["c7"].readied = "c8"
    enc.fighters["c9"].readied = "c8"
    enc.crowd = None
    single, tried = Crowd(enc).now(enc)
    assert single == {"c0", "c1", "c4", "c5", "c6", "c8"}
    assert "c7" not in single and "c9" not in single      # alike: both name c8
    assert {first for first, _ in tried.values()} == {"c2", "c3", "c7"}
    assert ("c7", "c9") in tried.values()


def test_the_readme_library_examples_run_as_written():
    """The README's library section, run as a user would paste it: every
    result its comments give as a Python value is what the line gives
    (tests/test_packaging.py runs the same from the installed wheel)."""
    script, checked = readme_library_script()
    assert checked >= 4
    exec(compile(script, "README.md", "exec"), {})


def test_changing_one_row_changes_no_other():
    """A row read from possible() is the reader's own: editing the row of the
    one tried for a class (or its verdicts) leaves the others as they were."""
    enc = Encounter("dnd4e", [(f"goblin{i}", "monsters") for i in range(20)]
                    + [("ayla", "heroes")])
    enc.step({"actor": "goblin0", "do": "standard"})
    answer = enc.possible()
    for who in ("goblin2", "goblin3", "goblin7"):
        row = answer[who]
        row.pop("standard")
        row["opportunity"].verdict = "allowed"
        row["opportunity"].seen["actor"] = "someone"
    assert answer["goblin9"]["opportunity"].verdict == "rejected"
    assert answer["goblin9"]["opportunity"].seen["actor"] == "goblin9"
    assert "standard" in answer["goblin9"]
    assert answer["goblin2"] is answer["goblin2"] and "standard" not in answer["goblin2"]
    assert read_all(enc.possible()) == enc.possible(share=False)


def test_no_combatant_is_named_like_anyone(tmp_path, capsys):
    """'*' is where possible() puts the stack moves, so no combatant may take
    it as its id: one line, and fsm check exits 2."""
    import json
    from fsm.cli import main
    with pytest.raises(StepError, match="reserved"):
        Encounter("dnd4e", [("a", "monsters"), ("*", "monsters")])
    doc = {"format": 1, "id": "star", "ruleset": "dnd4e",
           "combatants": [{"id": "*", "side": "m"}], "steps": [{"do": "end-turn"}]}
    path = tmp_path / "star.json"
    path.write_text(json.dumps(doc))
    assert main(["check", str(path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
