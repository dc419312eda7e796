// The live checker's guided builder (fsm.site.builder in Python does the work;
// this draws what its menu says and sends it the changes a click makes).
// window.fsmBuilder(api): api.menu(text) and api.edit(text, change) answer in
// JSON; api.source is the scenario's textarea; api.changed(text) re-checks.
(function () {
  'use strict';
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) { return; }
      if (k === 'dataset') { Object.assign(e.dataset, v); } else { e.setAttribute(k, v === true ? '' : v); }
    });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function shown(v) { return v === null ? 'no limit' : String(v); }

  window.fsmBuilder = function (api) {
    const root = document.getElementById('builder');
    const $ = (id) => document.getElementById(id);
    let current = null;      // the menu for the text now
    let pending = null;      // the choice whose details form is open
    let path = [];           // squares clicked for that form

    function change(c) {
      const answer = JSON.parse(api.edit(api.source.value, JSON.stringify(c)));
      $('b-error').hidden = answer.ok;
      if (!answer.ok) { $('b-error').textContent = answer.error; return false; }
      api.source.value = answer.text;
      refresh();
      api.changed(Boolean(current.ok && current.combatants && current.combatants.length));
      return true;
    }

    function refresh() {
      const m = JSON.parse(api.menu(api.source.value));
      current = m;
      closeForm();
      root.dataset.state = m.ok ? (m.empty ? 'empty' : 'ready') : 'unreadable';
      $('b-unreadable').hidden = m.ok;
      if (!m.ok) { $('b-unreadable').textContent = 'The builder shows the scenario once its text can be read: ' + m.error; }
      const pick = $('b-ruleset');
      const shown = m.ruleset || pick.value;     // an unreadable text keeps the one shown
      pick.textContent = '';
      m.rulesets.forEach((r) => pick.appendChild(el('option', { value: r.name, selected: r.name === shown }, r.title)));
      $('b-setup').hidden = !m.ok || m.empty;
      if (!m.ok || m.empty) { $('b-choices').textContent = ''; $('b-now').textContent = ''; return; }
      drawOptions(m);
      drawCombatants(m);
      drawScene(m, $('b-scene'), null);
      $('b-scene-note').hidden = $('b-scene').hidden;
      $('b-now').textContent = m.combatants.length ? 'Now: ' + m.now : m.now;
      $('b-undo').disabled = !m.steps;
      const triggers = $('b-triggers');
      triggers.textContent = '';
      (m.triggers || []).forEach((t) => triggers.appendChild(el('li', { dataset: { trigger: t.id } }, t.what)));
      $('b-triggers-box').hidden = !(m.triggers || []).length;
      drawChoices(m);
    }

    function drawOptions(m) {
      const box = $('b-options');
      box.textContent = '';
      m.options.forEach((o) => {
        const id = 'b-opt-' + o.name;
        const p = el('p');
        p.appendChild(el('label', { for: id }, o.name + ' '));
        const s = el('select', { id: id, dataset: { option: o.name } });
        s.appendChild(el('option', { value: '', selected: !o.set }, 'default (' + shown(o.default) + ')'));
        const values = o.choices || [null, 0, 1, 2, 3];
        values.forEach((v) => s.appendChild(el('option', { value: JSON.stringify(v), selected: o.set && o.value === v }, shown(v))));
        s.addEventListener('change', () => change(s.value === '' ? { op: 'option', name: o.name, default: true }
          : { op: 'option', name: o.name, value: JSON.parse(s.value) }));
        p.appendChild(s);
        p.appendChild(el('span', { class: 'note' }, ' ' + o.doc));
        box.appendChild(p);
      });
    }

    function drawCombatants(m) {
      const list = $('b-combatants');
      list.textContent = '';
      m.combatants.forEach((c, i) => {
        const li = el('li', { dataset: { combatant: c.id } });
        const extra = Object.entries(c).filter(([k]) => k !== 'id' && k !== 'side')
          .map(([k, v]) => k + ' ' + (Array.isArray(v) ? '(' + v.join(', ') + ')' : v)).join(', ');
        li.appendChild(el('strong', {}, c.id));
        li.appendChild(document.createTextNode(' (' + c.side + (extra ? '; ' + extra : '') + ') '));
        if (i) {
          const up = el('button', { type: 'button', 'aria-label': 'move ' + c.id + ' earlier in the initiative' }, 'earlier');
          up.addEventListener('click', () => change({ op: 'earlier', id: c.id }));
          li.appendChild(up);
        }
        const rm = el('button', { type: 'button', 'aria-label': 'remove ' + c.id }, 'remove');
        rm.addEventListener('click', () => change({ op: 'remove-combatant', id: c.id }));
        li.appendChild(rm);
        list.appendChild(li);
      });
      const side = $('b-side');
      side.textContent = '';
      m.sides.forEach((s) => side.appendChild(el('option', { value: s }, s)));
      const more = $('b-fighter-fields');
      more.textContent = '';
      m.fighter_fields.concat([{ name: 'reach', type: 'count', low: 1, high: 10 }]).forEach((f) => {
        const id = 'b-f-' + f.name;
        const span = el('span', { class: 'field' });
        span.appendChild(el('label', { for: id }, f.name + ' '));
        if (f.type === 'flag') {
          span.appendChild(el('input', { id: id, type: 'checkbox', dataset: { field: f.name, type: 'flag' } }));
        } else if (f.high - f.low <= 100) {      // a small count: chosen, not typed
          const s = el('select', { id: id, dataset: { field: f.name, type: 'count' } });
          s.appendChild(el('option', { value: '' }, '(default)'));
          for (let n = f.low; n <= Math.min(f.high, f.low + 10); n += 1) { s.appendChild(el('option', { value: String(n) }, String(n))); }
          span.appendChild(s);
        } else {
          span.appendChild(el('input', { id: id, type: 'number', min: f.low, max: f.high, size: 5, dataset: { field: f.name, type: 'count' } }));
        }
        more.appendChild(span);
      });
      const place = (sq) => {
        $('b-place').dataset.at = JSON.stringify(sq);
        drawScene(m, $('b-place'), place, sq);
        $('b-place-chosen').textContent = 'chosen: (' + sq + ')';
      };
      delete $('b-place').dataset.at;
      $('b-place-chosen').textContent = 'none chosen';
      drawScene(m, $('b-place'), place);
    }

    function addCombatant() {
      const c = { id: $('b-name').value.trim(), side: $('b-side').value };
      $('b-fighter-fields').querySelectorAll('[data-field]').forEach((i) => {
        if (i.dataset.type === 'flag' && i.checked) { c[i.dataset.field] = true; }
        if (i.dataset.type === 'count' && i.value !== '') { c[i.dataset.field] = Number(i.value); }
      });
      if ($('b-place').dataset.at) { c.at = JSON.parse($('b-place').dataset.at); }
      if (change({ op: 'add-combatant', combatant: c })) { $('b-name').value = ''; }
    }

    // A grid of squares: the combatants where they stand; onPick(square) makes each square a button.
    function drawScene(m, box, onPick, marked) {
      box.textContent = '';
      const at = m.positions || {};
      m.combatants.forEach((c) => { if (c.at && !at[c.id]) { at[c.id] = c.at; } });
      const squares = Object.values(at);
      if (!squares.length && !onPick) { box.hidden = true; return; }
      box.hidden = false;
      const marks = (marked ? [marked] : []).concat(onPick === pickPath ? path : []);
      const all = squares.concat(marks, [[0, 0]]);   // the grid grows with the path clicked
      const xs = all.map((s) => s[0]), ys = all.map((s) => s[1]);
      const x0 = Math.min(...xs) - 3, x1 = Math.max(...xs) + 3 + (squares.length ? 0 : 4);
      const y0 = Math.min(...ys) - 2, y1 = Math.max(...ys) + 2 + (squares.length ? 0 : 2);
      const grid = el('div', { class: 'grid', role: onPick ? 'group' : 'img', 'aria-label': onPick ? 'squares: click to choose' : 'where each combatant stands' });
      grid.style.gridTemplateColumns = 'repeat(' + (x1 - x0 + 1) + ', 1.9em)';
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          const who = Object.keys(at).filter((k) => at[k][0] === x && at[k][1] === y);
          const n = marks.findIndex((s) => s[0] === x && s[1] === y);
          const label = who.map((w) => w.slice(0, 2)).join(' ') || (n >= 0 ? String(n + 1) : '')
            || (x === 0 && y === 0 ? '0,0' : '');
          const title = '(' + x + ',' + y + ')' + (who.length ? ' ' + who.join(', ') : '');
          const cell = el(onPick ? 'button' : 'span', { class: 'square' + (who.length ? ' taken' : '') + (n >= 0 ? ' marked' : ''), title: title, type: onPick ? 'button' : null, dataset: { x: String(x), y: String(y) } }, label);
          if (onPick) { cell.addEventListener('click', () => onPick([x, y])); }
          grid.appendChild(cell);
        }
      }
      box.appendChild(grid);
    }

    function drawChoices(m) {
      const box = $('b-choices');
      box.textContent = '';
      const groups = {};
      m.choices.forEach((c) => { const k = c.step.actor && c.step.do !== 'event' ? c.step.actor : '*'; (groups[k] = groups[k] || []).push(c); });
      Object.keys(groups).forEach((who) => {
        const sec = el('div', { class: 'choices', dataset: { actor: who } });
        sec.appendChild(el('h3', {}, who === '*' ? 'Anyone (the stack, events)' : who));
        const row = el('p');
        const refused = el('ul');
        groups[who].forEach((c) => {
          const name = c.label.startsWith(who + ' ') ? c.label.slice(who.length + 1) : c.label;
          if (c.verdict === 'rejected' && !c.first) { refused.appendChild(refusal(c, name)); return; }
          const b = el('button', { type: 'button', class: 'choice verdict-' + c.verdict, disabled: c.verdict === 'rejected', title: c.why,
            dataset: { kind: c.step.do, to: c.step.to || '', verdict: c.verdict, reason: c.reason || '' } },
          name + (c.verdict === 'gm' ? ' (GM)' : ''));
          b.addEventListener('click', () => (c.fields.some((f) => f.required || f.name === 'ruling') ? openForm(c) : change({ op: 'add-step', step: c.step })));
          row.appendChild(b);
          if (c.fields.length && c.verdict !== 'rejected') {
            const d = el('button', { type: 'button', class: 'details', 'aria-label': name + ', with details', title: name + ', with details', dataset: { details: c.step.do, to: c.step.to || '' } }, '\u2026');
            d.addEventListener('click', () => openForm(c));
            row.appendChild(d);
          }
          row.appendChild(document.createTextNode(' '));
          if (c.verdict === 'rejected') { refused.appendChild(refusal(c, name)); }
        });
        sec.appendChild(row);
        if (refused.children.length) {
          const why = el('details');
          why.appendChild(el('summary', {}, 'why not the others'));
          why.appendChild(refused);
          sec.appendChild(why);
        }
        box.appendChild(sec);
      });
    }

    // A refused step in words, with a button that asks it all the same (to record the refusal).
    function refusal(c, name) {
      const li = el('li', {}, name + ': ' + c.why + ' (' + c.reason + ') ');
      const anyway = el('button', { type: 'button', class: 'anyway', dataset: { kind: c.step.do, to: c.step.to || '' } }, 'ask it anyway');
      anyway.addEventListener('click', () => change({ op: 'add-step', step: c.step }));
      li.appendChild(anyway);
      return li;
    }

    function pickPath(sq) { path.push(sq); drawPath(); }
    function drawPath() {
      const box = $('b-form').querySelector('[data-path]');
      if (!box) { return; }
      box.querySelector('.path-now').textContent = path.length ? path.map((s) => '(' + s + ')').join(' ') : 'none yet';
      drawScene(current, box.querySelector('.path-grid'), pickPath);
    }

    function openForm(c) {
      pending = c;
      path = [];
      const form = $('b-form');
      form.textContent = '';
      form.hidden = false;
      form.appendChild(el('h3', {}, c.label + ': ' + c.verdict));
      form.appendChild(el('p', { class: 'note' }, c.why));
      c.fields.forEach((f) => {
        const id = 'b-field-' + f.name;
        const p = el('p', { dataset: f.type === 'path' ? { path: '1' } : {} });
        p.appendChild(el('label', { for: id }, f.label + ' '));
        if (f.type === 'text') { p.appendChild(el('input', { id: id, type: 'text', dataset: { field: f.name } })); }
        if (f.type === 'flag') { p.appendChild(el('input', { id: id, type: 'checkbox', dataset: { field: f.name, flag: '1' } })); }
        if (f.type === 'choice') {
          const s = el('select', { id: id, dataset: { field: f.name } });
          if (!f.required) { s.appendChild(el('option', { value: '' }, '(default)')); }
          f.choices.forEach((v) => s.appendChild(el('option', { value: JSON.stringify(v), selected: c.step[f.name] === v }, String(v))));
          p.appendChild(s);
        }
        if (f.type === 'targets') {
          f.choices.forEach((t) => {
            const l = el('label');
            l.appendChild(el('input', { type: 'checkbox', dataset: { target: t } }));
            l.appendChild(document.createTextNode(' ' + t + ' '));
            p.appendChild(l);
          });
        }
        if (f.type === 'path') {
          p.appendChild(el('span', { class: 'path-now' }));
          const clear = el('button', { type: 'button' }, 'clear the path');
          clear.addEventListener('click', () => { path = []; drawPath(); });
          p.appendChild(clear);
          p.appendChild(el('div', { class: 'path-grid' }));
        }
        form.appendChild(p);
      });
      const add = el('button', { type: 'button', id: 'b-add' }, 'Add this step');
      add.addEventListener('click', submitForm);
      const cancel = el('button', { type: 'button' }, 'Cancel');
      cancel.addEventListener('click', closeForm);
      form.appendChild(add);
      form.appendChild(cancel);
      drawPath();
      add.focus();
    }

    function submitForm() {
      const step = Object.assign({}, pending.step);
      $('b-form').querySelectorAll('[data-field]').forEach((i) => {
        if (i.dataset.flag) { if (i.checked) { step[i.dataset.field] = true; } return; }
        if (i.tagName === 'SELECT') { if (i.value !== '') { step[i.dataset.field] = JSON.parse(i.value); } return; }
        if (i.value.trim()) { step[i.dataset.field] = i.value.trim(); }
      });
      const targets = Array.from($('b-form').querySelectorAll('[data-target]')).filter((i) => i.checked).map((i) => i.dataset.target);
      if (targets.length) { step.targets = targets; }
      if (path.length) { step.path = path.slice(); }
      change({ op: 'add-step', step: step });
    }

    function closeForm() { pending = null; $('b-form').hidden = true; $('b-form').textContent = ''; }

    $('b-new').addEventListener('click', () => {
      if (api.source.value.trim() && !window.confirm('Replace the scenario in the text box with a new one?')) { return; }
      api.source.value = '';
      change({ op: 'new', ruleset: $('b-ruleset').value });
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
    $('b-add-combatant').addEventListener('click', addCombatant);
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
