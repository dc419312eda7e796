"""Proof of the ruleset seam: a toy ruleset defined entirely in this file (a
few rows, one budget, one step kind) runs through the engine with both
dispatchers, a scenario replay and ``fsm check``, the explorer and its
audit, and the diagram builder, with no change anywhere else.

The toy: on its own turn a combatant may ``strike`` once; a strike is an
action on the stack like any other, resolved before the turn ends.
"""

import json
import re
from dataclasses import replace

import pytest

from fsm import Encounter
from fsm.cli import main
from fsm.diagrams import machine_source
from fsm.engine.frames import Fighter
from fsm.engine.rows import Guards, rewrite
from fsm.engine.guard import guard
from fsm.engine.rows import ACTING, BEFORE, ENDING, TRIGGERED
from fsm.errors import TableError
from fsm.explore import Config, explore
from fsm.rulesets import (EACH_TURN, RULESETS, Explore, Ruleset, SceneWords, StepSpec, Tally,
                          register)
from fsm.rulesets import common as c
from fsm.rulesets import shared
from fsm.scenario import build, replay


class ToyFighter(Fighter):
    __slots__ = ("strikes", "strikes_max")
    FIELDS = {"strikes": (0, 5)}

    def __init__(self, id, side, *, strikes: int = 1):
        super().__init__(id, side)
        self.strikes = self.strikes_max = strikes


@guard("no-strike-left", "{actor} has no strike left this turn",
       seen=lambda enc, st: {"actor": st.actor})
def toy_strike_left(enc, st):
    """A strike is left this turn."""
    return enc.fighters[st.actor].strikes > 0


def _spend(enc, st):
    enc.fighters[st.actor].strikes -= 1


def _refresh(enc, st):
    fighter = enc.fighters[enc.active]
    fighter.strikes = fighter.strikes_max


GUARDS = shared.book()          # the shared guards; the toy's own one is added below
GUARDS.add(toy_strike_left)
row, refuse = GUARDS.row, GUARDS.refuse

ENTRIES = [
    row("strike", [ACTING], BEFORE, _spend, c.push_frame, rules="TOY-STRIKE",
        own_turn="TOY-TURN", no_action_pending="TOY-STACK", toy_strike_left="TOY-ONE"),
    refuse("strike", TRIGGERED, own_turn="TOY-TURN", no_action_pending="TOY-STACK"),
    row("end-turn", [ACTING], ENDING, c.close_turn, own_turn="TOY-TURN"),
    refuse("end-turn", TRIGGERED, own_turn="TOY-TURN", no_action_pending="TOY-STACK"),
    *shared.stack_rows("TOY-STACK", "TOY-TURN", "TOY-TURN"),
    shared.next_turn_row(_refresh, "TOY-TURN", ("TOY-ONE",)),
]
ROWS, REFUSALS = shared.split(ENTRIES)


def _watch(w, enc, data, verdict, tallies, answers):
    """The explorer's own count of strikes per turn."""
    spent = tallies["strikes"]
    if data["do"] == "strike":
        i = w.index[data["actor"]]
        spent[i] += 1
        if spent[i] > 1:
            return ("two-strikes", f"{data['actor']} struck twice in one turn",
                    ("TOY-ONE",)), answers
    return None, answers


TOY = Ruleset(
    name="toy", title="Toy", rule_prefix="TOY", long_title="A toy ruleset",
    options=(), fighter=ToyFighter, rows=ROWS, refusals=REFUSALS,
    turn_actions=frozenset({"strike"}), answers=(), stack_moves=frozenset({"resolve",
                                                                            "continue"}),
    step_specs=(StepSpec("strike", cost=1),),
    budgets=lambda enc, f: {"strikes": f.strikes},
    explore=Explore(tallies=(Tally("strikes", EACH_TURN),),
                    turn_moves=lambda actor, others: [("strike", ())],
                    frame_class=lambda kind: "action",
                    fighter_key=lambda enc, f, exact, answers: (f.strikes,
                                                                min(f.turns_started, 1)),
                    watch=_watch),
)

DUO = [("ann", "red"), ("bob", "blue")]


def _broken():
    """The toy with its one limit switched off."""
    rows = tuple(r if r.step != "strike" else row(
        "strike", [ACTING], BEFORE, _spend, c.push_frame, own_turn="TOY-TURN",
        no_action_pending="TOY-STACK") for r in ROWS)
    return TOY.with_table(rows)


@pytest.mark.parametrize("dispatcher", ["transitions", "lean"])
def test_the_engine_runs_the_toy_with_either_dispatcher(dispatcher):
    """One strike a turn, on your own turn; the budget comes back next turn;
    a refusal changes nothing."""
    enc = Encounter(TOY, DUO, dispatcher=dispatcher)
    assert enc.step({"actor": "ann", "do": "strike"}).verdict == "allowed"
    assert enc.step({"do": "resolve"}).verdict == "allowed"
    before = enc.fingerprint()
    second = enc.step({"actor": "ann", "do": "strike"})
    assert (second.verdict, second.reason, second.rules) == \
        ("rejected", "no-strike-left", ("TOY-ONE",))
    assert enc.fingerprint() == before
    assert enc.step({"actor": "bob", "do": "strike"}).reason == "not-your-turn"
    assert enc.step({"do": "end-turn"}).verdict == "allowed"
    assert enc.step({"actor": "bob", "do": "strike"}).verdict == "allowed"
    assert enc.facts()["budgets"] == {"ann": {"strikes": 0}, "bob": {"strikes": 0}}
    with pytest.raises(ValueError):
        enc.step({"actor": "bob", "do": "activity"})


SCENARIO = {
    "format": 1, "id": "toy-one-strike", "ruleset": "toy",
    "combatants": [{"id": "ann", "side": "red"}, {"id": "bob", "side": "blue", "strikes": 2}],
    "steps": [
        {"actor": "ann", "do": "strike", "expect": {"verdict": "allowed"}},
        {"do": "resolve"},
        {"actor": "ann", "do": "strike",
         "expect": {"verdict": "rejected", "reason": "no-strike-left"}},
        {"do": "end-turn", "expect": {"active": "ann"}},
        {"actor": "bob", "do": "strike",
         "expect": {"verdict": "allowed", "budgets": {"bob": {"strikes": 1}}}},
    ],
}


def test_a_scenario_replays_on_the_toy(tmp_path, monkeypatch, capsys):
    """The scenario replays on the toy value; once registered, fsm check
    replays the file too, and a wrong expectation fails it."""
    rep = replay(SCENARIO, "toy.json", build(SCENARIO, "toy.json", ruleset=TOY))
    assert rep.ok, rep.failures
    monkeypatch.setitem(RULESETS, "toy", TOY)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(SCENARIO), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    wrong = dict(SCENARIO, steps=SCENARIO["steps"][:2] + [
        {"actor": "ann", "do": "strike", "expect": {"verdict": "allowed"}}])
    path.write_text(json.dumps(wrong), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "no-strike-left" in capsys.readouterr().out


def test_the_explorer_and_its_audit_walk_the_toy():
    """Every timeline of two combatants over two rounds keeps every invariant,
    and every step kind in every reachable situation is decided by one row or
    one refusal."""
    report = explore(Config(TOY, combatants=2, rounds=2, responders=1))
    assert report.violation is None and report.complete
    assert report.states > 10
    assert report.audit.gaps == []
    assert {kind for (_, kind, _) in report.audit.counts} >= {"strike", "end-turn",
                                                               "resolve"}


def test_the_explorer_finds_the_toys_limit_switched_off():
    """Without the one-strike guard the explorer reports a second strike."""
    report = explore(Config(_broken(), combatants=2, rounds=1, responders=1))
    assert report.violation.problem.invariant == "two-strikes"


def test_the_audit_finds_a_gap_in_the_toys_table():
    """Without the refusal of a strike outside turn_acting, the audit reports
    the undecided situation."""
    table = TOY.with_table(refusals=tuple(r for r in REFUSALS if r.step != "strike"))
    report = explore(Config(table, combatants=2, rounds=1, responders=1, max_states=500))
    assert any(f.kind == "undefined" and f.step == "strike" for f in report.audit.gaps)


@pytest.mark.parametrize("engine", ["graphviz", "mermaid"])
def test_the_diagram_builder_draws_the_toy(engine):
    """Both views of the toy draw its strike row with its guard (in words) and rule ids."""
    overview = machine_source(TOY, "overview", engine)
    windows = machine_source(TOY, "windows", engine)
    assert "Toy" in overview and "strike" in overview
    assert "toy strike left" in windows and "TOY-ONE" in windows   # the guard, in words


def test_a_hole_in_the_table_exits_3_with_one_line(tmp_path, monkeypatch, capsys):
    """A refusal whose guards all pass decides nothing: the engine raises
    TableGap and fsm check says so on one line, exit 3, no traceback."""
    holed = TOY.with_table(refusals=tuple(refuse(r.step, r.sources) if r.step == "strike"
                                          else r for r in REFUSALS))
    monkeypatch.setitem(RULESETS, "toy", holed)
    doc = dict(SCENARIO, steps=[{"do": "end-turn"}, {"actor": "ann", "do": "strike"}])
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(path)]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "does not decide" in err


def test_a_guard_reusing_another_rulesets_guard_name_changes_nothing_there():
    """Guards belong to the tables that hold them: a toy ruleset whose own
    ``own_turn`` lets nobody act leaves the shared ``own_turn`` of the toy and
    of 4e as it was; each still lets the turn's owner act."""
    @guard("not-mine", "{actor} may not act at all")
    def own_turn(enc, st):
        return False

    def mine(g):
        return own_turn if g.name == "own_turn" else g
    loose = register(replace(TOY, name="toy-nobody", rows=rewrite(ROWS, guard=mine),
                             refusals=rewrite(REFUSALS, guard=mine)))
    try:
        assert loose.table.guards["own_turn"] is own_turn
        assert TOY.table.guards["own_turn"] is c.own_turn
        assert RULESETS["dnd4e"].table.guards["own_turn"] is c.own_turn
        assert Encounter("toy-nobody", DUO).step({"actor": "ann", "do": "strike"}).reason == \
            "not-mine"
        assert Encounter(TOY, DUO).step({"actor": "ann", "do": "strike"}).verdict == "allowed"
        enc = Encounter("dnd4e", [("ayla", "pcs"), ("orc", "monsters")])
        assert enc.step({"actor": "ayla", "do": "standard"}).verdict == "allowed"
    finally:
        RULESETS.pop("toy-nobody")


def test_two_guards_of_one_name_in_one_table_are_refused_when_it_is_built():
    """Within one ruleset a name means one guard: a book, or a ruleset whose
    rows hold two guards of one name, is refused with the name."""
    @guard("not-mine", "{actor} is not on its own turn")
    def own_turn(enc, st):
        return True

    with pytest.raises(TableError, match="own_turn"):
        shared.book().add(own_turn)
    twin = Guards(own_turn).row("strike", [ACTING], BEFORE, own_turn="TOY-TURN")
    with pytest.raises(TableError, match="own_turn"):
        register(replace(TOY, name="toy-twins", rows=(twin, *ROWS)))
    assert "toy-twins" not in RULESETS
    with pytest.raises(TableError, match="nobody"):
        GUARDS.row("strike", [ACTING], BEFORE, nobody="TOY-TURN")


def test_a_ruleset_installed_elsewhere_is_found_through_its_entry_point(tmp_path):
    """A package outside the project that declares the toy under the
    ``fsm.rulesets`` entry-point group is found by ``fsm check`` in a fresh
    process, with nothing of fsm changed."""
    import subprocess
    import sys
    from pathlib import Path
    tests = Path(__file__).resolve().parent
    (tmp_path / "toy_plugin.py").write_text("from test_toy_ruleset import TOY\n")
    info = tmp_path / "toy_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[fsm.rulesets]\ntoy = toy_plugin:TOY\n")
    scenario = tmp_path / "strike.json"
    scenario.write_text(json.dumps({
        "format": 1, "id": "strike", "ruleset": "toy", "combatants": [
            {"id": "ann", "side": "red"}, {"id": "bob", "side": "blue"}],
        "steps": [{"actor": "ann", "do": "strike", "expect": {"verdict": "allowed"}},
                  {"do": "resolve"},
                  {"actor": "ann", "do": "strike",
                   "expect": {"verdict": "rejected", "reason": "no-strike-left"}}]}))
    env = {"PYTHONPATH": f"{tmp_path}:{tests}",
           "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "fsm", "check", str(scenario)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every expectation holds" in done.stdout
    (info / "entry_points.txt").write_text("[fsm.rulesets]\ntoy = toy_plugin:MISSING\n")
    broken = subprocess.run([sys.executable, "-m", "fsm", "check", str(scenario)],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert broken.returncode == 2 and "cannot be loaded" in broken.stderr


@pytest.mark.parametrize("change,words", [
    (lambda t: replace(t, rows=tuple(r for r in t.rows if r.step != "end-turn")),
     "no end-turn row"),
    (lambda t: replace(t, rows=tuple(r for r in t.rows if r.step != "next-turn")),
     "no next-turn row of the machine"),
    (lambda t: replace(t, turn_actions=frozenset({"strike", "kick"})),
     "kick (a turn action) has no row"),
    (lambda t: replace(t, stack_moves=frozenset({"resolve"})),
     "continue is not among its stack moves"),
    (lambda t: replace(t, answers=("strike",)), "does not check has_trigger"),
    (lambda t: replace(t, scene=SceneWords(attack_kinds=("melee",), melee="melee",
                                           ranged="ranged")),
     "its scene's ranged attack 'ranged' is not among its attack kinds"),
])
def test_register_refuses_a_ruleset_that_breaks_the_engines_contract(change, words):
    """What the engine takes for granted is checked when a ruleset is
    registered, with one line naming what is missing; nothing is registered."""
    with pytest.raises(TableError, match=re.escape(words)):
        register(replace(change(TOY), name="toy-broken"))
    assert "toy-broken" not in RULESETS


def test_the_toys_guards_keep_possibles_promise_in_a_crowd():
    """A ruleset of one's own runs the check the three here pass: among
    look-alikes, possible() gives what trying everyone gives, step by step."""
    from fsm.engine.crowd import disagreement
    enc = Encounter(TOY, [{"id": f"{side}{i}", "side": side}
                          for i in range(4) for side in ("red", "blue")])
    for step in ({"actor": "red0", "do": "strike"}, {"do": "resolve"},
                 {"actor": "red0", "do": "strike"}, {"do": "end-turn"},
                 {"actor": "blue0", "do": "strike"}):
        assert disagreement(enc) is None
        enc.step(step)
    assert disagreement(enc) is None
    assert len(enc.crowd.groups) >= 2
