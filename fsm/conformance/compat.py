"""The compatibility report of a conformance run: which rules an engine
conforms to, vector by vector and rule by rule.

A rule **conforms** when every vector that covers it (its ``rules`` list)
passed, **fails** when a vector failed at a step whose verdict the reference
grounds in it (the rule ids that step cites, PRECEDENCE.md), and is
**untested** when all of its vectors were skipped (the engine does not take
their ruleset or options). A failed vector counts against the rules of its
first failing step only, never against every rule it covers. The report is
JSON for machines (``fsm conformance --json``) and Markdown or HTML for
people (``--report FILE``), so that an engine can publish "conforms to the
fsm suite, format 1: rules X of Y".
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from .vectors import FAIL, FORMAT, PASS, SKIP, summary

CONFORMS, FAILS, UNTESTED = "conforms", "fails", "untested"


def failing_step(outcome) -> int | None:
    """The number of the first step the engine got wrong, when it says."""
    for detail in outcome.details or ():
        head = detail.split(":", 1)[0]
        if head.startswith("step ") and head[5:].isdigit():
            return int(head[5:])
    return None


_GOT = re.compile(r"got (?:rejected|gm) \(([a-z0-9-]+)\)")


def replay_lines(path: str, doc: dict, step: int | None) -> list[str]:
    """Where a failure is, the step as written, and one command replaying it."""
    import json
    from ..io.terminal import safe
    out = [f"file: {safe(path)}"]
    steps = doc.get("steps") or ()
    if step is not None and 0 < step <= len(steps):
        data = steps[step - 1]
        shown = {k: v for k, v in data.items() if k != "expect"} if isinstance(data, dict) \
            else data
        out.append(f"step {step}: {safe(json.dumps(shown, ensure_ascii=False))}")
    out.append(f"replay: fsm check {safe(path)} --explain")
    return out


def blamed(outcome, doc) -> tuple:
    """The rule ids a failed vector counts against, from its first failing
    step: where the reference refuses the step (or leaves it to the GM), the
    ids of the check that decided it; where the reference allows it and the
    engine refused it, the ids of the engine's check (found by its reason).
    None when the step expects an error, or the failure is no step's (a
    crash, a hang): the vector still fails."""
    n = failing_step(outcome)
    if n is None or not doc or n > len(doc.get("steps") or ()):
        return ()
    from ..errors import FsmError
    from ..scenario import build
    try:
        enc = build(doc, outcome.path)
        for data in doc["steps"][:n - 1]:
            enc.step({k: v for k, v in data.items() if k != "expect"})
        data = doc["steps"][n - 1]
        verdict = enc.step({k: v for k, v in data.items() if k != "expect"})
    except FsmError:
        return ()
    if verdict.verdict != "allowed":
        return tuple(verdict.rules)
    reasons = {m.group(1) for d in outcome.details or () if d.startswith(f"step {n}:")
               for m in _GOT.finditer(d)}
    table = enc.ruleset.table
    out: dict = {}
    for row in (*table.rows, *table.refusals):
        if row.step == data.get("do"):
            for g, rules in row.guards:
                if reasons & {g.reason, g.gm_reason}:
                    out.update(dict.fromkeys(rules))
    return tuple(out)


def by_rule(outcomes, docs) -> dict:
    """rule id -> {passed: [...], failed: [...], skipped: [...]} (vector ids)."""
    doc_of = dict(docs)
    out: dict = {}

    def add(rid, status, vid):
        entry = out.setdefault(rid, {PASS: [], FAIL: [], SKIP: []})
        if vid not in entry[status]:
            entry[status].append(vid)

    for o in outcomes:
        doc = doc_of.get(o.path) or {}
        if o.status == FAIL:
            for rid in blamed(o, doc):
                add(rid, FAIL, o.id)
            continue
        for rid in doc.get("rules") or ():
            add(rid, o.status, o.id)
    return dict(sorted(out.items()))


def status(entry: dict) -> str:
    if entry[FAIL]:
        return FAILS
    if entry[PASS]:
        return CONFORMS
    return UNTESTED


def headline(outcomes, docs) -> str:
    """One line: "conforms ..." only when no vector failed."""
    rules = by_rule(outcomes, docs)
    ok = sum(1 for e in rules.values() if status(e) == CONFORMS)
    failed = sum(1 for o in outcomes if o.status == FAIL)
    if failed:
        broken = [rid for rid, e in rules.items() if status(e) == FAILS]
        return (f"fails the fsm suite, format {FORMAT}: {failed} vector(s), "
                f"{len(broken)} rule(s)" + (f": {', '.join(broken)}" if broken else "")
                + f"; vectors {summary(outcomes)}")
    return (f"conforms to the fsm suite, format {FORMAT}: rules {ok} of {len(rules)}; "
            f"vectors {summary(outcomes)}")


def as_json(outcomes, docs, engine: str) -> dict:
    rules = by_rule(outcomes, docs)
    return {
        "engine": engine,
        "format": FORMAT,
        "outcomes": [{"id": o.id, "file": o.path, "status": o.status, "message": o.message,
                      "details": o.details} for o in outcomes],
        "rules": {rid: {"status": status(e), "passed": e[PASS], "failed": e[FAIL],
                        "skipped": e[SKIP]} for rid, e in rules.items()},
        "headline": headline(outcomes, docs),
        "summary": summary(outcomes),
    }


def markdown(outcomes, docs, engine: str) -> str:
    """The report for people, as Markdown; what an engine said is escaped
    (fsm.io.terminal.safe), backticks and bars included."""
    from ..io.terminal import safe

    def md(text) -> str:
        return safe(text).replace("|", "\\|").replace("`", "'")

    engine = md(engine)
    rules = by_rule(outcomes, docs)
    lines = [f"# Conformance of {engine}", "", f"**{headline(outcomes, docs)}**", "",
             "| rule | status | passed | failed | skipped | failing vectors |",
             "|---|---|---|---|---|---|"]
    for rid, e in rules.items():
        lines.append(f"| {rid} | {status(e)} | {len(e[PASS])} | {len(e[FAIL])} | "
                     f"{len(e[SKIP])} | {', '.join(f'`{v}`' for v in e[FAIL])} |")
    failed = [o for o in outcomes if o.status == FAIL]
    if failed:
        lines += ["", "## Failed vectors", ""]
        lines += [f"- `{md(o.id)}`: {md(o.message)}" for o in failed]
    return "\n".join(lines) + "\n"


_STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
    "padding:0 1rem;color:#222}h1{font-size:1.6rem;margin-bottom:.25rem}"
    "table{border-collapse:collapse;width:100%;margin:1rem 0;display:block;overflow-x:auto}"
    "th,td{border-bottom:1px solid #ddd;padding:.35rem .6rem;text-align:left;"
    "vertical-align:top}th{background:#f4f4f4}code{font-size:.9em}"
    "li{margin:.2rem 0}@media print{body{margin:0;max-width:none}a{color:inherit}}"
)


def html_page(outcomes, docs, engine: str) -> str:
    from ..io.terminal import safe
    engine = safe(engine)
    outcomes = [replace(o, id=safe(o.id), message=safe(o.message)) for o in outcomes]
    rules = by_rule(outcomes, docs)
    colour = {CONFORMS: "#1b7837", FAILS: "#b2182b", UNTESTED: "#6b6b6b"}
    rows = "\n".join(
        f"<tr><td>{html.escape(rid)}</td>"
        f"<td style=\"color:{colour[status(e)]}\"><strong>{status(e)}</strong></td>"
        f"<td>{len(e[PASS])}</td><td>{len(e[FAIL])}</td><td>{len(e[SKIP])}</td>"
        f"<td>{html.escape(', '.join(e[FAIL]))}</td></tr>"
        for rid, e in rules.items())
    failed = "".join(f"<li><code>{html.escape(o.id)}</code>: {html.escape(o.message)}</li>"
                     for o in outcomes if o.status == FAIL)
    title = f"Conformance of {html.escape(engine)}"
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{_STYLE}</style></head><body>\n<h1>{title}</h1>\n"
            f"<p><strong>{html.escape(headline(outcomes, docs))}</strong></p>\n"
            f"<table><thead><tr><th>rule</th><th>status</th><th>passed</th><th>failed</th>"
            f"<th>skipped</th><th>failing vectors</th></tr></thead><tbody>\n{rows}\n"
            f"</tbody></table>\n"
            + (f"<h2>Failed vectors</h2><ul>{failed}</ul>\n" if failed else "")
            + "</body></html>\n")
