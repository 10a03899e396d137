// The page on decoded files (needs the GEM .ply decoder): confidence colors at known
// offsets of a real sample, the tooltip of a known field, the tree and the hex selection
// following each other, a truncated file's error, and a material name that is HTML.
// Offsets come from the vendor description (shared/spec/gem-ply.md) read against the bytes
// of enumerator_background1.ply: EPLY @0, BNDS @4 (24 bytes of box), MESH @0x20 with fvf
// @0x24, face_start @0x28, face_count @0x2c (= 2), mesh_flags @0x30, material name (u8
// length 0x19 @0x34, then 25 characters), VERT @0x4e, INDX @0xda.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT, imageErrorsReported } from './browser.mjs';
import { needsSamples, gemPly } from './samples.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });
const skip = needsSamples();
let small;
/** enumerator_background1.ply's bytes (read when a test first needs them). */
const SMALL = () => (small ??= gemPly('enumerator_background1.ply'));

test('the built-in sample decodes as a GEM .ply', async () => {
  const page = await openPage(env);
  assert.equal(await page.evaluate(() => window.meshscope.state.docs[0].summary.format), 'gem-ply');
  await page.close();
});

async function choose(page, name, buffer) {
  const before = await page.locator('#tabs [role=tab]').count();
  await page.setInputFiles('#file-input', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, before + 1);
  await page.waitForSelector('#hex [data-offset="0"]');
}

const conf = (page, o) => page.locator(`#hex [data-offset="${o}"]`).getAttribute('data-confidence');

test('a real sample: colors at known offsets agree with the spans, and the tooltip names a known field', { skip }, async () => {
  const page = await openPage(env);
  await choose(page, 'enumerator_background1.ply', SMALL());
  // The magic is the vendor's own description: Proven (DESIGN.md, Confidence).
  assert.equal(await conf(page, 0), 'proven');
  assert.notEqual(await conf(page, 0x2c), 'uncovered', 'face_count is decoded');
  assert.notEqual(await conf(page, 0x40), 'uncovered', 'the material name is decoded');
  // Every byte on screen carries the confidence of the innermost span span_at gives for it.
  const mismatches = await page.evaluate(async () => {
    const { docs, state } = window.meshscope;
    const out = [];
    for (const c of document.querySelectorAll('#hex [data-offset]')) {
      const s = await docs.span_at(state.active, Number(c.dataset.offset));
      const want = s ? s.confidence : 'uncovered';
      if (c.dataset.confidence !== want) out.push([c.dataset.offset, c.dataset.confidence, want]);
    }
    return out;
  });
  assert.deepEqual(mismatches, []);
  await page.hover('#hex [data-offset="45"]'); // 0x2d, inside face_count
  await page.waitForFunction(() => document.querySelector('#tooltip:not([hidden])')?.dataset.offset === '45');
  const tip = await page.evaluate(() => ({
    path: document.querySelector('#tooltip .tip-path').textContent,
    ...Object.fromEntries([...document.querySelectorAll('#tooltip dt')].map((dt) => [dt.textContent, dt.nextSibling.textContent])),
  }));
  assert.match(tip.path, /face_count$/);
  assert.equal(tip.value, '2', 'two faces, as the bytes say');
  assert.match(tip.offset, /^0x2c \(44\), 4 bytes/);
  assert.match(tip.type, /32/);
  assert.equal(tip.confidence, 'proven', 'a field of the vendor description');
  await page.screenshot({ path: `${OUT}page-decoded-tooltip.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('clicking a byte selects its field in the hex view and the tree; clicking a tree node selects its bytes', { skip }, async () => {
  const page = await openPage(env);
  await choose(page, 'enumerator_background1.ply', SMALL());
  const selected = () => page.evaluate(() => [...document.querySelectorAll('#hex [aria-selected=true]')].map((c) => Number(c.dataset.offset)).sort((a, b) => a - b));
  await page.click('#hex [data-offset="45"]');
  await page.waitForFunction(() => document.querySelector('#tree [aria-selected=true]'));
  assert.deepEqual(await selected(), [0x2c, 0x2d, 0x2e, 0x2f], 'the whole u32 face_count');
  const node = page.locator('#tree [aria-selected=true]');
  assert.match(await node.getAttribute('data-path'), /face_count$/);
  assert.ok(await node.isVisible());
  // The material name's text: the tree opens the path to it; its record (length + text)
  // selected in the tree selects those bytes in the hex view.
  await page.click('#hex [data-offset="64"]');
  await page.waitForFunction(() => /material_name\.text$/.test(document.querySelector('#tree [aria-selected=true]')?.dataset.path ?? ''));
  assert.equal(await page.locator('#tree [aria-selected=true] .tv').first().textContent(), 'enumerator_background.mtl');
  await page.locator('#tree [role=treeitem][data-path="MESH[0].material_name"] > .tr').click();
  assert.deepEqual(await selected(), Array.from({ length: 26 }, (_, i) => 0x34 + i), 'length byte and 25 characters');
  // A vertex deep in an array opens lazily: the VERT region's elements exist only once opened.
  const before = await page.locator('#tree [role=treeitem]').count();
  await page.click('#hex [data-offset="126"]'); // inside vertex 1 (0x5a + 32 = 0x7a)
  await page.waitForFunction(() => /\[1\]/.test(document.querySelector('#tree [aria-selected=true]')?.dataset.path ?? ''));
  assert.ok(await page.locator('#tree [role=treeitem]').count() > before);
  await page.screenshot({ path: `${OUT}page-decoded-tree.png` });
  await page.close();
});

test('a truncated file opens: spans before the error are shown and the error links to its bytes', { skip }, async () => {
  const page = await openPage(env);
  const cut = SMALL().subarray(0, 0x70); // in the middle of the VERT data
  await choose(page, 'truncated.ply', cut);
  await page.waitForSelector('#errors:not([hidden]) .error');
  const text = await page.locator('#errors .error').first().textContent();
  assert.match(text, /0x[0-9a-f]+ \(\d+\)/, 'the offset is shown');
  const offset = Number(await page.locator('#errors .error').first().getAttribute('data-offset'));
  assert.ok(offset >= 0x4e && offset <= 0xda, `the error is in VERT: ${offset}`);
  assert.equal(await conf(page, 0), 'proven', 'the spans before the error are kept');
  assert.notEqual(await conf(page, 0x2c), 'uncovered');
  await page.locator('#errors .error').first().click();
  const shown = Math.min(offset, cut.length - 1);
  await page.waitForFunction((o) => document.querySelector(`#hex [data-offset="${o}"]`)?.getAttribute('aria-selected') === 'true', shown);
  await page.screenshot({ path: `${OUT}page-decoded-error.png` });
  await page.close();
});

test('a material name that is HTML is shown as text and runs nothing', { skip }, async () => {
  const page = await openPage(env);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  const evil = '<img src=x onerror=alert(1)>';
  // The same file with the material name (u8 length @0x34, 25 bytes) replaced.
  const bytes = Buffer.concat([SMALL().subarray(0, 0x34), Buffer.from([evil.length]), Buffer.from(evil), SMALL().subarray(0x34 + 1 + 25)]);
  await choose(page, 'evil.ply', bytes);
  await page.click('#hex [data-offset="60"]');
  await page.waitForFunction(() => /material_name\.text$/.test(document.querySelector('#tree [aria-selected=true]')?.dataset.path ?? ''));
  assert.equal(await page.locator('#tree [aria-selected=true] .tv').first().textContent(), evil, 'the name is in the tree, as text');
  assert.ok((await page.locator('#summary').textContent()).includes(evil), 'and in the summary');
  await page.hover('#hex [data-offset="60"]');
  await page.waitForFunction(() => document.querySelector('#tooltip:not([hidden])')?.dataset.offset === '60');
  assert.ok((await page.locator('#tooltip').textContent()).includes(evil));
  assert.equal(await page.locator('img').count(), 0);
  await imageErrorsReported(page);
  assert.equal(dialogs, 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the tree is lazy: 100,000 vertices are one node until opened, then buckets of 1,000', { skip }, async () => {
  const page = await openPage(env);
  // enumerator_background1.ply with its VERT chunk (count @0x52, 4 x 32 bytes @0x5a) tiled
  // to 100,000 vertices; the indices still name vertices 0..3.
  const n = 100000;
  const head = Buffer.from(SMALL().subarray(0, 0x5a));
  head.writeInt32LE(n, 0x52);
  const tile = SMALL().subarray(0x5a, 0xda);
  const body = Buffer.concat(Array.from({ length: n / 4 }, () => tile));
  await choose(page, 'many.ply', Buffer.concat([head, body, SMALL().subarray(0xda)]));
  const vertices = page.locator('#tree [role=treeitem][data-path="VERT.vertices"]');
  await vertices.waitFor();
  const items = () => page.locator('#tree [role=treeitem]').count();
  assert.ok(await items() < 60, `before opening: ${await items()} tree items`);
  await vertices.locator('> .tr .tog').click();
  await page.waitForFunction(() => document.querySelectorAll('#tree [role=treeitem][data-path^="VERT.vertices[0..1000]"]').length === 1);
  const buckets = await vertices.locator('> [role=group] > [role=treeitem]').count();
  assert.equal(buckets, 100, '100 buckets of 1,000');
  assert.ok(await items() < 200);
  // Opening the last bucket makes its 1,000 elements, and only those.
  const last = vertices.locator('> [role=group] > [role=treeitem]').last();
  assert.equal(await last.getAttribute('data-path'), 'VERT.vertices[99000..100000]');
  await last.locator('> .tr .tog').click();
  await page.waitForFunction(() => document.querySelector('#tree [data-path="VERT.vertices[99999]"]'));
  assert.equal(await last.locator('> [role=group] > [role=treeitem]').count(), 1000);
  assert.ok(await items() < 1300, `${await items()} items after opening one bucket`);
  // Selecting a vertex far into the file from the hex view opens its bucket.
  const v = 54321;
  await page.fill('#goto', String(0x5a + v * 32));
  await page.press('#goto', 'Enter');
  await page.focus('#hex');
  await page.keyboard.press('Enter'); // selects the field at the cursor
  await page.waitForFunction((p) => document.querySelector('#tree [aria-selected=true]')?.dataset.path.startsWith(p), `VERT.vertices[${v}]`);
  await page.close();
});

test('a .ply opens structure first: its rows come before its mesh, which follows with its checks', { skip }, async () => {
  const page = await openPage(env);
  await page.evaluate(() => {
    // What the document is when the page asks for the rest of it.
    window.seen = [];
    const { docs, state } = window.meshscope;
    const complete = docs.complete;
    docs.complete = (handle, ...rest) => {
      const d = state.docs.find((x) => x.handle === handle);
      window.seen.push({ pending: d?.summary.pending, lods: d?.summary.mesh.length, active: state.active === handle });
      return complete(handle, ...rest);
    };
  });
  const big = gemPly('map_4v4_long.ply');
  await choose(page, 'map_4v4_long.ply', big);
  await page.waitForFunction(() => window.meshscope.state.docs.at(-1).summary.pending === false);
  const doc = await page.evaluate(() => {
    const d = window.meshscope.state.docs.at(-1);
    return { name: d.name, mesh: d.summary.mesh, checks: d.summary.checks.length, completeMs: d.timings.completeMs, seen: window.seen };
  });
  assert.equal(doc.name, 'map_4v4_long.ply');
  assert.deepEqual(doc.seen, [{ pending: true, lods: 0, active: true }], 'the tab is open (its rows asked for) before the mesh is decoded');
  assert.equal(doc.mesh[0].vertices, 16911, 'the completed summary has the mesh');
  assert.ok(doc.checks > 0 && doc.completeMs >= 0);
  // The summary panel and the 3D view follow the completed document.
  await page.waitForFunction(() => !/decoding/.test(document.getElementById('summary').textContent));
  assert.match(await page.locator('#summary').textContent(), /16,911 vertices/);
  await page.waitForFunction(() => Number(document.querySelector('#viewer canvas, canvas')?.dataset.frames ?? 0) > 0);
  await page.close();
});

/** enumerator_background1.ply with its VERT chunk tiled to about `bytes` (as the page benchmark makes it). */
function tiledPly(bytes) {
  const v = SMALL().indexOf('VERT');
  const count = SMALL().readInt32LE(v + 4);
  const stride = SMALL().readUInt16LE(v + 8);
  const body = SMALL().subarray(v + 12, v + 12 + count * stride);
  const n = Math.floor((bytes - SMALL().length) / stride);
  const head = Buffer.from(SMALL().subarray(0, v + 12));
  head.writeInt32LE(n, head.length - 8);
  const tiles = Buffer.concat(Array(Math.ceil((n * stride) / body.length)).fill(body)).subarray(0, n * stride);
  return Buffer.concat([head, tiles, SMALL().subarray(v + 12 + count * stride)]);
}

for (const [name, make, first] of [['tiled.ply', () => tiledPly(12 << 20), 'proven'], ['raw.bin', () => Buffer.alloc(12 << 20, 0x5a), 'uncovered']]) {
test(`a big file (${name}): its first rows are colored from the first bytes read, as the whole decode colors them`, { skip: name === 'raw.bin' ? false : skip }, async () => {
  const page = await openPage(env);
  await page.evaluate(() => {
    // What the hex view shows right after it paints the rows decoded from the first bytes alone.
    window.early = null;
    const hex = window.meshscope.hex;
    const previewDecoded = hex.previewDecoded.bind(hex);
    hex.previewDecoded = (...args) => {
      previewDecoded(...args);
      if (!window.early && hex.cache?.provisional) {
        window.early = [...document.querySelectorAll('#hex .b[data-offset]')].map((b) => [b.dataset.offset, b.dataset.confidence ?? null]);
        window.earlyPreview = hex.doc.preview === true;
      }
    };
  });
  await choose(page, name, make());
  await page.waitForFunction((n) => window.meshscope.state.docs.at(-1).name === n && !window.meshscope.state.docs.at(-1).summary.pending, name);
  const { early, earlyPreview } = await page.evaluate(() => ({ early: window.early, earlyPreview: window.earlyPreview }));
  assert.ok(early?.length > 100, 'rows were painted from the first bytes read');
  assert.equal(earlyPreview, true, 'while the file was still a preview');
  assert.ok(early.every(([, c]) => c != null), 'every shown byte had its confidence');
  await page.evaluate(() => window.meshscope.hex.scrollToRow(0));
  await page.waitForSelector('#hex [data-offset="0"][data-confidence]');
  const final = Object.fromEntries(await page.evaluate(() => [...document.querySelectorAll('#hex .b[data-offset]')].map((b) => [b.dataset.offset, b.dataset.confidence])));
  const differ = early.filter(([o, c]) => final[o] != null && final[o] !== c);
  assert.deepEqual(differ, [], 'the early colors are the decoded document\'s');
  assert.equal(final['0'], first);
  await page.close();
});
}
