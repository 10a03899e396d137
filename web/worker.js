// The documents live here, in a Web Worker with its own wasm instance, so reading and
// decoding a 500 MB file never freezes the page. It speaks web/worker-protocol.js: a request's
// kind is one of `methods` below or a wasm function. Bulk results are transferred, not copied.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';
import { PREVIEW_MIN, PREVIEW_BYTES } from './preview.js';

const ready = init();
let wasm = null;
ready.then((w) => { wasm = w; });

/** Progress is reported every this many bytes read. */
const SLICE = 16 * 1024 * 1024;

/** Streams a File straight into a buffer in wasm memory (one copy, progress as it comes);
 *  returns the buffer's token for `open_buffer` / `attach_buffer` and how long making the
 *  buffer took. A file opened on its own gets its first rows previewed; one attached does not. */
async function readIntoWasm(file, progress, name = file.name, preview = true) {
  await ready;
  const t0 = performance.now();
  const token = api.buffer_new(file.size);
  const allocMs = performance.now() - t0; // for the page benchmark
  try {
    const reader = file.stream().getReader();
    let done = 0;
    let reported = 0;
    let previewed = false;
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      if (done + value.length > file.size) throw new Error('the file grew while it was read');
      // A fresh view each time: wasm memory may have grown (and detached the old one).
      new Uint8Array(wasm.memory.buffer, api.buffer_ptr(token) + done, value.length).set(value);
      done += value.length;
      if (preview && !previewed && file.size >= PREVIEW_MIN && done >= Math.min(file.size, PREVIEW_BYTES)) {
        // The first rows decoded from the first bytes (the rest of the buffer still zero):
        // the page colors them while the rest is read.
        previewed = true;
        const end = Math.min(done, PREVIEW_BYTES);
        const bounds = api.buffer_preview(token, name, done, 0, end);
        if (bounds) {
          const bytes = new Uint8Array(wasm.memory.buffer, api.buffer_ptr(token), end).slice();
          progress({ phase: 'reading', done, total: file.size, preview: { start: 0, bytes, bounds } });
        }
      }
      if (done - reported >= SLICE || done === file.size) {
        reported = done;
        progress({ phase: 'reading', done, total: file.size });
      }
    }
    if (done !== file.size) throw new Error(`the file shrank while it was read (${done} of ${file.size} bytes)`);
    return { token, allocMs };
  } catch (e) {
    api.buffer_drop(token);
    throw e;
  }
}

/** The summary: JSON from wasm (`json`: `summary_json`, or `summary_first_json` for the
 *  first paint, a MeshSet's checks left for a `summary` request), parsed here (objects built
 *  from wasm value by value cost several times more); `summary` itself where the JSON cannot
 *  hold it (NaN bounds). */
function summaryOf(handle, json = api.summary_json) {
  const text = json(handle);
  return text === undefined ? api.summary(handle) : JSON.parse(text);
}

function opened(handle, timings = {}) {
  return { handle, summary: summaryOf(handle, api.summary_first_json), timings };
}

/** Requests beyond the wasm functions; each gets the request's context (worker-protocol.js). */
const methods = {
  /** Reads and decodes a File: {handle, summary}. */
  async openFile(ctx, file, name = file.name) {
    const t0 = performance.now();
    const { token, allocMs } = await readIntoWasm(file, ctx.progress, name);
    const t1 = performance.now();
    ctx.progress({ phase: 'decoding', done: 0, total: file.size });
    // Structure first: a big .ply's spans come at once; `complete` decodes its mesh after.
    const handle = api.open_buffer(name, token, true);
    const t2 = performance.now();
    return opened(handle, { readMs: t1 - t0, allocMs, decodeMs: t2 - t1 });
  },
  /** Finishes a document opened structure first: {handle, summary, timings}. */
  complete(ctx, handle) {
    const t0 = performance.now();
    api.complete(handle);
    return opened(handle, { completeMs: performance.now() - t0 });
  },
  /** Decodes bytes handed over (transferred): {handle, summary}. */
  openBytes(ctx, name, bytes) {
    ctx.progress({ phase: 'decoding', done: 0, total: bytes.length });
    return opened(api.open(name, bytes));
  },
  /** Attaches a File to an open document as a companion: {handle, summary} of the chunk. The
   *  File is streamed into wasm memory as an opened one is. */
  async attachFile(ctx, parent, file, name = file.name) {
    const t0 = performance.now();
    const { token } = await readIntoWasm(file, ctx.progress, name, false);
    const t1 = performance.now();
    ctx.progress({ phase: 'decoding', done: 0, total: file.size });
    const handle = api.attach_buffer(parent, name, token, undefined);
    return opened(handle, { readMs: t1 - t0, decodeMs: performance.now() - t1 });
  },
  attachBytes(ctx, parent, name, bytes) {
    return opened(api.attach(parent, name, bytes));
  },
  /** Attaches bytes to LOD `lod` of `parent` by hand, whatever their name says. */
  async attachToLod(ctx, parent, lod, name, data) {
    if (!(data instanceof Blob)) return opened(api.attach_lod(parent, lod, name, data));
    const { token } = await readIntoWasm(data, ctx.progress, name, false);
    return opened(api.attach_buffer(parent, name, token, lod));
  },
  /** What the hex view needs for a window, in one round trip. */
  window(ctx, handle, start, end) {
    return { start, bytes: api.bytes(handle, start, end), bounds: api.span_bounds(handle, start, end) };
  },
  /** Mean milliseconds of `n` calls of wasm `method` (for scripts/bench-page.mjs). */
  time(ctx, method, args, n = 100) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) api[method](...args);
    return (performance.now() - t0) / n;
  },
  /** The summary of `handle`, as `summaryOf` gets it. */
  summary(ctx, handle) {
    return summaryOf(handle);
  },
  /** The structure tree: one JSON string from wasm, parsed here (much faster than objects built from wasm). */
  tree(ctx, handle) {
    return JSON.parse(api.tree_json(handle));
  },
  /** The tree's top `levels` levels, for the tree panel (web/tree.js): nodes whose children
   *  were not sent carry `kids` (their count). */
  treeTop(ctx, handle, levels) {
    return JSON.parse(api.tree_json_top(handle, levels));
  },
  /** The children of the node at `path`, `levels` levels deep. */
  treeChildren(ctx, handle, path, levels) {
    return JSON.parse(api.tree_children_json(handle, path, levels));
  },
  /** The built-in sample, decoded. */
  openSample(ctx, name) {
    return opened(api.open(name, api.sample_file()));
  },
};

// Any other kind is the wasm function of that name, called with the request's args.
serve(methods, { ready, fallback: (kind) => (typeof api[kind] === 'function' ? api[kind] : undefined) });
