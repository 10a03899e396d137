// Companion files in the page (issue #15, item 5): MeshSets, geometry chunks and .resmeta files
// opened together, in any order, pair up by GUID or by name, a chunk or .resmeta opened before
// its resource included; a companion a resource takes never stays a tab of its own; with
// several MeshSets a .resmeta goes to its own; `m0.resmeta` beside `m0.res` is found as well
// as `m0.res.resmeta`; a chunk attached by hand whose GUID is not the LOD's is said first.
// The files come from the MeshSet builder (wasm sample functions), never from a game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, dropFiles } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The builder's rigid and skinned MeshSets with their chunks, and for each a .resmeta holding
 *  the metadata its decode computes ({table offset, table bytes, trailing bytes, 0}, u32 LE). */
async function builderFiles(page) {
  return page.evaluate(async () => {
    const { api, docs } = window.meshscope;
    const out = {};
    for (const [key, files] of [['crate', api.sample_meshset_files()], ['figure', api.sample_skinned_meshset_files()]]) {
      const [res, chunk] = files;
      const h = await docs.open(res.name, res.bytes.slice());
      const s = await docs.summary(h);
      await docs.close(h);
      const meta = /\{(\d+), (\d+), (\d+), (\d+)\}/.exec(s.facts.find(([k]) => k === 'resource metadata (computed)')[1]).slice(1).map(Number);
      const m = new Uint8Array(16);
      meta.forEach((v, i) => new DataView(m.buffer).setUint32(i * 4, v, true));
      out[key] = { res: { name: res.name, bytes: Array.from(res.bytes) }, chunk: { name: chunk.name, bytes: Array.from(chunk.bytes) }, meta: Array.from(m) };
    }
    return out;
  });
}

const tabs = (page) => page.locator('#tabs [role=tab]').evaluateAll((bs) => bs.map((b) => (b.classList.contains('child') ? `↳ ${b.textContent}` : b.textContent)));
const waitTabs = (page, n) => page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, n);

/** The open MeshSet named `name`: its attached files and whether its resmeta check passed. */
const setState = (page, name) => page.evaluate(async (name) => {
  const { docs, state } = window.meshscope;
  const d = state.docs.find((x) => x.name === name);
  const s = await docs.summary(d.handle);
  const meta = s.checks.find((c) => c.name.startsWith('resource metadata'));
  return { attached: s.attached, resmeta: meta ? meta.passed : null, triangles: s.mesh[0].triangles };
}, name);

test('two MeshSets, their chunks and .resmeta files dropped together in any order pair up', async () => {
  const page = await openPage(env);
  const f = await builderFiles(page);
  const crateMeta = { name: `${f.crate.res.name}.resmeta`, bytes: f.crate.meta }; // m0.res.resmeta
  const figureMeta = { name: f.figure.res.name.replace(/\.res$/, '.resmeta'), bytes: f.figure.meta }; // m0.resmeta
  assert.equal(figureMeta.name, 'sample_figure.resmeta');
  await dropFiles(page, [f.figure.chunk, crateMeta, figureMeta, f.crate.res, f.crate.chunk, f.figure.res]);
  await waitTabs(page, 7);
  assert.deepEqual(await tabs(page), [
    'sample.ply',
    f.crate.res.name, `↳ ${crateMeta.name}`, `↳ ${f.crate.chunk.name}`,
    f.figure.res.name, `↳ ${figureMeta.name}`, `↳ ${f.figure.chunk.name}`,
  ], 'every companion sits under its own MeshSet; none is a tab of its own');
  const crate = await setState(page, f.crate.res.name);
  const figure = await setState(page, f.figure.res.name);
  assert.deepEqual(crate.attached, [f.crate.chunk.name]);
  assert.deepEqual(figure.attached, [f.figure.chunk.name]);
  assert.equal(crate.resmeta, true, 'its own metadata (the other\'s would differ)');
  assert.equal(figure.resmeta, true);
  assert.notDeepEqual(f.crate.meta, f.figure.meta, 'the two metadata differ, so a swap would fail');
  assert.ok(crate.triangles > 0 && figure.triangles > 0);
  assert.equal(await page.locator('#notice .note').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a chunk and a .resmeta opened before their MeshSet move under it when it opens', async () => {
  const page = await openPage(env);
  const f = await builderFiles(page);
  const meta = { name: `${f.crate.res.name}.resmeta`, bytes: f.crate.meta };
  await dropFiles(page, [f.crate.chunk]);
  await waitTabs(page, 2);
  await dropFiles(page, [meta]);
  await waitTabs(page, 3);
  assert.deepEqual(await tabs(page), ['sample.ply', f.crate.chunk.name, meta.name], 'alone, each is a tab');
  await dropFiles(page, [f.crate.res]);
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab].child').length === 2 && document.querySelectorAll('#tabs [role=tab]').length === n, 4);
  assert.deepEqual(await tabs(page), ['sample.ply', f.crate.res.name, `↳ ${f.crate.chunk.name}`, `↳ ${meta.name}`]);
  const s = await setState(page, f.crate.res.name);
  assert.deepEqual(s.attached, [f.crate.chunk.name]);
  assert.equal(s.resmeta, true);
  assert.ok(s.triangles > 0, 'the LOD has its geometry');
  await page.close();
});

test('with several MeshSets open, a .resmeta dropped alone goes to its own', async () => {
  const page = await openPage(env);
  const f = await builderFiles(page);
  await dropFiles(page, [f.crate.res, f.figure.res]);
  await waitTabs(page, 3);
  // The figure's metadata, named m0.resmeta: the figure was opened last, the crate first.
  const meta = { name: 'sample_figure.resmeta', bytes: f.figure.meta };
  await dropFiles(page, [meta]);
  await waitTabs(page, 4);
  assert.deepEqual(await tabs(page), ['sample.ply', f.crate.res.name, f.figure.res.name, `↳ ${meta.name}`]);
  assert.equal((await setState(page, f.figure.res.name)).resmeta, true);
  assert.equal((await setState(page, f.crate.res.name)).resmeta, null, 'the crate took nothing');
  // One whose name matches no open MeshSet stays a tab of its own.
  await dropFiles(page, [{ name: 'other.res.resmeta', bytes: f.crate.meta }]);
  await waitTabs(page, 5);
  assert.equal((await tabs(page)).at(-1), 'other.res.resmeta');
  await page.close();
});

/** A GUID's text form from its 16 bytes in file order (first three groups little-endian). */
function guidText(hex32) {
  const b = hex32.match(/../g);
  const t = [b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], ...b.slice(8)].join('');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
}

test('attaching by hand a chunk whose GUID is not the LOD\'s says so first', async () => {
  const page = await openPage(env);
  const f = await builderFiles(page);
  await dropFiles(page, [f.crate.res]);
  await waitTabs(page, 2);
  // The figure's chunk: its name's GUID names no LOD of the crate, so it opens on its own.
  await dropFiles(page, [f.figure.chunk]);
  await waitTabs(page, 3);
  assert.deepEqual(await tabs(page), ['sample.ply', f.crate.res.name, f.figure.chunk.name]);
  await page.locator('#attach-wrap select').selectOption({ label: `${f.crate.res.name}, LOD 0` });
  await page.waitForSelector('#notice .note');
  const have = guidText(f.figure.chunk.name.slice(0, 32));
  const want = guidText(f.crate.chunk.name.slice(0, 32));
  assert.equal(await page.textContent('#notice .note-text'),
    `${f.figure.chunk.name}: its name says chunk ${have}, but LOD 0 of ${f.crate.res.name} names chunk ${want}; its bytes are likely another LOD's or another mesh's.`);
  assert.equal(await page.locator('#tabs [role=tab].child').count(), 0, 'nothing attached yet');
  await page.click('#notice button:text-is("Cancel")');
  assert.equal(await page.locator('#notice .note').count(), 0);
  assert.equal(await page.locator('#tabs [role=tab].child').count(), 0);
  await page.locator('#attach-wrap select').selectOption({ label: `${f.crate.res.name}, LOD 0` });
  await page.click('#notice button:text-is("Attach anyway")');
  await page.waitForFunction((n) => document.querySelector('#tabs [role=tab].child')?.textContent === n, f.figure.chunk.name);
  assert.deepEqual((await setState(page, f.crate.res.name)).attached, [f.figure.chunk.name]);
  await page.close();
});
