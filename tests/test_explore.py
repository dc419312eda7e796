"""The explorer finds what it is meant to find, and the lean dispatcher it
uses agrees with the ``transitions`` machine.

Every exploration here is small (two combatants, one round, usually one
answering combatant), so the file runs in seconds; the 3 combatants x 2
rounds walk belongs to ``python bench/run.py``.
"""

import json
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsm import Encounter, StepError
from fsm.cli import main
from fsm.conformance.mutation import replace_guard, with_guard_forced
from fsm.errors import ConfigError
from fsm.explore import (CLOSED, Config, Explorer, ParallelExplorer, canonical, check_config,
                         explore, freeze, thaw, write_counterexample)
from fsm.explore.owner import state_hash
from fsm.explore.audit import AMBIGUOUS, REFUSED, ROW, STRUCTURAL, UNDEFINED, AuditObserver
from fsm.rulesets import RULESETS
from fsm.scenario import load

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "spec" / "vectors").glob("*.json")) + \
    sorted((ROOT / "spec" / "scenarios").glob("*.json"))


# -- seeding bugs into the table ------------------------------------------------------

@pytest.fixture
def seed(monkeypatch):
    """Install a changed table for one ruleset until the test ends."""

    def install(ruleset, rows=None, refusals=None):
        monkeypatch.setitem(RULESETS, ruleset, RULESETS[ruleset].with_table(rows, refusals))

    return install


def _small(ruleset, **changes):
    return replace(Config(ruleset, combatants=2, rounds=1, responders=1), **changes)


# -- the lean dispatcher -----------------------------------------------------------

def _outcome(enc, data):
    try:
        v = enc.step(data)
    except StepError as exc:
        return ("error", str(exc), enc.fingerprint())
    return (v.verdict, v.reason, v.rules, v.guard, v.notes, v.target_id, v.says,
            enc.fingerprint(), enc.facts())


def _both(doc):
    args = (doc["ruleset"], doc["combatants"], doc.get("initiative"), doc.get("options"))
    return Encounter(*args), Encounter(*args, dispatcher="lean")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_lean_dispatch_gives_the_machines_verdicts_on_every_vector(path):
    """Replayed through both engines, every step of every vector and scenario
    gets the same verdict, facts and fingerprint."""
    doc = load(path)
    machine, lean = _both(doc)
    for data in doc["steps"]:
        assert _outcome(machine, data) == _outcome(lean, data), data


STEP_KINDS = {name: rs.table.player_steps for name, rs in RULESETS.items()}


@st.composite
def timelines(draw):
    ruleset = draw(st.sampled_from(sorted(STEP_KINDS)))
    ids = ["c1", "c2", "c3"]
    steps = []
    for index in range(draw(st.integers(5, 40))):
        data = {"do": draw(st.sampled_from(STEP_KINDS[ruleset] + ("resolve",) * 4
                                           + ("end-turn",) * 2))}
        if draw(st.booleans()):
            data["actor"] = draw(st.sampled_from(ids))
        if data["do"] == "activity":
            data["cost"] = draw(st.integers(1, 3))
        if data["do"] in ("move", "standard", "activity") and draw(st.booleans()):
            data[draw(st.sampled_from(["squares", "attacks"]))] = draw(st.integers(1, 3))
        if draw(st.booleans()):
            data["provokes"] = draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
        if draw(st.integers(0, 3)) == 0:
            data["to"] = draw(st.sampled_from([f"s{i}" for i in range(1, index + 1)]
                                              + ["turn-start", "turn-end"]))
        if draw(st.integers(0, 4)) == 0:
            data["ruling"] = "deny"
        steps.append(data)
    return ruleset, steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(timelines())
def test_lean_dispatch_gives_the_machines_verdicts_on_random_timelines(timeline):
    """Random timelines, most steps nonsensical or forbidden, get the same
    verdicts, errors, facts and fingerprints from both engines."""
    ruleset, steps = timeline
    combatants = [{"id": "c1", "side": "a"}, {"id": "c2", "side": "b"},
                  {"id": "c3", "side": "b", "reactions": 2}]
    machine, lean = _both({"ruleset": ruleset, "combatants": combatants})
    for data in steps:
        assert _outcome(machine, data) == _outcome(lean, data), data


def test_lean_dispatch_follows_a_changed_table(seed):
    """The lean engine reads the rows of the table in force, not a copy."""
    rows = RULESETS["dnd4e"].rows
    seed("dnd4e", with_guard_forced(rows, "immediate_unused"))
    enc = Encounter("dnd4e", [("orc", "monsters"), ("ayla", "heroes")], dispatcher="lean")
    for data in ({"actor": "orc", "do": "standard"}, {"actor": "ayla", "do": "interrupt"},
                 {"do": "resolve"}):
        enc.step(data)
    assert enc.step({"actor": "ayla", "do": "interrupt", "to": "s1"}).verdict == "allowed"


# -- clean explorations, and what the canonical picture may merge ---------------------

@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_both_engines_explore_the_same_states(ruleset):
    """Exploring through transitions or through the lean dispatcher reaches the
    same states by the same number of transitions."""
    cfg = _small(ruleset, depth=1, answerers=("c2",))
    lean = Explorer(cfg).run()
    machine = Explorer(replace(cfg, engine="transitions")).run()
    assert (lean.states, lean.transitions, lean.steps) == \
        (machine.states, machine.transitions, machine.steps)


class _Keeping(Explorer):
    """An exploration that keeps every state it numbers (all of them are
    expanded when the walk is complete) and what each move from it gave: its
    verdict, its reason and the state it led to (its number, or its reduced
    picture for ``answerers`` when it is beyond the bounds)."""

    def __init__(self, cfg, answerers=()):
        super().__init__(cfg)
        self.kept = [freeze(self.enc)]
        self.answerers, self.gave, self.reached = answerers, {}, None

    def reach(self, key, index, move, book, nxt, frozen=None, round_=None):
        new = key not in self.seen
        super().reach(key, index, move, book, nxt, frozen, round_)
        if new:                     # numbered and queued: nxt[-1] holds it frozen
            self.kept.append(nxt[-1][1])
        self.reached = self.seen[key]

    def _note(self, index, move, outcome):
        assert self.gave.setdefault((index, move), outcome) == outcome

    def _unchanged(self, index, move, base, message, verdict=None) -> bool:
        # a StepError, or a refusal: the walk checks that it changed nothing
        self._note(index, move, "error" if verdict is None else
                   (verdict.verdict, verdict.reason, None))
        return super()._unchanged(index, move, base, message, verdict)

    def _arrive(self, index, book, move, data, verdict, serial, nxt):
        self.reached = None
        super()._arrive(index, book, move, data, verdict, serial, nxt)
        after = ("state", self.reached) if self.reached is not None else \
            ("picture", canonical(self.enc, False, self.answerers))
        self._note(index, move, (verdict.verdict, verdict.reason, after))

    def signature(self, index, pictures) -> tuple:
        """Each move's outcome from state ``index`` (thawed) as the walk found
        it, the state it led to by its reduced picture (``pictures``: each
        numbered state's). Answers to the frame that left the stack last are
        left out: whether there is one is not part of the picture, and they
        are refused unless it is kept open (kept frames are answered by moves
        of their own)."""
        enc, out = self.enc, []
        kept = bool(enc.past_order) and enc.past[enc.past_order[-1]].kept
        for move in self.alphabet.moves(enc):
            outcome = self.gave[index, move]
            if move.target == CLOSED:
                if not kept:
                    assert outcome[:2] == ("rejected", "trigger-passed")
                continue
            if outcome != "error" and outcome[2] is not None:
                how, after = outcome[2]
                outcome = (*outcome[:2], pictures[after] if how == "state" else after)
            out.append((move, outcome))
        return tuple(out)


@pytest.mark.parametrize("ruleset,rounds", [pytest.param("dnd4e", 1, marks=pytest.mark.slow),
                                            ("pf2e", 1),
                                            pytest.param("pf2e", 2, marks=pytest.mark.slow)])
def test_a_small_walk_is_clean_and_its_merged_states_answer_every_move_alike(ruleset, rounds):
    """Two combatants, the second one answering: no invariant breaks, every
    step kind in every reachable situation is decided by one row or one
    refusal, and any two exactly-different states with the same reduced
    picture (over two rounds: states of different rounds among them) give
    every move the same verdict and lead to the same reduced state, so
    merging them loses nothing."""
    answerers = ("c2",)
    walk = _Keeping(_small(ruleset, answerers=answerers, exact=True, rounds=rounds), answerers)
    report = walk.run()
    assert report.violation is None and report.complete
    assert report.audit.gaps == []
    assert {cls for (_, _, cls) in report.audit.counts} == {"row", "refused"}
    assert len(walk.kept) == report.states     # kept[i] is the state numbered i
    enc, members, pictures = walk.enc, {}, []
    for index, frozen in enumerate(walk.kept):
        thaw(enc, frozen)
        pictures.append(canonical(enc, False, answerers))
        members.setdefault(pictures[-1], []).append(index)
    merged = [group for group in members.values() if len(group) > 1]
    assert merged and len(members) < len(walk.kept)
    for group in merged:                # a state alone under its key has nothing to match
        signatures = set()
        for index in group:
            thaw(enc, walk.kept[index])
            signatures.add(walk.signature(index, pictures))
        assert len(signatures) == 1


class _RoundKept(Explorer):
    """An exploration whose states also differ by their round number."""

    def _key(self, book):
        return (super()._key(book), self.enc.round)


class _DepthFirst(Explorer):
    """The same walk, depth first: states are often met in a later round
    before an earlier one."""

    def level(self, frontier):
        todo = list(frontier)
        while todo:
            nxt = []
            self._expand(*todo.pop(), nxt)
            todo.extend(nxt)
        return []


@pytest.mark.parametrize("ruleset,combatants,met_again", [
    ("pf2e", 3, False), pytest.param("dnd4e", 2, True, marks=pytest.mark.slow)])
def test_folding_the_round_keeps_every_situation_of_the_walk(ruleset, combatants, met_again):
    """Two rounds: the walk that leaves the round out of its states reaches
    exactly the reduced situations the walk that keeps it reaches, with the
    same audit, in fewer states; so does a depth-first walk, which meets
    states again in an earlier round and expands them again from there."""
    cfg = _small(ruleset, combatants=combatants, rounds=2, depth=1, answerers=("c2",))
    kept, folded, deep = _RoundKept(cfg), Explorer(cfg), _DepthFirst(cfg)
    reports = [walk.run() for walk in (kept, folded, deep)]
    assert all(r.violation is None and r.complete for r in reports)
    situations = {key for key, _ in kept.seen}
    assert set(folded.seen) == situations == set(deep.seen)
    assert reports[0].audit.counts.keys() == reports[1].audit.counts.keys()
    assert reports[1].states < reports[0].states
    assert (reports[2].reopened > 0) == met_again


def _summary(report) -> tuple:
    return (report.states, report.transitions, report.steps, report.beyond, report.reopened,
            report.depth_reached, report.stack_reached, report.complete, dict(report.audit.counts))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_walk_without_the_words_of_refusals_is_the_walk_with_them(ruleset):
    """The walk leaves a refusal's words unwritten (nobody reads them): the
    same states, counts and audit as a walk that writes them."""
    cfg = _small(ruleset, rounds=1, depth=1, answerers=("c2",))
    terse, wordy = Explorer(cfg), Explorer(cfg)
    assert terse.enc.wording is False
    wordy.enc.wording = True
    assert _summary(terse.run()) == _summary(wordy.run())
    assert set(terse.seen) == set(wordy.seen) and terse.parents == wordy.parents


class _JudgingAll(AuditObserver):
    """The audit read off the rows afresh at every step: every guard of every
    row judged, nothing worked out once from the table."""

    def _coverage(self, enc, st):
        refusal, rows = enc.refusal_for(enc.state, st.trigger), enc.rows_for(enc.state, st.trigger)
        if refusal is not None:
            return AMBIGUOUS if rows else REFUSED
        if not rows:
            return STRUCTURAL if st.responding and st.target is None else UNDEFINED
        could = sum(1 for r in rows if all(fn(enc, st) is not False for fn, _ in r.guards))
        return AMBIGUOUS if could > 1 else ROW

    def on_firing(self, enc, trigger, st):
        if self.routing_problem is not None:
            return
        firing, timed = 0, False
        for r in enc.rows_for(enc.state, trigger):
            answers = [g.check(enc, st) is True for g, _ in r.guards]
            firing += all(answers)
            timed = timed or all(a for (g, _), a in zip(r.guards, answers) if not g.structural)
        if firing > 1 or (timed and firing == 0):
            self.routing_problem = (enc.state, trigger, firing)


def _gaps(report) -> set:
    return {(f.kind, f.phase, f.step, f.detail, f.count, json.dumps(f.example))
            for f in report.audit.gaps}


def _twice_decided(rows) -> tuple:
    """The rows with the first row of a step that is not the machine's written
    twice: two rows decide that step wherever its guards pass."""
    first = next(r for r in rows if r.trigger not in ("close", "keep_open", "next_turn"))
    return (*rows, first)


_TABLES = {"fires-twice": lambda rows: with_guard_forced(rows, "parent_is_turn", True),
           "fires-nowhere": lambda rows: with_guard_forced(rows, "parent_is_turn", False),
           "decided-twice": _twice_decided}


@pytest.mark.parametrize("ruleset,change", [*((name, None) for name in sorted(RULESETS)),
                                            *(("pf2e", change) for change in _TABLES)])
def test_the_audit_judging_once_is_the_audit_judging_every_guard(seed, ruleset, change):
    """The audit classes what the table alone settles once per pair and judges
    a guard once per firing: the same counts and findings as an audit that
    judges every guard of every row at every step, on the tables as they are
    and on three that break: close rows that fire twice or nowhere, a step
    two rows decide."""
    if change is not None:
        seed(ruleset, _TABLES[change](RULESETS[ruleset].rows))
    cfg = _small(ruleset, rounds=1, depth=1, answerers=("c2",))
    cached, judging = Explorer(cfg), Explorer(cfg)
    judging.observer = _JudgingAll()
    judging.enc.observer = judging.observer
    one, every = cached.run(), judging.run()
    assert _summary(one) == _summary(every) and _gaps(one) == _gaps(every)
    assert bool(one.audit.gaps) == (change is not None)


@pytest.mark.parametrize("ruleset", [pytest.param("dnd4e", marks=pytest.mark.slow), "pf2e"])
def test_a_walk_split_among_owners_gives_the_report_of_one(ruleset):
    """Two rounds, the states split among 2 and among 3 owner processes: the
    same states and the same counts and audit as one process, each state
    expanded once, by one owner, each owner expanding a share of them."""
    cfg = _small(ruleset, rounds=2, depth=1, answerers=("c2",))
    one = Explorer(cfg)
    single = _summary(one.run())
    for jobs in (2, 3):
        split = ParallelExplorer(cfg, jobs=jobs, keep=True)
        report = split.run()
        assert _summary(report) == single
        assert split.numbered == {state_hash(key) for key in one.seen}
        assert sum(report.expanded) == report.states + report.reopened
        assert len(report.expanded) == jobs and min(report.expanded) > 0
        assert max(report.expanded) < 0.6 * report.states
        assert 0 < report.exchanged


def test_two_processes_find_the_counterexample_and_the_gaps_of_one(seed):
    """With a guard broken, the walk on two processes reports the same
    invariant by the same timeline; with a refusal removed, the same gaps
    with the same example timelines."""
    rows, refusals = RULESETS["dnd4e"].rows, RULESETS["dnd4e"].refusals
    seed("dnd4e", with_guard_forced(rows, "immediate_unused"))
    one = explore(_small("dnd4e"), jobs=1)
    for jobs in (2, 3):
        two = explore(_small("dnd4e"), jobs=jobs)
        assert two.violation.problem.invariant == one.violation.problem.invariant
        assert two.violation.path == one.violation.path
        assert two.violation.verdicts == one.violation.verdicts
        assert _summary(two) == _summary(one)
    seed("dnd4e", rows, tuple(r for r in refusals if r.step != "standard"))
    cfg = _small("dnd4e", depth=1, max_states=2000)
    one, two = explore(cfg, jobs=1), explore(cfg, jobs=2)
    assert [(f.kind, f.phase, f.step, f.count, f.example) for f in two.audit.gaps] == \
        [(f.kind, f.phase, f.step, f.count, f.example) for f in one.audit.gaps]
    assert two.violation.path == one.violation.path
    assert _summary(two) == _summary(one)


@pytest.mark.parametrize("limit", [1, 2, 40, 333])
def test_owners_stop_at_max_states_where_one_process_does(limit):
    """--max-states stops a split walk after the state where one process
    stops it: the same states, steps and audit, whatever the number of
    owners (a limit of 1 is the start alone)."""
    cfg = _small("pf2e", rounds=2, depth=1, answerers=("c2",), max_states=limit)
    one = _summary(Explorer(cfg).run())
    assert one[7] is False                      # complete: the limit stopped it
    for jobs in (2, 3):
        assert _summary(ParallelExplorer(cfg, jobs=jobs).run()) == one


@pytest.mark.slow
def test_owners_on_a_dask_cluster_give_the_report_of_one():
    """The same walk split among the actors of a local Dask cluster (2 worker
    processes, and 3 owners on them): the report of one process, every state
    expanded once; the command line takes the scheduler's address."""
    distributed = pytest.importorskip("distributed")
    cfg = _small("pf2e", rounds=2, depth=1, answerers=("c2",))
    single = _summary(Explorer(cfg).run())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        for jobs in (None, 3):
            report = ParallelExplorer(cfg, jobs=jobs, scheduler=address).run()
            assert _summary(report) == single
            assert len(report.expanded) == (jobs or 2)
            assert sum(report.expanded) == report.states and min(report.expanded) > 0
        out = subprocess.run([sys.executable, "-m", "fsm", "explore", "pf2e", "--combatants",
                              "2", "--rounds", "1", "--scheduler", address, "--json"],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        doc = json.loads(out.stdout)
        assert len(doc["owners"]["expanded"]) == 2 and doc["owners"]["bytes_exchanged"] > 0
        assert doc["owners"]["where"] == f"Dask at {address}"


# -- seeded bugs are found -----------------------------------------------------------------

def test_a_broken_immediate_guard_gives_a_counterexample_fsm_check_replays(seed, tmp_path):
    """With "one immediate action per round" switched off, the explorer reports
    a second immediate action; the vector it writes fails fsm check on the
    broken table and passes on the real one."""
    rows = RULESETS["dnd4e"].rows
    seed("dnd4e", with_guard_forced(rows, "immediate_unused"))
    report = explore(_small("dnd4e"))
    assert report.violation.problem.invariant == "two-immediate-actions"
    assert report.violation.verdicts[-1] == "allowed"
    path = write_counterexample(report, str(tmp_path))
    doc = json.loads(Path(path).read_text())
    assert doc["steps"][-1]["expect"] == {"verdict": "rejected"}
    assert main(["check", path]) == 1
    seed("dnd4e", rows)
    assert main(["check", path]) == 0


def test_a_broken_standard_slot_drives_a_budget_below_zero(seed):
    """With the standard-action slot never checked, a second standard action
    leaves a budget below zero."""
    rows = RULESETS["dnd4e"].rows
    seed("dnd4e", with_guard_forced(rows, "standard_slot"))
    report = explore(_small("dnd4e"))
    assert report.violation.problem.invariant == "budget-below-zero"


def test_a_broken_one_free_action_per_trigger_guard_is_found(seed):
    """With PF2's one free action per trigger switched off, a creature's second
    free action on one trigger is reported."""
    rows = RULESETS["pf2e"].rows
    seed("pf2e", with_guard_forced(rows, "one_free_per_trigger"))
    report = explore(_small("pf2e"))
    assert report.violation.problem.invariant == "two-answers-on-one-trigger"


def test_a_rejection_that_changes_the_encounter_is_found(seed):
    """A guard that spends a budget and then fails breaks "a rejected step
    changes nothing"."""
    def spending_own_turn(enc, st):
        enc.fighters[st.actor].minor = 0
        return st.actor == enc.active

    rows, refusals = RULESETS["dnd4e"].rows, RULESETS["dnd4e"].refusals
    seed("dnd4e", replace_guard(rows, "own_turn", lambda g: g.checking(spending_own_turn)),
         replace_guard(refusals, "own_turn", lambda g: g.checking(spending_own_turn)))
    report = explore(_small("dnd4e"))
    assert report.violation.problem.invariant == "rejected-step-changed-state"


def test_the_audit_reports_a_situation_no_row_decides(seed):
    """Without the refusals of a standard action outside turn_acting, the audit
    lists (turn_start, standard) as undefined, and the walk stops there."""
    rows, refusals = RULESETS["dnd4e"].rows, RULESETS["dnd4e"].refusals
    seed("dnd4e", refusals=tuple(r for r in refusals if r.step != "standard"))
    report = explore(_small("dnd4e", depth=1, max_states=2000))
    found = {(f.kind, f.phase, f.step) for f in report.audit.gaps}
    assert ("undefined", "turn_start", "standard") in found
    assert report.violation.problem.invariant == "engine-error"


def test_the_audit_reports_two_close_rows_firing_at_once(seed):
    """When a routing guard of the machine's close rows always passes, two rows
    could close the same frame: the audit calls it ambiguous."""
    rows = RULESETS["pf2e"].rows
    seed("pf2e", with_guard_forced(rows, "parent_is_turn"))
    gaps = explore(_small("pf2e")).audit.gaps
    assert any(f.kind == "ambiguous" and f.step == "close" for f in gaps)


def test_the_audit_reports_a_close_that_no_row_routes(seed):
    """When the routing guard that sends a closed frame back to the turn always
    fails, a frame whose timing says it leaves finds no row: the audit calls
    it undefined."""
    rows = RULESETS["pf2e"].rows
    seed("pf2e", with_guard_forced(rows, "parent_is_turn", False))
    gaps = explore(_small("pf2e")).audit.gaps
    assert any(f.kind == "undefined" and f.step == "close" and f.detail.startswith("0 ")
               for f in gaps)


@pytest.mark.parametrize("policy", ["gm", "unlimited", "encounter"])
def test_a_walk_outside_encounters_is_finite(policy):
    """Outside encounters, where reactions have no budget unless an option sets
    one, the walk still ends: reactions the budget does not limit are not
    counted into the state (2 combatants, 1 round: about 2,500 states)."""
    cfg = _small("pf2e", options={"mode": "exploration", "exploration_reactions": policy},
                 max_states=20_000)
    report = explore(cfg)
    assert report.complete and report.violation is None
    assert 0 < report.states < 20_000


# -- the command line ------------------------------------------------------------------

def test_fsm_explore_exits_0_on_a_clean_walk_and_prints_json(capsys):
    """A clean walk exits 0; --json gives the counts and no violation."""
    code = main(["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--depth", "1",
                 "--jobs", "1", "--json", "--audit"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["violation"] is None and out["states"] > 0 and out["runs"] == 2
    assert out["audit"]["gaps"] == []


def test_fsm_explore_stopped_at_max_states_says_so_and_exits_3(capsys):
    """A walk stopped by --max-states is not called clean: it says how far it
    got and exits 3; a bound below 1 is one line, exit 2."""
    args = ["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--jobs", "1"]
    assert main([*args, "--max-states", "50", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False and out["violation"] is None
    assert out["stopped_at"] == "--max-states 50"
    assert 50 <= out["states"] < 200
    assert main([*args, "--max-states", "50"]) == 3
    text = capsys.readouterr().out
    assert "(stopped at --max-states 50: incomplete)" in text
    assert "incomplete: every" in text and "ok: every invariant holds" not in text
    assert main([*args, "--max-states", "100000"]) == 0
    assert "ok: every invariant holds" in capsys.readouterr().out
    assert main([*args, "--max-states", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-states must be at least 1" in err


def test_fsm_explore_exits_1_and_writes_the_counterexample(seed, tmp_path, capsys):
    """A broken guard makes fsm explore exit 1 and name the vector it wrote."""
    rows = RULESETS["dnd4e"].rows
    seed("dnd4e", with_guard_forced(rows, "immediate_unused"))
    code = main(["explore", "dnd4e", "--combatants", "2", "--rounds", "1",
                 "--responders", "1", "--jobs", "1", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "VIOLATION two-immediate-actions" in out
    first = tmp_path / "explore-dnd4e-two-immediate-actions.json"
    kept = first.read_text()
    # a second run keeps the first one's vector and names its own afresh
    assert main(["explore", "dnd4e", "--combatants", "2", "--rounds", "1",
                 "--responders", "1", "--jobs", "1", "--out", str(tmp_path)]) == 1
    second = tmp_path / "explore-dnd4e-two-immediate-actions-2.json"
    assert str(second) in capsys.readouterr().out
    assert first.read_text() == kept
    assert json.loads(second.read_text())["id"] == second.stem


@pytest.mark.parametrize("args", [["nope"], ["dnd4e", "--rounds", "0"],
                                  ["pf2e", "--option", "mode=sideways"],
                                  ["pf2e", "--option", "nothing"]])
def test_fsm_explore_bad_usage_exits_2_with_one_line(args, capsys):
    """Bad usage exits 2 with a single line on stderr and no traceback."""
    assert main(["explore", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _default_sigint():
    """A command started in the background inherits SIGINT ignored, and Python
    then never turns it into KeyboardInterrupt: give the child the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_parallel_walk_with_one_line(tmp_path):
    """Ctrl-C during a walk on two processes exits 130 with one line and no
    traceback from the parent or the pool's workers. The signal comes once
    the walk has counted 2,000 states (its progress line, on a terminal),
    however long that takes."""
    import os
    import pty
    import re
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fsm", "explore", "dnd4e", "--combatants",
                             "3", "--jobs", "2"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=follower, text=True, preexec_fn=_default_sigint)
    os.close(follower)
    seen = ""
    try:
        while not any(int(n.replace(",", "")) >= 2000
                      for n in re.findall(r"([0-9,]+) states", seen)):
            chunk = os.read(leader, 4096).decode(errors="replace")
            assert chunk, f"the walk ended before 2,000 states: {seen!r}"
            seen += chunk
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out = proc.stdout.read()
        proc.wait(timeout=60)
        while True:
            try:
                chunk = os.read(leader, 4096).decode(errors="replace")
            except OSError:           # the terminal closed with the last process
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, seen)
    lines = [part.strip() for line in seen.splitlines() for part in line.split("\r")]
    last = [line for line in lines if line and not line.startswith("[")]
    assert last == ["fsm explore: interrupted"], seen
    assert "Traceback" not in seen


# -- grid mode: the invariants cover what positions decide -------------------------------

def _without_effect(rows, name):
    return tuple(replace(r, effects=tuple(e for e in r.effects if e.__name__ != name))
                 for r in rows)


@pytest.mark.slow
@pytest.mark.parametrize("guard,invariant", [
    ("provoked", "unprovoked-opportunity"),
    ("reach_entered", "reaction-outside-the-move"),
    pytest.param("movement_in_progress", "reaction-outside-the-move", marks=pytest.mark.slow),
])
def test_grid_mode_finds_a_derived_limit_switched_off(monkeypatch, guard, invariant):
    """With a scene guard always passing, the grid walk reports the
    explorer's own reading of the grid broken. Two combatants side by side
    need a path that enters a reach before its last square (a square along
    the line, then one off it) for a move still under way to matter."""
    rs = RULESETS["dnd4e"]
    moves = rs.explore.grid_moves

    def with_a_bend(actor, others):
        return [*moves(actor, others), ("move", (("steps", ((1, 0), (0, 1))),))]
    changed = replace(rs.with_table(with_guard_forced(rs.rows, guard)),
                      explore=replace(rs.explore, grid_moves=with_a_bend))
    monkeypatch.setitem(RULESETS, "dnd4e", changed)
    report = explore(_small("dnd4e", grid=True))
    assert report.violation.problem.invariant == invariant


@pytest.mark.rule("5E-OA", "5E-REACH")
def test_grid_mode_finds_a_5e_opportunity_attack_that_leaves_no_reach(seed):
    """D&D 5e: with the leaving-the-reach check always passing, the grid walk
    reports an Opportunity Attack against a creature that is not leaving."""
    seed("dnd5e", with_guard_forced(RULESETS["dnd5e"].rows, "leaves_reach"))
    report = explore(_small("dnd5e", grid=True))
    assert report.violation.problem.invariant == "opportunity-without-leaving"


# A small walk on the grid is clean: tests/test_covering.py walks it for each grid part.


def test_grid_mode_finds_a_melee_attack_that_is_not_lost(seed):
    """Without the effect that makes an out-of-reach melee attack lost, the
    grid walk finds the attack going on."""
    seed("dnd4e", _without_effect(RULESETS["dnd4e"].rows, "scene_makes_lost"))
    report = explore(_small("dnd4e", grid=True))
    assert report.violation.problem.invariant == "melee-attack-not-lost"


def test_grid_mode_is_refused_for_a_ruleset_that_derives_nothing(capsys, monkeypatch):
    """A ruleset that reads positions but derives nothing from them (no grid
    moves to walk): --grid says so."""
    rs = RULESETS["pf2e"]
    monkeypatch.setitem(RULESETS, "pf2e", replace(rs, explore=replace(rs.explore,
                                                                      grid_moves=None)))
    assert main(["explore", "pf2e", "--grid"]) == 2
    err = capsys.readouterr().err
    assert "has no grid mode" in err and len(err.strip().splitlines()) == 1


def test_fsm_explore_stops_when_its_time_is_up(capsys):
    """--max-seconds bounds all the runs together: a walk far longer than it
    stops, says where, how many runs it walked, and exits 3; one within it
    is complete; a time that is not a positive number is one line, exit 2."""
    args = ["explore", "dnd4e", "--combatants", "5", "--rounds", "3"]   # minutes to the end
    assert main([*args, "--max-seconds", "1", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False and out["stopped_at"] == "--max-seconds 1"
    assert out["violation"] is None and 0 < out["runs"] < 5 and out["states"] > 0
    assert main([*args, "--max-seconds", "0.5"]) == 3
    text = capsys.readouterr().out
    assert "of 5 runs)" in text and "(stopped at --max-seconds 0.5: incomplete)" in text
    small = ["explore", "pf2e", "--combatants", "2", "--rounds", "1"]
    assert main([*small, "--max-seconds", "600"]) == 0
    assert "ok: every invariant holds" in capsys.readouterr().out
    for bad in ("0", "-1", "nan", "soon"):
        assert main([*small, "--max-seconds", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--max-seconds" in err, err
    with pytest.raises(ConfigError):
        check_config(Config("pf2e", max_seconds=-1.0))


def test_a_fork_the_system_refuses_is_one_line_and_exit_2(monkeypatch, capsys):
    """No room for the worker processes: one line naming --jobs, exit 2."""
    import multiprocessing.context

    def refuse(self, *args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")
    monkeypatch.setattr(multiprocessing.context.ForkContext, "Process", refuse)
    assert main(["explore", "dnd4e", "--combatants", "2", "--rounds", "1", "--jobs", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs" in err, err


def test_an_owner_that_fails_is_one_error_with_its_traceback_kept():
    """An owner's method that raises, and an owner process that dies, come
    back as OwnerFailed: one line for people, the owner's traceback kept."""
    from fsm.explore.cluster import LocalOwners, OwnerFailed
    group = LocalOwners(_small("pf2e"), 2)
    try:
        with pytest.raises(OwnerFailed) as err:
            group.one(0, "parent", b"no such state")
        assert str(err.value).startswith("an owner of the walk failed: KeyError")
        assert "Traceback" in err.value.detail and "\n" not in str(err.value)
        group.procs[1].kill()
        group.procs[1].join()
        with pytest.raises(OwnerFailed, match="process ended before it"):
            group.one(1, "digests")
    finally:
        group.close()


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_the_readme_dask_commands_split_a_walk(tmp_path):
    """The README's three commands, as a user types them (this machine for
    HOST, a free port for 8786): a scheduler, workers, and the walk, here
    stopped at 300 states a run; the report says how the states were split."""
    pytest.importorskip("distributed")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\ndask scheduler", 1)[1].split("```", 1)[0]
    lines = [("dask scheduler" + block).splitlines()[0]] + block.splitlines()[1:]
    commands = [line.split("#", 1)[0].split() for line in lines if line.strip()]
    assert [c[:2] for c in commands] == [["dask", "scheduler"], ["dask", "worker"],
                                         ["fsm", "explore"]]
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    commands = [[address if w == "tcp://HOST:8786" else w for w in c] for c in commands]
    bin_dir = Path(sys.executable).parent
    scheduler = subprocess.Popen([str(bin_dir / "dask"), *commands[0][1:], "--port", str(port),
                                  "--no-dashboard"], cwd=tmp_path,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        time.sleep(2)
        workers = [subprocess.Popen([str(bin_dir / "dask"), *commands[1][1:], "--no-dashboard"],
                                    cwd=tmp_path, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for _ in range(2)]
        from distributed import Client
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        out = subprocess.run([sys.executable, "-m", "fsm", *commands[2][1:], "--max-states",
                              "300"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 3, out.stderr           # stopped at the limit, clean
        assert f"split among 2 owners (Dask at {address}): " in out.stdout
        assert "bytes exchanged per state" in out.stdout
    finally:
        for proc in workers + [scheduler]:
            proc.terminate()
        for proc in workers + [scheduler]:
            proc.wait(timeout=30)


def test_an_owner_takes_its_records_as_one_process_reaches_states():
    """Records of one level, from two owners, out of order: the owner takes
    them in the walk's order; a state met first in round 2 is numbered, met
    again in round 1 it is expanded again from there (reopened), met again in
    round 2 it is passed over, as :meth:`Explorer.reach` does."""
    import pickle

    from fsm.explore.owner import Owner
    owner = Owner(_small("pf2e"), 0, 1)
    state, other = b"s" * 12, b"t" * 12
    mine = [((0, 4), state, owner.root, None, "frozen-a", (), 2),
            ((0, 9), state, owner.root, None, "frozen-c", (), 2)]
    theirs = [((0, 6), state, owner.root, None, "frozen-b", (), 1),
              ((0, 2), other, owner.root, None, "frozen-d", (), 1)]
    new = owner.receive([pickle.dumps(theirs), pickle.dumps(mine)])
    assert new == [(0, 2), (0, 4)]
    assert owner.take() == (2, 1, 3)
    assert [(order, frozen) for order, _, frozen, _ in owner.frontier] == \
        [((0, 2), "frozen-d"), ((0, 4), "frozen-a"), ((0, 6), "frozen-b")]
    assert owner.known[state][0] == 1 and owner.parent(state) == (owner.root, None)


def test_an_owner_failing_mid_walk_is_one_line_and_exit_4(monkeypatch, capsys):
    """An owner that fails (here: its expansion raises) stops the walk with
    one line naming the error, exit 4: not bad usage, not an invariant."""
    from fsm.explore.owner import Owner

    def broken(self, cut=None, seconds=None):
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(Owner, "expand", broken)
    assert main(["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--jobs", "2"]) == 4
    err = capsys.readouterr().err
    assert err == "fsm explore: an owner of the walk failed: RuntimeError: the disk is full\n"


def test_a_split_walk_says_where_its_owners_ran(capsys):
    assert main(["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "  split among 2 owners (local processes): " in out, out
    assert main(["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--jobs", "2",
                 "--json"]) == 0
    owners = json.loads(capsys.readouterr().out)["owners"]
    assert owners["where"] == "local processes" and len(owners["expanded"]) == 2
    assert main(["explore", "pf2e", "--combatants", "2", "--rounds", "1", "--jobs", "1",
                 "--json"]) == 0
    assert "owners" not in json.loads(capsys.readouterr().out)


def test_owners_stop_where_one_process_does_when_a_limit_and_a_violation_meet(seed):
    """With a guard broken, --max-states set just below, at and past the
    state count where one process meets the violation: whichever comes
    first in the walk's order (the limit, the violation, or both in one
    state's moves), two owners give the single run's report."""
    seed("dnd4e", with_guard_forced(RULESETS["dnd4e"].rows, "immediate_unused"))
    cfg = replace(_small("dnd4e"), answerers=("c2",))
    found = Explorer(cfg).run()
    assert found.violation is not None
    outcomes = set()
    for limit in range(max(1, found.states - 12), found.states + 3, 2):
        limited = replace(cfg, max_states=limit)
        one, two = Explorer(limited).run(), ParallelExplorer(limited, jobs=2).run()
        assert _summary(two) == _summary(one), limit
        assert (two.violation is None) == (one.violation is None), limit
        if one.violation is not None:
            assert two.violation.path == one.violation.path
        outcomes.add((one.violation is not None, one.complete))
    assert outcomes == {(True, True), (True, False), (False, False)}   # every order met
