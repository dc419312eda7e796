"""Benchmarks of fsm, measured in one run and reported as ratios.

Absolute speeds depend on the machine; the ratios (fsm against the raw
``transitions`` dispatch of the same triggers, exploration cost as
combatants are added, cold start against a bare ``import transitions``)
are what bench/README.md compares with its targets.

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
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import transitions  # noqa: E402
from transitions import Machine  # noqa: E402

from fsm import Encounter, StepError  # noqa: E402
from fsm.engine import rows as T  # noqa: E402
from fsm.engine.dispatch import machine_transitions  # noqa: E402
from fsm.explore import Config, explore  # noqa: E402
from fsm.rulesets import RULESETS  # noqa: E402
from fsm.scenario import load  # noqa: E402

import split  # noqa: E402  (bench/split.py)

VECTORS = sorted((ROOT / "spec" / "vectors").glob("*.json"))
COMBATANTS = [{"id": "c1", "side": "monsters"}, {"id": "c2", "side": "heroes"},
              {"id": "c3", "side": "heroes", "reactions": 2}]


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


# -- adjudication: fsm, raw transitions, a plain dict table ------------------------------

def workload(random_timelines: int, seed: int = 4) -> list:
    """Every vector, then seeded random timelines: (ruleset, combatants, options, steps)."""
    out = []
    for path in VECTORS:
        doc = load(path)
        out.append((doc["ruleset"], doc["combatants"], doc.get("options"), doc["steps"]))
    rng = random.Random(seed)
    for i in range(random_timelines):
        ruleset = ("dnd4e", "pf2e")[i % 2]
        out.append((ruleset, COMBATANTS, None, _random_steps(ruleset, rng)))
    return out


def _random_steps(ruleset, rng, length=60) -> list:
    kinds = list(RULESETS[ruleset].table.player_steps) + ["resolve"] * 4 + ["end-turn"] * 2
    steps = []
    for _ in range(length):
        step = {"do": rng.choice(kinds)}
        if step["do"] not in ("resolve", "continue", "lose", "disrupt", "end-turn", "event"):
            step["actor"] = rng.choice(["c1", "c2", "c3"])
        if step["do"] == "activity":
            step["cost"] = rng.randint(1, 3)
        if step["do"] in ("move", "standard") and rng.random() < 0.3:
            step["squares" if step["do"] == "move" else "attacks"] = 2
            step["provokes"] = ["c1", "c2", "c3"]
        steps.append(step)
    return steps


def LeanEncounter(*args):
    """An encounter dispatched by the lean table walker instead of ``transitions``."""
    return Encounter(*args, dispatcher="lean")


def _encounters(cls, load_):
    return [(cls(rs, combatants, None, options), steps) for rs, combatants, options, steps
            in load_]


def _replay(pairs) -> int:
    n = 0
    for enc, steps in pairs:
        for data in steps:
            try:
                enc.step(data)
            except StepError:
                pass
            n += 1
    return n


def _timed(fns, repeat=7) -> list:
    """The best of ``repeat`` runs of each ``fn()`` (a fresh setup each time).
    The functions take turns, so a slow spell of the machine hits them all
    alike instead of skewing the ratios between them."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            args = fn.setup()
            gc.collect()
            start = time.perf_counter()
            fn(*args)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def _triggers_fired(load_) -> list:
    """(phase, trigger) of every ``transitions`` call fsm makes on the workload."""
    calls = []
    for enc, steps in _encounters(Encounter, load_):
        fire = enc.trigger

        def recording(name, _fire=fire, _enc=enc, **kwargs):
            calls.append((_enc.state, name))
            return _fire(name, **kwargs)

        enc.trigger = recording
        _replay([(enc, steps)])
    return calls


class _Bare:
    """A model with nothing but a state."""


def _bare_machine(ruleset: str):
    """The machine fsm builds, with its guards and effects taken off."""
    model = _Bare()
    bare = [{k: t[k] for k in ("trigger", "source", "dest")}
            for t in machine_transitions(RULESETS[ruleset].rows)]
    Machine(model=model, states=list(T.STATES), initial=T.STARTING, send_event=True,
            auto_transitions=False, ignore_invalid_triggers=False, transitions=bare)
    return model


def realistic_workload(long_timelines: int, length: int = 600) -> list:
    """What users and engine logs send: every vector and scenario, then long
    timelines of ordinary turns (actions, answers, moves, resolutions, ends of
    turns), almost every step allowed."""
    out = []
    for path in VECTORS + sorted((ROOT / "spec" / "scenarios").glob("*.json")):
        doc = load(path)
        out.append((doc["ruleset"], doc["combatants"], doc.get("options"), doc["steps"]))
    for _ in range(long_timelines):
        out.append(("dnd4e", COMBATANTS, None, _timeline(length)))
    return out


def verdict_mix(load_) -> dict:
    """The share of allowed, rejected, gm and unreadable steps in a workload."""
    counts = {"allowed": 0, "rejected": 0, "gm": 0, "error": 0}
    for enc, steps in _encounters(Encounter, load_):
        for data in steps:
            try:
                counts[enc.step(data).verdict] += 1
            except StepError:
                counts["error"] += 1
    total = sum(counts.values()) or 1
    return {k: v / total for k, v in counts.items()}


def adjudication(random_timelines: int, repeat: int = 7) -> dict:
    return adjudicate(workload(random_timelines), repeat)


def adjudicate(load_, repeat: int = 7) -> dict:
    fired = [(rs, call) for rs, combatants, options, steps in load_
             for call in _triggers_fired([(rs, combatants, options, steps)])]

    def fsm_run(pairs):
        _replay(pairs)

    fsm_run.setup = lambda: (_encounters(Encounter, load_),)

    def lean_run(pairs):
        _replay(pairs)

    lean_run.setup = lambda: (_encounters(LeanEncounter, load_),)

    def raw_run(models, fired):
        for model, (phase, name) in zip(models, fired):
            model.state = phase
            model.trigger(name)

    raw_run.setup = lambda: _raw_setup(fired)
    steps = sum(len(s) for *_, s in load_)
    t_fsm, t_lean, t_raw = _timed([fsm_run, lean_run, raw_run], repeat)
    return {"steps": steps, "triggers": len(fired), "fsm": steps / t_fsm,
            "raw_transitions": steps / t_raw, "dict_table": steps / t_lean,
            "mix": verdict_mix(load_)}


def _raw_setup(fired):
    """A bare model of the right ruleset for each fired trigger, and the triggers."""
    machines = {rs: _bare_machine(rs) for rs in {rs for rs, _ in fired}}
    return [machines[rs] for rs, _ in fired], [call for _, call in fired]


# -- exploration -------------------------------------------------------------------------

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


# -- cold start, memory, the suite ---------------------------------------------------------

def _wall(cmd, repeat=7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


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


def _timeline(n: int) -> list:
    """Ordinary turns: actions, answers, moves in two squares, ends of turns."""
    order, steps, turn = ["c1", "c2", "c3"], [], 0
    while len(steps) < n:
        actor, other = order[turn % 3], order[(turn + 1) % 3]
        steps += [{"actor": actor, "do": "standard"}, {"do": "resolve"},
                  {"actor": other, "do": "free-response"}, {"do": "resolve"},
                  {"actor": actor, "do": "move", "squares": 2}, {"do": "resolve"},
                  {"do": "continue"}, {"do": "resolve"}, {"do": "end-turn"}]
        turn += 1
    return steps[:n]


def replay_speed(sizes) -> dict:
    """Scenario replay (fsm.scenario.replay, a verdict expected on every step),
    steps per second at each size, best of three."""
    from fsm.scenario import replay
    out = {}
    for n in sizes:
        steps = [dict(s, expect={"verdict": "allowed"}) for s in _timeline(n)]
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


# -- the report -------------------------------------------------------------------------

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


def _mix(figures) -> str:
    mix = figures["mix"]
    return ", ".join(f"{mix[k]:.0%} {k}" for k in ("allowed", "rejected", "gm", "error")
                     if mix[k])


def table(results: dict) -> str:
    m, a, c, mem, s = (results[k] for k in ("machine", "adjudication", "cold_start",
                                             "memory", "suite"))
    lines = [
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
        f"transitions {m['transitions']}",
        "",
        "| measure | value | ratio | target |",
        "|---|---|---|---|",
        f"| fsm adjudication (Encounter.step), random timelines ({_mix(a)}) | "
        f"{a['fsm']:,.0f} steps/s | "
        f"{a['fsm'] / a['raw_transitions']:.2f} of raw transitions | >= 0.33 |",
        f"| fsm adjudication, realistic timelines ({_mix(results['realistic'])}) | "
        f"{results['realistic']['fsm']:,.0f} steps/s | "
        f"{results['realistic']['fsm'] / results['realistic']['raw_transitions']:.2f} of raw "
        f"transitions ({results['realistic']['raw_transitions']:,.0f} steps/s) | >= 0.8 |",
        f"| raw transitions dispatch, same {a['triggers']:,} triggers | "
        f"{a['raw_transitions']:,.0f} steps/s | 1.00 | library floor |",
        f"| plain dict table, same guards (lean dispatcher) | {a['dict_table']:,.0f} steps/s | "
        f"{a['dict_table'] / a['raw_transitions']:.2f} of raw transitions; "
        f"{a['dict_table'] / a['fsm']:.2f}x fsm | language floor |",
        f"| cold start: fsm check one vector | {c['fsm_check'] * 1000:.0f} ms | "
        f"{c['fsm_check'] / c['import_transitions']:.2f}x import transitions "
        f"({c['import_transitions'] * 1000:.0f} ms; bare python {c['python'] * 1000:.0f} ms)"
        f" | <= 2x |",
        f"| cold start: fsm check, a vector citing rules | "
        f"{c['fsm_check_citing'] * 1000:.0f} ms | "
        f"{c['fsm_check_citing'] / c['import_transitions']:.2f}x import transitions | <= 2x |",
        f"| cold start: fsm serve (input closed at once) | {c['serve'] * 1000:.0f} ms | "
        f"{c['serve'] / c['import_transitions']:.2f}x import transitions | |",
        f"| cold start: fsm spec check | {c['spec_check'] * 1000:.0f} ms | "
        f"{c['spec_check'] / c['import_transitions']:.2f}x import transitions | <= 10x |",
        f"| memory per encounter model | {mem['Encounter'] / 1024:.1f} KiB (Encounter), "
        f"{mem['LeanEncounter'] / 1024:.1f} KiB (lean) | "
        f"{mem['Encounter'] / mem['LeanEncounter']:.1f}x | |",
    ]
    k = results["construction"]
    lines.append(f"| building an Encounter (3 combatants, 4e) | {k['Encounter'] * 1e6:.0f} µs "
                 f"(the ruleset's shared machine), {k['LeanEncounter'] * 1e6:.0f} µs (lean) | "
                 f"{k['Encounter'] / k['LeanEncounter']:.2f}x lean | |")
    r = results["replay"]
    sizes = sorted(r)
    lines.append(f"| scenario replay, {' / '.join(f'{n:,}' for n in sizes)} steps | "
                 f"{' / '.join(f'{r[n]:,.0f}' for n in sizes)} steps/s | time per step at "
                 f"{sizes[-1]:,} = {r[sizes[0]] / r[sizes[-1]]:.2f}x that at {sizes[0]:,} "
                 f"| <= 1.5x |")
    k = results["crowd"]
    small, three, big = sorted(k)
    lines.append(f"| step cost, {small} / {big:,} combatants | "
                 f"{k[small]['us_per_step']:.1f} / {k[big]['us_per_step']:.1f} µs per step | "
                 f"{k[big]['us_per_step'] / k[small]['us_per_step']:.2f}x at "
                 f"{big:,} | <= 1.25x |")
    lines.append(f"| memory per encounter, {three} / {big:,} combatants | "
                 f"{k[three]['bytes'] / 1024:.0f} / {k[big]['bytes'] / 1024:.0f} KiB | "
                 f"{k[big]['bytes'] / k[three]['bytes']:.1f}x | |")
    p = results["possible"]
    few, many = sorted(p)
    lines.append(f"| possible(), {few} / {many:,} combatants (an attack on the stack) | "
                 f"{p[few]['ms']:.1f} / {p[many]['ms']:,.1f} ms per call, "
                 f"{p[few]['tries']} / {p[many]['tries']} tries | "
                 f"{p[many]['ms'] / p[few]['ms']:.2f}x at {many:,} | <= 1.5x |")
    lines.append(f"| possible(), {few} / {many:,}: first call, reading every answer | "
                 f"first {p[few]['first_ms']:.1f} / {p[many]['first_ms']:,.1f} ms, reading "
                 f"{p[few]['read_all_ms']:.1f} / {p[many]['read_all_ms']:,.1f} ms; "
                 f"trying everyone at {few}: {p[few]['everyone_ms']:.1f} ms | | |")
    if s["in_process"] is None:
        lines.append("| conformance suite | n/a (fsm conformance not available) | | |")
    else:
        lines.append(f"| conformance suite, {s['vectors']} vectors | "
                     f"{s['in_process']:.2f} s in-process, {s['program']:.2f} s through "
                     f"--program | {s['program'] / s['in_process']:.1f}x | |")
    f = results.get("fuzz")
    if f:
        lines.append(f"| fuzz against fsm serve, {f['timelines']} timelines | "
                     f"{f['timelines'] / f['seconds']:.0f} timelines/s | the engine under "
                     f"test {f['engine_share']:.2f} of the time | at least 0.5 |")
    z = results.get("fuzz_zoo")
    if z:
        found = sorted(n for n in z.values() if n is not None)
        lines.append(f"| fuzz finds the trackers' mistakes (verdicts only) | {len(found)} of "
                     f"{len(z)} | first timeline: median "
                     f"{found[len(found) // 2] if found else '-'}, most {max(found or [0])} | |")
        for mid, n in z.items():
            lines.append(f"|   {mid} | {n if n is not None else 'not found'} | | |")
    v = results.get("live")
    if v and "skipped" in v:
        lines.append(f"| live checker, time to first verdict | n/a ({v['skipped']}) | | |")
    elif v:
        shown, cold, warm = (v["summary"][k][m]["median"] for k, m in (
            ("cold", "shown"), ("cold", "live_verdict"), ("warm", "live_verdict")))
        runtime = v["summary"]["cold"]["runtime"]["median"]
        lines.append(f"| live checker, time to first verdict (median of {len(v['runs']['cold'])}) "
                     f"| {shown:.2f} s cold (judged at build time); judged live {cold:.2f} s "
                     f"cold, {warm:.2f} s warm | the Pyodide runtime {runtime / cold:.2f} of "
                     f"the cold live time | |")
    lines += ["", "| exploration, 2 rounds | answering | runs | states | transitions | "
                  "seconds | states/s | jobs | cpu/wall (target >= 1.8 on 2 jobs) | clean |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["exploration"]:
        lines.append(f"| {r['ruleset']} {r['combatants']} combatants | "
                     f"{r['responders']} at a time | {r['runs']} | {r['states']:,} | "
                     f"{r['transitions']:,} | {r['seconds']:.1f} | "
                     f"{r['states_per_second']:,.0f} | {r['jobs']} | {r['cpu_per_wall']:.2f} | "
                     f"{'yes' if r['clean'] else 'NO'} |")
    if results.get("reduction"):
        lines += ["", "| states before and after reduction, 1 answering | exact "
                      "picture | reduced (default) | ratio | clean |", "|---|---|---|---|---|"]
        for r in results["reduction"]:
            lines.append(f"| {r['ruleset']} {r['combatants']} "
                         f"combatant{'s' if r['combatants'] > 1 else ''}, {r['rounds']} "
                         f"round{'s' if r['rounds'] > 1 else ''} | "
                         f"{r['exact']:,} | "
                         f"{r['reduced']:,} | {r['exact'] / r['reduced']:.2f}x fewer | "
                         f"{'yes' if r['clean'] else 'NO'} |")
    for r in results.get("bigger", ()):
        if r["finished"]:
            lines += ["", f"5 combatants x 3 rounds, {r['ruleset']}: finished in "
                          f"{r['seconds']:.1f} s ({r['states']:,} states, "
                          f"{'clean' if r['clean'] else 'NOT clean'}), "
                          f"{r['seconds'] / r['budget']:.2f}x {r['of']} "
                          f"(target: <= 1)."]
        else:
            lines += ["", f"5 combatants x 3 rounds, {r['ruleset']}: not finished within "
                          f"{r['of']} ({r['budget']:.1f} s), so > 1x that time "
                          f"(target: <= 1); by then {r['states']:,} states "
                          f"({'clean' if r['clean'] else 'NOT clean'}), {r['runs']} of 5 runs "
                          f"begun, timelines up to {r['depth']} steps."]
    a = results["adjudication"]
    trigger = a["steps"] / a["raw_transitions"] / a["triggers"]     # one bare trigger call, s
    costs = [f"{r['ruleset']} {r['combatants']} combatants "
             f"{r['seconds'] / r['states'] / trigger:,.0f}"
             for r in results["exploration"] if r["jobs"] == 1]
    lines += ["", f"Cost of one explored state in one process, in bare `transitions` trigger "
                  f"calls ({trigger * 1e6:.1f} µs each, same run): {'; '.join(costs)} "
                  f"(target: <= 10)."]
    return "\n".join(lines)


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
