"""`python bench/run.py` keeps working: a smoke run prints the table and the
JSON holds every figure the README's table is made of."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_bench_script_prints_every_ratio(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--smoke",
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for row in ("| fsm adjudication (Encounter.step), random timelines (",
                "| fsm adjudication, realistic timelines (", "| raw transitions dispatch",
                "| plain dict table", "| cold start: fsm check one vector |",
                "| cold start: fsm check, a vector citing rules |",
                "| cold start: fsm serve (input closed at once) |",
                "| cold start: fsm spec check |",
                "| memory per encounter model |", "| conformance suite, ",
                "| building an Encounter (3 combatants, 4e) |",
                "| fuzz against fsm serve, ",
                "| pf2e 2 combatants | 1 at a time |", "| scenario replay, 1,000 / 2,000 steps |",
                "| step cost, 2 / 1,000 combatants |",
                "| possible(), 50 / 100 combatants (an attack on the stack) |",
                "| possible(), 50 / 100: first call, reading every answer |",
                "| memory per encounter, 3 / 1,000 combatants |", "| pf2e 1 combatant, 2 rounds | ",
                "5 combatants x 3 rounds, pf2e: ", "| pf2e 2x1 | 4 (dask) | "):
        assert row in proc.stdout, row
    figures = json.loads(out.read_text())
    adj = figures["adjudication"]
    assert adj["steps"] > 0 and adj["triggers"] > 0
    assert all(adj[k] > 0 for k in ("fsm", "raw_transitions", "dict_table"))
    mix = figures["realistic"]["mix"]
    assert abs(sum(mix.values()) - 1) < 1e-9 and mix["allowed"] > 0.5
    assert all(v > 0 for v in figures["cold_start"].values())
    assert set(figures["replay"]) == {"1000", "2000"} and all(figures["replay"].values())
    assert set(figures["crowd"]) == {"2", "3", "1000"}
    assert set(figures["possible"]) == {"50", "100"}
    assert all(v["ms"] > 0 and v["tries"] > 0 for v in figures["possible"].values())
    assert all(v["us_per_step"] > 0 and v["bytes"] > 0 for v in figures["crowd"].values())
    from fsm.conformance import collect
    assert figures["suite"]["vectors"] == min(100, len(collect(None)))   # a smoke run's few
    (reduced,) = figures["reduction"]
    assert reduced["exact"] >= reduced["reduced"] > 0
    (bigger,) = figures["bigger"]
    assert bigger["budget"] == 1.0 and isinstance(bigger["finished"], bool)
    split = figures["split"]
    assert {(r["backend"], r["owners"]) for r in split} == {
        ("one process", 1), ("processes", 4), ("dask", 4)}     # a smoke run's one split
    assert all(r["identical"] and r["sum_over_single"] == 1.0 for r in split)
    (walk,) = figures["exploration"]
    assert walk["clean"] and walk["states"] > 0 and walk["runs"] == 2
