// npm run build: a self-contained static site in dist/ (index.html, the modules, the wasm).
// Every path in it is relative, so it works from any static host and any sub-path
// (e.g. https://example.org/meshscope/), with no server code.
import { cpSync, mkdirSync, rmSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'pkg'), { recursive: true });
cpSync(join(root, 'index.html'), join(dist, 'index.html'));
cpSync(join(root, 'web'), join(dist, 'web'), { recursive: true });
for (const f of ['meshscope.js', 'meshscope_bg.wasm']) cpSync(join(root, 'pkg', f), join(dist, 'pkg', f));
// GitHub Pages runs Jekyll unless told not to; Jekyll would drop nothing here, but it is slower.
writeFileSync(join(dist, '.nojekyll'), '');

let bytes = 0;
const walk = (d) => readdirSync(d).forEach((f) => {
  const p = join(d, f);
  if (statSync(p).isDirectory()) walk(p); else bytes += statSync(p).size;
});
walk(dist);
console.log(`dist/: ${(bytes / 1024).toFixed(0)} KiB, ready for any static host`);
