// The summary: format, size, facts (counts and names), coverage by confidence in percent
// of bytes, the checks the decoder ran (stored against measured, pass or fail), the LODs
// and the errors. Links jump to the bytes they name.
import { state, on, select, EV } from './state.js';

const LEVELS = ['proven', 'observed', 'inferred', 'unknown', 'uncovered'];

export class SummaryView {
  constructor(el) {
    this.el = el;
    on(EV.active, (doc) => this.render(doc));
    const again = (doc) => { if (doc.handle === state.active) this.render(doc); };
    on(EV.completed, again);
    on(EV.checked, again);
  }

  render(doc) {
    if (!doc) { this.el.replaceChildren(); return; }
    const s = doc.summary;
    const out = [];
    const dl = document.createElement('dl');
    dl.className = 'facts';
    const fact = (k, v) => dl.append(text('dt', k), text('dd', v));
    fact('file', s.file);
    fact('format', s.format);
    fact('size', `${s.size.toLocaleString()} bytes`);
    for (const [k, v] of s.facts ?? []) fact(k, v);
    s.mesh?.forEach((l, i) => fact(`LOD ${i}`, `${l.vertices.toLocaleString()} vertices, ${l.triangles.toLocaleString()} triangles, ${l.sections.length} section(s)`));
    if (s.pending) fact('mesh', 'decoding…');
    if (s.attached?.length) fact('attached', s.attached.join(', '));
    out.push(dl);
    out.push(coverage(s));
    if (s.checks?.length) out.push(...checkGroups(s.checks));
    if (s.checks_pending) out.push(text('p', 'Checks: being made…', 'empty checks-pending'));
    this.el.replaceChildren(...out);
  }
}

// Checks in two groups: what the format's description states (a failure there means the
// file contradicts it) and what is only our guess (a failure is an observation).
const GROUPS = [
  { basis: 'description', title: 'Checks against the description', fail: 'the file contradicts the description' },
  { basis: 'guess', title: 'Checks of our guesses', fail: 'does not hold here' },
];

function checkGroups(checks) {
  const out = [];
  for (const g of GROUPS) {
    const mine = checks.filter((c) => (c.basis ?? 'description') === g.basis);
    if (!mine.length) continue;
    const failed = mine.filter((c) => !c.passed).length;
    const h = text('h3', g.title);
    h.append(text('span', failed ? ` (${failed} ${g.fail})` : ' (all hold)', 'check-count'));
    const ul = document.createElement('ul');
    ul.className = 'checks';
    ul.dataset.basis = g.basis;
    for (const c of mine) {
      const li = document.createElement('li');
      li.className = c.passed ? 'pass' : (g.basis === 'guess' ? 'observed' : 'fail');
      const verdict = c.passed ? (g.basis === 'guess' ? '✓ holds' : '✓ pass') : (g.basis === 'guess' ? '≠ does not hold' : '✗ fail');
      const tol = c.tolerance ? ` (within ${c.tolerance})` : '';
      li.append(text('span', verdict, 'verdict'), text('span', ` ${c.name}: stored ${c.stored}, measured ${c.measured}${tol}`));
      if (c.offset != null) li.append(' ', jump(c.offset, c.path));
      ul.append(li);
    }
    out.push(h, ul);
  }
  return out;
}

function coverage(s) {
  const wrap = document.createElement('div');
  wrap.className = 'coverage';
  const bar = document.createElement('div');
  bar.className = 'cov-bar';
  const table = document.createElement('table');
  table.className = 'cov-table';
  const total = s.size || 1;
  for (const l of LEVELS) {
    const n = s.coverage?.[l] ?? 0;
    const pct = (100 * n) / total;
    const seg = document.createElement('span');
    seg.className = `lv-${l}`;
    seg.style.width = `${pct}%`;
    seg.title = `${l}: ${pct.toFixed(1)}%`;
    bar.append(seg);
    const tr = document.createElement('tr');
    tr.dataset.level = l;
    tr.append(text('td', l, `badge lv-${l}`), text('td', `${pct.toFixed(1)}%`), text('td', `${n.toLocaleString()} B`));
    table.append(tr);
  }
  wrap.append(text('h3', 'Coverage'), bar, table);
  return wrap;
}

/** A button that selects and shows the byte at `offset`. */
export function jump(offset, label) {
  const b = document.createElement('button');
  b.className = 'link';
  b.textContent = `0x${offset.toString(16)}${label ? ` ${label}` : ''}`;
  b.addEventListener('click', () => select(offset, offset + 1, 'link'));
  return b;
}

export function text(tag, t, cls) {
  const e = document.createElement(tag);
  e.textContent = t;
  if (cls) e.className = cls;
  return e;
}
