"""The compatibility report of a conformance run: which rules an engine
conforms to, vector by vector and rule by rule.

A rule **conforms** when every vector that covers it (its ``rules`` list)
passed, **fails** when one failed, and is **untested** when all of them were
skipped (the engine does not take their ruleset or options). The report is
JSON for machines (``fsm conformance --json``) and Markdown or HTML for
people (``--report FILE``), so that an engine can publish "conforms to the
fsm suite, format 1: rules X of Y".
"""

from __future__ import annotations

import html

from .vectors import FAIL, FORMAT, PASS, SKIP, summary

CONFORMS, FAILS, UNTESTED = "conforms", "fails", "untested"


def by_rule(outcomes, docs) -> dict:
    """rule id -> {passed: [...], failed: [...], skipped: [...]} (vector ids)."""
    rules_of = {path: doc.get("rules") or () for path, doc in docs}
    out: dict = {}
    for o in outcomes:
        for rid in rules_of.get(o.path, ()):
            entry = out.setdefault(rid, {PASS: [], FAIL: [], SKIP: []})
            entry[o.status].append(o.id)
    return dict(sorted(out.items()))


def status(entry: dict) -> str:
    if entry[FAIL]:
        return FAILS
    if entry[PASS]:
        return CONFORMS
    return UNTESTED


def headline(outcomes, docs) -> str:
    rules = by_rule(outcomes, docs)
    ok = sum(1 for e in rules.values() if status(e) == CONFORMS)
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
    rules = by_rule(outcomes, docs)
    lines = [f"# Conformance of {engine}", "", f"**{headline(outcomes, docs)}**", "",
             "| rule | status | passed | failed | skipped |", "|---|---|---|---|---|"]
    for rid, e in rules.items():
        lines.append(f"| {rid} | {status(e)} | {len(e[PASS])} | "
                     f"{', '.join(e[FAIL]) or 0} | {len(e[SKIP])} |")
    failed = [o for o in outcomes if o.status == FAIL]
    if failed:
        lines += ["", "## Failed vectors", ""]
        lines += [f"- `{o.id}`: {o.message}" for o in failed]
    return "\n".join(lines) + "\n"


def html_page(outcomes, docs, engine: str) -> str:
    rules = by_rule(outcomes, docs)
    colour = {CONFORMS: "#1b7837", FAILS: "#b2182b", UNTESTED: "#6b6b6b"}
    rows = "\n".join(
        f"<tr><td>{html.escape(rid)}</td>"
        f"<td style=\"color:{colour[status(e)]}\"><strong>{status(e)}</strong></td>"
        f"<td>{len(e[PASS])}</td><td>{html.escape(', '.join(e[FAIL])) or 0}</td>"
        f"<td>{len(e[SKIP])}</td></tr>"
        for rid, e in rules.items())
    failed = "".join(f"<li><code>{html.escape(o.id)}</code>: {html.escape(o.message)}</li>"
                     for o in outcomes if o.status == FAIL)
    title = f"Conformance of {html.escape(engine)}"
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{title}</title></head><body>\n<h1>{title}</h1>\n"
            f"<p><strong>{html.escape(headline(outcomes, docs))}</strong></p>\n"
            f"<table><thead><tr><th>rule</th><th>status</th><th>passed</th><th>failed</th>"
            f"<th>skipped</th></tr></thead><tbody>\n{rows}\n</tbody></table>\n"
            + (f"<h2>Failed vectors</h2><ul>{failed}</ul>\n" if failed else "")
            + "</body></html>\n")
