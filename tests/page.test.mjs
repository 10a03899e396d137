// The inspector page: hex view over the document worker, keyboard, go to and find, the
// value inspector, the legend in both themes, and strings from files shown as text.
// Tests that need decoded spans are in page-decoded.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT, imageErrorsReported } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** Opens `buffer` as `name` through the file input and waits until its first bytes show. */
async function choose(page, name, buffer) {
  const before = await page.locator('#tabs [role=tab]').count();
  await page.setInputFiles('#file-input', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, before + 1);
  await page.waitForSelector('#hex [data-offset="0"]');
}

/** Reference djb2-XOR, written from its definition: h = 5381, then h = h * 33 ^ byte (u32). */
function djb2xor(bytes) {
  let h = 5381;
  for (const b of bytes) h = (Math.imul(h, 33) ^ b) >>> 0;
  return h;
}

test('only the rows on screen exist, and go to offset selects and shows a byte deep in a large file', async () => {
  const page = await openPage(env);
  const size = 64 * 1024 * 1024;
  // Made in the page: a 64 MB file whose byte i is (i * 31 + 7) & 0xff.
  await page.evaluate(async (size) => {
    // Record what the progress line says while the file is read and decoded.
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push(document.getElementById('progress-label').textContent))
      .observe(document.getElementById('progress-wrap'), { subtree: true, childList: true, characterData: true, attributes: true });
    const b = new Uint8Array(size);
    for (let i = 0; i < size; i++) b[i] = (i * 31 + 7) & 0xff;
    const input = document.getElementById('file-input');
    const dt = new DataTransfer();
    dt.items.add(new File([b], 'big.bin'));
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
  }, size);
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'big.bin');
  await page.waitForSelector('#hex [data-confidence]');
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((t) => /^reading big\.bin \d+% of 64 MB$/.test(t)), `progress shown while reading: ${seen}`);
  assert.ok(seen.some((t) => t.startsWith('decoding big.bin')), 'and while decoding');
  assert.equal(await page.locator('#progress-wrap').isHidden(), true, 'and gone when done');
  const cells = await page.locator('#hex [data-offset]').count();
  assert.ok(cells > 16 && cells <= 80 * 16, `${cells} byte cells in the DOM for a 64 MB file`);
  const target = 0x2345678;
  await page.fill('#goto', `0x${target.toString(16)}`);
  await page.press('#goto', 'Enter');
  const cell = page.locator(`#hex [data-offset="${target}"]`);
  await cell.waitFor();
  assert.equal(await cell.getAttribute('aria-selected'), 'true');
  assert.equal(parseInt(await cell.textContent(), 16), (target * 31 + 7) & 0xff);
  assert.equal(await page.locator('#hex [aria-selected=true]').count(), 1);
  assert.ok(await page.locator('#hex [data-offset]').count() <= 80 * 16);
  // The offset column of the row that holds it.
  const rowOff = await cell.evaluate((c) => c.closest('.hex-row').querySelector('.hex-off').textContent);
  assert.equal(parseInt(rowOff, 16), target - (target % 16));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('keyboard: arrows, page down, home and end move the selected byte', async () => {
  const page = await openPage(env);
  await choose(page, 'keys.bin', Buffer.alloc(5000, 0x41));
  await page.click('#hex [data-offset="18"]');
  // Rows are reused as they scroll, so DOM order is not offset order: sort.
  const selected = () => page.evaluate(() => [...document.querySelectorAll('#hex [aria-selected=true]')].map((c) => Number(c.dataset.offset)).sort((a, b) => a - b));
  // A click asks the worker for the field under it: wait for the answer.
  await page.waitForFunction(() => window.meshscope.state.selection?.start === 18);
  assert.deepEqual(await selected(), [18], 'an uncovered byte selects itself');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await selected(), [19]);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await selected(), [35]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await selected(), [18]);
  await page.keyboard.press('Home');
  assert.deepEqual(await selected(), [16]);
  await page.keyboard.press('End');
  assert.deepEqual(await selected(), [31]);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  assert.deepEqual(await selected(), [31, 32, 33], 'shift extends the selection');
  const rows = await page.evaluate(() => window.meshscope.hex.visibleRows);
  await page.keyboard.press('PageDown');
  await page.waitForFunction((o) => document.querySelector(`#hex [data-offset="${o}"]`)?.getAttribute('aria-selected') === 'true', 33 + rows * 16);
  await page.keyboard.press('Control+End');
  await page.waitForFunction(() => document.querySelector('#hex [data-offset="4999"]')?.getAttribute('aria-selected') === 'true');
  await page.keyboard.press('Control+Home');
  await page.waitForFunction(() => document.querySelector('#hex [data-offset="0"]')?.getAttribute('aria-selected') === 'true');
  await page.close();
});

test('find bytes (hex) and text, forward, backward and wrapping', async () => {
  const page = await openPage(env);
  const bytes = Buffer.alloc(200000, 0);
  Buffer.from('needle').copy(bytes, 1000);
  Buffer.from('needle').copy(bytes, 150000);
  Buffer.from([0xde, 0xad, 0xbe, 0xef]).copy(bytes, 77777);
  await choose(page, 'hay.bin', bytes);
  const sel = () => page.evaluate(() => { const s = window.meshscope.state.selection; return s && [s.start, s.end]; });
  await page.fill('#find', 'de ad be ef');
  await page.press('#find', 'Enter');
  await page.waitForFunction(() => window.meshscope.state.selection?.start === 77777);
  assert.deepEqual(await sel(), [77777, 77781]);
  assert.equal(await page.locator('#hex [data-offset="77780"]').getAttribute('aria-selected'), 'true');
  await page.selectOption('#find-mode', 'text');
  await page.fill('#find', 'needle');
  await page.press('#find', 'Enter');
  await page.waitForFunction(() => window.meshscope.state.selection?.start === 150000);
  await page.press('#find', 'Enter');
  await page.waitForFunction(() => window.meshscope.state.selection?.start === 1000, null, { timeout: 5000 });
  await page.press('#find', 'Shift+Enter');
  await page.waitForFunction(() => window.meshscope.state.selection?.start === 150000, null, { timeout: 5000 });
  await page.fill('#find', 'absent');
  await page.press('#find', 'Enter');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('not found'));
  await page.close();
});

test('the value inspector reads the bytes at the cursor in every width, both endians', async () => {
  const page = await openPage(env);
  const b = Buffer.alloc(64);
  b.writeUInt32LE(0xdeadbeef, 16);
  b.writeFloatLE(1.5, 20);
  b.writeUInt16BE(0x3c00, 24); // 1.0 as big-endian f16
  Buffer.from('00112233445566778899aabbccddeeff', 'hex').copy(b, 32);
  await choose(page, 'values.bin', b);
  const row = async (label) => page.evaluate((label) => {
    const r = [...document.querySelectorAll('#inspector table tr')].find((tr) => tr.firstChild.textContent === label);
    return r ? [...r.children].slice(1).map((c) => c.textContent) : null;
  }, label);
  await page.click('#hex [data-offset="16"]');
  await page.waitForSelector('#inspector table');
  assert.deepEqual(await row('u32'), [String(0xdeadbeef), String(0xefbeadde)]);
  assert.deepEqual(await row('i32'), [String(0xdeadbeef | 0), String(0xefbeadde | 0)]);
  assert.deepEqual(await row('u8'), ['239', '239']);
  assert.deepEqual(await row('i8'), ['-17', '-17']);
  assert.deepEqual(await row('u64'), [String(b.readBigUInt64LE(16)), String(b.readBigUInt64BE(16))]);
  await page.click('#hex [data-offset="20"]');
  await page.waitForFunction(() => document.querySelector('.insp-head')?.textContent.startsWith('cursor 0x14'));
  assert.equal((await row('f32'))[0], '1.5');
  await page.click('#hex [data-offset="24"]');
  await page.waitForFunction(() => document.querySelector('.insp-head')?.textContent.startsWith('cursor 0x18'));
  assert.equal((await row('f16'))[1], '1');
  await page.click('#hex [data-offset="32"]');
  await page.waitForFunction(() => document.querySelector('.insp-head')?.textContent.startsWith('cursor 0x20'));
  const extra = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.insp-extra dt')].map((dt) => [dt.textContent, dt.nextSibling.textContent])));
  assert.equal(extra.GUID, '33221100-5544-7766-8899-aabbccddeeff');
  assert.equal(extra['GUID bytes'], '00112233-4455-6677-8899-aabbccddeeff');
  // Hash of a selection: bytes 32..40 selected with shift+click.
  await page.click('#hex [data-offset="39"]', { modifiers: ['Shift'] });
  const want = djb2xor(b.subarray(32, 40));
  await page.waitForFunction((w) => document.querySelector('.insp-extra')?.textContent.includes(`0x${w.toString(16).padStart(8, '0')}`), want);
  await page.close();
});

test('strings from files are text: a file named like an HTML tag runs nothing', async () => {
  const page = await openPage(env);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  const evil = '<img src=x onerror=alert(1)>';
  await choose(page, evil, Buffer.from('hello'));
  assert.equal(await page.locator('#tabs [aria-selected=true]').textContent(), evil);
  assert.equal(await page.locator('#summary dd').first().textContent(), evil);
  assert.equal(await page.locator('img').count(), 0, 'no element was made from the name');
  await imageErrorsReported(page);
  assert.equal(dialogs, 0);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/, 'no inline script may run');
  await page.close();
});

test('the legend shows five distinct colors in the light and the dark theme, and the layout leaves room for the 3D view', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openPage(env);
    await page.emulateMedia({ colorScheme: scheme });
    const legend = await page.evaluate(() => [...document.querySelectorAll('#legend .legend-item[data-level]')]
      .map((e) => [e.dataset.level, getComputedStyle(e).backgroundColor]));
    assert.deepEqual(legend.map(([l]) => l), ['proven', 'observed', 'inferred', 'unknown', 'uncovered']);
    assert.equal(new Set(legend.map(([, c]) => c)).size, 5, `${scheme}: ${JSON.stringify(legend)}`);
    assert.equal(await page.locator('#viewer-pane').count(), 1);
    await page.click('#hex [data-offset="0"]');
    await page.screenshot({ path: `${OUT}page-${scheme}.png` });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('hovering a byte shows a tooltip below it that does not cover it', async () => {
  const page = await openPage(env);
  await choose(page, 'hover.bin', Buffer.alloc(256, 7));
  await page.hover('#hex [data-offset="40"]');
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.equal(await page.locator('#tooltip').getAttribute('data-offset'), '40');
  assert.match(await page.locator('#tooltip').textContent(), /uncovered/);
  const [cell, tip] = await Promise.all([
    page.locator('#hex [data-offset="40"]').boundingBox(),
    page.locator('#tooltip').boundingBox(),
  ]);
  const overlaps = cell.x < tip.x + tip.width && tip.x < cell.x + cell.width && cell.y < tip.y + tip.height && tip.y < cell.y + cell.height;
  assert.equal(overlaps, false);
  await page.close();
});

test('an empty file opens without errors and the keys do nothing', async () => {
  const page = await openPage(env);
  await page.setInputFiles('#file-input', { name: 'empty.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0) });
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'empty.bin');
  await page.focus('#hex');
  for (const k of ['ArrowRight', 'PageDown', 'End', 'Enter']) await page.keyboard.press(k);
  // Enter would ask the worker for a field: a call made after it is answered after it.
  await page.evaluate(() => window.meshscope.docs.span_at(window.meshscope.state.active, 0));
  assert.equal(await page.locator('#hex [data-offset]').count(), 0);
  assert.equal(await page.evaluate(() => window.meshscope.state.selection), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});
