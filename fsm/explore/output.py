"""Writing what the explorer found: counterexamples as vectors, the report
as text or JSON, the audit's gaps against those spec/divergences.yaml
records; and reading the command line's bounds."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

from ..errors import ConfigError
from ..io.jsonsafe import MAX_DIGITS
from ..io.scenario import FORMAT
from ..io.writing import write_new
from ..report import describe
from ..rulesets import RULESETS
from .audit import AMBIGUOUS, REFUSED, ROW, STRUCTURAL, UNDEFINED
from .audit import Finding
from .runs import answerer_sets
from .walk import Config, Report, Violation, combatants_for

# -- writing a counterexample ----------------------------------------------------------

def counterexample(report: Report, combatants: list) -> dict:
    """The violation as a vector: every step expects what the machine said,
    the last one what the invariant demands."""
    cfg, v = report.config, report.violation
    steps = []
    for i, (data, verdict) in enumerate(zip(v.path, v.verdicts)):
        step = dict(data)
        last = i == len(v.path) - 1
        if last and v.problem.expect:
            step["expect"] = dict(v.problem.expect)
        elif not verdict.startswith("error"):
            step["expect"] = {"verdict": verdict}
        steps.append(step)
    doc = {
        "format": FORMAT,
        "id": f"explore-{cfg.name}-{v.problem.invariant}",
        "ruleset": cfg.name,
        "description": f"Found by fsm explore: {v.problem.message}.",
        "rules": list(v.problem.rules),
        "combatants": combatants,
        "steps": steps,
    }
    if cfg.options:
        doc["options"] = dict(cfg.options)
    return doc


def write_counterexample(report: Report, folder: str) -> str:
    """Write the counterexample as a vector in ``folder``; a file of its name
    already there is kept, and this one gets a fresh name (its id follows)."""
    doc = counterexample(report, combatants_for(report.config))
    os.makedirs(folder, exist_ok=True)
    path = write_new(Path(folder, doc["id"] + ".json"),
                     lambda p: json.dumps({**doc, "id": p.stem}, indent=2) + "\n")
    return os.path.join(folder, path.name)


# -- reading the command line, reporting -------------------------------------------------

def parse_option(text: str, ruleset: str) -> tuple:
    """``name=value`` as the options of a scenario take it (ConfigError if not)."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise ConfigError(f"--option takes NAME=VALUE, not {text!r}")
    opt = RULESETS[ruleset].option(name)
    if opt is None:
        known = ", ".join(o.name for o in RULESETS[ruleset].options)
        raise ConfigError(f"unknown option {name!r} for {ruleset} (known: {known})")
    if raw.isdigit() and len(raw) > MAX_DIGITS:
        # as files are read (fsm.io.jsonsafe): a number of that size is no option value
        raise ConfigError(f"--option {name}: an integer of {len(raw)} digits; at most "
                          f"{MAX_DIGITS}")
    value = None if raw == "null" else int(raw) if raw.isdigit() else raw
    problem = opt.check(value)
    if problem:
        raise ConfigError(problem)
    return name, value


def check_config(cfg: Config) -> None:
    """Refuse bounds that make no sense (ConfigError, one line)."""
    if cfg.rules is None:
        raise ConfigError(f"unknown ruleset {cfg.ruleset!r} (known: {', '.join(RULESETS)})")
    for name, low, high in (("combatants", 1, 6), ("rounds", 1, 5), ("depth", 1, 4)):
        value = getattr(cfg, name)
        if not low <= value <= high:
            raise ConfigError(f"--{name} must be from {low} to {high}, not {value}")
    if cfg.responders is not None and cfg.responders < 1:
        raise ConfigError(f"--responders must be at least 1, not {cfg.responders}")
    if cfg.max_states is not None and cfg.max_states < 1:
        raise ConfigError(f"--max-states must be at least 1, not {cfg.max_states}")
    if cfg.max_seconds is not None and not 0 < cfg.max_seconds < float("inf"):
        raise ConfigError(f"--max-seconds must be a positive number, not {cfg.max_seconds}")
    if cfg.grid and cfg.rules.explore.grid_moves is None:
        raise ConfigError(f"{cfg.name} has no grid mode: it derives nothing from positions")


class ProgressBar:
    """One line on a terminal, redrawn: which run, which level, how far."""

    WIDTH = 24

    def __init__(self, stream):
        self.stream = stream
        self.last = 0.0

    def __call__(self, total, run, number, runs, done, size):
        now = time.perf_counter()
        if run is not None and now - self.last < 0.1:
            return
        self.last = now
        states = total.states + (run.states if run is not None else 0)
        filled = int(self.WIDTH * done / size) if size else self.WIDTH
        level = f"level {run.depth_reached:>2}" if run is not None else "run done"
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                          f"run {number}/{runs} {level}  {states:,} states ")
        self.stream.flush()

    def close(self):
        self.stream.write("\r" + " " * 72 + "\r")
        self.stream.flush()


def finding_id(ruleset: str, finding: Finding) -> str:
    """The id a recorded gap carries in spec/divergences.yaml."""
    words = f"{ruleset} {finding.kind} {finding.phase} {finding.step}"
    return "GAP-" + "-".join(words.upper().replace("_", "-").split())


def recorded_gaps(root=None) -> set:
    """Ids under ``gaps:`` in spec/divergences.yaml (empty when absent)."""
    from ..io.yamlsafe import project_yaml
    from ..paths import default_root
    path = os.path.join(root or default_root(), "spec", "divergences.yaml")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as fh:
        doc = project_yaml(fh) or {}
    return {entry.get("id") for entry in doc.get("gaps") or ()}


def unrecorded_gaps(report: Report, recorded: set) -> list:
    ruleset = report.config.name
    return [f for f in report.audit.gaps if finding_id(ruleset, f) not in recorded]


def report_json(report: Report, written: str | None = None) -> dict:
    cfg = report.config
    out = {
        "ruleset": cfg.name, "combatants": cfg.combatants, "rounds": cfg.rounds,
        "depth": cfg.depth, "responders": cfg.responders, "options": cfg.options,
        "engine": cfg.engine, "grid": cfg.grid, "runs": report.runs,
        "states": report.states, "transitions": report.transitions,
        "steps": report.steps, "beyond_bounds": report.beyond, "reopened": report.reopened,
        "depth_reached": report.depth_reached, "stack_reached": report.stack_reached,
        "seconds": round(report.seconds, 3),
        "states_per_second": round(report.states_per_second, 1),
        "complete": report.complete, "stopped_at": report.stopped, "violation": None,
    }
    if report.expanded:
        out["owners"] = {"where": report.where, "expanded": report.expanded,
                         "bytes_exchanged": report.exchanged}
    if report.violation is not None:
        v = report.violation
        out["violation"] = {"invariant": v.problem.invariant, "message": v.problem.message,
                            "rules": list(v.problem.rules), "steps": v.path,
                            "verdicts": v.verdicts, "file": written}
    return out


def audit_json(report: Report, recorded: set) -> dict:
    ruleset = report.config.name
    return {
        "table": report.audit.table(),
        "gaps": [{"id": finding_id(ruleset, f), "kind": f.kind, "phase": f.phase,
                  "step": f.step, "detail": f.detail, "count": f.count,
                  "recorded": finding_id(ruleset, f) in recorded, "example": f.example}
                 for f in report.audit.gaps],
    }


def _runs(report) -> str:
    """'3 runs', or '1 of 3 runs' when a time limit stopped the others."""
    planned = len(answerer_sets(report.config))
    if report.runs < planned:
        return f"{report.runs} of {planned} runs"
    return _plural(report.runs, "run")


def render_text(report: Report, written: str | None, audit: bool, recorded: set) -> str:
    cfg = report.config
    who = "everyone" if cfg.responders is None or cfg.responders >= cfg.combatants \
        else f"{cfg.responders} at a time"
    lines = [
        f"{cfg.name}: {cfg.combatants} combatants{' on a line' if cfg.grid else ''}, "
        f"{_plural(cfg.rounds, 'round')}, "
        f"depth {cfg.depth}, "
        f"answers by {who} ({_runs(report)})",
        f"  {report.states:,} states, {report.transitions:,} transitions, "
        f"{report.steps:,} steps checked, timelines up to {report.depth_reached} steps, "
        f"stacks up to {report.stack_reached} frames",
        f"  {report.seconds:.1f} s, {report.states_per_second:,.0f} states/s"
        + ("" if report.complete else f"  (stopped at {report.stopped or 'a limit'}: incomplete)"),
    ]
    if report.expanded:
        lines.append(_split_line(report))
    if audit:
        lines += _audit_lines(report, recorded)
    if report.violation is None and not report.complete:
        lines.append("  incomplete: every invariant held after every step walked, but "
                     "the bounds were not covered")
    elif report.violation is None:
        lines.append("  ok: every invariant holds after every step")
    else:
        lines += _violation_lines(report.violation, written)
    return "\n".join(lines) + "\n"


def _split_line(report: Report) -> str:
    """How the states were split among the owners."""
    shares = " + ".join(f"{n:,}" for n in report.expanded)
    per_state = report.exchanged / report.states if report.states else 0
    return (f"  split among {_plural(len(report.expanded), 'owner')} ({report.where}): "
            f"{shares} states expanded; {per_state:,.0f} bytes exchanged per state")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _audit_lines(report: Report, recorded: set) -> list:
    counts = Counter()
    for (_, _, cls), n in report.audit.counts.items():
        counts[cls] += n
    lines = [f"  audit of {sum(counts.values()):,} steps: {counts[ROW]:,} decided by a "
             f"table row, {counts[REFUSED]:,} by a refusal, {counts[STRUCTURAL]:,} "
             f"structural (StepError), {counts[UNDEFINED]:,} undefined, "
             f"{counts[AMBIGUOUS]:,} ambiguous"]
    for f in report.audit.gaps:
        gid = finding_id(report.config.name, f)
        mark = "recorded" if gid in recorded else "NOT RECORDED"
        lines.append(f"  gap {gid} ({mark}): {f.kind} {f.step} in {f.phase} "
                     f"({f.detail}, {f.count}x); shortest: "
                     + " / ".join(_describe(d) for d in f.example or ()))
    if not report.audit.gaps:
        lines.append("  audit: every step kind in every reachable situation is decided by "
                     "one row or one refusal")
    return lines


def _violation_lines(v: Violation, written) -> list:
    lines = [f"  VIOLATION {v.problem.invariant}: {v.problem.message}"]
    for i, (data, verdict) in enumerate(zip(v.path, v.verdicts), 1):
        lines.append(f"    {i:>2}  {_describe(data):<40} {verdict}")
    if written:
        lines.append(f"  wrote {written} (replay it: fsm check {written})")
    return lines


def _describe(data: dict) -> str:
    ruling = data.get("ruling")
    return describe(data) + (f" (ruling {ruling})" if ruling else "")
