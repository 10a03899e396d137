// The keyboard (issue #16): every control in the Tab order, the structure tree as a WAI-ARIA
// tree, the file tabs as WAI-ARIA tabs, the census as a native <dialog> (Esc, focus back), and
// the hex grid's aria-rowcount and aria-activedescendant. The files are the built-in sample
// and bytes made here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** What has the focus, as a short name: its id, or role + data-path for tree items. */
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  if (a.getAttribute('role') === 'treeitem') return `treeitem:${a.dataset.path}`;
  if (a.getAttribute('role') === 'tab') return `tab:${a.textContent}`;
  if (a.tagName === 'SUMMARY') return `summary:${a.parentElement.id}`;
  return a.id || `${a.tagName.toLowerCase()}.${a.className}`;
});

async function choose(page, name, buffer) {
  const before = await page.locator('#tabs [role=tab]').count();
  await page.setInputFiles('#file-input', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForFunction((n) => document.querySelectorAll('#tabs [role=tab]').length === n, before + 1);
}

test('Tab reaches every control in order: open, recent, census, compare, the tab strip, link, toolbar, hex, splitters, tree', async () => {
  const page = await openPage(env);
  await page.waitForSelector('#tree [role=treeitem][tabindex="0"]');
  const seen = [];
  const covered = [];
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focused(page));
    // On screen and not under anything: the element at its middle is itself (or inside it).
    const free = await page.evaluate(() => {
      const a = document.activeElement;
      const r = a.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 8), r.top + Math.min(r.height / 2, 8));
      return r.width > 0 && r.bottom <= innerHeight && r.right <= innerWidth && (a === hit || a.contains(hit));
    });
    if (!free) covered.push(seen.at(-1));
  }
  assert.deepEqual(covered, [], 'every control reached is visible and uncovered');
  assert.deepEqual(seen.slice(0, 16), [
    'open-button', 'summary:recent', 'census-button', 'compare-button', 'tab:sample.ply', 'copy-link',
    'goto', 'find', 'find-mode', 'find-prev', 'find-next', 'hex', 'split-hex', 'treeitem:magic', 'split-tree', 'viewer-lod',
  ]);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'split-tree', 'Shift+Tab goes back');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the structure tree follows the WAI-ARIA tree pattern', async () => {
  const page = await openPage(env);
  await page.waitForSelector('#tree [role=treeitem][tabindex="0"]');
  // The visible items, computed from the document's tree: roots opened one level (8 roots).
  const tree = await page.evaluate(() => window.meshscope.docs.tree(window.meshscope.state.active));
  const visible = tree.flatMap((n) => [n, ...(n.children ?? [])]);
  assert.equal(tree.length, 8);
  assert.equal(await page.locator('#tree [role=treeitem][tabindex="0"]').count(), 1, 'one item in the Tab order');
  await page.focus('#tree [role=treeitem][tabindex="0"]');
  assert.equal(await focused(page), `treeitem:${visible[0].path}`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), `treeitem:${visible[1].path}`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), `treeitem:${visible[2].path}`, 'into the opened BNDS');
  assert.equal(await page.evaluate(() => document.activeElement.tabIndex), 0, 'the focused item is the one in the Tab order');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(page), `treeitem:${visible[1].path}`);
  // Left on an open item closes it; Left again does nothing more than stay (a root has no parent).
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator(`#tree [data-path="${visible[1].path}"]`).getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), `treeitem:${tree[2].path}`, 'a closed item\'s children are skipped');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator(`#tree [data-path="${visible[1].path}"]`).getAttribute('aria-expanded'), 'true', 'Right opens');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(page), `treeitem:${visible[2].path}`, 'Right on an open item goes to its first child');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(page), `treeitem:${visible[1].path}`, 'Left on a child goes to its parent');
  await page.keyboard.press('End');
  assert.equal(await focused(page), `treeitem:${visible.at(-1).path}`);
  await page.keyboard.press('Home');
  assert.equal(await focused(page), `treeitem:${visible[0].path}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const sel = await page.evaluate(() => window.meshscope.state.selection);
  assert.deepEqual([sel.start, sel.end], [visible[1].start, visible[1].end], 'Enter selects the item\'s bytes');
  assert.equal(await page.locator(`#tree [data-path="${visible[1].path}"]`).getAttribute('aria-selected'), 'true');
  await page.close();
});

test('the file tabs follow the tabs pattern: arrows, Home, End, Delete', async () => {
  const page = await openPage(env);
  await choose(page, 'one.bin', Buffer.alloc(40, 1));
  await choose(page, 'two.bin', Buffer.alloc(40, 2));
  const active = () => page.locator('#tabs [role=tab][aria-selected=true]').textContent();
  assert.equal(await page.locator('#tabs [role=tab][tabindex="0"]').count(), 1, 'one tab in the Tab order');
  await page.focus('#tabs [role=tab][aria-selected=true]');
  assert.equal(await focused(page), 'tab:two.bin');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await active(), 'one.bin');
  assert.equal(await focused(page), 'tab:one.bin', 'the focus moves with the selection');
  await page.keyboard.press('Home');
  assert.equal(await active(), 'sample.ply');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await active(), 'two.bin', 'Left from the first wraps to the last');
  await page.keyboard.press('Home');
  await page.keyboard.press('End');
  assert.equal(await focused(page), 'tab:two.bin');
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 2);
  assert.equal(await focused(page), 'tab:one.bin', 'Delete closes the tab; the focus stays in the strip');
  assert.equal(await page.evaluate(() => document.querySelector('#tabs .close').tabIndex), -1, 'the × buttons are for the mouse');
  await page.close();
});

test('the census is a native dialog: Esc closes it and the focus goes back', async () => {
  const page = await openPage(env);
  await page.focus('#census-button');
  await page.keyboard.press('Enter');
  await page.waitForSelector('dialog#census[open]');
  assert.equal(await page.evaluate(() => document.getElementById('census').matches(':modal')), true);
  assert.equal(await page.evaluate(() => document.getElementById('census').contains(document.activeElement)), true, 'the focus is in the dialog');
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog#census:not([open])', { state: 'attached' });
  assert.equal(await page.locator('#census').isHidden(), true);
  assert.equal(await focused(page), 'census-button', 'the focus is back where it was');
  // The × closes it too.
  await page.click('#census-button');
  await page.waitForSelector('dialog#census[open]');
  await page.click('#census-close');
  assert.equal(await page.evaluate(() => document.getElementById('census').open), false);
  assert.equal(await focused(page), 'census-button');
  await page.close();
});

test('clicking a census place opens the file in front (the dialog closes), and unexplained minimum and maximum are hex', async () => {
  const page = await openPage(env);
  await page.click('#census-button');
  // Three copies of the builder's MeshSet with its header word at 144 (a word no field covers)
  // set to 0x10, 0xa00 and 0xb0000: unexplained bytes, whose values the census shows in hex.
  const tails = [0x10, 0xa00, 0xb0000];
  await page.evaluate(async (tails) => {
    const base = window.meshscope.api.sample_meshset_files()[0].bytes;
    const dt = new DataTransfer();
    tails.forEach((t, i) => {
      const b = base.slice();
      new DataView(b.buffer).setUint32(144, t, true);
      dt.items.add(new File([b], `tail${i}.res`));
    });
    const input = document.getElementById('census-files');
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
  }, tails);
  await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 60000 });
  const entry = await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport().entries
    .find((e) => e.kind === 'uncovered' && e.record === 'header' && e.offset === 144 && e.width === 4)));
  assert.ok(entry, 'the header word at 144 is an unexplained entry');
  assert.equal(entry.distinct, 3);
  assert.deepEqual([entry.min, entry.max], [Math.min(...tails), Math.max(...tails)]);
  await page.click(`#census-table tr[data-id="${entry.id}"]`);
  const detail = await page.textContent('#census-detail p');
  assert.ok(detail.includes(', 0x00000010 (16) … 0x000b0000 (720896)'), detail);
  await page.locator('#census-detail .census-place').first().click();
  await page.waitForFunction(() => /^tail\d\.res$/.test(document.querySelector('#tabs [aria-selected=true]')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => document.getElementById('census').open), false, 'the dialog is not over the file');
  assert.equal(await focused(page), 'hex');
  await page.click('#census-button');
  assert.equal(await page.locator(`#census-table tr[data-id="${entry.id}"][aria-selected=true]`).count(), 1, 'it comes back as it was');
  await page.close();
});

test('the hex grid exposes aria-rowcount and the cursor as aria-activedescendant', async () => {
  const page = await openPage(env);
  await choose(page, 'rows.bin', Buffer.alloc(1000, 7));
  const hex = page.locator('#hex');
  assert.equal(await hex.getAttribute('aria-rowcount'), String(Math.ceil(1000 / 16)));
  assert.equal(await hex.getAttribute('aria-activedescendant'), null, 'no cursor yet');
  await page.click('#hex [data-offset="35"]');
  await page.waitForFunction(() => document.getElementById('hex').getAttribute('aria-activedescendant') === 'hex-cursor');
  assert.equal(await page.getAttribute('#hex-cursor', 'data-offset'), '35');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.getElementById('hex-cursor')?.dataset.offset === '51');
  assert.equal(await page.locator('#hex #hex-cursor').count(), 1);
  assert.equal(await page.getAttribute('#hex-cursor', 'role'), 'gridcell');
  await page.close();
});
