"""The sequence diagram of a scenario drawn as SVG for a page, from the
statements :func:`fsm.diagrams.sequence.sequence_rows` gives (the same ones
the committed Mermaid files hold), so that no diagram library has to run in
the browser. Each statement's row carries the step it belongs to
(``data-seq-step``): the step-through shows the rows up to the current step.

Only the statements the project writes are read: participants, notes over
one or more lanes, messages (``->>``) and refused messages (``-x``), the
loss band (``rect`` ... ``end``); activations are not drawn.
"""

from __future__ import annotations

import re
from html import escape

LANE = 210            # width of a combatant's lane
ROW = 30              # height of one statement
TOP = 48              # the lane titles
CHAR = 6.6            # average width of a character at 12px, to size note boxes
WIDEST = 7.6          # a generous width of one, to size the picture: no label is cut
MESSAGE = re.compile(r"^(\w+)(->>|-x)(\w+): (.*)$")
NOTE = re.compile(r"^Note over (\w+)(?:,(\w+))?: (.*)$")
PARTICIPANT = re.compile(r"^participant (\w+) as (.*)$")


def _fit(text: str, width: float) -> str:
    most = max(4, int(width / CHAR))
    return text if len(text) <= most else text[:most - 1] + "…"


class _Bounds:
    """How far left and right the drawn texts reach (estimated generously),
    so that the picture's view box holds every one of them whole."""

    def __init__(self):
        self.low, self.high = 0.0, 0.0

    def hold(self, x, text, anchor) -> None:
        size = len(text) * WIDEST
        left = x if anchor == "start" else x - size / 2
        self.low, self.high = min(self.low, left), max(self.high, left + size)


def _text(x, y, text, bounds=None, anchor="middle", css="") -> str:
    """A label, whole; ``bounds`` (if given) learns how far it reaches."""
    if bounds is not None:
        bounds.hold(x, text, anchor)
    cls = f' class="{css}"' if css else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}" font-size="12"{cls}>'
            f'{escape(text)}</text>')


def sequence_svg(rows, title: str = "sequence") -> str:
    """An SVG element (text) for ``rows`` of (step, statement)."""
    lanes, body, loss, y, bounds = {}, [], False, TOP, _Bounds()
    for step, line in rows:
        line = line.strip()
        m = PARTICIPANT.match(line)
        if m:
            lanes[m.group(1)] = m.group(2)
            continue
        if line.startswith("rect "):
            loss = True
            continue
        if line == "end":
            loss = False
            continue
        drawn = _statement(line, lanes, y + ROW / 2, loss, bounds)
        if drawn is None:
            continue
        body.append(f'<g class="seq-row" data-seq-step="{step}"><title>{escape(line)}</title>'
                    f'{drawn}</g>')
        y += ROW
    left = min(0, int(bounds.low) - 8)
    width = max(LANE * max(1, len(lanes)) + 20, int(bounds.high) + 8) - left
    height = y + 12
    heads = []
    for i, name in enumerate(lanes.values()):
        x = _x(i)
        heads.append(f'<rect x="{x - LANE / 2 + 8:.0f}" y="6" width="{LANE - 16}" height="28" '
                     f'rx="4" fill="#f5f5f5" stroke="#555"/>'
                     + _text(x, 25, _fit(name, LANE - 24))
                     + f'<line x1="{x:.0f}" y1="34" x2="{x:.0f}" y2="{height:.0f}" '
                       f'stroke="#c8c8c8" stroke-dasharray="4 3"/>')
    marker = ('<defs><marker id="seq-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
              'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
              '<path d="M0,0 L10,5 L0,10 z" fill="#1f1f1f"/></marker></defs>')
    return (f'<svg class="sequence" role="img" aria-label="{escape(title)}" '
            f'xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
            f'viewBox="{left} 0 {width} {height:.0f}" font-family="system-ui, sans-serif">'
            f'{marker}{"".join(heads)}{"".join(body)}</svg>')


def _x(index: int) -> float:
    return 10 + LANE * index + LANE / 2


def _widened(left, right, needed, lanes) -> tuple:
    """A note's box grown about its middle to hold ``needed`` pixels of text:
    it covers its neighbours' lanes rather than cut its words, and starts no
    further left than the first lane (the picture grows to the right)."""
    low = _x(0) - LANE / 2 + 14
    if right - left >= needed:
        return left, right
    left = max(low, (left + right) / 2 - needed / 2)
    return left, left + needed


def _statement(line, lanes, y, loss, bounds) -> str | None:
    order = list(lanes)
    m = NOTE.match(line)
    if m and m.group(1) in lanes:
        first = order.index(m.group(1))
        last = order.index(m.group(2)) if m.group(2) in lanes else first
        left, right = _x(min(first, last)) - LANE / 2 + 14, _x(max(first, last)) + LANE / 2 - 14
        left, right = _widened(left, right, len(m.group(3)) * WIDEST + 16, len(order))
        fill = "#fde0dc" if loss else "#fff8e1"
        return (f'<rect x="{left:.0f}" y="{y - 11:.0f}" width="{right - left:.0f}" height="22" '
                f'fill="{fill}" stroke="#b0a070"/>'
                + _text((left + right) / 2, y + 4, m.group(3), bounds))
    m = MESSAGE.match(line)
    if m and m.group(1) in lanes and m.group(3) in lanes:
        a, b = _x(order.index(m.group(1))), _x(order.index(m.group(3)))
        refused = m.group(2) == "-x"
        stroke = ' stroke="#8e2430" stroke-dasharray="5 3"' if refused else ' stroke="#1f1f1f"'
        if a == b:
            shape = (f'<path d="M{a:.0f},{y - 4:.0f} h28 v10 h-26" fill="none"{stroke}'
                     + ('/>' if refused else ' marker-end="url(#seq-arrow)"/>'))
            label = _text(a + 34, y + 4, m.group(4), bounds, "start",
                          "seq-refused" if refused else "")
        else:
            end = b - 6 if b > a else b + 6
            shape = (f'<line x1="{a:.0f}" y1="{y + 6:.0f}" x2="{end:.0f}" y2="{y + 6:.0f}"'
                     f'{stroke}' + ('/>' if refused else ' marker-end="url(#seq-arrow)"/>'))
            label = _text((a + b) / 2, y, m.group(4), bounds, "middle",
                          "seq-refused" if refused else "")
        if refused:
            tip = b if a != b else a + 28
            shape += (f'<path d="M{tip - 5:.0f},{y + 1:.0f} l10,10 m0,-10 l-10,10" '
                      f'stroke="#8e2430" stroke-width="2"/>')
        return shape + label
    return None
