// Annotations: the documented, versioned JSON form, its validation, and their keeping in
// IndexedDB. Every change is written at once, so a reload or a crash loses nothing.
//
// File form (version 1):
// { "meshscope": "annotations", "version": 1, "annotations": [
//   { "id": "a-…", "name": "…", "type": "u32", "confidence": "inferred", "note": "…",
//     "anchor": { "kind": "record", "format": "gem-ply", "record": "MESH[*]", "offset": 12, "length": 4 }
//            | { "kind": "file", "file": "x.ply", "size": 1234, "offset": 100, "length": 4 },
//     "created": "ISO time", "updated": "ISO time" } ] }

export const TYPES = ['u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64', 'f16', 'f32', 'f64', 'guid', 'string', 'bytes'];
export const CONFIDENCES = ['proven', 'observed', 'inferred', 'unknown'];
export const FORMAT_VERSION = 1;

const DB = 'meshscope';
const STORE = 'annotations';

function fail(why) {
  throw new Error(`not a Meshscope annotation file: ${why}`);
}

const isCount = (v) => Number.isSafeInteger(v) && v >= 0;

/** Checks one annotation; returns a clean copy or throws saying what is wrong. */
export function validateAnnotation(a, i = 0) {
  const at = `annotations[${i}]`;
  if (typeof a !== 'object' || a === null) fail(`${at} is not an object`);
  for (const k of ['id', 'name', 'note']) if (typeof a[k] !== 'string') fail(`${at}.${k} is not text`);
  if (!a.id) fail(`${at}.id is empty`);
  if (!TYPES.includes(a.type)) fail(`${at}.type "${a.type}" is not one of ${TYPES.join(', ')}`);
  if (!CONFIDENCES.includes(a.confidence)) fail(`${at}.confidence "${a.confidence}" is not one of ${CONFIDENCES.join(', ')}`);
  const an = a.anchor;
  if (typeof an !== 'object' || an === null) fail(`${at}.anchor is missing`);
  if (!isCount(an.offset) || !isCount(an.length) || an.length === 0) fail(`${at}.anchor needs a whole offset and a length above 0`);
  let anchor;
  if (an.kind === 'record') {
    if (typeof an.format !== 'string' || typeof an.record !== 'string' || !an.record) fail(`${at}.anchor needs format and record`);
    anchor = { kind: 'record', format: an.format, record: an.record, offset: an.offset, length: an.length };
  } else if (an.kind === 'file') {
    if (typeof an.file !== 'string' || !isCount(an.size)) fail(`${at}.anchor needs file and size`);
    anchor = { kind: 'file', file: an.file, size: an.size, offset: an.offset, length: an.length };
  } else {
    fail(`${at}.anchor.kind "${an.kind}" is neither record nor file`);
  }
  const now = new Date().toISOString();
  return {
    id: a.id, name: a.name, type: a.type, confidence: a.confidence, note: a.note, anchor,
    created: typeof a.created === 'string' ? a.created : now,
    updated: typeof a.updated === 'string' ? a.updated : now,
  };
}

/** Parses an exported file; throws (changing nothing) when it is not valid. */
export function parseAnnotationFile(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    fail(`not JSON (${e.message})`);
  }
  if (data?.meshscope !== 'annotations') fail('"meshscope" is not "annotations"');
  if (data.version !== FORMAT_VERSION) fail(`version ${data.version} is not ${FORMAT_VERSION}`);
  if (!Array.isArray(data.annotations)) fail('"annotations" is not a list');
  const out = data.annotations.map(validateAnnotation);
  const ids = new Set(out.map((a) => a.id));
  if (ids.size !== out.length) fail('two annotations share an id');
  return out;
}

export function annotationFile(list) {
  return JSON.stringify({ meshscope: 'annotations', version: FORMAT_VERSION, annotations: list }, null, 2);
}

export function newId() {
  return `a-${crypto.randomUUID()}`;
}

function openDb() {
  return new Promise((ok, no) => {
    let req;
    try {
      req = indexedDB.open(DB, 1);
    } catch (e) {
      no(e); // no IndexedDB at all, or one that throws (some private windows)
      return;
    }
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => ok(req.result);
    req.onerror = () => no(req.error ?? new Error('IndexedDB refused to open'));
    req.onblocked = () => no(new Error('the database is blocked by another tab'));
  });
}

function tx(db, mode, fn) {
  return new Promise((ok, no) => {
    const t = db.transaction(STORE, mode);
    const result = fn(t.objectStore(STORE));
    t.oncomplete = () => ok(result?.result ?? result);
    t.onerror = () => no(t.error);
    t.onabort = () => no(t.error);
  });
}

/** The annotations kept in this browser. Every method writes through before resolving.
 *  Without IndexedDB (`unavailable` says why) they live in this page only. */
export class AnnotationStore {
  constructor() {
    this.unavailable = null;
    this.db = openDb().catch((e) => { this.unavailable = e; return null; });
    this.list = [];
  }

  async load() {
    const db = await this.db;
    if (!db) return this.list;
    this.list = await tx(db, 'readonly', (s) => s.getAll());
    this.list.sort((a, b) => a.created.localeCompare(b.created));
    return this.list;
  }

  async put(a) {
    const clean = validateAnnotation({ ...a, updated: new Date().toISOString() });
    const db = await this.db;
    if (db) await tx(db, 'readwrite', (s) => s.put(clean));
    const i = this.list.findIndex((x) => x.id === clean.id);
    if (i >= 0) this.list[i] = clean; else this.list.push(clean);
    return clean;
  }

  async remove(id) {
    const db = await this.db;
    if (db) await tx(db, 'readwrite', (s) => s.delete(id));
    this.list = this.list.filter((a) => a.id !== id);
  }

  async clear() {
    const db = await this.db;
    if (db) await tx(db, 'readwrite', (s) => s.clear());
    this.list = [];
  }

  /** Adds every annotation of a validated list in one transaction: all or nothing. */
  async importAll(list) {
    const db = await this.db;
    if (db) await tx(db, 'readwrite', (s) => { for (const a of list) s.put(a); });
    for (const a of list) {
      const i = this.list.findIndex((x) => x.id === a.id);
      if (i >= 0) this.list[i] = a; else this.list.push(a);
    }
  }
}
