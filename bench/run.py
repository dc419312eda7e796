"""Benchmarks of fsm, measured in one run and reported as ratios.

Absolute speeds depend on the machine; the ratios (fsm against the raw
``transitions`` dispatch of the same triggers, exploration cost as
combatants are added, cold start against a bare ``import transitions``)
are what bench/README.md compares with its targets. Adjudication is
measured in ``adjudication.py``, exploration in ``exploring.py``, the split
of a walk among owners in ``split.py``, the start from an installed wheel
in ``startup.py``, the live checker's start in ``live.py``; ``report.py``
prints the table.

    python bench/run.py            # everything (several minutes)
    python bench/run.py --quick    # a smoke run: smaller explorations
    python bench/run.py --json results.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import transitions  # noqa: E402

from fsm import Encounter  # noqa: E402
from fsm.scenario import load  # noqa: E402

import split  # noqa: E402  (bench/split.py)
import startup  # noqa: E402  (bench/startup.py)
from adjudication import (COMBATANTS, VECTORS, LeanEncounter, adjudicate,  # noqa: E402
                          adjudication, ordinary_turns, realistic_workload)
from exploring import bigger_bounds, exploration, reduction  # noqa: E402
from report import table  # noqa: E402


# -- the machine ---------------------------------------------------------------------

def machine_info() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "transitions": transitions.__version__, "system": platform.system()}


# -- cold start, memory, construction, replay ----------------------------------------

def _wall(cmd, repeat=7) -> float:
    return startup.wall(cmd, ROOT, repeat)


def cold_start(repeat: int = 7) -> dict:
    """Whole commands, median of ``repeat`` launches, with fsm's bytecode
    caches written first (as after a first run; with PYTHONDONTWRITEBYTECODE
    set, every run would compile fsm from source and the figure would
    measure the compiler)."""
    import compileall

    import fsm
    compileall.compile_dir(str(Path(fsm.__file__).parent), quiet=1)
    vector = str(VECTORS[0].relative_to(ROOT))
    check = _wall([sys.executable, "-m", "fsm", "check", vector], repeat)
    citing = _wall([sys.executable, "-m", "fsm", "check", str(_citing_vector())], repeat)
    serve = _wall([sys.executable, "-m", "fsm", "serve"], repeat)     # stdin empty: it stops
    spec = _wall([sys.executable, "-m", "fsm", "spec", "check"], min(repeat, 3))
    bare = _wall([sys.executable, "-c", "import transitions"], repeat)
    python = _wall([sys.executable, "-c", "pass"], repeat)
    return {"fsm_check": check, "fsm_check_citing": citing, "serve": serve, "spec_check": spec,
            "import_transitions": bare, "python": python}


def _citing_vector() -> Path:
    """The first vector with a rejected step: its check cites rules, so it
    reads their statements (spec/rules.yaml) too."""
    for path in VECTORS:
        if any(s.get("expect", {}).get("verdict") == "rejected" for s in load(path)["steps"]):
            return path.relative_to(ROOT)
    raise SystemExit("no vector has a rejected step")


def memory() -> dict:
    out = {}
    for name, cls in (("Encounter", Encounter), ("LeanEncounter", LeanEncounter)):
        cls("pf2e", COMBATANTS)        # warm the caches first
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        models = [cls("pf2e", COMBATANTS) for _ in range(200)]
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        out[name] = (after - before) / len(models)
    return out


def construction(count: int, repeat: int) -> dict:
    """CPU seconds to build one encounter (3 combatants, 4e), best of
    ``repeat`` batches, on the ruleset's shared machine and on the lean walker."""
    out = {}
    for name, cls in (("Encounter", Encounter), ("LeanEncounter", LeanEncounter)):
        cls("dnd4e", COMBATANTS)
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            for _ in range(count):
                cls("dnd4e", COMBATANTS)
            best = min(best, time.process_time() - start)
        out[name] = best / count
    return out


def replay_speed(sizes) -> dict:
    """Scenario replay (fsm.scenario.replay, a verdict expected on every step),
    steps per second at each size, best of three."""
    from fsm.scenario import replay
    out = {}
    for n in sizes:
        steps = [dict(s, expect={"verdict": "allowed"}) for s in ordinary_turns(n)]
        best = float("inf")
        for _ in range(3):
            doc = {"format": 1, "id": "bench", "ruleset": "dnd4e", "steps": steps,
                   "combatants": [{"id": c["id"], "side": c["side"]} for c in COMBATANTS]}
            start = time.perf_counter()
            rep = replay(doc)
            best = min(best, time.perf_counter() - start)
            assert rep.ok
        out[n] = n / best
    return out


# -- crowds --------------------------------------------------------------------------

def crowd(sizes, turns: int) -> dict:
    """Microseconds per step of ordinary turns (an action, an interrupt by the
    next combatant, resolutions, a move, the end of the turn) in encounters of
    each size, best of three, and memory per encounter model at each size."""
    out = {}
    for n in sizes:
        combatants = [(f"c{i}", ("monsters", "heroes")[i % 2]) for i in range(n)]
        best = float("inf")
        for _ in range(3):
            enc = Encounter("dnd4e", combatants)
            steps = 0
            start = time.perf_counter()
            for _ in range(turns):
                actor = enc.active
                other = enc.order[(enc.turn_index + 1) % n]
                for data in ({"actor": actor, "do": "standard"},
                             {"actor": other, "do": "interrupt"}, {"do": "resolve"},
                             {"do": "resolve"}, {"actor": actor, "do": "move"},
                             {"do": "resolve"}, {"do": "end-turn"}):
                    enc.step(data)
                    steps += 1
            best = min(best, (time.perf_counter() - start) / steps)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        model = Encounter("dnd4e", combatants)
        size = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        del model
        out[n] = {"us_per_step": best * 1e6, "bytes": size}
    return out


def possible_cost(sizes) -> dict:
    """``Encounter.possible()`` in 4e encounters of each size (two sides
    taking turns, an attack on the stack): milliseconds for the first call
    (which sorts the crowd into look-alikes), for a call in a new state
    (best of three, each after one more step: an interrupt, its resolution,
    a free response), for reading every answer of that call, and the tries
    a call makes; beside them a call that tries everyone, at the smaller size."""
    out = {}
    for n in sizes:
        enc = Encounter("dnd4e", [(f"c{i}", ("monsters", "heroes")[i % 2]) for i in range(n)])
        enc.step({"actor": enc.active, "do": "standard"})
        start = time.perf_counter()
        answer = enc.possible()
        first = time.perf_counter() - start
        best = float("inf")
        for step in ({"actor": "c3", "do": "interrupt"}, {"do": "resolve"},
                     {"actor": "c5", "do": "free-response"}):
            enc.step(step)
            start = time.perf_counter()
            answer = enc.possible()
            best = min(best, time.perf_counter() - start)
        start = time.perf_counter()
        read = sum(len(row) for row in answer.values())
        reading = time.perf_counter() - start
        tries = 0
        real = enc.try_step

        def counted(data):
            nonlocal tries
            tries += 1
            return real(data)
        enc.try_step = counted
        enc.possible()
        del enc.try_step
        assert len(answer) == n + 1 and read > n
        out[n] = {"ms": best * 1e3, "first_ms": first * 1e3, "read_all_ms": reading * 1e3,
                  "tries": tries}
    few = min(sizes)
    enc = Encounter("dnd4e", [(f"c{i}", ("monsters", "heroes")[i % 2]) for i in range(few)])
    enc.step({"actor": enc.active, "do": "standard"})
    start = time.perf_counter()
    enc.possible(share=False)
    out[few]["everyone_ms"] = (time.perf_counter() - start) * 1e3
    return out


# -- the suite and the fuzzer --------------------------------------------------------

def suite(first: int | None = None) -> dict:
    """The conformance suite (its ``first`` vectors alone, when given) in
    process and through ``fsm serve``."""
    try:
        from fsm import conformance as C
    except ImportError:
        return {"in_process": None, "program": None}
    vectors = C.collect([])[:first]
    start = time.perf_counter()
    C.run_in_process(vectors)
    in_process = time.perf_counter() - start
    start = time.perf_counter()
    C.run_program(vectors, f"{sys.executable} -m fsm serve")
    program = time.perf_counter() - start
    return {"in_process": in_process, "program": program, "vectors": len(vectors)}


def fuzz_speed(examples: int) -> dict:
    """Timelines a second of ``fsm conformance --fuzz`` against ``fsm serve``
    (seed 0: no disagreement, so no shrinking), and the share of the run's
    time the engine under test took (its answers, judged) against the time
    spent deciding the timelines on the reference."""
    from fsm.conformance.fuzz import Stats, fuzz
    stats = Stats()
    start = time.perf_counter()
    found, runs = fuzz(f"{sys.executable} -m fsm serve", examples, seed=0, stats=stats)
    whole = time.perf_counter() - start
    assert found is None, "the reference disagrees with itself"
    return {"timelines": runs, "seconds": whole, "engine_share": stats.engine_share}


def fuzz_zoo(examples: int, first: int | None = None) -> dict:
    """For each tracker's mistake of the zoo, as an engine reporting
    verdicts and reason codes only and naming its ruleset alone (an engine
    for one game): the number of the first fuzzed timeline
    (seed 0) it got wrong, or None within ``examples`` (the ``first`` few
    mistakes alone, when given)."""
    from fsm.conformance.fuzz import Stats, fuzz
    from fsm.conformance.mistakes import zoo
    engine = ROOT / "tests" / "engines" / "mutant_engine.py"
    out = {}
    for m in zoo()[:first]:
        stats = Stats()
        fuzz(f"{sys.executable} {engine} {m.id} --verdicts --alone", examples, seed=0,
             stats=stats)
        out[m.id] = stats.first_found
    return out


# -- the live checker ----------------------------------------------------------------

def live_start(runs: int, pyodide=None) -> dict:
    """The live checker's time to its first verdict, cold and warm
    (bench/live.py), or why it was not measured."""
    import tempfile

    import live
    why = live.available()
    if why:
        return {"skipped": why}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            live.build_site(Path(tmp) / "site", pyodide)
        except SystemExit:
            return {"skipped": "the live site could not be built (npm?)"}
        figures = live.measure(Path(tmp) / "site", runs)
    return {"runs": figures, "summary": live.summary(figures)}


# -- the run -------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller explorations")
    parser.add_argument("--smoke", action="store_true",
                        help="a run of seconds that checks the script works (tests use it); "
                             "its figures mean little")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--pyodide", metavar="PATH",
                        help="the pyodide npm package for the live checker's start "
                             "(default: npm fetches it)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes for the default explorations")
    args = parser.parse_args(argv)
    rulesets = ("dnd4e", "pf2e")
    sizes, pair_sizes = ((2, 3), (2,)) if args.quick else ((2, 3, 4), (2, 3))
    growth = [(rs, n, 1, 1) for rs in rulesets for n in sizes]        # one process
    target = [(rs, 3, 1, None) for rs in rulesets]                     # fsm explore RS
    pairs = [(rs, n, 2, None) for rs in rulesets for n in pair_sizes]  # --responders 2
    if args.smoke:
        growth, target, pairs = [("pf2e", 2, 1, 1)], [], []
    results = {"machine": machine_info()}
    print("adjudication...", file=sys.stderr)
    repeat = 1 if args.smoke else 7
    results["adjudication"] = adjudication(2 if args.smoke else 20 if args.quick else 200, repeat)
    results["realistic"] = adjudicate(realistic_workload(1 if args.smoke else 10), repeat)
    print("cold start, memory, suite...", file=sys.stderr)
    results["cold_start"] = cold_start(repeat)
    if not args.smoke:          # building and installing the wheel takes seconds
        print("start from a wheel...", file=sys.stderr)
        results["wheel_start"] = startup.wheel_start(repeat)
    results["memory"] = memory()
    results["construction"] = construction(50 if args.smoke else 1000, repeat)
    results["suite"] = suite(100 if args.smoke else None)
    print("fuzz...", file=sys.stderr)
    results["fuzz"] = fuzz_speed(20 if args.smoke else 300)
    print("fuzz against the zoo...", file=sys.stderr)
    results["fuzz_zoo"] = fuzz_zoo(5, 1) if args.smoke else fuzz_zoo(1000)
    if not args.smoke:
        print("live checker start...", file=sys.stderr)
        results["live"] = live_start(3 if args.quick else 5, args.pyodide)
    print("replay...", file=sys.stderr)
    results["replay"] = replay_speed((1000, 2000) if args.smoke else
                                     (1000, 10_000, 20_000, 100_000))
    print("crowd...", file=sys.stderr)
    results["crowd"] = crowd((2, 3, 1000), 20 if args.smoke else 300)
    results["possible"] = possible_cost((50, 100) if args.smoke else (50, 5000))
    print("exploration...", file=sys.stderr)
    results["exploration"] = exploration(growth + target + pairs, args.jobs)
    reduced = [("pf2e", 1, 2)] if args.smoke else [("pf2e", 2, 2), ("pf2e", 3, 2)] \
        if args.quick else [("pf2e", 2, 2), ("pf2e", 3, 2), ("dnd4e", 2, 2)]
    print("reduction, bigger bounds...", file=sys.stderr)
    results["reduction"] = reduction(reduced)
    budgets = [(r["ruleset"], r["seconds"], "the 3x2 time") for r in results["exploration"]
               if r["default"] and r["combatants"] == 3 and r["responders"] == 1]
    results["bigger"] = bigger_bounds([("pf2e", 1.0, "a smoke budget")] if args.smoke else budgets)
    print("split among owners...", file=sys.stderr)
    results["split"] = split.split([("pf2e", 2, 1)], owner_counts=(4,)) if args.smoke else \
        split.split([("pf2e", 3, 2), ("dnd4e", 2, 2)])
    print(table(results))
    print()
    print(split.table(results["split"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0



if __name__ == "__main__":
    sys.exit(main())
