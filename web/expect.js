// What a file that opened as "unknown" was expected to be: its first bytes are a known magic
// with one byte changed, or its extension is a known format's and its first bytes are not
// that format's. Returns a sentence, or null when there is nothing to say. Only reads: the
// decoders (crate/src/formats) decide the format.

const PLY_MAGICS = ['EPLY', 'BPLY', 'PM01']; // GEM .ply (../shared/spec/gem-ply.md)

const show = (b) => Array.from(b, (v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.')).join('');
const hex = (b) => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join(' ');

/** The known magic `b` differs from in exactly one byte: {magic, at}, else null. */
export function nearMagic(b) {
  if (b.length < 4) return null;
  for (const m of PLY_MAGICS) {
    const diff = [0, 1, 2, 3].filter((i) => b[i] !== m.charCodeAt(i));
    if (diff.length === 1) return { magic: m, at: diff[0] };
  }
  return null;
}

/** The MeshSet header words the decoder's detection looks at, and what each must be. */
function meshsetHeader(b) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u32 = (o) => (o + 4 <= b.length ? dv.getUint32(o, true) : null);
  const u16 = (o) => (o + 2 <= b.length ? dv.getUint16(o, true) : null);
  const h = (v) => (v == null ? 'missing' : `0x${v.toString(16)}`);
  const out = [];
  const a = u32(0); const l = u32(4); const s = u32(8); const n = u16(0xb4);
  if (a !== 0xc0 && a !== 0xd0) out.push(`header size at 0 is ${h(a)}, not 0xc0 or 0xd0`);
  if (![0xb0, 0xb8, 0xbc].includes(l)) out.push(`LOD record size at 4 is ${h(l)}, not 0xb0, 0xb8 or 0xbc`);
  if (s !== 384) out.push(`section record size at 8 is ${h(s)}, not 0x180`);
  if (n == null || n < 1 || n > 7) out.push(`LOD count at 0xb4 is ${n ?? 'missing'}, not 1 to 7`);
  return out;
}

/** `head`: the file's first bytes (at least 0xb6 where there are that many). */
export function expectation(name, size, head) {
  const ext = (/\.([^.]+)$/.exec(name)?.[1] ?? '').toLowerCase();
  const first = head.subarray(0, 4);
  const near = nearMagic(head);
  if (near) {
    return `${name}: its first bytes "${show(first)}" (${hex(first)}) are the GEM .ply magic ${near.magic} with byte ${near.at} changed; a .ply starts with ${PLY_MAGICS.join(', ')}. It opened as unknown bytes.`;
  }
  if (ext === 'ply') {
    const what = size < 4 ? `it has only ${size} byte${size === 1 ? '' : 's'}` : `it starts with "${show(first)}" (${hex(first)})`;
    return `${name}: a GEM .ply starts with ${PLY_MAGICS.join(', ')}; ${what}. It opened as unknown bytes.`;
  }
  if (ext === 'res') {
    const why = meshsetHeader(head);
    if (why.length) return `${name}: not a MeshSet resource as far as its header goes (${why.join('; ')}). It opened as unknown bytes.`;
  }
  if (ext === 'chunk') {
    return `${name}: a geometry chunk is known by the GUID in its name (32 hex digits, or the 8-4-4-4-12 form), and this name has none. Open its MeshSet and attach it by hand (Attach to MeshSet…).`;
  }
  return null;
}
