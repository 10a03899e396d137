// "Compare with census…": the fields of one open file whose value is rare across a census
// already made (web/census.js): held by under 1 % of the census's files, never seen there, or
// outside the set's min..max. Rows come in the shape of the diff's differences (kind `rare`)
// so the comparison panel lists, filters and selects them the same way.

/** Under this share of the census's files a value is rare. */
export const RARE_SHARE = 0.01;

/** The path with its indices folded, as the census names entries: `lod[*].section[*].flags`. */
export function fold(path) {
  return path.replace(/\[(\d+)\]/g, '[*]');
}

/** A value text as one number, when it is one (not flags, not an array). */
function scalar(text) {
  const t = String(text).split(' (')[0].trim();
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(t) ? Number(t) : null;
}

/** Every field (leaf) of a tree, in tree order. */
function* leaves(nodes) {
  for (const n of nodes ?? []) {
    if (n.value != null && n.region == null) yield n;
    yield* leaves(n.children);
  }
}

/** Why a field's value is rare in the census, or null when it is not. */
function rareness(entry, value, files) {
  const v = entry.values.find((x) => x.value === value || String(x.value) === value);
  const n = scalar(value);
  if (n != null && entry.min != null && entry.max != null && (n < entry.min || n > entry.max)) {
    return `outside ${entry.min}..${entry.max} of ${files} files`;
  }
  if (v) return v.files / files < RARE_SHARE ? `held by ${v.files} of ${files} files` : null;
  // Not listed: unseen only when the census listed every distinct value.
  return entry.values.length >= entry.distinct && !entry.tail?.capped ? `in none of ${files} files` : null;
}

/** The rare fields of a document (`format`, its `tree`) against `report`, as difference rows. */
export function rareValues(report, format, tree) {
  const entries = new Map();
  for (const e of report.entries) if (e.kind === 'field' && e.format === format) entries.set(e.path, e);
  const out = [];
  for (const n of leaves(tree)) {
    const e = entries.get(fold(n.path));
    const why = e ? rareness(e, n.value, report.files) : `a field no file of the census has`;
    if (!why) continue;
    out.push({
      path: n.path,
      kind: 'rare',
      type: n.type ?? '',
      confidence: n.confidence ?? null,
      a: { offset: n.start, len: n.end - n.start, value: n.value },
      b: { offset: null, len: 0, value: e ? `census: ${e.values.slice(0, 3).map((x) => x.value).join(', ')}${e.distinct > 3 ? ', …' : ''}` : 'census: —' },
      delta: [],
      note: why,
    });
  }
  return out;
}

/** A census saved earlier, as text: the page's report (Census… → JSON: `{files, entries}`) or
 *  `meshscope census --json` (one entry a line). In the second, the census's file count is the
 *  most files any entry was seen in (every file has its magic). Throws saying what is wrong. */
export function parseCensus(text, name = 'census') {
  const t = text.trim();
  let whole = null;
  try { whole = JSON.parse(t); } catch { /* JSON Lines, or not a census */ }
  let report = whole?.entries ? whole : null;
  if (!report) {
    const entries = t.split('\n').filter((l) => l.trim()).map((l, k) => {
      try { return JSON.parse(l); } catch (e) { throw new Error(`not a census: line ${k + 1} is not JSON (${e.message})`); }
    });
    report = { files: entries.reduce((n, e) => Math.max(n, Number(e?.files) || 0), 0), entries };
  }
  if (!Array.isArray(report?.entries) || !report.entries.every((e) => e && typeof e.path === 'string' && Array.isArray(e.values))) {
    throw new Error('not a census: no entries with a path and values');
  }
  if (!(report.files > 0)) throw new Error('not a census: it counts no files');
  return { ...report, source: name };
}
