// The documents API as the panels use it: every call returns a Promise, so the documents can
// live in a Web Worker (its own wasm instance) without the panels knowing. Methods mirror the
// wasm API (crate/src/wasm/mod.rs): open, attach, summary, spans, span_bounds, span_at, tree,
// region_items, mesh, errors, bytes, close, sample_file.
import { loadWasm } from './wasm.js';

const METHODS = ['open', 'attach', 'summary', 'spans', 'span_bounds', 'span_at', 'tree',
  'region_items', 'mesh', 'errors', 'bytes', 'close', 'sample_file', 'djb2_xor', 'export_glb'];

export const docs = Object.fromEntries(METHODS.map((m) => [m, async (...args) => {
  const api = await loadWasm();
  return api[m](...args);
}]));
