// Annotations and links: annotate, keep across reloads, export/clear/import, an invalid
// import that changes nothing, a link that restores file, selection and annotations in a new
// browser, and an unreachable #src= that says so and loses nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { start, openPage, OUT } from './browser.mjs';
import { needsSamples, gemPlyNames, gemPlyPath } from './samples.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const items = (page) => page.locator('#annotations .ann-item');

/** Clicks byte `offset` in the hex view (selecting its field) and annotates the selection. */
async function annotate(page, offset, { name, type = 'u32', confidence = 'observed', note = '' }) {
  await page.locator(`#hex .b[data-offset="${offset}"]`).click();
  await page.locator('#annotations .ann-new').click();
  await page.locator('#annotations input[name=name]').fill(name);
  await page.locator('#annotations select[name=type]').selectOption(type);
  await page.locator('#annotations select[name=confidence]').selectOption(confidence);
  await page.locator('#annotations textarea[name=note]').fill(note);
  const before = await items(page).count();
  await page.locator('#annotations button[type=submit]').click();
  await page.waitForFunction((n) => document.querySelectorAll('#annotations .ann-item').length === n, before + 1);
}

async function tree(page) {
  return page.evaluate(async () => {
    const { docs, state } = window.meshscope;
    return docs.tree(state.active);
  });
}

const selectedOffsets = (page) => page.$$eval('#hex [aria-selected="true"]', (els) => els.map((e) => Number(e.dataset.offset)).sort((a, b) => a - b));

test('an annotation on one record shows on every record of its kind, and survives a reload', async () => {
  const page = await openPage(env);
  const t = await tree(page);
  const meshes = t.filter((n) => /^MESH\[\d+\]$/.test(n.path));
  assert.ok(meshes.length >= 2, 'the built-in sample has several MESH records');
  const field = meshes[0].children.find((c) => c.name === 'face_start');
  await annotate(page, field.start, { name: 'first face', type: 'i32', note: '<img src=x onerror=alert(1)>' });

  const item = items(page).first();
  await assert.doesNotReject(item.locator('.ann-count').filter({ hasText: `${meshes.length} places here` }).waitFor());
  assert.match(await item.textContent(), /MESH\[\*\] \+0x08/);
  assert.match(await item.locator('.ann-value').textContent(), /= 0$/, 'MESH[0] starts at face 0');
  assert.equal(await item.locator('.ann-note').textContent(), '<img src=x onerror=alert(1)>', 'a note is text, never HTML');
  // Every MESH record's face_start is marked in the hex view, on top of its confidence color.
  for (const m of meshes) {
    const o = m.children.find((c) => c.name === 'face_start').start;
    const cls = await page.locator(`#hex .b[data-offset="${o}"]`).getAttribute('class');
    assert.match(cls, /\bann\b/, `MESH record at ${m.start} is marked`);
    assert.match(cls, /\blv-/, 'the confidence color stays');
  }
  // The tooltip reads the bytes as the guessed type.
  const second = meshes[1].children.find((c) => c.name === 'face_start');
  await page.locator(`#hex .b[data-offset="${second.start}"]`).hover();
  await page.locator('#tooltip .tip-ann').waitFor();
  assert.match(await page.locator('#tooltip .tip-ann').textContent(), new RegExp(`first face \\(i32, observed\\) = ${second.value}$`));

  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await items(page).first().waitFor();
  assert.equal(await items(page).count(), 1);
  assert.equal(await items(page).first().locator('.ann-jump').textContent(), 'first face');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('export, delete everything, import: all is back; an invalid import changes nothing', async () => {
  const page = await openPage(env);
  const t = await tree(page);
  await annotate(page, 0, { name: 'magic bytes', type: 'bytes', confidence: 'proven' });
  const vert = t.find((n) => n.path === 'VERT');
  await annotate(page, vert.children.find((c) => c.name === 'vertex_flags').start, { name: 'flags', type: 'u16' });
  assert.match(await items(page).first().textContent(), /sample\.ply @0x00/, 'bytes outside any record are anchored to the file');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export…' }).click()]);
  const exported = readFileSync(await download.path(), 'utf8');
  const data = JSON.parse(exported);
  assert.equal(data.meshscope, 'annotations');
  assert.equal(data.version, 1);
  assert.deepEqual(data.annotations.map((a) => a.name).sort(), ['flags', 'magic bytes']);

  while (await items(page).count()) {
    const n = await items(page).count();
    await items(page).first().locator('.ann-delete').click();
    await page.waitForFunction((n) => document.querySelectorAll('#annotations .ann-item').length === n - 1, n);
  }
  await page.setInputFiles('#annotations .ann-import-input', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await page.waitForFunction(() => document.querySelectorAll('#annotations .ann-item').length === 2);
  const names = await items(page).locator('.ann-jump').allTextContents();
  assert.deepEqual(names.sort(), ['flags', 'magic bytes']);

  const bad = JSON.stringify({ ...data, annotations: [...data.annotations, { ...data.annotations[0], id: 'x', type: 'u128' }] });
  await page.setInputFiles('#annotations .ann-import-input', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await page.locator('#annotations .ann-message.error').waitFor();
  assert.match(await page.locator('#annotations .ann-message').textContent(), /import failed, nothing changed: .*annotations\[2\]\.type/);
  assert.equal(await items(page).count(), 2);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelectorAll('#annotations .ann-item').length === 2);
  await page.close();
});

test('a copied link opened in a new browser restores the file, the selection and the annotations', async () => {
  // The file is served over HTTP, as a hosted file would be: the built-in sample's bytes.
  const first = await openPage(env);
  const bytes = await first.evaluate(async () => {
    const { docs, state } = window.meshscope;
    const d = state.docs[0];
    return Array.from(await docs.bytes(d.handle, 0, d.size));
  });
  await first.close();
  writeFileSync(`${OUT}link-sample.ply`, Buffer.from(bytes));

  const page = await openPage(env, '#src=tests/out/link-sample.ply');
  assert.equal(await page.locator('#tabs [aria-selected=true]').textContent(), 'link-sample.ply');
  const t = await tree(page);
  const count = t.find((n) => n.path === 'VERT').children.find((c) => c.name === 'vertex_count');
  await annotate(page, count.start, { name: 'how many vertices', type: 'i32' });
  const sel = await selectedOffsets(page);
  assert.deepEqual(sel, [count.start, count.start + 1, count.start + 2, count.start + 3]);
  await page.locator('#copy-link').click();
  await page.waitForFunction(() => location.hash.includes('ann='));
  const url = page.url();
  assert.match(url, /#src=tests%2Fout%2Flink-sample\.ply&sel=0x[0-9a-f]+-0x[0-9a-f]+/);
  await page.close();

  const other = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await other.locator('#tabs [role=tab]').allTextContents(), ['link-sample.ply']);
  await other.waitForFunction((n) => document.querySelectorAll('#hex [aria-selected="true"]').length === n, 4);
  assert.deepEqual(await selectedOffsets(other), sel);
  await other.locator('#annotations .ann-item').first().waitFor();
  assert.equal(await other.locator('#annotations .ann-jump').textContent(), 'how many vertices');
  assert.match(await other.locator('#annotations .ann-value').textContent(), new RegExp(`= ${count.value}$`));
  await other.screenshot({ path: `${OUT}annotations-link.png` });
  await other.close();
});

test('an unreachable or missing #src= says so, and nothing is lost', async () => {
  const page = await openPage(env);
  await annotate(page, 0, { name: 'keep me', type: 'bytes' });
  await page.goto(`${env.url}#src=${encodeURIComponent('http://127.0.0.1:9/gone.ply')}`);
  await page.locator('#notice').waitFor();
  assert.match(await page.locator('#notice').textContent(), /could not load http:\/\/127\.0\.0\.1:9\/gone\.ply: the address is unreachable/);
  assert.deepEqual(await page.locator('#tabs [role=tab]').allTextContents(), ['sample.ply'], 'the open file stays');
  assert.equal(await page.locator('#annotations .ann-jump').textContent(), 'keep me');

  const fresh = await openPage(env, '#src=tests/out/no-such-file.ply');
  assert.match(await fresh.locator('#notice').textContent(), /could not load tests\/out\/no-such-file\.ply: HTTP 404/);
  assert.deepEqual(await fresh.locator('#tabs [role=tab]').allTextContents(), ['sample.ply'], 'the sample opens instead');
  await fresh.close();
  await page.close();
});

test('a census row becomes an annotation, and the annotation shows its census', { skip: needsSamples() }, async () => {
  const samples = gemPlyNames().map(gemPlyPath);
  const page = await openPage(env);
  await page.click('#census-button');
  await page.setInputFiles('#census-files', samples);
  await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 60000 });
  const entry = await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport().entries
    .find((e) => e.kind === 'field' && e.path === 'MESH[*].face_count')));
  assert.ok(entry, 'the census has MESH face counts');
  await page.fill('#census-filter', entry.path);
  await page.click(`#census-table tbody tr[data-id="${entry.id}"]`);
  await page.click('#census-annotate');
  const item = page.locator('#annotations .ann-item').filter({ hasText: 'face_count' });
  await item.waitFor({ state: 'attached' });
  assert.match(await item.textContent(), /MESH\[\*\] \+0x0c/);
  // shared/README.md's table: MESH chunks are 1, 3, 1, 1, 1 in five files, none in the landscape.
  assert.match(await item.locator('.ann-census').textContent(), /^census: 7 records in 5 files/);
  await page.close();
});
