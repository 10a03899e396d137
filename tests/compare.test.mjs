// The comparison panel: two samples dropped on it are opened and compared; the two hex views
// scroll in step by structure (a vertex row in A faces the same vertex's row in B although
// B has no SKIN chunk before it and smaller vertices); a click on a difference selects it in
// both views and in the inspector. The views are the inspector's hex view (a scroll bar, the
// ASCII column). Screenshot: tests/out/compare.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, dropFiles, OUT } from './browser.mjs';
import { needsSamples, assertSamples, gemPly, gemPlyPath } from './samples.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });


/** Where a file's VERT data starts and its vertex size, read from the bytes (spec: VERT,
 *  int32 count, uint16 size, uint16 flags, then the vertices). */
function vert(bytes) {
  const at = bytes.indexOf(Buffer.from('VERT'));
  return { data: at + 12, stride: bytes.readUInt16LE(at + 8), count: bytes.readInt32LE(at + 4) };
}

const top = (page, s) => page.$eval(`#cmp-rows-${s}`, (e) => Number(e.dataset.top));

test('two dropped samples are compared, scroll in step by structure, and a difference is selected in both views', { skip: needsSamples() }, async () => {
  assertSamples();
  const page = await openPage(env);
  const a = gemPly('gun2.ply');
  const b = gemPly('at1_a1.ply');
  const tabs = await page.locator('#tabs [role=tab]').count();
  await page.click('#compare-button');
  await page.waitForSelector('#compare:not([hidden])');
  await dropFiles(page, [{ name: 'gun2.ply', bytes: [...a] }, { name: 'at1_a1.ply', bytes: [...b] }], '#compare');
  await page.waitForSelector('#compare[data-ready="true"]');
  assert.equal(await page.locator('#tabs [role=tab]').count(), tabs + 2, 'both files open as tabs');
  const c = await page.evaluate(() => import('./web/compare.js').then((m) => m.comparison()));
  const rows = await page.locator('#cmp-table tbody tr').count();
  assert.equal(rows, c.result.differences.length);
  assert.match(await page.textContent('#cmp-count'), new RegExp(`^${rows} of ${rows} differences`));

  // Scroll A into its vertices with the wheel: 20 rows down from the top, three times.
  await page.hover('#cmp-rows-a');
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 400);
  const va = vert(a);
  const vb = vert(b);
  await page.waitForFunction(() => Number(document.querySelector('#cmp-rows-a').dataset.top) === 60 * 16);
  const ta = await top(page, 'a');
  assert.ok(ta > va.data && ta < va.data + va.count * va.stride, 'A shows its vertices');
  // The same vertex, the same byte in it (or its last byte where B's vertex is shorter).
  const d = ta - va.data;
  const k = Math.floor(d / va.stride);
  const want = vb.data + k * vb.stride + Math.min(d % va.stride, vb.stride - 1);
  await page.waitForFunction((t) => Number(document.querySelector('#cmp-rows-b').dataset.top) === t, Math.floor(want / 16) * 16);
  assert.notEqual(Math.floor(want / 16) * 16, ta, 'by offset the rows would not face');
  // Scrolling B moves A back in step: B one row up, A to the row facing it.
  await page.hover('#cmp-rows-b');
  await page.mouse.wheel(0, -20);
  const tb = Math.floor(want / 16) * 16 - 16;
  await page.waitForFunction((t) => Number(document.querySelector('#cmp-rows-b').dataset.top) === t, tb);
  const db = tb - vb.data;
  const back = va.data + Math.floor(db / vb.stride) * va.stride + Math.min(db % vb.stride, va.stride - 1);
  await page.waitForFunction((t) => Number(document.querySelector('#cmp-rows-a').dataset.top) === t, Math.floor(back / 16) * 16);

  // The scroll bar of B: dragged to its end, B shows its last rows and A the rows facing them.
  await page.$eval('#cmp-rows-b .hex-scroller', (s) => { s.scrollTop = s.scrollHeight; });
  const lastB = (Math.ceil(b.length / 16) - await page.$eval('#cmp-rows-b .hex-rows', (r) => Math.floor(r.clientHeight / 20))) * 16;
  await page.waitForFunction((t) => Number(document.querySelector('#cmp-rows-b').dataset.top) === t, lastB);
  assert.notEqual(await top(page, 'a'), 0, 'A follows B to the end');
  // The ASCII column: the 16 characters of A's first row, as the bytes are (dots for the rest).
  await page.focus('#cmp-rows-a');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#cmp-rows-a').dataset.top === '0');
  const ascii = [...a.subarray(0, 16)].map((v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.')).join('');
  await page.waitForFunction((t) => [...document.querySelectorAll('#cmp-rows-a .hex-row')].some((r) => !r.hidden && r.querySelector('.hex-off').textContent === '00000000' && r.querySelector('.hex-ascii').textContent === t), ascii);

  // Filter to the vertex count and click it: both views show the field, selected.
  await page.fill('#cmp-filter', 'VERT.vertex_count');
  assert.equal(await page.locator('#cmp-table tbody tr').count(), 1);
  await page.click('#cmp-table tbody tr');
  const at = { a: a.indexOf(Buffer.from('VERT')) + 4, b: b.indexOf(Buffer.from('VERT')) + 4 };
  const marked = (s) => page.$$eval(`#cmp-rows-${s} .b[aria-selected=true]`, (es) => es.map((e) => Number(e.dataset.offset)).sort((x, y) => x - y));
  for (const s of ['a', 'b']) {
    const want = [at[s], at[s] + 1, at[s] + 2, at[s] + 3];
    // The click scrolls both views to the field and repaints them: wait for the marks, then compare.
    await page.waitForFunction(([side, w]) => {
      const got = [...document.querySelectorAll(`#cmp-rows-${side} .b[aria-selected=true]`)].map((e) => Number(e.dataset.offset)).sort((x, y) => x - y);
      return got.join() === w.join();
    }, [s, want], { timeout: 10000 }).catch(() => {});
    assert.deepEqual(await marked(s), want, `side ${s}`);
  }
  // In the inspector: A's tab is active with the field selected.
  const state = await page.evaluate(() => import('./web/state.js').then(({ state }) => ({ active: state.active, sel: state.selection })));
  assert.equal(state.active, c.a);
  assert.deepEqual([state.sel.start, state.sel.end], [at.a, at.a + 4]);
  const vc = c.result.differences.find((x) => x.path === 'VERT.vertex_count');
  assert.deepEqual(vc.delta, [vert(b).count - vert(a).count]);
  assert.equal(await page.textContent('#cmp-table tbody tr td:nth-child(5)'), String(vert(b).count - vert(a).count));

  // The confidence colors as a toggle: the magic is proven in both files.
  await page.check('#cmp-colors');
  await page.waitForFunction(() => document.querySelector('#cmp-rows-b [data-offset="0"]')?.classList.contains('lv-proven'));
  await page.uncheck('#cmp-colors');
  await page.waitForFunction(() => document.querySelector('#cmp-rows-b [data-offset="0"]')?.classList.contains('d-same'));
  // Files from disk have no address to link to.
  await page.click('#cmp-link');
  assert.match(await page.textContent('#cmp-status'), /must come from addresses/);

  // The kind filter: the records on one side only (gun2.ply's SKIN).
  await page.fill('#cmp-filter', '');
  await page.selectOption('#cmp-kind', 'only_a');
  const paths = await page.$$eval('#cmp-table tbody tr td:first-child', (es) => es.map((e) => e.textContent));
  assert.ok(paths.includes('SKIN'), paths.join(' '));
  await page.selectOption('#cmp-kind', 'all');
  await page.fill('#cmp-filter', 'VERT.vertex_count');
  await page.screenshot({ path: `${OUT}compare.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('compare with census: a value no sample holds is the one rare field of the file', { skip: needsSamples() }, async () => {
  assertSamples();
  const page = await openPage(env);
  const names = ['at1_a1.ply', 'enumerator1.ply', 'enumerator_background1.ply', 'ger1.ply', 'gun2.ply', 'map_4v4_long.ply'];
  const samples = names.map((n) => [n, gemPly(n)]);
  const report = await page.evaluate(async (list) => {
    const { runCensus } = await import('./web/census.js');
    return runCensus(list.map(([name, bytes]) => ({ name, file: new File([new Uint8Array(bytes)], name) })));
  }, samples.map(([n, b]) => [n, [...b]]));
  assert.equal(report.files, 6);
  // gun2.ply with BNDS.min.x (bytes 8..12, after the magic and the BNDS id) set to 12345.5:
  // a value none of the six files holds.
  const odd = Buffer.from(gemPly('gun2.ply'));
  odd.writeFloatLE(12345.5, 8);
  const tabs = await page.locator('#tabs [role=tab]').count();
  await page.setInputFiles('#file-input', { name: 'odd.ply', mimeType: 'application/octet-stream', buffer: odd });
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, tabs + 1);
  await page.click('#compare-button');
  await page.waitForSelector('#compare:not([hidden])');
  await page.selectOption('#cmp-a', { label: 'odd.ply (gem-ply)' });
  await page.click('#cmp-census');
  await page.waitForFunction(() => /rare values in odd.ply/.test(document.querySelector('#cmp-status').textContent));
  const rows = await page.$$eval('#cmp-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(rows.length, 1, JSON.stringify(rows));
  assert.equal(rows[0][0], 'BNDS.min');
  assert.equal(rows[0][1], 'rare: in none of 6 files');
  assert.match(rows[0][2], /^0x8: \[12345\.5, /);
  assert.equal(await page.locator('#cmp-side-b').isHidden(), true);
  await page.click('#cmp-table tbody tr');
  const want = Array.from({ length: 12 }, (_, k) => 8 + k).join();
  await page.waitForFunction((w) => [...document.querySelectorAll('#cmp-rows-a .b[aria-selected=true]')].map((e) => Number(e.dataset.offset)).sort((x, y) => x - y).join() === w, want);
  await page.screenshot({ path: `${OUT}compare-census.png` });

  // The same census saved earlier, as the census panel's JSON and as JSON Lines (one entry a
  // line, as `meshscope census --json` writes): the same one rare field.
  const jsonl = report.entries.map((e) => JSON.stringify(e)).join('\n');
  for (const [name, text] of [['census.json', JSON.stringify(report, null, 1)], ['census.jsonl', jsonl]]) {
    await page.selectOption('#cmp-kind', 'all');
    await page.setInputFiles('#cmp-census-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction((n) => document.querySelector('#cmp-status').textContent.endsWith(`of 6 files (${n})`), name);
    const again = await page.$$eval('#cmp-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(again, rows, name);
  }
  // A folder: a census of its files is made here, then A is compared with it.
  await page.setInputFiles('#cmp-census-folder', gemPlyPath(''));
  await page.waitForFunction(() => document.querySelector('#cmp-status').textContent.endsWith('of 6 files (a folder of 6 files)'), null, { timeout: 60000 });
  assert.deepEqual(await page.$$eval('#cmp-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent))), rows, 'folder');
  // A file that is no census says so.
  await page.setInputFiles('#cmp-census-file', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') });
  await page.waitForFunction(() => /^notes\.json: not a census/.test(document.querySelector('#cmp-status').textContent));
  assert.deepEqual(page.errors, []);
  await page.close();
});
