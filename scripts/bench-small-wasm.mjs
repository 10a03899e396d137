// The per-file cost of `open` on small files in the wasm build under Node (issue #21): the
// packs that `cargo run --release --example bench_small` writes to target/bench-small/, each
// file opened through the pkg/ module the page loads. Per stage: µs a file and MB/s, best of
// ROUNDS (5), beside a plain copy of the same bytes (the floor). A benchmark, not a test:
// compare ratios within one run, since this machine is shared. BEFORE=DIR (a pkg/ folder of
// another build) loads that module too and alternates the two round by round in this process,
// so that both see the same load; it prints both and their ratio.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import * as now from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
now.initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });
const builds = [now];
if (process.env.BEFORE) {
  const dir = resolve(process.env.BEFORE);
  const before = await import(pathToFileURL(join(dir, 'meshscope.js')).href);
  before.initSync({ module: readFileSync(join(dir, 'meshscope_bg.wasm')) });
  builds.push(before);
}
const dir = join(root, 'target/bench-small');
const rounds = Number(process.env.ROUNDS ?? 5);

function load(set) {
  const pack = readFileSync(join(dir, `${set}.pack`));
  const index = JSON.parse(readFileSync(join(dir, `${set}.json`), 'utf8'));
  return index.map(([name, at, len]) => ({ name, bytes: new Uint8Array(pack.buffer, pack.byteOffset + at, len) }));
}

/** The best time of each build's `f(setup())` over the rounds, the builds taking turns;
 * `setup` (and `after`) not timed. */
function best(row) {
  const b = row.map(() => Infinity);
  for (let i = 0; i < rounds; i++) {
    row.forEach(([f, setup = () => undefined, after = () => {}], k) => {
      const input = setup();
      const t0 = performance.now();
      f(input);
      b[k] = Math.min(b[k], performance.now() - t0);
      after(input);
    });
  }
  return b;
}

/** The rows of one build `m`, each `[name, [f, setup?, after?]]`, and what to close after. */
function rowsOf(m, files) {
  const stage = (k) => [() => files.forEach((f) => m.bench_stage(k, f.name, f.bytes))];
  const rows = [
    ['copy (floor)', [() => files.forEach((f) => f.bytes.slice())]],
    ['into wasm memory', stage(0)],
    ['decode', stage(1)],
    ['decode_fields (census)', stage(2)],
    ['open (in wasm, nothing to JS)', stage(3)],
    ['open + close (the API)', [() => files.forEach((f) => m.close(m.open(f.name, f.bytes)))]],
  ];
  const handles = files.map((f) => m.open(f.name, f.bytes));
  rows.push(['tree (to JS by serde-wasm-bindgen)', [() => handles.forEach((h) => m.tree(h))]]);
  rows.push(['tree (JSON.parse of tree_json, the page)', [() => handles.forEach((h) => JSON.parse(m.tree_json(h)))]]);
  // The page's tree split: the JSON made in wasm on first use (fresh documents), and parsed.
  const fresh = () => files.map((f) => m.open(f.name, f.bytes));
  const closeAll = (hs) => hs.forEach((h) => m.close(h));
  rows.push(['tree_json, first use (string to JS)', [(hs) => hs.forEach((h) => m.tree_json(h)), fresh, closeAll]]);
  const texts = handles.map((h) => m.tree_json(h));
  rows.push(['JSON.parse of the tree_json strings', [() => texts.forEach((t) => JSON.parse(t))]]);
  rows.push(['summary (to JS by serde-wasm-bindgen)', [() => handles.forEach((h) => m.summary(h))]]);
  // What the page's worker does (web/worker.js summaryOf); a build without summary_json asks summary.
  const pageSummary = (h) => {
    const t = m.summary_json?.(h);
    return t === undefined ? m.summary(h) : JSON.parse(t);
  };
  rows.push(['summary (JSON.parse of summary_json, the page)', [() => handles.forEach(pageSummary)]]);
  // The page's first paint gets the summary with a MeshSet's later checks left out (web/worker.js
  // firstSummaryOf), then asks for them; a build without summary_first_json makes them at once.
  const firstSummary = (h) => {
    const t = m.summary_first_json?.(h);
    return t === undefined ? pageSummary(h) : JSON.parse(t);
  };
  rows.push(['summary for the first paint, first use', [(hs) => hs.forEach(firstSummary), fresh, closeAll]]);
  const painted = () => fresh().map((h) => (firstSummary(h), h));
  rows.push(['the checks after it (summary, first use)', [(hs) => hs.forEach(pageSummary), painted, closeAll]]);
  rows.push(['first screen (span_bounds 0..1024)', [() => handles.forEach((h) => m.span_bounds(h, 0, 1024))]]);
  rows.push(['first paint (open, tree, summary, screen)', [() => files.forEach((f) => {
    const h = m.open(f.name, f.bytes);
    JSON.parse(m.tree_json(h)); firstSummary(h); m.span_bounds(h, 0, 1024);
    m.close(h);
  })]]);
  // What the tree panel gets now (web/tree.js): the top two levels, the rest when opened.
  const top = (hs) => hs.forEach((h) => JSON.parse(m.tree_json_top(h, 2)));
  rows.push(['tree panel top, first use (tree_json_top 2)', [top, fresh, closeAll]]);
  rows.push(['first paint, the tree panel\'s top levels', [() => files.forEach((f) => {
    const h = m.open(f.name, f.bytes);
    JSON.parse(m.tree_json_top(h, 2)); firstSummary(h); m.span_bounds(h, 0, 1024);
    m.close(h);
  })]]);
  return { rows, texts, done: () => closeAll(handles) };
}

function report(set) {
  if (!existsSync(join(dir, `${set}.pack`))) {
    console.log(`${set}: skipped, no ${set}.pack (the native benchmark skipped it)`);
    return;
  }
  const files = load(set);
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const each = builds.map((m) => rowsOf(m, files));
  const chars = each[0].texts.reduce((n, t) => n + t.length, 0);
  console.log(`  (tree JSON: ${Math.round(chars / files.length)} characters a file)`);
  const two = builds.length > 1 ? ' (this pkg/, then BEFORE, and this / BEFORE)' : '';
  console.log(`${set}: ${files.length} files, ${total} bytes, best of ${rounds} (wasm, node ${process.version})${two}`);
  const floor = [];
  const us = (ms) => `${((ms * 1000) / files.length).toFixed(2).padStart(9)} µs/file`;
  each[0].rows.forEach(([name], i) => {
    const ms = best(each.map((b) => b.rows[i][1]));
    ms.forEach((t, k) => (floor[k] ||= t));
    const mbs = total / 1e6 / (ms[0] / 1000);
    let line = `  ${name.padEnd(44)} ${us(ms[0])} ${mbs.toFixed(0).padStart(8)} MB/s  ${(ms[0] / floor[0]).toFixed(1).padStart(6)} × copy`;
    if (ms.length > 1) line += `  | ${us(ms[1])} ${(ms[1] / floor[1]).toFixed(1).padStart(6)} × copy  ${(ms[0] / ms[1]).toFixed(3)}`;
    console.log(line);
  });
  each.forEach((b) => b.done());
}

if (!existsSync(dir)) {
  console.error('no target/bench-small: run cargo run --release --example bench_small first');
  process.exit(1);
}
// SETS=meshsets,ply picks sets; all four by default.
for (const set of (process.env.SETS ?? 'meshsets,meshsets-2k,ply,samples').split(',')) report(set);
