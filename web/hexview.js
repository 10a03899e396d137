// The hex view: rows of offset, 16 bytes and ASCII. Only the rows on screen exist in the
// DOM, and the scroll range is scaled so a 512 MB file scrolls like a 512-byte one. Bytes
// and span bounds come from the document worker a window at a time (a few screens around
// the one shown), so painting a screen never waits on the worker unless it jumped far.
// Each byte carries data-offset and data-confidence; a selected byte aria-selected="true";
// bytes another panel marks (a picked triangle's vertices) the class `vx`. The comparison
// panel (web/compare.js) makes views of its own that follow no tab (`follow: false`).
import { state, on, select, setStatus, EV } from './state.js';
import { docs } from './docs.js';

export const LEVELS = ['uncovered', 'proven', 'observed', 'inferred', 'unknown'];
export const ROW = 16;
const ROW_PX = 20;
// Browsers cap an element's height near 33M px: past this the scroll range is scaled.
const MAX_SCROLL_PX = 8_000_000;
const MARGIN_ROWS = 192; // fetched beyond each edge of the screen

export class HexView {
  /** `follow`: show the active tab and the page's selection (the inspector's view); without
   *  it the owner calls `show` and overrides `current`, `tint`, `onDown` and `onKey`. */
  constructor(el, { follow = true } = {}) {
    this.el = el;
    this.doc = null;
    this.top = 0; // first row on screen
    this.rows = [];
    this.cache = null; // {handle, start, end, bytes, conf, fs}
    this.inflight = false;
    this.wanted = null;
    this.anchor = null; // where a shift-extended selection started
    this.el.replaceChildren();
    this.scroller = div('hex-scroller');
    this.scroller.tabIndex = -1; // the grid takes the keys; the bar is for the mouse
    this.spacer = div('hex-spacer');
    this.body = div('hex-rows');
    this.scroller.append(this.spacer);
    this.el.append(this.body, this.scroller);
    this.scroller.addEventListener('scroll', () => this.onScroll());
    this.el.addEventListener('wheel', (e) => {
      if (e.target === this.scroller) return;
      const rows = e.deltaMode === 1 ? e.deltaY : e.deltaY / ROW_PX;
      this.scrollToRow(this.top + Math.round(rows));
      e.preventDefault();
    }, { passive: false });
    this.body.addEventListener('mousedown', (e) => this.onDown(e));
    this.drag = null; // {anchor, x, y, moved, raf} while the button is held after a press on a byte
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    // The view's height is read only when it changes, so painting never forces a layout.
    this.viewH = 0;
    new ResizeObserver(() => { this.viewH = this.body.clientHeight; this.scrollPx = null; this.layout(); }).observe(this.el);
    this.marks = [];
    this.byteMarks = null;
    this.painted = null; // the selection and cursor the rows show
    this.following = follow;
    if (follow) this.follow();
  }

  /** Follows the page: the active tab, previews, annotations, marks and the selection. */
  follow() {
    on(EV.active, (doc) => this.show(doc));
    on(EV.preview, (file) => this.preview(file));
    on(EV.previewDecoded, ({ name, window: w }) => this.previewDecoded(name, w));
    on(EV.annotations, (marks) => { this.marks = marks; this.invalidate(); this.paint(); });
    // Bytes another panel points at besides the selection (the 3D view: a picked triangle's
    // vertices): {handle, ranges: [[start, end], ...]}, or null to clear.
    on(EV.byteMarks, (m) => { this.byteMarks = m?.ranges?.length ? m : null; this.invalidate(); this.paint(); });
    on(EV.selection, (sel) => {
      const old = this.painted;
      this.painted = { start: sel.start, end: sel.end, cursor: sel.cursor };
      this.invalidate(...[old, this.painted].filter(Boolean).flatMap((x) => [[x.start, x.end], [x.cursor, x.cursor + 1]]));
      if (sel.source !== 'hex') this.reveal(sel.cursor ?? sel.start);
      this.paint();
    });
  }

  show(doc) {
    this.doc = doc;
    this.top = 0;
    this.cache = null;
    if (!doc?.preview) this.provisional = null;
    this.firstPaint = doc && this.following ? doc.handle : null; // the page's first-rows mark
    this.painted = null;
    this.invalidate();
    this.el.dataset.handle = doc ? doc.handle : '';
    this.el.setAttribute('aria-rowcount', String(this.totalRows));
    this.layout();
    this.scrollToRow(0);
  }

  /** Shows a file's bytes straight from the File while the worker reads and decodes it:
   *  no confidence yet (no data-confidence), but the bytes are there at once. */
  preview(file) {
    this.provisional = null;
    this.show({ handle: -1, name: file.name, size: file.size, file, preview: true });
  }

  /** The first rows of a previewed file, decoded by the worker from the bytes read so far:
   *  they are shown with their confidence until the document itself replaces the preview. */
  previewDecoded(name, w) {
    if (!this.doc?.preview || this.doc.name !== name) return;
    this.provisional = { handle: -1, pending: false, provisional: true, ...decodeWindow(w.start, w.bytes, w.bounds) };
    this.cache = this.provisional;
    this.firstDecoded = name;
    this.invalidate();
    this.paint();
  }

  get totalRows() {
    return this.doc ? Math.ceil(this.doc.size / ROW) : 0;
  }

  get visibleRows() {
    return Math.max(1, Math.floor(this.viewH / ROW_PX));
  }

  layout() {
    const want = this.visibleRows + 1;
    while (this.rows.length < want) {
      const r = this.makeRow();
      this.rows.push(r);
      this.body.append(r.el);
    }
    while (this.rows.length > want) this.rows.pop().el.remove();
    const px = Math.min(this.totalRows * ROW_PX, MAX_SCROLL_PX);
    if (px !== this.scrollPx) {
      this.scrollPx = px; // the scroll range: the spacer is one view taller than this
      this.spacer.style.height = `${px + this.viewH}px`;
    }
    this.paint();
  }

  makeRow() {
    const el = div('hex-row');
    el.setAttribute('role', 'row');
    const off = div('hex-off');
    const offText = document.createTextNode('');
    off.append(offText);
    const bytes = div('hex-bytes');
    const ascii = div('hex-ascii');
    const cells = [];
    const chars = [];
    const text = [];
    const ctext = [];
    for (let i = 0; i < ROW; i++) {
      const b = document.createElement('span');
      b.className = 'b';
      b.setAttribute('role', 'gridcell');
      bytes.append(b);
      cells.push(b);
      text.push(b.appendChild(document.createTextNode('')));
      const c = document.createElement('span');
      c.className = 'c';
      ascii.append(c);
      chars.push(c);
      ctext.push(c.appendChild(document.createTextNode('')));
    }
    el.append(off, bytes, ascii);
    const k = Array.from({ length: ROW }, () => ({ v: -1, cls: '', ccls: '', off: -2, code: -2, sel: false, cur: false }));
    return { el, off: offText, cells, chars, text, ctext, k, start: -1, valid: false, y: -1, handle: null };
  }

  maxTop() {
    return Math.max(0, this.totalRows - this.visibleRows);
  }

  onScroll() {
    const st = this.scroller.scrollTop;
    if (Math.abs(st - (this.lastScrollTop ?? -1)) < 1) return; // our own scrollToRow
    this.lastScrollTop = st;
    const range = this.scrollPx;
    const frac = range > 0 ? Math.min(1, st / range) : 0;
    this.top = Math.round(frac * this.maxTop());
    this.paint();
    this.onTop?.(this.top);
  }

  scrollToRow(row) {
    this.top = Math.max(0, Math.min(this.maxTop(), row));
    const max = this.maxTop();
    const want = max > 0 ? (this.top / max) * this.scrollPx : 0;
    if (Math.abs((this.lastScrollTop ?? -1) - want) >= 1) {
      this.lastScrollTop = want;
      this.scroller.scrollTop = want;
    }
    this.paint();
    this.onTop?.(this.top);
  }

  /** The selection and cursor to show: the page's, in this view's document. */
  current(doc) {
    const sel = state.selection?.handle === doc.handle ? state.selection : null;
    return { sel, cursor: sel ? state.cursor : null };
  }

  /** Scrolls so byte `offset` is on screen. */
  reveal(offset) {
    const row = Math.floor(offset / ROW);
    if (row < this.top || row >= this.top + this.visibleRows) {
      this.scrollToRow(row - Math.floor(this.visibleRows / 3));
    }
  }

  /** Asks the worker for the window around [start, end) unless the cache holds it. */
  ensure(start, end) {
    const p = this.provisional;
    if (this.doc.preview && p && p.start <= start && p.end >= end) { this.cache = p; return; }
    const c = this.cache;
    if (c && c.handle === this.doc.handle && c.start <= start && c.end >= end) return;
    const want = {
      handle: this.doc.handle,
      start: Math.max(0, start - MARGIN_ROWS * ROW),
      end: Math.min(this.doc.size, end + MARGIN_ROWS * ROW),
    };
    if (this.inflight) { this.wanted = want; return; }
    this.fetch(want);
  }

  async fetch(w) {
    this.inflight = true;
    try {
      const r = this.doc?.preview
        ? { bytes: new Uint8Array(await this.doc.file.slice(w.start, w.end).arrayBuffer()), bounds: [], pending: true }
        : await docs.window(w.handle, w.start, w.end);
      if (this.doc?.handle === w.handle) {
        this.cache = { handle: w.handle, pending: !!r.pending, ...decodeWindow(w.start, r.bytes, r.bounds) };
      }
    } catch (e) {
      setStatus(`could not read bytes: ${e.message}`);
    } finally {
      this.inflight = false;
    }
    const next = this.wanted;
    this.wanted = null;
    this.paint();
    if (next && next.handle === this.doc?.handle) this.ensure(next.start + MARGIN_ROWS * ROW, next.end - MARGIN_ROWS * ROW);
  }

  /** Marks rows for repainting: all of them, or those holding bytes of the given ranges. */
  invalidate(...ranges) {
    for (const r of this.rows) {
      if (!ranges.length || ranges.some(([s, e]) => r.start < e && r.start + ROW > s)) r.valid = false;
    }
  }

  /** Puts the rows on screen. A row keeps its DOM content while it stays on screen (it only
   *  moves), so scrolling by a few rows repaints a few rows, whatever the file's size. */
  paint() {
    const doc = this.doc;
    if (!doc) return;
    const start = this.top * ROW;
    const end = Math.min(doc.size, start + this.rows.length * ROW);
    this.ensure(start, end);
    const c = this.cache?.handle === doc.handle ? this.cache : null;
    const { sel, cursor } = this.current(doc);
    const n = this.rows.length;
    // Rows already showing a wanted offset keep it; the others are free for the rest.
    const keep = new Map();
    const free = [];
    for (const r of this.rows) {
      const j = (r.start - start) / ROW;
      if (r.valid && r.handle === doc.handle && j >= 0 && j < n && Number.isInteger(j) && !keep.has(j)) keep.set(j, r);
      else free.push(r);
    }
    let complete = true;
    for (let j = 0; j < n; j++) {
      let r = keep.get(j);
      const rowStart = start + j * ROW;
      if (!r) {
        r = free.pop();
        r.valid = this.paintRow(r, rowStart, doc, c, sel, cursor);
        r.start = rowStart;
        r.handle = doc.handle;
      }
      if (!r.valid && rowStart < doc.size) complete = false;
      if (r.y !== j) { r.y = j; r.el.style.transform = `translateY(${j * ROW_PX}px)`; }
      if (r.index !== rowStart / ROW) { r.index = rowStart / ROW; r.el.setAttribute('aria-rowindex', r.index + 1); }
    }
    // The cursor's cell is the grid's active descendant while it is on screen.
    const curCell = this.body.querySelector('#hex-cursor');
    if (curCell) this.el.setAttribute('aria-activedescendant', 'hex-cursor');
    else this.el.removeAttribute('aria-activedescendant');
    if (complete && c?.provisional && this.firstDecoded === doc.name) {
      this.firstDecoded = null;
      requestAnimationFrame(() => performance.mark(`hex-first-decoded-preview:${doc.name}`));
    }
    if (complete && this.firstPaint === doc.handle) {
      this.firstPaint = null;
      // The rows are in the DOM; the next frame puts them on screen.
      requestAnimationFrame(() => {
        if (doc.preview) performance.mark(`hex-first-bytes:${doc.name}`);
        else performance.mark(`hex-first-rows:${doc.handle}`);
      });
    }
  }

  /** Paints one row; false if some of its bytes are not loaded yet. Each cell's last
   *  written value is kept in `r.k` so unchanged text, classes and attributes are not
   *  written again (a full repaint otherwise costs more than a frame on a slow machine). */
  paintRow(r, rowStart, doc, c, sel, cursor) {
    if (rowStart >= doc.size) {
      // Past the end: hidden, and holding no offsets (so no query finds a stale byte).
      r.el.hidden = true;
      r.cells.forEach((cell, i) => {
        cell.removeAttribute('data-offset');
        cell.removeAttribute('data-confidence');
        cell.removeAttribute('aria-selected');
        if (r.k[i].cur) cell.removeAttribute('id');
        Object.assign(r.k[i], { v: -1, cls: '', ccls: '', off: -2, code: -2, sel: false, cur: false });
      });
      return true;
    }
    r.el.hidden = false;
    r.off.nodeValue = rowStart.toString(16).padStart(8, '0');
    const bm = this.byteMarks?.handle === doc.handle ? this.byteMarks.ranges : null;
    let complete = true;
    const k0 = c ? rowStart - c.start : -1;
    for (let i = 0; i < ROW; i++) {
      const o = rowStart + i;
      const cell = r.cells[i];
      const k = k0 + i;
      const loaded = c && k >= 0 && k < c.bytes.length && o < doc.size;
      if (!loaded && o < doc.size) complete = false;
      const v = loaded ? c.bytes[k] : o < doc.size ? 256 : 257; // 256 loading, 257 past the end
      const pending = loaded && c.pending;
      const code = loaded && !pending ? c.conf[k] : -1;
      const selected = code >= 0 && sel != null && o >= sel.start && o < sel.end;
      const cur = code >= 0 && o === cursor;
      const ann = code >= 0 && this.marks.length > 0 && this.marks.some((m) => m.start <= o && o < m.end);
      const vx = code >= 0 && bm != null && bm.some(([a, b]) => a <= o && o < b);
      const tint = code < 0 ? '' : this.tint ? this.tint(o, code) : LV_CLASS[code];
      const cls = code < 0 ? (pending ? 'b pending' : 'b none')
        : `b ${tint}${c.fs[k] ? ' fs' : ''}${selected ? ' sel' : ''}${cur ? ' cur' : ''}${ann ? ' ann' : ''}${vx ? ' vx' : ''}`;
      const ccls = code < 0 ? (pending ? 'c pending' : 'c none')
        : `c ${tint}${selected ? ' sel' : ''}${cur ? ' cur' : ''}`;
      const st = r.k[i];
      if (st.v !== v) {
        st.v = v;
        r.text[i].nodeValue = v < 256 ? HEX[v] : v === 256 ? '··' : '  ';
        r.ctext[i].nodeValue = v < 256 ? ASCII[v] : ' ';
      }
      if (st.cls !== cls) { st.cls = cls; cell.className = cls; }
      if (st.ccls !== ccls) { st.ccls = ccls; r.chars[i].className = ccls; }
      const off = loaded ? o : -1;
      if (st.off !== off) {
        st.off = off;
        if (loaded) cell.dataset.offset = o;
        else cell.removeAttribute('data-offset');
      }
      if (st.code !== code) {
        st.code = code;
        if (code >= 0) cell.dataset.confidence = LEVELS[code];
        else cell.removeAttribute('data-confidence');
      }
      if (st.sel !== selected) {
        st.sel = selected;
        if (selected) cell.setAttribute('aria-selected', 'true');
        else cell.removeAttribute('aria-selected');
      }
      if (st.cur !== cur) {
        st.cur = cur;
        if (cur) cell.id = 'hex-cursor';
        else cell.removeAttribute('id');
      }
    }
    return complete;
  }

  /** The byte a hex cell or a text-column character shows, or null. */
  offsetAt(target) {
    const cell = target.closest?.('.b[data-offset]');
    if (cell) return Number(cell.dataset.offset);
    const ch = target.closest?.('.c');
    const r = ch && this.rows.find((x) => x.el === ch.closest('.hex-row'));
    if (!r || r.handle !== this.doc?.handle || r.start < 0 || !r.k[r.chars.indexOf(ch)] || r.k[r.chars.indexOf(ch)].off < 0) return null;
    return r.start + r.chars.indexOf(ch);
  }

  /** The byte under a point, with the point held inside the rows (for a drag past an edge):
   *  the row from the height, the column from the cells of the hex or the text column. */
  offsetAtPoint(x, y) {
    const box = this.body.getBoundingClientRect();
    const yy = Math.max(box.top, Math.min(box.bottom - 1, y));
    const row = Math.min(this.totalRows - 1, this.top + Math.floor((yy - box.top) / ROW_PX));
    const r = this.rows[0];
    const cells = x >= r.chars[0].getBoundingClientRect().left ? r.chars : r.cells;
    let col = 0;
    for (let i = 1; i < ROW; i++) if (cells[i].getBoundingClientRect().left <= x) col = i;
    return Math.max(0, Math.min(this.doc.size - 1, row * ROW + col));
  }

  async onDown(e) {
    const o = this.offsetAt(e.target);
    if (o == null || !this.doc || this.doc.preview || e.button !== 0) return;
    e.preventDefault();
    this.el.focus({ preventScroll: true });
    const shift = e.shiftKey && state.cursor != null;
    if (!shift) this.anchor = o;
    this.startDrag(e);
    if (shift) {
      this.selectRange(this.anchor ?? state.cursor, o);
      return;
    }
    await this.selectField(o);
  }

  /** Dragging from a byte selects from it to the byte under the pointer; past the top or
   *  bottom edge the view scrolls, faster the further out the pointer is. */
  startDrag(e) {
    const d = { anchor: this.anchor, x: e.clientX, y: e.clientY, moved: false, raf: 0, last: null };
    this.drag = d;
    const update = () => {
      const o = this.offsetAtPoint(d.x, d.y);
      if (o === d.last) return;
      if (!d.moved && o === d.anchor) return;
      d.moved = true;
      d.last = o;
      this.selectRange(d.anchor, o);
    };
    const tick = () => {
      d.raf = 0;
      if (this.drag !== d) return;
      const box = this.body.getBoundingClientRect();
      const over = d.y < box.top ? d.y - box.top : d.y >= box.bottom ? d.y - box.bottom + 1 : 0;
      if (over) {
        const rows = Math.sign(over) * Math.min(60, Math.ceil(Math.abs(over) / ROW_PX));
        this.scrollToRow(this.top + rows);
        update();
        d.raf = requestAnimationFrame(tick);
      }
    };
    const move = (m) => {
      d.x = m.clientX;
      d.y = m.clientY;
      update();
      if (!d.raf) d.raf = requestAnimationFrame(tick);
    };
    const up = () => {
      if (d.raf) cancelAnimationFrame(d.raf);
      if (this.drag === d) this.drag = null;
      document.removeEventListener('mousemove', move);
      document.removeEventListener('mouseup', up);
    };
    document.addEventListener('mousemove', move);
    document.addEventListener('mouseup', up);
  }

  /** Selects the innermost field at `o` (one byte where no field covers it). */
  async selectField(o) {
    const handle = this.doc.handle;
    const d = this.drag;
    const span = await docs.span_at(handle, o);
    if (state.active !== handle) return;
    if (d && d.moved) return; // a drag began meanwhile: its range stands
    if (span) select(span.start, span.start + span.len, 'hex', o);
    else select(o, o + 1, 'hex', o);
  }

  selectRange(a, b) {
    select(Math.min(a, b), Math.max(a, b) + 1, 'hex', b);
  }

  onKey(e) {
    if (!this.doc || this.doc.preview || e.target !== this.el || this.doc.size === 0) return;
    const size = this.doc.size;
    const cur = state.cursor ?? this.top * ROW;
    const page = this.visibleRows * ROW;
    let to = null;
    switch (e.key) {
      case 'ArrowLeft': to = cur - 1; break;
      case 'ArrowRight': to = cur + 1; break;
      case 'ArrowUp': to = cur - ROW; break;
      case 'ArrowDown': to = cur + ROW; break;
      case 'PageUp': to = cur - page; break;
      case 'PageDown': to = cur + page; break;
      case 'Home': to = e.ctrlKey || e.metaKey ? 0 : cur - (cur % ROW); break;
      case 'End': to = e.ctrlKey || e.metaKey ? size - 1 : Math.min(size - 1, cur - (cur % ROW) + ROW - 1); break;
      case 'Enter': e.preventDefault(); this.selectField(cur); return;
      default: return;
    }
    e.preventDefault();
    to = Math.max(0, Math.min(size - 1, to));
    if (e.shiftKey) {
      this.anchor ??= cur;
      this.selectRange(this.anchor, to);
    } else {
      this.anchor = to;
      select(to, to + 1, 'hex', to);
    }
    this.reveal(to);
  }
}

/** Turns a window's bytes and span triples into per-byte confidence codes and field starts. */
export function decodeWindow(start, bytes, b) {
  const n = bytes.length;
  const conf = new Uint8Array(n);
  const fs = new Uint8Array(n);
  // Longest first, so where spans nest the innermost one colors the byte.
  const order = Array.from({ length: b.length / 3 }, (_, k) => k * 3).sort((x, y) => b[y + 1] - b[x + 1]);
  for (const i of order) {
    const s = Math.max(b[i], start);
    const e = Math.min(b[i] + b[i + 1], start + n);
    if (b[i] >= start && b[i] < start + n) fs[b[i] - start] = 1;
    if (e > s) conf.fill(b[i + 2], s - start, e - start);
  }
  return { start, end: start + n, bytes, conf, fs };
}

const ASCII = Array.from({ length: 256 }, (_, v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.'));
/** A byte's color class from its confidence code (a view's `tint` may give another). */
export const LV_CLASS = LEVELS.map((l) => `lv-${l}`);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function div(cls) {
  const d = document.createElement('div');
  d.className = cls;
  return d;
}
