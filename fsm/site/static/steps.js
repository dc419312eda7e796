// The step-through of the scenario pages and of the live checker.
// fsmSteps(data, svg, onShow, first): step through data.steps on the panel
// (#step-panel), lighting the phase and the taken edges on ``svg``, the phase
// in the list that stands in for the picture on a phone (ol.phases), and the
// current row of tr[data-step]; ``onShow(n)`` is told each step shown. One
// stepper at a time answers the buttons and the arrow keys. Also: the
// details toggle (the machine's own words), and the Copy buttons.
(function () {
  'use strict';
  document.documentElement.classList.add('js');
  if ('ontouchstart' in window || (window.matchMedia && matchMedia('(pointer: coarse)').matches)) {
    document.documentElement.classList.add('touch');   // no keyboard hints on a touch screen
  }
  let active = null;
  const panel = document.getElementById('step-panel');
  function light(svg, kind, names) {
    if (!svg) { return; }
    svg.querySelectorAll('g.' + kind).forEach((g) => {
      const t = g.querySelector('title');
      g.classList.toggle('lit', Boolean(t) && names.indexOf(t.textContent) >= 0);
    });
  }
  function field(name, text) {
    const el = panel.querySelector('[data-field=' + name + ']');
    if (el) { el.textContent = text; }
    return el;
  }
  function show(st, n) {
    const data = st.data;
    st.current = Math.max(0, Math.min(data.steps.length, n));
    const s = st.current === 0 ? data.start : data.steps[st.current - 1];
    field('step', st.current === 0 ? 'Before the first step'
      : 'Step ' + st.current + ' of ' + data.steps.length);
    field('title', s.title || s.what);
    field('say', s.say || '').className = s.verdict ? 'verdict-' + s.verdict : '';
    field('cost', s.cost ? 'Spent: ' + s.cost : '');
    field('failures', s.failures.length ? 'Expected, and not so: ' + s.failures.join('; ') : '');
    field('moment', s.moment || s.now);
    field('purse', s.purse || s.budgets);
    field('what', s.what);
    field('verdict', s.verdict ? s.verdict + (s.reason ? ' (' + s.reason + ')' : '') : 'no step judged yet');
    field('rules', s.rules.join(', ') || 'none');
    field('explain', s.explain || '');
    field('phase', s.phase + ': ' + s.now);
    field('stack', (s.on_stack || s.stack).join(' \u2190 ') || 'empty');
    field('budgets', s.budgets);
    const scene = panel.querySelector('[data-field=scene]');   // drawn by fsm.site.scene_svg
    scene.innerHTML = s.scene || '';
    scene.hidden = !s.scene;
    light(st.svg, 'node', [s.phase]);
    light(st.svg, 'edge', s.edges);
    document.querySelectorAll('ol.phases li').forEach((li) => {
      li.classList.toggle('lit', li.dataset.phase === s.phase);
    });
    document.querySelectorAll('tr[data-step]').forEach((tr) => {
      tr.classList.toggle('current', Number(tr.dataset.step) === st.current);
    });
    document.querySelectorAll('g[data-seq-step]').forEach((g) => {
      g.classList.toggle('later', Number(g.dataset.seqStep) > st.current);
    });
    document.getElementById('prev').disabled = st.current === 0;      // nothing before the start,
    document.getElementById('next').disabled = st.current === data.steps.length;   // nor after the last
    if (st.onShow) { st.onShow(st.current); }
  }
  document.getElementById('prev').addEventListener('click', () => {
    if (active) { show(active, active.current - 1); }
  });
  document.getElementById('next').addEventListener('click', () => {
    if (active) { show(active, active.current + 1); }
  });
  document.addEventListener('keydown', (e) => {
    if (!active || (e.target && /^(TEXTAREA|INPUT|SELECT)$/.test(e.target.tagName))) { return; }
    if (e.key === 'ArrowLeft') { show(active, active.current - 1); }
    if (e.key === 'ArrowRight') { show(active, active.current + 1); }
  });
  // the details toggle: the machine's own words (rule ids, reason codes, the stack),
  // hidden until asked for
  document.querySelectorAll('button.details-toggle').forEach((b) => {
    b.addEventListener('click', () => {
      const on = document.body.classList.toggle('show-details');
      document.querySelectorAll('button.details-toggle').forEach((o) => {
        o.setAttribute('aria-pressed', String(on));
        if (!o.dataset.shown) { o.dataset.shown = o.textContent; }
        o.textContent = on ? 'Hide the details' : o.dataset.shown;
      });
    });
  });
  // a Copy button copies the text box it names (the verdicts for a post)
  document.querySelectorAll('button[data-copy]').forEach((copy) => {
    copy.addEventListener('click', () => {
      const text = document.getElementById(copy.dataset.copy);
      const said = document.querySelector('[data-said="' + copy.dataset.copy + '"]');
      const done = () => { said.textContent = 'copied'; };
      const select = () => { text.select(); said.textContent = 'selected: press Ctrl+C to copy'; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text.value).then(done, select);
      } else { select(); }
    });
  });
  window.fsmShow = (n) => { if (active) { show(active, n); } };
  window.fsmSteps = (data, svg, onShow, first) => {
    active = { data: data, svg: svg, onShow: onShow, current: 0 };
    panel.hidden = false;
    show(active, first || 0);
  };
}());
