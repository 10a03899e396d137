// Recent files (issue #16): where the browser has the File System Access API, files opened with
// its picker are listed after a reload and reopen with one click; elsewhere the list says it
// needs a browser that supports it, and "Open files…" uses the file input. The picker is
// stood in for by files in the origin's private file system (real FileSystemFileHandles).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

async function open(page) {
  await page.goto(env.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
}

const tabs = (page) => page.locator('#tabs [role=tab]').allTextContents();

test('files opened with the picker are listed after a reload and reopen with one click', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.addInitScript(() => {
    window.showOpenFilePicker = async () => {
      const root = await navigator.storage.getDirectory();
      const out = [];
      for (const [name, bytes] of [['kept-a.bin', [1, 2, 3]], ['kept-b.bin', [4, 5, 6, 7]]]) {
        const h = await root.getFileHandle(name, { create: true });
        const w = await h.createWritable();
        await w.write(new Uint8Array(bytes));
        await w.close();
        out.push(h);
      }
      return out;
    };
  });
  await open(page);
  assert.match(await page.locator('#recent-list').textContent(), /listed here after a reload/);
  await page.click('#open-button');
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 3);
  assert.deepEqual(await tabs(page), ['sample.ply', 'kept-a.bin', 'kept-b.bin']);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await tabs(page), ['sample.ply'], 'a reload starts afresh');
  await page.click('#recent > summary');
  await page.waitForSelector('#recent-list .recent-file');
  assert.deepEqual((await page.locator('#recent-list .recent-file').allTextContents()).sort(), ['kept-a.bin', 'kept-b.bin']);
  await page.click('#recent-list .recent-file:text-is("kept-b.bin")');
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'kept-b.bin');
  const bytes = await page.evaluate(async () => Array.from(await window.meshscope.docs.bytes(window.meshscope.state.active, 0, 4)));
  assert.deepEqual(bytes, [4, 5, 6, 7], 'the file\'s own bytes');
  assert.equal(await page.locator('#recent').evaluate((d) => d.open), false, 'the list closes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('without the API the list says it needs a supporting browser, and Open files uses the file input', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(() => { delete window.showOpenFilePicker; });
  await open(page);
  assert.equal(await page.evaluate(() => typeof window.showOpenFilePicker), 'undefined');
  assert.match(await page.locator('#recent-list').textContent(), /^Recent files need a browser that supports the File System Access API/);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#open-button')]);
  assert.equal(chooser.isMultiple(), true);
  await chooser.setFiles({ name: 'picked.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([9]) });
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'picked.bin');
  await page.close();
});
