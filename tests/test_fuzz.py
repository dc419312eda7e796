"""Differential fuzzing: the reference against itself finds nothing; an engine
with one bug is caught and shrunk to a short vector that fsm check replays."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fsm.cli import main
from fsm.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
FAKE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'fake_engine.py'}"
SERVE = f"{sys.executable} -m fsm serve"


def _found(folder):
    (path,) = Path(folder).glob("fuzz-*.json")
    return path, json.loads(path.read_text())


def test_the_reference_agrees_with_itself(capsys):
    """`fsm serve` driven with random timelines never disagrees."""
    assert main(["conformance", "--program", SERVE, "--fuzz", "60", "--seed", "5"]) == 0
    assert "60 timelines (seed 5), no disagreement" in capsys.readouterr().out


@pytest.mark.slow
def test_a_broken_engine_is_caught_and_shrunk(tmp_path):
    """An engine that lets a combatant's free action overlap its own pending
    action is caught; the vector written is a few steps long, replays under
    fsm check, passes on the reference and fails on the engine. (How short
    shrinking gets varies by seed: 2 to 20 steps over seeds 0 to 11, with
    4e's delay and return in the alphabet; 2 at seed 6.)"""
    # as a command: Hypothesis also draws on constants of the modules loaded,
    # so the timelines of a seed are those of the command, not of this process
    proc = subprocess.run([sys.executable, "-m", "fsm", "conformance", "--program",
                           f"{FAKE} free-overlap", "--fuzz", "400", "--seed", "6",
                           "--out", str(tmp_path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "disagrees with the reference" in proc.stdout
    path, doc = _found(tmp_path)
    assert 2 <= len(doc["steps"]) <= 6
    assert doc["steps"][-1]["expect"]["reason"] == "own-action-in-progress"
    assert main(["check", str(path)]) == 0
    assert main(["conformance", str(path), "--program", SERVE]) == 0
    assert main(["conformance", str(path), "--program", f"{FAKE} free-overlap"]) == 1


def test_the_same_seed_finds_the_same_timeline(tmp_path):
    """Fuzzing is deterministic for a given seed."""
    runs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        main(["conformance", "--program", f"{FAKE} shared-immediate", "--fuzz", "300",
              "--seed", "3", "--out", str(folder)])
        runs.append(_found(folder)[1])
    assert runs[0] == runs[1]


def test_a_crashing_engine_ends_the_fuzz_with_a_vector(tmp_path, capsys):
    """A crash counts as a disagreement; the run ends with exit 1, no hang."""
    code = main(["conformance", "--program", f"{FAKE} crash", "--fuzz", "20",
                 "--out", str(tmp_path), "--timeout", "5"])
    assert code == 1
    assert "the engine exited" in capsys.readouterr().out


def test_fuzz_needs_an_engine():
    """Without --program there is nothing to compare: one line, exit 2."""
    proc = subprocess.run([sys.executable, "-m", "fsm", "conformance", "--fuzz", "10"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--program" in proc.stderr


def test_an_engine_with_one_scene_bug_is_caught_and_shrunk(tmp_path):
    """The timelines reach the scene: an engine that lets an opportunity
    action answer what a shift made unprovoking is caught, and the vector
    written is short, holds a shift and ends on the refused opportunity.
    (Seeds 0 to 3 meet the bug within 1000 timelines: the bug needs a shift
    beside an enemy with a scene; the steps after the last one the engine
    gets wrong are cut, so each vector ends on it, and at seed 0 it is 4 steps.)"""
    proc = subprocess.run([sys.executable, "-m", "fsm", "conformance", "--program",
                           f"{FAKE} shift-provokes", "--fuzz", "1000", "--seed", "0",
                           "--out", str(tmp_path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    path, doc = _found(tmp_path)
    # 4 at seed 0: the shift and the opportunity action it does not provoke
    assert len(doc["steps"]) <= 20
    assert any("at" in c for c in doc["combatants"])
    assert any(s.get("shift") is True for s in doc["steps"])
    last = doc["steps"][-1]
    assert (last["do"], last["expect"]["reason"]) == ("opportunity", "not-provoked")
    assert main(["check", str(path)]) == 0


MUTANT = ROOT / "tests" / "engines" / "mutant_engine.py"


def _fuzz_found(mistake, out) -> dict:
    """The vector that 400 timelines (seed 0) find against the zoo's engine
    with ``mistake``, reporting verdicts and reasons only, for one game. As a
    command: the timelines of a seed are those of the command, whatever
    rulesets this process has loaded."""
    program = f"{sys.executable} {MUTANT} {mistake} --verdicts --alone"
    proc = subprocess.run([sys.executable, "-m", "fsm", "conformance", "--program", program,
                           "--fuzz", "400", "--seed", "0", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "disagrees with the reference" in proc.stdout
    return _found(out)[1]


@pytest.mark.parametrize("mistake", ["pf2e:zoo-reactions-reset-per-round",
                                     "dnd5e:zoo-reactions-reset-per-round"])
def test_a_reaction_back_every_round_is_found_on_verdicts_alone(mistake, tmp_path):
    """The trackers' classic mistake (every reaction back when a round starts)
    is found by the fuzzer within 150 timelines (seed 0) against an engine
    reporting verdicts and reasons only, for one game, because timelines play
    turns to their end (without that, PF2's is not found)."""
    doc = _fuzz_found(mistake, tmp_path)
    assert any(s["do"] == "end-turn" for s in doc["steps"]), doc["steps"]


@pytest.mark.parametrize("mistake,found_by", [
    ("dnd5e:zoo-no-slot-limit", {"spell-slot-used"}),
    # an opportunity action, or a readied one, which has nothing to answer either
    ("dnd4e:zoo-forced-movement-provokes", {"not-provoked", "no-readied-action"})])
def test_a_shared_budget_and_a_forced_move_are_found_on_verdicts_alone(mistake, found_by,
                                                                        tmp_path):
    """Two mistakes found within 400 timelines (seed 0; the spell slot after
    332 since a Bonus Action spell needs no feature, 150 before) against an engine
    reporting verdicts and reasons only: a second spell slot in a turn, which
    takes a step of another kind with the same field as one taken (a spell
    slot is spent by an action, a Bonus Action or a Reaction), and forced
    movement provoking, which takes trying the answers the reference refuses
    once someone was moved. The shrunk timeline ends on such a refusal."""
    doc = _fuzz_found(mistake, tmp_path)
    assert doc["steps"][-1]["expect"]["reason"] in found_by, doc["steps"]
    assert any(s.get("forced") for s in doc["steps"]) == ("forced" in mistake)


def test_the_timelines_reach_the_whole_step_language():
    """A run on the reference reports what it touched: scenes, dressed steps
    and unreadable ones included (as a command: the timelines of a seed are
    those of the command, whatever this process has loaded)."""
    proc = subprocess.run([sys.executable, "-m", "fsm", "conformance", "--program", SERVE,
                           "--fuzz", "150", "--seed", "2"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    touched = proc.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"fuzz: the timelines touched (\d+) of (\d+) step kinds of "
                         r"([a-z0-9, ]+), (\d+) \(kind, field\) pairs, (\d+) \(kind, verdict\) "
                         r"pairs, (\d+) of (\d+) error codes", touched)
    assert found, touched
    kinds, all_kinds, rulesets, pairs, _, errors, _ = found.groups()
    assert rulesets.split(", ") == sorted(RULESETS), touched
    assert int(kinds) >= int(all_kinds) - 3 and int(pairs) >= 60 and int(errors) >= 3, touched


def test_the_timelines_keep_to_what_the_hello_declares(capsys):
    """An engine whose hello lists, for its one ruleset, a few step kinds and
    fields answers an error to any other: the timelines never send it one,
    and say which kinds they touched."""
    rs = RULESETS["dnd5e"]
    kinds = sorted(rs.turn_actions)[:3] + ["end-turn", "resolve"]
    hello = {"rulesets": {"dnd5e": {"options": {}, "steps": kinds,
                                    "fields": ["actor", "to", "id", "expect"]}}}
    engine = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'hello_engine.py'} " \
             f"{shlex.quote(json.dumps(hello))}"
    assert main(["conformance", "--program", engine, "--fuzz", "80", "--seed", "4"]) == 0
    touched = capsys.readouterr().out.strip().splitlines()[-1]
    found = re.search(rf"touched (\d+) of {len(rs.player_steps)} step kinds of dnd5e,", touched)
    assert found and 3 <= int(found.group(1)) <= len(kinds), touched


def test_without_hypothesis_fuzz_says_which_extra_to_install():
    """A wheel installed without the 'fuzz' extra: one line, exit 2."""
    code = ("import sys; sys.modules['hypothesis'] = None; from fsm.cli import main; "
            "sys.exit(main(['conformance', '--program', 'fsm serve', '--fuzz', '3']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "[fuzz]" in proc.stderr, proc.stderr
