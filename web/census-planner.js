// A census planner: a worker with its own wasm instance that reads, decodes and plans batches
// of files for the census worker (web/census-worker.js), which counts the plans in file order.
// The page starts one per core past the first (web/census.js) and gives each a port to the
// census worker; the page ends it with the census.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';
import { readBatch } from './census-read.js';

const ready = init();

const handlers = {
  /** Plans the batches the census asks for on `port` ({first, files: [{name, file}]}), in the
   *  order asked, answering each there with {first, plans, bytes, ms: {read, plan}} (plans and
   *  bytes transferred; `ms`: the time it waited for the read, and planned) or {first, error}. Each batch's read starts as soon as it is asked
   *  for. Never answers: the page ends the worker. */
  plan(ctx, port) {
    api.census_new();
    let turn = Promise.resolve();
    port.onmessage = (e) => {
      const { first, files } = e.data;
      const read = readBatch(files);
      read.catch(() => {}); // its failure is answered in its turn
      turn = turn.then(async () => {
        try {
          const t0 = performance.now();
          const { bytes, sizes, names } = await read;
          const t1 = performance.now();
          const plans = api.census_plan(bytes, sizes, names);
          const ms = { read: t1 - t0, plan: performance.now() - t1 };
          port.postMessage({ first, plans, bytes, ms }, [plans.buffer, bytes.buffer]);
        } catch (err) {
          port.postMessage({ first, error: String(err?.message ?? err) });
        }
      });
    };
    return new Promise(() => {});
  },
};

serve(handlers, { ready });
