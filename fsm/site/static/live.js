// The live checker: the scenario in the address (#scenario= its text in
// base64url, &step=N the step shown) is judged by the fsm package itself
// under Pyodide. A worked example's verdicts, judged when the site was
// built, show at once while Python starts. window.fsmTimes holds when each
// stage was reached (milliseconds since the page began to load).
const $ = (id) => document.getElementById(id);
const times = window.fsmTimes = {};
const mark = (name) => { if (times[name] === undefined) { times[name] = Math.round(performance.now()); } };
mark('script');
const edges = $('edges').textContent;
const examples = JSON.parse($('examples').textContent);
const known = JSON.parse($('known').textContent);
let judge = null;
let checked = 0;

function encode(text) {
  let bin = '';
  new TextEncoder().encode(text).forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function decode(s) {
  s = s.replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4) { s += '='; }
  return new TextDecoder().decode(Uint8Array.from(atob(s), (c) => c.charCodeAt(0)));
}
function hash(text) {          // FNV-1a, 32 bits (fsm.site.live_page.text_hash)
  let h = 0x811c9dc5;
  new TextEncoder().encode(text).forEach((b) => { h = Math.imul(h ^ b, 0x01000193) >>> 0; });
  return h.toString(16).padStart(8, '0');
}
function fromAddress() {
  const m = /^#scenario=([A-Za-z0-9_-]*)(?:&step=(\d+))?$/.exec(location.hash);
  if (!m) { return null; }
  try { return { text: decode(m[1]), step: m[2] ? Number(m[2]) : 0 }; } catch (e) { return null; }
}
function status(state, words) {
  $('status').dataset.state = state;
  $('status').textContent = words;
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) { e.className = cls; }
  if (text !== undefined) { e.textContent = text; }
  return e;
}
function headOf(say) {           // "No: ..." -> ["No", ": ..."] (fsm.site.words.split_say)
  for (const head of ['Yes', 'No', 'The GM decides']) {
    if (say.startsWith(head)) { return [head, say.slice(head.length)]; }
  }
  return [say, ''];
}

// One row of the verdict table: who does what, the verdict in words and what
// it spent; the machine's words (the step, reason, rules with links, why)
// behind the details toggle.
function row(s, i) {
  const tr = el('tr');
  tr.dataset.step = String(i + 1);
  tr.dataset.verdict = s.verdict;
  tr.dataset.reason = s.reason || '';
  tr.dataset.rules = s.rules.join(', ');
  tr.dataset.failures = s.failures.join('; ');
  const n = el('td', 'n');
  const go = el('a', '', String(i + 1));
  go.href = '#';
  go.addEventListener('click', (e) => { e.preventDefault(); window.fsmShow(i + 1); });
  n.appendChild(go);
  tr.appendChild(n);
  tr.appendChild(el('td', 'what', s.title || s.what));
  const say = el('td', 'say');
  const [head, rest] = headOf(s.say || s.verdict);
  say.appendChild(el('span', 'verdict-' + s.verdict, head));
  say.appendChild(document.createTextNode(rest));
  if (s.cost) { say.appendChild(el('span', 'cost', 'Spent: ' + s.cost)); }
  if (s.failures.length) { say.appendChild(el('span', 'failures cost', 'Expected, and not so: ' + s.failures.join('; '))); }
  const machine = el('div', 'machine-words');
  machine.appendChild(el('code', '', s.what));
  machine.appendChild(document.createTextNode(': ' + s.verdict + (s.reason ? ' (' + s.reason + ')' : '') + (s.rules.length ? '; ' : '')));
  s.rules.forEach((rid, k) => {
    if (k) { machine.appendChild(document.createTextNode(', ')); }
    const link = el('a', '', rid);
    link.href = '../rule/' + encodeURIComponent(rid) + '.html';
    machine.appendChild(link);
  });
  machine.appendChild(el('div', '', s.explain));
  say.appendChild(machine);
  tr.appendChild(say);
  const act = el('td', 'act');
  const branch = el('button', 'branch', 'from here');
  branch.type = 'button';
  branch.title = 'keep steps 1 to ' + (i + 1) + ' and build on from there';
  branch.dataset.branch = String(i + 1);
  branch.disabled = !judge;
  branch.addEventListener('click', () => window.fsmBranch(i + 1));
  act.appendChild(branch);
  tr.appendChild(act);
  return tr;
}

// The builder's line on the last step, where the clicking goes on: its
// verdict in a player's words, without scrolling up to the table.
function lastStep(steps) {
  const box = $('b-last');
  if (!box) { return; }
  const s = steps[steps.length - 1];
  box.textContent = '';
  box.hidden = !s;
  if (!s) { return; }
  box.appendChild(el('strong', '', 'Step ' + steps.length + ', ' + (s.title || s.what) + ': '));
  const [head, rest] = headOf(s.say || s.verdict);
  box.appendChild(el('span', 'verdict-' + s.verdict, head));
  box.appendChild(document.createTextNode(rest));
  if (s.cost) { box.appendChild(el('span', 'cost', ' Spent: ' + s.cost)); }
}

function render(answer, encoded, step, prejudged) {
  $('error').hidden = answer.ok;
  $('result').hidden = !answer.ok;
  $('walk').hidden = !answer.ok;
  $('prejudged').hidden = !prejudged;
  if (!answer.ok) { $('error').textContent = answer.error; return; }
  const title = answer.question || 'Live checker';
  document.querySelector('main h1').textContent = title;
  document.title = title + ' \u00b7 fsm';
  $('answer').hidden = !answer.answer;
  $('answer').textContent = answer.answer ? 'Answer: ' + answer.answer : '';
  const body = $('verdicts');
  body.textContent = '';
  answer.steps.forEach((s, i) => body.appendChild(row(s, i)));
  lastStep(answer.steps);
  $('markdown-text').value = answer.markdown;
  $('bbcode-text').value = answer.bbcode;
  $('sequence').innerHTML = answer.sequence;   // drawn by fsm.site.sequence_svg: text escaped
  let svg = null;
  document.querySelectorAll('#walk [data-ruleset]').forEach((div) => {
    div.hidden = div.dataset.ruleset !== answer.ruleset;
    if (!div.hidden) { svg = div.querySelector('svg'); }
  });
  window.fsmSteps(answer, svg, (n) => {
    history.replaceState(null, '', '#scenario=' + encoded + (n ? '&step=' + n : ''));
  }, step);
}

function toStep(step) {            // &step=N: that row, on screen
  const tr = document.querySelector('tr[data-step="' + step + '"]');
  if (step && tr) { tr.scrollIntoView({ block: 'center' }); }
}

function check(step, fromBuilder) {
  const text = $('source').value;
  let answer;
  try {
    answer = JSON.parse(judge(text, edges));
  } catch (e) {            // a fault of the checker itself, not of the scenario
    const last = String(e.message || e).trim().split('\n').pop();
    answer = { ok: false, error: 'internal error of the checker (please report it): ' + last };
  }
  render(answer, encode(text), step || 0, false);
  if (!fromBuilder && window.fsmRefreshBuilder) {   // after the verdicts are drawn
    setTimeout(() => {
      try { window.fsmRefreshBuilder(); } catch (e) { console.warn('builder: ' + e); }
      document.body.dataset.built = String(checked);
    }, 0);
  }
  checked += 1;
  document.body.dataset.checked = String(checked);
}

// -- at once: the worked example's verdicts, judged when the site was built --
const start = fromAddress();
window.fsmBuilderOpen(!start);
if (start) {
  $('source').value = start.text;
  const name = known[hash(start.text)];
  if (name) {
    fetch('answers/' + name + '.json').then((r) => r.json()).then((got) => {
      if (judge || got.text !== start.text) { return; }
      render(got.answer, encode(start.text), start.step, true);
      toStep(start.step);
      requestAnimationFrame(() => {     // at the next frame painted: on screen
        mark('shown');
        document.body.dataset.shown = 'built';
      });
    }).catch(() => {});
  }
}

$('example').addEventListener('change', () => {
  if (examples[$('example').value] === undefined) { return; }
  $('source').value = examples[$('example').value];
  if (judge) { check(0); }
});
window.addEventListener('hashchange', () => {      // a link pasted into this very page
  const now = fromAddress();
  if (!now) { return; }
  if (judge && now.text !== $('source').value) { $('source').value = now.text; check(now.step); }
  if (now.text === $('source').value && now.step) { window.fsmShow(now.step); }
  toStep(now.step);
});
$('check').addEventListener('click', () => check(0));

// -- then Python --
try {
  const bundle = fetch('fsm-live.zip').then((r) => r.arrayBuffer());   // while Python loads
  const { loadPyodide } = await import('./pyodide/pyodide.mjs');
  const py = await loadPyodide({ indexURL: new URL('pyodide/', location.href).href });
  mark('runtime');
  status('loading', 'Python is up; loading the checker\u2026');
  py.unpackArchive(await bundle, 'zip', { extractDir: '/home/pyodide/fsm-live' });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/fsm-live')");
  mark('unpacked');
  judge = py.runPython('from fsm.site.trace import judge_json; judge_json');
  mark('imported');
  const menu = py.runPython('from fsm.site.builder import menu_json; menu_json');
  const edit = py.runPython('from fsm.site.builder import edit_json; edit_json');
  window.fsmBuilder({ menu, edit, source: $('source'), changed: (any) => {
    if (any) { check(0, true); } else {         // nothing to judge yet: nothing of the last one shown
      $('result').hidden = true; $('walk').hidden = true; $('error').hidden = true; lastStep([]);
    }
  } });
  window.fsmPython = py;   // the interpreter, for a look from the browser's console
  $('check').disabled = false;
  $('example').disabled = false;
  document.querySelectorAll('#verdicts button.branch').forEach((b) => { b.disabled = false; });
  status('ready', 'Ready: every click is judged in this page, by the project\'s own code.');
  document.body.dataset.ready = 'yes';
  mark('ready');
  if (start) {
    check(start.step);
    toStep(start.step);
    mark('live_verdict');
    mark('shown');
    document.body.dataset.shown = document.body.dataset.shown || 'live';
  }
} catch (e) {
  status('failed', 'Python could not be loaded here: ' + e
    + ' (serve the site over HTTP; browsers load WebAssembly only so)');
  document.body.dataset.ready = 'failed';
}
