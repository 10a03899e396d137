// Benchmark of the inspector page in headless Chromium (not a test: figures, no pass/fail).
// Reports: time from choosing a file to the first painted hex rows (1 MB and 256 MB),
// frame times while scrolling the 256 MB file, and the time of one `spans` call for a
// screen's window (measured inside the worker, and as a round trip from the page).
// The big files are written to a temporary folder and chosen through the file input: a raw
// file, and a .ply whose VERT chunk is tiled from a real sample's vertices.
// Usage: npm run bench:page [-- --sizes=1,256 --kinds=raw,ply]
import { start, openPage, SAMPLES } from '../tests/browser.mjs';
import { readFileSync, mkdirSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const BENCH_DIR = join(tmpdir(), 'meshscope-bench');
import { loadavg, cpus } from 'node:os';

const arg = (k, d) => process.argv.find((a) => a.startsWith(`--${k}=`))?.split('=')[1] ?? d;
const SIZES = arg('sizes', '1,256').split(',').map(Number);
const KINDS = arg('kinds', 'raw,ply').split(',');

/** A .ply laid out as enumerator_background1.ply with its VERT chunk grown to about `bytes`. */
function tiledPly(bytes) {
  const src = readFileSync(`${SAMPLES}gem-ply/enumerator_background1.ply`);
  const v = src.indexOf('VERT');
  const count = src.readInt32LE(v + 4);
  const stride = src.readUInt16LE(v + 8);
  const body = src.subarray(v + 12, v + 12 + count * stride);
  const tail = src.subarray(v + 12 + count * stride);
  const n = Math.floor((bytes - src.length) / stride);
  return { head: src.subarray(0, v + 12), body, tail, n, stride };
}

/** Writes the benchmark file to disk, as a person's file is: a File backed by a file. */
function writeBench(name, size, ply) {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, name);
  const fd = openSync(path, 'w');
  try {
    if (ply) {
      const head = Buffer.from(ply.head);
      head.writeInt32LE(ply.n, head.length - 8);
      writeSync(fd, head);
      const per = Math.max(1, Math.floor((16 << 20) / ply.body.length));
      const block = Buffer.concat(Array(per).fill(ply.body));
      let left = ply.n * ply.stride;
      while (left > 0) left -= writeSync(fd, block, 0, Math.min(block.length, left));
      writeSync(fd, ply.tail);
    } else {
      const b = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4096) b[i] = (i >>> 12) & 0xff;
      writeSync(fd, b);
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

async function timeToRows(page, name, size, ply) {
  const path = writeBench(name, size, ply);
  await page.evaluate(() => performance.clearMarks());
  // Chosen through the file input, as a person does (the 'file-chosen' mark is the change event).
  await page.setInputFiles('#file-input', path);
  const r = await page.evaluate(async (name) => {
    const m = await new Promise((ok) => {
      const t = setInterval(() => {
        const m = performance.getEntriesByType('mark').find((e) => e.name.startsWith('hex-first-rows:') && window.meshscope.state.active === Number(e.name.split(':')[1]) && document.querySelector('#tabs [aria-selected=true]')?.textContent === name);
        if (m) { clearInterval(t); ok(m); }
      }, 5);
    });
    const chosen = performance.getEntriesByName('file-chosen')[0];
    const d = window.meshscope.state.docs.find((x) => x.handle === window.meshscope.state.active);
    const bytes = performance.getEntriesByName(`hex-first-bytes:${name}`)[0];
    const early = performance.getEntriesByName(`hex-first-decoded-preview:${name}`)[0];
    // The mesh follows (structure first): wait for it, so what follows is measured on a quiet page.
    await new Promise((ok) => { const t = setInterval(() => { if (!d.summary.pending) { clearInterval(t); ok(); } }, 20); });
    const s = d.summary;
    const mesh = performance.now() - chosen.startTime;
    return {
      ms: m.startTime - chosen.startTime, bytesMs: bytes ? bytes.startTime - chosen.startTime : null, meshMs: mesh,
      earlyMs: early ? early.startTime - chosen.startTime : null,
      readMs: d.timings?.readMs, allocMs: d.timings?.allocMs, decodeMs: d.timings?.decodeMs, completeMs: d.timings?.completeMs, format: s.format, size: s.size, errors: s.errors.length,
    };
  }, name);
  rmSync(path);
  return r;
}

/** Scrolls for `frames` frames, `step(i)` giving the row to show; returns frame intervals. */
async function scrollFrames(page, mode, frames = 120) {
  return page.evaluate(async ({ mode, frames }) => {
    const hex = window.meshscope.hex;
    const max = hex.maxTop();
    const times = [];
    let missing = 0;
    let row = Math.floor(max / 3);
    let seed = 12345;
    let js = 0;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    await new Promise((done) => {
      let last = null;
      let i = 0;
      const frame = (t) => {
        if (last != null) times.push(t - last);
        last = t;
        if (document.querySelector('#hex .b.none')) missing++;
        if (i++ >= frames) { done(); return; }
        if (mode === 'idle') { requestAnimationFrame(frame); return; } // the browser's own frame rate
        // The floor: one character of the status line changes a frame, so the browser must
        // composite and present a new frame, but the page does next to nothing.
        if (mode === 'floor') { document.getElementById('status').textContent = String(i % 10); requestAnimationFrame(frame); return; }
        if (mode === 'wheel') row += 3; // a wheel notch a frame
        else if (mode === 'fast') row += 60; // a flung trackpad
        else row = Math.floor(rand() * max); // dragging the thumb: a new place every frame
        const t0 = performance.now();
        hex.scrollToRow(row);
        js += performance.now() - t0;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    return { jsMs: js / frames, median: q(0.5), p95: q(0.95), max: times[times.length - 1], fps: 1000 / (times.reduce((a, b) => a + b, 0) / times.length), framesWithPlaceholders: missing, frames };
  }, { mode, frames });
}

async function spansTiming(page) {
  return page.evaluate(async () => {
    const { docs, state, hex } = window.meshscope;
    const h = state.active;
    const size = state.docs.find((d) => d.handle === h).size;
    const win = (hex.visibleRows + 1) * 16;
    const at = Math.floor(size / 2 / 16) * 16;
    const inWorker = await docs.time('spans', [h, at, at + win], 200);
    const boundsInWorker = await docs.time('span_bounds', [h, at, at + win], 200);
    const t0 = performance.now();
    const n = 100;
    let count = 0;
    for (let i = 0; i < n; i++) count = (await docs.spans(h, at, at + win)).length;
    return { window: win, spans: count, spansMs: inWorker, spanBoundsMs: boundsInWorker, roundTripMs: (performance.now() - t0) / n };
  });
}

console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const env = await start();
try {
  const page = await openPage(env, '', { viewport: { width: 1400, height: 900 } });
  for (const mb of SIZES) {
    const size = mb * 1024 * 1024;
    for (const kind of KINDS) {
      const name = `${kind}-${mb}MB.${kind === 'ply' ? 'ply' : 'bin'}`;
      const r = await timeToRows(page, name, size, kind === 'ply' ? tiledPly(size) : null);
      const pre = (r.bytesMs == null ? '' : `first bytes (undecoded preview) ${r.bytesMs.toFixed(0)} ms, `)
        + (r.earlyMs == null ? '' : `first rows decoded from the first 64 KB read ${r.earlyMs.toFixed(0)} ms, `);
      const mesh = r.completeMs != null ? `; the mesh after ${r.meshMs.toFixed(0)} ms (its decode ${r.completeMs.toFixed(0)} ms)` : '';
      console.log(`${name}: ${pre}first decoded rows ${r.ms.toFixed(0)} ms after choosing [worker: read ${r.readMs.toFixed(0)} ms (of which making the buffer ${r.allocMs?.toFixed(0)} ms), decode ${r.decodeMs.toFixed(0)} ms]${mesh} (${r.format}, ${r.size} bytes, ${r.errors} decode errors)`);
      if (mb === Math.max(...SIZES)) {
        for (const mode of ['idle', 'floor', 'wheel', 'fast', 'jump']) {
          const f = await scrollFrames(page, mode);
          console.log(`  scroll ${mode}: page work ${f.jsMs.toFixed(2)} ms a frame; frame median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, max ${f.max.toFixed(1)} ms, ${f.fps.toFixed(0)} fps, ${f.framesWithPlaceholders}/${f.frames} frames with rows still loading`);
        }
        const s = await spansTiming(page);
        console.log(`  spans for one screen (${s.window} bytes, ${s.spans} spans): ${s.spansMs.toFixed(3)} ms in the worker, span_bounds ${s.spanBoundsMs.toFixed(3)} ms, ${s.roundTripMs.toFixed(2)} ms round trip from the page`);
      }
      await page.evaluate(() => window.meshscope.closeDoc(window.meshscope.state.active));
    }
  }
  await page.close();
} finally {
  await env.close();
}
