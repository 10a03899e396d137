// The documents API as the panels use it: every call returns a Promise and runs in a Web
// Worker (web/worker.js, through web/worker-protocol.js) with its own wasm instance. Methods
// mirror the wasm API (crate/src/wasm/mod.rs): open, attach, summary, spans, span_bounds,
// span_at, tree, region_items, mesh, errors, bytes, close, sample_file, djb2_xor, find,
// hash_range; plus the worker's openFile, attachFile, openBytes, attachBytes, openSample,
// window, and treeTop and treeChildren (the tree a part at a time, for the tree panel).
// Handles are the worker's: they mean nothing to a wasm instance on the main thread.

import { WorkerClient } from './worker-protocol.js';

const worker = new WorkerClient(new URL('./worker.js', import.meta.url), 'document worker');

/** Calls `kind` in the worker (web/worker-protocol.js): `transfer` lists buffers handed over,
 *  `onProgress` gets progress, `signal` cancels. */
export function call(kind, args, options) {
  return worker.call(kind, args, options);
}

/** A buffer that can be transferred without handing over more than `bytes` (else a copy). */
function own(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return u8.byteOffset === 0 && u8.byteLength === u8.buffer.byteLength ? u8 : u8.slice();
}

const METHODS = ['open', 'attach', 'summary', 'spans', 'span_bounds', 'span_at', 'tree',
  'region_items', 'mesh', 'errors', 'bytes', 'close', 'sample_file', 'djb2_xor', 'find',
  'hash_range', 'window', 'openSample', 'time', 'export_glb', 'treeTop', 'treeChildren'];

export const docs = Object.fromEntries(METHODS.map((m) => [m, (...args) => call(m, args)]));

/** Opens bytes (transferred: the caller's buffer is handed over). Resolves to {handle, summary}. */
docs.openBytes = (name, bytes, onProgress) => {
  const b = own(bytes);
  return call('openBytes', [name, b], { transfer: [b.buffer], onProgress });
};
docs.openFile = (file, onProgress) => call('openFile', [file], { onProgress });
/** Finishes a document opened structure first (its mesh and checks): {handle, summary}. */
docs.complete = (handle, onProgress) => call('complete', [handle], { onProgress });
docs.attachFile = (parent, file, onProgress) => call('attachFile', [parent, file], { onProgress });
docs.attachBytes = (parent, name, bytes) => {
  const b = own(bytes);
  return call('attachBytes', [parent, name, b], { transfer: [b.buffer] });
};
/** Attaches a File or bytes to LOD `lod` of MeshSet `parent` by hand: {handle, summary}. */
docs.attachToLod = (parent, lod, name, data, onProgress) => {
  if (data instanceof Blob) return call('attachToLod', [parent, lod, name, data], { onProgress });
  const b = own(data);
  return call('attachToLod', [parent, lod, name, b], { transfer: [b.buffer], onProgress });
};
// `open` and `attach` keep the wasm signature (returning a handle) for the console and tests.
docs.open = async (name, bytes) => (await docs.openBytes(name, bytes)).handle;
docs.attach = async (parent, name, bytes) => (await docs.attachBytes(parent, name, bytes)).handle;
