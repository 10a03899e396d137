// The view's derived values, tested without a browser: joint names, the bone-weight ramp,
// measured bone boxes, and stored boxes read from the decoders' check strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jointNames, weightRamp, boneBoxes, storedBoxes, flatInZ } from '../web/viewer-bounds.js';

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

test('stored boxes are read from GEM and MeshSet bound checks, for the LOD shown', () => {
  const checks = [
    { name: 'BNDS contains the decoded positions', path: 'BNDS.min', stored: 'min [-1.35, -0.35, -1.35] max [1.35, 0.35, 1.35]' },
    { name: 'measured lod[0].section[1] bounds', path: 'lod[0].section[1].bounds_min', stored: '[0.0, 1.0, 2.0] [3.0, 4.0, 5.0]' },
    { name: 'measured lod[1].section[0] bounds', path: 'lod[1].section[0].bounds_min', stored: '[0.0, 0.0, 0.0] [1.0, 1.0, 1.0]' },
    { name: 'measured header bounds (over every LOD)', path: 'header.bounds_min', stored: '[-2.0, -2.0, -2.0] [2.0, 2.0, 2.0]' },
    { name: 'measured lod[0].section[1] surface area', path: 'lod[0].section[1].surface_area', stored: '12.5' },
    { name: 'bad bounds', path: 'x.bounds', stored: '[1, 1, 1] [0, 0, 0]' },
  ];
  const b = storedBoxes(checks, 0);
  assert.deepEqual(b.map((x) => x.name), ['BNDS.min', 'lod[0].section[1].bounds_min', 'header.bounds_min']);
  assert.deepEqual(b[0], { name: 'BNDS.min', min: [-1.35, -0.35, -1.35], max: [1.35, 0.35, 1.35] });
  assert.deepEqual(storedBoxes(checks, 1).map((x) => x.name), ['BNDS.min', 'lod[1].section[0].bounds_min', 'header.bounds_min']);
});

test('the up axis guess: Z only for meshes much flatter in Z than in Y', () => {
  const box = (x, y, z) => new Float32Array([0, 0, 0, x, y, z]);
  assert.equal(flatInZ(box(100, 80, 3)), true, 'a landscape lying in x, y');
  assert.equal(flatInZ(box(2, 0.7, 2)), false, 'a torus lying in x, z (Y-up)');
  assert.equal(flatInZ(box(1, 1, 1)), false, 'a cube stays Y-up');
  assert.equal(flatInZ(new Float32Array(0)), false, 'no vertices');
});
