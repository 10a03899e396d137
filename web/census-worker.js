// The census worker: its own wasm instance, so a census of thousands of files never blocks
// the page. Messages in: {type:'run', files:[{name, file}]}; out: {type:'progress', done,
// total, bytes, skipped}, then {type:'done', report} or {type:'error', message}. Each file is
// read, decoded, counted and dropped in order; the next few (up to 16 MB) are read meanwhile.
// Cancelling is the page's worker.terminate().
import init, * as api from '../pkg/meshscope.js';

const ready = init();
const PROGRESS_MS = 100;
const AHEAD = 16;
const AHEAD_BYTES = 16 << 20;

self.onmessage = async (e) => {
  const m = e.data;
  try {
    await ready;
    if (m.type === 'run') {
      api.census_new();
      let bytes = 0;
      let skipped = 0;
      let last = 0;
      // Reading a File is a round trip to the browser's blob store: a few reads are kept in
      // flight while the census counts, at most AHEAD files and AHEAD_BYTES (but always the
      // next file) held at a time.
      const reads = [];
      let held = 0;
      const readAhead = (upTo) => {
        while (reads.length < upTo && reads.length + next < m.files.length) {
          const f = m.files[next + reads.length].file;
          if (reads.length > 0 && held + f.size > AHEAD_BYTES) break;
          held += f.size;
          reads.push(f.arrayBuffer());
        }
      };
      let next = 0;
      for (let i = 0; i < m.files.length; i++) {
        const { name } = m.files[i];
        readAhead(AHEAD);
        const buffer = await reads.shift();
        held -= m.files[i].file.size;
        next++;
        const data = new Uint8Array(buffer);
        bytes += data.length;
        const added = api.census_add(data, name);
        if (added.format === 'unknown') skipped++;
        const now = performance.now();
        if (now - last > PROGRESS_MS || i + 1 === m.files.length) {
          last = now;
          self.postMessage({ type: 'progress', done: i + 1, total: m.files.length, bytes, skipped, name });
        }
      }
      self.postMessage({ type: 'done', report: api.census_report(m.maxValues ?? 1000) });
    } else if (m.type === 'lookup') {
      self.postMessage({ type: 'lookup', id: m.id, entries: api.census_lookup(m.record, m.offset, m.maxValues ?? 50) });
    }
  } catch (err) {
    self.postMessage({ type: 'error', message: String(err?.message ?? err) });
  }
};
