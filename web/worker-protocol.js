// The one message protocol of the page's workers (the document worker, web/worker.js, and the
// census worker, web/census-worker.js). Every message carries the id of its request:
//
//   page → worker   {id, kind, args}      run handler `kind` with `args` (an array)
//                   {id, kind: 'cancel'}  stop request `id`: its handler sees ctx.cancelled
//   worker → page   {id, progress}        any number of them, before the answer
//                   {id, result}          the answer (typed arrays in it are transferred)
//                   {id, error, cancelled} the failure; `cancelled` is true when it stopped
//                                         because it was asked to
//
// A request gets exactly one answer. `serve` is the worker's side, `WorkerClient` the page's.

const CANCEL = 'cancel';
export const CANCELLED = 'cancelled';

/** The error a cancelled request ends with, on either side. */
export class Cancelled extends Error {
  constructor() {
    super(CANCELLED);
    this.cancelled = true;
  }
}

/** The buffers of the typed arrays in `v` (its values, one level of arrays), to transfer. */
function transferables(v, out = []) {
  if (ArrayBuffer.isView(v)) out.push(v.buffer);
  else if (Array.isArray(v)) for (const x of v) { if (ArrayBuffer.isView(x)) out.push(x.buffer); }
  else if (v && typeof v === 'object') for (const x of Object.values(v)) transferables(x, out);
  return out;
}

/**
 * The worker's side: answers requests with `handlers[kind](ctx, ...args)`, or with
 * `fallback(kind)` (a function of the args, or undefined) for kinds it has no handler of.
 * `ctx`: progress(p) reports progress; cancelled() says whether the page asked to stop;
 * whenCancelled is a promise that resolves then; check() throws Cancelled once asked.
 */
export function serve(handlers, { ready = Promise.resolve(), fallback = () => undefined } = {}) {
  const cancels = new Map(); // id -> resolve of whenCancelled, for requests still running
  const asked = new Set();
  self.onmessage = async (e) => {
    const { id, kind, args = [] } = e.data;
    if (kind === CANCEL) {
      if (cancels.has(id)) { asked.add(id); cancels.get(id)(); } // else it has answered already
      return;
    }
    let cancel;
    const whenCancelled = new Promise((ok) => { cancel = ok; });
    cancels.set(id, cancel);
    const ctx = {
      progress: (p) => self.postMessage({ id, progress: p }),
      cancelled: () => asked.has(id),
      whenCancelled,
      check() { if (asked.has(id)) throw new Cancelled(); },
    };
    try {
      await ready;
      const own = Object.hasOwn(handlers, kind) ? handlers[kind] : null;
      const fn = own ? (...a) => own(ctx, ...a) : fallback(kind);
      if (typeof fn !== 'function') throw new Error(`no request kind ${kind}`);
      const result = await fn(...args);
      self.postMessage({ id, result }, [...new Set(transferables(result))]);
    } catch (err) {
      self.postMessage({ id, error: String(err?.message ?? err), cancelled: !!err?.cancelled });
    } finally {
      cancels.delete(id);
      asked.delete(id);
    }
  };
}

/** The page's side of one worker: call(kind, args, {transfer, onProgress, signal}). */
export class WorkerClient {
  /** `url`: the worker module; `name` says which worker in errors. */
  constructor(url, name) {
    this.name = name;
    this.worker = new Worker(url, { type: 'module' });
    this.pending = new Map();
    this.nextId = 1;
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => this.failAll(new Error(e.message || `the ${name} failed`));
  }

  receive({ id, progress, result, error, cancelled }) {
    const p = this.pending.get(id);
    if (!p) return;
    if (progress !== undefined) { p.onProgress?.(progress); return; }
    this.pending.delete(id);
    if (error === undefined) p.resolve(result);
    else p.reject(cancelled ? new Cancelled() : new Error(error));
  }

  /** Runs `kind` in the worker; resolves with its result. `transfer` lists buffers handed over,
   *  `onProgress` gets its progress, and aborting `signal` asks the worker to stop: the promise
   *  then rejects with Cancelled once the worker has stopped. */
  call(kind, args = [], { transfer = [], onProgress, signal } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, kind, args }, transfer);
      signal?.addEventListener('abort', () => this.worker.postMessage({ id, kind: CANCEL }), { once: true });
    });
  }

  failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Stops the worker at once; what it was doing fails with Cancelled. */
  terminate() {
    this.worker.terminate();
    this.failAll(new Cancelled());
  }
}
