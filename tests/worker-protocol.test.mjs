// The workers' one message protocol (web/worker-protocol.js), both ends in Node: the page's
// WorkerClient talks to `serve` through a stand-in Worker that passes structured clones both
// ways, as the browser does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, WorkerClient, Cancelled, CANCELLED } from '../web/worker-protocol.js';

/** A Worker whose other side is this realm's `self`; `sent` logs the page's messages. */
class LoopbackWorker {
  constructor() {
    this.sent = [];
    globalThis.self = { postMessage: (m) => setImmediate(() => this.onmessage?.({ data: structuredClone(m) })) };
  }

  postMessage(m) {
    this.sent.push(m);
    setImmediate(() => globalThis.self.onmessage({ data: structuredClone(m) }));
  }

  terminate() {}
}
globalThis.Worker = LoopbackWorker;

/** A served worker and its client: handlers as `serve` takes them. */
function connect(handlers, options) {
  const client = new WorkerClient('loopback.js', 'test worker');
  serve(handlers, options);
  return client;
}

test('a request answers with its result, after its progress, and typed arrays come back whole', async () => {
  const client = connect({
    sum(ctx, a, b) {
      ctx.progress({ done: 1 });
      ctx.progress({ done: 2 });
      return { total: a + b, bytes: new Uint8Array([a, b]) };
    },
  });
  const seen = [];
  const r = await client.call('sum', [3, 4], { onProgress: (p) => seen.push(p.done) });
  assert.deepEqual(seen, [1, 2]);
  assert.equal(r.total, 7);
  assert.deepEqual([...r.bytes], [3, 4]);
  assert.deepEqual(client.worker.sent, [{ id: 1, kind: 'sum', args: [3, 4] }]);
});

test('a failure is an error with its message; a kind no one serves says so', async () => {
  const client = connect({ fail() { throw new Error('bad bytes at 0x10'); } }, { fallback: (k) => (k === 'twice' ? (x) => 2 * x : undefined) });
  await assert.rejects(client.call('fail'), (e) => e.message === 'bad bytes at 0x10' && !(e instanceof Cancelled));
  await assert.rejects(client.call('nothing'), /no request kind nothing/);
  assert.equal(await client.call('twice', [21]), 42, 'the fallback serves other kinds with their args');
});

test('a cancel reaches the running handler, which stops; the page learns it was cancelled', async () => {
  let steps = 0;
  const client = connect({
    async long(ctx, n) {
      for (let i = 0; i < n; i++) {
        ctx.check();
        steps++;
        ctx.progress({ done: steps });
        if (steps === 3) await ctx.whenCancelled;
      }
      return 'finished';
    },
  });
  const abort = new AbortController();
  const run = client.call('long', [1000], { signal: abort.signal, onProgress: (p) => { if (p.done === 3) abort.abort(); } });
  await assert.rejects(run, (e) => e instanceof Cancelled && e.message === CANCELLED);
  assert.equal(steps, 3, 'no step ran after the cancel');
  assert.deepEqual(client.worker.sent.at(-1), { id: 1, kind: 'cancel' });
  // The worker still serves, and a cancel of an answered request changes nothing.
  const again = new AbortController();
  assert.equal(await client.call('long', [0], { signal: again.signal }), 'finished');
  again.abort();
});

test('terminate fails what is still waiting as cancelled', async () => {
  const client = connect({ never: (ctx) => ctx.whenCancelled.then(() => 'late') });
  const run = client.call('never');
  client.terminate();
  await assert.rejects(run, Cancelled);
});
