"""A scenario's page: its steps replayed at build time by the real engine,
each with its verdict, reasons, cited rules, the explanation, the stack, the
budgets, the phase and the edges it took; a script steps through them on
the machine's picture. Without the script the table says it all."""

from __future__ import annotations

import json
from pathlib import Path

from ..diagrams import Picture, render
from ..engine.rows import PHASE_NOTES
from ..report import Citations
from ..scenario import load_source
from .html import (details_toggle, esc, inline_svg, page, phase_list, prose, rule_link,
                   scripts, sequence_box, step_panel)
from .trace import move_key, trace
from .words import split_say


def edge_titles(ruleset: str) -> dict:
    """:func:`~.trace.move_key` of each row's transition -> the title of the
    overview's edge that draws it."""
    out = {}
    for group in Picture(ruleset, "overview").groups():
        for _, row in group.rows:
            for source in group.sources:
                out[move_key(row.trigger, source, group.dest)] = f"{group.tail}->{group.dest}"
    return out


def replay_steps(path) -> tuple:
    """(document, the start as a step, every step's record, the sequence
    diagram as SVG, the replay) for a scenario."""
    doc, lines = load_source(path)
    return (doc, *trace(doc, path, lines, edge_titles(doc["ruleset"])))


def _copy_post(replay, cites) -> str:
    """Buttons that copy the verdict table as Markdown and as BBCode, as ``fsm
    check --format markdown|bbcode`` writes it (options and rule statements
    included), for a forum post; the texts sit in the page, so they read
    without the script."""
    from ..report import bbcode, markdown
    return copy_boxes({"markdown": markdown(replay, cites), "bbcode": bbcode(replay, cites)})


def copy_boxes(texts: dict) -> str:
    """The verdicts as Markdown and as BBCode, each in a text box with a Copy
    button (``texts``: their text by format; empty for the live page, whose
    script fills them)."""
    out = []
    for name, label in (("markdown", "Markdown"), ("bbcode", "BBCode")):
        out.append(f'<details class="controls"><summary>The verdicts as {label}</summary>\n'
                   f'<p><button type="button" data-copy="{name}-text" id="copy-{name}">Copy'
                   f'</button> <span class="note" data-said="{name}-text"></span></p>\n'
                   f'<textarea id="{name}-text" rows="8" cols="72" readonly>'
                   f'{esc(texts.get(name, ""))}</textarea></details>')
    return "\n".join(out)


def live_link(text: str, depth: int = 1) -> str:
    """The live checker's address holding ``text`` (its ``#scenario=``)."""
    import base64
    encoded = base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    return "../" * depth + f"live/index.html#scenario={encoded}"


def verdict_table(records, cites) -> str:
    """The verdicts, a row per step (a card on a phone): who does what, the
    verdict in a player's words and what it spent; the machine's own words
    (the step as fsm check writes it, the reason code, the rules, why, the
    phase after it) behind the details toggle."""
    rows = []
    for n, r in enumerate(records, 1):
        verdict = f'<span class="verdict-{esc(r["verdict"])}">{esc(r["verdict"])}</span>'
        if r["reason"]:
            verdict += f" <code>{esc(r['reason'])}</code>"
        cited = "<br>".join(f"{rule_link(rid, 1)} {prose(cites.statement(rid) or '')}"
                            for rid in r["rules"]) if r["verdict"] != "allowed" else \
            " ".join(rule_link(rid, 1) for rid in r["rules"])
        head, said = split_say(r["say"])
        machine = (f'<div class="machine-words"><code>{esc(r["what"])}</code>: {verdict}'
                   f'<br>{cited}<br>{esc(r["explain"])}<br>after it: '
                   f'<span title="{esc(r["phase"])}">{esc(PHASE_NOTES[r["phase"]])}</span></div>')
        cost = f'<span class="cost">Spent: {esc(r["cost"])}</span>' if r["cost"] else ""
        rows.append(f'<tr data-step="{n}" data-verdict="{esc(r["verdict"])}">'
                    f'<td class="n"><a id="row-{n}" href="#step-{n}">{n}</a></td>'
                    f'<td class="what">{esc(r["title"])}</td>'
                    f'<td class="say"><span class="verdict-{esc(r["verdict"])}">{esc(head)}'
                    f'</span>{esc(said)}{cost}{machine}</td></tr>')
    return ('<table class="verdicts cards">\n<thead><tr><th scope="col">step</th>'
            '<th scope="col">what happens</th><th scope="col">verdict</th></tr></thead>\n'
            '<tbody>\n' + "\n".join(rows) + '\n</tbody>\n</table>')


def scenario_page(path, cites: Citations, live: bool = False) -> str:
    """A scenario's page; in a ``--live`` build it opens in the live checker."""
    doc, start, records, sequence, replay = replay_steps(path)
    question = doc.get("question") if isinstance(doc.get("question"), str) else ""
    title = question or f"Scenario {doc.get('id') or Path(path).stem}"   # the tab says it
    parts = []
    if doc.get("answer"):
        parts.append(f"<p><strong>Answer.</strong> {prose(doc['answer'])}</p>")
    if doc.get("description"):
        parts.append(f"<p class=\"note\">{esc(doc['description'])}</p>")
    parts.append(f"<p><strong>Options.</strong> {esc(start['options'])}</p>")
    if live:
        href = live_link(Path(path).read_text(encoding="utf-8"))
        parts.append(f'<p><a class="open-live" href="{esc(href)}">Open it in the live '
                     'checker</a>: change a step, or go on from any step by clicking.</p>')
    parts.append(details_toggle())
    parts.append(step_panel())
    parts.append(inline_svg(render(doc["ruleset"], "overview", "svg"), "machine",
                            lit_nodes=(start["phase"],)) + phase_list())
    parts.append(sequence_box(sequence))
    parts.append(verdict_table(records, cites))
    parts.append(_copy_post(replay, cites))
    data = json.dumps({"start": start, "steps": records}, ensure_ascii=False)
    data = data.replace("</", "<\\/")          # no end tag inside the script element
    parts.append(f'<script type="application/json" id="steps-data">{data}</script>')
    parts.append(scripts(("js/steps.js", "js/scenario.js"), 1))
    return page(title, "\n".join(parts), depth=1, heading="question" if question else "")
