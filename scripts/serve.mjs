// A small static server for the page: index.html, web/, pkg/. No server logic; the page is
// a static site. PORT and HOST may be set; `serve(root, port)` is used by the tests too.
// Only files under the root are served: the decoded path, and the real path behind any
// symlink, must both lie inside it.
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Whether `path` is `base` or lies inside it (`base/x`, never `base-sibling/x`). */
export function inside(base, path) {
  const rel = relative(base, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The file a request names under `base`, or null when it names nothing there. */
async function fileFor(base, realBase, url) {
  let decoded;
  try {
    decoded = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null; // malformed percent-encoding
  }
  if (decoded.includes('\0')) return null;
  let path = resolve(base, `.${sep}${decoded}`);
  if (!inside(base, path)) return null;
  if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
  const real = await realpath(path).catch(() => null);
  return real && inside(realBase, real) ? real : null;
}

export async function serve(root, port = 0, host = '127.0.0.1') {
  const base = resolve(root);
  const realBase = await realpath(base);
  const server = createServer(async (req, res) => {
    const path = await fileFor(base, realBase, req.url);
    const body = path && (await readFile(path).catch(() => null));
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'access-control-allow-origin': '*',
    });
    res.end(body);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => { server.off('error', fail); ok(); });
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  try {
    const server = await serve(root, port, host);
    console.log(`Meshscope at http://${host}:${server.address().port}/`);
  } catch (e) {
    const why = e.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use (set PORT to another)`
      : e.code === 'EACCES' ? `no permission to listen on ${host}:${port} (set PORT above 1024)`
        : e.message;
    console.error(`meshscope: cannot serve: ${why}`);
    process.exit(1);
  }
}
