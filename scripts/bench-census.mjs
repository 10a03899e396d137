// Census speed of the wasm build under Node, the engine the page's census worker runs:
//   node scripts/bench-census.mjs [--repeat N] FILE|DIR...
// Every file is read, then censused N times over (census_add decodes, counts and drops it),
// and the report is built. Prints files, bytes and seconds. A benchmark, not a test.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { initSync, census_new, census_add, census_report } from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });

const args = process.argv.slice(2);
let repeat = 1;
const paths = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--repeat') repeat = Number(args[++i]);
  else paths.push(args[i]);
}
const walk = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().flatMap((k) => walk(join(p, k))) : [p]);
const files = paths.flatMap(walk).map((p) => [p, readFileSync(p)]);
if (!files.length) {
  console.error('usage: node scripts/bench-census.mjs [--repeat N] FILE|DIR...');
  process.exit(1);
}
const t0 = performance.now();
census_new();
let bytes = 0;
let n = 0;
for (let r = 0; r < repeat; r++) {
  for (const [p, b] of files) {
    census_add(new Uint8Array(b), `${r}/${p}`);
    bytes += b.length;
    n++;
  }
}
const t1 = performance.now();
const rep = census_report(1000);
const t2 = performance.now();
console.log(`${n} files, ${(bytes / 1e6).toFixed(1)} MB (${rep.skipped} skipped): census ${((t1 - t0) / 1000).toFixed(2)} s, report ${((t2 - t1) / 1000).toFixed(2)} s; ${rep.entries.length} entries, ${rep.relations.length} relations (wasm, node ${process.version})`);
