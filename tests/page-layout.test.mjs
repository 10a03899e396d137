// The layout (issue #16): from 800 × 600 to 2560 px the panes stack or shrink and the 3D view
// takes the room it is given; the panel borders can be dragged and the sizes are kept; the tab
// strip scrolls to the active tab and the status line follows it; the 3D controls reset for a
// file without a mesh; "Attach to MeshSet…" shows only where it applies; the 3D view's
// background follows the theme, and the page really shows the scheme asked for; a link keeps
// the 3D view's pass. Screenshots in light and dark go to tests/out/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { start, openPage, OUT, dropFiles } from './browser.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const open = (viewport, colorScheme = 'light', hash = '') => openPage(env, hash, { viewport, colorScheme });

const sampleFiles = (page) => page.evaluate(() => window.meshscope.api.sample_meshset_files()
  .map((f) => ({ name: f.name, bytes: Array.from(f.bytes) })));

/** Opens the builder's MeshSet with its chunk and waits for its mesh to be drawn. */
async function openMeshSet(page) {
  const files = await sampleFiles(page);
  await dropFiles(page, files);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 3);
  await page.locator('#tabs [role=tab]', { hasText: files[0].name }).click();
  await page.waitForFunction(() => Number(document.getElementById('viewer-canvas').dataset.frames) > 0 && document.getElementById('viewer-info').textContent.includes('2 sections'));
  return files;
}

/** The page's colors in each scheme, as web/style.css declares --bg, --panel and --proven. */
const THEME = {
  light: { bg: 'rgb(251, 251, 248)', panel: 'rgb(255, 255, 255)', proven: 'rgb(169, 213, 245)' },
  dark: { bg: 'rgb(23, 24, 26)', panel: 'rgb(30, 31, 34)', proven: 'rgb(18, 64, 92)' },
};

/** The scheme the page really shows: what it matches and the colors it paints with. */
const shownTheme = async (page) => (await page.waitForSelector('#hex .hex-row .b.lv-proven')) && page.evaluate(() => ({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  bg: getComputedStyle(document.body).backgroundColor,
  panel: getComputedStyle(document.getElementById('top')).backgroundColor,
  proven: getComputedStyle(document.querySelector('#hex .hex-row .b.lv-proven')).backgroundColor,
}));

const rect = (page, sel) => page.locator(sel).evaluate((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom }; });

for (const [w, h] of [[800, 600], [1400, 900], [1920, 1080], [2560, 1440]]) {
  test(`the layout at ${w} × ${h}: nothing spills over, the hex rows fit, the 3D view takes its room`, async () => {
    for (const scheme of ['light', 'dark']) {
      const png = `${OUT}layout-${w}x${h}-${scheme}.png`;
      rmSync(png, { force: true }); // a failed run leaves no picture of an earlier one
      const page = await open({ width: w, height: h }, scheme);
      await openMeshSet(page);
      const theme = await shownTheme(page);
      assert.equal(theme.dark, scheme === 'dark', `the page sees the ${scheme} scheme`);
      assert.equal(theme.bg, THEME[scheme].bg, `the ${scheme} page background`);
      assert.equal(theme.panel, THEME[scheme].panel, `the ${scheme} panel background`);
      assert.equal(theme.proven, THEME[scheme].proven, `the ${scheme} color of a proven byte in the hex rows`);
      const docW = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.equal(docW, w, 'no horizontal overflow');
      const hex = await rect(page, '#hex-pane');
      const lastChar = await rect(page, '#hex .hex-row[aria-rowindex="1"] .hex-ascii .c:last-child');
      assert.ok(lastChar.right <= hex.right, `the 16th character of a row (${lastChar.right}) is inside the hex pane (${hex.right})`);
      const canvas = await rect(page, '#viewer-canvas');
      const info = await page.locator('#info-pane').evaluate((e) => e.clientWidth);
      assert.equal(Math.round(canvas.w), info, 'the 3D view is as wide as its column');
      // As tall as wide, up to 60% of the window's height.
      assert.equal(Math.round(canvas.h), Math.round(Math.max(200, Math.min(info, 0.6 * h))));
      const tree = await rect(page, '#tree-pane');
      if (w < 960) {
        assert.equal(Math.round(hex.w), w, 'stacked: the hex pane takes the width');
        assert.ok(tree.y >= hex.bottom && (await rect(page, '#info-pane')).y >= tree.bottom, 'hex, tree, then the rest');
        assert.equal(info, w);
      } else if (w < 1360) {
        assert.ok(tree.x >= hex.right && tree.y >= canvas.bottom, 'the tree under the 3D view, right of the hex');
      } else {
        assert.equal(Math.round(hex.w), 640);
        assert.equal(Math.round(tree.w), 300);
        assert.equal(info, w - 640 - 300 - 10, 'the 3D column takes the rest');
      }
      // The status line spans the window under the panes and wraps a long line.
      const status = await rect(page, '#status');
      assert.ok(status.w >= w - 24 && status.y >= (await rect(page, '#panes')).bottom, 'the status line takes the width, under the panes');
      assert.equal(await page.locator('#status').evaluate((e) => getComputedStyle(e).whiteSpace), 'normal');
      await page.screenshot({ path: png });
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });
}

test('the panel borders can be dragged, by mouse or keys, and the sizes are kept', async () => {
  const page = await open({ width: 1400, height: 900 });
  const drag = async (sel, dx) => {
    const r = await rect(page, sel);
    await page.mouse.move(r.x + r.w / 2, r.y + 200);
    await page.mouse.down();
    await page.mouse.move(r.x + r.w / 2 + dx, r.y + 200, { steps: 5 });
    await page.mouse.up();
  };
  await drag('#split-hex', -100);
  assert.equal(Math.round((await rect(page, '#hex-pane')).w), 540);
  await drag('#split-tree', 60);
  assert.equal(Math.round((await rect(page, '#tree-pane')).w), 360);
  await page.focus('#split-hex');
  await page.keyboard.press('ArrowRight');
  assert.equal(Math.round((await rect(page, '#hex-pane')).w), 556, 'a key moves it by 16 px');
  assert.equal(await page.getAttribute('#split-hex', 'aria-valuenow'), '556');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(Math.round((await rect(page, '#hex-pane')).w), 556, 'kept after a reload');
  assert.equal(Math.round((await rect(page, '#tree-pane')).w), 360);
  // It cannot squeeze the 3D column under its minimum.
  await drag('#split-hex', 2000);
  const info = await page.locator('#info-pane').evaluate((e) => e.clientWidth);
  assert.ok(info >= 280, `the 3D column keeps ${info} px`);
  await page.close();
});

test('the tab strip scrolls to the active tab, and the status line follows the tab', async () => {
  const page = await open({ width: 1400, height: 900 });
  const files = Array.from({ length: 12 }, (_, i) => ({ name: `a-rather-long-file-name-number-${i}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.from([i, i, i]) }));
  await page.setInputFiles('#file-input', files);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 13);
  const inStrip = async () => {
    const strip = await rect(page, '#tabs');
    const tab = await rect(page, '#tabs [role=tab][aria-selected=true]');
    const link = await rect(page, '#copy-link');
    return tab.x >= strip.x - 0.5 && tab.right <= strip.right + 0.5 && tab.right <= link.x;
  };
  assert.equal(await page.locator('#tabs [aria-selected=true]').textContent(), files[11].name);
  assert.ok(await inStrip(), 'the last tab opened is in view, not under "Copy link"');
  assert.ok(await page.evaluate(() => document.getElementById('tabs').scrollLeft > 0), 'the strip scrolled');
  assert.equal(await page.textContent('#status'), `${files[11].name}: unknown, 3 bytes`);
  await page.focus('#tabs [aria-selected=true]');
  await page.keyboard.press('Home');
  assert.ok(await inStrip(), 'back to the first tab, in view');
  assert.equal(await page.evaluate(() => document.getElementById('tabs').scrollLeft), 0);
  assert.match(await page.textContent('#status'), /^sample\.ply: gem-ply, 15,914 bytes/);
  await page.close();
});

test('the 3D controls reset for a file without a mesh, and "Attach to MeshSet…" shows only where it applies', async () => {
  const page = await open({ width: 1400, height: 900 });
  const files = await openMeshSet(page);
  assert.equal(await page.locator('#viewer-sections summary').textContent(), 'Sections (2)');
  assert.equal(await page.locator('#viewer-pass').isVisible(), true);
  assert.equal(await page.locator('#attach-wrap').isVisible(), true, 'on the MeshSet\'s tab');
  assert.deepEqual(await page.locator('#attach-wrap option').allTextContents(), ['Attach to MeshSet…', 'LOD 0 ← a file…']);
  await page.setInputFiles('#file-input', { name: 'raw.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(64, 3) });
  await page.waitForFunction(() => document.querySelector('#tabs [aria-selected=true]')?.textContent === 'raw.bin');
  await page.waitForFunction(() => document.getElementById('viewer-message').textContent === 'No mesh decoded for this file.');
  assert.equal(await page.locator('#viewer-pass').isHidden(), true, 'no "All passes" of the last file');
  assert.equal(await page.locator('#viewer-sections').isHidden(), true, 'no "Sections (2)" of the last file');
  assert.equal(await page.locator('#viewer-lod option').count(), 0);
  assert.equal(await page.locator('#viewer-legend').isHidden(), true);
  assert.equal(await page.textContent('#viewer-info'), '');
  assert.deepEqual(await page.locator('#attach-wrap option').allTextContents(), ['Attach to MeshSet…', `${files[0].name}, LOD 0`], 'a loose file may be a chunk');
  await page.locator('#tabs [role=tab]', { hasText: 'sample.ply' }).click();
  assert.equal(await page.locator('#attach-wrap').isHidden(), true, 'not on a .ply');
  await page.locator('#tabs [role=tab]', { hasText: files[0].name }).click();
  await page.waitForFunction(() => document.querySelector('#viewer-sections summary')?.textContent === 'Sections (2)');
  assert.deepEqual(await page.locator('#attach-wrap option').allTextContents(), ['Attach to MeshSet…', 'LOD 0 ← a file…', 'LOD 0 ← raw.bin']);
  await page.close();
});

test('the 3D view\'s background follows the theme', async () => {
  for (const [scheme, rgb] of [['light', [0xed, 0xed, 0xe8]], ['dark', [0x20, 0x22, 0x26]]]) {
    const page = await open({ width: 1400, height: 900 }, scheme);
    await page.waitForFunction(() => Number(document.getElementById('viewer-canvas').dataset.frames) > 0);
    assert.equal(await page.getAttribute('#viewer-canvas', 'data-background'), rgb.join(','));
    // The drawn pixels: a corner of the canvas is background.
    const px = await page.evaluate(() => {
      const c = document.getElementById('viewer-canvas');
      const t = Object.assign(document.createElement('canvas'), { width: c.width, height: c.height });
      const g = t.getContext('2d');
      g.drawImage(c, 0, 0);
      return Array.from(g.getImageData(2, 2, 1, 1).data.slice(0, 3));
    });
    assert.deepEqual(px, rgb, `${scheme}: the clear color`);
    await page.close();
  }
});

test('a link keeps the 3D view\'s pass, and opening it shows that pass again', async () => {
  const page = await open({ width: 1400, height: 900 });
  await openMeshSet(page);
  const passes = await page.locator('#viewer-pass option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(passes.length > 0, 'the MeshSet has passes');
  const pass = passes.at(-1);
  await page.selectOption('#viewer-pass', pass);
  await page.click('#copy-link');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, new RegExp(`(^#|&)tab=1&lod=0&pass=${encodeURIComponent(pass)}$`));
  await page.selectOption('#viewer-pass', '');
  await page.evaluate((h) => { location.hash = `${h}&again=1`; }, hash); // a link the page did not write
  await page.waitForFunction((p) => document.getElementById('viewer-pass').value === p, pass);
  assert.deepEqual(page.errors, []);
  await page.close();
});
