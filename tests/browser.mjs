// Shared set-up for the browser tests: the static server on a free loopback port and
// Debian's Chromium driven by playwright-core (never a downloaded browser).
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT = fileURLToPath(new URL('./out/', import.meta.url));
export { SAMPLES } from './samples.mjs';
mkdirSync(OUT, { recursive: true });

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];

/** Starts the server and the browser; returns {url, browser, close}. */
export async function start() {
  const server = await serve(ROOT, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // Extra flags for experiments (the benchmark's compositor runs), space-separated.
    args: [...CHROMIUM_ARGS, ...(process.env.MESHSCOPE_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)],
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** A new page on the inspector, waiting until the wasm is loaded and the sample is open. */
export async function openPage(env, hash = '', { viewport = { width: 1400, height: 900 }, colorScheme = 'light' } = {}) {
  const page = await env.browser.newPage({ viewport, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(new Error(m.text())); });
  await page.goto(env.url + hash);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  page.errors = errors;
  return page;
}

/** Drops files given as [{name, bytes: number[]}] on the page (or on the element `target`
 *  names), as a person dragging them would. */
export async function dropFiles(page, files, target = 'body') {
  const dt = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
    return dt;
  }, files);
  await page.dispatchEvent(target, 'drop', { dataTransfer: dt });
}

/** Resolves once an image with a broken source, added now, has reported its error: any image
 * the page made before it has by then reported its own, so its onerror would have run. The
 * probe's own 404 is taken off `page.errors`. */
export async function imageErrorsReported(page) {
  const logged = new Promise((ok) => {
    const on = (m) => { if (/Failed to load resource: .* 404/.test(m.text())) { page.off('console', on); ok(m.text()); } };
    page.on('console', on);
  });
  await page.evaluate(() => new Promise((done) => {
    const probe = new Image();
    probe.onerror = done;
    probe.src = 'x';
  }));
  const text = await logged;
  const i = page.errors.findLastIndex((e) => e.message === text);
  if (i !== -1) page.errors.splice(i, 1);
}
