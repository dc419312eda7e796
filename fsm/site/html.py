"""The pieces every page is made of: escaping, the page frame, links, and the
style sheet and script the site ships with (no file is fetched from
elsewhere when a page is viewed)."""

from __future__ import annotations

import html
import re

NAV = (("index.html", "Home"), ("rules.html", "Rules"), ("sources.html", "Texts"),
       ("reference.html", "Reasons and options"), ("vectors.html", "Vectors"))
LIVE_NAV = ("live/index.html", "Live checker")      # in a --live build


def esc(text) -> str:
    return html.escape(str(text), quote=True)


_CODE = re.compile(r"`([^`]+)`")
_SLOT = re.compile(r"\{([a-z_]+)\}")


def prose(text) -> str:
    """Our words for people, escaped, each `name` in backticks set as code."""
    return _CODE.sub(r"<code>\1</code>", esc(text))


def template(text) -> str:
    """A message with slots ('{actor} may ...'), escaped, each slot in words
    and set apart (the verdict puts what it names there); ``{scene}`` is an
    optional clause about positions."""
    def slot(m):
        name = m.group(1)
        words = "…" if name == "scene" else name.replace("_", " ")
        return f'<var class="slot">{words}</var>'
    return _SLOT.sub(slot, esc(text))


def page(title: str, body: str, depth: int = 0) -> str:
    """A whole page: ``depth`` is how many folders below the site's root it is."""
    up = "../" * depth
    nav = _nav_links(up, NAV)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{esc(title)} · fsm</title>\n<link rel="icon" href="data:,">\n'
            f'<link rel="stylesheet" href="{up}style.css">\n</head>\n<body>\n'
            f'<nav aria-label="site">{nav}</nav>\n<main>\n<h1>{esc(title)}</h1>\n{body}\n'
            f'</main>\n{_footer()}</body>\n</html>\n')


def _footer() -> str:
    """The notices the rulesets' texts ask of a work that uses them."""
    from ..rulesets import RULESETS
    notices = [rs.attribution for rs in RULESETS.values() if rs.attribution]
    if not notices:
        return ""
    return "<footer>" + "".join(f"<p>{esc(n)}</p>" for n in notices) + "</footer>\n"


def _nav_links(up: str, entries) -> str:
    return " · ".join(f'<a href="{up}{href}">{esc(name)}</a>' for href, name in entries)


def link_live(text: str, depth: int) -> str:
    """A page of a ``--live`` build: its navigation (written by :func:`page`)
    also links the live checker."""
    link = _nav_links("../" * depth, (LIVE_NAV,))
    return text.replace("</nav>", f" · {link}</nav>", 1)


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
/* on a narrow screen a wide table scrolls inside itself; long ids and code wrap */
table { border-collapse: collapse; margin: .8rem 0; display: block; max-width: 100%;
        overflow-x: auto; }
body { overflow-wrap: break-word; }
td code, li code, p code { overflow-wrap: anywhere; }
main > svg, .panel svg { max-width: 100%; height: auto; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
th { background: var(--soft); }
code { font-size: .95em; }
td > code:only-child { white-space: nowrap; }
var.slot { font-style: italic; color: var(--muted); border-bottom: 1px dotted var(--muted); }
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
.failures { color: var(--no); font-weight: bold; }
.sequence-box { overflow-x: auto; }
.sequence g.later { display: none; }
.sequence .seq-refused { fill: var(--no); font-style: italic; }
textarea { font-family: ui-monospace, monospace; max-width: 100%; }
select { max-width: 100%; }
footer { padding: .5rem 1rem 1.5rem; max-width: 72rem; color: var(--muted); }
.builder { border: 2px solid var(--line); padding: .2rem .8rem .6rem; margin: .8rem 0; }
.builder h3 { margin: .8rem 0 .3rem; font-size: 1rem; }
button.choice { margin: .15rem 0; }
button.choice:disabled { text-decoration: line-through; font-weight: normal; }
button.details { margin: .15rem .2rem .15rem 0; }
.field { white-space: nowrap; margin-right: .5rem; }
.grid { display: grid; gap: 1px; width: max-content; max-width: 100%; overflow-x: auto;
        margin: .4rem 0; }
.square { width: 1.9em; height: 1.9em; border: 1px solid var(--line); background: #fff;
          display: flex; align-items: center; justify-content: center; padding: 0;
          font-size: .75rem; }
.square.taken { background: #e3edf9; font-weight: bold; }
.square.marked { background: #ffd9a8; }
@media (max-width: 40rem) { main { padding: 0 .6rem 2rem; } nav { padding: .5rem .6rem; } }
@media print { nav, .controls { display: none; } }
"""

def step_panel() -> str:
    """The step-through's panel (hidden until the script shows it)."""
    return ('<div id="step-panel" class="panel" hidden aria-live="polite">\n'
            '<p class="controls"><button id="prev" type="button">&larr; previous</button> '
            '<button id="next" type="button">next &rarr;</button> '
            '<span class="note">(or the arrow keys)</span></p>\n'
            '<p><strong data-field="step"></strong>: <span data-field="what"></span> '
            '<span data-field="verdict"></span></p>\n'
            '<p>Rules cited: <span data-field="rules"></span></p>\n'
            '<p>Why: <span data-field="explain"></span></p>\n'
            '<p class="failures" data-field="failures"></p>\n'
            '<p>Now: <span data-field="phase"></span>; stack (top last): '
            '<span data-field="stack"></span></p>\n'
            '<p>Budgets: <span data-field="budgets"></span></p>\n'
            '<div class="scene-now" data-field="scene" hidden></div>\n</div>')


def sequence_box(svg: str) -> str:
    """The sequence diagram under its heading; the step-through shows its
    rows up to the current step (all of them without the script)."""
    return ('<h2>Sequence</h2>\n<p class="note">A lane per combatant; with the '
            'step-through, up to the step shown.</p>\n'
            f'<div class="sequence-box">{svg}</div>')


# fsmSteps(data, svg, onShow): step through data.steps on the panel above,
# lighting the phase and the taken edges on ``svg`` and the current row of
# tr[data-step]; ``onShow(n)`` is told each step shown. One stepper at a
# time answers the buttons and the arrow keys.
STEP_SCRIPT = """
(function () {
  var active = null;
  var panel = document.getElementById('step-panel');
  function light(svg, kind, names) {
    svg.querySelectorAll('g.' + kind).forEach(function (g) {
      var t = g.querySelector('title');
      g.classList.toggle('lit', Boolean(t) && names.indexOf(t.textContent) >= 0);
    });
  }
  function field(name, text) { panel.querySelector('[data-field=' + name + ']').textContent = text; }
  function show(st, n) {
    var data = st.data;
    st.current = Math.max(0, Math.min(data.steps.length, n));
    var s = st.current === 0 ? data.start : data.steps[st.current - 1];
    field('step', st.current === 0 ? 'before the first step'
                                    : 'step ' + st.current + ' of ' + data.steps.length);
    field('what', s.what);
    field('verdict', s.verdict ? '\u2014 ' + s.verdict + (s.reason ? ' (' + s.reason + ')' : '')
                               : '(no step judged yet)');
    panel.querySelector('[data-field=verdict]').className = s.verdict ? 'verdict-' + s.verdict : '';
    field('rules', s.rules.join(', '));
    field('explain', s.explain);
    field('failures', s.failures.length ? 'Expected, and not so: ' + s.failures.join('; ') : '');
    field('phase', s.now || s.phase);
    field('stack', (s.on_stack || s.stack).join(' \\u2190 ') || 'empty');
    field('budgets', s.budgets);
    var scene = panel.querySelector('[data-field=scene]');   // drawn by fsm.site.scene_svg
    scene.innerHTML = s.scene || '';
    scene.hidden = !s.scene;
    light(st.svg, 'node', [s.phase]);
    light(st.svg, 'edge', s.edges);
    document.querySelectorAll('tr[data-step]').forEach(function (tr) {
      tr.classList.toggle('current', Number(tr.dataset.step) === st.current);
    });
    document.querySelectorAll('g[data-seq-step]').forEach(function (g) {
      g.classList.toggle('later', Number(g.dataset.seqStep) > st.current);
    });
    if (st.onShow) { st.onShow(st.current); }
  }
  document.getElementById('prev').addEventListener('click', function () {
    if (active) { show(active, active.current - 1); } });
  document.getElementById('next').addEventListener('click', function () {
    if (active) { show(active, active.current + 1); } });
  document.addEventListener('keydown', function (e) {
    if (!active || (e.target && /^(TEXTAREA|INPUT|SELECT)$/.test(e.target.tagName))) { return; }
    if (e.key === 'ArrowLeft') { show(active, active.current - 1); }
    if (e.key === 'ArrowRight') { show(active, active.current + 1); }
  });
  // a Copy button copies the text box it names (the verdicts for a post)
  document.querySelectorAll('button[data-copy]').forEach(function (copy) {
    copy.addEventListener('click', function () {
      var text = document.getElementById(copy.dataset.copy);
      var said = document.querySelector('[data-said="' + copy.dataset.copy + '"]');
      function done() { said.textContent = 'copied'; }
      function select() { text.select(); said.textContent = 'selected: press Ctrl+C to copy'; }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text.value).then(done, select);
      } else { select(); }
    });
  });
  window.fsmShow = function (n) { if (active) { show(active, n); } };
  window.fsmSteps = function (data, svg, onShow, first) {
    active = {data: data, svg: svg, onShow: onShow, current: 0};
    panel.hidden = false;
    show(active, first || 0);
  };
})();
"""

# A scenario page: its steps are in #steps-data; #step-N is the step shown.
SCENARIO_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('steps-data').textContent);
  var m = /^#step-(\\d+)$/.exec(location.hash);
  window.fsmSteps(data, document.querySelector('svg.machine'), function (n) {
    if (n > 0) { history.replaceState(null, '', '#step-' + n); }
  }, m ? Number(m[1]) : 0);
  // a link to step N (#step-N: no element has that id) shows its panel and
  // the picture after it; a step number in the table links there too
  function toPanel() { document.getElementById('step-panel').scrollIntoView(); }
  if (m) { toPanel(); }
  window.addEventListener('hashchange', function () {
    var k = /^#step-(\\d+)$/.exec(location.hash);
    if (k) { window.fsmShow(Number(k[1])); toPanel(); }
  });
})();
"""
