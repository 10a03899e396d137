// The value inspector: the bytes at the cursor read as every integer and float width, both
// endians, and as a GUID in both text forms; plus the djb2-XOR hash of the selection.
import { state, on, EV } from './state.js';
import { docs } from './docs.js';

const HASH_MAX = 16 * 1024 * 1024;

export class Inspector {
  constructor(el) {
    this.el = el;
    this.token = 0;
    on(EV.active, () => this.update());
    on(EV.selection, () => this.update());
    this.update();
  }

  async update() {
    const t = ++this.token;
    const sel = state.selection;
    if (state.active == null || !sel || sel.handle !== state.active) {
      this.el.replaceChildren(note('Click a byte or a tree node to read its values.'));
      return;
    }
    const at = state.cursor ?? sel.start;
    // Hashing hundreds of MB would hold up the worker (and so the hex view): cap it.
    const hashable = sel.end - sel.start <= HASH_MAX;
    const [bytes, hash] = await Promise.all([
      docs.bytes(sel.handle, at, at + 16),
      hashable ? docs.hash_range(sel.handle, sel.start, sel.end) : null,
    ]);
    if (t !== this.token) return;
    this.el.replaceChildren(...render(at, bytes, sel, hash));
  }
}

/** The rows for bytes `b` read at offset `at`: [label, little-endian, big-endian]. */
export function values(b) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = b.length;
  const rows = [];
  const int = (label, size, get) => {
    if (n < size) return rows.push([label, '—', '—']);
    rows.push([label, String(get(true)), String(get(false))]);
  };
  int('u8', 1, () => dv.getUint8(0));
  int('i8', 1, () => dv.getInt8(0));
  int('u16', 2, (le) => dv.getUint16(0, le));
  int('i16', 2, (le) => dv.getInt16(0, le));
  int('u32', 4, (le) => dv.getUint32(0, le));
  int('i32', 4, (le) => dv.getInt32(0, le));
  int('u64', 8, (le) => dv.getBigUint64(0, le));
  int('i64', 8, (le) => dv.getBigInt64(0, le));
  int('f16', 2, (le) => fmtFloat(f16(dv.getUint16(0, le))));
  int('f32', 4, (le) => fmtFloat(dv.getFloat32(0, le)));
  int('f64', 8, (le) => fmtFloat(dv.getFloat64(0, le)));
  return rows;
}

/** The two text forms of a GUID: Microsoft's (first three groups little-endian) and bytes in order. */
export function guids(b) {
  if (b.length < 16) return null;
  const h = (i) => b[i].toString(16).padStart(2, '0');
  const r = (idx) => idx.map(h).join('');
  const ms = `${r([3, 2, 1, 0])}-${r([5, 4])}-${r([7, 6])}-${r([8, 9])}-${r([10, 11, 12, 13, 14, 15])}`;
  const raw = `${r([0, 1, 2, 3])}-${r([4, 5])}-${r([6, 7])}-${r([8, 9])}-${r([10, 11, 12, 13, 14, 15])}`;
  return { ms, raw };
}

/** IEEE half precision. */
export function f16(u) {
  const s = u & 0x8000 ? -1 : 1;
  const e = (u >> 10) & 0x1f;
  const m = u & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function fmtFloat(x) {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(9)));
}

function render(at, bytes, sel, hash) {
  const head = document.createElement('div');
  head.className = 'insp-head';
  const len = sel.end - sel.start;
  head.textContent = `cursor 0x${at.toString(16)} (${at}) · selection 0x${sel.start.toString(16)}..0x${sel.end.toString(16)}, ${len.toLocaleString()} byte${len === 1 ? '' : 's'}`;
  const table = document.createElement('table');
  table.className = 'insp';
  const tr = (cells, th = false) => {
    const r = document.createElement('tr');
    cells.forEach((c, i) => {
      const d = document.createElement(th || i === 0 ? 'th' : 'td');
      d.textContent = c;
      r.append(d);
    });
    return r;
  };
  table.append(tr(['type', 'little endian', 'big endian'], true));
  for (const row of values(bytes)) table.append(tr(row));
  const g = guids(bytes);
  const extra = document.createElement('dl');
  extra.className = 'insp-extra';
  const add = (k, v) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    extra.append(dt, dd);
  };
  add('GUID', g ? g.ms : '— (needs 16 bytes)');
  add('GUID bytes', g ? g.raw : '—');
  add('djb2-XOR (selection)', hash == null ? 'select 16 MB or less to hash' : `0x${(hash >>> 0).toString(16).padStart(8, '0')} (${hash >>> 0})`);
  return [head, table, extra];
}

function note(text) {
  const p = document.createElement('p');
  p.className = 'empty';
  p.textContent = text;
  return p;
}
