"""A scenario's page: its steps replayed at build time by the real engine,
each with its verdict, reasons, cited rules, the explanation, the stack, the
budgets, the phase and the edges it took; a script steps through them on
the machine's picture. Without the script the table says it all."""

from __future__ import annotations

import json

from ..diagrams import Picture, render
from ..report import Citations, describe
from ..scenario import build, load_source, play_step
from .html import STEP_SCRIPT, esc, inline_svg, page, rule_link, table


class _Taken:
    """An observer of the encounter: the transitions each step takes."""

    def __init__(self):
        self.moves = []

    def on_transition(self, enc, trigger, source, dest, st):
        self.moves.append((trigger, source, dest))


def edge_titles(ruleset: str) -> dict:
    """(trigger, source, dest) -> the title of the overview's edge that draws it."""
    out = {}
    for group in Picture(ruleset, "overview").groups():
        for _, row in group.rows:
            for source in group.sources:
                out[(row.trigger, source, group.dest)] = f"{group.tail}->{group.dest}"
    return out


def _budgets(facts) -> str:
    return "; ".join(f"{who}: " + ", ".join(f"{k} {v}" for k, v in b.items())
                     for who, b in facts["budgets"].items())


def replay_steps(path) -> tuple:
    """(document, the start as a step, every step's record) for a scenario."""
    doc, lines = load_source(path)
    enc = build(doc, path)
    taken = enc.observer = _Taken()
    edges = edge_titles(doc["ruleset"])
    facts = enc.facts()
    start = {"what": "the encounter starts", "verdict": "", "reason": None, "rules": [],
             "explain": "", "phase": facts["state"], "stack": facts["stack"],
             "budgets": _budgets(facts), "edges": []}
    records = []
    for index, data in enumerate(doc["steps"], 1):
        taken.moves.clear()
        result = play_step(enc, data, path, index, lines)
        v = result.verdict
        facts = enc.facts()
        records.append({
            "what": describe(data), "verdict": v.verdict, "reason": v.reason,
            "rules": list(v.rules), "explain": v.says or "", "phase": facts["state"],
            "stack": facts["stack"], "budgets": _budgets(facts),
            "edges": sorted({edges[m] for m in taken.moves if m in edges})})
    return doc, start, records


def scenario_page(path, cites: Citations) -> str:
    doc, start, records = replay_steps(path)
    title = f"Scenario {doc.get('id')}"
    parts = []
    if doc.get("question"):
        parts.append(f"<p><strong>Question.</strong> {esc(doc['question'])}</p>")
    if doc.get("answer"):
        parts.append(f"<p><strong>Answer.</strong> {esc(doc['answer'])}</p>")
    if doc.get("description"):
        parts.append(f"<p class=\"note\">{esc(doc['description'])}</p>")
    parts.append(
        '<div id="step-panel" class="panel" hidden aria-live="polite">\n'
        '<p class="controls"><button id="prev" type="button">&larr; previous</button> '
        '<button id="next" type="button">next &rarr;</button> '
        '<span class="note">(or the arrow keys)</span></p>\n'
        '<p><strong data-field="step"></strong>: <span data-field="what"></span> '
        '&mdash; <span data-field="verdict"></span></p>\n'
        '<p>Rules cited: <span data-field="rules"></span></p>\n'
        '<p>Why: <span data-field="explain"></span></p>\n'
        '<p>Phase: <code data-field="phase"></code>; stack (top last): '
        '<span data-field="stack"></span></p>\n'
        '<p>Budgets: <span data-field="budgets"></span></p>\n</div>')
    parts.append(inline_svg(render(doc["ruleset"], "overview", "svg"), "machine",
                            lit_nodes=(start["phase"],)))
    rows = []
    for n, r in enumerate(records, 1):
        verdict = f'<span class="verdict-{esc(r["verdict"])}">{esc(r["verdict"])}</span>'
        if r["reason"]:
            verdict += f" <code>{esc(r['reason'])}</code>"
        cited = "<br>".join(f"{rule_link(rid, 1)} {esc(cites.statement(rid) or '')}"
                            for rid in r["rules"]) if r["verdict"] != "allowed" else \
            " ".join(rule_link(rid, 1) for rid in r["rules"])
        rows.append((f'<a id="step-{n}" href="#step-{n}">{n}</a>', esc(r["what"]), verdict,
                     cited, esc(r["explain"]), f"<code>{esc(r['phase'])}</code>"))
    body = table(("step", "what", "verdict", "rules", "why", "phase after"), rows)
    body = body.replace("<tr><td><a id=\"step-", "<tr data-step=\"X\"><td><a id=\"step-")
    for n in range(1, len(records) + 1):
        body = body.replace('<tr data-step="X">', f'<tr data-step="{n}">', 1)
    parts.append(body)
    data = json.dumps({"start": start, "steps": records}, ensure_ascii=False)
    data = data.replace("</", "<\\/")          # no end tag inside the script element
    parts.append(f'<script type="application/json" id="steps-data">{data}</script>')
    parts.append(f"<script>{STEP_SCRIPT}</script>")
    return page(title, "\n".join(parts), depth=1)
