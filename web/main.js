// Wiring: load the wasm, open files (chooser, drop, built-in sample), tabs, status line.
import { loadWasm } from './wasm.js';
import { docs } from './docs.js';
import { state, on, addDoc, setActive, setStatus } from './state.js';
import { HexView, LEVELS } from './hexview.js';
import { initCensus } from './census.js';

const $ = (id) => document.getElementById(id);

async function openBytes(name, bytes) {
  setStatus(`decoding ${name} (${bytes.length.toLocaleString()} bytes)…`);
  const handle = await docs.open(name, bytes);
  const summary = await docs.summary(handle);
  addDoc({ handle, name, size: summary.size, summary });
  const errs = summary.errors.length ? `, ${summary.errors.length} error(s)` : '';
  setStatus(`${name}: ${summary.format}, ${summary.size.toLocaleString()} bytes${errs}`);
  return handle;
}

export async function openFiles(files) {
  for (const f of files) {
    setStatus(`reading ${f.name}…`);
    const bytes = new Uint8Array(await f.arrayBuffer());
    await openBytes(f.name, bytes);
  }
}

function renderTabs() {
  const nav = $('tabs');
  nav.replaceChildren(...state.docs.map((d) => {
    const b = document.createElement('button');
    b.role = 'tab';
    b.textContent = d.name; // file names are text, never HTML
    b.title = `${d.name} (${d.summary.format})`;
    b.setAttribute('aria-selected', String(d.handle === state.active));
    b.addEventListener('click', () => setActive(d.handle));
    return b;
  }));
}

function renderLegend() {
  const el = $('legend');
  el.replaceChildren(...LEVELS.slice(1).concat('uncovered').map((l) => {
    const s = document.createElement('span');
    s.className = `legend-item lv-${l}`;
    s.textContent = l;
    return s;
  }));
}

async function main() {
  const api = await loadWasm();
  window.meshscope = { api, docs, state }; // for tests and the console
  on('docs', renderTabs);
  on('active', renderTabs);
  on('status', (t) => { $('status').textContent = t; });
  renderLegend();
  new HexView($('hex'), api);
  initCensus($('census-button'), { open: openFiles });

  $('file-input').addEventListener('change', (e) => openFiles([...e.target.files]));
  const hint = $('drop-hint');
  document.addEventListener('dragover', (e) => { e.preventDefault(); hint.hidden = false; });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) hint.hidden = true; });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    hint.hidden = true;
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) openFiles(files);
  });

  await openBytes('sample.ply', await docs.sample_file());
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  console.error(e);
  setStatus(`failed to start: ${e.message ?? e}`);
});
