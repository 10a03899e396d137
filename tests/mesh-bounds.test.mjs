// The bounds `open` measures in wasm, where `mesh::bounds_of` runs on wasm SIMD (pmin and
// pmax) rather than the portable loop the cargo tests check: the "BNDS contains the
// positions" check's measured minimum and maximum are the positions' own, computed here in
// JS, for the built-in sample, the same with NaN written into some positions and into a whole
// axis, and the real GEM samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { needsSamples, gemPlyNames, gemPly } from './samples.mjs';
import { initSync, open, close, mesh, summary, sample_file } from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });

/** Per axis, the least and greatest position that is not NaN (NaN where all are). */
function expected(positions) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 3 <= positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  for (let k = 0; k < 3; k++) if (min[k] > max[k]) min[k] = max[k] = NaN;
  return { min, max };
}

/** The measured box of the bounds check, as f32 values ("min [a, b, c] max [d, e, f]"). */
function measured(h) {
  const c = summary(h).checks.find((x) => x.name === 'BNDS contains the positions');
  assert.ok(c, 'the file has a BNDS check');
  const m = /^min \[(.*)\] max \[(.*)\]$/.exec(c.measured);
  assert.ok(m, `measured text: ${c.measured}`);
  const nums = (s) => s.split(', ').map((t) => Math.fround(Number(t)));
  return { min: nums(m[1]), max: nums(m[2]) };
}

function checkFile(name, bytes, minVertices = 8) {
  const h = open(name, bytes);
  try {
    const { positions } = mesh(h, 0);
    assert.ok(positions.length >= 3 * minVertices, `${name}: ${positions.length / 3} vertices`);
    assert.deepEqual(measured(h), expected(positions), name);
    return mesh(h, 0);
  } finally {
    close(h);
  }
}

test('the measured bounds are the positions\' own, NaN skipped', () => {
  const bytes = sample_file();
  const m = checkFile('sample.ply', bytes);
  const src = m.sections[0].vertex_source;
  const count = m.positions.length / 3;
  const nan = new Uint8Array(new Float32Array([NaN]).buffer);
  const withNan = (pick) => {
    const b = bytes.slice();
    for (let v = 0; v < count; v++) {
      for (const k of pick(v)) b.set(nan, src.offset + v * src.stride + 4 * k);
    }
    return b;
  };
  // NaN in scattered x and z values, among them the first vertex's.
  const scattered = checkFile('scattered-nan.ply', withNan((v) => (v % 7 === 0 ? [0] : v % 5 === 1 ? [2] : [])));
  assert.ok(Number.isNaN(scattered.positions[0]), 'the first x is NaN');
  // Every y NaN: that axis has no bounds.
  const axis = checkFile('nan-axis.ply', withNan(() => [1]));
  assert.ok(Number.isNaN(expected(axis.positions).min[1]));
});

test('the real GEM samples\' measured bounds are their positions\' own', { skip: needsSamples() }, () => {
  let checked = 0;
  for (const name of gemPlyNames()) {
    const h = open(name, gemPly(name));
    const has = summary(h).checks.some((x) => x.name === 'BNDS contains the positions');
    close(h);
    if (has) checked += checkFile(name, gemPly(name), 1) ? 1 : 0;
  }
  assert.ok(checked >= 3, `${checked} samples have a BNDS check`);
});
