// The builder's grid (fsm.site.builder does the work in Python; this draws):
// the squares where the combatants stand, placing them on a grid, moving one,
// and a path clicked square by square. Shared helpers live on window.fsmB.
(function () {
  'use strict';
  const B = window.fsmB = window.fsmB || {};

  B.el = function (tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) { return; }
      if (k === 'dataset') {
        Object.entries(v).forEach(([dk, dv]) => { if (dv !== null && dv !== undefined) { e.dataset[dk] = dv; } });
      } else { e.setAttribute(k, v === true ? '' : v); }
    });
    if (text !== undefined) { e.textContent = text; }
    return e;
  };
  const el = B.el;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

  // The squares of a straight walk from a to b, a left out, halves rounded
  // down (the tests of the builder compute the same line to plan their clicks).
  B.line = function (a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1], n = Math.max(Math.abs(dx), Math.abs(dy));
    const out = [];
    for (let i = 1; i <= n; i += 1) {
      out.push([a[0] + Math.ceil(dx * i / n - 0.5), a[1] + Math.ceil(dy * i / n - 0.5)]);
    }
    return out;
  };

  // The squares a grid shows: two or three past what stands or is marked on it,
  // and at least the first window, [x0, x1, y0, y1].
  B.bounds = function (at, marks) {
    const all = Object.values(at || {}).concat(marks || [], [[0, 0]]);
    const xs = all.map((s) => s[0]), ys = all.map((s) => s[1]);
    return [Math.min(-3, Math.min(...xs) - 2), Math.max(9, Math.max(...xs) + 3),
      Math.min(-2, Math.min(...ys) - 2), Math.max(5, Math.max(...ys) + 2)];
  };

  // A grid in ``box``: who stands where (at: {id: [x, y]}, names: {id: words}),
  // squares marked in order (marks), one picked; with onPick(square, id) every
  // square is a button. ``origin`` ([x, y]: its top left square) keeps the
  // squares where they were while clicks go on: the grid grows only right and down.
  B.grid = function (box, o) {
    box.textContent = '';
    const at = o.at || {};
    const b = B.bounds(at, o.marks);
    const [x0, x1, y0, y1] = o.origin ? [o.origin[0], b[1], o.origin[1], b[3]] : b;
    const grid = el('div', { class: 'grid', role: o.onPick ? 'group' : 'img', 'aria-label': o.label });
    grid.style.gridTemplateColumns = 'repeat(' + (x1 - x0 + 1) + ', max-content)';   // as wide as .square
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const who = Object.keys(at).filter((k) => same(at[k], [x, y]));
        const n = (o.marks || []).findIndex((s) => same(s, [x, y]));
        const names = who.map((w) => (o.names || {})[w] || w);
        const text = names.map((w) => w.slice(0, 2)).join(' ') || (n >= 0 ? String(n + 1) : '');
        const cls = 'square' + (who.length ? ' taken' : '') + (n >= 0 ? ' marked' : '')
          + (x === 0 && y === 0 ? ' origin' : '') + (who.indexOf(o.picked) >= 0 ? ' picked' : '');
        const cell = el(o.onPick ? 'button' : 'span', {
          class: cls, type: o.onPick ? 'button' : null, title: '(' + x + ',' + y + ')' + (names.length ? ' ' + names.join(', ') : ''),
          dataset: { x: String(x), y: String(y), who: who.join(' ') } }, text);
        if (o.onPick) { cell.addEventListener('click', () => o.onPick([x, y], who[0])); }
        grid.appendChild(cell);
      }
    }
    box.appendChild(grid);
  };

  // Putting the combatants on a grid: one click on a square for each, in
  // turn order, or "side by side" for the rest; change(c) sends the change.
  B.placing = function (m, box, change) {
    const order = m.combatants.map((c) => c.id);
    const names = Object.fromEntries(m.combatants.map((c) => [c.id, c.who]));
    const at = {};
    const first = B.bounds(at), origin = [first[0], first[2]];   // squares stay put
    function draw() {
      const next = order.find((id) => !at[id]);
      if (!next) { change({ op: 'grid', at: at }); return; }
      box.textContent = '';
      box.appendChild(el('p', { class: 'hint', id: 'b-place-prompt' }, 'On a grid? Click a square for '
        + names[next] + ' (or leave them off it: reach and moves are then said in words).'));
      const rest = el('button', { type: 'button', id: 'b-place-rest' }, 'Place the rest for me');
      rest.addEventListener('click', () => {
        let x = 0;
        order.filter((id) => !at[id]).forEach((id, i) => {
          while (Object.values(at).some((s) => same(s, [x, i % 2]))) { x += 1; }
          at[id] = [x, i % 2];
        });
        draw();
      });
      const cancel = el('button', { type: 'button' }, 'Leave them off a grid');
      cancel.addEventListener('click', () => { box.textContent = ''; });
      box.appendChild(rest);
      box.appendChild(cancel);
      const grid = el('div');
      box.appendChild(grid);
      B.grid(grid, { at: at, names: names, origin: origin, label: 'squares: click one for ' + names[next], onPick: (sq, who) => {
        if (who) { return; }
        at[next] = sq;
        draw();
      } });
    }
    draw();
  };

  // The grid of where everyone starts: click someone, then a free square, to move them.
  B.starts = function (m, box, change) {
    const at = Object.fromEntries(m.combatants.map((c) => [c.id, c.at]));
    const names = Object.fromEntries(m.combatants.map((c) => [c.id, c.who]));
    let picked = null;
    function draw() {
      box.textContent = '';
      box.appendChild(el('p', { class: 'hint' }, picked ? 'Now click where ' + names[picked] + ' starts.'
        : 'Where everyone starts: click someone, then a square, to move them.'));
      const grid = el('div');
      box.appendChild(grid);
      B.grid(grid, { at: at, names: names, picked: picked, label: 'where everyone starts', onPick: (sq, who) => {
        if (who) { picked = who === picked ? null : who; draw(); return; }
        if (picked) { change({ op: 'place', id: picked, at: sq }); }
      } });
    }
    draw();
  };

  // A path clicked on the grid for a step's form: each click walks a straight
  // line from the path's end (the mover's square at first) to that square; a
  // jump (a teleport: jump() says whether the step is one now) is the one
  // square arrived at; then(), when given, is called after each click (a
  // step that is only its square is added at once).
  B.path = function (m, box, mover, jump, path, then) {   // mover(): whose path it is
    const now = m.positions || {};
    const names = Object.fromEntries(m.combatants.map((c) => [c.id, c.who]));
    const first = B.bounds(now), origin = [first[0], first[2]];     // squares stay put
    function draw() {
      box.querySelector('.path-now').textContent = path.length
        ? path.map((s) => '(' + s + ')').join(' ') : 'none yet';
      B.grid(box.querySelector('.path-grid'), { at: now, names: names, marks: path, origin: origin, label: 'squares: click the path', onPick: (sq) => {
        const from = path.length ? path[path.length - 1] : now[mover()];
        if (jump() || !from) { path.splice(0, path.length, sq); } else { path.push(...B.line(from, sq)); }
        draw();
        if (then) { then(); }
      } });
    }
    box.appendChild(el('span', { class: 'path-now' }));
    const clear = el('button', { type: 'button' }, 'clear the path');
    clear.addEventListener('click', () => { path.splice(0); draw(); });
    box.appendChild(document.createTextNode(' '));
    box.appendChild(clear);
    box.appendChild(el('div', { class: 'path-grid' }));
    draw();
  };
}());
