"""The live checker's page (``live/index.html``) and the verdicts of the
worked examples it shows at once.

The page puts first what a link is for: the question and its verdicts. A
link to a worked example shows the verdicts judged when the site was built
(``answers/``, found by a hash of the scenario's text that the page computes
too) while Python starts, then judges it again live. The builder comes
next (folded when the page opens on a link), then the step-through, then
the scenario as text. The script (``live.js``, ``builder*.js``) and its
style (``live.css``) are files of their own (fsm/site/static/).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import FsmError
from ..io.scenario import parse_text
from ..rulesets import RULESETS
from .html import details_toggle, esc, inline_svg, page, phase_list, scripts, sequence_box, \
    step_panel
from .stepthrough import copy_boxes
from .trace import judge


def text_hash(text: str) -> str:
    """FNV-1a (32 bits) of the text's UTF-8, in hex: how the page finds a
    worked example's verdicts (live.js computes the same)."""
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def answers(examples: dict, edges: dict) -> tuple:
    """({hash of its text: file name} of every worked example, {site path:
    its verdicts as judge() gives them, with the text they are of})."""
    known, files = {}, {}
    for name, text in examples.items():
        ruleset = _field(name, text, "ruleset")
        answer = judge(text, {rs: edges.get(rs) or {} for rs in edges})
        if not answer.get("ok") or ruleset not in RULESETS:
            continue
        stem = Path(name).stem
        known[text_hash(text)] = stem
        files[f"live/answers/{stem}.json"] = _json({"text": text, "answer": answer})
    return known, files


def _field(name: str, text: str, key: str):
    try:
        doc = parse_text(text, name)
    except FsmError:
        return None
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, str) and value else None


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def live_page(examples: dict, pictures: dict, edges: dict, known: dict, version: str) -> str:
    options = "".join(f'<option value="{esc(name)}">{esc(_field(name, text, "question") or name)}'
                      f'</option>' for name, text in examples.items())
    svgs = "\n".join(f'<div data-ruleset="{esc(rs)}" hidden>{inline_svg(svg, "machine")}</div>'
                     for rs, svg in pictures.items())
    rulesets = [{"name": rs.name, "title": rs.long_title, "short": rs.title}
                for rs in RULESETS.values()]
    body = f"""<p id="status" class="status" role="status" data-state="loading">Starting
Python in this page, to judge every step with the project's own code: a few seconds the
first time. The buttons that need it wake up when it is ready.</p>
<noscript><p>The live checker needs JavaScript; every other page of the site reads
without it.</p></noscript>
<p id="error" class="failures" role="alert" hidden></p>
<section id="result" hidden aria-label="the verdicts">
<p id="answer" hidden></p>
<p id="prejudged" class="prejudged" hidden>Judged when this site was built; judged again
in this page once Python is ready.</p>
{details_toggle()}
<table class="verdicts cards">
<thead><tr><th scope="col">step</th><th scope="col">what happens</th>
<th scope="col">verdict</th><th scope="col"></th></tr></thead>
<tbody id="verdicts"></tbody>
</table>
</section>
<details id="builder-box" class="box" open>
<summary id="builder-title">Ask a question by clicking</summary>
{BUILDER_HTML}
</details>
<section id="walk" hidden aria-labelledby="walk-title">
<h2 id="walk-title">Step by step</h2>
{step_panel()}
{svgs}
{phase_list()}
{copy_boxes({})}
<details class="box"><summary>The sequence, as a diagram</summary>
{sequence_box('<div id="sequence"></div>')}
</details>
</section>
<details id="source-box" class="box">
<summary>The scenario as text (JSON or YAML)</summary>
<p class="note">What <code>fsm check</code> reads: paste or edit it and press
<em>Check</em>. The page runs the <code>fsm</code> package itself under Pyodide
{esc(version)}; nothing is sent anywhere. The address holds the scenario: copy it to
share this exact case.</p>
<p><label for="example">Start from a worked example:</label>
<select id="example" disabled><option value="">(choose)</option>{options}</select></p>
<p><label for="source">Scenario</label><br>
<textarea id="source" rows="18" cols="90" spellcheck="false"></textarea></p>
<p><button id="check" type="button" disabled>Check</button></p>
</details>
<script type="application/json" id="edges">{_json(edges)}</script>
<script type="application/json" id="examples">{_json(examples)}</script>
<script type="application/json" id="known">{_json(known)}</script>
<script type="application/json" id="rulesets">{_json(rulesets)}</script>
{scripts(("js/steps.js", "live/builder-grid.js", "live/builder-choices.js",
          "live/builder.js"), 1)}<script type="module" src="live.js"></script>
<p class="note">The runtime is Pyodide (Mozilla Public License 2.0); the bundle carries
transitions, six, PyYAML and graphviz with their licences.</p>"""
    head = ('<link rel="stylesheet" href="live.css">\n'
            '<link rel="modulepreload" href="pyodide/pyodide.mjs">\n')
    return page("Live checker", body, depth=1, head=head)


BUILDER_HTML = """<section id="builder" class="builder" aria-label="the builder">
<p><label for="b-question">Your question</label><br>
<input id="b-question" type="text" disabled
 placeholder="e.g. When does Shield come: before or after the hit?"></p>
<p id="b-start">Start it in <span id="b-rulesets"></span></p>
<p id="b-unreadable" class="failures" hidden></p>
<div id="b-setup" hidden>
<details id="b-setup-box" open><summary>Who fights, the options, the grid</summary>
<p><label for="b-ruleset">Ruleset</label> <select id="b-ruleset"></select></p>
<p><label for="b-who">Who fights, in turn order</label>
<input id="b-who" type="text" placeholder="orc vs ayla, bob">
<label for="b-side">side</label> <select id="b-side"></select>
<button id="b-add-who" type="button">Add</button></p>
<p class="hint">Names in turn order, comma-separated; "vs" puts the names after it on
the other side (each side is named after its first).</p>
<ol id="b-combatants"></ol>
<details id="b-options-box"><summary>Options: the rules' open questions
(<span id="b-options-set">none</span> set)</summary><div id="b-options"></div></details>
<p><button id="b-grid" type="button">Put them on a grid</button>
<span id="b-grid-note" class="hint"></span></p>
<div id="b-place"></div>
</details>
<p id="b-last" aria-live="polite" hidden></p>
<p id="b-now"></p>
<div id="b-scene"></div>
<div id="b-choices"></div>
<div id="b-form" class="panel" hidden></div>
<p><button id="b-undo" type="button">Undo the last step</button></p>
<p id="b-error" class="failures" role="alert" hidden></p>
</div>
</section>"""
