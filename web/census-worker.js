// The census worker: its own wasm instance, so a census of thousands of files never blocks
// the page. It speaks web/worker-protocol.js: `run` takes the files' names, options, the
// ports of the census planners (web/census-planner.js) and a port the Files come over in
// order, a slice at a time (web/census.js `handOver`), reports progress {done, total, bytes,
// skipped, name} and answers with the report; cancelled, it stops before the next batch.
// Files are read in batches here and their bytes go to the planners, which decode and plan
// them in instances of their own; this worker counts the plans in file order (the report is the one-thread
// census's) and, whenever the next plan is not there, reads and plans a batch itself, so every
// core stays busy whichever side is slower. With no planners it plans every batch itself.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';
import { readBatch } from './census-read.js';

const ready = init();
const PROGRESS_MS = 500;
/** A batch: at most this many files, and this many bytes unless it is one file. */
const BATCH_FILES = 32;
const BATCH_BYTES = 4 << 20;
/** Batches a planner has been asked for and not answered, at most: enough that the reads,
 *  which wait their turn on the browser's IO thread, are done before it runs out. */
const DEPTH = 10;
/** Files past the next one to count that may be asked for or planned, at most (but always
 *  the next file): for planners, twice as many batches as they may have asked for, and one
 *  more; for this worker, half that, so that it never takes the batches the planners need;
 *  and AHEAD_BYTES in either case. */
const AHEAD_BYTES = 32 << 20;
/** Batches of this worker's own being read at once, at most. */
const OWN_READS = 2;

/** Where each batch goes, and what is counted. The Files come after their names (`arrive`),
 *  and a batch is taken once its files are all there. */
class Schedule {
  constructor(names, planners, batchFiles) {
    this.files = names.map((name) => ({ name, file: null }));
    this.n = names.length;
    this.batchFiles = batchFiles;
    this.own = batchFiles * (1 + DEPTH * planners);
    this.planners = 2 * this.own;
    // at[i]: the bytes of the files before file i, for the files arrived.
    this.at = new Float64Array(this.n + 1);
    this.arrived = 0;
    this.taken = 0; // the files before it are planned or asked for
    this.counted = 0;
  }

  /** The next Files, in order. */
  arrive(files) {
    for (const file of files) {
      if (this.arrived >= this.n) break;
      const i = this.arrived++;
      this.files[i].file = file;
      this.at[i + 1] = this.at[i] + file.size;
    }
  }

  /** Whether a batch may be taken now, `ahead` files at most past the next to count (which is
   *  always free to take). */
  free(ahead) {
    const t = this.taken;
    if (t >= this.n || Math.min(t + this.batchFiles, this.n) > this.arrived) return false;
    return t === this.counted || (t < this.counted + ahead && this.at[t] - this.at[this.counted] < AHEAD_BYTES);
  }

  /** The next batch: [first, end). */
  take() {
    const first = this.taken;
    let end = first + 1;
    while (end < this.n && end - first < this.batchFiles && this.at[end + 1] - this.at[first] <= BATCH_BYTES) end++;
    this.taken = end;
    return [first, end];
  }
}

/** A promise that the next arrival resolves; `wait` gives the one to wait on now. */
class Arrivals {
  constructor() { this.renew(); }
  renew() { this.promise = new Promise((ok) => { this.resolve = ok; }); }
  arrived() { this.resolve(); }
  async wait(cancelled) {
    await Promise.race([this.promise, cancelled]);
    this.renew();
  }
}

/** The time spent in each step, in ms, when asked for (`timing`). */
const newTiming = () => ({ read: 0, plan: 0, hold: 0, count: 0, wait: 0, report: 0, batches: 0, own: 0, slices: 0, planners: { plan: 0, idle: 0 } });

/** Sends batches to the planner of `port` (number `number`) and holds its plans as they come. */
function connect(port, number, { arrivals, timing, fail }) {
  const planner = { port, out: 0, sent: Promise.resolve() };
  port.onmessage = (e) => {
    const { first, plans, bytes, ms, error } = e.data;
    planner.out--;
    if (error !== undefined) fail(new Error(error));
    else {
      const t0 = performance.now();
      try { api.census_hold(first, plans, bytes, number); } catch (err) { fail(err); }
      timing.hold += performance.now() - t0;
      timing.planners.plan += ms.plan;
      timing.planners.idle += ms.idle;
    }
    arrivals.arrived();
  };
  return planner;
}

const handlers = {
  /** Censuses the files of `names`, whose Files come over `feed`, with the planners of
   *  `ports`; the report lists up to `maxValues` values an entry. `pauseAfter` (for tests)
   *  counts that many files and waits until the run is cancelled; `batchFiles` (for tests)
   *  sets the batch size; `timing` (for benchmarks) adds the time of each step to the
   *  report, as `timing`. */
  async run(ctx, names, { maxValues = 1000, pauseAfter = null, batchFiles = BATCH_FILES, timing: timed = false } = {}, ports = [], feed) {
    api.census_new();
    const s = new Schedule(names, ports.length, batchFiles);
    const { files } = s;
    const hold = pauseAfter ?? s.n;
    const timing = newTiming();
    const arrivals = new Arrivals();
    let failure = null;
    const fail = (err) => { failure ??= err; };
    const planners = ports.map((port, k) => connect(port, k + 1, { arrivals, timing, fail }));
    feed.onmessage = (e) => { s.arrive(e.data); timing.slices++; arrivals.arrived(); };
    // The batches this worker plans next, in file order (its planner's names are defined in
    // that order), being read; an arrival wakes the loop when one is read.
    const ownReads = [];
    const startRead = ([first, end]) => {
      const batch = { first, read: readBatch(files.slice(first, end)), ready: false };
      const settled = () => { batch.ready = true; arrivals.arrived(); };
      batch.read.then(settled, settled); // its failure is thrown when it is awaited
      ownReads.push(batch);
    };
    let last = 0;
    let shown = -1;
    for (;;) {
      ctx.check();
      if (failure) throw failure;
      for (const p of planners) {
        while (p.out < DEPTH && s.free(s.planners)) {
          // The batch goes read (a File sent to the planner would cost the browser a blob
          // handle made for it, on top of the read), in the order taken.
          const [first, end] = s.take();
          const read = readBatch(files.slice(first, end));
          p.sent = p.sent.then(() => read).then(
            ({ bytes, sizes, names }) => p.port.postMessage({ first, bytes, sizes, names }, [bytes.buffer]),
            (err) => { fail(err); arrivals.arrived(); });
          p.out++;
          timing.batches++;
        }
      }
      let t = performance.now();
      s.counted = api.census_count(hold);
      timing.count += performance.now() - t;
      const now = performance.now();
      if (s.counted !== shown && (now - last > PROGRESS_MS || s.counted === s.n || s.counted === hold)) {
        last = now;
        shown = s.counted;
        const name = s.counted > 0 ? files[s.counted - 1].name : '';
        ctx.progress({ done: s.counted, total: s.n, bytes: s.at[s.counted], skipped: api.census_skipped(), name });
      }
      if (s.counted === s.n) break;
      if (s.counted === hold) {
        await ctx.whenCancelled;
        continue;
      }
      // Reads are started OWN_READS batches ahead of this worker's planning, so that it
      // never waits for one while there are plans to count.
      if (ownReads.length === 0 && s.free(s.own)) startRead(s.take());
      while (ownReads.length > 0 && ownReads.length < OWN_READS && s.free(s.own + ownReads.length * s.batchFiles)) startRead(s.take());
      t = performance.now();
      if (ownReads[0]?.ready) {
        const { first, read } = ownReads.shift();
        const { bytes, sizes, names } = await read;
        const u = performance.now();
        api.census_plan_own(first, bytes, sizes, names);
        timing.plan += performance.now() - u;
        timing.own++;
      } else {
        await arrivals.wait(ctx.whenCancelled);
        timing[ownReads.length > 0 ? 'read' : 'wait'] += performance.now() - t;
      }
    }
    ctx.check();
    const t = performance.now();
    const report = api.census_report(maxValues);
    timing.report = performance.now() - t;
    if (timed) report.timing = timing;
    return report;
  },
  /** The entries of the last census holding `offset` of records of kind `record`. */
  lookup(ctx, record, offset, maxValues = 50) {
    return api.census_lookup(record, offset, maxValues);
  },
};

serve(handlers, { ready });
