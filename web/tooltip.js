// The hover tooltip of the hex view: the field under the pointer (path, type, value,
// confidence, note), placed below the byte's row (above it near the bottom) so it never
// covers the byte. Every string from the file goes in as text.
import { state } from './state.js';
import { docs } from './docs.js';
import { decodeAs } from './decode.js';

export function attachTooltip(hexEl) {
  const tip = document.createElement('div');
  tip.id = 'tooltip';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  document.body.append(tip);
  let shown = null; // offset the tooltip is for
  let token = 0;

  hexEl.addEventListener('mouseover', async (e) => {
    const cell = e.target.closest?.('.b[data-offset]');
    // A preview (bytes shown while a file decodes) belongs to no document yet.
    if (!cell || state.active == null || hexEl.dataset.handle !== String(state.active)) return;
    const o = Number(cell.dataset.offset);
    if (o === shown && !tip.hidden) return;
    shown = o;
    const t = ++token;
    const handle = state.active;
    const span = await docs.span_at(handle, o).catch(() => null);
    const marks = (state.annotationMarks ?? []).filter((m) => m.start <= o && o < m.end);
    const notes = await Promise.all(marks.map(async (m) => ({
      a: m.annotation, value: decodeAs(m.annotation.type, await docs.bytes(handle, m.start, m.end)),
    })));
    if (t !== token || !cell.isConnected || Number(cell.dataset.offset) !== o) return;
    fill(tip, o, span, cell.dataset.confidence, notes);
    place(tip, cell);
  });
  hexEl.addEventListener('mouseleave', () => { token++; shown = null; tip.hidden = true; });
  hexEl.addEventListener('wheel', () => { token++; shown = null; tip.hidden = true; }, { passive: true });
  return tip;
}

function fill(tip, o, span, level, notes = []) {
  const rows = [];
  const row = (k, v, cls) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    if (cls) dd.className = cls;
    rows.push(dt, dd);
  };
  const head = document.createElement('div');
  head.className = 'tip-path';
  if (span) {
    head.textContent = span.path;
    row('offset', `0x${span.start.toString(16)} (${span.start}), ${span.len} byte${span.len === 1 ? '' : 's'}`);
    row('type', span.type);
    row('value', span.value);
    row('confidence', span.confidence, `badge lv-${span.confidence}`);
    if (span.note) row('note', span.note);
  } else {
    head.textContent = 'uncovered';
    row('offset', `0x${o.toString(16)} (${o})`);
    row('confidence', level ?? 'uncovered', 'badge lv-uncovered');
  }
  for (const { a, value } of notes) {
    row('annotation', `${a.name} (${a.type}, ${a.confidence}) = ${value}`, 'tip-ann');
    if (a.note) row('', a.note);
  }
  const dl = document.createElement('dl');
  dl.append(...rows);
  tip.replaceChildren(head, dl);
  tip.dataset.offset = o;
}

function place(tip, cell) {
  tip.hidden = false;
  const r = cell.getBoundingClientRect();
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  let top = r.bottom + 6;
  if (top + h > window.innerHeight - 4) top = r.top - h - 6;
  const left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left - 12));
  tip.style.left = `${left}px`;
  tip.style.top = `${Math.max(4, top)}px`;
}
