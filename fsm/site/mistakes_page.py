"""The page for tracker authors: the trackers' mistakes (``mistakes.html``).

For each mistake of :func:`fsm.conformance.mistakes.catalogue`: what goes
wrong, what the texts say instead, the public reports that show it, and for
each ruleset it applies to, the rules it breaks there and the first vectors
that catch it in an engine reporting verdicts and reason codes only, each
named by its file so that a tracker's author can run it.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

from ..rulesets import RULESETS
from .html import esc, page, prose, rule_link

SHOWN = 3                        # vectors named per mistake and ruleset


_KNOWN: dict = {}          # the catalogue worked out, by the files it was worked out from


def catalogue(root: Path) -> list:
    """The catalogue, each vector id replaced by its file's path from ``root``
    (worked out once for the same files, as a process builds the site again,
    from this checkout or a copy of it)."""
    from ..conformance.mistakes import catalogue as zoo
    from ..conformance.vectors import collect
    folders = [root / "spec" / "vectors", root / "spec" / "scenarios"]
    files = hashlib.sha256()         # the same files with the same contents, wherever they are
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                files.update(p.relative_to(root).as_posix().encode() + b"\0")
                files.update(hashlib.sha256(p.read_bytes()).digest())
    files = files.hexdigest()
    if files in _KNOWN:
        return copy.deepcopy(_KNOWN[files])
    vectors = collect(folders)
    where = {doc["id"]: Path(path).resolve().relative_to(root.resolve()).as_posix()
             for path, doc in vectors}
    out = zoo(vectors, enough=SHOWN)
    for mistake in out:
        for found in mistake["rulesets"].values():
            found["vectors"] = [where[vid] for vid in found["vectors"]]
    _KNOWN.clear()
    _KNOWN[files] = copy.deepcopy(out)
    return out


def report_link(report: str) -> str:
    """``owner/project#N`` as a link to the issue or pull request on GitHub."""
    project, _, number = report.partition("#")
    href = f"https://github.com/{project}/issues/{number}"
    return f'<a href="{esc(href)}">{esc(report)}</a>'


def mistakes_page(root: Path) -> str:
    mistakes = catalogue(Path(root))
    parts = ["<p>Each mistake below has shipped in a real combat tracker, virtual "
             "tabletop module or game (the reports are public). For each, the rules it "
             "breaks in each game it applies to, and the conformance vectors that fail on "
             "an engine that makes it: an engine that reports only its verdicts and reason "
             "codes is caught by them. Run them against yours with <code>fsm conformance "
             "--program 'YOUR ENGINE' FILES</code> (the protocol is in "
             "<code>spec/PROTOCOL.md</code>).</p>",
             '<ul class="toc">' + "".join(
                 f'<li><a href="#{esc(m["id"])}">{prose(m["wrong"])}</a></li>' for m in mistakes)
             + "</ul>"]
    for m in mistakes:
        parts.append(f'<h2 id="{esc(m["id"])}">{prose(m["wrong"][:1].upper() + m["wrong"][1:])}'
                     "</h2>")
        parts.append(f"<p><strong>What the texts say.</strong> "
                     f"{prose(m['texts'][:1].upper() + m['texts'][1:])}.</p>")
        if m["reports"]:
            parts.append("<p><strong>Reported.</strong> "
                         + ", ".join(report_link(r) for r in m["reports"]) + "</p>")
        rows = []
        for name, found in m["rulesets"].items():
            rules = " ".join(rule_link(rid) for rid in found["rules"])
            vectors = "<br>".join(f"<code>{esc(path)}</code>" for path in found["vectors"]) \
                or "none yet"
            rows.append(f'<tr><td data-label="game">{esc(RULESETS[name].title)}</td>'
                        f'<td data-label="rules it breaks">{rules}</td>'
                        f'<td data-label="vectors that catch it">{vectors}</td></tr>')
        parts.append('<table class="cards">\n<thead><tr><th scope="col">game</th>'
                     '<th scope="col">rules it breaks</th><th scope="col">vectors that catch '
                     'it</th></tr></thead>\n<tbody>\n' + "\n".join(rows) + "\n</tbody>\n</table>")
    return page("The trackers' mistakes", "\n".join(parts))
