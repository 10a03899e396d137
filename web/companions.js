// Which open MeshSet a companion file belongs to: a geometry chunk by the GUID in its name
// (either text form, as crate/src/formats/frostbite/guid.rs reads names), a `.resmeta` by
// name (`m0.res.resmeta` or `m0.resmeta` beside `m0.res`). The decoder's `attach` still
// decides; this only picks whom to ask, so a companion never lands on the wrong MeshSet.

const HEXD = /[0-9a-f]/i;

/** The chunk GUID in a file name as its 16 bytes in file order (32 hex digits), or null. */
export function guidOfName(name) {
  const dashed = /(?:^|[^0-9a-f])([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})(?![0-9a-f])/i.exec(name);
  if (dashed) return guidBytesOfText(dashed.slice(1).join('-'));
  for (const m of name.matchAll(/[0-9a-f]+/gi)) {
    const before = m.index > 0 && HEXD.test(name[m.index - 1]);
    if (!before && m[0].length === 32) return m[0].toLowerCase();
  }
  return null;
}

/** The bytes (32 hex digits, file order) of a GUID in its text form (first three groups
 *  little-endian). */
export function guidBytesOfText(text) {
  const t = text.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(t)) return null;
  const b = t.match(/../g);
  return [b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], ...b.slice(8)].join('');
}

/** The chunk GUID of each LOD of a MeshSet, from its summary's facts (`lod[N]`: "… chunk
 *  <text form>"), as bytes; null for a LOD whose fact names none. */
export function lodGuids(summary) {
  const out = [];
  for (const [k, v] of summary?.facts ?? []) {
    const m = /^lod\[(\d+)\]$/.exec(k);
    if (!m) continue;
    const g = /chunk ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i.exec(v);
    out[Number(m[1])] = g ? guidBytesOfText(g[1]) : null;
  }
  return out;
}

export const isResmeta = (name) => /\.resmeta$/i.test(name);
export const isChunkName = (name) => /\.chunk$/i.test(name) || guidOfName(name) != null;
export const isCompanionName = (name) => isResmeta(name) || isChunkName(name);

/** The names a MeshSet's `.resmeta` may have: `NAME.resmeta`, and `STEM.resmeta` when the
 *  name has an extension. */
export function resmetaNames(setName) {
  const out = [`${setName}.resmeta`];
  const stem = setName.replace(/\.[^./]*$/, '');
  if (stem !== setName) out.push(`${stem}.resmeta`);
  return out.map((n) => n.toLowerCase());
}

/** Does companion `name` belong to the MeshSet document `set` ({name, summary})? */
export function belongsTo(name, set) {
  if (isResmeta(name)) return resmetaNames(set.name).includes(name.toLowerCase());
  const g = guidOfName(name);
  return g != null && lodGuids(set.summary).includes(g);
}
