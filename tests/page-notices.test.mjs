// Notices and start-up (issue #16): a file that fails to open gets a notice naming it; notices
// stack, never cover a control, and go with ×, Esc or the next files; a file of no known
// format says what was expected; the Annotations form is hidden until asked for and an empty
// save says why; without IndexedDB the page still opens files and links; the drop zone; and
// files chosen, dropped or linked while the page starts are opened in order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { start, openPage, OUT } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

async function choose(page, files) {
  await page.setInputFiles('#file-input', files.map(([name, bytes]) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) })));
}
const tabs = (page) => page.locator('#tabs [role=tab]').allTextContents();
const notes = (page) => page.locator('#notice .note .note-text').allTextContents();
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('a file that fails to open gets a notice that names it; notices stack, never cover a control, and can be dismissed', async () => {
  const page = await openPage(env);
  // The worker refuses two names (as it does a file that cannot be read).
  await page.evaluate(() => {
    const { docs } = window.meshscope;
    const real = docs.openFile;
    docs.openFile = (f, p) => (f.name.startsWith('broken') ? Promise.reject(new Error('the file could not be read')) : real(f, p));
  });
  await choose(page, [['broken-1.bin', [1, 2, 3]], ['fine.bin', [4, 5, 6]], ['broken-2.bin', [7]]]);
  await page.waitForFunction(() => document.querySelectorAll('#notice .note').length === 2);
  assert.deepEqual(await notes(page), ['could not open broken-1.bin: the file could not be read', 'could not open broken-2.bin: the file could not be read']);
  assert.deepEqual(await tabs(page), ['sample.ply', 'fine.bin'], 'the file that opened still opens');
  // In the flow: no control is under a notice (the find buttons were, before).
  const boxes = await page.locator('#notice .note').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }));
  assert.ok(boxes[1].y >= boxes[0].y + boxes[0].height, 'stacked, newest last');
  for (const id of ['find', 'find-prev', 'find-next', 'goto', 'copy-link', 'open-button']) {
    const r = await page.locator(`#${id}`).boundingBox();
    assert.ok(!boxes.some((b) => overlaps(b, r)), `#${id} is not under a notice`);
    assert.equal(await page.evaluate((id) => { const e = document.getElementById(id); const r = e.getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === e; }, id), true, `#${id} is on top`);
  }
  // Esc takes the newest, × the other.
  await page.keyboard.press('Escape');
  assert.deepEqual(await notes(page), ['could not open broken-1.bin: the file could not be read']);
  await page.click('#notice .note-close');
  assert.equal(await page.locator('#notice').isHidden(), true);
  // Opening other files dismisses the last batch's notices.
  await choose(page, [['broken-3.bin', [1]]]);
  await page.waitForFunction(() => document.querySelectorAll('#notice .note').length === 1);
  await choose(page, [['fine-2.bin', [1]]]);
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'fine-2.bin');
  assert.equal(await page.locator('#notice .note').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a file of no known format says what was expected', async () => {
  const page = await openPage(env);
  const res = new Uint8Array(0xc0); // a MeshSet header would start c0/d0, b0/b8/bc, 384
  new DataView(res.buffer).setUint32(0, 0xc0, true);
  new DataView(res.buffer).setUint32(4, 0x99, true);
  await choose(page, [
    ['near.ply', [...Buffer.from('EPLX'), 0, 0, 0, 0]],
    ['other.ply', [...Buffer.from('ABCD'), 1, 2]],
    ['renamed.bin', [...Buffer.from('BPLZ'), 9]],
    ['header.res', [...res]],
    ['geometry.chunk', [1, 2, 3, 4]],
    ['plain.bin', [1, 2, 3, 4]],
  ]);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 7);
  const n = await notes(page);
  assert.deepEqual(n, [
    'near.ply: its first bytes "EPLX" (45 50 4c 58) are the GEM .ply magic EPLY with byte 3 changed; a .ply starts with EPLY, BPLY, PM01. It opened as unknown bytes.',
    'other.ply: a GEM .ply starts with EPLY, BPLY, PM01; it starts with "ABCD" (41 42 43 44). It opened as unknown bytes.',
    'renamed.bin: its first bytes "BPLZ" (42 50 4c 5a) are the GEM .ply magic BPLY with byte 3 changed; a .ply starts with EPLY, BPLY, PM01. It opened as unknown bytes.',
    'header.res: not a MeshSet resource as far as its header goes (LOD record size at 4 is 0x99, not 0xb0, 0xb8 or 0xbc; section record size at 8 is 0x0, not 0x180; LOD count at 0xb4 is 0, not 1 to 7). It opened as unknown bytes.',
    'geometry.chunk: a geometry chunk is known by the GUID in its name (32 hex digits, or the 8-4-4-4-12 form), and this name has none. Open its MeshSet and attach it by hand (Attach to MeshSet…).',
  ], 'plain.bin has nothing to say');
  // The file's own tab says it too, over its bytes, and a click shows the magic.
  await page.locator('#tabs [role=tab]', { hasText: 'near.ply' }).click();
  assert.equal(await page.locator('#errors .expected').textContent(), n[0]);
  await page.click('#errors .expected');
  const sel = await page.evaluate(() => window.meshscope.state.selection);
  assert.deepEqual([sel.start, sel.end], [0, 4]);
  await page.click('#errors .errors-close');
  assert.equal(await page.locator('#errors').isHidden(), true);
  await page.close();
});

test('the Annotations form is hidden until asked for, and saving it empty says what is missing', async () => {
  const page = await openPage(env);
  const form = page.locator('#annotations .ann-form');
  assert.equal(await form.isHidden(), true);
  assert.equal(await form.evaluate((f) => getComputedStyle(f).display), 'none', 'hidden wins over the form\'s grid');
  await page.click('#hex [data-offset="1"]');
  await page.click('#annotations .ann-new');
  assert.equal(await form.isVisible(), true);
  await page.click('#annotations .ann-form button[type=submit]');
  assert.equal(await page.locator('#annotations .ann-message[role=status]').textContent(), 'An annotation needs a name.');
  assert.equal(await page.evaluate(() => window.meshscope.annotations.store.list.length), 0);
  assert.equal(await page.evaluate(() => document.activeElement.name), 'name', 'the focus goes to the name');
  await page.close();
});

test('without IndexedDB the page still opens files and links, and says annotations will not be kept', async () => {
  const probe = await openPage(env);
  const sample = await probe.evaluate(() => Array.from(window.meshscope.api.sample_file()));
  await probe.close();
  writeFileSync(`${OUT}nodb-link.ply`, Buffer.from(sample));
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.addInitScript(() => {
    // A private window that refuses the database.
    Object.defineProperty(window, 'indexedDB', { value: { open() { throw new DOMException('The user denied permission to access the database.', 'SecurityError'); } } });
  });
  await page.goto(`${env.url}#src=tests/out/nodb-link.ply`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  assert.deepEqual(await tabs(page), ['nodb-link.ply'], 'the link opened');
  assert.match(await page.locator('#annotations .ann-storage').textContent(), /^Annotations will not be kept: this browser's storage \(IndexedDB\) is not available \(The user denied permission/);
  await choose(page, [['later.bin', [1, 2, 3]]]);
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'later.bin');
  // An annotation still works for this page.
  await page.click('#hex [data-offset="1"]');
  await page.click('#annotations .ann-new');
  await page.fill('#annotations .ann-form input[name=name]', 'kept here');
  await page.click('#annotations .ann-form button[type=submit]');
  await page.waitForSelector('#annotations .ann-item');
  assert.match(await page.locator('#annotations .ann-message[role=status]').textContent(), /saved "kept here" \(in this page only/);
  assert.match(await page.locator('#recent-list').textContent(), /cannot be kept|need a browser/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a drop zone shows while files are dragged over the page', async () => {
  const page = await openPage(env);
  const dt = await page.evaluateHandle(() => { const d = new DataTransfer(); d.items.add(new File([new Uint8Array([9, 8, 7])], 'dragged.bin')); return d; });
  const text = await page.evaluateHandle(() => { const d = new DataTransfer(); d.setData('text/plain', 'words'); return d; });
  await page.dispatchEvent('#hex', 'dragenter', { dataTransfer: text });
  assert.equal(await page.locator('#drop-hint').isHidden(), true, 'dragged text is not files');
  await page.dispatchEvent('#hex', 'dragleave', { dataTransfer: text });
  await page.dispatchEvent('#hex', 'dragenter', { dataTransfer: dt });
  assert.equal(await page.locator('#drop-hint').isVisible(), true);
  assert.equal(await page.locator('#drop-hint').textContent(), 'Drop files to open them');
  // Entering a child and leaving the parent keeps it; leaving both hides it.
  await page.dispatchEvent('#tree', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('#hex', 'dragleave', { dataTransfer: dt });
  assert.equal(await page.locator('#drop-hint').isVisible(), true);
  await page.dispatchEvent('#tree', 'dragleave', { dataTransfer: dt });
  assert.equal(await page.locator('#drop-hint').isHidden(), true);
  await page.dispatchEvent('#hex', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('#hex', 'drop', { dataTransfer: dt });
  assert.equal(await page.locator('#drop-hint').isHidden(), true);
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'dragged.bin');
  await page.close();
});

test('files chosen and dropped while the page starts are opened once it is ready, after its link, in order', async () => {
  const probe = await openPage(env);
  const sample = await probe.evaluate(() => Array.from(window.meshscope.api.sample_file()));
  await probe.close();
  writeFileSync(`${OUT}queue-link.ply`, Buffer.from(sample));
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  // The page's wasm is held back, so the page is still starting while files come.
  const held = [];
  let hold = true;
  await page.route('**/meshscope_bg.wasm', (route) => { if (hold) held.push(route); else route.continue(); });
  await page.goto(`${env.url}#src=tests/out/queue-link.ply`);
  await page.waitForSelector('body[data-starting="true"]', { state: 'attached' });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined, 'still starting');
  await choose(page, [['first.bin', [1]]]);
  const dt = await page.evaluateHandle(() => { const d = new DataTransfer(); d.items.add(new File([new Uint8Array([2])], 'second.bin')); return d; });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await choose(page, [['third.bin', [3]]]);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined, 'still starting');
  hold = false;
  for (const r of held) await r.continue();
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 4, null, { timeout: 30000 });
  assert.deepEqual(await tabs(page), ['queue-link.ply', 'first.bin', 'second.bin', 'third.bin'], 'nothing lost, in order, no sample');
  assert.equal(await page.locator('#tabs [aria-selected=true]').textContent(), 'third.bin');
  await page.close();
});
