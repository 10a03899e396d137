// Find speed of the wasm build under Node (the page's Find box calls the same `find`): 128 MB
// made of the built-in sample tiled, searched forward and backward for needles that do not
// occur, so every byte is looked at. A benchmark, not a test: compare ratios within one run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
// PKG=DIR measures another build (an older pkg/ kept for a before/after).
const pkg = process.env.PKG ?? join(root, 'pkg');
const { initSync, open, find, close, sample_file } = await import(join(pkg, 'meshscope.js'));
initSync({ module: readFileSync(join(pkg, 'meshscope_bg.wasm')) });
const size = Number(process.env.MB ?? 128) << 20;
const tile = Buffer.from(sample_file());
const bytes = Buffer.alloc(size);
for (let at = 0; at < size; at += tile.length) tile.copy(bytes, at);
// Needles whose first byte is rare, common (0x00 and 0x3f lead many floats here) and text.
const needles = {
  'text "meshscope-needle"': Buffer.from('meshscope-needle'),
  '00 00 80 3f 12 34 56 78': Buffer.from([0x00, 0x00, 0x80, 0x3f, 0x12, 0x34, 0x56, 0x78]),
  '3f 00 00 00 ff ee dd cc': Buffer.from([0x3f, 0x00, 0x00, 0x00, 0xff, 0xee, 0xdd, 0xcc]),
};
// One byte the sample never holds.
const absent = [...Array(256).keys()].find((b) => tile.indexOf(b) === -1);
if (absent !== undefined) needles[`${absent.toString(16)} (one byte)`] = Buffer.from([absent]);
const h = open('find.bin', bytes);
const rounds = Number(process.env.ROUNDS ?? 5);
console.log(`find in ${size >> 20} MB, no match, ${rounds} rounds (min–max ms)`);
for (const [name, needle] of Object.entries(needles)) {
  if (bytes.indexOf(needle) !== -1) throw new Error(`${name} occurs in the data: pick another needle`);
  for (const backward of [false, true]) {
    const ms = [];
    for (let r = 0; r < rounds; r++) {
      const t = performance.now();
      const hit = find(h, needle, backward ? size : 0, backward);
      ms.push(performance.now() - t);
      if (hit !== -1) throw new Error(`${name}: found at ${hit}`);
    }
    console.log(`${backward ? 'backward' : 'forward '} ${name.padEnd(26)} ${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}`);
  }
}
close(h);
