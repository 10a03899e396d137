// Renders .glb files the way a glTF viewer shows them (three.js's GLTFLoader, +Y up, a floor
// grid under the model) in headless Chromium, and writes one PNG per file: a check by eye that
// an export stands upright. Usage: node scripts/render-glb.mjs OUT_DIR FILE.glb...
import { chromium } from 'playwright-core';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [out, ...files] = process.argv.slice(2);
if (!out || !files.length) {
  console.error('usage: node scripts/render-glb.mjs OUT_DIR FILE.glb...');
  process.exit(2);
}
const work = join(root, 'tests', 'out', 'render');
mkdirSync(work, { recursive: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(work, 'index.html'), `<!doctype html><meta charset="utf-8">
<style>body{margin:0;background:#20242a}canvas{display:block}</style>
<script type="importmap">{"imports":{"three":"/node_modules/three/build/three.module.js",
"three/addons/":"/node_modules/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
window.render = async (url) => {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setSize(640, 480);
  document.body.replaceChildren(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 2.5));
  const sun = new THREE.DirectionalLight(0xffffff, 2);
  sun.position.set(3, 5, 4);
  scene.add(sun);
  const gltf = await new GLTFLoader().loadAsync(url);
  scene.add(gltf.scene);
  gltf.scene.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const size = box.getSize(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  const r = Math.max(size.x, size.y, size.z);
  // The floor at the model's lowest point, +Y up as in every glTF viewer.
  const grid = new THREE.GridHelper(r * 2, 10, 0x88aaff, 0x556070);
  grid.position.set(centre.x, box.min.y, centre.z);
  scene.add(grid);
  const camera = new THREE.PerspectiveCamera(40, 640 / 480, r / 100, r * 100);
  camera.position.set(centre.x + r * 0.9, centre.y + r * 0.6, centre.z + r * 1.6);
  camera.lookAt(centre);
  renderer.render(scene, camera);
  return { min: box.min.toArray(), max: box.max.toArray() };
};
window.ready = true;
</script>`);
const server = await serve(root, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
page.on('pageerror', (e) => console.error(e));
await page.goto(`http://127.0.0.1:${server.address().port}/tests/out/render/index.html`);
await page.waitForFunction(() => window.ready);
for (const f of files) {
  const name = basename(f);
  copyFileSync(f, join(work, name));
  const box = await page.evaluate((u) => window.render(u), `/${relative(root, join(work, name))}`);
  const png = join(out, `${name}.png`);
  await page.screenshot({ path: png });
  console.log(`${png}: world bounds min ${box.min.map((x) => x.toFixed(2))} max ${box.max.map((x) => x.toFixed(2))}`);
}
await browser.close();
await new Promise((ok) => server.close(ok));
