"""The live checker page (``fsm site OUT --live``): paste or edit a scenario
and the project's own ``fsm`` package judges it in the browser, under
Pyodide.

What the build writes under ``OUT/live/``:

* ``pyodide/``: the runtime's files from the ``pyodide`` npm package (fetched
  with ``npm pack`` at build time, or taken from ``--pyodide`` when given);
* ``fsm-live.zip``: the pure-Python code the page runs: ``fsm``,
  ``transitions`` and ``six``, PyYAML's Python half, the ``graphviz``
  package (imported by ``fsm.diagrams``, never run: the page draws no DOT),
  ``spec/statements.json`` (the rule statements) and the licences of what it
  carries;
* ``index.html``: the page. The scenario is in the address
  (``#scenario=`` its text in base64url, ``&step=N`` the step shown), so a
  link reproduces it.

Nothing is fetched from elsewhere when the page is viewed; browsers load
WebAssembly only over HTTP, so the site is served (any static server).
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path

from ..errors import ConfigError, FsmError
from ..io.scenario import parse_text
from .html import STEP_SCRIPT, esc, inline_svg, page, sequence_box, step_panel, table
from .stepthrough import copy_boxes

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
BUNDLE = "fsm-live.zip"
CARRIED = (("transitions", "transitions"), ("six", "six"), ("yaml", "PyYAML"),
           ("graphviz", "graphviz"))


def pyodide_files(given=None) -> dict:
    """name -> bytes of the runtime's files, from ``given`` (a folder holding
    them or the npm package's .tgz) or from ``npm pack``."""
    if given is not None:
        return _from_given(Path(given))
    npm = shutil.which("npm")
    if npm is None:
        raise ConfigError("fsm site --live needs npm (Node.js) to fetch the pyodide package; "
                          "install npm, or give --pyodide with a copy of the package")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}",
                                   "--pack-destination", tmp, "--silent"],
                                  capture_output=True, text=True, timeout=600, check=False)
        except subprocess.TimeoutExpired:
            raise ConfigError("npm pack pyodide did not finish in 10 minutes") from None
        packed = sorted(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not packed:
            last = (done.stderr.strip().splitlines() or ["no package written"])[-1]
            raise ConfigError(f"npm pack pyodide@{PYODIDE_VERSION} failed: {last}")
        return _from_tgz(packed[0])


def _from_given(path: Path) -> dict:
    if path.is_dir():
        found = {name: path / name for name in PYODIDE_FILES}
        missing = [name for name, p in found.items() if not p.is_file()]
        if missing:
            raise ConfigError(f"--pyodide {path}: no {missing[0]} there")
        return {name: p.read_bytes() for name, p in found.items()}
    if path.is_file() and path.name.endswith(".tgz"):
        return _from_tgz(path)
    raise ConfigError(f"--pyodide {path}: give the pyodide npm package's folder or .tgz")


def _from_tgz(path: Path) -> dict:
    out = {}
    try:
        with tarfile.open(path, "r:gz") as tar:
            for name in PYODIDE_FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise KeyError(name)
                out[name] = member.read()
    except (tarfile.TarError, KeyError, OSError) as exc:
        raise ConfigError(f"{path}: not the pyodide package ({exc})") from None
    return out


def _python_files(folder: Path):
    for p in sorted(folder.rglob("*.py")):
        if "__pycache__" not in p.parts:
            yield p


def bundle(root: Path) -> bytes:
    """The zip the page unpacks into Pyodide's file system."""
    import fsm
    import graphviz
    import six
    import transitions
    import yaml
    target = tempfile.SpooledTemporaryFile()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for package in (fsm, transitions, yaml, graphviz):
            folder = Path(package.__file__).parent
            for p in _python_files(folder):
                z.write(p, f"{folder.name}/{p.relative_to(folder).as_posix()}")
        z.write(six.__file__, "six.py")
        z.write(root / "spec" / "statements.json", "spec/statements.json")
        for module, dist in CARRIED:
            for name, text in _licences(dist):
                z.writestr(f"licences/{module}-{name}", text)
    target.seek(0)
    return target.read()


def _licences(dist: str) -> list:
    """(file name, bytes) of the licence files an installed distribution lists."""
    try:
        files = importlib.metadata.distribution(dist).files or ()
    except importlib.metadata.PackageNotFoundError:
        return []
    out = []
    for f in files:
        name = Path(str(f)).name
        in_metadata = Path(str(f)).parts[0].endswith(".dist-info")
        if in_metadata and name.upper().startswith(("LICENSE", "LICENCE", "COPYING")):
            try:
                out.append((name, Path(f.locate()).read_bytes()))
            except OSError:
                continue
    return out


def live_files(root: Path, examples: dict, pictures: dict, edges: dict, runtime: dict) -> dict:
    """Site-relative name -> text or bytes of every file of the live checker."""
    files = {f"live/pyodide/{name}": data for name, data in runtime.items()}
    files[f"live/{BUNDLE}"] = bundle(root)
    files["live/index.html"] = _page(examples, pictures, edges)
    return files


def _question(name: str, text: str) -> str:
    """A worked example as the list names it: its question, else its file."""
    try:
        doc = parse_text(text, name)
    except FsmError:
        return name
    question = doc.get("question") if isinstance(doc, dict) else None
    return question if isinstance(question, str) and question else name


def _page(examples: dict, pictures: dict, edges: dict) -> str:
    options = "".join(f'<option value="{esc(name)}">{esc(_question(name, text))}</option>'
                      for name, text in examples.items())
    svgs = "\n".join(f'<div data-ruleset="{esc(rs)}" hidden>{inline_svg(svg, "machine")}</div>'
                     for rs, svg in pictures.items())
    head = table(("step", "what", "verdict", "rules", "why", "expected, and not so", "branch"), [])
    body = f"""<p>Paste or edit a scenario (JSON or YAML, the format <code>fsm check</code>
reads) and press <em>Check</em>: the <code>fsm</code> package itself judges every step,
in this page, under Pyodide {esc(PYODIDE_VERSION)}. Nothing is sent anywhere. The
address holds the scenario: copy it to share this exact case.</p>
<noscript><p>The live checker needs JavaScript; every other page of the site reads
without it.</p></noscript>
{BUILDER_HTML}
<p><label for="example">Start from a worked example:</label>
<select id="example"><option value="">(choose)</option>{options}</select></p>
<p><label for="source">Scenario</label><br>
<textarea id="source" rows="18" cols="90" spellcheck="false"></textarea></p>
<p><button id="check" type="button" disabled>Check</button>
<span id="status" role="status">loading Python&hellip;</span></p>
<p id="error" class="failures" role="alert" hidden></p>
<div id="result" hidden>
{head.replace('<tbody>', '<tbody id="verdicts">')}
{step_panel()}
{svgs}
{copy_boxes({})}
{sequence_box('<div id="sequence"></div>')}
</div>
<script type="application/json" id="edges">{_json(edges)}</script>
<script type="application/json" id="examples">{_json(examples)}</script>
<script>{STEP_SCRIPT}</script>
<script>{_builder_script()}</script>
<script type="module">{LIVE_SCRIPT}</script>
<p class="note">The runtime is Pyodide (Mozilla Public License 2.0); the bundle carries
transitions, six, PyYAML and graphviz with their licences.</p>"""
    return page("Live checker", body, depth=1)



BUILDER_HTML = """<section id="builder" class="builder" aria-labelledby="builder-title">
<h2 id="builder-title">Build it by clicking</h2>
<p class="note">Pick a ruleset, add the combatants in initiative order, then click the steps.
Each button is what the machine would say of that step now: enabled when it is allowed
(or the GM's call), disabled with its reason when not. <em>&hellip;</em> opens a step's
details (a name, attack rolls, a path). The text below follows every click, and a click
follows the text once it is checked.</p>
<p><label for="b-ruleset">Ruleset</label> <select id="b-ruleset"></select>
<button id="b-new" type="button">Start a new scenario</button></p>
<p id="b-unreadable" class="failures" hidden></p>
<div id="b-setup" hidden>
<h3>Options</h3><div id="b-options"></div>
<h3>Combatants, in initiative order</h3><ol id="b-combatants"></ol>
<p><label for="b-name">Name</label> <input id="b-name" type="text" size="12">
<label for="b-side">side</label> <select id="b-side"></select>
<span id="b-fighter-fields"></span>
<button id="b-add-combatant" type="button">Add the combatant</button></p>
<details><summary>place it on a grid (optional: all or none)</summary>
<p class="note">x grows to the right, y downwards; (0,0) is marked. Click a square:
<span id="b-place-chosen"></span></p><div id="b-place"></div></details>
<p class="note" id="b-scene-note">Where each combatant stands now:</p>
<div id="b-scene" class="scene"></div>
<p id="b-now"></p>
<div id="b-triggers-box" hidden><p>Triggers an answer may name:</p><ul id="b-triggers"></ul></div>
<div id="b-choices"></div>
<div id="b-form" class="panel" hidden></div>
<p><button id="b-undo" type="button">Undo the last step</button></p>
<p id="b-error" class="failures" role="alert" hidden></p>
</div>
</section>"""


def _builder_script() -> str:
    from importlib.resources import files
    return files("fsm.site").joinpath("builder.js").read_text(encoding="utf-8")


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


LIVE_SCRIPT = """
import { loadPyodide } from './pyodide/pyodide.mjs';
const $ = (id) => document.getElementById(id);
const edges = $('edges').textContent;
const examples = JSON.parse($('examples').textContent);
let judge = null;
let checked = 0;

function encode(text) {
  let bin = '';
  new TextEncoder().encode(text).forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
}
function decode(s) {
  s = s.replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4) { s += '='; }
  return new TextDecoder().decode(Uint8Array.from(atob(s), (c) => c.charCodeAt(0)));
}
function fromAddress() {
  const m = /^#scenario=([A-Za-z0-9_-]*)(?:&step=(\\d+))?$/.exec(location.hash);
  if (!m) { return null; }
  try { return { text: decode(m[1]), step: m[2] ? Number(m[2]) : 0 }; }
  catch (e) { return null; }
}
function cell(tr, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) { td.className = cls; }
  tr.appendChild(td);
  return td;
}
function render(answer, encoded, step) {
  $('error').hidden = answer.ok;
  $('result').hidden = !answer.ok;
  if (!answer.ok) { $('error').textContent = answer.error; return; }
  const body = $('verdicts');
  body.textContent = '';
  answer.steps.forEach((s, i) => {
    const tr = document.createElement('tr');
    tr.dataset.step = String(i + 1);
    tr.dataset.verdict = s.verdict;
    cell(tr, String(i + 1));
    cell(tr, s.what);
    cell(tr, s.verdict + (s.reason ? ' (' + s.reason + ')' : ''), 'verdict-' + s.verdict);
    const rules = cell(tr, '');              // each rule id a link to its page
    s.rules.forEach((rid, k) => {
      if (k) { rules.appendChild(document.createTextNode(', ')); }
      const link = document.createElement('a');
      link.href = '../rule/' + encodeURIComponent(rid) + '.html';
      link.textContent = rid;
      rules.appendChild(link);
    });
    cell(tr, s.explain);
    cell(tr, s.failures.join('; '), 'failures');
    const branch = document.createElement('button');   // keep steps 1..i+1, drop the rest
    branch.type = 'button';
    branch.textContent = 'from here';
    branch.title = 'keep steps 1 to ' + (i + 1) + ' and build on from there';
    branch.dataset.branch = String(i + 1);
    branch.addEventListener('click', () => window.fsmBranch(i + 1));
    cell(tr, '').appendChild(branch);
    body.appendChild(tr);
  });
  $('markdown-text').value = answer.markdown;
  $('bbcode-text').value = answer.bbcode;
  $('sequence').innerHTML = answer.sequence;   // drawn by fsm.site.sequence_svg: text escaped
  let svg = null;
  document.querySelectorAll('#result [data-ruleset]').forEach((div) => {
    div.hidden = div.dataset.ruleset !== answer.ruleset;
    if (!div.hidden) { svg = div.querySelector('svg'); }
  });
  window.fsmSteps(answer, svg, (n) => {
    history.replaceState(null, '', '#scenario=' + encoded + (n ? '&step=' + n : ''));
  }, step);
}
function check(step, fromBuilder) {
  const text = $('source').value;
  let answer;
  try {
    answer = JSON.parse(judge(text, edges));
  } catch (e) {            // a fault of the checker itself, not of the scenario
    const last = String(e.message || e).trim().split('\\n').pop();
    answer = { ok: false, error: 'internal error of the checker (please report it): ' + last };
  }
  render(answer, encode(text), step || 0);
  if (!fromBuilder && window.fsmRefreshBuilder) {   // after the verdicts are drawn
    setTimeout(() => {
      try { window.fsmRefreshBuilder(); } catch (e) { console.warn('builder: ' + e); }
      document.body.dataset.built = String(checked);
    }, 0);
  }
  checked += 1;
  document.body.dataset.checked = String(checked);
}
$('example').addEventListener('change', () => {
  if (examples[$('example').value] === undefined) { return; }
  $('source').value = examples[$('example').value];
  if (judge) { check(0); }
});
window.addEventListener('hashchange', () => {      // a link pasted into this very page
  const now = fromAddress();
  if (now && judge && now.text !== $('source').value) { $('source').value = now.text; check(now.step); }
});
$('check').addEventListener('click', () => check(0));
const start = fromAddress();
if (start) { $('source').value = start.text; }
const times = window.fsmTimes = {};      // milliseconds since the page began to load
const mark = (name) => { times[name] = Math.round(performance.now()); };
mark('script');
try {
  const bundle = fetch('fsm-live.zip').then((r) => r.arrayBuffer());   // while Python loads
  const py = await loadPyodide({ indexURL: new URL('pyodide/', location.href).href });
  mark('runtime');
  py.unpackArchive(await bundle, 'zip', { extractDir: '/home/pyodide/fsm-live' });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/fsm-live')");
  mark('unpacked');
  judge = py.runPython('from fsm.site.trace import judge_json; judge_json');
  mark('imported');
  const menu = py.runPython('from fsm.site.builder import menu_json; menu_json');
  const edit = py.runPython('from fsm.site.builder import edit_json; edit_json');
  window.fsmBuilder({ menu, edit, source: $('source'), changed: (any) => {
    if (any) { check(0, true); } else { $('result').hidden = true; $('error').hidden = true; }
  } });
  window.fsmPython = py;   // the interpreter, for a look from the browser's console
  $('status').textContent = 'ready';
  $('check').disabled = false;
  document.body.dataset.ready = 'yes';
  mark('ready');
  if (start) { check(start.step); mark('first_verdict'); }
} catch (e) {
  $('status').textContent = 'Python could not be loaded here: ' + e
    + ' (serve the site over HTTP; browsers load WebAssembly only so)';
  document.body.dataset.ready = 'failed';
}
"""
