// The .glb export passes the Khronos glTF validator with no errors: synthetic meshes and
// builder-made MeshSets written by the Rust writer's own tests (crate/src/export/gltf_*tests.rs),
// and `meshscope export --format glb` of every real sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, OUT } from './browser.mjs';
import { needsSamples, assertSamples, gemPlyPath } from './samples.mjs';
import { validate } from './gltf-validate.mjs';

const GLB = join(OUT, 'glb');
mkdirSync(GLB, { recursive: true });

function cli(args) {
  return execFileSync('cargo', ['run', '-q', '--bin', 'meshscope', '--', ...args],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// What the Rust tests write: crate/src/export/gltf_tests.rs and gltf_meshset_tests.rs.
const SYNTHETIC = ['meshset-composite', 'meshset-rigid', 'meshset-skinned', 'synthetic-nan', 'synthetic-quad',
  'synthetic-skinned', 'synthetic-torus-2lods'];

test('synthetic exports (sections, mirrored, skinned, several LODs, NaN; MeshSets from the builder) validate', async () => {
  const dir = join(GLB, 'synthetic');
  rmSync(dir, { recursive: true, force: true });
  execFileSync('cargo', ['test', '-q', '--lib', 'for_the_validator'],
    { cwd: ROOT, env: { ...process.env, MESHSCOPE_GLB_OUT: dir }, stdio: 'ignore' });
  const files = readdirSync(dir).filter((f) => f.endsWith('.glb')).sort();
  assert.deepEqual(files, SYNTHETIC.map((n) => `${n}.glb`), 'the Rust tests wrote their exports');
  for (const f of files) {
    const { report, errors } = await validate(readFileSync(join(dir, f)), f);
    assert.deepEqual(errors, [], `${f} has no validator errors`);
    assert.ok(report.info.drawCallCount >= 1, `${f} draws something`);
    if (f.includes('skinned')) assert.ok(report.info.animationCount === 0 && report.info.hasSkins, `${f} has a skin`);
  }
});

// The real samples and their triangles: index counts / 3 from the shared README's table.
const REAL = [
  ['enumerator_background1.ply', 6 / 3], ['enumerator1.ply', 18 / 3], ['at1_a1.ply', 198 / 3],
  ['gun2.ply', 432 / 3], ['ger1.ply', 6 / 3], ['map_4v4_long.ply', 98802 / 3],
];

for (const [name, triangles] of REAL) {
  test(`export of gem-ply/${name} validates`, { skip: needsSamples() }, async () => {
    assertSamples();
    const file = gemPlyPath(name);
    const out = join(GLB, `${name}.glb`);
    rmSync(out, { force: true });
    cli(['export', file, '--format', 'glb', '-o', out]);
    const { report, errors } = await validate(readFileSync(out), out);
    assert.deepEqual(errors, [], 'no validator errors');
    assert.equal(report.info.totalTriangleCount, triangles, 'every triangle of the file is in the export');
  });
}
