// The census in the page (headless Chromium), on MeshSets made by the builder: a benchmark,
// not a test. `cargo run --release --example bench_census -- --pack PATH` writes the set as
// one file; the page fetches it, cuts it into Files and drops them on the census panel, as a
// person dropping a folder would. Reported: the time from the drop to the finished report
// (the census worker and its planners read, decode, plan, count and drop each file), and the
// time of each step in the workers (`censusOptions.timing`).
//   node scripts/bench-census-page.mjs [--n=4800] [--planners=K] [--batch=FILES] [--runs=R]
// `--planners=0` censuses in the census worker alone; without it, one planner per core past
// the first. `--runs` drops the set R times on one page (each run a new census).
// `--before=FILE` alternates with another census worker: odd runs get FILE in place of
// web/census-worker.js (an older one: `git show main:web/census-worker.js > FILE`), with no
// planners, so that before and after are compared in the same minutes.
import { start, openPage, ROOT } from '../tests/browser.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const n = Number(arg('n', 4800));
const planners = arg('planners', null);
const batchFiles = arg('batch', null);
const before = arg('before', null);
const runs = Number(arg('runs', before ? 2 : 1));
const rel = `target/bench-census/census-pack-${n}.bin`;
if (!existsSync(join(ROOT, rel))) {
  execFileSync('cargo', ['run', '-q', '--release', '--example', 'bench_census', '--', '--pack', join(ROOT, rel)],
    { cwd: ROOT, env: { ...process.env, N: String(n) }, stdio: 'inherit' });
}
const bytes = readFileSync(join(ROOT, rel)).length;

/** CPU seconds (user + system) of this process's descendants (the browser's processes), by
 *  their command name: the machine is shared, so CPU time compares runs better than wall time. */
function cpuOfBrowser() {
  const stat = (pid) => {
    try {
      const t = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = t.lastIndexOf(')');
      const f = t.slice(close + 2).split(' ');
      return { comm: t.slice(t.indexOf('(') + 1, close), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 };
    } catch { return null; }
  };
  const all = new Map(readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => [Number(d), stat(d)]).filter(([, s]) => s));
  const mine = (pid) => { for (let p = pid, k = 0; p > 1 && k < 20; k++) { if (p === process.pid) return true; p = all.get(p)?.ppid ?? 0; } return false; };
  const out = {};
  for (const [pid, s] of all) if (pid !== process.pid && mine(pid)) out[s.comm] = (out[s.comm] ?? 0) + s.cpu;
  return out;
}
const cpuSince = (a, b) => Object.entries(b).map(([k, v]) => [k, v - (a[k] ?? 0)]).filter(([, v]) => v > 0.005);

const env = await start();
try {
  const page = await openPage(env);
  let old = false;
  if (before) {
    const text = readFileSync(before, 'utf8');
    await page.route('**/web/census-worker.js', (route) => (old
      ? route.fulfill({ body: text, contentType: 'text/javascript' }) : route.continue()));
  }
  await page.click('#census-button');
  await page.waitForSelector('#census:not([hidden])');
  const dt = await page.evaluateHandle(async (rel) => {
    const [blob, index] = await Promise.all([fetch(rel).then((r) => r.blob()), fetch(`${rel}.json`).then((r) => r.json())]);
    const dt = new DataTransfer();
    for (const [name, at, len] of index) dt.items.add(new File([blob.slice(at, at + len)], name));
    return dt;
  }, rel);
  await page.evaluate((o) => import('./web/census.js').then((m) => Object.assign(m.censusOptions, o)),
    { timing: true, planners: planners == null ? null : Number(planners), batchFiles: batchFiles == null ? undefined : Number(batchFiles) });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  for (let run = 0; run < runs; run++) {
    old = before != null && run % 2 === 1;
    if (before) await page.evaluate((o) => import('./web/census.js').then((m) => Object.assign(m.censusOptions, o)), { planners: old ? 0 : planners == null ? null : Number(planners) });
    await page.evaluate(() => { window.censusT0 = performance.now(); document.querySelector('#census-status').textContent = ''; });
    const cpu0 = cpuOfBrowser();
    await page.dispatchEvent('#census', 'drop', { dataTransfer: dt });
    await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 600000 });
    const ms = await page.evaluate(() => performance.now() - window.censusT0);
    const cpu = cpuSince(cpu0, cpuOfBrowser());
    const status = await page.textContent('#census-status');
    const r = await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport()));
    const t = r.timing;
    const f = (x) => (x / 1000).toFixed(2);
    console.log(`${old ? 'BEFORE ' : ''}page census (${old ? 'one worker' : `${planners ?? 'default'} planners`}, ${cores} cores): ${r.files} MeshSets (${(bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(2)} s, ${Math.round(r.files / (ms / 1000))} files/s; ${r.entries.length} entries; status "${status}"`);
    console.log(`  browser CPU ${cpu.reduce((n, [, v]) => n + v, 0).toFixed(2)} s (${cpu.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')})`);
    if (t) console.log(`  census worker (s): read ${f(t.read)}, plan ${f(t.plan)} (${t.own} batches), hold ${f(t.hold)}, count ${f(t.count)}, waiting ${f(t.wait)}, report ${f(t.report)}; planners: ${t.batches} batches, waiting for reads ${f(t.planners.read)}, planning ${f(t.planners.plan)}`);
  }
  if (page.errors.length) console.log(`page errors: ${page.errors.join('; ')}`);
} finally {
  await env.close();
}
