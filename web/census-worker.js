// The census worker: its own wasm instance, so a census of thousands of files never blocks
// the page. It speaks web/worker-protocol.js: `run` takes [{name, file}] and options, reports
// progress {done, total, bytes, skipped, name} and answers with the report; cancelled, it
// stops before the next file. Each file is read, decoded, counted and dropped in order; the
// next few (up to 16 MB) are read meanwhile.
import init, * as api from '../pkg/meshscope.js';
import { serve } from './worker-protocol.js';

const ready = init();
const PROGRESS_MS = 100;
const AHEAD = 16;
const AHEAD_BYTES = 16 << 20;

/** A turn of the event loop, so a cancel message waiting is received. */
const yieldTurn = () => new Promise((ok) => setTimeout(ok, 0));

/** Reading a File is a round trip to the browser's blob store: a few reads are kept in flight
 *  while the census counts, at most AHEAD files and AHEAD_BYTES (but always the next file). */
class ReadAhead {
  constructor(files) {
    this.files = files;
    this.reads = [];
    this.next = 0; // the first file not yet taken
    this.held = 0;
  }

  /** The bytes of the next file, in order. */
  async take() {
    while (this.reads.length < AHEAD && this.next + this.reads.length < this.files.length) {
      const f = this.files[this.next + this.reads.length].file;
      if (this.reads.length > 0 && this.held + f.size > AHEAD_BYTES) break;
      this.held += f.size;
      this.reads.push(f.arrayBuffer());
    }
    const buffer = await this.reads.shift();
    this.held -= this.files[this.next].file.size;
    this.next++;
    return new Uint8Array(buffer);
  }
}

const handlers = {
  /** Censuses `files` ([{name, file}]); the report lists up to `maxValues` values an entry.
   *  `pauseAfter` (for tests) waits after that many files until the run is cancelled. */
  async run(ctx, files, { maxValues = 1000, pauseAfter = null } = {}) {
    api.census_new();
    const input = new ReadAhead(files);
    let bytes = 0;
    let skipped = 0;
    let last = 0;
    for (let i = 0; i < files.length; i++) {
      ctx.check();
      const data = await input.take();
      bytes += data.length;
      if (api.census_add(data, files[i].name).format === 'unknown') skipped++;
      const now = performance.now();
      if (now - last > PROGRESS_MS || i + 1 === files.length || i + 1 === pauseAfter) {
        last = now;
        ctx.progress({ done: i + 1, total: files.length, bytes, skipped, name: files[i].name });
        await yieldTurn();
      }
      if (i + 1 === pauseAfter) await ctx.whenCancelled;
    }
    ctx.check();
    return api.census_report(maxValues);
  },
  /** The entries of the last census holding `offset` of records of kind `record`. */
  lookup(ctx, record, offset, maxValues = 50) {
    return api.census_lookup(record, offset, maxValues);
  },
};

serve(handlers, { ready });
