// The census panel: drop a folder or many files (or choose them), and see what every field,
// count, size and unexplained byte holds across the set. The work runs in census-worker.js
// (its own wasm instance) with a progress bar and Cancel; the result is a sortable, filterable
// table, a histogram of the chosen entry, the files and records holding each value (one click
// opens the file there), and CSV / JSON export. `censusLookup` answers (record kind, offset)
// for annotations; `annotationFromEntry` turns a row into a draft annotation.
import { select, emit, setStatus, EV } from './state.js';
import { WorkerClient, CANCELLED } from './worker-protocol.js';
import { el } from './dom.js';
import { readBatch } from './census-read.js';

const MAX_ROWS = 2000;
const BARS = 40;
const COLUMNS = [
  ['record', 'Record'], ['offset', 'Offset'], ['path', 'Path'], ['kind', 'Kind'], ['type', 'Type'],
  ['files', 'Files'], ['records', 'Records'], ['distinct', 'Distinct'], ['top', 'Top value'], ['equals', 'Always equals'],
];

let panel = null;
let running = null; // {abort} of the census running
let report = null;
let openFiles = null;
const files = new Map(); // census name -> File, to open a file at a value's place
let runs = 0;
const view = { sort: 'record', dir: 1, filter: '', kind: 'all', varying: false, chosen: null };

const $ = (sel) => panel.querySelector(sel);
const hex = (n, w = 2) => `0x${n.toString(16).padStart(w, '0')}`;

/** Wires the button that opens the panel; `open(files)` opens files in the inspector. */
export function initCensus(button, { open }) {
  openFiles = open;
  button.addEventListener('click', showCensus);
}

/** Opens the census as a modal <dialog>: Esc or × closes it, and the focus goes back to
 *  where it was (to the hex view when a place was opened from it). */
export function showCensus() {
  if (!panel) build();
  if (panel.open) return;
  returnFocus = document.activeElement;
  panel.hidden = false;
  panel.showModal();
}

let returnFocus = null;

function closeCensus(focusTo = null) {
  if (!panel?.open) return;
  if (focusTo) returnFocus = focusTo;
  panel.close();
}

/** The last report, or null. */
export function censusReport() {
  return report;
}

/** Entries of the last report that hold `offset` inside records of kind `record`. */
export function censusLookup(record, offset, format = null) {
  if (!report) return [];
  return report.entries.filter((e) => e.record === record && (format == null || e.format === format)
    && e.offset != null && !e.offset_varies && e.offset <= offset && offset < e.offset + Math.max(1, e.width));
}

/** A draft annotation for a row, in the annotation file form (web/annotation-store.js). */
export function annotationFromEntry(e) {
  if (e.record === '(file)' || e.offset == null || e.offset_varies || !e.width) return null;
  const type = e.width === 1 ? 'u8' : e.width === 2 ? 'u16' : e.width === 4 ? (e.type === 'f32' ? 'f32' : 'u32')
    : e.width === 8 ? 'u64' : 'bytes';
  const top = e.values.slice(0, 3).map((v) => `${v.value} x${v.count}`).join(', ');
  return {
    name: e.kind === 'field' ? e.path.split('.').pop() : `unknown_${hex(e.offset)}`,
    type,
    confidence: e.confidence ?? 'unknown',
    note: `census of ${e.files} files, ${e.records} records: ${e.distinct} distinct${e.constant ? ' (constant)' : ''}; ${top}`,
    anchor: { kind: 'record', format: e.format, record: e.record, offset: e.offset, length: e.width },
  };
}

/** Options of the next runs: `pauseAfter` (for tests) holds the worker after that many files
 *  until the run is cancelled, so a test can cancel a census that is surely still running;
 *  `planners` (for tests and benchmarks) sets how many planner workers help the census worker
 *  (null: one per core past the first, at most MAX_PLANNERS); `batchFiles` the files a batch
 *  holds; `timing` adds the time of each step to the report (web/census-worker.js). */
export const censusOptions = { pauseAfter: null, planners: null, batchFiles: undefined, timing: false };

/** More planners than this only make the threads take turns on a machine of few cores. */
const MAX_PLANNERS = 3;

const plannerCount = () => censusOptions.planners
  ?? Math.max(0, Math.min(MAX_PLANNERS, (navigator.hardwareConcurrency || 1) - 1));

/** Runs a census over `list` ([{name, file}]) in a worker of its own (its memory goes with it),
 *  helped by planner workers (web/census-planner.js) that it talks to over ports of their own;
 *  resolves with the report, or rejects with Cancelled once the worker has stopped. */
export function runCensus(list, onProgress = () => {}) {
  cancelCensus();
  files.clear();
  for (const f of list) files.set(f.name, f.file);
  const client = new WorkerClient(new URL('./census-worker.js', import.meta.url), 'census worker');
  const planners = Array.from({ length: plannerCount() }, () => new WorkerClient(new URL('./census-planner.js', import.meta.url), 'census planner'));
  const channels = planners.map(() => new MessageChannel());
  // A planner that fails ends the census with its error (its call never answers otherwise).
  const plannerFailed = new Promise((_, reject) => planners.forEach((p, i) => {
    p.call('plan', [channels[i].port2], { transfer: [channels[i].port2] }).catch((e) => { if (!e.cancelled) reject(e); });
  }));
  const mine = { abort: new AbortController() };
  running = mine;
  const { pauseAfter, batchFiles, timing } = censusOptions;
  const ports = channels.map((c) => c.port1);
  // The worker gets the names; the page reads the batches it asks for (`serveReads`).
  const reads = new MessageChannel();
  serveReads(list, reads.port1);
  const census = client.call('run', [list.map((f) => f.name), { pauseAfter, batchFiles, timing }, ports, reads.port2],
    { transfer: [...ports, reads.port2], onProgress, signal: mine.abort.signal });
  return Promise.race([census, plannerFailed])
    .then((r) => { report = r; emit(EV.census, r); return r; })
    .finally(() => {
      client.terminate();
      planners.forEach((p) => p.terminate());
      if (running === mine) running = null;
    });
}

/** Reads the batches of `list` the census worker asks for over `port` ({first, end}) and
 *  hands it their bytes. The Files stay here: a File of a dropped folder copied to the worker,
 *  or asked its size, costs the browser a round trip of its own, as much as reading it
 *  (docs/performance.md). */
function serveReads(list, port) {
  port.onmessage = ({ data: { first, end } }) => {
    readBatch(list.slice(first, end)).then(
      (r) => port.postMessage({ first, ...r }, [r.bytes.buffer]),
      (err) => port.postMessage({ first, error: String(err?.message ?? err) }));
  };
}

/** Asks the running census to stop; false if none runs. */
export function cancelCensus() {
  if (!running) return false;
  running.abort.abort();
  running = null;
  return true;
}

// ---- export ----

const csvCell = (v) => {
  const s = v == null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One line per (entry, listed value). */
export function toCSV(r) {
  const head = ['format', 'record', 'offset', 'path', 'kind', 'type', 'files', 'records', 'distinct', 'constant', 'min', 'max', 'equals', 'value', 'count', 'value_files'];
  const lines = [head.join(',')];
  for (const e of r.entries) {
    const base = [e.format, e.record, e.offset_varies ? '' : e.offset, e.path, e.kind, e.type, e.files, e.records, e.distinct, e.constant, e.min, e.max, (e.equals ?? []).join('; ')];
    for (const v of e.values) lines.push([...base, v.value, v.count, v.files].map(csvCell).join(','));
    if (e.tail) lines.push([...base, `(${e.tail.values}${e.tail.capped ? '+' : ''} more values)`, e.tail.records, ''].map(csvCell).join(','));
  }
  return lines.join('\n') + '\n';
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---- panel ----

function build() {
  document.head.append(el('style', {}, CSS));
  const fileInput = el('input', { type: 'file', multiple: true, hidden: true, id: 'census-files' });
  const dirInput = el('input', { type: 'file', multiple: true, hidden: true, id: 'census-folder' });
  dirInput.webkitdirectory = true;
  const choose = (e) => start([...e.target.files].map((f) => ({ name: f.webkitRelativePath || f.name, file: f })));
  fileInput.addEventListener('change', choose);
  dirInput.addEventListener('change', choose);
  panel = el('dialog', { id: 'census', 'aria-label': 'Census', hidden: true },
    el('header', {},
      el('h2', {}, 'Census'),
      el('label', { class: 'button', htmlFor: 'census-files' }, 'Choose files…'), fileInput,
      el('label', { class: 'button', htmlFor: 'census-folder' }, 'Choose folder…'), dirInput,
      el('progress', { id: 'census-progress', max: 1, value: 0, hidden: true }),
      el('button', { id: 'census-cancel', hidden: true, onclick: () => { cancelCensus(); } }, 'Cancel'),
      el('span', { id: 'census-status', role: 'status', 'aria-live': 'polite' }, 'Drop a folder or many files of one format here.'),
      el('span', { class: 'census-spacer' }),
      el('button', { id: 'census-csv', disabled: true, onclick: () => download('census.csv', toCSV(report), 'text/csv') }, 'CSV'),
      el('button', { id: 'census-json', disabled: true, onclick: () => download('census.json', JSON.stringify(report, null, 1), 'application/json') }, 'JSON'),
      el('button', { id: 'census-close', 'aria-label': 'Close the census', title: 'Close (Esc)', onclick: () => closeCensus() }, '×')),
    el('div', { class: 'census-controls' },
      el('input', { id: 'census-filter', type: 'search', placeholder: 'filter: path, record, value', oninput: (e) => { view.filter = e.target.value.toLowerCase(); renderTable(); } }),
      el('select', { id: 'census-kind', onchange: (e) => { view.kind = e.target.value; renderTable(); } },
        ...[['all', 'all entries'], ['field', 'fields'], ['unexplained', 'unexplained bytes'], ['structure', 'counts, sizes, regions'],
          ['constant', 'constant'], ['related', 'with a relation']].map(([v, t]) => el('option', { value: v }, t))),
      el('label', {}, el('input', { id: 'census-varying', type: 'checkbox', onchange: (e) => { view.varying = e.target.checked; renderTable(); } }), ' varying only'),
      el('span', { id: 'census-count' })),
    el('div', { class: 'census-body' },
      el('div', { class: 'census-table-wrap' }, el('table', { id: 'census-table' }, el('thead'), el('tbody'))),
      el('div', { id: 'census-detail', 'aria-live': 'polite' })));
  // Drops on the panel are the census's, not the inspector's (main.js listens on document).
  panel.addEventListener('dragover', (e) => { e.preventDefault(); e.stopPropagation(); panel.classList.add('census-drag'); });
  panel.addEventListener('dragleave', () => panel.classList.remove('census-drag'));
  panel.addEventListener('drop', async (e) => {
    e.preventDefault();
    e.stopPropagation();
    panel.classList.remove('census-drag');
    start(await droppedFiles(e.dataTransfer));
  });
  panel.addEventListener('close', () => {
    panel.hidden = true;
    const to = returnFocus;
    returnFocus = null;
    if (to?.isConnected) to.focus({ preventScroll: true });
  });
  document.body.append(panel);
  renderTable();
}

/** Files of a drop, folders walked (webkitGetAsEntry), each named by its relative path. */
async function droppedFiles(dt) {
  const entries = [...(dt?.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...(dt?.files ?? [])].map((f) => ({ name: f.name, file: f }));
  const out = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((ok, err) => entry.file(ok, err));
      out.push({ name: prefix + entry.name, file });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, err) => reader.readEntries(ok, err));
        if (!batch.length) break;
        for (const b of batch) await walk(b, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}

async function start(list) {
  if (!list.length) return;
  const run = ++runs;
  const status = $('#census-status');
  const bar = $('#census-progress');
  bar.hidden = false; bar.max = list.length; bar.value = 0;
  $('#census-cancel').hidden = false;
  status.textContent = `censusing ${list.length.toLocaleString()} files…`;
  const t0 = performance.now();
  try {
    const r = await runCensus(list, (p) => {
      bar.value = p.done;
      status.textContent = `${p.done.toLocaleString()} / ${p.total.toLocaleString()} files, ${(p.bytes / 1e6).toFixed(1)} MB`;
    });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    const formats = Object.entries(r.formats).map(([f, n]) => `${n} ${f}`).join(', ') || 'none decoded';
    status.textContent = `${r.files.toLocaleString()} files (${formats}; ${r.skipped} of no known format, ${r.files_with_errors} with errors) in ${s} s: ${r.entries.length} entries, ${r.relations.length} relations`;
    view.chosen = null;
    $('#census-csv').disabled = $('#census-json').disabled = false;
    renderTable();
    renderDetail();
    setStatus(`census: ${r.files} files, ${r.entries.length} entries`);
  } catch (err) {
    if (run === runs) status.textContent = err.message === CANCELLED ? 'cancelled' : `census failed: ${err.message}`;
  }
  if (run === runs) { // else a newer census owns the controls
    bar.hidden = true;
    $('#census-cancel').hidden = true;
  }
}

function topText(e) {
  const v = e.values[0];
  return v ? `${shown(e, v.value)} ×${v.count.toLocaleString()}` : '';
}

/** Values of unexplained bytes are shown in hex (with the decimal); so are their minimum,
 *  maximum and histogram bins. */
const HEX_TEXT = /^0x[0-9a-f]+$/i;
const hexText = (e) => e.values.length > 0 && e.values.every((v) => typeof v.value === 'string' && HEX_TEXT.test(v.value));
const hexValues = (e) => e.kind === 'uncovered' || e.kind === 'unknown' || hexText(e);

function shown(e, value) {
  if (typeof value !== 'number') return value;
  if (hexText(e)) return hex(value, e.values[0].value.length - 2);
  if (hexValues(e)) return `${hex(value, e.width * 2)} (${value})`;
  return String(value);
}

function cell(e, key) {
  switch (key) {
    case 'offset': return e.offset == null || e.offset_varies ? '' : hex(e.offset);
    case 'top': return topText(e);
    case 'equals': return (e.equals ?? []).join(', ');
    case 'type': return e.type;
    default: return e[key];
  }
}

function matches(e) {
  const k = view.kind;
  if (k === 'field' && e.kind !== 'field') return false;
  if (k === 'unexplained' && e.kind !== 'uncovered' && e.kind !== 'unknown') return false;
  if (k === 'structure' && !['count', 'size', 'region.count', 'region.stride'].includes(e.kind)) return false;
  if (k === 'constant' && !e.constant) return false;
  if (k === 'related' && !e.equals?.length) return false;
  if (view.varying && e.constant) return false;
  if (!view.filter) return true;
  const hay = `${e.record} ${e.path} ${e.kind} ${(e.equals ?? []).join(' ')} ${e.values.slice(0, 20).map((v) => v.value).join(' ')}`.toLowerCase();
  return hay.includes(view.filter);
}

function sorted(list) {
  const key = view.sort;
  const val = (e) => {
    const v = key === 'top' ? (e.values[0]?.count ?? 0) : key === 'offset' ? (e.offset_varies ? null : e.offset) : cell(e, key);
    return v;
  };
  return list.slice().sort((a, b) => {
    const x = val(a); const y = val(b);
    if (x == null && y == null) return 0;
    if (x == null) return 1;
    if (y == null) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * view.dir;
  });
}

function renderTable() {
  const thead = $('#census-table thead');
  thead.replaceChildren(el('tr', {}, ...COLUMNS.map(([k, t]) => el('th', {
    scope: 'col', 'aria-sort': view.sort === k ? (view.dir > 0 ? 'ascending' : 'descending') : 'none',
    onclick: () => { view.dir = view.sort === k ? -view.dir : 1; view.sort = k; renderTable(); },
  }, t))));
  const tbody = $('#census-table tbody');
  if (!report) { tbody.replaceChildren(); $('#census-count').textContent = ''; return; }
  const rows = sorted(report.entries.filter(matches));
  $('#census-count').textContent = `${rows.length.toLocaleString()} of ${report.entries.length.toLocaleString()} entries${rows.length > MAX_ROWS ? `, first ${MAX_ROWS} shown` : ''}`;
  tbody.replaceChildren(...rows.slice(0, MAX_ROWS).map((e) => el('tr', {
    'data-id': e.id, 'aria-selected': String(view.chosen === e.id),
    class: `census-${e.kind.replace('.', '-')}${e.constant ? ' census-constant' : ''}${e.confidence ? ` conf-${e.confidence}` : ''}`,
    onclick: () => { view.chosen = e.id; renderTable(); renderDetail(); },
  }, ...COLUMNS.map(([k]) => el('td', {}, String(cell(e, k) ?? '')))))); 
}

/** Bars for the chosen entry: its most frequent values, or bins over its range for numbers
 * with many distinct values (bins count the listed values only). */
function histogram(e) {
  let bars;
  const nums = e.values.filter((v) => typeof v.value === 'number' || (v.value !== '' && !Number.isNaN(Number(v.value))));
  if (e.values.length > BARS && nums.length === e.values.length && e.min != null && e.max > e.min) {
    const n = 20;
    const w = (e.max - e.min) / n;
    const bins = Array.from({ length: n }, (_, i) => ({ label: `${hexValues(e) ? hex(Math.floor(e.min + i * w), e.width * 2) : (e.min + i * w).toPrecision(4)}…`, count: 0 }));
    for (const v of e.values) bins[Math.min(n - 1, Math.floor((Number(v.value) - e.min) / w))].count += v.count;
    bars = bins;
  } else {
    bars = e.values.slice(0, BARS).map((v) => ({ label: shown(e, v.value), count: v.count }));
  }
  const most = Math.max(1, ...bars.map((b) => b.count));
  return el('div', { class: 'census-histogram', role: 'img', 'aria-label': `histogram of ${e.path}` },
    ...bars.map((b) => el('div', { class: 'census-bar' },
      el('span', { class: 'census-bar-label', title: String(b.label) }, String(b.label)),
      el('span', { class: 'census-bar-fill', style: `width:${(100 * b.count / most).toFixed(1)}%` }),
      el('span', { class: 'census-bar-count' }, b.count.toLocaleString()))));
}

async function openPlace(e, p) {
  const f = files.get(p.file);
  if (!f || !openFiles) return;
  // The file opens in front: the census closes (the Census… button brings it back as it was).
  closeCensus(document.getElementById('hex'));
  await openFiles([f]);
  select(p.offset, p.offset + Math.max(1, e.width), 'census');
}

function renderDetail() {
  const d = $('#census-detail');
  const e = report?.entries.find((x) => x.id === view.chosen);
  if (!e) { d.replaceChildren(el('p', { class: 'census-hint' }, report ? 'Choose a row to see its values and where they are.' : '')); return; }
  const off = e.offset == null || e.offset_varies ? '' : ` +${hex(e.offset)}`;
  const draft = annotationFromEntry(e);
  d.replaceChildren(...[
    el('h3', {}, `${e.path}`),
    el('p', {}, `${e.kind} in ${e.record}${off}, ${e.type}: ${e.records.toLocaleString()} records in ${e.files.toLocaleString()} files, ${e.distinct.toLocaleString()}${e.tail?.capped ? '+' : ''} distinct${e.constant ? ', constant' : ''}${e.min != null ? `, ${shown(e, e.min)} … ${shown(e, e.max)}` : ''}`),
    e.equals?.length ? el('p', {}, `Always equals: ${e.equals.join(', ')}`) : null,
    draft ? el('button', { id: 'census-annotate', onclick: () => emit(EV.annotateRequest, draft) }, 'Annotate this') : null,
    histogram(e),
    el('ol', { class: 'census-values' }, ...e.values.slice(0, 200).map((v) => el('li', {},
      el('span', { class: 'census-value' }, `${shown(e, v.value)}`),
      ` ×${v.count.toLocaleString()} in ${v.files.toLocaleString()} files: `,
      ...v.at.map((p) => el('button', {
        class: 'census-place', title: `open ${p.file} at ${hex(p.offset)}`, onclick: () => openPlace(e, p),
      }, `${p.file.split('/').pop()} ${p.record || ''} @${hex(p.offset)}`))))),
    e.tail ? el('p', {}, `…and ${e.tail.values.toLocaleString()}${e.tail.capped ? '+' : ''} more values in ${e.tail.records.toLocaleString()} records`) : null,
  ].filter((x) => x != null));
}

const CSS = `
#census { position: fixed; inset: 40px 24px 24px; width: auto; height: auto; max-width: none; max-height: none; margin: 0; padding: 0; flex-direction: column; background: var(--panel); color: var(--fg); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 6px 30px rgb(0 0 0 / 25%); min-height: 0; }
#census[open] { display: flex; }
#census::backdrop { background: rgb(0 0 0 / 25%); }
#census.census-drag { outline: 3px dashed var(--fg); outline-offset: -6px; }
#census header { display: flex; align-items: center; gap: 8px; padding: 6px 10px; border-bottom: 1px solid var(--line); }
#census h2 { font-size: 15px; margin: 0 8px 0 0; }
#census-status { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.census-spacer { flex: 1; }
.census-controls { display: flex; gap: 10px; align-items: center; padding: 6px 10px; border-bottom: 1px solid var(--line); }
#census-filter { width: 28ch; }
#census-count { color: var(--muted); }
.census-body { flex: 1; display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); min-height: 0; }
.census-table-wrap { overflow: auto; border-right: 1px solid var(--line); }
#census-table { border-collapse: collapse; font: 12px/1.4 ui-monospace, 'DejaVu Sans Mono', monospace; width: 100%; }
#census-table th { position: sticky; top: 0; background: var(--panel); text-align: left; cursor: pointer; border-bottom: 1px solid var(--line); padding: 2px 6px; white-space: nowrap; }
#census-table th[aria-sort=ascending]::after { content: ' ▲'; }
#census-table th[aria-sort=descending]::after { content: ' ▼'; }
#census-table td { padding: 1px 6px; white-space: nowrap; max-width: 32ch; overflow: hidden; text-overflow: ellipsis; border-bottom: 1px solid color-mix(in srgb, var(--line) 50%, transparent); }
#census-table tr { cursor: pointer; }
#census-table tr[aria-selected=true] td { background: var(--sel); color: var(--sel-fg); }
#census-table tr.census-uncovered td:nth-child(4) { background: var(--uncovered); }
#census-table tr.census-unknown td:nth-child(4), #census-table tr.conf-unknown td:nth-child(4) { background: var(--unknown); }
#census-table tr.conf-proven td:nth-child(4) { background: var(--proven); }
#census-table tr.conf-observed td:nth-child(4) { background: var(--observed); }
#census-table tr.conf-inferred td:nth-child(4) { background: var(--inferred); }
#census-table tr.census-constant td:nth-child(9) { color: var(--muted); }
#census-detail { overflow: auto; padding: 6px 12px; }
#census-detail h3 { font: 600 13px ui-monospace, monospace; margin: 4px 0; word-break: break-all; }
.census-histogram { margin: 8px 0; font-size: 12px; }
.census-bar { display: grid; grid-template-columns: 16ch 1fr 9ch; gap: 6px; align-items: center; height: 16px; }
.census-bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: ui-monospace, monospace; }
.census-bar-fill { height: 11px; background: var(--proven-edge); min-width: 1px; }
.census-bar-count { text-align: right; color: var(--muted); }
.census-values { font-size: 12px; padding-left: 2.5em; }
.census-value { font-family: ui-monospace, monospace; font-weight: 600; }
.census-place { font-size: 11px; padding: 0 4px; margin: 1px 2px; }
.census-hint { color: var(--muted); }
`;
