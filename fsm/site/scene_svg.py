"""The scene as a grid, for a page: where each combatant stands after a
step, and the squares the step's path entered.

Drawn from the encounter's positions (``Encounter.facts()["positions"]``);
every text is escaped and inside the picture's view box.
"""

from __future__ import annotations

from html import escape

CELL = 26          # pixels a square
MARGIN = 1         # squares shown around the combatants and the path
LEGEND_LINE = 16
INK, GRID, PATH = "#222222", "#c8c8c8", "#c0392b"
CHAR = 7.2         # the widest a legend character is drawn, in pixels


def initials(positions: dict) -> dict:
    """A short mark per combatant (its first letters, longer where two would clash)."""
    out = {}
    for cid in positions:
        n = 2
        while any(v == cid[:n] for v in out.values()) and n < len(cid):
            n += 1
        out[cid] = cid[:n]
    return out


def scene_svg(positions: dict, reach: dict | None = None, path=(), title="the scene") -> str:
    """An SVG grid of ``positions`` ({id: [x, y]}); the legend gives each
    ``reach`` ({id: squares}) that is not 1; ``path`` marks squares in order."""
    reach = reach or {}
    squares = [tuple(p) for p in positions.values()] + [tuple(p) for p in path]
    xs, ys = [x for x, _ in squares], [y for _, y in squares]
    x0, x1 = min(xs) - MARGIN, max(xs) + MARGIN
    y0, y1 = min(ys) - MARGIN, max(ys) + MARGIN
    marks = initials(positions)
    legend = [f"{marks[c]} = {c} at ({p[0]},{p[1]})" + (f", reach {reach[c]}" if reach.get(c, 1) != 1
                                                         else "")
              for c, p in positions.items()]
    if path:
        legend.append("1, 2, ...: the squares the step entered, in order")
    grid_w, grid_h = (x1 - x0 + 1) * CELL, (y1 - y0 + 1) * CELL
    width = max(grid_w, int(max(len(t) for t in legend) * CHAR) + 4)
    height = grid_h + 6 + LEGEND_LINE * len(legend)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="scene" role="img" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>"]

    def at(x, y):
        return (x - x0) * CELL, (y - y0) * CELL

    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            px, py = at(x, y)
            out.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="#ffffff" '
                       f'stroke="{GRID}"><title>({x},{y})</title></rect>')
    for n, (x, y) in enumerate(path, 1):
        px, py = at(x, y)
        out.append(f'<text x="{px + CELL - 3}" y="{py + 10}" text-anchor="end" font-size="9" '
                   f'fill="{PATH}">{n}</text>')
        out.append(f'<rect x="{px + 2}" y="{py + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                   f'fill="none" stroke="{PATH}" stroke-width="2"/>')
    for cid, (x, y) in positions.items():
        px, py = at(x, y)
        out.append(f'<g class="who"><title>{escape(cid)} at ({x},{y})</title>'
                   f'<circle cx="{px + CELL / 2}" cy="{py + CELL / 2}" r="{CELL / 2 - 3}" '
                   f'fill="#fdf1d3" stroke="{INK}"/>'
                   f'<text x="{px + CELL / 2}" y="{py + CELL / 2 + 4}" text-anchor="middle" '
                   f'font-size="10" fill="{INK}">{escape(marks[cid])}</text></g>')
    for n, line in enumerate(legend):
        out.append(f'<text x="2" y="{grid_h + 6 + LEGEND_LINE * (n + 1) - 4}" '
                   f'fill="{INK}">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)
