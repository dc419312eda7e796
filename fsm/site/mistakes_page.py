"""The page for tracker authors: the trackers' mistakes (``mistakes.html``).

For each mistake of :data:`fsm.conformance.mistakes.ZOO`: what goes wrong,
what the texts say instead, the public reports that show it, and for each
ruleset it applies to, the rules it breaks there (the ruleset's
``zoo_rules``) and the vectors that catch it. The vectors are found by
running each mistake, built as a mutant of the reference, against the
suite as an engine reporting verdicts and reason codes only would be judged
(:func:`fsm.conformance.scoring.score`), the hand-written vectors first, the
first few that fail named.
"""

from __future__ import annotations

from pathlib import Path

from ..conformance.mistakes import ZOO
from ..rulesets import RULESETS
from .html import esc, page, prose, rule_link

SHOWN = 3                        # vectors named per mistake and ruleset


def catching(root: Path) -> dict:
    """(ruleset, mistake id) -> the paths from ``root`` of the vectors that
    fail on an engine with that mistake (at most :data:`SHOWN`): first those
    that cover a rule it breaks, hand-written before generated."""
    from ..conformance.mistakes import zoo
    from ..conformance.scoring import score
    from ..conformance.vectors import collect
    folder = root / "spec" / "vectors"
    vectors = collect([folder])
    where = {doc["id"]: Path(path).relative_to(root).as_posix() for path, doc in vectors}
    out = {}
    for mutant in zoo():
        broken = set(mutant.rules)
        mine = sorted(vectors, key=lambda v: (not broken & set(v[1].get("rules") or ()),
                                              "generated" in Path(v[0]).parts))
        for m, killers in score(mine, only={mutant.id}, families=("zoo",), enough=SHOWN,
                                verdicts_only=True):
            out[(m.ruleset, m.id.split(":zoo-", 1)[1])] = [where[vid] for vid in killers]
    return out


def report_link(report: str) -> str:
    """``owner/project#N`` as a link to the issue or pull request on GitHub."""
    project, _, number = report.partition("#")
    href = f"https://github.com/{project}/issues/{number}"
    return f'<a href="{esc(href)}">{esc(report)}</a>'


def mistakes_page(root: Path) -> str:
    caught = catching(root)
    parts = ["<p>Each mistake below has shipped in a real combat tracker, virtual "
             "tabletop module or game (the reports are public). For each, the rules it "
             "breaks in each game it applies to, and the conformance vectors that fail on "
             "an engine that makes it: an engine that reports only its verdicts and reason "
             "codes is caught by them. Run them against yours with <code>fsm conformance "
             "--program 'YOUR ENGINE' FILES</code> (the protocol is in "
             "<code>spec/PROTOCOL.md</code>).</p>",
             '<ul class="toc">' + "".join(
                 f'<li><a href="#{esc(k.id)}">{prose(k.wrong)}</a></li>' for k in ZOO)
             + "</ul>"]
    for known in ZOO:
        parts.append(f'<h2 id="{esc(known.id)}">{prose(known.wrong[:1].upper() + known.wrong[1:])}'
                     "</h2>")
        parts.append(f"<p><strong>What the texts say.</strong> "
                     f"{prose(known.texts[:1].upper() + known.texts[1:])}.</p>")
        if known.reports:
            parts.append("<p><strong>Reported.</strong> "
                         + ", ".join(report_link(r) for r in known.reports) + "</p>")
        rows = []
        for name, rs in RULESETS.items():
            if (name, known.id) not in caught:
                continue
            vectors = caught[(name, known.id)]
            rules = " ".join(rule_link(rid) for rid in rs.zoo_rules.get(known.id, ()))
            found = "<br>".join(f"<code>{esc(path)}</code>" for path in vectors) or "none yet"
            rows.append(f'<tr><td data-label="game">{esc(rs.title)}</td>'
                        f'<td data-label="rules it breaks">{rules}</td>'
                        f'<td data-label="vectors that catch it">{found}</td></tr>')
        parts.append('<table class="cards">\n<thead><tr><th scope="col">game</th>'
                     '<th scope="col">rules it breaks</th><th scope="col">vectors that catch '
                     'it</th></tr></thead>\n<tbody>\n' + "\n".join(rows) + "\n</tbody>\n</table>")
    return page("The trackers' mistakes", "\n".join(parts))
