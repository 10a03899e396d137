// The documents live here, in a Web Worker with its own wasm instance, so reading and
// decoding a 500 MB file never freezes the page. Messages: {id, method, args} in;
// {id, result} | {id, error} | {id, progress} out. Bulk results are transferred, not copied.
import init, * as api from '../pkg/meshscope.js';

const ready = init();
let wasm = null;
ready.then((w) => { wasm = w; });

/** Progress is reported every this many bytes read. */
const SLICE = 16 * 1024 * 1024;
// Files this big get their first rows decoded before the whole file is read (the page shows
// a preview of them from 4 MB, web/main.js); the first this many bytes are looked at.
const PREVIEW_MIN = 4 * 1024 * 1024;
const PREVIEW_BYTES = 64 * 1024;

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

function opened(handle, timings = {}) {
  return { handle, summary: api.summary(handle), timings };
}

const methods = {
  /** Reads and decodes a File: {handle, summary}. */
  async openFile(progress, file, name = file.name) {
    const t0 = performance.now();
    const { token, allocMs } = await readIntoWasm(file, progress, name);
    const t1 = performance.now();
    progress({ phase: 'decoding', done: 0, total: file.size });
    // Structure first: a big .ply's spans come at once; `complete` decodes its mesh after.
    const handle = api.open_buffer(name, token, true);
    const t2 = performance.now();
    return opened(handle, { readMs: t1 - t0, allocMs, decodeMs: t2 - t1 });
  },
  /** Finishes a document opened structure first: {handle, summary, timings}. */
  complete(progress, handle) {
    const t0 = performance.now();
    api.complete(handle);
    return opened(handle, { completeMs: performance.now() - t0 });
  },
  /** Decodes bytes handed over (transferred): {handle, summary}. */
  openBytes(progress, name, bytes) {
    progress({ phase: 'decoding', done: 0, total: bytes.length });
    return opened(api.open(name, bytes));
  },
  /** Attaches a File to an open document as a companion: {handle, summary} of the chunk. The
   *  File is streamed into wasm memory as an opened one is. */
  async attachFile(progress, parent, file, name = file.name) {
    const t0 = performance.now();
    const { token } = await readIntoWasm(file, progress, name, false);
    const t1 = performance.now();
    progress({ phase: 'decoding', done: 0, total: file.size });
    const handle = api.attach_buffer(parent, name, token, undefined);
    return opened(handle, { readMs: t1 - t0, decodeMs: performance.now() - t1 });
  },
  attachBytes(progress, parent, name, bytes) {
    return opened(api.attach(parent, name, bytes));
  },
  /** Attaches bytes to LOD `lod` of `parent` by hand, whatever their name says. */
  async attachToLod(progress, parent, lod, name, data) {
    if (!(data instanceof Blob)) return opened(api.attach_lod(parent, lod, name, data));
    const { token } = await readIntoWasm(data, progress, name, false);
    return opened(api.attach_buffer(parent, name, token, lod));
  },
  /** What the hex view needs for a window, in one round trip. */
  window(progress, handle, start, end) {
    return { start, bytes: api.bytes(handle, start, end), bounds: api.span_bounds(handle, start, end) };
  },
  /** Mean milliseconds of `n` calls of wasm `method` (for scripts/bench-page.mjs). */
  time(progress, method, args, n = 100) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) api[method](...args);
    return (performance.now() - t0) / n;
  },
  /** The built-in sample, decoded. */
  openSample(progress, name) {
    return opened(api.open(name, api.sample_file()));
  },
};

function transferables(v, out = []) {
  if (ArrayBuffer.isView(v)) out.push(v.buffer);
  else if (v && typeof v === 'object' && !Array.isArray(v)) for (const x of Object.values(v)) transferables(x, out);
  else if (Array.isArray(v)) for (const x of v) if (ArrayBuffer.isView(x)) out.push(x.buffer);
  return out;
}

self.onmessage = async (e) => {
  const { id, method, args } = e.data;
  const progress = (p) => self.postMessage({ id, progress: p });
  try {
    await ready;
    const fn = methods[method] ?? api[method];
    if (typeof fn !== 'function') throw new Error(`no method ${method}`);
    const result = methods[method] ? await fn(progress, ...args) : fn(...args);
    const t = transferables(result);
    self.postMessage({ id, result }, [...new Set(t)]);
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
