"""The compatibility report of a conformance run: which rules an engine
conforms to, vector by vector and rule by rule.

A rule **conforms** when every vector that covers it (its ``rules`` list)
ran and passed; it **fails** when a failed vector is charged to it or
declares it; it is **partial** when those of its vectors that ran passed
but others were skipped as outside the engine's declared support; it is
**untested** when all of its vectors were skipped. A
failed vector is *charged* to the rules of its first failing step, whatever
failed there (:func:`blamed`): the verdict's rules where the reference
refuses the step, the engine's check where it refused what the reference
allows, the rows the step fired (the machine's refreshes before it
included) where a fact is wrong; the rules it declares are shown beside it.
The headline counts the rules the engine's declared support reaches, and
says how many rules of its rulesets it left untested by what it left out,
so that leaving things out never buys a clean headline. The report is JSON
for machines (``fsm conformance --json``) and Markdown or HTML for people
(``--report FILE``), so that an engine can publish "conforms to the fsm
suite, format 1: rules X of the Y its declared support reaches".
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from .vectors import FAIL, FORMAT, PASS, SKIP, summary

CONFORMS, FAILS, PARTIAL, UNTESTED = "conforms", "fails", "partial", "untested"


def failing_step(outcome) -> int | None:
    """The number of the first step the engine got wrong, when it says."""
    for detail in outcome.details or ():
        head = detail.split(":", 1)[0]
        if head.startswith("step ") and head[5:].isdigit():
            return int(head[5:])
    return None


_GOT = re.compile(r"got (?:rejected \(|gm \(|reason )([a-z0-9-]+)")


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


class _Fired:
    """An observer noting the rows a step fires: the machine's own as it
    settles before the step, and the step's."""

    def __init__(self):
        self.rows: list = []

    def on_transition(self, enc, trigger, source, dest, st):
        table = enc.ruleset.table
        for row in table.by_pair.get((source, trigger), ()):
            if row.dest == dest:
                self.rows.append(row)
                break


def blamed(outcome, doc) -> tuple:
    """The rule ids a failed vector is charged to: those of its first failing
    step, whatever failed there. Where the reference refuses the step (or
    leaves it to the GM), the ids of the check that decided it, and of the
    engine's check when it gave another reason (either may be the one in
    error); where it allows the step, the ids of the engine's check (found
    by its reason, when it refused it), else the rules the rows the step fired implement,
    the machine's rows before it included (a refresh that came at the wrong
    moment, a fact that is wrong after the step, a reason no check of the
    step gives). When the failure is no step's (a
    crash, a hang, an unreadable answer) or the step could not be replayed,
    the rules the vector declares."""
    declared = tuple(doc.get("rules") or ()) if doc else ()
    n = failing_step(outcome)
    if n is None or not doc or n > len(doc.get("steps") or ()):
        return declared
    from ..errors import FsmError
    from ..scenario import build
    fired = _Fired()
    try:
        enc = build(doc, outcome.path)
        for data in doc["steps"][:n - 1]:
            enc.step({k: v for k, v in data.items() if k != "expect"})
        enc.observer = fired
        data = doc["steps"][n - 1]
        verdict = enc.step({k: v for k, v in data.items() if k != "expect"})
    except FsmError:
        return declared
    reasons = {m.group(1) for d in outcome.details or () if d.startswith(f"step {n}:")
               for m in _GOT.finditer(d)}
    table = enc.ruleset.table
    out: dict = {}
    if verdict.verdict != "allowed":
        out.update(dict.fromkeys(verdict.rules))
    for row in (*table.rows, *table.refusals):
        if row.step == data.get("do"):
            for g, rules in row.guards:
                if reasons & {g.reason, g.gm_reason}:
                    out.update(dict.fromkeys(rules))
    if verdict.verdict != "allowed":
        return tuple(out) or declared
    if not out:                    # the rules by which the reference allowed it
        for row in fired.rows:
            out.update(dict.fromkeys(row.rules))
    return tuple(out) or declared


CHARGED = "charged"      # failed vectors whose first failing step names the rule


def by_rule(outcomes, docs) -> dict:
    """rule id -> {passed, failed, skipped, charged: [vector ids], beyond:
    whether a vector of it was skipped as beyond the engine's declared
    support}. A failed vector counts as failed for the rules it is charged
    to and for those it declares (none of them conforms), and as charged
    only for the first."""
    doc_of = dict(docs)
    out: dict = {}

    def entry(rid):
        return out.setdefault(rid, {PASS: [], FAIL: [], SKIP: [], CHARGED: [],
                                    "beyond": False})

    def add(rid, status, vid):
        if vid not in entry(rid)[status]:
            entry(rid)[status].append(vid)

    for o in outcomes:
        doc = doc_of.get(o.path) or {}
        declared = doc.get("rules") or ()
        if o.status == FAIL:
            for rid in blamed(o, doc):
                add(rid, CHARGED, o.id)
                add(rid, FAIL, o.id)
            for rid in declared:
                add(rid, FAIL, o.id)
            continue
        for rid in declared:
            add(rid, o.status, o.id)
            if o.status == SKIP and _beyond(o.message):
                entry(rid)["beyond"] = True
    return dict(sorted(out.items()))


def _beyond(message: str) -> bool:
    """Whether a skip is the engine's own choice of what to model (an option
    value, a step kind or field, the scene), not a ruleset it never claimed."""
    return not message.startswith("ruleset ")


def status(entry: dict) -> str:
    if entry[FAIL]:
        return FAILS
    if entry[PASS]:
        return PARTIAL if entry["beyond"] else CONFORMS
    return UNTESTED


def headline(outcomes, docs) -> str:
    """One line: "conforms ..." only when no vector failed and some ran; the
    rules counted are those the engine's declared support reaches, and the
    rules of its rulesets it left untested by what it left out are said."""
    rules = by_rule(outcomes, docs)
    ok = sum(1 for e in rules.values() if status(e) == CONFORMS)
    reached = sum(1 for e in rules.values() if e[PASS] or e[FAIL])
    left_out = sum(1 for e in rules.values() if status(e) == UNTESTED and e["beyond"])
    partial = sum(1 for e in rules.values() if status(e) == PARTIAL)
    failed = sum(1 for o in outcomes if o.status == FAIL)
    untested = (f"; {partial} rule(s) tested in part only: some of their vectors outside "
                f"its declared support" if partial else "") + \
        (f"; {left_out} rule(s) of its rulesets untested: outside its declared support"
         if left_out else "")
    if failed:
        charged = [rid for rid, e in rules.items() if e[CHARGED]]
        covered = [rid for rid, e in rules.items() if status(e) == FAILS and not e[CHARGED]]
        return (f"fails the fsm suite, format {FORMAT}: {failed} vector(s) failed, charged "
                f"to {len(charged)} rule(s)" + (f": {', '.join(charged)}" if charged else "")
                + (f"; {len(covered)} more rule(s) covered by a failed vector" if covered
                   else "") + f"{untested}; vectors {summary(outcomes)}")
    if not reached:
        return (f"tested nothing of the fsm suite, format {FORMAT}: every vector was "
                f"skipped{untested}; vectors {summary(outcomes)}")
    return (f"conforms to the fsm suite, format {FORMAT}: rules {ok} of the {reached} its "
            f"declared support reaches{untested}; vectors {summary(outcomes)}")


def charges(outcome, doc_of) -> str:
    """'charged to A, B; declares C, D': a failed vector's rules, in words."""
    doc = doc_of.get(outcome.path) or {}
    charged = blamed(outcome, doc)
    declared = [r for r in doc.get("rules") or () if r not in charged]
    return "charged to " + (", ".join(charged) or "no rule") + \
        (f"; declares {', '.join(declared)}" if declared else "")


def as_json(outcomes, docs, engine: str) -> dict:
    rules = by_rule(outcomes, docs)
    doc_of = dict(docs)
    return {
        "engine": engine,
        "format": FORMAT,
        "outcomes": [{"id": o.id, "file": o.path, "status": o.status, "message": o.message,
                      "details": o.details,
                      **({"charged": list(blamed(o, doc_of.get(o.path) or {}))}
                         if o.status == FAIL else {})} for o in outcomes],
        "rules": {rid: {"status": status(e), "passed": e[PASS], "failed": e[FAIL],
                        "charged": e[CHARGED], "skipped": e[SKIP],
                        "outside_support": e["beyond"] and status(e) == UNTESTED}
                  for rid, e in rules.items()},
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
             "| rule | status | passed | failed | charged | skipped | failing vectors |",
             "|---|---|---|---|---|---|---|"]
    for rid, e in rules.items():
        lines.append(f"| {rid} | {status(e)} | {len(e[PASS])} | {len(e[FAIL])} | "
                     f"{len(e[CHARGED])} | {len(e[SKIP])} | "
                     f"{', '.join(f'`{md(v)}`' for v in e[FAIL])} |")
    failed = [o for o in outcomes if o.status == FAIL]
    if failed:
        doc_of = dict(docs)
        lines += ["", "## Failed vectors", ""]
        lines += [f"- `{md(o.id)}`: {md(o.message)} ({md(charges(o, doc_of))})"
                  for o in failed]
    return "\n".join(lines) + "\n"


def _style() -> str:
    """The report's style sheet (report.css beside this module)."""
    from pathlib import Path
    return (Path(__file__).with_name("report.css")).read_text(encoding="utf-8")


def html_page(outcomes, docs, engine: str) -> str:
    from ..io.terminal import safe
    engine = safe(engine)
    outcomes = [replace(o, id=safe(o.id), message=safe(o.message)) for o in outcomes]
    rules = by_rule(outcomes, docs)
    rows = "\n".join(
        f"<tr><td>{html.escape(rid)}</td>"
        f"<td class=\"{status(e)}\"><strong>{status(e)}</strong></td>"
        f"<td>{len(e[PASS])}</td><td>{len(e[FAIL])}</td><td>{len(e[CHARGED])}</td>"
        f"<td>{len(e[SKIP])}</td><td>{html.escape(', '.join(e[FAIL]))}</td></tr>"
        for rid, e in rules.items())
    doc_of = dict(docs)
    failed = "".join(f"<li><code>{html.escape(o.id)}</code>: {html.escape(o.message)} "
                     f"({html.escape(charges(o, doc_of))})</li>"
                     for o in outcomes if o.status == FAIL)
    title = f"Conformance of {html.escape(engine)}"
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{_style()}</style></head><body>\n<h1>{title}</h1>\n"
            f"<p><strong>{html.escape(headline(outcomes, docs))}</strong></p>\n"
            f"<table><thead><tr><th>rule</th><th>status</th><th>passed</th><th>failed</th>"
            f"<th>charged</th><th>skipped</th><th>failing vectors</th></tr></thead><tbody>\n"
            f"{rows}\n"
            f"</tbody></table>\n"
            + (f"<h2>Failed vectors</h2><ul>{failed}</ul>\n" if failed else "")
            + "</body></html>\n")
