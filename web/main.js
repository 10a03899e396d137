// Wiring: open files (chooser, drop, recent files, links, the built-in sample) through the
// document worker, tabs, companion files (geometry chunks, .resmeta) paired with their
// MeshSet, progress and status, notices, and the panels. Every way in is listened to before
// anything is awaited: what comes while the page starts is queued and opened in order.
import { loadWasm } from './wasm.js';
import { docs } from './docs.js';
import { state, on, emit, addDoc, removeDoc, setActive, setStatus, setProgress, select, EV } from './state.js';
import { HexView, LEVELS } from './hexview.js';
import { initCensus } from './census.js';
import { initCompare, openCompareLink } from './compare.js';
import { attachTooltip } from './tooltip.js';
import { TreeView } from './tree.js';
import { Inspector } from './inspector.js';
import { SummaryView } from './summary.js';
import { ErrorBanner } from './errors.js';
import { attachSearch } from './search.js';
import { AnnotationsPanel } from './annotations.js';
import { annotationFile } from './annotation-store.js';
import { parseFragment, formatFragment, packText, unpackText, fetchSource } from './share.js';
import { initViewer } from './viewer.js';
import { notify, dismissGroup, initNotices } from './notices.js';
import { initLayout } from './layout.js';
import { attachCopy } from './copy.js';
import { expectation } from './expect.js';
import { RecentFiles } from './recent.js';
import { PREVIEW_MIN } from './preview.js';
import { guidOfName, guidBytesOfText, lodGuids, isResmeta, isChunkName, isCompanionName, belongsTo } from './companions.js';

const $ = (id) => document.getElementById(id);
const MB = 1024 * 1024;

// ---- start-up: listen first, queue until ready ----

let markReady;
const ready = new Promise((ok) => { markReady = ok; });
let chain = ready;
let waitingFiles = 0; // file batches queued and not yet opened

/** Queues a job ({files} or {view}); jobs run one after another once the page is ready. */
function request(job) {
  if (job.files) waitingFiles++;
  const p = chain.then(() => runJob(job));
  chain = p.catch((e) => console.error(e));
  return p;
}

async function runJob(job) {
  if (job.files) {
    waitingFiles--;
    dismissGroup('open'); // a new batch: the last one's notices have been seen
    return openFiles(job.files);
  }
  return openView(window.meshscope.annotations, job.view, { sample: job.sample && waitingFiles === 0 && !state.docs.length });
}

const recent = new RecentFiles($('recent-list'), (files) => request({ files }));
recent.onError = (e) => notify(e.message ?? String(e), { group: 'open' });

function listen() {
  document.body.dataset.starting = 'true';
  $('file-input').addEventListener('change', (e) => {
    performance.mark('file-chosen');
    request({ files: [...e.target.files] });
    e.target.value = '';
  });
  $('open-button').addEventListener('click', async () => {
    try {
      if (!(await recent.pick())) $('file-input').click();
    } catch (e) {
      notify(`the file picker failed (${e.message}); choose the files again`, { group: 'open' });
      $('file-input').click();
    }
  });
  // The drop zone shows while files are dragged over the page (a count of enters and leaves:
  // each child entered sends its own pair).
  const hint = $('drop-hint');
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  const hide = () => { depth = 0; hint.hidden = true; };
  document.addEventListener('dragenter', (e) => { if (hasFiles(e)) { depth++; hint.hidden = false; } });
  document.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) hint.hidden = true; });
  document.addEventListener('dragover', (e) => { e.preventDefault(); if (hasFiles(e)) hint.hidden = false; });
  document.addEventListener('dragend', hide);
  document.addEventListener('drop', hide, true); // capture: the census's drops hide it too
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) request({ files });
  });
  window.addEventListener('hashchange', () => { if (location.hash !== lastLink) request({ view: parseFragment(location.hash), sample: false }); });
  initNotices();
  initLayout();
}

// ---- opening ----

function progressFor(name) {
  return (p) => {
    if (p.preview) emit(EV.previewDecoded, { name, window: p.preview });
    setProgress({ label: `${p.phase} ${name}`, done: p.phase === 'reading' ? p.done : 0, total: p.phase === 'reading' ? p.total : 0 });
  };
}

/** One line on a document for the status line. */
function describeDoc(d) {
  if (!d) return '';
  const s = d.summary;
  const errs = s.errors.length ? `, ${s.errors.length} error(s)` : '';
  const parent = d.parent != null ? `, attached to ${state.docs.find((x) => x.handle === d.parent)?.name ?? 'its MeshSet'}` : '';
  return `${d.name}: ${s.format}, ${s.size.toLocaleString()} bytes${errs}${parent}`;
}

function opened(name, r, extra = {}) {
  const { handle, summary } = r;
  addDoc({ handle, name, size: summary.size, summary, timings: r.timings, ...extra });
  return handle;
}

/** The documents whose checks were asked for (`checksLater`). */
const checking = new WeakSet();

/** Every document that came with checks still to come, however it was opened (here, by the
 *  compare panel, from a link), gets them: asked for in a later task, so that the requests of
 *  the panels painting it reach the worker first. */
function askChecks(list) {
  for (const d of list) {
    if (!d.summary?.checks_pending || checking.has(d)) continue;
    checking.add(d);
    setTimeout(() => checksLater(d.handle, d.name), 0);
  }
}

/** Asks for the checks the first summary left out and shows them. */
async function checksLater(handle, name) {
  try {
    const summary = await docs.summary(handle);
    const doc = docOf(handle);
    if (!doc || !doc.summary.checks_pending) return; // closed, or a newer summary came meanwhile
    doc.summary = summary;
    emit(EV.checked, doc);
  } catch (e) {
    if (docOf(handle)) notify(`could not check ${name}: ${e.message}`, { group: 'open' });
  }
}

/** Opens bytes already in memory (transferred to the worker). */
export async function openBytes(name, bytes) {
  setProgress({ label: `decoding ${name}`, done: 0, total: 0 });
  try {
    const h = opened(name, await docs.openBytes(name, bytes));
    await afterOpen(h);
    return h;
  } finally {
    setProgress(null);
  }
}

const meshSets = () => state.docs.filter((d) => d.summary.format === 'frostbite-meshset');
const docOf = (handle) => state.docs.find((d) => d.handle === handle) ?? null;

/** The open MeshSets a companion file may belong to: those its name pairs it with (GUID or
 *  .resmeta name); for a chunk name, also those whose LOD GUIDs the summary does not say. */
function setsFor(name) {
  const sets = meshSets();
  const mine = sets.filter((m) => belongsTo(name, m));
  if (mine.length || isResmeta(name)) return mine;
  return sets.filter((m) => !lodGuids(m.summary).some(Boolean));
}

/** Attaches a companion (a File, or a document's bytes) to the first MeshSet of `sets` that
 *  takes it; returns the new child document's handle, or null. */
async function attachCompanion(name, data, sets = setsFor(name)) {
  for (const m of sets) {
    try {
      const r = data instanceof Blob ? await docs.attachFile(m.handle, data, progressFor(name)) : await docs.attachBytes(m.handle, name, data.slice());
      m.summary = await docs.summary(m.handle);
      // attachedAs: which attached file it is (the mesh's Source.file) for the 3D view.
      const attachedAs = isResmeta(name) ? null : m.summary.attached.length;
      return opened(name, r, { parent: m.handle, file: data instanceof Blob ? data : undefined, attachedAs });
    } catch { /* not this MeshSet's */ }
  }
  return null;
}

/** A MeshSet just opened takes the companions already open on their own (a chunk or a
 *  .resmeta opened before it): each moves from its own tab to the MeshSet's. */
async function adoptCompanions(set) {
  const orphans = state.docs.filter((d) => d.parent == null && d.handle !== set.handle && isCompanionName(d.name)
    && d.summary.format !== 'frostbite-meshset' && belongsTo(d.name, set));
  for (const o of orphans) {
    const data = o.file ?? (await docs.bytes(o.handle, 0, o.size));
    if ((await attachCompanion(o.name, data, [set])) == null) continue;
    removeDoc(o.handle);
    docs.close(o.handle);
  }
}

/** What follows a document's opening: a MeshSet takes its companions already open; a file of
 *  no known format says what it was expected to be. */
async function afterOpen(handle) {
  const doc = docOf(handle);
  if (!doc) return;
  if (doc.summary.format === 'frostbite-meshset') await adoptCompanions(doc);
  if (doc.summary.format === 'unknown' && doc.size > 0) {
    const head = await docs.bytes(handle, 0, Math.min(doc.size, 0xb6));
    const msg = expectation(doc.name, doc.size, head);
    if (msg) {
      doc.expected = msg;
      notify(msg, { group: 'open' });
      emit(EV.docNotes, doc);
    }
  } else if (doc.summary.format === 'unknown' && /\.ply$/i.test(doc.name)) {
    doc.expected = expectation(doc.name, 0, new Uint8Array(0));
    notify(doc.expected, { group: 'open' });
    emit(EV.docNotes, doc);
  }
}

const rank = (name) => (isResmeta(name) ? 1 : isChunkName(name) ? 2 : 0);

export async function openFiles(files) {
  // MeshSets first, then .resmeta, then chunks, so companions dropped with their MeshSet find it.
  const order = [...files].sort((a, b) => rank(a.name) - rank(b.name));
  for (const f of order) {
    try {
      if (isCompanionName(f.name) && meshSets().length && (await attachCompanion(f.name, f)) != null) continue;
      // A big file's bytes show at once, read from the File, while the worker decodes it.
      if (f.size >= PREVIEW_MIN) {
        previewing = f;
        renderTabs();
        emit(EV.preview, f);
      }
      let r;
      try {
        r = await docs.openFile(f, progressFor(f.name));
      } finally {
        previewing = null;
      }
      opened(f.name, r, { file: f });
      if (r.summary.pending) await complete(r.handle, f.name);
      await afterOpen(r.handle);
    } catch (e) {
      notify(`could not open ${f.name}: ${e.message}`, { group: 'open' });
      renderTabs();
      emit(EV.active, docOf(state.active)); // drop the preview
    } finally {
      setProgress(null);
    }
  }
}

/** Decodes the rest of a document opened structure first (a big .ply's mesh) while its
 *  bytes are already on screen, then tells the panels that show the mesh and checks. */
async function complete(handle, name) {
  setProgress({ label: `decoding the mesh of ${name}`, done: 0, total: 0 });
  const r = await docs.complete(handle);
  const doc = docOf(handle);
  if (!doc) return; // closed meanwhile
  doc.summary = r.summary;
  Object.assign(doc.timings ?? (doc.timings = {}), r.timings);
  emit(EV.completed, doc);
}

/** A GUID's text form (as the decoder prints it) from its bytes in file order. */
const guidText = (bytes) => {
  const t = guidBytesOfText(bytes); // the swap is its own inverse
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
};

/** Attaches `doc` (an open tab, or a File) to LOD `lod` of MeshSet `parent` by hand (whatever
 *  its name says). A name whose chunk GUID is not the LOD's is said first, and attached only
 *  when the person says so. */
async function attachByHand(doc, parent, lod, confirmed = false) {
  const p = docOf(parent);
  const want = lodGuids(p?.summary)[lod];
  const have = guidOfName(doc.name);
  if (!confirmed && want && have && want !== have) {
    notify(`${doc.name}: its name says chunk ${guidText(have)}, but LOD ${lod} of ${p.name} names chunk ${guidText(want)}; its bytes are likely another LOD's or another mesh's.`, {
      group: 'attach',
      actions: [{ label: 'Attach anyway', run: () => attachByHand(doc, parent, lod, true) }, { label: 'Cancel', run: () => renderAttach() }],
    });
    renderAttach();
    return;
  }
  const bytes = doc.file ?? (await docs.bytes(doc.handle, 0, doc.size));
  try {
    const r = await docs.attachToLod(parent, lod, doc.name, bytes, progressFor(doc.name));
    if (p) p.summary = await docs.summary(parent);
    if (doc.handle != null && state.docs.includes(doc)) {
      state.docs.splice(state.docs.indexOf(doc), 1);
      docs.close(doc.handle);
    }
    opened(doc.name, r, { parent, file: doc.file, attachedAs: p?.summary.attached.length });
    // The decoder's own word on the GUIDs, where it checks them.
    const bad = [...(r.summary.checks ?? []), ...(p?.summary.checks ?? [])].filter((c) => !c.passed && /guid/i.test(c.name));
    const said = new Set();
    for (const c of bad) {
      const text = `${doc.name}: the check "${c.name}" fails: ${c.stored}; ${c.measured}`;
      if (!said.has(text)) notify(text, { group: 'attach' });
      said.add(text);
    }
  } catch (e) {
    notify(`could not attach ${doc.name}: ${e.message}`, { group: 'attach' });
  } finally {
    setProgress(null);
  }
}

/** Closes a document and the chunks attached to it, freeing the worker's copy. */
export async function closeDoc(handle) {
  for (const c of state.docs.filter((d) => d.parent === handle)) await closeDoc(c.handle);
  removeDoc(handle);
  await docs.close(handle);
}

// ---- tabs (the WAI-ARIA tabs pattern: one tab in the Tab order, arrows move) ----

let focusTab = false; // put the focus on the active tab once the strip is drawn again

function tabOrder() {
  // Attached files follow their MeshSet.
  const order = state.docs.filter((d) => d.parent == null)
    .flatMap((d) => [d, ...state.docs.filter((c) => c.parent === d.handle)]);
  order.push(...state.docs.filter((d) => !order.includes(d)));
  return order;
}

function onTabKey(e, d) {
  const order = tabOrder();
  const i = order.indexOf(d);
  let to = null;
  if (e.key === 'ArrowRight') to = order[(i + 1) % order.length];
  else if (e.key === 'ArrowLeft') to = order[(i - 1 + order.length) % order.length];
  else if (e.key === 'Home') to = order[0];
  else if (e.key === 'End') to = order.at(-1);
  else if (e.key === 'Delete') {
    e.preventDefault();
    focusTab = true;
    closeDoc(d.handle);
    return;
  } else return;
  e.preventDefault();
  focusTab = true;
  if (to.handle === state.active) renderTabs();
  else setActive(to.handle);
}

function renderTabs() {
  const nav = $('tabs');
  const order = tabOrder();
  const current = order.some((d) => d.handle === state.active) ? state.active : order[0]?.handle;
  const hadFocus = nav.contains(document.activeElement); // redrawn, the strip keeps the focus
  let activeTab = null;
  nav.replaceChildren(...order.map((d) => {
    const b = document.createElement('button');
    b.role = 'tab';
    b.id = `tab-${d.handle}`;
    b.textContent = d.name; // file names are text, never HTML
    if (d.parent != null) b.classList.add('child');
    b.title = `${d.name} (${d.summary.format}, ${d.size.toLocaleString()} bytes)`;
    b.setAttribute('aria-selected', String(d.handle === state.active));
    b.setAttribute('aria-controls', 'panes');
    b.tabIndex = d.handle === current ? 0 : -1;
    if (d.handle === current) activeTab = b;
    b.addEventListener('click', () => setActive(d.handle));
    b.addEventListener('keydown', (e) => onTabKey(e, d));
    const x = document.createElement('button');
    x.className = 'close';
    x.textContent = '×';
    x.tabIndex = -1; // the keyboard closes a tab with Delete
    x.title = `Close ${d.name} (Delete)`;
    x.setAttribute('aria-label', `Close ${d.name}`);
    x.addEventListener('click', () => closeDoc(d.handle));
    const tab = document.createElement('span');
    tab.className = 'tab';
    tab.append(b, x);
    return tab;
  }));
  // A file being read shows in the hex view before it is a document: say so in the tabs.
  const shown = previewing;
  nav.classList.toggle('previewing', shown != null);
  if (shown) {
    const p = document.createElement('span');
    p.className = 'tab preview';
    p.textContent = `${shown.name} (reading…)`;
    p.title = `${shown.name}: its bytes are shown as they are read; it opens as a tab when decoded`;
    nav.append(p);
  }
  // The strip scrolls to the active tab (itself only: no ancestor scrolls).
  if (activeTab) {
    const nr = nav.getBoundingClientRect();
    const tr = activeTab.parentElement.getBoundingClientRect();
    if (tr.left < nr.left) nav.scrollLeft -= nr.left - tr.left;
    else if (tr.right > nr.right) nav.scrollLeft += tr.right - nr.right;
    if (focusTab || hadFocus) activeTab.focus();
  }
  focusTab = false;
  renderAttach();
}

/** The File the hex view previews while the worker reads it, or null. */
let previewing = null;

/** "Attach to MeshSet…": on a MeshSet's tab, a file from disk or an open tab to one of its
 *  LODs; on the tab of a file that may be a chunk (not a .ply, not attached), this file to a
 *  LOD of an open MeshSet. Nowhere else. */
function renderAttach() {
  const wrap = $('attach-wrap');
  const doc = docOf(state.active);
  const sets = meshSets();
  const isSet = doc?.summary.format === 'frostbite-meshset';
  const loose = (d) => d.parent == null && !['frostbite-meshset', 'gem-ply'].includes(d.summary.format);
  wrap.hidden = !doc || !(isSet || (loose(doc) && sets.length));
  if (wrap.hidden) { wrap.replaceChildren(); return; }
  const sel = document.createElement('select');
  let choices;
  if (isSet) {
    sel.setAttribute('aria-label', `Attach a file to a LOD of ${doc.name}`);
    const tabs = state.docs.filter(loose);
    choices = doc.summary.mesh.flatMap((_, lod) => [
      new Option(`LOD ${lod} ← a file…`, `file:${lod}`),
      ...tabs.map((t) => new Option(`LOD ${lod} ← ${t.name}`, `tab:${t.handle}:${lod}`)),
    ]);
  } else {
    sel.setAttribute('aria-label', 'Attach this file to a MeshSet');
    // One choice per LOD of every open MeshSet: "name, LOD n".
    choices = sets.flatMap((m) => m.summary.mesh.map((_, lod) => new Option(`${m.name}, LOD ${lod}`, `set:${m.handle}:${lod}`)));
  }
  sel.append(new Option('Attach to MeshSet…', ''), ...choices);
  sel.addEventListener('change', () => {
    const [kind, a, b] = sel.value.split(':');
    if (kind === 'set') attachByHand(doc, Number(a), Number(b));
    else if (kind === 'tab') attachByHand(docOf(Number(a)), doc.handle, Number(b));
    else if (kind === 'file') {
      const input = Object.assign(document.createElement('input'), { type: 'file', hidden: true });
      input.addEventListener('change', () => {
        const f = input.files[0];
        input.remove();
        if (f) attachByHand({ name: f.name, file: f, size: f.size, handle: null }, doc.handle, Number(a));
      });
      document.body.append(input);
      input.click();
      sel.value = '';
    }
  });
  wrap.replaceChildren(sel);
}

function renderLegend() {
  const el = $('legend');
  const title = document.createElement('span');
  title.className = 'legend-title';
  title.textContent = 'Confidence:';
  el.replaceChildren(title, ...LEVELS.slice(1).concat('uncovered').map((l) => {
    const s = document.createElement('span');
    s.className = `legend-item lv-${l}`;
    s.dataset.level = l;
    s.textContent = l;
    return s;
  }));
  const fb = document.createElement('span');
  fb.className = 'legend-item legend-fs';
  fb.textContent = '| field start';
  el.append(fb);
}

function renderProgress(p) {
  const wrap = $('progress-wrap');
  wrap.hidden = !p;
  if (!p) return;
  const bar = $('progress');
  if (p.total) { bar.max = p.total; bar.value = p.done; } else bar.removeAttribute('value');
  $('progress-label').textContent = p.total ? `${p.label} ${Math.round((100 * p.done) / p.total)}% of ${(p.total / MB).toFixed(0)} MB` : `${p.label}…`;
}

async function main() {
  listen();
  request({ view: parseFragment(location.hash), sample: true }).then(() => { document.body.dataset.ready = 'true'; });
  on(EV.docs, renderTabs);
  on(EV.docs, askChecks);
  on(EV.active, renderTabs);
  on(EV.active, (d) => { if (d) setStatus(describeDoc(d)); }); // the status line follows the tab
  on(EV.status, (t) => { $('status').textContent = t; });
  on(EV.progress, renderProgress);
  renderLegend();
  const api = await loadWasm(); // the main thread's own instance (no documents): djb2_xor etc.
  window.meshscope = { api, docs, state, openFiles, openBytes, closeDoc, request, recent };
  const hex = new HexView($('hex'));
  attachTooltip($('hex'));
  attachCopy($('hex'), hex);
  new TreeView($('tree'));
  new Inspector($('inspector'));
  new SummaryView($('summary'));
  new ErrorBanner($('errors'));
  attachSearch({
    form: $('toolbar'), gotoInput: $('goto'), findInput: $('find'), modeSelect: $('find-mode'),
    prev: $('find-prev'), next: $('find-next'), hexEl: $('hex'),
  });
  window.meshscope.hex = hex;
  initCensus($('census-button'), { open: openFiles });
  initCompare($('compare-button'));
  await initViewer($('viewer-pane')).catch((e) => console.error('3D view:', e));

  const annotations = new AnnotationsPanel($('annotations'));
  window.meshscope.annotations = annotations;
  $('copy-link').addEventListener('click', () => copyLink(annotations));
  await annotations.ready;
  markReady();
}

let lastLink = null;

/** Opens what a link describes: the file at src (else the built-in sample), its annotations,
 *  the tab and the selection. A part that fails says why and the rest still opens. */
async function openView(annotations, view, { sample = true } = {}) {
  dismissGroup('link');
  if (view.ann) {
    try {
      await annotations.importText(await unpackText(view.ann));
    } catch (e) {
      notify(`the link's annotations could not be read: ${e.message}`, { group: 'link' });
    }
  }
  let opened_ = false;
  if (view.src) {
    const name = decodeURIComponent(view.src.split(/[?#]/)[0].split('/').pop() || 'download');
    try {
      const bytes = await fetchSource(view.src, (done, total) => setProgress({ label: `downloading ${name}`, done, total }));
      setProgress(null);
      const h = opened(name, await docs.openBytes(name, bytes), { src: view.src });
      opened_ = true;
      await afterOpen(h);
      if (/(^#|&)cmp=/.test(location.hash)) openCompareLink(location.hash, h).catch((e) => notify(e.message, { group: 'link' }));
    } catch (e) {
      setProgress(null);
      notify(e.message, { group: 'link' });
    }
  }
  if (!opened_ && !state.docs.length && sample) opened('sample.ply', await docs.openSample('sample.ply'));
  if (view.tab != null && state.docs[view.tab]) setActive(state.docs[view.tab].handle);
  const doc = state.docs.find((d) => d.handle === state.active);
  if (view.sel && doc && view.sel.start < doc.size) select(view.sel.start, Math.min(view.sel.end, doc.size), 'link');
  if (view.lod != null || view.pass) emit(EV.view, { lod: view.lod, pass: view.pass });
}

/** Puts the view in the URL fragment and on the clipboard. */
async function copyLink(annotations) {
  const doc = state.docs.find((d) => d.handle === state.active);
  const sel = state.selection?.handle === state.active ? state.selection : null;
  const list = annotations.store.list;
  const frag = formatFragment({
    src: doc?.src,
    sel: sel && { start: sel.start, end: sel.end },
    tab: doc ? state.docs.indexOf(doc) : undefined,
    lod: state.view?.lod,
    pass: state.view?.pass,
    ann: list.length ? await packText(annotationFile(list)) : undefined,
  });
  lastLink = frag;
  history.replaceState(null, '', frag);
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    setStatus(doc?.src ? 'link copied' : 'link copied (this file came from your disk: the link carries the selection and annotations, not the file)');
  } catch {
    setStatus('the link is in the address bar (the clipboard is not available here)');
  }
  return url;
}

main().catch((e) => {
  console.error(e);
  notify(`Meshscope failed to start: ${e.message ?? e}`);
});
