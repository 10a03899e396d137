// Decode speed of the wasm build under Node: opens every file in target/bench-fixtures/
// (written by the native benchmarks: cargo run --release --example bench_*) through the same
// pkg/ module the page loads, and reports MB/s. A benchmark, not a test: compare ratios
// within one run, since this machine is shared.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { initSync, open, summary, close, attach } from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });
const dir = join(root, 'target/bench-fixtures');
if (!existsSync(dir)) {
  console.error('no target/bench-fixtures: run the native benchmarks first (see README, Figures)');
  process.exit(1);
}
const files = readdirSync(dir).filter((f) => !f.endsWith('.chunk') && !f.endsWith('.resmeta')).sort();
const rounds = Number(process.env.ROUNDS ?? 5);
for (const f of files) {
  const bytes = readFileSync(join(dir, f));
  const chunks = readdirSync(dir).filter((c) => c.endsWith('.chunk') && f.endsWith('.res'))
    .map((c) => [c, readFileSync(join(dir, c))]);
  let best = Infinity;
  let total = bytes.length;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const h = open(f, bytes);
    total = bytes.length;
    for (const [name, b] of chunks) {
      // Only the chunks that attach (this resource's) count in the MB/s.
      try { close(attach(h, name, b)); total += b.length; } catch { /* not this resource's chunk */ }
    }
    const t1 = performance.now();
    const s = summary(h);
    close(h);
    if (s.errors.length) console.error(`${f}: ${s.errors.length} decode error(s): ${s.errors[0].message}`);
    best = Math.min(best, t1 - t0);
  }
  const mb = total / 1e6;
  console.log(`${f}: ${mb.toFixed(1)} MB, best of ${rounds}: ${best.toFixed(1)} ms, ${(mb / (best / 1000)).toFixed(0)} MB/s (wasm, node ${process.version})`);
}
