// The comparison in the page (headless Chromium, software WebGL): the two 64 MB files
// `cargo run --release --example bench_diff -- --write` leaves in target/bench-diff/, opened
// from a link (#src=…&cmp=…): the diff and the anchors in the document worker as the panel
// measures them (the list follows), and the 3D view's part (both LODs fetched, wasm
// diff_geometry, the scene built and handed to the renderer). Then compared again ROUNDS times
// (default 3) with *Compare* (the 3D view keeps its scene: only the colors are redone), to the
// first frame. A benchmark, not a test.
import { existsSync } from 'node:fs';
import { start, openPage, ROOT } from '../tests/browser.mjs';

if (!existsSync(`${ROOT}target/bench-diff/b.ply`)) {
  console.error('no target/bench-diff: run cargo run --release --example bench_diff -- --write first');
  process.exit(1);
}
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const env = await start();
try {
  const page = await openPage(env, '#src=target%2Fbench-diff%2Fa.ply&cmp=target%2Fbench-diff%2Fb.ply');
  const t0 = Date.now();
  await page.waitForSelector('#compare[data-three]', { timeout: 600000 });
  console.log(`from the link to the comparison shown (both files fetched, opened, compared, drawn): ${((Date.now() - t0) / 1000).toFixed(2)} s`);
  const first = await page.$eval('#compare', (p) => [p.dataset.ms, p.dataset.three].map((x) => (Number(x) / 1000).toFixed(3)));
  console.log(`first comparison: diff + anchors in the worker ${first[0]} s, 3D view ${first[1]} s`);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    rounds.push(await page.evaluate(async () => {
      const panel = document.getElementById('compare');
      const canvas = document.getElementById('cmp3d-canvas');
      delete panel.dataset.three;
      const t = performance.now();
      document.getElementById('cmp-run').click();
      await new Promise((ok) => {
        const poll = () => (panel.dataset.three ? ok() : requestAnimationFrame(poll));
        poll();
      });
      const before = Number(canvas.dataset.frames ?? 0);
      await new Promise((ok) => {
        const poll = () => (Number(canvas.dataset.frames ?? 0) > before ? ok() : requestAnimationFrame(poll));
        poll();
      });
      return {
        diff: Number(panel.dataset.ms),
        three: Number(panel.dataset.three),
        total: performance.now() - t,
        rows: document.querySelectorAll('#cmp-table tbody tr').length,
        moved: canvas.dataset.moved,
        one: `${canvas.dataset.onlyA} + ${canvas.dataset.onlyB}`,
      };
    }));
  }
  const list = (k) => rounds.map((r) => r[k]).sort((x, y) => x - y).map((x) => (x / 1000).toFixed(3)).join(', ');
  console.log(`${rounds[0].rows} rows listed; 3D: ${rounds[0].moved} moved vertices, ${rounds[0].one} triangles on one side`);
  console.log(`again: diff + anchors in the worker: ${list('diff')} s; 3D view: ${list('three')} s; click to the first 3D frame: ${list('total')} s (fastest first)`);
  await page.close();
} finally {
  await env.close();
}
