// The builder's choices: what may happen now, grouped as fsm.site.menu groups
// them (what waits to take effect, the answers to each trigger, the active
// combatant's turn, anyone, the rest folded), each a button with the verdict
// the machine would give it, a refused one disabled with its reason; and the
// details form of a step.
(function () {
  'use strict';
  const B = window.fsmB = window.fsmB || {};
  const el = B.el;

  // Whether a choice lacks a field its form requires: its button then opens the form.
  function needsForm(c) {
    return c.fields.some((f) => f.required && !(f.name in c.steps[c.steps.length - 1]));
  }

  function button(c, add, open) {
    const b = el('button', { type: 'button', class: 'choice verdict-' + c.verdict,
      disabled: c.verdict === 'rejected', title: c.hint || c.say,
      dataset: { key: c.key, kind: c.kind, actor: c.actor, to: c.to, verdict: c.verdict,
        reason: c.reason || '', steps: JSON.stringify(c.steps), edits: JSON.stringify(c.edits) } },
    c.label + (c.verdict === 'gm' ? ' (the GM decides)' : ''));
    const needs = needsForm(c);
    b.dataset.form = needs ? '1' : '';
    b.addEventListener('click', () => (needs ? open(c) : add(c)));
    return b;
  }

  function more(c, open) {
    const d = el('button', { type: 'button', class: 'more', title: c.label + ': give its details',
      'aria-label': c.label + ', with details', dataset: { details: c.key } }, '\u2026');
    d.addEventListener('click', () => open(c));
    return d;
  }

  function refusal(c, add, open) {
    const li = el('li', { dataset: { key: c.key } });
    li.appendChild(button(c, add, add));
    li.appendChild(el('span', { class: 'why' }, ' ' + c.say + ' '));
    const anyway = el('button', { type: 'button', class: 'anyway', dataset: { key: c.key } }, 'ask it anyway');
    anyway.addEventListener('click', () => add(c));
    const pair = el('span', { class: 'pair' });
    pair.appendChild(anyway);
    if (c.fields.some((f) => f.name !== 'name')) { pair.appendChild(more(c, open)); }
    li.appendChild(pair);
    return li;
  }

  // A row of choices: the allowed ones as buttons, the refused ones listed
  // under them with their reasons.
  function line(choices, add, open, into) {
    const row = el('span', { class: 'allowed' });
    const refused = el('ul', { class: 'refused' });
    choices.forEach((c) => {
      if (c.verdict === 'rejected') { refused.appendChild(refusal(c, add, open)); return; }
      const pair = el('span', { class: 'pair' });      // a choice and its … stay together
      pair.appendChild(button(c, add, open));
      if (!needsForm(c) && c.fields.some((f) => f.name !== 'name')) { pair.appendChild(more(c, open)); }
      row.appendChild(pair);
      row.appendChild(document.createTextNode(' '));
    });
    into.appendChild(row);
    if (refused.children.length) { into.appendChild(refused); }
  }

  // The step that moves the one whose turn it is, when the builder offers
  // it and nothing stands in its way (a grid's square then adds it), or null.
  B.walk = function (m) {
    for (const g of m.groups) {
      if (g.id !== 'turn') { continue; }
      for (const c of g.choices) {
        const step = c.steps[0];
        if (c.steps.length === 1 && c.verdict !== 'rejected' && m.moving.indexOf(step.do) >= 0
            && step.actor === m.active && m.positions[step.actor]) { return step; }
      }
    }
    return null;
  };

  // For each enemy next to ``mover`` on the grid, the free square straight
  // away from it: [[square, the enemy's name], ...].
  B.away = function (m, mover) {
    const at = m.positions || {};
    const me = at[mover], mine = m.combatants.find((c) => c.id === mover);
    if (!me || !mine) { return []; }
    const free = (sq) => !Object.values(at).some((s) => s[0] === sq[0] && s[1] === sq[1]);
    return m.combatants.filter((c) => c.side !== mine.side && at[c.id]
        && Math.max(Math.abs(at[c.id][0] - me[0]), Math.abs(at[c.id][1] - me[1])) === 1)
      .map((c) => [[me[0] + Math.sign(me[0] - at[c.id][0]), me[1] + Math.sign(me[1] - at[c.id][1])], c.who])
      .filter(([sq]) => free(sq));
  };

  B.drawChoices = function (m, box, add, open) {
    box.textContent = '';
    m.groups.forEach((g) => {
      const sec = g.folded ? el('details', { class: 'group', dataset: { group: g.id } })
        : el('section', { class: 'group', dataset: { group: g.id, trigger: g.trigger || '' } });
      sec.appendChild(g.folded ? el('summary', {}, g.title + ' (' + g.choices.length + '): what may not happen, and why')
        : el('h3', {}, g.title));
      if (['answers', 'anyone', 'conditions', 'forced'].indexOf(g.id) >= 0 || g.folded) {   // a line per combatant
        const whos = [];
        g.choices.forEach((c) => { if (whos.indexOf(c.who) < 0) { whos.push(c.who); } });
        whos.forEach((who) => {
          const div = el('div', { class: 'who-row', dataset: { who: who } });
          div.appendChild(el('strong', {}, (who || 'Anyone') + ':'));
          line(g.choices.filter((c) => c.who === who), add, open, div);
          sec.appendChild(div);
        });
      } else {
        const div = el('div', { class: 'who-row' });
        line(g.choices, add, open, div);
        sec.appendChild(div);
      }
      box.appendChild(sec);
    });
  };

  // The details form of a choice: quick buttons (a count, a flag, an attack
  // at someone) that add it at once, and every field with Add.
  B.openForm = function (m, c, form, add) {
    const path = [];
    form.textContent = '';
    form.hidden = false;
    form.appendChild(el('h3', {}, (c.who ? c.who + ': ' : '') + c.label));
    form.appendChild(el('p', { class: 'hint' }, c.say + (c.hint ? ' (' + c.hint + ')' : '')));
    const quick = el('p', { class: 'quick' });
    const fields = el('div');
    function collect(extra) {
      const step = Object.assign({}, c.steps[c.steps.length - 1]);
      form.querySelectorAll('[data-field]').forEach((i) => {
        const name = i.dataset.field;
        if (i.dataset.flag) { if (i.checked) { step[name] = true; } return; }
        if (i.tagName === 'SELECT') { if (i.value !== '') { step[name] = JSON.parse(i.value); } return; }
        if (!i.value.trim()) { return; }
        step[name] = i.dataset.labels ? i.value.split(',').map((s) => s.trim()).filter(Boolean) : i.value.trim();
      });
      const whom = form.querySelector('[data-when-who]'), what = form.querySelector('[data-when-what]');
      if (whom && what && what.value) {      // the readied action's trigger, in its name
        const fires = 'when ' + whom.value + ' ' + what.value.replace('{who}', c.who || 'its');
        step.name = step.name ? step.name + ', ' + fires : 'readied for ' + fires;
        const code = what.selectedOptions[0].dataset.code;   // and in its field, where checked
        if (code) { step.when = code; }
        const by = whom.selectedOptions[0].dataset.id;
        if (code && by) { step.by = by; }
      }
      const targets = Array.from(form.querySelectorAll('[data-target]')).filter((i) => i.checked).map((i) => i.dataset.target);
      if (targets.length) { step.targets = targets; }
      Object.assign(step, extra || {});
      const said = c.fields.find((x) => x.type === 'when');
      if (extra && extra.when && said && !step.name) {      // a quick circumstance: named too
        const w = said.choices[(said.codes || []).indexOf(extra.when)] || extra.when;
        step.name = 'readied for when someone ' + w.replace('{who}', c.who || 'its');
      }
      if (path.length) { step.path = step.teleport ? path.slice(-1) : path.slice(); }  // a jump: where it ends
      return { op: 'add-steps', steps: c.steps.slice(0, -1).concat([step]), edits: c.edits };
    }
    function quickly(label, extra) {
      const b = el('button', { type: 'button', dataset: { quick: JSON.stringify(extra) } }, label);
      b.addEventListener('click', () => add(collect(extra)));
      quick.appendChild(b);
    }
    const last = c.steps[c.steps.length - 1];
    c.fields.forEach((f) => {
      const id = 'b-field-' + f.name;
      const p = el('p');
      p.appendChild(el('label', { for: id }, f.label + ' '));
      if (f.type === 'text' || f.type === 'labels') {
        p.appendChild(el('input', { id: id, type: 'text', dataset: { field: f.name, labels: f.type === 'labels' ? '1' : null } }));
      }
      if (f.type === 'flag') {
        p.appendChild(el('input', { id: id, type: 'checkbox', dataset: { field: f.name, flag: '1' } }));
        if (f.hint) { p.appendChild(el('span', { class: 'hint' }, ' ' + f.hint)); }
        if (f.name !== 'shift') { quickly(f.label, { [f.name]: true }); }
      }
      if (f.type === 'count') {
        if (f.quick !== false) { f.choices.forEach((v) => quickly(v + ' ' + (f.short || f.label), { [f.name]: v })); }
        const s = el('select', { id: id, dataset: { field: f.name } });
        if (!f.required) { s.appendChild(el('option', { value: '' }, 'one')); }
        f.choices.forEach((v) => s.appendChild(el('option', { value: JSON.stringify(v), selected: last[f.name] === v }, String(v))));
        p.appendChild(s);
      }
      if (f.type === 'choice') {
        const s = el('select', { id: id, dataset: { field: f.name } });
        s.appendChild(el('option', { value: '' }, '(none)'));
        f.choices.forEach((v, k) => s.appendChild(el('option', { value: JSON.stringify(v), selected: last[f.name] === v }, (f.words || f.choices)[k])));
        p.appendChild(s);
      }
      if (f.type === 'when') {              // each circumstance the rules check: one click
        f.choices.forEach((w, k) => {
          const code = (f.codes || [])[k];
          if (code) { quickly('when someone ' + w.replace('{who}', c.who || 'its'), { when: code }); }
        });
        const whom = el('select', { id: id, 'aria-label': 'who', dataset: { whenWho: '1' } });
        whom.appendChild(el('option', { value: 'someone' }, 'someone'));   // by nobody in particular
        f.words.forEach((w, k) => whom.appendChild(el('option', { value: w, dataset: { id: f.who[k] } }, w)));
        const what = el('select', { 'aria-label': 'does what', dataset: { whenWhat: '1' } });
        what.appendChild(el('option', { value: '' }, '(not said)'));
        f.choices.forEach((w, k) => what.appendChild(el('option', { value: w, dataset: { code: (f.codes || [])[k] || null } }, w.replace('{who}', c.who || 'its'))));
        p.appendChild(whom);
        p.appendChild(what);
      }
      if (f.type === 'text' && f.suggest && f.suggest.length) {
        f.suggest.forEach((v) => quickly(f.label + ' ' + v, { [f.name]: v }));
      }
      if (f.type === 'targets') {
        f.choices.forEach((t, k) => {
          const l = el('label');
          l.appendChild(el('input', { type: 'checkbox', dataset: { target: t } }));
          l.appendChild(document.createTextNode(' ' + f.words[k] + ' '));
          p.appendChild(l);
          const attacks = c.fields.find((x) => x.name === 'attack');
          if (attacks && t !== last.actor) {
            attacks.choices.forEach((a) => quickly(a + ' attack at ' + f.words[k], { attack: a, targets: [t] }));
          }
        });
      }
      if (f.type === 'path') {
        p.dataset.path = '1';
        const chosen = form.querySelector('#b-field-actor');
        const own = () => c.fields.some((x) => x.name === m.jump)            // its own teleport, ticked
          && Boolean((form.querySelector('#b-field-' + m.jump) || {}).checked);
        const mover = () => last.actor || (chosen && chosen.value ? JSON.parse(chosen.value) : null);
        // f.jump: true when the choice is a teleport, or the forced kind that makes one
        const teleported = () => {
          const how = form.querySelector('#b-field-forced');
          return f.jump === true || (Boolean(f.jump) && Boolean(how) && how.value === JSON.stringify(f.jump));
        };
        // a teleport done to someone is its one square: a click on it adds the step
        B.path(m, p, mover, () => teleported() || own(), path,
          () => { if (teleported() && mover()) { add(collect()); } });
        if (!f.jump) {
          const shifts = c.fields.some((x) => x.name === 'shift');
          const steps = c.fields.some((x) => x.name === 'step');        // PF2's Step
          B.away(m, last.actor).forEach(([sq, who]) => {
            quickly((shifts ? 'shift' : 'move') + ' 1 square away from ' + who,
              shifts ? { path: [sq], shift: true } : { path: [sq] });
            if (steps) { quickly('Step 1 square away from ' + who, { path: [sq], step: true }); }
          });
        }
      }
      fields.appendChild(p);
    });
    form.appendChild(quick);
    form.appendChild(fields);
    const addIt = el('button', { type: 'button', id: 'b-add' }, 'Add this step');
    addIt.addEventListener('click', () => add(collect()));
    form.appendChild(addIt);
    if (c.fields.some((f) => f.name === 'shift')) {
      const shift = el('button', { type: 'button', id: 'b-add-shift' }, 'Add it as a shift');
      shift.addEventListener('click', () => add(collect({ shift: true })));
      form.appendChild(shift);
    }
    const cancel = el('button', { type: 'button' }, 'Cancel');
    cancel.addEventListener('click', () => { form.hidden = true; form.textContent = ''; });
    form.appendChild(cancel);
    form.scrollIntoView({ block: 'nearest' });
  };
}());
