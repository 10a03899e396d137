// The census in the page (headless Chromium), on MeshSets made by the builder: a benchmark,
// not a test. `cargo run --release --example bench_census -- --pack PATH` writes the set as
// one file; the page fetches it, cuts it into Files and drops them on the census panel, as a
// person dropping a folder would. Reported: the time from the drop to the finished report
// (the panel's worker reads, decodes, counts and drops each file).
//   node scripts/bench-census-page.mjs [--n=4800]
import { start, openPage, ROOT } from '../tests/browser.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const n = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 4800);
const rel = `target/bench-census/census-pack-${n}.bin`;
if (!existsSync(join(ROOT, rel))) {
  execFileSync('cargo', ['run', '-q', '--release', '--example', 'bench_census', '--', '--pack', join(ROOT, rel)],
    { cwd: ROOT, env: { ...process.env, N: String(n) }, stdio: 'inherit' });
}
const bytes = readFileSync(join(ROOT, rel)).length;

const env = await start();
try {
  const page = await openPage(env);
  await page.click('#census-button');
  await page.waitForSelector('#census:not([hidden])');
  const dt = await page.evaluateHandle(async (rel) => {
    const [blob, index] = await Promise.all([fetch(rel).then((r) => r.blob()), fetch(`${rel}.json`).then((r) => r.json())]);
    const dt = new DataTransfer();
    for (const [name, at, len] of index) dt.items.add(new File([blob.slice(at, at + len)], name));
    return dt;
  }, rel);
  await page.evaluate(() => { window.censusT0 = performance.now(); });
  await page.dispatchEvent('#census', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 600000 });
  const ms = await page.evaluate(() => performance.now() - window.censusT0);
  const status = await page.textContent('#census-status');
  const r = await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport()));
  console.log(`page census: ${r.files} MeshSets (${(bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(2)} s, ${Math.round(r.files / (ms / 1000))} files/s; ${r.entries.length} entries; status "${status}"`);
  if (page.errors.length) console.log(`page errors: ${page.errors.join('; ')}`);
} finally {
  await env.close();
}
