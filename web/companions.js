// Which open MeshSet a companion file belongs to: a geometry chunk by the GUID in its name
// (read by the decoder's own rule, crate/src/formats/frostbite/guid.rs, through wasm), a
// `.resmeta` by name (`m0.res.resmeta` or `m0.resmeta` beside `m0.res`). The decoder's `attach`
// still decides; this only picks whom to ask, so a companion never lands on the wrong MeshSet.
// The page's wasm instance (web/wasm.js) is loaded before any file is opened.
import { guid_of_name } from '../pkg/meshscope.js';

/** The chunk GUID in a file name as its 16 bytes in file order (32 hex digits), or null. */
export function guidOfName(name) {
  return guid_of_name(name) ?? null;
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
    const g = /\bchunk (\S+)/.exec(v);
    out[Number(m[1])] = g ? guidOfName(g[1]) : null;
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
