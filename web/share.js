// The view in the URL fragment, so a link shows another person what you see.
//
//   #src=<URL-encoded address>&sel=<start>-<end>&tab=<n>&lod=<n>&pass=<name>&ann=<data>
//
// - src: where the file came from (http, https or a relative address); the page fetches it.
// - sel: the selected bytes [start, end), each decimal or 0x hex.
// - tab: which open tab (0-based) was showing; lod and pass: the 3D view's LOD and pass.
// - ann: the annotations, as the annotation file's JSON, deflate-raw compressed, base64url.
// Unknown keys are ignored, so later versions can add some.

export const MAX_SRC_BYTES = 1 << 30; // a 1 GiB cap on what #src= will download

export function parseNumber(s) {
  if (typeof s !== 'string' || !/^(0x[0-9a-f]+|\d+)$/i.test(s.trim())) return null;
  const v = s.trim().toLowerCase().startsWith('0x') ? parseInt(s.trim().slice(2), 16) : parseInt(s.trim(), 10);
  return Number.isSafeInteger(v) ? v : null;
}

/** Reads a fragment (with or without '#') into {src, sel, tab, lod, pass, ann}. */
export function parseFragment(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const out = {};
  if (p.get('src')) out.src = p.get('src');
  const sel = p.get('sel')?.split('-');
  if (sel?.length === 2) {
    const [a, b] = sel.map(parseNumber);
    if (a != null && b != null && b > a) out.sel = { start: a, end: b };
  } else if (sel?.length === 1 && parseNumber(sel[0]) != null) {
    const a = parseNumber(sel[0]);
    out.sel = { start: a, end: a + 1 };
  }
  for (const k of ['tab', 'lod']) {
    const v = parseNumber(p.get(k) ?? '');
    if (v != null) out[k] = v;
  }
  if (p.get('pass')) out.pass = p.get('pass');
  if (p.get('ann')) out.ann = p.get('ann');
  return out;
}

export function formatFragment({ src, sel, tab, lod, pass, ann }) {
  const parts = [];
  // URLSearchParams would turn spaces into '+'; encodeURIComponent keeps the address exact.
  if (src) parts.push(`src=${encodeURIComponent(src)}`);
  if (sel) parts.push(`sel=0x${sel.start.toString(16)}-0x${sel.end.toString(16)}`);
  if (tab != null) parts.push(`tab=${tab}`);
  if (lod != null) parts.push(`lod=${lod}`);
  if (pass) parts.push(`pass=${encodeURIComponent(pass)}`);
  if (ann) parts.push(`ann=${ann}`);
  return `#${parts.join('&')}`;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s) {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

export async function packText(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

export async function unpackText(data) {
  return new TextDecoder().decode(await pipe(fromBase64Url(data), new DecompressionStream('deflate-raw')));
}

/**
 * Fetches `src` with progress and a size limit. Resolves to the bytes, or throws an Error whose
 * message says plainly what went wrong (unreachable, HTTP status, too large, CORS).
 */
export async function fetchSource(src, onProgress = () => {}, limit = MAX_SRC_BYTES) {
  let res;
  try {
    res = await fetch(src, { mode: 'cors' });
  } catch (e) {
    throw new Error(`could not load ${src}: the address is unreachable or does not allow cross-origin reads (${e.message})`);
  }
  if (!res.ok) throw new Error(`could not load ${src}: HTTP ${res.status} ${res.statusText}`.trim());
  const total = Number(res.headers.get('content-length')) || 0;
  if (total > limit) throw new Error(`${src} is ${total.toLocaleString()} bytes, over the ${limit.toLocaleString()}-byte limit`);
  const reader = res.body.getReader();
  const parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    got += value.length;
    if (got > limit) {
      reader.cancel();
      throw new Error(`${src} is over the ${limit.toLocaleString()}-byte limit`);
    }
    parts.push(value);
    onProgress(got, total);
  }
  const out = new Uint8Array(got);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
