// The wasm the page loads stays within its budget: wasm-bindgen drops the name and producers
// sections, and wasm-opt (Debian's binaryen, when set-up could install it) optimizes it.
// A larger module is a change to look at, not to wave through. Sizes by date are in
// docs/performance.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const wasm = fileURLToPath(new URL('../pkg/meshscope_bg.wasm', import.meta.url));
const hasWasmOpt = (() => {
  try { execFileSync('wasm-opt', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();
// The module's size when the budget was set, and about 5 % of room for growth; without
// wasm-opt the module is about 6 % larger.
const BUDGET = hasWasmOpt ? 1_210_000 : 1_285_000;

test(`pkg/meshscope_bg.wasm is within ${BUDGET} bytes (${hasWasmOpt ? 'with' : 'without'} wasm-opt)`, () => {
  const size = statSync(wasm).size;
  assert.ok(size <= BUDGET, `${size} bytes`);
});

test('the name and producers sections are gone', () => {
  const b = readFileSync(wasm);
  // Custom sections (id 0) by name: walk the module's sections.
  const names = [];
  let at = 8;
  const leb = () => { let v = 0, s = 0, x; do { x = b[at++]; v |= (x & 0x7f) << s; s += 7; } while (x & 0x80); return v >>> 0; };
  while (at < b.length) {
    const id = b[at++];
    const size = leb();
    const end = at + size;
    if (id === 0) { const n = leb(); names.push(b.subarray(at, at + n).toString('utf8')); }
    at = end;
  }
  assert.equal(names.includes('name'), false, `custom sections: ${names}`);
  assert.equal(names.includes('producers'), false, `custom sections: ${names}`);
});
