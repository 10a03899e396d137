// A census planner: a worker with its own wasm instance that decodes and plans batches of
// files for the census worker (web/census-worker.js), which counts the plans in file order.
// The page starts one per core past the first (web/census.js) and gives each a port to the
// census worker; the page ends it with the census.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';

const ready = init();

const handlers = {
  /** Plans the batches the census worker sends on `port` ({first, bytes, sizes, names} as
   *  the page's readBatch gives them), in the order sent, answering each there with
   *  {first, plans, bytes, ms: {plan, idle}} (plans and bytes transferred; `idle`: the
   *  time since it answered the batch before) or {first, error}. Never
   *  answers: the page ends the worker. */
  plan(ctx, port) {
    api.census_new();
    let done = performance.now();
    port.onmessage = (e) => {
      const { first, bytes, sizes, names } = e.data;
      try {
        const t0 = performance.now();
        const plans = api.census_plan(bytes, sizes, names);
        const ms = { plan: performance.now() - t0, idle: t0 - done };
        done = performance.now();
        port.postMessage({ first, plans, bytes, ms }, [plans.buffer, bytes.buffer]);
      } catch (err) {
        port.postMessage({ first, error: String(err?.message ?? err) });
      }
    };
    return new Promise(() => {});
  },
};

serve(handlers, { ready });
