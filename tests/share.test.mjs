// The link format (web/share.js) and the annotation file format (web/annotation-store.js):
// pure functions, tested in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFragment, formatFragment, packText, unpackText, parseNumber } from '../web/share.js';
import { parseAnnotationFile, annotationFile, validateAnnotation } from '../web/annotation-store.js';

test('a fragment round-trips the view, with addresses kept exact', () => {
  const view = { src: 'https://host.example/m f/a.ply?x=1&y=2#z', sel: { start: 0x30, end: 0x3c }, tab: 2, lod: 1, pass: 'shadow' };
  assert.deepEqual(parseFragment(formatFragment(view)), view);
});

test('sel takes decimal or 0x hex, and a single offset selects one byte', () => {
  assert.deepEqual(parseFragment('#src=a.ply&sel=16-0x20').sel, { start: 16, end: 32 });
  assert.deepEqual(parseFragment('sel=0x10').sel, { start: 16, end: 17 });
  assert.equal(parseFragment('#sel=20-10').sel, undefined, 'an empty or reversed range is ignored');
  assert.equal(parseFragment('#sel=abc-1').sel, undefined);
  assert.equal(parseNumber('0x1F'), 31);
  assert.equal(parseNumber('12x'), null);
});

test('annotations compress into the fragment and come back the same', async () => {
  const text = annotationFile([{ id: 'a-1', name: 'mystery', type: 'u32', confidence: 'inferred', note: 'é <b>', anchor: { kind: 'record', format: 'gem-ply', record: 'MESH[*]', offset: 12, length: 4 }, created: 't', updated: 't' }]);
  const packed = await packText(text);
  assert.match(packed, /^[A-Za-z0-9_-]+$/, 'base64url: safe in a fragment without escaping');
  assert.equal(await unpackText(packed), text);
});

test('an annotation file is validated whole, and says what is wrong', () => {
  const good = { id: 'a-1', name: 'n', type: 'f32', confidence: 'observed', note: '', anchor: { kind: 'file', file: 'x.bin', size: 100, offset: 4, length: 4 } };
  const file = (list, extra = {}) => JSON.stringify({ meshscope: 'annotations', version: 1, annotations: list, ...extra });
  assert.equal(parseAnnotationFile(file([good]))[0].anchor.offset, 4);
  assert.throws(() => parseAnnotationFile('{'), /not JSON/);
  assert.throws(() => parseAnnotationFile(file([good], { version: 2 })), /version 2/);
  assert.throws(() => parseAnnotationFile(file([{ ...good, type: 'u128' }])), /annotations\[0\]\.type/);
  assert.throws(() => parseAnnotationFile(file([good, { ...good, anchor: { ...good.anchor, length: 0 } }])), /annotations\[1\]\.anchor/);
  assert.throws(() => parseAnnotationFile(file([good, good])), /share an id/);
  assert.throws(() => validateAnnotation({ ...good, anchor: { kind: 'record', offset: 1, length: 1 } }), /format and record/);
});
