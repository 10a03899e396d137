// Benchmark of the 3D view in headless Chromium (software WebGL through SwiftShader here, so
// compare runs, not absolutes): for a 100,000- and a 1,000,000-triangle mesh, the time from
// handing the LOD to the view to its first finished frame, and the frame time while orbiting.
//   npm run bench:viewer            (builds first; AA=0 / AA=1 force multisampling off / on)
import { start, openPage } from '../tests/browser.mjs';
import { torusMesh } from '../tests/viewer-mesh.mjs';

const SIZES = [
  { label: '100k', rings: 250, sides: 200 },
  { label: '1M', rings: 1000, sides: 500 },
];
const FRAMES = Number(process.env.FRAMES ?? 20);

const env = await start();
try {
  const page = await openPage(env, process.env.AA ? `#aa=${process.env.AA}` : '', { viewport: { width: 1400, height: 900 } });
  await page.waitForFunction(() => window.meshscope?.viewer);
  const size = await page.evaluate(() => {
    const c = document.getElementById('viewer-canvas');
    return `${c.width}x${c.height}`;
  });
  console.log(`canvas ${size} px, antialias ${{ 0: 'off', 1: 'on' }[process.env.AA] ?? 'auto (off on software WebGL)'}, ${FRAMES} frames per size`);
  for (const s of SIZES) {
    const r = await page.evaluate(async ([src, s, n]) => {
      const torus = (0, eval)(`(${src})`);
      const mesh = torus({ rings: s.rings, sides: s.sides, nsec: 4 });
      const v = window.meshscope.viewer;
      const canvas = document.getElementById('viewer-canvas');
      const gl = canvas.getContext('webgl2');
      const px = new Uint8Array(4);
      const finish = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); // waits for the GPU
      const before = Number(canvas.dataset.frames ?? 0);
      const t0 = performance.now();
      await v.load([mesh]);
      await new Promise((ok) => {
        const poll = () => (Number(canvas.dataset.frames ?? 0) > before ? ok() : requestAnimationFrame(poll));
        poll();
      });
      finish();
      const first = performance.now() - t0;
      const times = [];
      for (let i = 0; i < n; i++) {
        const a = performance.now();
        v.view.orbit(0.02, 0);
        v.view.render();
        finish();
        times.push(performance.now() - a);
      }
      times.sort((a, b) => a - b);
      return { tris: mesh.indices.length / 3, first, median: times[times.length >> 1], p90: times[Math.floor(times.length * 0.9)] };
    }, [torusMesh.toString(), s, FRAMES]);
    console.log(`${s.label.padEnd(5)} ${r.tris.toLocaleString().padStart(9)} triangles: open to first frame ${r.first.toFixed(0)} ms, frame median ${r.median.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms`);
  }
  await page.close();
} finally {
  await env.close();
}
