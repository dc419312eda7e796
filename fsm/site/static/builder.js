// The live checker's guided builder (fsm.site.builder in Python does the work;
// this draws what its menu says and sends it the changes a click makes).
// window.fsmBuilderOpen(open): the builder unfolded or not (folded when the
// page opens on a link), its ruleset buttons drawn at once, asleep until
// Python is ready. window.fsmBuilder(api): api.menu(text) and api.edit(text,
// change) answer in JSON; api.source is the scenario's textarea;
// api.changed(any) re-checks.
(function () {
  'use strict';
  const B = window.fsmB;
  const el = B.el;
  const $ = (id) => document.getElementById(id);
  const rulesets = JSON.parse($('rulesets').textContent);
  rulesets.forEach((r) => {
    $('b-rulesets').appendChild(el('button', { type: 'button', class: 'start', disabled: true,
      title: r.title, dataset: { ruleset: r.name } }, r.short));
    $('b-rulesets').appendChild(document.createTextNode(' '));
  });

  window.fsmBuilderOpen = function (open) {
    $('builder-box').open = open;
    $('builder-title').textContent = open ? 'Ask a question by clicking'
      : 'Change it, or go on from any step, by clicking';
  };

  window.fsmBuilder = function (api) {
    const root = $('builder');
    let current = null;      // the menu for the text now

    function change(c) {
      const answer = JSON.parse(api.edit(api.source.value, JSON.stringify(c)));
      $('b-error').hidden = answer.ok;
      if (!answer.ok) { $('b-error').textContent = answer.error; return false; }
      const before = $('b-now').getBoundingClientRect().top;   // the builder stays put on screen
      show(answer.text);
      const after = $('b-now').getBoundingClientRect().top;
      if (before && after && $('b-now').textContent) { window.scrollBy(0, after - before); }
      return true;
    }
    function show(text) {            // the scenario's text, checked and offered on
      api.source.value = text;
      refresh();
      api.changed(Boolean(current.ok && current.combatants && current.combatants.length));
    }
    const add = (c) => change(c.op ? c : { op: 'add-steps', steps: c.steps, edits: c.edits });
    const open = (c) => B.openForm(current, c, $('b-form'), add);

    function refresh() {
      const m = JSON.parse(api.menu(api.source.value));
      current = m;
      $('b-form').hidden = true;
      $('b-form').textContent = '';
      root.dataset.state = m.ok ? (m.empty ? 'empty' : 'ready') : 'unreadable';
      $('b-unreadable').hidden = m.ok;
      if (!m.ok) { $('b-unreadable').textContent = 'The builder shows the scenario once its text can be read: ' + m.error; }
      if (document.activeElement !== $('b-question')) { $('b-question').value = m.question || ''; }
      const pick = $('b-ruleset');
      const shown = m.ruleset || pick.value;     // an unreadable text keeps the one shown
      pick.textContent = '';
      m.rulesets.forEach((r) => pick.appendChild(el('option', { value: r.name, selected: r.name === shown }, r.title)));
      $('b-setup').hidden = !m.ok || m.empty;
      if (!m.ok || m.empty) { $('b-choices').textContent = ''; $('b-now').textContent = ''; return; }
      $('b-setup-box').open = !m.steps;
      drawCombatants(m);
      drawOptions(m);
      drawGrid(m);
      $('b-now').textContent = 'Now: ' + m.now;
      $('b-undo').disabled = !m.steps;
      drawScene(m);
      B.drawChoices(m, $('b-choices'), add, open);
    }

    // Where each one stands now; when the one whose turn it is may move, a
    // click on a free square moves them there in a straight line.
    function drawScene(m) {
      $('b-scene').textContent = '';
      if (!m.grid || !m.positions) { return; }
      const names = Object.fromEntries(m.combatants.map((c) => [c.id, c.who]));
      const walk = B.walk(m);
      const strikes = m.strikes || {};
      const striker = Object.values(strikes).map((st) => names[st.actor])[0] || '';
      const says = [walk ? 'click a free square to move ' + names[walk.actor]
        + ' there in a straight line (for another path, \u2026 beside its move)' : '',
      striker ? 'click an enemy for ' + striker + ' to attack them (in melee within reach, '
        + 'else at range; for another attack, \u2026 beside the action)' : ''].filter(Boolean);
      $('b-scene').appendChild(el('p', { class: 'hint', id: 'b-scene-hint' }, says.length
        ? 'Where each one stands now. ' + says.join('; or ') + '.' : 'Where each one stands now:'));
      const g = el('div', { id: 'b-scene-grid', dataset: { walker: walk ? walk.actor : '',
        strikes: JSON.stringify(strikes) } });
      $('b-scene').appendChild(g);
      B.grid(g, { at: m.positions, names: names, label: 'where each one stands now',
        onPick: walk || striker ? (sq, who) => {
          if (!who && walk) { add({ steps: [Object.assign({}, walk, { path: B.line(m.positions[walk.actor], sq) })], edits: [] }); }
          if (who && strikes[who]) { add({ steps: [strikes[who]], edits: [] }); }
        } : null });
    }

    function drawOptions(m) {
      const box = $('b-options');
      box.textContent = '';
      m.options.forEach((o) => {
        const id = 'b-opt-' + o.name;
        const p = el('p');
        p.appendChild(el('label', { for: id }, o.doc + ' '));
        const s = el('select', { id: id, dataset: { option: o.name } });
        const said = (v) => (v === null ? 'no limit' : String(v));
        s.appendChild(el('option', { value: '', selected: !o.set }, 'as written (' + said(o.default) + ')'));
        (o.choices || [null, 0, 1, 2, 3]).forEach((v) => {
          if (o.choices && v === o.default) { return; }
          s.appendChild(el('option', { value: JSON.stringify(v), selected: o.set && o.value === v }, said(v)));
        });
        s.addEventListener('change', () => change(s.value === '' ? { op: 'option', name: o.name, default: true }
          : { op: 'option', name: o.name, value: JSON.parse(s.value) }));
        p.appendChild(s);
        p.appendChild(el('span', { class: 'hint machine-words' }, ' (' + o.name + ')'));
        box.appendChild(p);
      });
      const set = m.options.filter((o) => o.set).length;
      $('b-options-set').textContent = set ? String(set) : 'none';
    }

    function drawCombatants(m) {
      const list = $('b-combatants');
      list.textContent = '';
      const fields = m.fighter_fields.concat(m.grid ? [{ name: 'reach', label: 'reach (squares)', type: 'count', low: 1, high: 10 }] : []);
      m.combatants.forEach((c, i) => {
        const li = el('li', { dataset: { combatant: c.id } });
        li.appendChild(el('strong', {}, c.who));
        li.appendChild(document.createTextNode(' (' + c.side + ') '));
        const span = el('span', { class: 'combatant-fields' });
        fields.forEach((f) => {
          const id = 'b-f-' + c.id + '-' + f.name;
          const label = el('label', { for: id }, (f.label || f.name) + ' ');
          let input;
          if (f.type === 'flag') {
            input = el('input', { id: id, type: 'checkbox', checked: c[f.name] === true, dataset: { field: f.name } });
            input.addEventListener('change', () => change({ op: 'field', id: c.id, name: f.name, value: input.checked ? true : null }));
          } else if (f.type === 'choice') {        // one of its words (a size)
            input = el('select', { id: id, dataset: { field: f.name } });
            input.appendChild(el('option', { value: '' }, 'as usual'));
            f.choices.forEach((w) => input.appendChild(el('option', { value: w, selected: c[f.name] === w }, w)));
            input.addEventListener('change', () => change({ op: 'field', id: c.id, name: f.name, value: input.value === '' ? null : input.value }));
          } else if (f.high - f.low <= 100) {      // a small count: chosen, not typed
            input = el('select', { id: id, dataset: { field: f.name } });
            input.appendChild(el('option', { value: '' }, 'as usual'));
            for (let n = f.low; n <= Math.min(f.high, f.low + 10); n += 1) { input.appendChild(el('option', { value: String(n), selected: c[f.name] === n }, String(n))); }
            input.addEventListener('change', () => change({ op: 'field', id: c.id, name: f.name, value: input.value === '' ? null : Number(input.value) }));
          } else {
            input = el('input', { id: id, type: 'number', min: f.low, max: f.high, size: 5, value: c[f.name], dataset: { field: f.name } });
            input.addEventListener('change', () => change({ op: 'field', id: c.id, name: f.name, value: input.value === '' ? null : Number(input.value) }));
          }
          const pair = el('span', { class: 'field' });     // kept on one line
          if (f.type === 'flag') {            // a box before its words, the words before a value
            pair.appendChild(input);
            pair.appendChild(label);
          } else {
            pair.appendChild(label);
            pair.appendChild(input);
          }
          span.appendChild(pair);
          span.appendChild(document.createTextNode(' '));
        });
        li.appendChild(span);
        if (i) {
          const up = el('button', { type: 'button', 'aria-label': 'move ' + c.who + ' earlier in the turn order' }, 'earlier');
          up.addEventListener('click', () => change({ op: 'earlier', id: c.id }));
          li.appendChild(up);
        }
        const rm = el('button', { type: 'button', 'aria-label': 'remove ' + c.who }, 'remove');
        rm.addEventListener('click', () => change({ op: 'remove-combatant', id: c.id }));
        li.appendChild(rm);
        list.appendChild(li);
      });
      const side = $('b-side');
      const kept = side.value;
      side.textContent = '';
      m.sides.forEach((s) => side.appendChild(el('option', { value: s, selected: s === kept }, s)));
    }

    function drawGrid(m) {
      $('b-grid').textContent = m.grid ? 'Take them off the grid' : 'Put them on a grid';
      $('b-grid').disabled = !m.combatants.length;
      $('b-grid-note').textContent = m.grid ? 'Paths become counts of squares; say who a move provokes.'
        : 'Then reach, moves and attacks are read from where everyone stands.';
      $('b-place').textContent = '';
      if (m.grid) {
        B.starts(m, $('b-place'), change);
      } else if (m.combatants.length && !m.steps) {   // before the first step: where do they stand?
        B.placing(m, $('b-place'), change);
      }
    }

    function addWho() {
      const text = $('b-who').value.trim();
      if (text && change({ op: 'add-combatants', text: text, side: $('b-side').value })) { $('b-who').value = ''; }
    }

    document.querySelectorAll('#b-rulesets button.start').forEach((b) => {
      b.disabled = false;
      b.addEventListener('click', () => {
        if (api.source.value.trim() && !window.confirm('Replace the scenario in the text box with a new one?')) {
          // Cancel changes nothing: a question typed for the new one (its field
          // left as Start was clicked) does not retitle the old one
          if (asked !== null && api.source.value !== asked) { show(asked); }
          return;
        }
        api.source.value = '';
        change({ op: 'new', ruleset: b.dataset.ruleset, question: $('b-question').value });
        $('b-who').focus();
      });
    });
    let asked = null;               // the scenario's text before its question was last edited
    $('b-question').addEventListener('focus', () => { asked = api.source.value; });
    $('b-question').disabled = false;
    $('b-question').addEventListener('change', () => {
      if (current && current.ok && !current.empty) { change({ op: 'question', question: $('b-question').value }); }
    });
    $('b-ruleset').addEventListener('change', () => {
      if (!current || !current.ok || current.empty) { return; }
      if (current.steps && !window.confirm('Another ruleset has other steps: switching drops the '
          + current.steps + ' step(s) of this scenario (its combatants stay). Switch?')) {
        $('b-ruleset').value = current.ruleset;
        return;
      }
      change({ op: 'ruleset', ruleset: $('b-ruleset').value });
    });
    $('b-add-who').addEventListener('click', addWho);
    $('b-who').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); addWho(); } });
    $('b-grid').addEventListener('click', () => {
      if (current.grid) { change({ op: 'grid', at: null }); } else { B.placing(current, $('b-place'), change); }
    });
    $('b-undo').addEventListener('click', () => change({ op: 'undo' }));
    window.fsmBranch = (keep) => {
      const drop = current && current.steps ? current.steps - keep : 0;
      if (drop > 0 && !window.confirm('Keep steps 1 to ' + keep + ' and drop the ' + drop
          + ' after them?')) { return; }
      change({ op: 'branch', keep: keep });
    };
    window.fsmRefreshBuilder = refresh;
    if (api.source.value.trim() === '') { refresh(); }   // else the first check draws it
  };
}());
