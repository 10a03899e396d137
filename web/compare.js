// The comparison panel: two open documents (two tabs, or two files dropped on the panel)
// compared by structure in the document worker (crate/src/diff/, wasm `diff`). Two hex views
// side by side scroll in step by structure (wasm `diff_align`: the offsets of the nodes both
// files have), their bytes colored by whether their field differs (or, as a toggle, by
// confidence); the list of differences filters and sorts by path, kind and confidence, and a
// click selects a difference in both views and, in the inspector, in A's tab. Strings from the
// files are text, never HTML.
import { state, on, addDoc, setActive, select, setStatus } from './state.js';
import { call, docs } from './docs.js';
import { decodeWindow, LEVELS } from './hexview.js';
import { formatFragment, fetchSource } from './share.js';
import { censusReport } from './census.js';
import { rareValues } from './compare-census.js';
import { el } from './dom.js';

const ROW = 16;
const ROWS = 24;
const LISTED = 200; // changed elements listed per array (all are counted)
const MAX_LIST = 2000;
const KINDS = ['changed', 'only_a', 'only_b', 'elements', 'unexplained', 'moved', 'triangles', 'rare'];
const CONFIDENCES = ['proven', 'observed', 'inferred', 'unknown', 'uncovered'];
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let panel = null;
let cmp = null; // {a, b, result, map, marks: {a, b}}
const view = { filter: '', kind: 'all', confidence: 'all', sort: 'path', colors: 'diff', chosen: null };

const $ = (sel) => panel.querySelector(sel);
const hex = (n) => `0x${n.toString(16)}`;

/** Wires the header button. */
export function initCompare(button) {
  button.addEventListener('click', () => showCompare());
  on('docs', () => { if (panel && !panel.hidden) fillChoices(); });
}

/** Opens the panel; with two handles, compares them at once. */
export async function showCompare(a = null, b = null) {
  if (!panel) build();
  panel.hidden = false;
  fillChoices(a, b);
  if (a != null && b != null) await compareHandles(a, b);
}

/** The comparison shown, for tests: {a, b, result} or null. */
export function comparison() {
  return cmp && { a: cmp.a.handle, b: cmp.b.handle, result: cmp.result };
}

function build() {
  panel = el('section', { id: 'compare', class: 'compare', 'aria-label': 'Compare two files', hidden: true });
  const choice = (id, label) => el('label', {}, label, ' ', el('select', { id, onchange: () => $('#cmp-run').focus() }));
  panel.append(
    el('header', { class: 'cmp-head' },
      el('h2', {}, 'Compare'),
      choice('cmp-a', 'A'), choice('cmp-b', 'B'),
      el('button', { id: 'cmp-run', type: 'button', onclick: () => compareHandles(+$('#cmp-a').value, +$('#cmp-b').value) }, 'Compare'),
      el('span', { class: 'cmp-hint' }, 'or drop two files here'),
      el('button', { id: 'cmp-census', type: 'button', title: "A's rare values: held by under 1 % of the census's files, or outside its min..max", onclick: compareWithCensus }, 'Compare A with census…'),
      el('label', {}, el('input', { id: 'cmp-colors', type: 'checkbox', onchange: (e) => { view.colors = e.target.checked ? 'confidence' : 'diff'; paint(); } }), ' confidence colors'),
      el('button', { id: 'cmp-link', type: 'button', onclick: copyLink }, 'Copy link'),
      el('span', { id: 'cmp-status', role: 'status' }),
      el('button', { id: 'cmp-close', type: 'button', 'aria-label': 'Close', onclick: () => { panel.hidden = true; } }, '×')),
    el('div', { class: 'cmp-body' },
      el('div', { class: 'cmp-views' }, side('a'), side('b')),
      el('div', { class: 'cmp-list' },
        el('form', { class: 'cmp-filters', onsubmit: (e) => e.preventDefault() },
          el('input', { id: 'cmp-filter', placeholder: 'filter by path', oninput: (e) => { view.filter = e.target.value; renderList(); } }),
          el('select', { id: 'cmp-kind', onchange: (e) => { view.kind = e.target.value; renderList(); } },
            ...['all', ...KINDS].map((k) => el('option', { value: k }, k === 'all' ? 'every kind' : k))),
          el('select', { id: 'cmp-confidence', onchange: (e) => { view.confidence = e.target.value; renderList(); } },
            ...['all', ...CONFIDENCES].map((k) => el('option', { value: k }, k === 'all' ? 'any confidence' : k))),
          el('select', { id: 'cmp-sort', onchange: (e) => { view.sort = e.target.value; renderList(); } },
            ...[['path', 'by path'], ['kind', 'by kind'], ['confidence', 'by confidence'], ['offset', "by A's offset"]]
              .map(([v, t]) => el('option', { value: v }, t)))),
        el('div', { id: 'cmp-count' }),
        el('table', { id: 'cmp-table' },
          el('thead', {}, el('tr', {}, ...['Path', 'Kind', 'A', 'B', 'Delta'].map((h) => el('th', {}, h)))),
          el('tbody', {})))),
  );
  panel.addEventListener('dragover', (e) => { e.preventDefault(); e.stopPropagation(); });
  panel.addEventListener('drop', (e) => {
    e.preventDefault();
    e.stopPropagation();
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 2) compareFiles(files);
    else status('drop exactly two files to compare them');
  });
  document.body.append(panel);
}

function side(s) {
  const rows = el('div', { class: 'cmp-rows', id: `cmp-rows-${s}`, tabindex: 0 });
  rows.addEventListener('wheel', (e) => {
    e.preventDefault();
    const n = Math.round(e.deltaMode === 1 ? e.deltaY : e.deltaY / 20) || Math.sign(e.deltaY);
    scrollSide(s, n);
  }, { passive: false });
  rows.addEventListener('keydown', (e) => {
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: ROWS - 1, PageUp: 1 - ROWS }[e.key];
    if (step) { e.preventDefault(); scrollSide(s, step); }
  });
  rows.addEventListener('mousedown', (e) => {
    const o = e.target.closest('[data-offset]')?.dataset.offset;
    if (o != null) pickByte(s, Number(o));
  });
  for (let r = 0; r < ROWS; r++) {
    const row = el('div', { class: 'cmp-row' }, el('span', { class: 'cmp-off' }));
    for (let i = 0; i < ROW; i++) row.append(el('span', { class: 'cmp-b' }));
    rows.append(row);
  }
  return el('div', { class: 'cmp-side', id: `cmp-side-${s}` }, el('h3', { id: `cmp-name-${s}` }, s.toUpperCase()), rows);
}

function status(t) {
  $('#cmp-status').textContent = t;
}

function fillChoices(a = null, b = null) {
  const open = state.docs.filter((d) => d.size != null && !d.preview);
  for (const [id, want, fallback] of [['#cmp-a', a, open.at(-2)], ['#cmp-b', b, open.at(-1)]]) {
    const sel = $(id);
    const keep = want ?? (sel.value ? +sel.value : fallback?.handle);
    sel.replaceChildren(...open.map((d) => el('option', { value: d.handle }, `${d.name} (${d.summary?.format ?? '?'})`)));
    if (keep != null && open.some((d) => d.handle === keep)) sel.value = String(keep);
  }
}

/** Opens two dropped files as tabs, then compares them. */
async function compareFiles(files) {
  status(`opening ${files[0].name} and ${files[1].name}`);
  const handles = [];
  try {
    for (const f of files) handles.push(await openOne(f));
  } catch (e) {
    status(`could not open the files: ${e.message}`);
    return;
  }
  fillChoices(...handles);
  await compareHandles(...handles);
}

/** Opens a dropped file as a tab (structure first, then its mesh): its handle. */
async function openOne(f) {
  const first = await docs.openFile(f);
  const r = first.summary.pending ? await docs.complete(first.handle) : first;
  addDoc({ handle: r.handle, name: f.name, size: r.summary.size, summary: r.summary });
  return r.handle;
}

async function compareHandles(ha, hb) {
  const a = state.docs.find((d) => d.handle === ha);
  const b = state.docs.find((d) => d.handle === hb);
  if (!a || !b) { status('choose two open files'); return; }
  if (a.summary?.format !== b.summary?.format) status(`${a.summary?.format} vs ${b.summary?.format}: paths will rarely match`);
  else status('comparing…');
  const t0 = performance.now();
  let result;
  let flat;
  try {
    // A tab opened structure first may still wait for its mesh: the geometry is compared too.
    for (const d of [a, b]) if (d.summary?.pending) await docs.complete(d.handle);
    [result, flat] = await Promise.all([call('diff', [ha, hb, 1e-6, LISTED]), call('diff_align', [ha, hb])]);
  } catch (e) {
    status(`the comparison failed: ${e.message}`);
    return;
  }
  const ms = performance.now() - t0;
  cmp = { a, b, result, map: anchors(flat), marks: { a: marks(result, 'a'), b: marks(result, 'b') }, top: { a: 0, b: 0 }, cache: {} };
  view.chosen = null;
  $('#cmp-side-b').hidden = false;
  $('#cmp-name-a').textContent = `A: ${a.name}`;
  $('#cmp-name-b').textContent = `B: ${b.name}`;
  const n = result.differences.length;
  status(n === 0 ? `the same (${ms.toFixed(0)} ms)` : `${n} differences (${ms.toFixed(0)} ms)`);
  panel.dataset.ready = 'true';
  renderList();
  scrollTo('a', 0);
}

/** Lists A's rare values against the census last made (web/census.js), in the same list;
 *  the B view is hidden meanwhile. */
async function compareWithCensus() {
  const report = censusReport();
  if (!report) { status('make a census first (Census… in the header), then compare with it'); return; }
  const a = state.docs.find((d) => d.handle === +$('#cmp-a').value);
  if (!a) { status('choose an open file as A'); return; }
  let rows;
  try {
    rows = rareValues(report, a.summary?.format, await docs.tree(a.handle));
  } catch (e) {
    status(`the comparison failed: ${e.message}`);
    return;
  }
  const result = { a: a.name, b: 'census', differences: rows };
  cmp = { a, b: a, census: true, result, map: { byA: [], byB: [] }, marks: { a: marks(result, 'a'), b: [] }, top: { a: 0, b: 0 }, cache: {} };
  view.chosen = null;
  $('#cmp-side-b').hidden = true;
  $('#cmp-name-a').textContent = `A: ${a.name}`;
  status(`${rows.length} rare values in ${a.name} against a census of ${report.files} files`);
  panel.dataset.ready = 'true';
  renderList();
  scrollTo('a', 0);
}

/** The anchors both ways (`[a, b, len, stride_a, stride_b]` each): sorted by A's offset and
 *  by B's, for the row that faces a row. */
function anchors(flat) {
  const list = [];
  for (let i = 0; i + 4 < flat.length; i += 5) {
    list.push({ a: flat[i], b: flat[i + 1], len: flat[i + 2], sa: flat[i + 3], sb: flat[i + 4] });
  }
  const byB = [...list].sort((x, y) => x.b - y.b || x.a - y.a);
  return { byA: list, byB };
}

/** Where offset `x` of side `from` lies on the other side: in the innermost node holding it
 *  (the last anchor starting at or before it that reaches it, else the one before), the
 *  same byte of the same array element. */
function facing(from, x) {
  const list = from === 'a' ? cmp.map.byA : cmp.map.byB;
  const [key, other, s1, s2] = from === 'a' ? ['a', 'b', 'sa', 'sb'] : ['b', 'a', 'sb', 'sa'];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid][key] <= x) lo = mid + 1; else hi = mid;
  }
  if (lo === 0) return x;
  let best = list[lo - 1];
  for (let i = lo - 1; i >= 0 && i >= lo - 256; i--) {
    if (list[i][key] + list[i].len > x) { best = list[i]; break; }
  }
  const d = x - best[key];
  if (!best[s1] || !best[s2] || d >= best.len) return Math.max(0, best[other] + d);
  return best[other] + Math.floor(d / best[s1]) * best[s2] + Math.min(d % best[s1], best[s2] - 1);
}

/** Each side's differing bytes as [start, end, class], the widest first so narrower ones
 *  paint over them. Array summaries are left out: their listed elements carry the marks. */
function marks(result, s) {
  const out = [];
  result.differences.forEach((d, i) => {
    const p = d[s];
    if (!p || p.offset == null || d.kind === 'elements') return;
    out.push([p.offset, p.offset + Math.max(1, p.len), `d-${d.kind}`, i]);
  });
  return out.sort((x, y) => (y[1] - y[0]) - (x[1] - x[0]));
}

const sizeOf = (s) => cmp[s].size;
const rowOf = (x) => Math.floor(x / ROW) * ROW;

function scrollSide(s, rows) {
  scrollTo(s, cmp.top[s] + rows * ROW);
}

/** Puts offset `x`'s row at the top of side `s`; the other side shows the row facing it. */
function scrollTo(s, x) {
  if (!cmp) return;
  const o = s === 'a' ? 'b' : 'a';
  const top = Math.max(0, Math.min(rowOf(x), rowOf(Math.max(0, sizeOf(s) - 1))));
  cmp.top[s] = top;
  cmp.top[o] = Math.max(0, Math.min(rowOf(facing(s, top)), rowOf(Math.max(0, sizeOf(o) - 1))));
  paint();
}

async function windowOf(s) {
  const doc = cmp[s];
  const start = cmp.top[s];
  const end = Math.min(doc.size, start + ROWS * ROW);
  const c = cmp.cache[s];
  if (c && c.start === start && c.end === end) return c;
  const w = await docs.window(doc.handle, start, end);
  const d = decodeWindow(w.start, w.bytes, w.bounds);
  cmp.cache[s] = { start, end, bytes: w.bytes, conf: d.conf };
  return cmp.cache[s];
}

let painting = null;
function paint() {
  painting = (painting ?? Promise.resolve()).then(() => Promise.all(['a', 'b'].map(paintSide))).catch((e) => console.error(e));
  return painting;
}

async function paintSide(s) {
  if (!cmp) return;
  const w = await windowOf(s);
  const rows = $(`#cmp-rows-${s}`);
  rows.dataset.top = w.start;
  const ms = cmp.marks[s].filter((m) => m[0] < w.end && m[1] > w.start);
  const chosen = view.chosen != null ? cmp.result.differences[view.chosen]?.[s] : null;
  [...rows.children].forEach((row, r) => {
    const rowStart = w.start + r * ROW;
    row.hidden = rowStart >= cmp[s].size;
    row.firstChild.textContent = rowStart.toString(16).padStart(8, '0');
    for (let i = 0; i < ROW; i++) {
      const cell = row.children[i + 1];
      const o = rowStart + i;
      const k = o - w.start;
      if (k >= w.bytes.length) { cell.textContent = '  '; cell.className = 'cmp-b'; delete cell.dataset.offset; continue; }
      cell.textContent = HEX[w.bytes[k]];
      cell.dataset.offset = o;
      let cls = 'cmp-b';
      if (view.colors === 'confidence') cls += ` lv-${LEVELS[w.conf[k]] ?? 'uncovered'}`;
      else {
        const m = ms.findLast((x) => x[0] <= o && o < x[1]);
        cls += m ? ` ${m[2]}` : ' d-same';
      }
      if (chosen && chosen.offset != null && o >= chosen.offset && o < chosen.offset + Math.max(1, chosen.len)) cls += ' cmp-sel';
      cell.className = cls;
    }
  });
}

function filtered() {
  const f = view.filter.toLowerCase();
  const list = cmp.result.differences.map((d, i) => ({ d, i })).filter(({ d }) => (!f || d.path.toLowerCase().includes(f))
    && (view.kind === 'all' || d.kind === view.kind)
    && (view.confidence === 'all' || (d.confidence ?? 'uncovered') === view.confidence));
  const conf = (d) => CONFIDENCES.indexOf(d.confidence ?? 'uncovered');
  const by = {
    path: () => 0,
    kind: (x, y) => KINDS.indexOf(x.d.kind) - KINDS.indexOf(y.d.kind),
    confidence: (x, y) => conf(x.d) - conf(y.d),
    offset: (x, y) => (x.d.a?.offset ?? Infinity) - (y.d.a?.offset ?? Infinity),
  }[view.sort];
  return list.sort((x, y) => by(x, y) || x.i - y.i);
}

const shown = (p) => (p ? (p.offset != null ? `${hex(p.offset)}: ${p.value}` : p.value) : '—');
const delta = (d) => (d.delta?.length ? d.delta.map((x) => (x > 0 ? '+' : '') + Number(x.toPrecision(7))).join(', ') : '');

function renderList() {
  if (!cmp) return;
  const list = filtered();
  const what = cmp.census ? 'rare values' : 'differences';
  $('#cmp-count').textContent = `${list.length} of ${cmp.result.differences.length} ${what}${list.length > MAX_LIST ? ` (first ${MAX_LIST} shown)` : ''}`;
  const body = $('#cmp-table tbody');
  body.replaceChildren(...list.slice(0, MAX_LIST).map(({ d, i }) => {
    const tr = el('tr', { class: `k-${d.kind}`, 'data-index': i, onclick: () => choose(i) },
      el('td', { class: 'cmp-path', title: d.note || d.type }, d.path),
      el('td', {}, d.kind + (d.changed != null ? ` (${d.changed})` : '') + (d.kind === 'rare' ? `: ${d.note}` : '')),
      el('td', {}, shown(d.a)), el('td', {}, shown(d.b)), el('td', {}, delta(d)));
    if (i === view.chosen) tr.setAttribute('aria-selected', 'true');
    return tr;
  }));
}

/** Selects difference `i` in both views and, in the inspector, in A's tab (B's when A has
 *  no bytes for it). */
export function choose(i) {
  const d = cmp.result.differences[i];
  if (!d) return;
  view.chosen = i;
  for (const tr of panel.querySelectorAll('#cmp-table tr[aria-selected]')) tr.removeAttribute('aria-selected');
  panel.querySelector(`#cmp-table tr[data-index="${i}"]`)?.setAttribute('aria-selected', 'true');
  const lead = ['a', 'b'].find((s) => d[s]?.offset != null);
  if (lead) {
    const other = lead === 'a' ? 'b' : 'a';
    scrollTo(lead, Math.max(0, d[lead].offset - 4 * ROW));
    if (d[other]?.offset != null) {
      cmp.top[other] = Math.max(0, rowOf(d[other].offset) - 4 * ROW);
      paint();
    }
    const doc = cmp[lead];
    setActive(doc.handle);
    select(d[lead].offset, d[lead].offset + Math.max(1, d[lead].len), 'compare');
  } else paint();
  status(`${d.path}: ${d.kind}${d.note ? ` (${d.note})` : ''}`);
}

/** A click on a byte chooses the narrowest difference there, if any. */
function pickByte(s, o) {
  const m = cmp.marks[s].findLast((x) => x[0] <= o && o < x[1]);
  if (m) choose(m[3]);
}

async function copyLink() {
  if (!cmp) return;
  if (cmp.census) { status('a comparison with a census has no link (the census is not an address)'); return; }
  if (!cmp.a.src || !cmp.b.src) { status('both files must come from addresses (#src=) for a link'); return; }
  const url = new URL(location.href);
  url.hash = `${formatFragment({ src: cmp.a.src })}&cmp=${encodeURIComponent(cmp.b.src)}`;
  await navigator.clipboard?.writeText(url.href).catch(() => {});
  status('link copied');
  setStatus('comparison link copied');
}

/** Opens a comparison a link describes (`#src=A&cmp=B`): A is opened by the page; B is
 *  fetched here and compared with it. */
export async function openCompareLink(hash, aHandle) {
  const b = new URLSearchParams(hash.replace(/^#/, '')).get('cmp');
  if (!b || aHandle == null) return;
  const name = decodeURIComponent(b.split(/[?#]/)[0].split('/').pop() || 'download');
  const bytes = await fetchSource(b);
  const r = await docs.openBytes(name, bytes);
  addDoc({ handle: r.handle, name, size: r.summary.size, summary: r.summary, src: b });
  await showCompare(aHandle, r.handle);
}
