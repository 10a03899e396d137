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

// The built-in MeshSet (crate/src/sample.rs): one LOD of a cube (24 vertices, 6 faces of two
// triangles) and a 4 x 4 grid (25 vertices, two triangles a cell), u16 indices. The builder's
// chunk holds stream 0 (position, 3 x f32) then stream 1 (frame 4 bytes, UV0 2 x f16) per
// vertex, zero-padded to 16 bytes, then the indices. Every byte but the padding is a field.
const SAMPLE = { vertices: 24 + 25, triangles: [12, 4 * 4 * 2] };
const VERTEX_BYTES = SAMPLE.vertices * (12 + 8);
const PADDING = Math.ceil(VERTEX_BYTES / 16) * 16 - VERTEX_BYTES;
const INDEX_BYTES = (SAMPLE.triangles[0] + SAMPLE.triangles[1]) * 3 * 2;

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
  assert.equal(chunk.size, VERTEX_BYTES + PADDING + INDEX_BYTES);
  assert.equal(chunk.coverage.uncovered, PADDING, 'attached, every chunk byte but the padding gets a span');
  const level = await page.locator('#hex .b[data-offset="0"]').getAttribute('data-confidence');
  assert.notEqual(level, 'uncovered');
  await page.locator('#tabs [role=tab]', { hasText: files[0].name }).click();
  const set = await activeSummary(page);
  assert.equal(set.format, 'frostbite-meshset');
  assert.deepEqual(set.attached, [files[1].name]);
  assert.deepEqual(set.mesh[0].sections.map((s) => s.triangles), SAMPLE.triangles);
  assert.equal(set.mesh[0].triangles, SAMPLE.triangles[0] + SAMPLE.triangles[1], 'the LOD has its geometry from the chunk');
  assert.equal(set.mesh[0].vertices, SAMPLE.vertices);
  await page.screenshot({ path: `${OUT}page-meshset.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a MeshSet shows first, and its checks follow once it is painted', async () => {
  const page = await openPage(env);
  await page.evaluate(() => {
    // The summary panel when the page asks for the checks left for later.
    window.seen = [];
    const { docs } = window.meshscope;
    const summary = docs.summary;
    // Held until the test lets it go, so the panel can be seen while the checks are made.
    const go = new Promise((resolve) => { window.letGo = resolve; });
    docs.summary = async (handle, ...rest) => {
      const el = document.getElementById('summary');
      window.seen.push({ pending: !!el.querySelector('.checks-pending'), shown: el.querySelectorAll('ul.checks li').length });
      await go;
      return summary(handle, ...rest);
    };
  });
  const files = await sampleFiles(page);
  await drop(page, [files[0]]);
  await page.waitForFunction(() => window.seen.length > 0);
  assert.match(await page.locator('#summary .checks-pending').textContent(), /Checks: being made/);
  await page.locator('#summary .checks-pending').scrollIntoViewIfNeeded();
  await page.locator('#summary').screenshot({ path: `${OUT}page-meshset-checks-pending.png` });
  await page.evaluate(() => window.letGo());
  await page.waitForFunction(() => !document.querySelector('#summary .checks-pending'));
  const { seen, shown, groups, checks } = await page.evaluate(() => {
    const el = document.getElementById('summary');
    const d = window.meshscope.state.docs.at(-1);
    const groups = [...el.querySelectorAll('ul.checks')].map((u) => u.dataset.basis);
    return { seen: window.seen, shown: el.querySelectorAll('ul.checks li').length, groups, checks: d.summary.checks.length };
  });
  assert.equal(seen[0].pending, true, 'the first paint says the checks are being made');
  assert.ok(seen[0].shown < checks, `first ${seen[0].shown} checks, then ${checks}`);
  assert.equal(shown, checks, 'then the panel shows every check');
  // The panel scrolls its own content: its visible part, the checks scrolled into it.
  await page.locator('#summary ul.checks[data-basis=guess]').scrollIntoViewIfNeeded();
  const clip = await page.locator('#summary').evaluate((el) => {
    const r = el.parentElement.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  await page.screenshot({ path: `${OUT}page-meshset-checks-made.png`, clip });
  assert.deepEqual(groups, ['description', 'guess']);
  const full = await activeSummary(page);
  assert.equal(full.checks.length, checks);
  assert.equal(full.checks_pending, undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('MeshSets opened by the compare panel get their later checks too', async () => {
  const page = await openPage(env);
  const files = await sampleFiles(page);
  const two = [files[0], { name: 'again.res', bytes: files[0].bytes }];
  await page.click('#compare-button');
  await page.waitForSelector('#compare:not([hidden])');
  await drop(page, two, '#compare');
  await page.waitForSelector('#compare[data-ready="true"]');
  await page.waitForFunction(() => window.meshscope.state.docs.filter((d) => d.summary.format === 'frostbite-meshset')
    .every((d) => !d.summary.checks_pending && d.summary.checks.length > 3));
  const sets = await page.evaluate(() => window.meshscope.state.docs.filter((d) => d.summary.format === 'frostbite-meshset')
    .map((d) => ({ name: d.name, checks: d.summary.checks.length })));
  assert.deepEqual(sets.map((d) => d.name), [files[0].name, 'again.res']);
  const whole = await activeSummary(page);
  assert.ok(sets.every((d) => d.checks === whole.checks.length), JSON.stringify(sets));
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
  assert.equal(after.coverage.uncovered, PADDING, 'attached, its bytes are decoded');
  await page.close();
});

test('in a narrow tree panel every row of one level keeps its indent', async () => {
  const page = await openPage(env);
  await page.setViewportSize({ width: 1400, height: 900 });
  const files = await sampleFiles(page);
  await drop(page, [files[0]]);
  await page.waitForFunction((n) => document.querySelector('#tabs [role=tab][aria-selected=true]')?.textContent === n, files[0].name);
  await page.waitForFunction(() => document.querySelectorAll('#tree [role=treeitem][aria-level="2"]').length > 10);
  // Per level: the left edges of the badges (after the indent and the toggle), and whether some row of it is cut (its value
  // shown with an ellipsis), so the test is known to look at rows that do not fit.
  const levels = await page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll('#tree [role=treeitem]')) {
      const row = el.querySelector(':scope > .tr');
      if (!row.offsetParent) continue;
      const x = Math.round(row.querySelector('.badge').getBoundingClientRect().left);
      const l = (out[el.getAttribute('aria-level')] ??= { xs: [], cut: false });
      l.xs.push(x);
      const v = row.querySelector('.tv');
      l.cut ||= v.scrollWidth > v.clientWidth;
    }
    return out;
  });
  assert.ok(Object.values(levels).some((l) => l.cut), 'some rows are wider than the panel');
  const overflow = await page.evaluate(() => { const t = document.querySelector('#tree'); return t.scrollWidth - t.clientWidth; });
  assert.equal(overflow, 0, 'the rows fit the panel: their types and values are cut instead');
  for (const [level, { xs }] of Object.entries(levels)) {
    assert.deepEqual([...new Set(xs)], [xs[0]], `level ${level}: badges start at ${[...new Set(xs)].join(', ')}`);
  }
  await page.locator('#tree').screenshot({ path: `${OUT}page-meshset-tree-narrow.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a byte of a section, chosen in the hex view, opens the tree at its field, though the section lies outside its LOD\'s record', async () => {
  const page = await openPage(env);
  const files = await sampleFiles(page);
  await drop(page, [files[0]]);
  await page.waitForFunction((n) => document.querySelector('#tabs [role=tab][aria-selected=true]')?.textContent === n, files[0].name);
  await page.waitForFunction(() => document.querySelectorAll('#tree [role=treeitem]').length > 0);
  const { lod, section, fields } = await page.evaluate(async () => {
    const { docs, state } = window.meshscope;
    const roots = await docs.tree(state.active);
    const l = roots.find((n) => n.path === 'lod[0]');
    const s = l.children.filter((n) => /^section\[\d+\]$/.test(n.name)).at(-1);
    const leaves = s.children.filter((n) => !n.children?.length && n.end > n.start);
    return { lod: l, section: s, fields: leaves.slice(0, 2) };
  });
  assert.ok(section.start >= lod.end || section.end <= lod.start, `${section.path} [${section.start}, ${section.end}) lies outside lod[0] [${lod.start}, ${lod.end})`);
  const marked = () => page.evaluate(() => {
    const el = document.querySelector('#tree [aria-selected=true]');
    return el && { path: el.dataset.path, shown: !!el.querySelector(':scope > .tr').offsetParent };
  });
  // Go to the field's first byte (Ctrl+G), then click its last byte: both mark the field.
  await page.keyboard.press('Control+g');
  await page.keyboard.type(`0x${fields[0].start.toString(16)}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((p) => document.querySelector('#tree [aria-selected=true]')?.dataset.path === p, fields[0].path);
  assert.deepEqual(await marked(), { path: fields[0].path, shown: true });
  await page.locator('#tree').screenshot({ path: `${OUT}page-meshset-tree-reveal.png` });
  await page.click(`#hex [data-offset="${fields[1].end - 1}"]`);
  await page.waitForFunction((p) => document.querySelector('#tree [aria-selected=true]')?.dataset.path === p, fields[1].path);
  assert.deepEqual(await marked(), { path: fields[1].path, shown: true });
  // A drag over both fields marks the section that holds them both.
  const box = async (o) => page.locator(`#hex [data-offset="${o}"]`).boundingBox();
  const [a, b] = [await box(fields[0].start), await box(fields[1].end - 1)];
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((p) => document.querySelector('#tree [aria-selected=true]')?.dataset.path === p, section.path);
  assert.deepEqual(await marked(), { path: section.path, shown: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});
