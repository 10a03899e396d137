// A MeshSet and its geometry chunk in the page: dropped together, the chunk attaches by the
// GUID in its name; opened apart, "Attach to MeshSet…" attaches it by hand. The files come
// from the MeshSet builder (wasm sample_meshset_files), never from a game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT, dropFiles } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const drop = dropFiles;

const sampleFiles = (page) => page.evaluate(() => window.meshscope.api.sample_meshset_files()
  .map((f) => ({ name: f.name, bytes: Array.from(f.bytes) })));

const tabs = (page) => page.locator('#tabs [role=tab]').allTextContents();

async function activeSummary(page) {
  return page.evaluate(async () => {
    const { docs, state } = window.meshscope;
    return docs.summary(state.active);
  });
}

test('a MeshSet dropped with its chunk: the chunk attaches by GUID and its bytes are decoded', async () => {
  const page = await openPage(env);
  const files = await sampleFiles(page);
  assert.match(files[1].name, /^[0-9a-f]{32}\.chunk$/);
  await drop(page, [files[1], files[0]]); // chunk first: the page still opens the MeshSet first
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 3);
  assert.deepEqual(await tabs(page), ['sample.ply', files[0].name, files[1].name]);
  assert.equal(await page.locator('#tabs [role=tab].child').textContent(), files[1].name, 'the chunk follows its MeshSet');
  const chunk = await activeSummary(page);
  assert.equal(chunk.format, 'frostbite-chunk');
  assert.equal(chunk.coverage.uncovered < chunk.size / 2, true, 'attached, the chunk bytes get spans per stream and index');
  const level = await page.locator('#hex .b[data-offset="0"]').getAttribute('data-confidence');
  assert.notEqual(level, 'uncovered');
  await page.locator('#tabs [role=tab]', { hasText: files[0].name }).click();
  const set = await activeSummary(page);
  assert.equal(set.format, 'frostbite-meshset');
  assert.deepEqual(set.attached, [files[1].name]);
  assert.equal(set.mesh[0].sections.length, 2);
  assert.ok(set.mesh[0].triangles > 0, 'the LOD has its geometry from the chunk');
  await page.screenshot({ path: `${OUT}page-meshset.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a chunk opened on its own can be attached to a MeshSet by hand', async () => {
  const page = await openPage(env);
  const files = await sampleFiles(page);
  const renamed = { name: 'lod0-geometry.bin', bytes: files[1].bytes }; // no GUID in the name
  await drop(page, [renamed]);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 2);
  await drop(page, [files[0]]);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 3);
  await page.locator('#tabs [role=tab]', { hasText: renamed.name }).click();
  const before = await activeSummary(page);
  assert.equal(before.coverage.uncovered, before.size, 'alone, the chunk is bytes nobody has described');
  await page.locator('#attach-wrap select').selectOption({ label: `${files[0].name}, LOD 0` });
  await page.waitForFunction((n) => document.querySelector('#tabs [role=tab].child')?.textContent === n, renamed.name);
  const after = await activeSummary(page);
  assert.ok(after.coverage.uncovered < after.size / 2, 'attached, its bytes are decoded');
  await page.close();
});
