// The tree the worker hands the page, JSON.parse of wasm `tree_json`, is the very tree that
// `tree` (serde-wasm-bindgen) builds: for the built-in samples, each attached chunk, and the
// real GEM samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { needsSamples, gemPlyNames, gemPly } from './samples.mjs';
import {
  initSync, open, attach, close, tree, tree_json, sample_file, sample_meshset_files, sample_skinned_meshset_files,
} from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });

function same(h, what) {
  const parsed = JSON.parse(tree_json(h));
  assert.ok(parsed.length > 0, `${what}: a tree`);
  assert.deepEqual(parsed, tree(h), `${what}: tree_json parses to the tree`);
}

test('tree_json parses to the tree for the built-in samples and their chunks', () => {
  const h = open('sample.ply', sample_file());
  same(h, 'sample.ply');
  close(h);
  for (const files of [sample_meshset_files(), sample_skinned_meshset_files()]) {
    const [res, ...rest] = files;
    const m = open(res.name, res.bytes);
    for (const f of rest) {
      const c = attach(m, f.name, f.bytes);
      if (f.name.endsWith('.chunk')) same(c, f.name);
      close(c);
    }
    same(m, res.name);
    close(m);
  }
});

test('tree_json parses to the tree for the GEM samples', { skip: needsSamples() }, () => {
  for (const name of gemPlyNames()) {
    const h = open(name, gemPly(name));
    same(h, name);
    close(h);
  }
});
