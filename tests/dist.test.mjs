// npm run build's dist/ is a self-contained static site: served from a sub-path by a plain
// static server, it loads its wasm and opens the built-in sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { ROOT, OUT, CHROMIUM_ARGS } from './browser.mjs';

test('dist/ works from a sub-path of a static host', async () => {
  execFileSync('node', [join(ROOT, 'scripts/dist.mjs')], { stdio: 'pipe' });
  assert.ok(existsSync(join(ROOT, 'dist/pkg/meshscope_bg.wasm')));
  const site = join(OUT, 'site');
  rmSync(site, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), join(site, 'meshscope'), { recursive: true });
  const server = await serve(site, 0);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const failed = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(`http://127.0.0.1:${server.address().port}/meshscope/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    const magic = await page.evaluate(() => [0, 1, 2, 3].map((o) => document.querySelector(`#hex [data-offset="${o}"]`)?.textContent));
    assert.deepEqual(magic, ['45', '50', '4c', '59']);
    assert.deepEqual(failed, []);
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
});
