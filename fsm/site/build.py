"""``fsm site OUT``: the rules, the machine and every worked example as a
static site, plain files that need no server.

Pages: the home page (the gallery of questions, the machines), a page per
rule (its statement, the sentences it rests on as paraphrases, the register
entries, the rows and guards that implement it, lit on the machine's
picture, its tests and vectors), a page per text (its sentences in order),
a page per scenario (a step-through), the reason codes and options, and the
vectors by rule. The texts' own sentences appear only in a build given
``--sources`` (for private use), and the pages say so.
"""

from __future__ import annotations

from pathlib import Path

from ..diagrams import Picture, render, title_of
from ..engine.guard import guard_title
from ..io.scenario import load
from ..report import Citations
from ..rulesets import RULESETS
from .. import spec as S
from . import folder
from .html import (LIVE_STATIC, STATIC, esc, inline_svg, link_live, page, prose, rule_link,
                   static, table, template)
from .mistakes_page import mistakes_page
from .stepthrough import scenario_page

SCENARIO_EXTENSIONS = (".json", ".yaml", ".yml")


def build(out, root=None, sources=None, live=False, pyodide=None, replace=False) -> tuple:
    """Write the site under ``out``; return the files written and how many
    of its previous build's it removed. With ``live``, also the live checker
    (:mod:`.live`; its runtime from ``pyodide``, a folder or .tgz of the npm
    package, else fetched with npm). ``out`` must be new, empty or a site
    built before, unless ``replace`` (:mod:`.folder`)."""
    root = Path(root or S.default_root())
    previous = folder.prepare(out, root, replace)
    spec = S.load(root, with_tests=(root / "tests").is_dir())
    texts = S.find_sources(spec, sources) if sources else None
    cites = Citations(root)
    out = Path(out)
    scenarios = sorted(p for p in (root / "spec" / "scenarios").iterdir()
                       if p.suffix in SCENARIO_EXTENSIONS)
    files = {}
    if live:
        from .live import live_files, pyodide_files
        from .stepthrough import edge_titles
        runtime = pyodide_files(pyodide)        # first: the step that can fail
        examples = {p.name: p.read_text(encoding="utf-8") for p in scenarios}
        files.update(live_files(root, examples,
                                {rs: render(rs, "overview", "svg") for rs in RULESETS},
                                {rs: edge_titles(rs) for rs in RULESETS}, runtime))
    for source, name in STATIC + (LIVE_STATIC if live else ()):
        files[name] = static(source)
    files["index.html"] = _home(spec, scenarios, live)
    files["rules.html"] = _rules_index(spec)
    for rule in spec.rules:
        files[f"rule/{rule['id']}.html"] = _rule_page(spec, rule, texts)
    files["sources.html"] = _sources_index(spec, texts)
    for source in spec.sources:
        files[f"source/{source['id']}.html"] = _source_page(spec, source, texts)
    for path in scenarios:
        files[f"scenario/{path.stem}.html"] = scenario_page(path, cites, live)
    files["reference.html"] = _reference()
    files["vectors.html"] = _vectors(spec)
    files["mistakes.html"] = mistakes_page(root)
    if live:
        files = {name: link_live(text, name.count("/")) if name.endswith(".html") else text
                 for name, text in files.items()}
    clashing = folder.clashes(out, files, previous)
    if clashing and not replace:
        folder.refuse_clashes(out, clashing)
    out.mkdir(parents=True, exist_ok=True)
    folder.write_marker(out, previous | set(files))    # ours, even if the build stops
    written = []
    for name, text in files.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        written.append(target)
    removed = folder.remove_stale(out, previous - set(files))
    folder.write_marker(out, files)
    return written, removed


def _home(spec, scenarios, live=False) -> str:
    rows = {name: [] for name in RULESETS}          # the questions of each game, apart
    for path in scenarios:
        doc = load(path)
        if doc.get("question"):
            rows[doc["ruleset"]].append(
                f'<tr><td class="question">{prose(doc["question"])}</td>'
                f'<td data-label="answer">{prose(doc.get("answer", ""))}</td>'
                f'<td><a href="scenario/{esc(path.stem)}.html">step through it</a></td></tr>')
    questions = []
    for name, found in rows.items():
        if found:
            questions += [f"<h3>{esc(RULESETS[name].long_title)} ({len(found)})</h3>",
                          '<table class="cards gallery">\n<thead><tr><th scope="col">question</th>'
                          '<th scope="col">answer</th><th scope="col"></th></tr></thead>\n'
                          '<tbody>\n' + "\n".join(found) + "\n</tbody>\n</table>"]
    games = ", ".join(esc(rs.title) for rs in RULESETS.values())
    parts = [f"<p>The reference machine for triggered actions in tabletop combat ({games}): "
             "every step of a situation gets a verdict, with the rules "
             "behind it. Each question below is a scenario the machine replays; step "
             "through it to see the verdicts, the stack and the machine's phase.</p>",
             *(['<p><a href="live/index.html">The live checker</a>: ask your own question '
                'by clicking, and the machine judges it in your browser.</p>'] if live else []),
             '<p>Writing a tracker or a game? <a href="mistakes.html">The trackers\' '
             'mistakes</a>: the ones shipped before, the rules they break and the '
             'vectors that catch them.</p>',
             "<h2>Classic questions</h2>", *questions]
    for name in RULESETS:
        parts += [f"<h2>{esc(title_of(name))}: the machine</h2>",
                  inline_svg(render(name, "overview", "svg"), "machine")]
    return page("Triggered actions, adjudicated", "\n".join(parts))


def _rules_index(spec) -> str:
    rows = [(rule_link(r["id"]), esc(r.get("ruleset", "")), esc(r.get("kind", "")),
             prose(r.get("statement", "")) + (" <em>(retired)</em>"
                                            if r.get("status") == "retired" else ""))
            for r in spec.rules]
    return page("Rules", table(("id", "ruleset", "kind", "statement"), rows))


def _lit_edges(ruleset, rule_id) -> set:
    out = set()
    for group in Picture(ruleset, "overview").groups():
        if any(rule_id in row.rule_ids() for _, row in group.rows):
            out.add(f"{group.tail}->{group.dest}")
    return out


def _rule_page(spec, rule, texts) -> str:
    rid = rule["id"]
    parts = [f"<p>{prose(rule.get('statement', ''))}</p>",
             f"<p class=\"note\">{esc(rule.get('kind', ''))} of "
             f"{esc(rule.get('ruleset', ''))}</p>"]
    sentences = [s for s in spec.sentences if rid in (s.get("rules") or [])]
    if sentences:
        parts.append("<h2>What the texts say</h2>")
        parts.append(_sentence_table(sentences, texts, depth=1))
    entries = [(group, e) for group, e in spec.entries() if rid in (e.get("rules") or [])]
    if entries:
        parts.append("<h2>Divergences, assumptions, GM decisions</h2>")
        parts.append(table(("entry", "kind", "ruling"), [
            (f"<code>{esc(e['id'])}</code>", esc(group), prose(e.get("ruling", "")))
            for group, e in entries]))
    parts.append("<h2>In the machine</h2>")
    guards = ", ".join(_guard_words(g) for g in rule.get("guards") or []) or "none"
    parts.append(f"<p>Steps: {esc(', '.join(rule.get('transitions') or []) or 'none')}; "
                 f"the limits that enforce it: {guards}. Its edges are drawn thicker "
                 f"below.</p>")
    if rule.get("ruleset") in RULESETS:
        name = rule["ruleset"]
        parts.append(inline_svg(render(name, "overview", "svg"), "machine",
                                lit_edges=_lit_edges(name, rid)))
    tests, vectors = spec.tests.get(rid, []), spec.vectors.get(rid, [])
    scenarios = spec.scenarios.get(rid, [])
    parts.append("<h2>Tests and vectors</h2>")
    parts.append("<ul>" + "".join(f"<li><code>{esc(t)}</code></li>" for t in tests)
                 + "".join(f"<li>vector <code>{esc(v)}</code></li>" for v in vectors)
                 + "".join(f'<li>scenario <a href="../scenario/{esc(s)}.html">{esc(s)}</a></li>'
                           for s in scenarios) + "</ul>")
    return page(f"Rule {rid}", "\n".join(parts), depth=1)


def _sentence_table(sentences, texts, depth) -> str:
    head = ("sentence", "kind", "in our words", "rules")
    if texts is not None:
        head = head + ("original",)
    rows = []
    for s in sentences:
        row = (f"<code>{esc(s['id'])}</code>", esc(s.get("kind", "")),
               prose(s.get("paraphrase", "")),
               " ".join(rule_link(r, depth) for r in s.get("rules") or []))
        if texts is not None:
            text = texts.get(s["source"])
            row = row + (esc(text[s["start"]:s["end"]]) if text else "",)
        rows.append(row)
    return table(head, rows)


def _originals_note(texts) -> str:
    if texts is None:
        return ("<p class=\"note\">The texts' own sentences are not shown: each is known "
                "by its place and fingerprint, and given here in our words.</p>")
    return ("<p class=\"note\">This build was given the texts (<code>--sources</code>): "
            "their sentences are shown beside our words. Keep it private.</p>")


def _sources_index(spec, texts) -> str:
    rows = [(f'<a href="source/{esc(s["id"])}.html">{esc(s["id"])}</a>',
             esc(s.get("language", "")), esc(s.get("title", s.get("description", ""))))
            for s in spec.sources]
    return page("Texts", _originals_note(texts) + table(("text", "language", "what"), rows))


def _source_page(spec, source, texts) -> str:
    sentences = [s for s in spec.sentences if s["source"] == source["id"]]
    return page(f"Text {source['id']}", _originals_note(texts)
                + _sentence_table(sentences, texts, depth=1), depth=1)


def _guard_words(name: str) -> str:
    """A guard in words, its name in the tooltip."""
    return f'<span title="{esc(name)}">{esc(guard_title(name))}</span>'


def _reference() -> str:
    used: dict = {}
    for name, rs in RULESETS.items():
        for r in (*rs.rows, *rs.refusals):
            for g, rules in r.guards:
                used.setdefault((g.name, g.reason, g.gm_reason, g.says), set()).update(rules)
    rows = []
    for (name, reason, gm_reason, says), rules in sorted(used.items()):
        for code in (reason, gm_reason):
            if code:
                rows.append((f"<code>{esc(code)}</code>", _guard_words(name),
                             template(says), " ".join(rule_link(r) for r in sorted(rules))))
    parts = ["<h2>Reason codes</h2>",
             "<p>In what a limit says, the words in italics stand for what the verdict "
             "names there: the combatant, the trigger, a count.</p>",
             table(("reason", "the limit that gives it", "what it says", "rules"), sorted(rows))]
    for name, rs in RULESETS.items():
        parts.append(f"<h2>Options of {esc(rs.title)}</h2>")
        parts.append(table(("option", "values", "default", "meaning"), [
            (f"<code>{esc(o.name)}</code>",
             esc(", ".join(map(str, o.choices)) if o.choices else "a number, or null (no limit)"),
             esc("no limit (null)" if o.default is None else o.default), prose(o.doc))
            for o in rs.options]))
    return page("Reasons and options", "\n".join(parts))


def _vectors(spec) -> str:
    rows = [(rule_link(rid), esc(", ".join(spec.vectors.get(rid, []))))
            for rid in sorted(spec.rule_by_id)]
    return page("Conformance vectors by rule", table(("rule", "vectors"), rows))
