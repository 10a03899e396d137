// The annotation file parser the page imports with (web/annotation-store.js
// parseAnnotationFile, called by web/annotations.js) on a few thousand generated invalid
// files: a valid file with one thing broken at a time (every field given every wrong kind of
// value, keys removed, anchors out of range, shared ids, wrong version), then the valid text
// cut at every length and with seeded random bytes changed. A broken file is refused with
// the parser's own message and nothing else thrown; whatever it accepts is clean and
// exports and parses back to the same list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnnotationFile, annotationFile, TYPES, CONFIDENCES } from '../web/annotation-store.js';

const REFUSED = /^not a Meshscope annotation file: /;

const good = (i = 0) => ({
  id: `a-${i}`, name: `field ${i}`, type: 'u32', confidence: 'observed', note: 'n',
  anchor: i % 2
    ? { kind: 'record', format: 'gem-ply', record: 'MESH[*]', offset: 12, length: 4 }
    : { kind: 'file', file: 'x.ply', size: 1234, offset: 100, length: 4 },
  created: '2026-01-01T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z',
});
const file = (annotations, top = {}) => JSON.stringify({ meshscope: 'annotations', version: 1, annotations, ...top });

/** Values of every JSON kind, none a valid text, type, count or object where one is wanted. */
const WRONG = [null, true, false, 0, -1, 1.5, 2 ** 53, -0.5, 1e300, '', 'x', '-1', [], [1], {}, { a: 1 }];

/** What a clean accepted annotation must be. */
function isClean(a) {
  const an = a.anchor;
  const count = (v) => Number.isSafeInteger(v) && v >= 0;
  return typeof a.id === 'string' && a.id !== '' && typeof a.name === 'string' && typeof a.note === 'string'
    && TYPES.includes(a.type) && CONFIDENCES.includes(a.confidence)
    && typeof a.created === 'string' && typeof a.updated === 'string'
    && count(an.offset) && count(an.length) && an.length > 0
    && (an.kind === 'record' ? typeof an.format === 'string' && typeof an.record === 'string' && an.record !== ''
      : an.kind === 'file' && typeof an.file === 'string' && count(an.size));
}

/** Parses `text`: refused with the parser's message, or accepted clean and stable. */
function parse(text) {
  let list;
  try {
    list = parseAnnotationFile(text);
  } catch (e) {
    assert.ok(e instanceof Error && REFUSED.test(e.message), `${JSON.stringify(text).slice(0, 200)}: threw ${e}`);
    return null;
  }
  assert.ok(Array.isArray(list) && list.every(isClean), `accepted unclean: ${text.slice(0, 200)}`);
  assert.deepEqual(parseAnnotationFile(annotationFile(list)), list, 'an accepted list exports and parses back');
  return list;
}

/** Every file with one thing broken. */
function broken() {
  const out = [];
  const fields = ['id', 'name', 'type', 'confidence', 'note', 'anchor'];
  const anchorFields = ['kind', 'offset', 'length', 'format', 'record', 'file', 'size'];
  for (const i of [0, 1]) {
    for (const k of fields) {
      const a = good(i);
      delete a[k];
      out.push(file([good(5), a]));
      for (const w of WRONG) {
        // Any text is a valid name or note, and any but the empty one a valid id.
        const validText = typeof w === 'string' && ['name', 'note', 'id'].includes(k) && (k !== 'id' || w !== '');
        if (!validText) out.push(file([{ ...good(i), [k]: w }]));
      }
    }
    for (const k of anchorFields) {
      const a = good(i);
      if (!(k in a.anchor)) continue;
      const d = structuredClone(a);
      delete d.anchor[k];
      out.push(file([d]));
      for (const w of WRONG) {
        const b = structuredClone(a);
        b.anchor[k] = w;
        // 0 and a few numbers are valid offsets and sizes; only a length of 0 is not.
        const valid = Number.isSafeInteger(w) && w >= 0 && (k !== 'length' || w > 0) && ['offset', 'length', 'size'].includes(k);
        // Any text is a valid format or file name, and any but the empty one a record.
        const validText = typeof w === 'string' && (k === 'format' || k === 'file' || (k === 'record' && w !== ''));
        if (!valid && !validText) out.push(file([b]));
      }
    }
  }
  for (const w of WRONG) {
    out.push(file([good()], { meshscope: w }));
    out.push(file([good()], { version: w }));
    if (!Array.isArray(w) || w.length) out.push(file(w));
    out.push(file([w]));
  }
  out.push(file([good(1), good(1)]), file([good()], { version: 2 }));
  for (const top of WRONG) out.push(JSON.stringify(top));
  return out;
}

test('every file with one thing broken is refused with the parser\'s message', () => {
  const files = broken();
  let refused = 0;
  for (const text of files) {
    assert.equal(parse(text), null, `accepted: ${text}`);
    refused++;
  }
  assert.equal(refused, files.length);
  // The unbroken file, for contrast, is accepted whole.
  assert.deepEqual(parse(file([good(0), good(1)])).map((a) => a.id), ['a-0', 'a-1']);
});

test('the file cut at every length, and with random bytes changed, never breaks the parser', () => {
  const text = file([good(0), good(1), good(2)]);
  let refused = 0;
  for (let n = 0; n < text.length; n++) refused += parse(text.slice(0, n)) === null;
  assert.equal(refused, text.length, 'every cut is refused: the text ends inside the object');
  // A fixed LCG, so every run changes the same bytes.
  let s = 0x2545f491;
  const next = (m) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s % m; };
  const chars = '{}[]",:0123456789-.eE truenullfalse\\u00a\u0000\u00ff\ud800';
  let runs = 0;
  for (; runs < 3000; runs++) {
    const b = text.split('');
    for (let k = 1 + next(4); k > 0; k--) b[next(b.length)] = chars[next(chars.length)];
    parse(b.join(''));
  }
  assert.equal(runs, 3000);
});
