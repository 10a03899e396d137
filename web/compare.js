// The comparison panel: two open documents (two tabs, or two files dropped on the panel)
// compared by structure in the document worker (crate/src/diff/, wasm `diff`). Two hex views
// (web/hexview.js, following no tab) side by side scroll in step by structure (wasm
// `diff_align`: the offsets of the nodes both files have), their bytes colored by whether
// their field differs (or, as a toggle, by confidence); the 3D view (web/compare-3d.js) shows
// both meshes with the moved vertices colored; the list of differences filters and sorts by
// path, kind and confidence, and a click selects a difference in both views, in the 3D view
// and, in the inspector, in A's tab. The view goes in the link (`#src=A&cmp=B&…`). Strings
// from the files are text, never HTML.
import { state, on, addDoc, setActive, select, setStatus, EV } from './state.js';
import { call, docs } from './docs.js';
import { HexView, LV_CLASS, ROW } from './hexview.js';
import { formatFragment, fetchSource } from './share.js';
import { censusReport, runCensus } from './census.js';
import { rareValues, parseCensus } from './compare-census.js';
import { CompareMesh } from './compare-3d.js';
import { el } from './dom.js';

const LISTED = 200; // changed elements listed per array (all are counted)
const MAX_LIST = 2000;
/** Vertices closer than this have not moved, unless the tolerance field says otherwise. */
export const TOLERANCE = 1e-6;
const KINDS = ['changed', 'only_a', 'only_b', 'elements', 'unexplained', 'moved', 'triangles', 'rare'];
const CONFIDENCES = ['proven', 'observed', 'inferred', 'unknown', 'uncovered'];
const SORTS = [['path', 'by path'], ['kind', 'by kind'], ['confidence', 'by confidence'], ['offset', "by A's offset"]];

let panel = null;
let cmp = null; // {a, b, result, map, marks: {a, b}, census}
const views = {}; // 'a', 'b': the two hex views
let three = null; // the 3D view
let comparing = 0; // the latest comparison begun: an earlier one that ends later is dropped
const view = { filter: '', kind: 'all', confidence: 'all', sort: 'path', colors: 'diff', chosen: null, bytes: null };

const $ = (sel) => panel.querySelector(sel);
const hex = (n) => `0x${n.toString(16)}`;
const other = (s) => (s === 'a' ? 'b' : 'a');

/** Wires the header button. */
export function initCompare(button) {
  button.addEventListener('click', () => showCompare());
  on(EV.docs, () => { if (panel && !panel.hidden) fillChoices(); });
}

/** Opens the panel; with two handles, compares them at once. */
export async function showCompare(a = null, b = null) {
  if (!panel) build();
  panel.hidden = false;
  fillChoices(a, b);
  if (!panel.contains(document.activeElement)) $('#cmp-run').focus();
  if (a != null && b != null) await compareHandles(a, b);
}

function closeCompare() {
  panel.hidden = true;
  document.getElementById('compare-button')?.focus();
}

/** The comparison shown, for tests: {a, b, result} or null. */
export function comparison() {
  return cmp && { a: cmp.a.handle, b: cmp.b.handle, result: cmp.result };
}

/** One side's hex view: the inspector's view on a document of the comparison, its bytes
 *  colored by the difference covering them, scrolled in step with the other side. */
class SideView extends HexView {
  constructor(node, side) {
    super(node, { follow: false });
    this.side = side;
    this.near = [];
    this.onTop = () => followSide(side);
  }

  /** The chosen difference's bytes on this side, shown as the selection. */
  current() {
    return { sel: view.chosen != null ? view.bytes?.[this.side] ?? null : null, cursor: null };
  }

  tint(o, code) {
    if (view.colors === 'confidence') return LV_CLASS[code];
    const m = this.near.findLast((x) => x[0] <= o && o < x[1]);
    return m ? m[2] : 'd-same';
  }

  paint() {
    if (!cmp || !this.doc) return;
    const start = this.top * ROW;
    const end = start + this.rows.length * ROW;
    this.near = cmp.marks[this.side].filter((m) => m[0] < end && m[1] > start);
    super.paint();
    this.el.dataset.top = String(start);
  }

  onDown(e) {
    const o = this.offsetAt(e.target);
    if (o == null || e.button !== 0) return;
    e.preventDefault();
    this.el.focus({ preventScroll: true });
    pickByte(this.side, o);
  }

  /** The keys scroll both views (the bytes are not edited or selected here). */
  onKey(e) {
    if (!this.doc || e.target !== this.el) return;
    const page = this.visibleRows - 1;
    const to = { ArrowDown: this.top + 1, ArrowUp: this.top - 1, PageDown: this.top + page, PageUp: this.top - page, Home: 0, End: this.maxTop() }[e.key];
    if (to == null) return;
    e.preventDefault();
    this.scrollToRow(to);
  }

  repaint() {
    this.invalidate();
    this.paint();
  }
}

function build() {
  panel = el('section', { id: 'compare', class: 'compare', 'aria-label': 'Compare two files', hidden: true });
  const choice = (id, label) => el('label', {}, label, ' ', el('select', { id, onchange: () => $('#cmp-run').focus() }));
  const folder = el('input', { id: 'cmp-census-folder', type: 'file', webkitdirectory: true, multiple: true, hidden: true, onchange: (e) => censusFromFiles([...e.target.files]) });
  const saved = el('input', { id: 'cmp-census-file', type: 'file', accept: '.json,.jsonl,application/json', hidden: true, onchange: (e) => censusFromSaved(e.target.files[0]) });
  panel.append(
    el('header', { class: 'cmp-head' },
      el('h2', {}, 'Compare'),
      choice('cmp-a', 'A'), choice('cmp-b', 'B'),
      el('label', { title: 'Vertices that moved less than this (in the file\'s units) have not moved' }, 'moved over ',
        el('input', { id: 'cmp-tolerance', type: 'number', min: 0, step: 'any', value: '1e-6', size: 8, onchange: retolerate })),
      el('button', { id: 'cmp-run', type: 'button', onclick: () => compareHandles(+$('#cmp-a').value, +$('#cmp-b').value) }, 'Compare'),
      el('span', { class: 'cmp-hint' }, 'or drop two files here'),
      el('span', { class: 'cmp-census', role: 'group', 'aria-label': "A's rare values against a census" },
        el('button', { id: 'cmp-census', type: 'button', title: "A's rare values: held by under 1 % of the census's files, or outside its min..max (the census last made with Census…)", onclick: compareWithCensus }, 'Compare A with census…'),
        el('button', { id: 'cmp-census-open', type: 'button', title: 'A census saved earlier: the JSON of Census… or of meshscope census --json', onclick: () => saved.click() }, 'saved census…'),
        el('button', { id: 'cmp-census-dir', type: 'button', title: 'A folder of files of the format: a census of it is made, then A is compared with it', onclick: () => folder.click() }, 'folder…'),
        saved, folder),
      el('label', {}, el('input', { id: 'cmp-colors', type: 'checkbox', onchange: (e) => { view.colors = e.target.checked ? 'confidence' : 'diff'; repaint(); } }), ' confidence colors'),
      el('button', { id: 'cmp-link', type: 'button', onclick: copyLink }, 'Copy link'),
      el('span', { id: 'cmp-status', role: 'status' }),
      el('button', { id: 'cmp-close', type: 'button', 'aria-label': 'Close', title: 'Close (Esc)', onclick: closeCompare }, '×')),
    el('div', { class: 'cmp-body' },
      el('div', { class: 'cmp-views' }, side('a'), side('b')),
      el('div', { class: 'cmp-list' },
        el('form', { class: 'cmp-filters', onsubmit: (e) => e.preventDefault() },
          el('input', { id: 'cmp-filter', placeholder: 'filter by path', 'aria-label': 'Filter by path', oninput: (e) => { view.filter = e.target.value; renderList(); } }),
          el('select', { id: 'cmp-kind', 'aria-label': 'Kind of difference', onchange: (e) => { view.kind = e.target.value; renderList(); } },
            ...['all', ...KINDS].map((k) => el('option', { value: k }, k === 'all' ? 'every kind' : k))),
          el('select', { id: 'cmp-confidence', 'aria-label': 'Confidence of the field', onchange: (e) => { view.confidence = e.target.value; renderList(); } },
            ...['all', ...CONFIDENCES].map((k) => el('option', { value: k }, k === 'all' ? 'any confidence' : k))),
          el('select', { id: 'cmp-sort', 'aria-label': 'Sort', onchange: (e) => { view.sort = e.target.value; renderList(); } },
            ...SORTS.map(([v, t]) => el('option', { value: v }, t)))),
        el('div', { id: 'cmp-count' }),
        el('table', { id: 'cmp-table', tabindex: 0, 'aria-label': 'Differences: arrows move, the chosen one is shown', onkeydown: onListKey },
          el('thead', {}, el('tr', {}, ...['Path', 'Kind', 'A', 'B', 'Delta'].map((h) => el('th', {}, h)))),
          el('tbody', {}))),
      el('div', { class: 'cmp-3d', id: 'cmp-3d' })),
  );
  panel.addEventListener('dragover', (e) => { e.preventDefault(); e.stopPropagation(); });
  panel.addEventListener('drop', (e) => {
    e.preventDefault();
    e.stopPropagation();
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 2) compareFiles(files);
    else status('drop exactly two files to compare them');
  });
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) { e.preventDefault(); closeCompare(); }
  });
  document.body.append(panel);
  for (const s of ['a', 'b']) views[s] = new SideView($(`#cmp-rows-${s}`), s);
  three = new CompareMesh($('#cmp-3d'), onPick);
}

function side(s) {
  return el('div', { class: 'cmp-side', id: `cmp-side-${s}` },
    el('h3', { id: `cmp-name-${s}` }, s.toUpperCase()),
    el('div', { class: 'cmp-hex', id: `cmp-rows-${s}`, tabindex: 0, role: 'grid', 'aria-label': `${s.toUpperCase()}'s bytes: arrows and Page Up/Down scroll both views` }));
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

/** The tolerance the field holds (the default when it holds no number). */
function tolerance() {
  const t = Number($('#cmp-tolerance').value);
  return Number.isFinite(t) && t >= 0 ? t : TOLERANCE;
}

/** The tolerance changed: the same files are compared again with it. */
function retolerate() {
  if (cmp && !cmp.census) compareHandles(cmp.a.handle, cmp.b.handle);
}

async function compareHandles(ha, hb) {
  const a = state.docs.find((d) => d.handle === ha);
  const b = state.docs.find((d) => d.handle === hb);
  if (!a || !b) { status('choose two open files'); return; }
  if (a.summary?.format !== b.summary?.format) status(`${a.summary?.format} vs ${b.summary?.format}: paths will rarely match`);
  else status('comparing…');
  delete panel.dataset.ready;
  const tol = tolerance();
  const mine = ++comparing;
  const t0 = performance.now();
  let result;
  let flat;
  try {
    // A tab opened structure first may still wait for its mesh: the geometry is compared too.
    for (const d of [a, b]) if (d.summary?.pending) await docs.complete(d.handle);
    [result, flat] = await Promise.all([call('diff', [ha, hb, tol, LISTED]), call('diff_align', [ha, hb])]);
  } catch (e) {
    if (mine === comparing) status(`the comparison failed: ${e.message}`);
    return;
  }
  // Two tolerances typed in quick turn: the first's result may come last, and is stale.
  if (mine !== comparing) return;
  const ms = performance.now() - t0;
  const chosen = cmp && !cmp.census && cmp.a === a && cmp.b === b ? cmp.result.differences[view.chosen] : null;
  cmp = { a, b, result, tolerance: tol, map: anchors(flat), marks: { a: marks(result, 'a'), b: marks(result, 'b') } };
  view.chosen = chosen ? findDifference(chosen.path, chosen.kind) : null;
  view.bytes = null;
  panel.dataset.ms = String(Math.round(ms));
  const n = result.differences.length;
  status(n === 0 ? `the same (${ms.toFixed(0)} ms)` : `${n} differences (${ms.toFixed(0)} ms)`);
  showSides(true);
  renderList();
  panel.dataset.ready = 'true';
  const t1 = performance.now();
  await three.show(a, b, tol);
  if (mine !== comparing || cmp?.a !== a || cmp?.b !== b) return;
  panel.dataset.three = String(Math.round(performance.now() - t1));
  if (view.chosen != null) await choose(view.chosen);
}

/** Shows A's view, and B's and the 3D view unless A is compared with a census. */
function showSides(both) {
  $('#cmp-side-b').hidden = !both;
  $('#cmp-3d').hidden = !both;
  $('#cmp-name-a').textContent = `A: ${cmp.a.name}`;
  $('#cmp-name-b').textContent = `B: ${cmp.b.name}`;
  views.a.show(cmp.a);
  if (both) views.b.show(cmp.b);
}

/** Lists A's rare values against a census report (the last made, when none is given) in the
 *  same list; the B view and the 3D view are hidden meanwhile. */
async function compareWithCensus(given = null) {
  const report = given instanceof Event ? censusReport() : given ?? censusReport();
  if (!report) { status('make a census first (Census… in the header, or a folder or saved census here), then compare with it'); return; }
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
  cmp = { a, b: a, census: true, result, map: { byA: [], byB: [] }, marks: { a: marks(result, 'a'), b: [] } };
  view.chosen = null;
  view.bytes = null;
  showSides(false);
  status(`${rows.length} rare values in ${a.name} against a census of ${report.files} files${report.source ? ` (${report.source})` : ''}`);
  panel.dataset.ready = 'true';
  renderList();
}

/** A census saved earlier (the page's JSON or `meshscope census --json`), then A against it. */
async function censusFromSaved(file) {
  if (!file) return;
  let report;
  try {
    report = parseCensus(await file.text(), file.name);
  } catch (e) {
    status(`${file.name}: ${e.message}`);
    return;
  }
  $('#cmp-census-file').value = '';
  await compareWithCensus(report);
}

/** A census made here of a folder's files, then A against it. */
async function censusFromFiles(files) {
  $('#cmp-census-folder').value = '';
  if (!files.length) return;
  status(`making a census of ${files.length} files…`);
  let report;
  try {
    report = await runCensus(files.map((f) => ({ name: f.webkitRelativePath || f.name, file: f })),
      (p) => status(`census: ${p.done ?? 0} of ${files.length} files`));
  } catch (e) {
    status(`the census failed: ${e.message}`);
    return;
  }
  await compareWithCensus({ ...report, source: `a folder of ${files.length} files` });
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

let following = false;
/** Side `s` scrolled: the other shows the row facing its top row. */
function followSide(s) {
  if (following || !cmp || cmp.census) return;
  following = true;
  try {
    views[other(s)].scrollToRow(Math.floor(facing(s, views[s].top * ROW) / ROW));
  } finally {
    following = false;
  }
}

function repaint() {
  for (const s of ['a', 'b']) if (views[s].doc) views[s].repaint();
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

/** The bytes one side of a difference covers, or null. */
const range = (p) => (p?.offset != null ? { start: p.offset, end: p.offset + Math.max(1, p.len) } : null);

/** Selects difference `i` in both views, in the 3D view and, in the inspector, in A's tab
 *  (B's when A has no bytes for it). A moved vertex or a triangle has no bytes of its own in
 *  the list: the bytes are those of the vertex or indices in the shown LOD. */
export async function choose(i, { from3d = false } = {}) {
  const d = cmp?.result.differences[i];
  if (!d) return;
  view.chosen = i;
  view.bytes = { a: range(d.a), b: range(d.b) };
  for (const tr of panel.querySelectorAll('#cmp-table tr[aria-selected]')) tr.removeAttribute('aria-selected');
  const tr = panel.querySelector(`#cmp-table tr[data-index="${i}"]`);
  tr?.setAttribute('aria-selected', 'true');
  tr?.scrollIntoView({ block: 'nearest' });
  status(`${d.path}: ${d.kind}${d.note ? ` (${d.note})` : ''}`);
  if (!cmp.census) {
    if (!from3d) await three.focus(d);
    if (view.chosen !== i) return; // another was chosen meanwhile
    if (!view.bytes.a && !view.bytes.b) view.bytes = three.bytesOf(d);
  }
  const lead = ['a', 'b'].find((s) => view.bytes[s]);
  if (lead) {
    following = true;
    try {
      const at = (s) => Math.max(0, Math.floor(view.bytes[s].start / ROW) - 4);
      views[lead].scrollToRow(at(lead));
      const o = other(lead);
      if (!cmp.census) views[o].scrollToRow(view.bytes[o] ? at(o) : Math.floor(facing(lead, views[lead].top * ROW) / ROW));
    } finally {
      following = false;
    }
    setActive(cmp[lead].handle);
    select(view.bytes[lead].start, view.bytes[lead].end, 'compare');
  }
  repaint();
}

/** The index of the difference with this path (and kind, when given), or null. */
function findDifference(path, kind = null) {
  const i = cmp.result.differences.findIndex((d) => d.path === path && (kind == null || d.kind === kind));
  return i < 0 ? null : i;
}

/** A triangle clicked in the 3D view: its difference, else one of its moved vertices'. */
function onPick({ side, lod, triangle, vertices, moved }) {
  if (!cmp || cmp.census) return;
  const t = findDifference(`mesh.lod[${lod}].triangle[${triangle}]`, side === 'a' ? 'only_a' : 'only_b');
  const v = moved.map((k) => findDifference(`mesh.lod[${lod}].vertex[${k}]`, 'moved')).find((x) => x != null);
  if (t != null || v != null) { choose(t ?? v, { from3d: true }); return; }
  const what = moved.length ? `its moved vertices ${moved.join(', ')} are past the first ${LISTED} listed` : 'nothing of it differs';
  status(`${side.toUpperCase()} triangle ${triangle} [${vertices.join(', ')}]: ${what}`);
}

/** Arrow keys in the list choose the previous or next difference shown. */
function onListKey(e) {
  const rows = [...panel.querySelectorAll('#cmp-table tbody tr')];
  if (!rows.length) return;
  const at = rows.findIndex((r) => r.getAttribute('aria-selected') === 'true');
  const to = { ArrowDown: at + 1, ArrowUp: at < 0 ? 0 : at - 1, Home: 0, End: rows.length - 1 }[e.key];
  if (to == null) return;
  e.preventDefault();
  const r = rows[Math.max(0, Math.min(rows.length - 1, to))];
  choose(Number(r.dataset.index));
}

/** A click on a byte chooses the narrowest difference there, if any. */
function pickByte(s, o) {
  const m = cmp?.marks[s].findLast((x) => x[0] <= o && o < x[1]);
  if (m) choose(m[3]);
}

/** The comparison's part of a link: B's address, then what is shown (all optional). */
function linkParams() {
  const p = [`cmp=${encodeURIComponent(cmp.b.src)}`];
  const d = view.chosen != null ? cmp.result.differences[view.chosen] : null;
  if (cmp.tolerance !== TOLERANCE) p.push(`ctol=${cmp.tolerance}`);
  if (d) p.push(`cdiff=${encodeURIComponent(d.path)}`, `ckind=${d.kind}`);
  if (view.filter) p.push(`cfilter=${encodeURIComponent(view.filter)}`);
  if (view.kind !== 'all') p.push(`cshow=${view.kind}`);
  if (view.confidence !== 'all') p.push(`cconf=${view.confidence}`);
  if (view.sort !== 'path') p.push(`csort=${view.sort}`);
  if (view.colors !== 'diff') p.push('ccolors=confidence');
  if (three.mode.value !== 'a') p.push(`c3d=${three.mode.value}`);
  if (three.scene && three.scene.lod !== 0) p.push(`clod=${three.scene.lod}`);
  return p.join('&');
}

async function copyLink() {
  if (!cmp) return;
  if (cmp.census) { status('a comparison with a census has no link (the census is not an address)'); return; }
  if (!cmp.a.src || !cmp.b.src) { status('both files must come from addresses (#src=) for a link'); return; }
  const url = new URL(location.href);
  url.hash = `${formatFragment({ src: cmp.a.src })}&${linkParams()}`;
  panel.dataset.link = url.href;
  history.replaceState(null, '', url.hash);
  await navigator.clipboard?.writeText(url.href).catch(() => {});
  status('link copied');
  setStatus('comparison link copied');
}

/** Opens a comparison a link describes (`#src=A&cmp=B&…`): A is opened by the page; B is
 *  fetched here and compared with it, and the link's view (tolerance, filters, the chosen
 *  difference, the 3D view's mode and LOD) is put back. */
export async function openCompareLink(hash, aHandle) {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const b = q.get('cmp');
  if (!b || aHandle == null) return;
  const name = decodeURIComponent(b.split(/[?#]/)[0].split('/').pop() || 'download');
  const bytes = await fetchSource(b);
  const r = await docs.openBytes(name, bytes);
  addDoc({ handle: r.handle, name, size: r.summary.size, summary: r.summary, src: b });
  if (!panel) build();
  const set = (id, key, v) => { if (v != null) { $(id).value = v; view[key] = v; } };
  if (q.get('ctol') != null) $('#cmp-tolerance').value = q.get('ctol');
  set('#cmp-filter', 'filter', q.get('cfilter'));
  set('#cmp-kind', 'kind', q.get('cshow'));
  set('#cmp-confidence', 'confidence', q.get('cconf'));
  set('#cmp-sort', 'sort', q.get('csort'));
  view.colors = q.get('ccolors') === 'confidence' ? 'confidence' : 'diff';
  $('#cmp-colors').checked = view.colors === 'confidence';
  if (q.get('c3d')) three.mode.value = q.get('c3d');
  await showCompare(aHandle, r.handle);
  const lod = Number(q.get('clod') ?? 0);
  if (lod > 0) await three.load(lod);
  const i = q.get('cdiff') != null ? findDifference(q.get('cdiff'), q.get('ckind')) : null;
  if (i != null) await choose(i);
  panel.dataset.linked = 'true';
}
