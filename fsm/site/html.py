"""The pieces every page is made of: escaping, the page frame, links, and the
style sheet and script the site ships with (no file is fetched from
elsewhere when a page is viewed)."""

from __future__ import annotations

import html
import re

NAV = (("index.html", "Home"), ("rules.html", "Rules"), ("sources.html", "Texts"),
       ("reference.html", "Reasons and options"), ("vectors.html", "Vectors"))


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def page(title: str, body: str, depth: int = 0) -> str:
    """A whole page: ``depth`` is how many folders below the site's root it is."""
    up = "../" * depth
    nav = " · ".join(f'<a href="{up}{href}">{esc(name)}</a>' for href, name in NAV)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{esc(title)} · fsm</title>\n'
            f'<link rel="stylesheet" href="{up}style.css">\n</head>\n<body>\n'
            f'<nav aria-label="site">{nav}</nav>\n<main>\n<h1>{esc(title)}</h1>\n{body}\n'
            f'</main>\n</body>\n</html>\n')


def table(head, rows) -> str:
    th = "".join(f"<th scope=\"col\">{esc(h)}</th>" for h in head)
    trs = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                    for row in rows)
    return f"<table>\n<thead><tr>{th}</tr></thead>\n<tbody>\n{trs}\n</tbody>\n</table>"


def rule_link(rule_id: str, depth: int = 0) -> str:
    return f'<a href="{"../" * depth}rule/{esc(rule_id)}.html"><code>{esc(rule_id)}</code></a>'


def inline_svg(svg: bytes, css_class: str, lit_edges=(), lit_nodes=()) -> str:
    """An SVG picture to put in a page (its XML header dropped), with
    ``lit`` added to the class of the edges ("tail->head") and nodes named."""
    text = svg.decode("utf-8")
    text = text[text.index("<svg"):]
    text = text.replace("<svg ", f'<svg class="{css_class}" role="img" ', 1)

    def light(match):
        title = html.unescape(match.group(2))
        lit = title in lit_edges or title in lit_nodes
        return match.group(0).replace(match.group(1), match.group(1) + (" lit" if lit else ""), 1)

    return re.sub(r'<g id="[^"]+" (class="(?:edge|node))">\s*<title>([^<]*)</title>', light, text)


STYLE = """
:root { --ink: #1f1f1f; --muted: #555; --lit: #b35806; --ok: #1b5e20; --no: #8e2430;
        --gm: #4a3c8c; --line: #c8c8c8; --soft: #f5f5f5; }
body { font-family: system-ui, sans-serif; color: var(--ink); margin: 0; line-height: 1.45; }
nav { padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
main { padding: 0 1rem 2rem; max-width: 72rem; }
a { color: #1d4f91; }
a:focus, button:focus { outline: 3px solid var(--lit); outline-offset: 2px; }
table { border-collapse: collapse; margin: .8rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
th { background: var(--soft); }
code { font-size: .95em; }
.verdict-allowed { color: var(--ok); font-weight: bold; }
.verdict-rejected { color: var(--no); font-weight: bold; text-decoration: underline; }
.verdict-gm { color: var(--gm); font-weight: bold; font-style: italic; }
.machine { max-width: 100%; height: auto; }
.machine .lit ellipse, .machine .lit polygon, .machine .lit path { stroke: var(--lit) !important;
  stroke-width: 4px; }
.machine g.node.lit text { font-weight: bold; }
tr.current { outline: 3px solid var(--lit); }
.panel { border: 2px solid var(--line); padding: .6rem .8rem; margin: .8rem 0; }
.note { color: var(--muted); }
@media print { nav, .controls { display: none; } }
"""

STEP_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('steps-data').textContent);
  var panel = document.getElementById('step-panel');
  var svg = document.querySelector('svg.machine');
  var current = 0;
  function light(kind, names) {
    svg.querySelectorAll('g.' + kind).forEach(function (g) {
      var t = g.querySelector('title');
      var on = t && names.indexOf(t.textContent) >= 0;
      g.classList.toggle('lit', on);
    });
  }
  function show(n) {
    current = Math.max(0, Math.min(data.steps.length, n));
    var s = current === 0 ? data.start : data.steps[current - 1];
    panel.querySelector('[data-field=step]').textContent =
      current === 0 ? 'before the first step' : 'step ' + current + ' of ' + data.steps.length;
    panel.querySelector('[data-field=what]').textContent = s.what;
    var v = panel.querySelector('[data-field=verdict]');
    v.textContent = s.verdict + (s.reason ? ' (' + s.reason + ')' : '');
    v.className = s.verdict ? 'verdict-' + s.verdict : '';
    panel.querySelector('[data-field=rules]').textContent = s.rules.join(', ');
    panel.querySelector('[data-field=explain]').textContent = s.explain;
    panel.querySelector('[data-field=phase]').textContent = s.phase;
    panel.querySelector('[data-field=stack]').textContent = s.stack.join(' \\u2190 ') || 'empty';
    panel.querySelector('[data-field=budgets]').textContent = s.budgets;
    light('node', [s.phase]);
    light('edge', s.edges);
    document.querySelectorAll('tr[data-step]').forEach(function (tr) {
      tr.classList.toggle('current', Number(tr.dataset.step) === current);
    });
    if (current > 0) { history.replaceState(null, '', '#step-' + current); }
  }
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); }
    if (e.key === 'ArrowRight') { show(current + 1); }
  });
  var m = /^#step-(\\d+)$/.exec(location.hash);
  panel.hidden = false;
  show(m ? Number(m[1]) : 0);
})();
"""
