"""The pieces every page is made of: escaping, the page frame, links, and the
style sheets and scripts the site ships with (fsm/site/static/, copied into
the site: no file is fetched from elsewhere when a page is viewed)."""

from __future__ import annotations

import html
import re

NAV = (("index.html", "Home"), ("rules.html", "Rules"), ("sources.html", "Texts"),
       ("reference.html", "Reasons and options"), ("vectors.html", "Vectors"),
       ("mistakes.html", "Trackers' mistakes"))
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


def page(title: str, body: str, depth: int = 0, head: str = "", heading: str = "") -> str:
    """A whole page: ``depth`` is how many folders below the site's root it
    is; ``head``: more of its head (a style sheet, preloads); ``heading``:
    the class of its title (``question``: a question, set smaller)."""
    up = "../" * depth
    h1 = f'<h1 class="{heading}">' if heading else "<h1>"
    nav = _nav_links(up, NAV)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{esc(title)} · fsm</title>\n<link rel="icon" href="data:,">\n'
            f'<link rel="stylesheet" href="{up}style.css">\n{head}</head>\n<body>\n'
            f'<nav aria-label="site">{nav}</nav>\n<main>\n{h1}{esc(title)}</h1>\n{body}\n'
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

    text = re.sub(r'<g id="[^"]+" (class="(?:edge|node))">\s*<title>([^<]*)</title>', light, text)
    return f'<div class="picture-box">{text}</div>' if css_class == "machine" else text


def static(name: str) -> str:
    """A file of the site's own style or script (fsm/site/static/, package data)."""
    from importlib.resources import files
    return files("fsm.site").joinpath("static", name).read_text(encoding="utf-8")


# The files copied into every site: (name in the package's static folder, name in the site)
STATIC = (("style.css", "style.css"), ("steps.js", "js/steps.js"),
          ("scenario.js", "js/scenario.js"))
LIVE_STATIC = (("live.css", "live/live.css"), ("live.js", "live/live.js"),
               ("builder.js", "live/builder.js"), ("builder-choices.js", "live/builder-choices.js"),
               ("builder-grid.js", "live/builder-grid.js"))


def scripts(names, depth: int) -> str:
    """<script> elements for the site's script files ``names`` (site paths)."""
    up = "../" * depth
    return "".join(f'<script src="{up}{esc(n)}"></script>\n' for n in names)


def phase_list() -> str:
    """The machine's phases as a list, which stands in for its picture on a
    phone; the step-through lights the current one."""
    from ..engine.rows import PHASE_NAMES, PHASE_NOTES, STATES
    items = "".join(f'<li data-phase="{esc(p)}">{esc(PHASE_NAMES[p])}: {esc(PHASE_NOTES[p])}</li>'
                    for p in STATES)
    return f'<ol class="phases" aria-label="the phases of a turn">{items}</ol>'


def details_toggle() -> str:
    return ('<p class="controls"><button type="button" class="details-toggle" '
            'aria-pressed="false">Show the details: the rules cited, in the machine\'s own words'
            '</button></p>')


def step_panel() -> str:
    """The step-through's panel (hidden until the script shows it): the step
    in a player's words, and behind the details toggle in the machine's."""
    return ('<div id="step-panel" class="panel" hidden aria-live="polite">\n'
            '<p class="controls"><button id="prev" type="button">&larr; previous</button> '
            '<button id="next" type="button">next &rarr;</button> '
            '<span class="note keys-hint">(or the arrow keys)</span></p>\n'
            '<p><strong data-field="step"></strong>: <span data-field="title"></span></p>\n'
            '<p data-field="say"></p>\n<p class="cost" data-field="cost"></p>\n'
            '<p class="failures" data-field="failures"></p>\n'
            '<p>Now: <span data-field="moment"></span></p>\n'
            '<details class="purse"><summary>What each one has left</summary>'
            '<p data-field="purse"></p></details>\n'
            '<div class="machine-words"><p>As the machine says it: <code data-field="what">'
            '</code>, <span data-field="verdict"></span>; rules cited: '
            '<span data-field="rules"></span></p>\n<p>Why: <span data-field="explain"></span></p>\n'
            '<p>Phase: <span data-field="phase"></span>; stack (top last): '
            '<span data-field="stack"></span></p>\n'
            '<p>Budgets by their ids: <span data-field="budgets"></span></p></div>\n'
            '<div class="scene-now" data-field="scene" hidden></div>\n</div>')


def sequence_box(svg: str) -> str:
    """The sequence diagram under its heading; the step-through shows its
    rows up to the current step (all of them without the script)."""
    return ('<h2>Sequence</h2>\n<p class="note">A lane per combatant; with the '
            'step-through, up to the step shown.</p>\n'
            f'<div class="sequence-box">{svg}</div>')
