// The 3D view: it draws a lit, framed mesh; a click on a triangle selects its indices in the
// hex view (in the geometry chunk's tab when they live there); a hex selection is highlighted
// in 3D; stored and measured bone bounds are drawn apart; the LOD preview switches by
// distance; too large a mesh and a lost WebGL context end in a message and a recovery.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, OUT, dropFiles } from './browser.mjs';
import { torusMesh, canvasCoverage, canvasPixel, canvasColorCount, innerCoveredPoint } from './viewer-mesh.mjs';
import { validate } from './gltf-validate.mjs';
import { readFileSync } from 'node:fs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const frames = (page) => page.evaluate(() => Number(document.getElementById('viewer-canvas').dataset.frames ?? 0));

/** Waits until the view has drawn a frame after `since`. */
async function nextFrame(page, since) {
  await page.waitForFunction((n) => Number(document.getElementById('viewer-canvas').dataset.frames ?? 0) > n, since, { timeout: 20000 });
}

/** Loads a torus (as docs.mesh would give it) into the view and waits for its frame. */
async function loadTorus(page, opts = {}) {
  const before = await frames(page);
  await page.evaluate(async ([src, opts]) => {
    const torus = (0, eval)(`(${src})`);
    const lods = [torus(opts)];
    if (opts.lodCount > 1) lods.push(torus({ ...opts, rings: 12, sides: 6 }));
    await window.meshscope.viewer.load(lods);
  }, [torusMesh.toString(), opts]);
  await nextFrame(page, before);
}

test('the view draws a mesh lit, framed and covering a sensible share of the canvas', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page);
  const cov = await page.evaluate(canvasCoverage);
  await page.locator('#viewer-pane').screenshot({ path: `${OUT}viewer-torus.png` });
  assert.ok(cov.share > 0.08 && cov.share < 0.85, `mesh covers ${(cov.share * 100).toFixed(1)}% of the canvas`);
  assert.ok(Math.abs(cov.cx - 0.5) < 0.15 && Math.abs(cov.cy - 0.5) < 0.15, `framed near the centre (${cov.cx.toFixed(2)}, ${cov.cy.toFixed(2)})`);
  const [x0, y0, x1, y1] = cov.bbox;
  assert.ok(x0 > 0 && y0 > 0 && x1 < cov.width - 1 && y1 < cov.height - 1, 'the whole mesh is in view');
  assert.ok(cov.lumSpread > 40, `shaded, not flat (luminance spread ${cov.lumSpread.toFixed(0)})`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the built-in sample is drawn when the file opens', async () => {
  const page = await openPage(env);
  await assertSampleHasMesh(page);
  await page.waitForFunction(() => Number(document.getElementById('viewer-canvas').dataset.frames ?? 0) > 0, null, { timeout: 20000 });
  const cov = await page.evaluate(canvasCoverage);
  await page.screenshot({ path: `${OUT}viewer-sample.png` });
  assert.ok(cov.share > 0.08 && cov.share < 0.85, `the sample covers ${(cov.share * 100).toFixed(1)}% of the canvas`);
  assert.ok(cov.lumSpread > 40, 'the sample is shaded');
  await page.close();
});

/** A point of the canvas (CSS pixels from its top left) that the mesh covers, near the centre. */
/** Asserts the open built-in sample has a mesh: a decoder that fails on it fails the test. */
async function assertSampleHasMesh(page) {
  const hasMesh = await page.evaluate(async () => !!(await window.meshscope.docs.mesh(window.meshscope.state.active, 0)));
  assert.equal(hasMesh, true, 'the built-in sample decodes to a mesh');
}

async function coveredPoint(page) {
  return page.evaluate(() => {
    const src = document.getElementById('viewer-canvas');
    const c = document.createElement('canvas');
    c.width = src.width; c.height = src.height;
    const g = c.getContext('2d');
    g.drawImage(src, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0], d[1], d[2]];
    const k = src.width / src.clientWidth;
    // The middle of the first run of covered pixels right of the centre (the torus's ring).
    const y = Math.round(c.height * 0.45);
    const covered = (x) => {
      const o = (y * c.width + x) * 4;
      return Math.abs(d[o] - bg[0]) + Math.abs(d[o + 1] - bg[1]) + Math.abs(d[o + 2] - bg[2]) > 60;
    };
    let x = Math.round(c.width / 2);
    while (x < c.width && !covered(x)) x++;
    const x0 = x;
    while (x < c.width && covered(x)) x++;
    return x0 < c.width ? [(x0 + x) / 2 / k, y / k] : null;
  });
}

test('clicking a triangle selects its three indices in the hex view and highlights it', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  // Index bytes as if stored at 0x40 as u16: the sample file is long enough to hold them.
  await loadTorus(page, { rings: 12, sides: 6, indexSource: { offset: 0x40, stride: 2 } });
  const pt = await coveredPoint(page);
  assert.ok(pt, 'found a covered point');
  const box = await page.locator('#viewer-canvas').boundingBox();
  const around = [];
  for (let dy = -3; dy <= 3; dy++) for (let dx = -3; dx <= 3; dx++) around.push([pt[0] + dx, pt[1] + dy]);
  const yellow = (p) => p[0] > 150 && p[1] > 120 && p[2] < p[1] * 0.5;
  const pixels = () => Promise.all(around.map((p) => page.evaluate(canvasPixel, p)));
  const was = await pixels();
  // Pixels that turned to the highlight color: changed, and yellow now.
  const yellowAround = () => pixels().then((ps) => ps.filter((p, i) =>
    yellow(p) && Math.abs(p[0] - was[i][0]) + Math.abs(p[1] - was[i][1]) + Math.abs(p[2] - was[i][2]) > 40).length);
  const before = await frames(page);
  await page.mouse.click(box.x + pt[0], box.y + pt[1]);
  await nextFrame(page, before);
  const picked = await page.evaluate(() => Number(document.getElementById('viewer-canvas').dataset.picked));
  assert.ok(Number.isInteger(picked) && picked >= 0, `a triangle was picked (${picked})`);
  const sel = await page.evaluate(() => window.meshscope.state.selection);
  // The torus has 144 triangles in two sections of 72; index sources are per section, so
  // the bytes are section start + (triangle - first triangle of the section) * 3 indices * 2.
  const sec = picked < 72 ? 0 : 1;
  const start = 0x40 + sec * 72 * 3 * 2 + (picked - sec * 72) * 3 * 2;
  assert.equal(sel.start, start, 'selection starts at the triangle\'s first index');
  assert.equal(sel.end, start + 6, 'and covers its three u16 indices');
  assert.equal(await page.locator(`#hex [data-offset="${start}"]`).getAttribute('class').then((c) => /\bsel\b/.test(c)), true, 'the hex view shows it selected');
  // The picked triangle is the one under the cursor: it is drawn in the highlight color there.
  await page.locator('#viewer-pane').screenshot({ path: `${OUT}viewer-picked.png` });
  const lit = await yellowAround();
  assert.ok(lit >= 10, `highlight around the cursor (${lit} of 49 pixels; vertex marks may cover some)`);
  assert.match(await page.locator('#viewer-info').textContent(), new RegExp(`triangle ${picked} .* section ${sec}`));
  await page.close();
});

test('a selection made in the hex view highlights its triangles and vertices in 3D', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page, { rings: 24, sides: 12, indexSource: { offset: 0x40, stride: 2 } });
  const before = await frames(page);
  await page.evaluate(async () => {
    const { select } = await import('/web/state.js');
    select(0x40, 0x40 + 12, 'hex'); // six indices: triangles 0 and 1
  });
  await nextFrame(page, before);
  const hl = await page.evaluate(() => document.getElementById('viewer-canvas').dataset.highlighted);
  // Vertex bytes (stride 32 from offset 0) overlap too: 0x40..0x4c is inside vertex 2.
  assert.equal(hl, '2,1');
  await page.close();
});

test('LOD preview by distance switches LOD as the camera moves away and says which', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page, { lodCount: 2 });
  await page.selectOption('#viewer-lod-preview', 'custom');
  const d0 = await page.evaluate(() => window.meshscope.viewer.view.distance());
  await page.fill('#viewer-lod-distances', `${(d0 * 1.5).toFixed(2)}, ${(d0 * 50).toFixed(2)}`);
  assert.equal(await page.evaluate(() => document.getElementById('viewer-canvas').dataset.lod), '0');
  const box = await page.locator('#viewer-canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 200);
  await page.waitForFunction(() => document.getElementById('viewer-canvas').dataset.lod === '1', null, { timeout: 10000 });
  assert.match(await page.locator('#viewer-info').textContent(), /LOD 1 by distance/);
  await page.close();
});

test('a mesh too large for the view gets a message, not a blank canvas', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page); // something on the canvas first, which must not stay there
  await page.evaluate(() => { window.meshscope.viewer.maxTriangles = 100; });
  await page.evaluate(async (src) => {
    const torus = (0, eval)(`(${src})`);
    await window.meshscope.viewer.load([torus({})]);
  }, torusMesh.toString());
  const msg = page.locator('#viewer-message');
  assert.equal(await msg.isVisible(), true);
  assert.match(await msg.textContent(), /more than this view draws/);
  const cov = await page.evaluate(canvasCoverage);
  assert.ok(cov.share < 0.001, `the previous mesh is gone from the canvas (${(cov.share * 100).toFixed(2)}% covered)`);
  await page.close();
});

test('a lost WebGL context says so and is recovered', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page);
  await page.evaluate(() => {
    window.__lose = document.getElementById('viewer-canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.__lose.loseContext();
  });
  await page.waitForFunction(() => !document.getElementById('viewer-message').hidden);
  assert.match(await page.locator('#viewer-message').textContent(), /lost/);
  const before = await frames(page);
  await page.evaluate(() => window.__lose.restoreContext());
  await nextFrame(page, before);
  assert.equal(await page.locator('#viewer-message').isHidden(), true);
  const cov = await page.evaluate(canvasCoverage);
  assert.ok(cov.share > 0.08, `drawn again after the restore (${(cov.share * 100).toFixed(1)}%)`);
  await page.close();
});

test('"Download .glb" saves an export of the open file that the Khronos validator accepts', async () => {
  const page = await openPage(env);
  await assertSampleHasMesh(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#viewer-download')]);
  assert.equal(download.suggestedFilename(), 'sample.glb');
  const path = `${OUT}download-sample.glb`;
  await download.saveAs(path);
  const { report, errors } = await validate(readFileSync(path), 'sample.glb');
  assert.deepEqual(errors, []);
  const tris = await page.evaluate(async () => (await window.meshscope.docs.mesh(window.meshscope.state.active, 0)).indices.length / 3);
  assert.equal(report.info.totalTriangleCount, tris, 'every triangle of the sample is in the export');
  await page.close();
});

test('clicking a triangle of the built-in sample selects the bytes of its three indices', async () => {
  const page = await openPage(env);
  await assertSampleHasMesh(page);
  await page.waitForFunction(() => Number(document.getElementById('viewer-canvas').dataset.frames ?? 0) > 0, null, { timeout: 20000 });
  const pt = await coveredPoint(page);
  const box = await page.locator('#viewer-canvas').boundingBox();
  await page.mouse.click(box.x + pt[0], box.y + pt[1]);
  await page.waitForFunction(() => window.meshscope.state.selection);
  const r = await page.evaluate(async () => {
    const { docs, state } = window.meshscope;
    const tri = Number(document.getElementById('viewer-canvas').dataset.picked);
    const mesh = await docs.mesh(state.active, 0);
    const sel = state.selection;
    const bytes = await docs.bytes(state.active, sel.start, sel.end);
    return { tri, sel, bytes: [...bytes], indices: [...mesh.indices.subarray(tri * 3, tri * 3 + 3)] };
  });
  // The file's INDX holds u16 indices: the three selected values, read straight from the
  // bytes, are the picked triangle's. The sample's builder writes the torus's indices into the
  // one VERT buffer as they are (crate/src/sample.rs), so stored and decoded are equal.
  assert.equal(r.sel.end - r.sel.start, 6, 'three u16 indices selected');
  const stored = [0, 2, 4].map((o) => r.bytes[o] | (r.bytes[o + 1] << 8));
  assert.deepEqual(stored, r.indices, 'the selected bytes hold the picked triangle\'s indices');
  assert.equal(await page.locator(`#hex [data-offset="${r.sel.start}"]`).getAttribute('class').then((c) => /\bsel\b/.test(c)), true, 'the hex view shows it selected');
  await page.close();
});

test('choosing a pass shows only its sections, and each section can be hidden', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  const before = await frames(page);
  await page.evaluate(async (src) => {
    const torus = (0, eval)(`(${src})`);
    const m = torus({ nsec: 2 });
    m.sections[0].passes = ['main', 'depth'];
    m.sections[1].passes = ['main', 'shadow'];
    await window.meshscope.viewer.load([m]);
  }, torusMesh.toString());
  await nextFrame(page, before);
  const all = (await page.evaluate(canvasCoverage)).share;
  const options = await page.locator('#viewer-pass option').allTextContents();
  assert.deepEqual(options, ['All passes', 'main', 'depth', 'shadow']);
  let f = await frames(page);
  await page.selectOption('#viewer-pass', 'shadow');
  await nextFrame(page, f);
  const shadowOnly = (await page.evaluate(canvasCoverage)).share;
  assert.deepEqual(await page.locator('#viewer-sections input').evaluateAll((b) => b.map((x) => x.checked)), [false, true]);
  assert.ok(shadowOnly < all * 0.75 && shadowOnly > all * 0.25, `one of two halves drawn (${shadowOnly.toFixed(3)} of ${all.toFixed(3)})`);
  f = await frames(page);
  await page.selectOption('#viewer-pass', '');
  await nextFrame(page, f);
  await page.click('#viewer-sections summary');
  f = await frames(page);
  await page.locator('#viewer-sections input').nth(1).uncheck();
  await nextFrame(page, f);
  const first = (await page.evaluate(canvasCoverage)).share;
  assert.ok(first < all * 0.75 && first > all * 0.25, `section 1 hidden (${first.toFixed(3)} of ${all.toFixed(3)})`);
  await page.close();
});

test('touch: two fingers moving apart zoom in, one finger orbits', async () => {
  const page = await openPage(env);
  await page.waitForFunction(() => window.meshscope?.viewer);
  await loadTorus(page);
  const touch = (strokes) => page.evaluate((strokes) => {
    const c = document.getElementById('viewer-canvas');
    const b = c.getBoundingClientRect();
    for (const [id, type, x, y] of strokes) {
      c.dispatchEvent(new PointerEvent(type, {
        pointerId: id, pointerType: 'touch', isPrimary: id === 1, clientX: b.left + x, clientY: b.top + y, bubbles: true, button: 0,
      }));
    }
    return window.meshscope.viewer.view.distance();
  }, strokes);
  const d0 = await touch([]);
  const pinch = [[1, 'pointerdown', 200, 150], [2, 'pointerdown', 260, 150]];
  for (let k = 1; k <= 5; k++) pinch.push([1, 'pointermove', 200 - k * 10, 150], [2, 'pointermove', 260 + k * 10, 150]);
  pinch.push([1, 'pointerup', 150, 150], [2, 'pointerup', 310, 150]);
  const d1 = await touch(pinch);
  assert.ok(d1 < d0 * 0.8, `pinch out zooms in (${d0.toFixed(2)} -> ${d1.toFixed(2)})`);
  // The frames the pinch asked for are drawn: the view has no frame pending.
  await page.waitForFunction(() => !window.meshscope.viewer.pending);
  let f = await frames(page);
  const before = await page.evaluate(canvasCoverage);
  // One finger dragged down: the camera pitches (a torus looks the same under yaw).
  const drag = [[3, 'pointerdown', 200, 100]];
  for (let k = 1; k <= 6; k++) drag.push([3, 'pointermove', 200, 100 + k * 12]);
  drag.push([3, 'pointerup', 200, 172]);
  f = await frames(page);
  const d2 = await touch(drag);
  await nextFrame(page, f);
  const after = await page.evaluate(canvasCoverage);
  assert.equal(d2, d1, 'one finger does not zoom');
  assert.ok(Math.abs(after.share - before.share) > 0.01, `the view turned (${before.share.toFixed(3)} -> ${after.share.toFixed(3)})`);
  assert.equal(await page.evaluate(() => document.getElementById('viewer-canvas').dataset.picked), undefined, 'a drag picks nothing');
  await page.close();
});

/** The built-in MeshSet samples' files (resource, chunk) as [{name, bytes}]. */
const meshSetFiles = (page, fn) => page.evaluate((fn) => window.meshscope.api[fn]()
  .map((f) => ({ name: f.name, bytes: Array.from(f.bytes) })), fn);

/** Drops a MeshSet with its chunk and waits until the view draws the MeshSet's geometry. */
async function openMeshSet(page, fn) {
  const files = await meshSetFiles(page, fn);
  await dropFiles(page, files);
  await page.waitForFunction(() => document.querySelectorAll('#tabs [role=tab]').length === 3);
  await page.waitForFunction(() => window.meshscope.viewer.mesh?.positions.length > 0, null, { timeout: 20000 });
  const f = await frames(page);
  await page.evaluate(() => window.meshscope.viewer.redraw());
  await nextFrame(page, f - 1);
  return files;
}

const activeTab = (page) => page.locator('#tabs [role=tab][aria-selected=true]').textContent();

/** The stored bone boxes' line color, and the measured ones', as 0..255. */
const BONE_STORED = [191, 13, 64];
const BONE_MEASURED = [26, 38, 128];

test('a skinned MeshSet shows its stored bone bounds, apart from the measured ones, with a legend', async () => {
  const page = await openPage(env);
  const files = await openMeshSet(page, 'sample_skinned_meshset_files');
  // The chunk's tab is active and the view shows its MeshSet's mesh.
  assert.equal(await activeTab(page), files[1].name);
  const mesh = await page.evaluate(() => window.meshscope.viewer.mesh.boneBounds);
  assert.equal(mesh.length, 3);
  // Bone 1 is the body, a 0.8 m box centred at y = 1 (sample.rs), stored as f32.
  const b1 = mesh[1];
  assert.equal(b1.bone, 1);
  [[-0.4, 0.6, -0.4], [0.4, 1.4, 0.4]].forEach((want, k) => want.forEach((x, a) =>
    assert.ok(Math.abs([b1.min, b1.max][k][a] - x) < 1e-6, `bone 1 ${k ? 'max' : 'min'}[${a}]`)));
  const crimson = () => page.evaluate(canvasColorCount, [BONE_STORED, 24]);
  const orange = () => page.evaluate(canvasColorCount, [BONE_MEASURED, 24]);
  const before = { stored: await crimson(), measured: await orange() };
  assert.equal(await page.locator('#viewer-boneBoxes').isDisabled(), false, 'the toggle is there for stored bone bounds');
  let f = await frames(page);
  await page.check('#viewer-boneBoxes');
  await nextFrame(page, f);
  const canvas = page.locator('#viewer-canvas');
  assert.equal(await canvas.getAttribute('data-bone-boxes'), '3,3', 'three stored and three measured boxes drawn');
  const on = { stored: await crimson(), measured: await orange() };
  await page.locator('#viewer-pane').screenshot({ path: `${OUT}viewer-bone-bounds.png` });
  assert.ok(on.stored - before.stored > 150, `stored bone boxes drawn in their color (${before.stored} -> ${on.stored} pixels)`);
  assert.ok(on.measured - before.measured > 100, `measured ones, dashed over them, in theirs (${before.measured} -> ${on.measured} pixels)`);
  const legend = page.locator('#viewer-legend');
  assert.equal(await legend.isVisible(), true);
  assert.match(await legend.locator('[data-box=boneStored]').textContent(), /bone bounds stored: 3/);
  assert.match(await legend.locator('[data-box=boneMeasured]').textContent(), /measured from weights \(dashed\): 3/);
  // Bounds: the header's and the three sections' stored boxes.
  f = await frames(page);
  await page.check('#viewer-bounds');
  await nextFrame(page, f);
  assert.equal(await canvas.getAttribute('data-stored-boxes'), '4');
  assert.match(await legend.locator('[data-box=stored]').textContent(), /bounds stored: header; lod\[0\]\.section\[0\]; lod\[0\]\.section\[1\]; lod\[0\]\.section\[2\]/);
  f = await frames(page);
  await page.uncheck('#viewer-boneBoxes');
  await page.uncheck('#viewer-bounds');
  await nextFrame(page, f);
  assert.equal(await canvas.getAttribute('data-bone-boxes'), '0,0');
  assert.ok(await crimson() <= before.stored + 5, 'the stored bone boxes are gone when off');
  assert.equal(await legend.isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('picking a MeshSet triangle selects its indices in the chunk tab; selecting there highlights in 3D', async () => {
  const page = await openPage(env);
  const files = await openMeshSet(page, 'sample_meshset_files');
  // Start from the MeshSet's own tab: the pick must switch to the chunk's.
  await page.locator('#tabs [role=tab]', { hasText: files[0].name }).click();
  assert.equal(await activeTab(page), files[0].name);
  const pt = await page.evaluate(innerCoveredPoint);
  assert.ok(pt, 'found a point on the mesh');
  const box = await page.locator('#viewer-canvas').boundingBox();
  await page.mouse.click(box.x + pt[0], box.y + pt[1]);
  await page.waitForFunction((n) => document.querySelector('#tabs [role=tab][aria-selected=true]')?.textContent === n, files[1].name);
  const r = await page.evaluate(async () => {
    const { docs, state, viewer, hex } = window.meshscope;
    const tri = Number(document.getElementById('viewer-canvas').dataset.picked);
    const mesh = viewer.mesh;
    const s = mesh.sections.find((x) => tri * 3 >= x.index_start && tri * 3 < x.index_start + x.index_count);
    const sel = state.selection;
    return {
      tri, sel, viewerHandle: viewer.handle, active: state.active,
      chunk: state.docs.find((d) => d.handle === state.active),
      src: s.index_source, vsrc: s.vertex_source, indexStart: s.index_start, vertexStart: s.vertex_start,
      indices: [...mesh.indices.subarray(tri * 3, tri * 3 + 3)],
      bytes: [...await docs.bytes(state.active, sel.start, sel.end)],
      marks: hex.byteMarks,
    };
  });
  assert.equal(r.src.file, 1, 'the sample keeps its indices in the attached chunk');
  assert.equal(r.chunk.parent, r.viewerHandle, 'the active tab is the chunk of the MeshSet shown');
  assert.equal(r.sel.handle, r.active, 'the selection is in the chunk tab');
  const start = r.src.offset + (r.tri * 3 - r.indexStart) * r.src.stride;
  assert.deepEqual([r.sel.start, r.sel.end], [start, start + 6], 'three u16 indices of the picked triangle');
  // The selected bytes hold the triangle's indices, relative to its section (the description).
  const stored = [0, 2, 4].map((o) => r.bytes[o] | (r.bytes[o + 1] << 8));
  assert.deepEqual(stored, r.indices.map((i) => i - r.vertexStart));
  // The hex view shows exactly those six bytes selected.
  await page.waitForSelector(`#hex [data-offset="${start}"][aria-selected=true]`);
  const selected = await page.locator('#hex [aria-selected=true]').evaluateAll((c) => c.map((x) => Number(x.dataset.offset)));
  assert.deepEqual(selected, [0, 1, 2, 3, 4, 5].map((k) => start + k));
  // Its three vertices are marked in the chunk's hex view.
  const want = r.indices.map((i) => { const a = r.vsrc.offset + (i - r.vertexStart) * r.vsrc.stride; return [a, a + r.vsrc.stride]; });
  assert.deepEqual(r.marks, { handle: r.active, ranges: want });
  await page.evaluate((a) => window.meshscope.hex.reveal(a), want[0][0]);
  await page.waitForSelector(`#hex [data-offset="${want[0][0]}"].vx`);
  assert.match(await page.locator('#viewer-info').textContent(), new RegExp(`triangle ${r.tri} .*indices at 0x${start.toString(16)} in ${files[1].name}`));
  await page.screenshot({ path: `${OUT}viewer-pick-chunk.png` });

  // The other way: clicking an index of the chunk's second section highlights its triangle.
  const s1 = await page.evaluate(() => window.meshscope.viewer.mesh.sections[1].index_source.offset);
  await page.evaluate((a) => window.meshscope.hex.reveal(a), s1);
  let f = await frames(page);
  await page.locator(`#hex [data-offset="${s1}"]`).click();
  await nextFrame(page, f);
  assert.equal(await page.locator('#viewer-canvas').getAttribute('data-highlighted'), '1,0', 'one index: its triangle');
  assert.equal(await page.evaluate(() => window.meshscope.hex.byteMarks), null, 'the picked vertices are no longer marked');
  // And a vertex's bytes mark that vertex.
  await page.evaluate((a) => window.meshscope.hex.reveal(a), want[0][0]);
  f = await frames(page);
  await page.locator(`#hex [data-offset="${want[0][0]}"]`).click();
  await nextFrame(page, f);
  assert.equal(await page.locator('#viewer-canvas').getAttribute('data-highlighted'), '0,1', 'one vertex\'s bytes: that vertex');
  assert.equal(await activeTab(page), files[1].name);
  assert.deepEqual(page.errors, []);
  await page.close();
});
