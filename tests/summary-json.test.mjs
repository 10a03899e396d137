// The summary the worker hands the page, JSON.parse of wasm `summary_json`, is the very object
// `summary` (serde-wasm-bindgen) builds: numbers, -0, nulls and strings alike. For the
// built-in samples, each attached chunk, a file whose bounds hold NaN (where `summary_json`
// gives undefined and the page falls back to `summary`), and the real GEM samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { needsSamples, gemPlyNames, gemPly } from './samples.mjs';
import {
  initSync, open, attach, close, mesh, summary, summary_json, summary_first_json, sample_file, sample_meshset_files,
  sample_skinned_meshset_files,
} from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });

function same(h, what) {
  const text = summary_json(h);
  assert.equal(typeof text, 'string', `${what}: summary_json gives text`);
  assert.deepStrictEqual(JSON.parse(text), summary(h), what);
  return JSON.parse(text);
}

test('summary_json parses to the summary, for the built-in samples and their chunks', () => {
  const h = open('sample.ply', sample_file());
  const s = same(h, 'sample.ply');
  assert.ok(s.checks.length > 0 && s.mesh.length > 0 && s.mesh[0].bounds, 'checks, a mesh and its bounds');
  close(h);
  for (const files of [sample_meshset_files(), sample_skinned_meshset_files()]) {
    const [set, ...chunks] = files;
    const m = open(set.name, set.bytes);
    same(m, set.name);
    for (const c of chunks) {
      const a = attach(m, c.name, c.bytes);
      same(a, c.name);
      same(m, `${set.name} with ${c.name}`);
    }
    close(m);
  }
});

test('summary_first_json leaves out the checks a MeshSet makes later, and says so', () => {
  for (const files of [sample_meshset_files(), sample_skinned_meshset_files()]) {
    const m = open(files[0].name, files[0].bytes);
    const first = JSON.parse(summary_first_json(m));
    assert.equal(first.checks_pending, true, files[0].name);
    const whole = same(m, files[0].name);
    assert.equal(whole.checks_pending, undefined);
    assert.ok(first.checks.length < whole.checks.length, `${first.checks.length} of ${whole.checks.length}`);
    assert.deepStrictEqual(first.checks, whole.checks.slice(0, first.checks.length), 'the first checks come first');
    assert.deepStrictEqual({ ...first, checks: whole.checks, checks_pending: undefined }, { ...whole, checks_pending: undefined });
    assert.equal(summary_first_json(m), summary_json(m), 'made once, the checks stay');
    close(m);
  }
  const h = open('sample.ply', sample_file());
  assert.equal(summary_first_json(h), summary_json(h), 'a .ply makes its checks with the decode');
  close(h);
});

test('summary_json gives undefined where the bounds hold NaN', () => {
  const bytes = sample_file();
  const h = open('sample.ply', bytes);
  const { sections, positions } = mesh(h, 0);
  close(h);
  const src = sections[0].vertex_source;
  const b = bytes.slice();
  const nan = new Uint8Array(new Float32Array([NaN]).buffer);
  for (let v = 0; v < positions.length / 3; v++) b.set(nan, src.offset + v * src.stride + 4);
  const n = open('nan.ply', b);
  assert.equal(summary_json(n), undefined);
  assert.ok(Number.isNaN(summary(n).mesh[0].bounds.min[1]), 'summary keeps the NaN');
  close(n);
});

test('summary_json parses to the summary for the real GEM samples', { skip: needsSamples() }, () => {
  for (const name of gemPlyNames()) {
    const h = open(name, gemPly(name));
    same(h, name);
    close(h);
  }
});
