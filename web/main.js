// Wiring: open files (chooser, drop, built-in sample) through the document worker, tabs,
// attaching geometry chunks to their MeshSet, progress and status, and the panels.
import { loadWasm } from './wasm.js';
import { docs } from './docs.js';
import { state, on, emit, addDoc, removeDoc, setActive, setStatus, setProgress, select } from './state.js';
import { HexView, LEVELS } from './hexview.js';
import { initCensus } from './census.js';
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

const $ = (id) => document.getElementById(id);
const MB = 1024 * 1024;
const PREVIEW_MIN = 4 * MB;

function progressFor(name) {
  return (p) => {
    if (p.preview) emit('preview-decoded', { name, window: p.preview });
    setProgress({ label: `${p.phase} ${name}`, done: p.phase === 'reading' ? p.done : 0, total: p.phase === 'reading' ? p.total : 0 });
  };
}

function opened(name, r, extra = {}) {
  const { handle, summary } = r;
  addDoc({ handle, name, size: summary.size, summary, timings: r.timings, ...extra });
  const errs = summary.errors.length ? `, ${summary.errors.length} error(s)` : '';
  setStatus(`${name}: ${summary.format}, ${summary.size.toLocaleString()} bytes${errs}`);
  return handle;
}

/** Opens bytes already in memory (transferred to the worker). */
export async function openBytes(name, bytes) {
  setProgress({ label: `decoding ${name}`, done: 0, total: 0 });
  try {
    return opened(name, await docs.openBytes(name, bytes));
  } finally {
    setProgress(null);
  }
}

const meshSets = () => state.docs.filter((d) => d.summary.format === 'frostbite-meshset');

/** Tries to attach a file to each open MeshSet (the decoder matches it by GUID); null if none takes it. */
async function tryAttach(file) {
  for (const m of meshSets()) {
    try {
      const r = await docs.attachFile(m.handle, file, progressFor(file.name));
      m.summary = await docs.summary(m.handle);
      // attachedAs: which attached file it is (the mesh's Source.file) for the 3D view.
      return opened(file.name, r, { parent: m.handle, file, attachedAs: m.summary.attached.length });
    } catch { /* not this MeshSet's chunk */ }
  }
  return null;
}

export async function openFiles(files) {
  // MeshSets first, so their chunks (often dropped with them) find them.
  const order = [...files].sort((a, b) => isChunkName(a.name) - isChunkName(b.name));
  for (const f of order) {
    try {
      if (isChunkName(f.name) && meshSets().length && (await tryAttach(f)) != null) continue;
      // A big file's bytes show at once, read from the File, while the worker decodes it.
      if (f.size >= PREVIEW_MIN) {
        previewing = f;
        renderTabs();
        emit('preview', f);
      }
      let r;
      try {
        r = await docs.openFile(f, progressFor(f.name));
      } finally {
        previewing = null;
      }
      opened(f.name, r, { file: f });
      if (r.summary.pending) await complete(r.handle, f.name);
    } catch (e) {
      setStatus(`could not open ${f.name}: ${e.message}`);
      renderTabs();
      emit('active', state.docs.find((d) => d.handle === state.active) ?? null); // drop the preview
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
  const doc = state.docs.find((d) => d.handle === handle);
  if (!doc) return; // closed meanwhile
  doc.summary = r.summary;
  Object.assign(doc.timings ?? (doc.timings = {}), r.timings);
  emit('completed', doc);
}

function isChunkName(name) {
  return /\.(chunk|resmeta)$/i.test(name) || /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i.test(name);
}

/** Attaches the active document to LOD `lod` of MeshSet `parent` by hand (whatever its name
 *  says), replacing its tab. */
async function attachByHand(doc, parent, lod) {
  const bytes = doc.file ?? (await docs.bytes(doc.handle, 0, doc.size));
  try {
    const r = await docs.attachToLod(parent, lod, doc.name, bytes, progressFor(doc.name));
    const p = state.docs.find((d) => d.handle === parent);
    if (p) p.summary = await docs.summary(parent);
    state.docs.splice(state.docs.indexOf(doc), 1);
    docs.close(doc.handle);
    opened(doc.name, r, { parent, file: doc.file, attachedAs: p?.summary.attached.length });
  } catch (e) {
    setStatus(`could not attach ${doc.name}: ${e.message}`);
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

function renderTabs() {
  const nav = $('tabs');
  // Attached chunks follow their MeshSet.
  const order = state.docs.filter((d) => d.parent == null)
    .flatMap((d) => [d, ...state.docs.filter((c) => c.parent === d.handle)]);
  order.push(...state.docs.filter((d) => !order.includes(d)));
  nav.replaceChildren(...order.map((d) => {
    const b = document.createElement('button');
    b.role = 'tab';
    b.textContent = d.name; // file names are text, never HTML
    if (d.parent != null) b.classList.add('child');
    b.title = `${d.name} (${d.summary.format}, ${d.size.toLocaleString()} bytes)`;
    b.setAttribute('aria-selected', String(d.handle === state.active));
    b.addEventListener('click', () => setActive(d.handle));
    const x = document.createElement('button');
    x.className = 'close';
    x.textContent = '×';
    x.title = `Close ${d.name}`;
    x.setAttribute('aria-label', x.title);
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
  renderAttach();
}

/** The File the hex view previews while the worker reads it, or null. */
let previewing = null;

/** "Attach to…" for a file that is not attached while a MeshSet is open. */
function renderAttach() {
  const wrap = $('attach-wrap');
  const doc = state.docs.find((d) => d.handle === state.active);
  const sets = meshSets();
  wrap.hidden = !doc || doc.parent != null || !sets.length || doc.summary.format === 'frostbite-meshset';
  if (wrap.hidden) { wrap.replaceChildren(); return; }
  const sel = document.createElement('select');
  sel.setAttribute('aria-label', 'Attach this file to a MeshSet');
  // One choice per LOD of every open MeshSet: "name, LOD n".
  const choices = sets.flatMap((m) => m.summary.mesh.map((_, lod) => new Option(`${m.name}, LOD ${lod}`, `${m.handle}:${lod}`)));
  sel.append(new Option('Attach to MeshSet…', ''), ...choices);
  sel.addEventListener('change', () => {
    if (!sel.value) return;
    const [handle, lod] = sel.value.split(':').map(Number);
    attachByHand(doc, handle, lod);
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
  const api = await loadWasm(); // the main thread's own instance (no documents): djb2_xor etc.
  window.meshscope = { api, docs, state, openFiles, openBytes, closeDoc };
  on('docs', renderTabs);
  on('active', renderTabs);
  on('status', (t) => { $('status').textContent = t; });
  on('progress', renderProgress);
  renderLegend();
  const hex = new HexView($('hex'));
  attachTooltip($('hex'));
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
  await initViewer($('viewer-pane')).catch((e) => console.error('3D view:', e));

  $('file-input').addEventListener('change', (e) => {
    performance.mark('file-chosen');
    openFiles([...e.target.files]);
    e.target.value = '';
  });
  const hint = $('drop-hint');
  document.addEventListener('dragover', (e) => { e.preventDefault(); hint.hidden = false; });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) hint.hidden = true; });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    hint.hidden = true;
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) openFiles(files);
  });

  const annotations = new AnnotationsPanel($('annotations'));
  window.meshscope.annotations = annotations;
  $('copy-link').addEventListener('click', () => copyLink(annotations));
  window.addEventListener('hashchange', () => { if (location.hash !== lastLink) openView(annotations, parseFragment(location.hash)); });

  await annotations.ready;
  await openView(annotations, parseFragment(location.hash));
  document.body.dataset.ready = 'true';
}

let lastLink = null;

/** Shows a problem that needs the reader's attention (an unreachable #src=, a bad link). */
function notice(text) {
  const el = $('notice');
  el.textContent = text;
  el.hidden = !text;
  if (text) setStatus(text);
}

/** Opens what a link describes: the file at src (else the built-in sample), its annotations,
 *  the tab and the selection. A part that fails says why and the rest still opens. */
async function openView(annotations, view) {
  notice('');
  if (view.ann) {
    try {
      await annotations.importText(await unpackText(view.ann));
    } catch (e) {
      notice(`the link's annotations could not be read: ${e.message}`);
    }
  }
  let opened_ = false;
  if (view.src) {
    const name = decodeURIComponent(view.src.split(/[?#]/)[0].split('/').pop() || 'download');
    try {
      const bytes = await fetchSource(view.src, (done, total) => setProgress({ label: `downloading ${name}`, done, total }));
      setProgress(null);
      opened(name, await docs.openBytes(name, bytes), { src: view.src });
      opened_ = true;
    } catch (e) {
      setProgress(null);
      notice(e.message);
    }
  }
  if (!opened_ && !state.docs.length) opened('sample.ply', await docs.openSample('sample.ply'));
  if (view.tab != null && state.docs[view.tab]) setActive(state.docs[view.tab].handle);
  const doc = state.docs.find((d) => d.handle === state.active);
  if (view.sel && doc && view.sel.start < doc.size) select(view.sel.start, Math.min(view.sel.end, doc.size), 'link');
  if (view.lod != null || view.pass) emit('view', { lod: view.lod, pass: view.pass });
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
  setStatus(`failed to start: ${e.message ?? e}`);
});
