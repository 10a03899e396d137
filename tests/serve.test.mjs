// The static server (scripts/serve.mjs) serves files under its root and nothing else: a
// sibling folder whose name starts with the root's, encoded and raw `..`, backslashes,
// double encoding, NUL, malformed escapes and a symlink out of the root all get 404. A port
// already in use is one line on stderr and exit 1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';

const top = mkdtempSync(join(tmpdir(), 'meshscope-serve-'));
const root = join(top, 'root');
let server;
before(async () => {
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(top, 'rootsecret'));
  writeFileSync(join(root, 'a.txt'), 'inside');
  writeFileSync(join(root, 'sub', 'index.html'), '<p>sub</p>');
  writeFileSync(join(top, 'rootsecret', 's.txt'), 'secret');
  writeFileSync(join(top, 'outside.txt'), 'secret');
  symlinkSync(join(top, 'rootsecret', 's.txt'), join(root, 'link.txt'));
  server = await serve(root, 0);
});
after(async () => {
  await new Promise((ok) => server.close(ok));
  rmSync(top, { recursive: true, force: true });
});

/** GET with the path sent as written (no URL normalization on the way). */
function get(path) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.address().port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => ok({ status: res.statusCode, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('files under the root are served', async () => {
  assert.deepEqual(await get('/a.txt'), { status: 200, body: 'inside' });
  assert.deepEqual(await get('/sub/'), { status: 200, body: '<p>sub</p>' });
  assert.deepEqual(await get('/sub/../a.txt'), { status: 200, body: 'inside' }, 'a .. that stays inside');
  assert.deepEqual(await get('/sub/%2e%2e/a.txt'), { status: 200, body: 'inside' });
  assert.equal((await get('/nothing.txt')).status, 404);
});

test('no path, however encoded, reaches a file outside the root', async () => {
  const escapes = [
    '/..%2frootsecret%2fs.txt', // the sibling whose name starts with the root's
    '/..%2Frootsecret%2Fs.txt',
    '/%2e%2e/rootsecret/s.txt',
    '/%2e%2e%2frootsecret%2fs.txt',
    '/../rootsecret/s.txt',
    '/../outside.txt',
    '/sub/../../outside.txt',
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/..%5crootsecret%5cs.txt',
    '/%252e%252e/rootsecret/s.txt', // double encoding: decoded once, a name inside the root
    `/${encodeURIComponent(join(top, 'outside.txt'))}`, // an absolute path, encoded
    '//etc/passwd',
    '/a.txt%00.html',
    '/%E0%A4%A',
    '/link.txt', // a symlink inside the root to a file outside it
  ];
  for (const path of escapes) {
    const r = await get(path);
    assert.equal(r.status, 404, `${path} -> ${r.status}`);
    assert.doesNotMatch(r.body, /secret/, path);
  }
});

test('a port already in use is one clear line and exit 1', async () => {
  const script = fileURLToPath(new URL('../scripts/serve.mjs', import.meta.url));
  const port = String(server.address().port);
  const { code, stdout, stderr } = await new Promise((ok) => {
    execFile(process.execPath, [script], { env: { ...process.env, PORT: port, HOST: '127.0.0.1' } },
      (err, stdout, stderr) => ok({ code: err ? err.code : 0, stdout, stderr }));
  });
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(stderr, `meshscope: cannot serve: port ${port} on 127.0.0.1 is already in use (set PORT to another)\n`);
});
