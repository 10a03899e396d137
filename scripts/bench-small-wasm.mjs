// The per-file cost of `open` on small files in the wasm build under Node (issue #21): the
// packs that `cargo run --release --example bench_small` writes to target/bench-small/, each
// file opened through the pkg/ module the page loads. Per stage: µs a file and MB/s, best of
// ROUNDS (5), beside a plain copy of the same bytes (the floor). A benchmark, not a test:
// compare ratios within one run, since this machine is shared.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import {
  initSync, open, close, summary, summary_json, tree, tree_json, tree_json_top, span_bounds, bench_stage,
} from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });
const dir = join(root, 'target/bench-small');
const rounds = Number(process.env.ROUNDS ?? 5);

function load(set) {
  const pack = readFileSync(join(dir, `${set}.pack`));
  const index = JSON.parse(readFileSync(join(dir, `${set}.json`), 'utf8'));
  return index.map(([name, at, len]) => ({ name, bytes: new Uint8Array(pack.buffer, pack.byteOffset + at, len) }));
}

/** The best time of `f(setup())` over the rounds, `setup` (and `after`) not timed. */
function best(f, setup = () => undefined, after = () => {}) {
  let b = Infinity;
  for (let i = 0; i < rounds; i++) {
    const input = setup();
    const t0 = performance.now();
    f(input);
    b = Math.min(b, performance.now() - t0);
    after(input);
  }
  return b;
}

function report(set) {
  if (!existsSync(join(dir, `${set}.pack`))) {
    console.log(`${set}: skipped, no ${set}.pack (the native benchmark skipped it)`);
    return;
  }
  const files = load(set);
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const stage = (k) => () => files.forEach((f) => bench_stage(k, f.name, f.bytes));
  const rows = [
    ['copy (floor)', () => files.forEach((f) => f.bytes.slice())],
    ['into wasm memory', stage(0)],
    ['decode', stage(1)],
    ['decode_fields (census)', stage(2)],
    ['open (in wasm, nothing to JS)', stage(3)],
    ['open + close (the API)', () => files.forEach((f) => close(open(f.name, f.bytes)))],
  ];
  const handles = files.map((f) => open(f.name, f.bytes));
  rows.push(['tree (to JS by serde-wasm-bindgen)', () => handles.forEach((h) => tree(h))]);
  rows.push(['tree (JSON.parse of tree_json, the page)', () => handles.forEach((h) => JSON.parse(tree_json(h)))]);
  // The page's tree split: the JSON made in wasm on first use (fresh documents), and parsed.
  const fresh = () => files.map((f) => open(f.name, f.bytes));
  const closeAll = (hs) => hs.forEach((h) => close(h));
  rows.push(['tree_json, first use (string to JS)', [(hs) => hs.forEach((h) => tree_json(h)), fresh, closeAll]]);
  const texts = handles.map((h) => tree_json(h));
  console.log(`  (tree JSON: ${Math.round(texts.reduce((n, t) => n + t.length, 0) / files.length)} characters a file)`);
  rows.push(['JSON.parse of the tree_json strings', () => texts.forEach((t) => JSON.parse(t))]);
  rows.push(['summary (to JS by serde-wasm-bindgen)', () => handles.forEach((h) => summary(h))]);
  // What the page's worker does (web/worker.js summaryOf).
  const pageSummary = (h) => { const t = summary_json(h); return t === undefined ? summary(h) : JSON.parse(t); };
  rows.push(['summary (JSON.parse of summary_json, the page)', () => handles.forEach(pageSummary)]);
  rows.push(['first screen (span_bounds 0..1024)', () => handles.forEach((h) => span_bounds(h, 0, 1024))]);
  rows.push(['first paint (open, tree, summary, screen)', () => files.forEach((f) => {
    const h = open(f.name, f.bytes);
    JSON.parse(tree_json(h)); pageSummary(h); span_bounds(h, 0, 1024);
    close(h);
  })]);
  // What the tree panel gets now (web/tree.js): the top two levels, the rest when opened.
  rows.push(['tree panel top, first use (tree_json_top 2)', [(hs) => hs.forEach((h) => JSON.parse(tree_json_top(h, 2))), fresh, closeAll]]);
  rows.push(['first paint, the tree panel\'s top levels', () => files.forEach((f) => {
    const h = open(f.name, f.bytes);
    JSON.parse(tree_json_top(h, 2)); pageSummary(h); span_bounds(h, 0, 1024);
    close(h);
  })]);
  console.log(`${set}: ${files.length} files, ${total} bytes, best of ${rounds} (wasm, node ${process.version})`);
  let floor = 0;
  for (const [name, f] of rows) {
    const ms = Array.isArray(f) ? best(...f) : best(f);
    floor ||= ms;
    const us = (ms * 1000) / files.length;
    const mbs = total / 1e6 / (ms / 1000);
    console.log(`  ${name.padEnd(44)} ${us.toFixed(2).padStart(9)} µs/file ${mbs.toFixed(0).padStart(8)} MB/s  ${(ms / floor).toFixed(1).padStart(6)} × copy`);
  }
  handles.forEach((h) => close(h));
}

if (!existsSync(dir)) {
  console.error('no target/bench-small: run cargo run --release --example bench_small first');
  process.exit(1);
}
// SETS=meshsets,ply picks sets; all three by default.
for (const set of (process.env.SETS ?? 'meshsets,ply,samples').split(',')) report(set);
