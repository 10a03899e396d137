// The tree the worker hands the page, JSON.parse of wasm `tree_json`, is the very tree that
// `tree` (serde-wasm-bindgen) builds, and so is the tree panel's, put together from
// `tree_json_top` and `tree_children_json` of every node whose children were left out: for
// the built-in samples, each attached chunk, and the real GEM samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { needsSamples, gemPlyNames, gemPly } from './samples.mjs';
import {
  initSync, open, attach, close, tree, tree_json, tree_json_top, tree_children_json, sample_file, sample_meshset_files,
  sample_skinned_meshset_files,
} from '../pkg/meshscope.js';

const root = fileURLToPath(new URL('..', import.meta.url));
initSync({ module: readFileSync(join(root, 'pkg/meshscope_bg.wasm')) });

/** Nodes `levels` levels deep with the children left out asked for, as web/tree.js asks. */
function filled(h, nodes, levels, depth, what) {
  for (const n of nodes) {
    if ('kids' in n) {
      assert.equal(depth % levels, 0, `${what}: ${n.path} left its children out above the last level`);
      const kids = JSON.parse(tree_children_json(h, n.path, levels));
      assert.equal(kids.length, n.kids, `${what}: ${n.path}: kids is the children's count`);
      delete n.kids;
      n.children = filled(h, kids, levels, depth + 1, what);
    } else if (n.children) filled(h, n.children, levels, depth + 1, what);
  }
  return nodes;
}

function same(h, what) {
  const parsed = JSON.parse(tree_json(h));
  assert.ok(parsed.length > 0, `${what}: a tree`);
  const whole = tree(h);
  assert.deepEqual(parsed, whole, `${what}: tree_json parses to the tree`);
  for (const levels of [1, 2]) {
    const top = JSON.parse(tree_json_top(h, levels));
    assert.deepEqual(filled(h, top, levels, 1, what), whole, `${what}: the top ${levels} levels and the rest asked for`);
  }
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
