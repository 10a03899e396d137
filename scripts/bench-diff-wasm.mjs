// The diff in wasm under Node: the two 64 MB files `cargo run --release --example bench_diff
// -- --write` leaves in target/bench-diff/, opened and compared through the pkg/ module the
// page's worker loads (wasm `diff`, `diff_align`, and `diff_geometry` for the 3D view), best of
// ROUNDS (default 3). A benchmark,
// not a test: compare ratios within one run, since this machine is shared.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { initSync, open, close, diff, diff_align, diff_geometry } from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });
const dir = join(root, 'target/bench-diff');
if (!existsSync(join(dir, 'b.ply'))) {
  console.error('no target/bench-diff: run cargo run --release --example bench_diff -- --write first');
  process.exit(1);
}
const [a, b] = ['a.ply', 'b.ply'].map((f) => readFileSync(join(dir, f)));
const t0 = performance.now();
const ha = open('a.ply', a);
const hb = open('b.ply', b);
console.log(`open both: ${((performance.now() - t0) / 1000).toFixed(3)} s`);
const rounds = Number(process.env.ROUNDS ?? 3);
const times = [];
let result = null;
let anchors = 0;
for (let i = 0; i < rounds; i++) {
  const t1 = performance.now();
  // What the page asks: 200 changed elements listed per array, and the anchors.
  result = diff(ha, hb, 1e-6, 200);
  anchors = diff_align(ha, hb).length / 5;
  times.push((performance.now() - t1) / 1000);
}
// The 3D view's part: every vertex's distance and every triangle on one side only, LOD 0.
const geo = [];
let g = null;
for (let i = 0; i < rounds; i++) {
  const t1 = performance.now();
  g = diff_geometry(ha, hb, 0);
  geo.push((performance.now() - t1) / 1000);
}
close(ha);
close(hb);
times.sort((x, y) => x - y);
geo.sort((x, y) => x - y);
console.log(`${result.differences.length} differences listed, ${anchors} anchors`);
console.log(`compare + align: ${times.map((t) => t.toFixed(3)).join(', ')} s (fastest first; wasm, node ${process.version})`);
const moved = g.distances.reduce((n, d) => n + (d > 1e-6 ? 1 : 0), 0);
console.log(`3D (diff_geometry, LOD 0): ${geo.map((t) => t.toFixed(3)).join(', ')} s; ${g.distances.length} distances, ${moved} moved, ${g.onlyA.length} + ${g.onlyB.length} triangles on one side`);
