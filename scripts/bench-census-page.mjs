// The census in the page (headless Chromium), on MeshSets made by the builder: a benchmark,
// not a test. `cargo run --release --example bench_census -- --pack PATH` writes the set as
// one file; the page fetches it, cuts it into Files and drops them on the census panel, as a
// person dropping a folder would. Reported: the time from the drop to the finished report
// (the census worker and its planners read, decode, plan, count and drop each file), and the
// time of each step in the workers (`censusOptions.timing`).
//   node scripts/bench-census-page.mjs [--n=4800] [--planners=K] [--batch=FILES] [--runs=R]
// `--planners=0` censuses in the census worker alone; without it, one planner per core past
// the first. `--runs` drops the set R times on one page (each run a new census). First the
// floor is timed (`--floor=0` skips it): the same Files read alone by the page with
// `readBatch`, as it reads the census's batches, 32 Files a batch and four batches at a time,
// with no census.
// `--disk=DIR` drops Files backed by files on disk, as a person's folder is: the set is written
// to DIR once, one file each, and every run (and the floor) gets new Files of them through a
// file input, so each is read for the first time, as in a real drop.
// `--before=DIR` alternates with older census workers, so that before and after are compared
// in the same minutes: odd runs get each web/census-*.js that DIR holds in place of the page's
// (`mkdir DIR && for f in census-worker census-planner census-read; do git show
// main:web/$f.js > DIR/$f.js; done`), on the same wasm and with as many planners. The page's
// own web/census.js is loaded once, so DIR's workers must speak its protocol: those before
// `d62f7cc` (the page reads the batches) do not.
import { start, openPage, ROOT } from '../tests/browser.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const n = Number(arg('n', 4800));
const planners = arg('planners', null);
const batchFiles = arg('batch', null);
const before = arg('before', null);
const runs = Number(arg('runs', before ? 2 : 1));
const floor = arg('floor', '1') !== '0';
const disk = arg('disk', null);
const rel = `target/bench-census/census-pack-${n}.bin`;
if (!existsSync(join(ROOT, rel))) {
  execFileSync('cargo', ['run', '-q', '--release', '--example', 'bench_census', '--', '--pack', join(ROOT, rel)],
    { cwd: ROOT, env: { ...process.env, N: String(n) }, stdio: 'inherit' });
}
const pack = readFileSync(join(ROOT, rel));
const bytes = pack.length;
/** The set's files on disk, written once: their paths, in the pack's order. */
function diskFiles(dir) {
  const index = JSON.parse(readFileSync(join(ROOT, `${rel}.json`), 'utf8'));
  mkdirSync(dir, { recursive: true });
  const have = new Set(readdirSync(dir));
  for (const [name, at, len] of index) if (!have.has(name)) writeFileSync(join(dir, name), pack.subarray(at, at + len));
  return index.map(([name]) => join(dir, name));
}
const paths = disk ? diskFiles(disk) : null;
const IDLE_MS = 3000;

const parseStat = (t) => {
  const close = t.lastIndexOf(')');
  const f = t.slice(close + 2).split(' ');
  return { comm: t.slice(t.indexOf('(') + 1, close), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 };
};
const readStat = (path) => { try { return parseStat(readFileSync(path, 'utf8')); } catch { return null; } };

/** The browser's processes (this process's descendants): [{pid, type}], `type` from `--type=`. */
function browserProcesses() {
  const all = new Map(readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => [Number(d), readStat(`/proc/${d}/stat`)]).filter(([, s]) => s));
  const mine = (pid) => { for (let p = pid, k = 0; p > 1 && k < 20; k++) { if (p === process.pid) return true; p = all.get(p)?.ppid ?? 0; } return false; };
  const out = [];
  for (const [pid] of all) {
    if (pid === process.pid || !mine(pid)) continue;
    try { out.push({ pid, type: /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser' }); } catch { /* ended */ }
  }
  return out;
}

/** CPU seconds (user + system) of the browser's processes, and of their threads by process type
 *  and thread name (the census workers are threads of the renderer, named DedicatedWorker):
 *  the machine is shared, so CPU time compares runs better than wall time. Threads are sampled
 *  every SAMPLE_MS, since the workers end with the census. */
class CpuMeter {
  static SAMPLE_MS = 200;
  constructor() {
    this.procs = browserProcesses();
    this.first = new Map(); // "pid/tid" -> cpu at the start (0 for threads started later)
    this.last = new Map(); // "pid/tid" -> {key, cpu}
    this.total0 = this.total();
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), CpuMeter.SAMPLE_MS);
  }
  total() {
    return this.procs.reduce((n, { pid }) => n + (readStat(`/proc/${pid}/stat`)?.cpu ?? 0), 0);
  }
  sample(initial) {
    for (const { pid, type } of this.procs) {
      let tasks = [];
      try { tasks = readdirSync(`/proc/${pid}/task`); } catch { continue; }
      for (const tid of tasks) {
        const s = readStat(`/proc/${pid}/task/${tid}/stat`);
        if (!s) continue;
        const id = `${pid}/${tid}`;
        if (!this.first.has(id)) this.first.set(id, initial ? s.cpu : 0);
        this.last.set(id, { key: `${type}:${s.comm}`, cpu: s.cpu });
      }
    }
  }
  /** {total, threads: [[key, seconds, count]]} since the start, largest first. */
  stop() {
    clearInterval(this.timer);
    this.sample(false);
    const by = new Map();
    for (const [id, { key, cpu }] of this.last) {
      const d = cpu - this.first.get(id);
      if (d < 0.005) continue;
      const [n, k] = by.get(key) ?? [0, 0];
      by.set(key, [n + d, k + 1]);
    }
    return { total: this.total() - this.total0, threads: [...by].map(([k, [v, c]]) => [k, v, c]).sort((a, b) => b[1] - a[1]) };
  }
}

const env = await start();
try {
  const page = await openPage(env);
  let old = false;
  if (before) {
    const older = new Map(readdirSync(before).filter((f) => /^census-.*\.js$/.test(f)).map((f) => [f, readFileSync(join(before, f), 'utf8')]));
    await page.route('**/web/census-*.js', (route) => {
      const body = old && older.get(new URL(route.request().url()).pathname.split('/').pop());
      return body ? route.fulfill({ body, contentType: 'text/javascript' }) : route.continue();
    });
  }
  await page.click('#census-button');
  await page.waitForSelector('#census:not([hidden])');
  const sliced = disk ? null : await page.evaluateHandle(async (rel) => {
    const [blob, index] = await Promise.all([fetch(rel).then((r) => r.blob()), fetch(`${rel}.json`).then((r) => r.json())]);
    const dt = new DataTransfer();
    for (const [name, at, len] of index) dt.items.add(new File([blob.slice(at, at + len)], name));
    return dt;
  }, rel);
  /** The Files to drop: the slices, or new Files of the files on disk (a new input each time). */
  const dropped = async () => {
    if (!disk) return sliced;
    const id = await page.evaluate(() => {
      const input = Object.assign(document.createElement('input'), { type: 'file', multiple: true, hidden: true });
      input.id = `bench-files-${document.querySelectorAll('input[id^=bench-files]').length}`;
      document.body.append(input);
      return input.id;
    });
    await page.setInputFiles(`#${id}`, paths);
    return page.evaluateHandle((id) => {
      const dt = new DataTransfer();
      for (const f of document.getElementById(id).files) dt.items.add(f);
      return dt;
    }, id);
  };
  await page.evaluate((o) => import('./web/census.js').then((m) => Object.assign(m.censusOptions, o)),
    { timing: true, planners: planners == null ? null : Number(planners), batchFiles: batchFiles == null ? undefined : Number(batchFiles) });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  {
    // The page at rest with the panel open, as the floor of what the browser spends anyway.
    const meter = new CpuMeter();
    await new Promise((ok) => setTimeout(ok, IDLE_MS));
    const cpu = meter.stop();
    console.log(`idle ${IDLE_MS / 1000} s: browser CPU ${cpu.total.toFixed(2)} s; ${cpu.threads.slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  }
  if (floor) {
    const meter = new CpuMeter();
    const { ms, read } = await page.evaluate(async (files) => {
      const { readBatch } = await import('./web/census-read.js');
      const list = files.map((file) => ({ name: file.name, file }));
      const t0 = performance.now();
      let read = 0;
      const inflight = [];
      for (let i = 0; i < list.length; i += 32) {
        inflight.push(readBatch(list.slice(i, i + 32)).then(({ bytes }) => { read += bytes.length; }));
        if (inflight.length >= 4) await inflight.shift();
      }
      await Promise.all(inflight);
      return { ms: performance.now() - t0, read };
    }, await (await dropped()).evaluateHandle((d) => [...d.files]));
    const cpu = meter.stop();
    console.log(`floor: the ${n} Files${disk ? ' (on disk)' : ''} read alone (${(read / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(2)} s; browser CPU ${cpu.total.toFixed(2)} s; ${cpu.threads.slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  }
  for (let run = 0; run < runs; run++) {
    old = before != null && run % 2 === 1;
    const dt = await dropped();
    await page.evaluate(() => { window.censusT0 = performance.now(); document.querySelector('#census-status').textContent = ''; });
    const meter = new CpuMeter();
    // How long the page's main thread was blocked at a time (long tasks, over 50 ms each).
    await page.evaluate(() => {
      window.censusBlocked = { longest: 0, total: 0 };
      window.censusLongTasks?.disconnect();
      window.censusLongTasks = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          window.censusBlocked.longest = Math.max(window.censusBlocked.longest, e.duration);
          window.censusBlocked.total += e.duration;
        }
      });
      window.censusLongTasks.observe({ type: 'longtask' });
    });
    await page.dispatchEvent('#census', 'drop', { dataTransfer: dt });
    await page.waitForFunction(() => /entries/.test(document.querySelector('#census-status')?.textContent ?? ''), null, { timeout: 600000 });
    const [ms, blocked] = await page.evaluate(() => [performance.now() - window.censusT0, window.censusBlocked]);
    const cpu = meter.stop();
    const status = await page.textContent('#census-status');
    const r = await page.evaluate(() => import('./web/census.js').then((m) => m.censusReport()));
    const t = r.timing;
    const f = (x) => (x / 1000).toFixed(2);
    console.log(`${old ? 'BEFORE ' : ''}page census${disk ? ' of Files on disk' : ''} (${planners ?? 'default'} planners, ${cores} cores): ${r.files} MeshSets (${(bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(2)} s, ${Math.round(r.files / (ms / 1000))} files/s (the page blocked ${(blocked.longest / 1000).toFixed(2)} s at most, ${(blocked.total / 1000).toFixed(2)} s in all); ${r.entries.length} entries; status "${status}"`);
    console.log(`  browser CPU ${cpu.total.toFixed(2)} s; threads (sampled): ${cpu.threads.slice(0, 8).map(([k, v, c]) => `${k}${c > 1 ? ` ×${c}` : ''} ${v.toFixed(2)}`).join(', ')}`);
    if (t) console.log(`  census worker (s): read ${f(t.read)}, plan ${f(t.plan)} (${t.own} batches), hold ${f(t.hold)}, count ${f(t.count)}, waiting ${f(t.wait)}, report ${f(t.report)}; planners: ${t.batches} batches, ${t.planners.read == null ? '' : `waiting for reads ${f(t.planners.read)}, `}planning ${f(t.planners.plan)}${t.planners.idle == null ? '' : `, idle ${f(t.planners.idle)}`}`);
  }
  if (page.errors.length) console.log(`page errors: ${page.errors.join('; ')}`);
} finally {
  await env.close();
}
