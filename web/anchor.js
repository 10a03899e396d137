// Anchors: where an annotation sits, so that one made on one file applies to every file of
// the format and every record of the kind. A record is a group node of the structure tree;
// its kind is its path with indices folded (`lod[0].section[2]` -> `lod[*].section[*]`).
// Where no record holds the bytes, the anchor is the file's absolute offset.

/** `lod[0].section[12]` -> `lod[*].section[*]` */
export function foldPath(path) {
  return path.replace(/\[\d+\]/g, '[*]');
}

/** The deepest record (group node with fields, not an array) holding [start, end). */
export function recordAt(tree, start, end) {
  let best = null;
  const visit = (nodes) => {
    for (const n of nodes) {
      if (n.start <= start && end <= n.end) {
        if (n.children?.length && n.region == null) {
          best = n;
          visit(n.children);
        }
        return;
      }
    }
  };
  visit(tree);
  return best;
}

/** The anchor for bytes [start, end) of a document: record kind + offset, else file offset. */
export function anchorFor(doc, tree, start, end) {
  const rec = recordAt(tree, start, end);
  const length = end - start;
  if (rec) {
    return { kind: 'record', format: doc.summary.format, record: foldPath(rec.path), offset: start - rec.start, length };
  }
  return { kind: 'file', file: doc.name, size: doc.size, offset: start, length };
}

/** Every place an anchor lands in a document: [{start, end, record}] (record path or null). */
export function placesOf(anchor, doc, tree) {
  if (anchor.kind === 'file') {
    if (anchor.file !== doc.name || anchor.offset + anchor.length > doc.size) return [];
    return [{ start: anchor.offset, end: anchor.offset + anchor.length, record: null }];
  }
  if (anchor.format !== doc.summary.format) return [];
  const out = [];
  const visit = (nodes) => {
    for (const n of nodes) {
      if (n.region != null || !n.children?.length) continue;
      if (foldPath(n.path) === anchor.record) {
        const start = n.start + anchor.offset;
        if (start + anchor.length <= n.end || start + anchor.length <= doc.size) {
          out.push({ start, end: start + anchor.length, record: n.path });
        }
      }
      visit(n.children);
    }
  };
  visit(tree);
  return out;
}

/** Short text for an anchor: `MESH[*] +0x0c`, or `file.ply @0x1234`. */
export function describeAnchor(a) {
  const hex = (v) => `0x${v.toString(16).padStart(2, '0')}`;
  return a.kind === 'record' ? `${a.record} +${hex(a.offset)}` : `${a.file} @${hex(a.offset)}`;
}
