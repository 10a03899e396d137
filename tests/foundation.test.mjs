// The foundation: the page loads the wasm, opens its built-in sample, and opens files
// chosen through the file input or dropped on the page, showing their bytes in the hex view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The bytes the hex view shows for its first `n` offsets, read back from the DOM. */
async function shownBytes(page, n) {
  return page.evaluate((n) => {
    const out = [];
    for (let o = 0; o < n; o++) {
      const cell = document.querySelector(`#hex [data-offset="${o}"]`);
      out.push(cell ? parseInt(cell.textContent, 16) : null);
    }
    return out;
  }, n);
}

test('the page opens the built-in sample with its bytes in the hex view', async () => {
  const page = await openPage(env);
  const tabs = await page.locator('#tabs [role=tab]').allTextContents();
  assert.deepEqual(tabs, ['sample.ply']);
  const first = await shownBytes(page, 4);
  assert.deepEqual(first, [...Buffer.from('EPLY')]);
  await page.screenshot({ path: `${OUT}foundation-sample.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a file chosen through the file input opens in a tab with its bytes shown', async () => {
  const page = await openPage(env);
  const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7 + 3) & 0xff));
  await page.setInputFiles('#file-input', { name: 'chosen.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 2);
  assert.equal(await page.locator('#tabs [aria-selected=true]').textContent(), 'chosen.bin');
  assert.deepEqual(await shownBytes(page, 32), [...bytes.subarray(0, 32)]);
  const conf = await page.locator('#hex [data-offset="5"]').getAttribute('data-confidence');
  assert.equal(conf, 'uncovered', 'an unknown format opens as raw, uncovered bytes');
  await page.close();
});

test('a file dropped on the page opens with its bytes shown', async () => {
  const page = await openPage(env);
  const bytes = [0xde, 0xad, 0xbe, 0xef, ...Array.from({ length: 60 }, (_, i) => i)];
  const dt = await page.evaluateHandle((bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], 'dropped.bin'));
    return dt;
  }, bytes);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'dropped.bin');
  assert.deepEqual(await shownBytes(page, bytes.length), bytes);
  assert.equal(await page.locator('#drop-hint').isHidden(), true);
  await page.close();
});
