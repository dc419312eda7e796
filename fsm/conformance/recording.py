"""Writing a generated vector down step by step: each step played on the
reference and kept with the verdict and reason it got (the sweeps, the
splits and the denials all write theirs so)."""

from __future__ import annotations

from ..errors import StepError


def record(enc, steps: list, data: dict, facts: bool = False):
    """Play ``data`` on ``enc`` and append it to ``steps`` with its verdict and
    reason expected (and every fact, with ``facts``); the Verdict, or None
    when the step cannot be read here (not appended)."""
    try:
        verdict = enc.step(data)
    except StepError:
        return None
    expect = {"verdict": verdict.verdict, "reason": verdict.reason}
    if facts:
        expect.update(enc.facts())
    steps.append(dict(data, expect=expect))
    return verdict


def tally(vectors: list[dict]) -> dict:
    """ruleset -> how many vectors and steps (for COVERAGE.json)."""
    out: dict = {}
    for v in vectors:
        c = out.setdefault(v["ruleset"], {"vectors": 0, "steps": 0})
        c["vectors"] += 1
        c["steps"] += len(v["steps"])
    return out
