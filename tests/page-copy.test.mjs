// Copying and drag-selecting in the hex view (issue #16): Ctrl+C copies the selection as hex;
// the context menu copies it as hex, text, a C array, Python bytes and base64, and the
// field's value and path; dragging over the hex or the text column selects, and scrolls past
// an edge. Expected texts are written here from the bytes, not read back from the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

async function page0() {
  const page = await openPage(env);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url.replace(/\/$/, '') });
  return page;
}

async function choose(page, name, buffer) {
  const before = await page.locator('#tabs [role=tab]').count();
  await page.setInputFiles('#file-input', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, before + 1);
  await page.waitForSelector('#hex [data-offset="0"][data-confidence]');
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());
const selection = (page) => page.evaluate(() => {
  const s = window.meshscope.state.selection;
  return s && [s.start, s.end, window.meshscope.state.cursor];
});

/** Waits until the status line says something was copied, after clearing the clipboard. */
async function copied(page, run) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.evaluate(() => { document.getElementById('status').textContent = ''; });
  await run();
  await page.waitForFunction(() => /^copied /.test(document.getElementById('status').textContent));
  return clipboard(page);
}

// Bytes 0..255 then "Hello" etc.: printable and not.
const BYTES = Buffer.from([...Array.from({ length: 48 }, (_, i) => (i * 37 + 5) & 0xff), ...Buffer.from('Hi "there"\\\n'), ...Array(200).fill(0x41)]);
const hex = (b) => [...b].map((v) => v.toString(16).padStart(2, '0')).join(' ');

test('Ctrl+C copies the selection as hex', async () => {
  const page = await page0();
  await choose(page, 'copy.bin', BYTES);
  await page.click('#hex [data-offset="3"]');
  await page.click('#hex [data-offset="10"]', { modifiers: ['Shift'] });
  assert.deepEqual(await selection(page), [3, 11, 10]);
  const text = await copied(page, () => page.keyboard.press('Control+C'));
  assert.equal(text, hex(BYTES.subarray(3, 11)));
  assert.equal(text, [...BYTES.subarray(3, 11)].map((v) => v.toString(16).padStart(2, '0')).join(' '));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the context menu copies the selection as hex, text, a C array, Python bytes and base64', async () => {
  const page = await page0();
  await choose(page, 'copy.bin', BYTES);
  // Bytes 40..61: both sides of the printable text.
  await page.click('#hex [data-offset="40"]');
  await page.click('#hex [data-offset="61"]', { modifiers: ['Shift'] });
  const b = BYTES.subarray(40, 62);
  const printable = [...b].map((v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.')).join('');
  const lines = [];
  for (let i = 0; i < b.length; i += 12) lines.push(`  ${[...b.subarray(i, i + 12)].map((v) => `0x${v.toString(16).padStart(2, '0')}`).join(', ')},`);
  const expected = {
    'Copy as hex': hex(b),
    'Copy as text': printable,
    'Copy as C array': `const unsigned char data[22] = {\n${lines.join('\n')}\n};`,
    'Copy as Python bytes': `b'${[...b].map((v) => `\\x${v.toString(16).padStart(2, '0')}`).join('')}'`,
    'Copy as base64': Buffer.from(b).toString('base64'),
  };
  assert.equal(printable.slice(8), 'Hi "there"\\.AA');
  for (const [label, want] of Object.entries(expected)) {
    await page.click('#hex [data-offset="45"]', { button: 'right' });
    await page.waitForSelector('#hex-menu[role=menu]');
    assert.deepEqual(await selection(page), [40, 62, 61], 'a right click inside the selection keeps it');
    const got = await copied(page, () => page.click(`#hex-menu [role=menuitem]:text-is("${label}")`));
    assert.equal(got, want, label);
    assert.equal(await page.locator('#hex-menu').count(), 0, 'the menu closes');
  }
  // By keyboard: Shift+F10 opens it, arrows move, Enter copies, Esc closes with the focus back.
  await page.focus('#hex');
  await page.keyboard.press('Shift+F10');
  await page.waitForSelector('#hex-menu');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Copy as hex');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await copied(page, () => page.keyboard.press('Enter')), expected['Copy as C array']);
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Copy field path');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#hex-menu').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'hex');
  // A right click outside the selection selects the byte there first (a raw file: one byte).
  await page.click('#hex [data-offset="100"]', { button: 'right' });
  await page.waitForSelector('#hex-menu');
  assert.deepEqual(await selection(page), [100, 101, 100]);
  await page.keyboard.press('Escape');
  await page.close();
});

test('the context menu copies the field value and path at the cursor', async () => {
  const page = await page0(); // the built-in sample: a .ply whose first field is its magic
  await page.waitForSelector('#hex [data-offset="1"][data-confidence]');
  await page.click('#hex [data-offset="1"]', { button: 'right' });
  await page.waitForSelector('#hex-menu');
  assert.deepEqual(await selection(page), [0, 4, 1], 'the magic field');
  assert.equal(await copied(page, () => page.click('#hex-menu [role=menuitem]:text-is("Copy field path")')), 'magic');
  await page.click('#hex [data-offset="1"]', { button: 'right' });
  const value = await copied(page, () => page.click('#hex-menu [role=menuitem]:text-is("Copy field value")'));
  assert.match(value, /EPLY/);
  await page.close();
});

test('dragging over the hex or the text column selects a range; past the bottom edge the view scrolls', async () => {
  const page = await page0();
  const size = 64 * 1024;
  await choose(page, 'drag.bin', Buffer.from(Array.from({ length: size }, (_, i) => (i * 7) & 0xff)));
  const center = async (sel) => {
    const r = await page.locator(sel).boundingBox();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  // Hex column: 0x10 to 0x25.
  await page.mouse.move(...(await center('#hex [data-offset="16"]')));
  await page.mouse.down();
  await page.mouse.move(...(await center('#hex [data-offset="37"]')), { steps: 4 });
  await page.mouse.up();
  assert.deepEqual(await selection(page), [0x10, 0x26, 0x25]);
  // Text column: the characters of bytes 0x40 to 0x47 (row 4, columns 0 and 7).
  const ch = (row, col) => `#hex .hex-row[aria-rowindex="${row + 1}"] .hex-ascii .c:nth-child(${col + 1})`;
  await page.mouse.move(...(await center(ch(4, 0))));
  await page.mouse.down();
  await page.mouse.move(...(await center(ch(4, 7))), { steps: 3 });
  await page.mouse.up();
  assert.deepEqual(await selection(page), [0x40, 0x48, 0x47]);
  // Shift+arrows extend from where the drag began.
  await page.keyboard.press('Shift+ArrowRight');
  assert.deepEqual(await selection(page), [0x40, 0x49, 0x48]);
  // Past the bottom: the view scrolls while the button is held, and the selection follows.
  const box = await page.locator('#hex .hex-rows').boundingBox();
  const lastShown = await page.evaluate(() => Math.max(...[...document.querySelectorAll('#hex .b[data-offset]')].map((c) => Number(c.dataset.offset))));
  await page.mouse.move(...(await center('#hex [data-offset="32"]')));
  await page.mouse.down();
  await page.mouse.move(box.x + 100, box.y + box.height + 60, { steps: 5 });
  await page.waitForFunction((last) => window.meshscope.state.selection.end > last + 16 * 40 && window.meshscope.hex.top > 40, lastShown);
  await page.mouse.up();
  const [s, e, cur] = await selection(page);
  assert.equal(s, 32);
  assert.equal(cur, e - 1, 'the cursor is the last byte dragged to');
  const top = await page.evaluate(() => window.meshscope.hex.top);
  const viewH = await page.evaluate(() => window.meshscope.hex.viewH);
  assert.equal(Math.floor(cur / 16), top + Math.floor((viewH - 1) / 20), 'the cursor is on the row at the bottom edge (20 px rows)');
  // Released, it stops: two frames later the view is where it was.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  assert.equal(await page.evaluate(() => window.meshscope.hex.top), top);
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#hex .hex-rows')).userSelect), 'none', 'no text selection fights the drag');
  await page.close();
});
