"""The table bench/run.py prints: each figure of a run beside what it is
compared with and its target (bench/README.md)."""

from __future__ import annotations


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
        *_from_wheel(results.get("wheel_start")),
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



def _from_wheel(w) -> list:
    """The row of the start from an installed wheel (not in a smoke run)."""
    if not w:
        return []
    ratio = w["fsm_check"] / w["import_transitions"]
    return [f"| cold start from a wheel: the fsm script checks {w['question']} in an empty "
            f"folder | {w['fsm_check'] * 1000:.0f} ms | {ratio:.2f}x import transitions in "
            f"the same venv ({w['import_transitions'] * 1000:.0f} ms; bare python "
            f"{w['python'] * 1000:.0f} ms) | <= 2x |"]
