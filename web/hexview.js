// The hex view: rows of offset, 16 bytes and ASCII. Only the rows on screen exist in the
// DOM, and the scroll range is scaled so a 512 MB file scrolls like a 512-byte one.
// Each byte carries data-offset and data-confidence; a selected byte aria-selected="true".
import { state, on, select } from './state.js';

export const LEVELS = ['uncovered', 'proven', 'observed', 'inferred', 'unknown'];
const ROW = 16;
const ROW_PX = 20;
// Browsers cap an element's height near 33M px: past this the scroll range is scaled.
const MAX_SCROLL_PX = 8_000_000;

export class HexView {
  constructor(el, api) {
    this.el = el;
    this.api = api;
    this.doc = null;
    this.top = 0; // first row on screen
    this.rows = [];
    this.el.innerHTML = '';
    this.scroller = div('hex-scroller');
    this.spacer = div('hex-spacer');
    this.body = div('hex-rows');
    this.scroller.append(this.spacer);
    this.el.append(this.body, this.scroller);
    this.scroller.addEventListener('scroll', () => this.onScroll());
    this.el.addEventListener('wheel', (e) => {
      if (e.target === this.scroller) return;
      this.scrollToRow(this.top + Math.round(e.deltaY / ROW_PX));
      e.preventDefault();
    }, { passive: false });
    this.body.addEventListener('click', (e) => this.onClick(e));
    new ResizeObserver(() => this.layout()).observe(this.el);
    on('active', (doc) => this.show(doc));
    on('selection', (sel) => {
      if (sel.source !== 'hex') this.reveal(sel.start);
      this.paint();
    });
  }

  show(doc) {
    this.doc = doc;
    this.top = 0;
    this.layout();
  }

  get totalRows() {
    return this.doc ? Math.ceil(this.doc.size / ROW) : 0;
  }

  get visibleRows() {
    return Math.max(1, Math.floor(this.body.clientHeight / ROW_PX));
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
    this.spacer.style.height = `${px + this.body.clientHeight}px`;
    this.paint();
  }

  makeRow() {
    const el = div('hex-row');
    const off = div('hex-off');
    const bytes = div('hex-bytes');
    const ascii = div('hex-ascii');
    const cells = [];
    const chars = [];
    for (let i = 0; i < ROW; i++) {
      const b = document.createElement('span');
      b.className = 'b';
      bytes.append(b);
      cells.push(b);
      const c = document.createElement('span');
      c.className = 'c';
      ascii.append(c);
      chars.push(c);
    }
    el.append(off, bytes, ascii);
    return { el, off, cells, chars };
  }

  maxTop() {
    return Math.max(0, this.totalRows - this.visibleRows);
  }

  onScroll() {
    const range = this.scroller.scrollHeight - this.scroller.clientHeight;
    if (this.ignoreScroll) { this.ignoreScroll = false; return; }
    const frac = range > 0 ? this.scroller.scrollTop / range : 0;
    this.top = Math.round(frac * this.maxTop());
    this.paint();
  }

  scrollToRow(row) {
    this.top = Math.max(0, Math.min(this.maxTop(), row));
    const range = this.scroller.scrollHeight - this.scroller.clientHeight;
    const max = this.maxTop();
    this.ignoreScroll = true;
    this.scroller.scrollTop = max > 0 ? (this.top / max) * range : 0;
    this.paint();
  }

  /** Scrolls so byte `offset` is on screen. */
  reveal(offset) {
    const row = Math.floor(offset / ROW);
    if (row < this.top || row >= this.top + this.visibleRows) {
      this.scrollToRow(row - Math.floor(this.visibleRows / 3));
    }
  }

  paint() {
    const doc = this.doc;
    if (!doc) return;
    const start = this.top * ROW;
    const end = Math.min(doc.size, start + this.rows.length * ROW);
    const bytes = this.api.bytes(doc.handle, start, end);
    const conf = new Uint8Array(end - start);
    const fieldStart = new Uint8Array(end - start);
    const b = this.api.span_bounds(doc.handle, start, end);
    for (let i = 0; i < b.length; i += 3) {
      const s = Math.max(b[i], start);
      const e = Math.min(b[i] + b[i + 1], end);
      if (b[i] >= start) fieldStart[b[i] - start] = 1;
      conf.fill(b[i + 2], s - start, e - start);
    }
    const sel = state.selection?.handle === doc.handle ? state.selection : null;
    this.rows.forEach((r, ri) => {
      const rowStart = start + ri * ROW;
      if (rowStart >= doc.size) {
        r.el.hidden = true;
        return;
      }
      r.el.hidden = false;
      r.off.textContent = rowStart.toString(16).padStart(8, '0');
      for (let i = 0; i < ROW; i++) {
        const o = rowStart + i;
        const cell = r.cells[i];
        const ch = r.chars[i];
        if (o >= doc.size) {
          cell.textContent = '  ';
          ch.textContent = ' ';
          cell.removeAttribute('data-offset');
          cell.className = 'b none';
          ch.className = 'c none';
          cell.removeAttribute('aria-selected');
          continue;
        }
        const v = bytes[o - start];
        const level = LEVELS[conf[o - start]];
        cell.textContent = HEX[v];
        ch.textContent = v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.';
        cell.dataset.offset = o;
        cell.dataset.confidence = level;
        const selected = sel && o >= sel.start && o < sel.end;
        cell.className = `b lv-${level}${fieldStart[o - start] ? ' fs' : ''}${selected ? ' sel' : ''}`;
        ch.className = `c lv-${level}${selected ? ' sel' : ''}`;
        if (selected) cell.setAttribute('aria-selected', 'true');
        else cell.removeAttribute('aria-selected');
      }
    });
  }

  onClick(e) {
    const cell = e.target.closest('.b[data-offset]');
    if (!cell || !this.doc) return;
    const o = Number(cell.dataset.offset);
    const span = this.api.span_at(this.doc.handle, o);
    if (span) select(span.start, span.start + span.len, 'hex');
    else select(o, o + 1, 'hex');
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function div(cls) {
  const d = document.createElement('div');
  d.className = cls;
  return d;
}

