// The census panel: files chosen or dropped are censused in a worker with a progress bar and
// Cancel; the result is a table, a histogram, places that open the file, and CSV / JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT } from './browser.mjs';
import { needsSamples, gemPlyNames, gemPly, gemPlyPath } from './samples.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const files = (n, size, name = (i) => `junk${i}.bin`) => Array.from({ length: n }, (_, i) => ({
  name: name(i), mimeType: 'application/octet-stream',
  buffer: Buffer.from(Array.from({ length: size }, (_, k) => (k * 31 + i) & 0xff)),
}));

async function openCensus(page) {
  await page.click('#census-button');
  await page.waitForSelector('#census:not([hidden])');
}

async function waitDone(page) {
  await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 60000 });
  return page.evaluate(() => import('./web/census.js').then((m) => m.censusReport()));
}

test('files of no known format are counted as skipped, and the page reports it', async () => {
  const page = await openPage(env);
  await openCensus(page);
  await page.setInputFiles('#census-files', files(5, 64));
  const r = await waitDone(page);
  assert.equal(r.skipped, 5);
  assert.equal(r.files, 0);
  assert.match(await page.textContent('#census-status'), /5 of no known format/);
  assert.equal(await page.locator('#census-progress').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a census of files dropped on the panel can be cancelled; the page stays responsive', async () => {
  const page = await openPage(env);
  await openCensus(page);
  const tabs = await page.locator('#tabs [role=tab]').count();
  // The worker holds after 5 of the 20 files until it is cancelled: it is surely still running
  // when Cancel is clicked, however loaded the machine.
  await page.evaluate(() => import('./web/census.js').then((m) => { m.censusOptions.pauseAfter = 5; }));
  await page.evaluate(() => {
    window.censusSaid = [];
    const s = document.getElementById('census');
    new MutationObserver(() => window.censusSaid.push(document.getElementById('census-status').textContent))
      .observe(s, { subtree: true, childList: true, characterData: true });
  });
  const dt = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    const body = new Uint8Array(32 * 1024).fill(7);
    for (let i = 0; i < 20; i++) dt.items.add(new File([body], `big${i}.bin`));
    return dt;
  });
  await page.dispatchEvent('#census', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('#census', 'drop', { dataTransfer: dt });
  await page.waitForSelector('#census-cancel:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#census-progress').value === 5);
  const held = `5 / 20 files, ${((5 * 32 * 1024) / 1e6).toFixed(1)} MB`;
  assert.equal(await page.textContent('#census-status'), held);
  // The main thread answers while the worker works.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await page.click('#census-cancel');
  // "cancelled" shows once the worker has answered that it stopped.
  await page.waitForFunction(() => document.querySelector('#census-status').textContent === 'cancelled');
  const said = await page.evaluate(() => window.censusSaid);
  assert.deepEqual(said.filter((t) => / \/ 20 files/.test(t)).at(-1), held, 'no file was counted after the hold');
  assert.equal(await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport())), null, 'no report');
  assert.equal(await page.locator('#census-progress').isHidden(), true);
  assert.equal(await page.locator('#census-cancel').isHidden(), true);
  assert.equal(await page.locator('#tabs [role=tab]').count(), tabs, 'a drop on the census opens no tabs');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// ---- with a decoder: the real samples ----

/** Chunk ids of a .ply file, walked from the bytes as the vendor describes the loop
 * (magic, then id + payload); only the ids the test needs: counted by the test itself. */
function magic(buf) {
  return buf.subarray(0, 4).toString('latin1');
}

test('the real .ply samples censused together: files, formats and magics counted independently', { skip: needsSamples() }, async () => {
  const samples = gemPlyNames();
  assert.equal(samples.length, 6);
  const page = await openPage(env);
  await openCensus(page);
  await page.setInputFiles('#census-files', samples.map(gemPlyPath));
  const r = await waitDone(page);
  assert.equal(r.files, samples.length);
  assert.deepEqual(r.formats, { 'gem-ply': samples.length });
  const bytes = samples.reduce((n, f) => n + gemPly(f).length, 0);
  assert.equal(r.bytes, bytes);
  // The file size entry holds each file's size once.
  const size = r.entries.find((e) => e.kind === 'size' && e.record === '(file)');
  const sizes = samples.map((f) => gemPly(f).length);
  assert.deepEqual(size.values.map((v) => v.value).sort((a, b) => a - b), [...new Set(sizes)].sort((a, b) => a - b));
  // Some field holds the magic: EPLY on five files, BPLY on one (read from the bytes here).
  const magics = {};
  for (const f of samples) { const m = magic(gemPly(f)); magics[m] = (magics[m] ?? 0) + 1; }
  const magicEntry = r.entries.find((e) => e.kind === 'field' && e.values.some((v) => v.value === 'EPLY'));
  assert.ok(magicEntry, 'an entry holds the magic');
  assert.deepEqual(Object.fromEntries(magicEntry.values.map((v) => [v.value, v.count])), magics);

  // Table, histogram, a place that opens the file at its record.
  await page.fill('#census-filter', magicEntry.path);
  await page.click(`#census-table tbody tr[data-id="${magicEntry.id}"]`);
  await page.waitForSelector('.census-histogram .census-bar');
  assert.equal(await page.locator('.census-histogram .census-bar').count(), Object.keys(magics).length);
  assert.doesNotMatch(await page.textContent('#census-detail'), /null|undefined/);
  await page.screenshot({ path: `${OUT}census-samples.png` });
  const tabsBefore = await page.locator('#tabs [role=tab]').count();
  await page.locator('.census-place').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n + 1, tabsBefore);
  // The tab appears while the file opens; the place is selected once it is open.
  await page.waitForFunction(() => { const s = window.meshscope.state; return s.selection?.handle === s.active; });
  const sel = await page.evaluate(() => import('./web/state.js').then((m) => m.state.selection));
  assert.equal(sel.start, magicEntry.values[0].at[0].offset);
  assert.deepEqual(page.errors, []);
  await page.close();
});
