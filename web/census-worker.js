// The census worker: its own wasm instance, so a census of thousands of files never blocks
// the page. It speaks web/worker-protocol.js: `run` takes the files' names, options, the
// ports of the census planners (web/census-planner.js) and a port to the page, which reads the
// batches it asks for (web/census.js `serveReads`); it reports progress {done, total, bytes,
// skipped, name} and answers with the report; cancelled, it stops before the next batch.
// The page reads the Files, since a File of a dropped folder costs the browser a round trip
// the first time it is copied or its size asked, as much as reading it (docs/performance.md);
// the bytes go to the planners, which decode and plan them in instances of their own; this
// worker counts the plans in file order (the report is the one-thread census's) and, whenever
// the next plan is not there, plans a batch itself, so every core stays busy whichever side
// is slower. With no planners it plans every batch itself.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';

const ready = init();
const PROGRESS_MS = 500;
/** A batch: at most this many files, and as many as this many bytes hold of the largest file
 *  read so far (at least one). */
const BATCH_FILES = 32;
const BATCH_BYTES = 4 << 20;
/** Batches a planner has been asked for and not answered, at most: enough that the reads,
 *  which wait their turn on the browser's IO thread, are done before it runs out. */
const DEPTH = 10;
/** Files past the next one to count that may be asked for or planned, at most (but always
 *  the next file): for planners, twice as many batches as they may have asked for, and one
 *  more; for this worker, half that, so that it never takes the batches the planners need;
 *  and AHEAD_BYTES in either case, a file not yet read counted as the largest read. */
const AHEAD_BYTES = 32 << 20;
/** Batches of this worker's own being read at once, at most. */
const OWN_READS = 2;

/** Where each batch goes, and what is counted. A file's size is known once it is read: until
 *  then the largest read so far stands for it, and the first batch is one file, so that no
 *  more than one file of unknown size is read at once. */
class Schedule {
  constructor(n, planners, batchFiles) {
    this.n = n;
    this.batchFiles = batchFiles;
    this.own = batchFiles * (1 + DEPTH * planners);
    this.planners = 2 * this.own;
    this.size = new Float64Array(n);
    this.largest = -1;
    this.taken = 0; // the files before it are planned or asked for
    this.counted = 0;
    this.countedBytes = 0;
    // The files taken and not counted: the bytes of those read, and how many are not.
    this.aheadBytes = 0;
    this.unread = 0;
  }

  /** The sizes of the files read from `first` on. */
  read(first, sizes) {
    sizes.forEach((b, k) => {
      this.size[first + k] = b;
      this.largest = Math.max(this.largest, b);
      this.aheadBytes += b;
    });
    this.unread -= sizes.length;
  }

  /** The files before `counted` are counted (all of them read). */
  count(counted) {
    for (let i = this.counted; i < counted; i++) {
      this.aheadBytes -= this.size[i];
      this.countedBytes += this.size[i];
    }
    this.counted = counted;
  }

  /** Whether a batch may be taken now, `ahead` files at most past the next to count (which is
   *  always free to take). */
  free(ahead) {
    const t = this.taken;
    if (t >= this.n) return false;
    if (t === this.counted) return true;
    const bytes = this.aheadBytes + this.unread * Math.max(this.largest, 0);
    return this.largest >= 0 && t < this.counted + ahead && bytes < AHEAD_BYTES;
  }

  /** The next batch: [first, end), as many files as BATCH_BYTES holds of the largest so far. */
  take() {
    const first = this.taken;
    // Before any file is read, one; files of no bytes, a whole batch.
    let fit = 1;
    if (this.largest >= 0) fit = Math.floor(BATCH_BYTES / Math.max(this.largest, 1));
    const end = Math.min(this.n, first + Math.max(1, Math.min(this.batchFiles, fit)));
    this.taken = end;
    this.unread += end - first;
    return [first, end];
  }
}

/** Batches the page reads (web/census.js `serveReads`) over `port`: each answer names its
 *  batch by its first file, since the page's reads may end in any order. */
class Reads {
  constructor(port, schedule, arrivals) {
    this.port = port;
    this.waiting = new Map(); // first -> {ok, fail}
    port.onmessage = ({ data }) => {
      const w = this.waiting.get(data.first);
      this.waiting.delete(data.first);
      if (data.error !== undefined) w?.fail(new Error(data.error));
      else {
        schedule.read(data.first, data.sizes);
        w?.ok(data);
      }
      arrivals.arrived();
    };
  }

  /** {bytes, sizes, names} of files [first, end). */
  read(first, end) {
    return new Promise((ok, fail) => {
      this.waiting.set(first, { ok, fail });
      this.port.postMessage({ first, end });
    });
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
const newTiming = () => ({ read: 0, plan: 0, hold: 0, count: 0, wait: 0, report: 0, batches: 0, own: 0, planners: { plan: 0, idle: 0 } });

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
  /** Censuses the files of `names`, which the page reads over `pagePort`, with the planners
   *  of `ports`; the report lists up to `maxValues` values an entry. `pauseAfter` (for tests)
   *  counts that many files and waits until the run is cancelled; `batchFiles` (for tests)
   *  sets the batch size; `timing` (for benchmarks) adds the time of each step to the
   *  report, as `timing`. */
  async run(ctx, names, { maxValues = 1000, pauseAfter = null, batchFiles = BATCH_FILES, timing: timed = false } = {}, ports = [], pagePort) {
    api.census_new();
    const s = new Schedule(names.length, ports.length, batchFiles);
    const hold = pauseAfter ?? s.n;
    const timing = newTiming();
    const arrivals = new Arrivals();
    let failure = null;
    const fail = (err) => { failure ??= err; };
    const planners = ports.map((port, k) => connect(port, k + 1, { arrivals, timing, fail }));
    const reads = new Reads(pagePort, s, arrivals);
    // The batches this worker plans next, in file order (its planner's names are defined in
    // that order), being read; an arrival wakes the loop when one is read.
    const ownReads = [];
    const startRead = ([first, end]) => {
      const batch = { first, read: reads.read(first, end), ready: false };
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
          // The batch goes read, in the order taken.
          const [first, end] = s.take();
          const read = reads.read(first, end);
          p.sent = p.sent.then(() => read).then(
            ({ bytes, sizes, names }) => p.port.postMessage({ first, bytes, sizes, names }, [bytes.buffer]),
            (err) => { fail(err); arrivals.arrived(); });
          p.out++;
          timing.batches++;
        }
      }
      let t = performance.now();
      s.count(api.census_count(hold));
      timing.count += performance.now() - t;
      const now = performance.now();
      if (s.counted !== shown && (now - last > PROGRESS_MS || s.counted === s.n || s.counted === hold)) {
        last = now;
        shown = s.counted;
        const name = s.counted > 0 ? names[s.counted - 1] : '';
        ctx.progress({ done: s.counted, total: s.n, bytes: s.countedBytes, skipped: api.census_skipped(), name });
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
