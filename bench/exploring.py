"""Exploration measured: walks of growing bounds (states, seconds, CPU per
wall second), the reduced picture against the exact one, and how far
``fsm explore`` gets with bigger bounds in a given time."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

from fsm.explore import Config, explore

ROOT = Path(__file__).resolve().parent.parent


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def exploration(series, jobs) -> list:
    rows = []
    for ruleset, combatants, responders, run_jobs in series:
        cfg = Config(ruleset, combatants=combatants, rounds=2, responders=responders)
        start, cpu = time.perf_counter(), _cpu_seconds()
        report = explore(cfg, jobs=run_jobs if run_jobs else jobs)
        seconds = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
        rows.append({"ruleset": ruleset, "combatants": combatants, "rounds": 2,
                     "responders": responders, "jobs": run_jobs if run_jobs else jobs,
                     "runs": report.runs, "states": report.states,
                     "transitions": report.transitions, "steps": report.steps,
                     "seconds": seconds, "states_per_second": report.states / seconds,
                     "cpu_per_wall": cpu / seconds, "default": run_jobs is None,
                     "clean": report.violation is None and not report.audit.gaps})
        print(f"  explored {ruleset} {combatants}x2 responders={responders}: "
              f"{report.states:,} states in {seconds:.1f} s", file=sys.stderr)
    return rows


def reduction(bounds) -> list:
    """States of the same walk with the reduced picture (the default) and with
    the exact one (``Config.exact``: round, frame kinds and every detail
    kept), one answering combatant at a time, both CPUs."""
    rows = []
    for ruleset, combatants, rounds in bounds:
        exact, reduced = (explore(Config(ruleset, combatants=combatants, rounds=rounds,
                                         responders=1, exact=flag))
                          for flag in (True, False))
        rows.append({"ruleset": ruleset, "combatants": combatants, "rounds": rounds,
                     "exact": exact.states, "reduced": reduced.states,
                     "clean": exact.violation is None and reduced.violation is None})
        print(f"  reduction {ruleset} {combatants}x{rounds}: {exact.states:,} -> "
              f"{reduced.states:,} states", file=sys.stderr)
    return rows


def bigger_bounds(targets) -> list:
    """``fsm explore RULESET --combatants 5 --rounds 3`` given the time the
    default 3x2 command took in this run (``--max-seconds``): finished or
    not, how long, and how far it got."""
    rows = []
    for ruleset, budget, of in targets:
        cmd = [sys.executable, "-m", "fsm", "explore", ruleset, "--combatants", "5",
               "--rounds", "3", "--max-seconds", f"{budget:.3f}", "--json"]
        start = time.perf_counter()
        # a session of its own, so that the walk's worker processes stop with it if
        # it overruns its own limit by far
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            stdout, _ = proc.communicate(timeout=budget + 60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            stdout = ""
        seconds = time.perf_counter() - start
        out = json.loads(stdout) if proc.returncode in (0, 1, 3) else {}
        rows.append({"ruleset": ruleset, "budget": budget, "of": of, "seconds": seconds,
                     "finished": proc.returncode in (0, 1), "clean": proc.returncode in (0, 3),
                     "states": out.get("states", 0), "runs": out.get("runs", 0),
                     "depth": out.get("depth_reached", 0)})
    return rows

