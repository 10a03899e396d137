// The view's derived values, tested without a browser: joint names, the bone-weight ramp,
// measured bone boxes, and the stored boxes the decoders put in the mesh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jointNames, weightRamp, boneBoxes, storedBoxes, storedBoneBoxes, flatBoxes, flatInZ } from '../web/viewer-bounds.js';

// Three vertices: v0 all on joint 0, v1 all on joint 2, v2 split 0.25 / 0.75 over joints 0 / 2.
const mesh = (boneNames) => ({
  boneNames,
  positions: new Float32Array([0, 0, 0, 1, 2, 3, -1, 5, 1]),
  joints: new Uint16Array([0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0]),
  weights: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 0.25, 0.75, 0, 0]),
});

test('joint names are the bone names, or numbered up to the largest weighted joint', () => {
  assert.deepEqual(jointNames(mesh(['a', 'b', 'c', 'd'])), ['a', 'b', 'c', 'd']);
  assert.deepEqual(jointNames(mesh([])), ['joint 0', 'joint 1', 'joint 2']);
  assert.deepEqual(jointNames({ boneNames: [], joints: new Uint16Array(0), weights: new Float32Array(0) }), []);
});

test('the weight ramp runs from the zero color to the full-weight color', () => {
  const r = weightRamp(mesh([]), 2);
  const at = (v) => [...r.subarray(v * 3, v * 3 + 3)].map((x) => +x.toFixed(3));
  assert.deepEqual(at(0), [0.12, 0.15, 0.45], 'no weight on joint 2');
  assert.deepEqual(at(1), [1, 0.9, 0.1], 'full weight');
  // v2 has 0.75: between the mid color and the full one, redder than v0 and greener.
  assert.ok(at(2)[0] > at(0)[0] && at(2)[1] > at(0)[1] && at(2)[0] < 1);
});

test('bone boxes hold the vertices each joint weighs most', () => {
  const b = [...boneBoxes(mesh([]))];
  // Joint 0: v0 only; joint 1: nothing (left out); joint 2: v1 and v2.
  assert.deepEqual(b, [0, 0, 0, 0, 0, 0, -1, 2, 1, 1, 5, 3]);
});

test('stored boxes come from the mesh as numbers: the whole mesh\'s, then each section\'s', () => {
  const m = {
    storedBounds: { path: 'header.bounds_min', min: [-2, -2, -2], max: [2, 2, 2] },
    sections: [
      { stored_bounds: { path: 'lod[0].section[0].bounds_min', min: [0, 1, 2], max: [3, 4, 5] } },
      { stored_bounds: null },
      { stored_bounds: { path: 'lod[0].section[2].bounds_min', min: [1, 1, 1], max: [0, 0, 0] } }, // min above max
      { stored_bounds: { path: 'lod[0].section[3].bounds_min', min: [NaN, 0, 0], max: [1, 1, 1] } },
      {},
    ],
  };
  const b = storedBoxes(m);
  assert.deepEqual(b.map((x) => x.name), ['header', 'lod[0].section[0]']);
  assert.deepEqual(b[1], { name: 'lod[0].section[0]', path: 'lod[0].section[0].bounds_min', min: [0, 1, 2], max: [3, 4, 5] });
  assert.deepEqual(storedBoxes({ storedBounds: { path: 'BNDS.min', min: [-1.35, -0.35, -1.35], max: [1.35, 0.35, 1.35] }, sections: [] })
    .map((x) => x.name), ['BNDS']);
  assert.deepEqual(storedBoxes({ sections: [] }), [], 'nothing stored');
  assert.deepEqual([...flatBoxes(b)], [-2, -2, -2, 2, 2, 2, 0, 1, 2, 3, 4, 5]);
});

test('stored bone boxes keep their bone id and name; undrawable ones are left out', () => {
  const m = {
    boneBounds: [
      { bone: 5, name: 'bone 5', path: 'pool.bone_bounds[0]', min: [0, 0, 0], max: [1, 1, 1] },
      { bone: 7, name: 'bone 7', path: 'pool.bone_bounds[1]', min: [0, Infinity, 0], max: [1, 1, 1] },
      { bone: 9, name: 'bone 9', path: 'pool.bone_bounds[2]', min: [0, 0, 0], max: [0, 0, 0] }, // a point: stored, drawn as nothing
    ],
  };
  assert.deepEqual(storedBoneBoxes(m).map((b) => [b.bone, b.name]), [[5, 'bone 5'], [9, 'bone 9']]);
  assert.deepEqual(storedBoneBoxes({}), []);
});

test('the up axis guess: Z only for meshes much flatter in Z than in X and Y', () => {
  const box = (x, y, z) => new Float32Array([0, 0, 0, x, y, z]);
  assert.equal(flatInZ(box(100, 80, 3)), true, 'a landscape lying in x, y');
  assert.equal(flatInZ(box(2, 0.7, 2)), false, 'a torus lying in x, z (Y-up)');
  assert.equal(flatInZ(box(1, 1, 1)), false, 'a cube stays Y-up');
  assert.equal(flatInZ(box(0.8, 1.8, 0.8)), false, 'a standing figure, thin in X and Z, stays Y-up');
  assert.equal(flatInZ(new Float32Array(0)), false, 'no vertices');
});
