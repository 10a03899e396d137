// The comparison's 3D view and its link. B is gun2.ply with one vertex moved and one index
// changed (made here from the sample's bytes): the 3D view colors that one vertex, draws the
// one triangle each side has alone, and marks what a difference of the list is about; Copy
// link puts the comparison and its view in the address, and a fresh page opened on that
// address shows the same comparison. Screenshots: tests/out/compare-3d-light.png, -dark.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { start, openPage, OUT } from './browser.mjs';
import { needsSamples, assertSamples, gemPly } from './samples.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });


/** gun2.ply and a copy with vertex 5's x moved by 0.5 and the first index pointing at another
 *  vertex (spec: VERT count, size, flags, then the vertices, position first; INDX count then
 *  u16 indices). Returns both and what changed, read from the bytes. */
function pair() {
  const a = gemPly('gun2.ply');
  const b = Buffer.from(a);
  const vert = a.indexOf(Buffer.from('VERT'));
  const count = a.readInt32LE(vert + 4);
  const stride = a.readUInt16LE(vert + 8);
  const x = a.readFloatLE(vert + 12 + 5 * stride);
  b.writeFloatLE(x + 0.5, vert + 12 + 5 * stride);
  const moved = Math.fround(x + 0.5) - x;
  const indx = a.indexOf(Buffer.from('INDX'));
  const tri = [0, 1, 2].map((k) => a.readUInt16LE(indx + 8 + 2 * k));
  let v = 0;
  while (tri.includes(v)) v++;
  b.writeUInt16LE(v, indx + 8);
  const triangle = (k) => [0, 1, 2].map((j) => a.readUInt16LE(indx + 8 + 2 * (3 * k + j)));
  return { a, b, count, moved, tri, newTri: [v, tri[1], tri[2]], triangle };
}

test('the 3D view shows the moved vertex and the changed triangle, and the link brings the comparison back', { skip: needsSamples() }, async () => {
  assertSamples();
  const p = pair();
  writeFileSync(`${OUT}cmp-gun2.ply`, p.a);
  writeFileSync(`${OUT}cmp-gun2-moved.ply`, p.b);
  const page = await openPage(env, '#src=tests/out/cmp-gun2.ply&cmp=tests/out/cmp-gun2-moved.ply');
  await page.waitForSelector('#compare[data-linked="true"][data-three]', { timeout: 30000 });
  const c = await page.evaluate(() => import('./web/compare.js').then((m) => m.comparison()));
  const paths = c.result.differences.map((d) => `${d.path} ${d.kind}`);
  // The list: the one moved vertex and the one triangle on each side, with their summaries.
  for (const want of ['mesh.lod[0].vertex[5] moved', 'mesh.lod[0].vertices moved', 'mesh.lod[0].triangle[0] only_a', 'mesh.lod[0].triangle[0] only_b', 'mesh.lod[0].triangles triangles']) {
    assert.ok(paths.includes(want), `${want} in ${paths.join('; ')}`);
  }
  const mv = c.result.differences.find((d) => d.path === 'mesh.lod[0].vertex[5]');
  assert.deepEqual(mv.delta, [p.moved, 0, 0]);
  const canvas = () => page.$eval('#cmp3d-canvas', (e) => ({ ...e.dataset }));
  const d = await canvas();
  assert.equal(d.moved, '1');
  assert.equal(d.onlyA, '1');
  assert.equal(d.onlyB, '1');
  assert.equal(d.mode, 'a');
  await page.waitForFunction(() => Number(document.querySelector('#cmp3d-canvas').dataset.frames) > 0); // drawn
  const legend = await page.$$eval('#cmp3d-legend .legend-item', (es) => es.map((e) => e.dataset.key));
  assert.deepEqual(legend, ['same', 'moved', 'onlyA', 'onlyB', 'moves']);

  // A moved vertex chosen in the list is marked on both sides; a triangle of B alone is
  // marked as B's (after A's triangles in the scene).
  await page.fill('#cmp-filter', 'mesh.');
  await page.click('#cmp-table tbody tr[data-index] >> text="mesh.lod[0].vertex[5]"');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.marked === '0,2');
  await page.click('#cmp-table tbody tr.k-only_b');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.marked === '1,0');

  // A click on the mesh picks a triangle of the side drawn (A): its difference is chosen when
  // it has one, else the status says what it is.
  const box = await page.locator('#cmp3d-canvas').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.picked);
  const picked = await page.$eval('#cmp3d-canvas', (e) => e.dataset.picked);
  assert.match(picked, /^a:\d+$/);
  const k = Number(picked.slice(2));
  const t = p.triangle(k);
  const said = await page.textContent('#cmp-status');
  if (k === 0) assert.equal(said, 'mesh.lod[0].triangle[0]: only_a');
  else if (t.includes(5)) assert.equal(said, 'mesh.lod[0].vertex[5]: moved (moved 0.5)');
  else assert.equal(said, `A triangle ${k} [${t.join(', ')}]: nothing of it differs`);

  // The tolerance: over 1 the 0.5 move is none; at 0.1 it is back.
  await page.fill('#cmp-tolerance', '1');
  await page.dispatchEvent('#cmp-tolerance', 'change');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.moved === '0');
  const none = await page.evaluate(() => import('./web/compare.js').then((m) => m.comparison().result.differences.filter((x) => x.kind === 'moved').length));
  assert.equal(none, 0);
  await page.fill('#cmp-tolerance', '0.1');
  await page.dispatchEvent('#cmp-tolerance', 'change');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.moved === '1');

  // Both overlaid: B's edges over A.
  await page.selectOption('#cmp3d-mode', 'ab');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.edges === 'true');
  await page.click('#cmp-table tbody tr[data-index] >> text="mesh.lod[0].vertex[5]"');
  await page.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.marked === '0,2');

  // Copy link: the comparison and its view.
  await page.click('#cmp-link');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.link);
  const link = await page.$eval('#compare', (e) => e.dataset.link);
  const q = new URLSearchParams(new URL(link).hash.slice(1));
  assert.equal(q.get('src'), 'tests/out/cmp-gun2.ply');
  assert.equal(q.get('cmp'), 'tests/out/cmp-gun2-moved.ply');
  assert.equal(q.get('ctol'), '0.1');
  assert.equal(q.get('cdiff'), 'mesh.lod[0].vertex[5]');
  assert.equal(q.get('cfilter'), 'mesh.');
  assert.equal(q.get('c3d'), 'ab');
  const seen = await shown(page);
  const cLinked = await page.evaluate(() => import('./web/compare.js').then((m) => m.comparison()));
  await framed(page);
  await page.screenshot({ path: `${OUT}compare-3d-light.png` });
  assert.deepEqual(page.errors, []);
  await page.close();

  // A fresh page on the copied address, in the dark theme: the same comparison, the same view.
  const hash = new URL(link).hash;
  const fresh = await openPage(env, hash, { colorScheme: 'dark' });
  await fresh.waitForSelector('#compare[data-linked="true"][data-three]', { timeout: 30000 });
  await fresh.waitForFunction(() => document.querySelector('#cmp3d-canvas').dataset.marked === '0,2');
  const again = await shown(fresh);
  assert.deepEqual(again, seen);
  const c2 = await fresh.evaluate(() => import('./web/compare.js').then((m) => m.comparison()));
  assert.deepEqual(c2.result.differences, cLinked.result.differences);
  // The 3D view's background follows the theme: the canvas's corner pixel is --viewer-bg.
  await fresh.waitForFunction(() => Number(document.querySelector('#cmp3d-canvas').dataset.frames) > 0);
  // Polled until the pixel is opaque: a canvas resized after its first frame (a late layout
  // on a loaded machine) holds transparent black until the next one.
  const corner = await (await fresh.waitForFunction(() => {
    const c = document.querySelector('#cmp3d-canvas');
    const t = document.createElement('canvas');
    [t.width, t.height] = [c.width, c.height];
    const g = t.getContext('2d');
    g.drawImage(c, 0, 0);
    const d = [...g.getImageData(1, 1, 1, 1).data];
    return d[3] === 255 && { px: d.slice(0, 3), bg: getComputedStyle(document.querySelector('#cmp-3d')).getPropertyValue('--viewer-bg').trim() };
  }, null, { timeout: 20000 })).jsonValue();
  const want = [1, 3, 5].map((i) => parseInt(corner.bg.slice(i, i + 2), 16));
  assert.deepEqual(corner.px, want, `--viewer-bg ${corner.bg}`);
  assert.ok(want.every((x) => x < 80), 'dark');
  // An element screenshot too: the full-page screenshot of headless Chromium shows this canvas
  // with a light clear color although its pixels (checked above) are dark.
  await fresh.locator('#cmp-3d').screenshot({ path: `${OUT}compare-3d-dark-view.png` });
  await framed(fresh);
  await fresh.screenshot({ path: `${OUT}compare-3d-dark.png` });
  // The keyboard: in the list, Home chooses the first row shown and the down arrow the next;
  // the canvas orbits with the arrows (a new frame); Esc closes the panel, the focus back on
  // Compare….
  await fresh.focus('#cmp-table');
  await fresh.keyboard.press('Home');
  const first = await fresh.$eval('#cmp-table tbody tr', (tr) => tr.dataset.index);
  await fresh.waitForFunction((i) => document.querySelector('#cmp-table tr[aria-selected=true]')?.dataset.index === i, first);
  await fresh.keyboard.press('ArrowDown');
  const second = await fresh.$eval('#cmp-table tbody tr:nth-child(2)', (tr) => tr.dataset.index);
  await fresh.waitForFunction((i) => document.querySelector('#cmp-table tr[aria-selected=true]')?.dataset.index === i, second);
  const frames = Number(await fresh.$eval('#cmp3d-canvas', (e) => e.dataset.frames));
  await fresh.focus('#cmp3d-canvas');
  await fresh.keyboard.press('ArrowLeft');
  await fresh.waitForFunction((n) => Number(document.querySelector('#cmp3d-canvas').dataset.frames) > n, frames);
  await fresh.keyboard.press('Escape');
  await fresh.waitForSelector('#compare', { state: 'hidden' });
  assert.equal(await fresh.evaluate(() => document.activeElement?.id), 'compare-button');
  assert.deepEqual(fresh.errors, []);
  await fresh.close();
});

/** Resolves once the page has put two more frames on screen (the canvas's last drawing among them). */
const framed = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/** What the comparison shows: the list, the chosen row, the controls, both views' top rows
 *  and the 3D view's state. */
async function shown(page) {
  await page.waitForFunction(() => document.querySelectorAll('#cmp-rows-b .b[aria-selected=true]').length > 0 && document.querySelectorAll('#cmp-rows-a .b[aria-selected=true]').length > 0);
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const { moved, onlyA, onlyB, edges, mode, marked, lod } = q('#cmp3d-canvas').dataset;
    return {
      rows: [...document.querySelectorAll('#cmp-table tbody tr')].map((tr) => tr.textContent),
      chosen: q('#cmp-table tr[aria-selected=true]')?.textContent,
      controls: ['#cmp-filter', '#cmp-kind', '#cmp-confidence', '#cmp-sort', '#cmp-tolerance', '#cmp3d-mode', '#cmp3d-lod'].map((s) => q(s).value),
      tops: [q('#cmp-rows-a').dataset.top, q('#cmp-rows-b').dataset.top],
      selected: ['a', 'b'].map((s) => [...document.querySelectorAll(`#cmp-rows-${s} .b[aria-selected=true]`)].map((e) => Number(e.dataset.offset)).sort((x, y) => x - y).join()),
      three: { moved, onlyA, onlyB, edges, mode, marked, lod },
    };
  });
}

test('vertex colors: grey where nothing moved, the ramp by distance, the extra vertices in their side\'s color', async () => {
  const page = await openPage(env);
  const got = await page.evaluate(async () => {
    const { combine, vertexColors, COLOR } = await import('./web/compare-3d.js');
    const mesh = (pos, idx) => ({ positions: new Float32Array(pos), normals: new Float32Array(0), indices: new Uint32Array(idx), sections: [] });
    // A: 3 vertices; B: 4 (the first unmoved, the second moved 1, the third 3; one more).
    const a = mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const b = mesh([0, 0, 0, 1, 1, 0, 0, 1, 3, 5, 5, 5], [0, 1, 2, 1, 2, 3]);
    const g = { distances: new Float32Array([0, 1, 3]), onlyA: new Uint32Array(0), onlyB: new Uint32Array([1]) };
    const s = combine(a, b, g);
    const colors = [...vertexColors(s, 0.5, 3)].map((x) => Number(x.toFixed(4)));
    return { colors, COLOR, indices: [...s.indices], onlyB: [...s.onlyB], bIndex: s.bIndex, sections: s.sections };
  });
  const { COLOR } = got;
  const mix = (t) => COLOR.near.map((x, k) => x + (COLOR.far[k] - x) * t);
  const r = (c) => c.map((x) => Number(Math.fround(x).toFixed(4)));
  // Vertex 1 moved 1: (1 - 0.5) / (3 - 0.5) = 0.2 of the way; vertex 2 the far end.
  const want = [COLOR.same, mix(0.2), mix(1), COLOR.same, mix(0.2), mix(1), COLOR.onlyB].flatMap(r);
  assert.deepEqual(got.colors, want);
  assert.deepEqual(got.indices, [0, 1, 2, 3, 4, 5, 4, 5, 6], "B's indices after A's 3 vertices");
  assert.deepEqual(got.onlyB, [2], "B's triangle 1 is the scene's triangle 2");
  assert.equal(got.bIndex, 3);
  assert.deepEqual(got.sections.b, [{ side: 'b', start: 3, count: 6, flags: 0 }]);
  await page.close();
});
