// The page's census on several workers (web/census-worker.js counting, web/census-planner.js
// planning, batches handed over as bytes) gives the report of the one-thread census, byte for
// byte: the wasm census run here in Node file by file (census_add) is the reference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, openPage, ROOT } from './browser.mjs';
import { needsSamples, gemPlyNames, gemPly } from './samples.mjs';
import * as api from '../pkg/meshscope.js';

api.initSync({ module: readFileSync(join(ROOT, 'pkg/meshscope_bg.wasm')) });

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The one-thread census of `files` ([{name, buffer}]), as JSON. */
function reference(files) {
  api.census_new();
  for (const f of files) api.census_add(new Uint8Array(f.buffer), f.name);
  return JSON.stringify(api.census_report(1000));
}

/** MeshSets built by the wasm's sample builders, a byte past the header changed in each so
 *  that values differ from file to file (some then decode with errors, which are counted
 *  too), their chunks, and files of no known format among them. */
function builderFiles() {
  const out = [];
  const sets = [api.sample_meshset_files(), api.sample_skinned_meshset_files()];
  for (let i = 0; i < 40; i++) {
    const [res, chunk] = sets[i % 2];
    const b = Buffer.from(res.bytes);
    const k = 0x40 + ((i * 7) % (b.length - 0x40));
    b[k] = (b[k] + i) & 0xff;
    out.push({ name: `set${i}/${res.name}`, mimeType: 'application/octet-stream', buffer: b });
    if (i % 10 === 3) out.push({ name: `set${i}/${chunk.name}`, mimeType: 'application/octet-stream', buffer: Buffer.from(chunk.bytes) });
    if (i % 13 === 5) out.push({ name: `junk${i}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.alloc(100 + i, i) });
  }
  return out;
}

/** The page's census of `files` with `planners` planner workers and batches of `batchFiles`,
 *  made in `batches` batches: every batch but the first (one file, read before any size is
 *  known) and the last full, unless the test knows better. */
async function pageCensus(files, planners, batchFiles, batches = 1 + Math.ceil((files.length - 1) / batchFiles)) {
  const page = await openPage(env);
  await page.evaluate((o) => import('./web/census.js').then((m) => Object.assign(m.censusOptions, o)), { planners, batchFiles, timing: true });
  await page.click('#census-button');
  await page.waitForSelector('#census:not([hidden])');
  await page.setInputFiles('#census-files', files);
  await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 60000 });
  const { json, timing } = await page.evaluate(() => import('./web/census.js').then((m) => {
    const { timing, ...r } = m.censusReport();
    return { json: JSON.stringify(r), timing };
  }));
  // The planners planned some batches (and the census worker the rest).
  assert.equal(timing.batches > 0, planners > 0, `${timing.batches} batches to the planners`);
  assert.equal(timing.batches + timing.own, batches, 'batches');
  const bar = await page.locator('#census-progress').isHidden();
  assert.deepEqual(page.errors, []);
  await page.close();
  return { json, bar };
}

test('builder MeshSets: the census on 0, 1 and 2 planners is the one-thread census', async () => {
  const files = builderFiles();
  const want = reference(files);
  const r = JSON.parse(want);
  // The reference itself holds what was given: files of a known format, and the junk skipped.
  const junk = files.filter((f) => f.name.startsWith('junk')).length;
  assert.equal(r.files, files.length - junk);
  assert.equal(r.skipped, junk);
  assert.ok(r.entries.length > 100, `${r.entries.length} entries`);
  for (const [planners, batchFiles] of [[0, 4], [1, 3], [2, 1], [1, 32]]) {
    const got = await pageCensus(files, planners, batchFiles);
    assert.equal(got.json, want, `${planners} planners, batches of ${batchFiles}`);
    assert.equal(got.bar, true, 'the progress bar is hidden once done');
  }
});

test('large files: a batch holds as many as 4 MB holds of the largest read so far', async () => {
  // 1.5 MB files of no known format first: after the first (a batch of its own), two a batch.
  const big = Array.from({ length: 5 }, (_, i) => ({ name: `big${i}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.alloc(1_500_000, i + 1) }));
  const files = [...big, ...builderFiles().slice(0, 4)];
  const want = reference(files);
  assert.equal(JSON.parse(want).skipped, big.length);
  assert.equal((await pageCensus(files, 1, 32, 1 + Math.ceil((files.length - 1) / 2))).json, want);
});

test('the real .ply samples and builder MeshSets together, on 2 planners', { skip: needsSamples() }, async () => {
  const ply = gemPlyNames().map((n) => ({ name: `ply/${n}`, mimeType: 'application/octet-stream', buffer: gemPly(n) }));
  const files = [...ply.slice(0, 3), ...builderFiles().slice(0, 12), ...ply.slice(3)];
  const want = reference(files);
  assert.equal(JSON.parse(want).formats['gem-ply'], ply.length);
  assert.equal((await pageCensus(files, 2, 2)).json, want);
});
