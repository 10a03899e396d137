// Copying bytes out of the hex view: Ctrl+C (⌘C) copies the selection as hex; the context
// menu (right click, Shift+F10 or the menu key) copies it as hex, text, a C array, Python
// bytes or base64, or the field's value or path. The menu follows the WAI-ARIA menu pattern
// (arrows, Home/End, Enter, Esc; focus returns to the hex view).
import { state, setStatus } from './state.js';
import { docs } from './docs.js';

/** Above this the selection is not copied (the clipboard would hold hundreds of MB of text). */
export const MAX_COPY = 16 * 1024 * 1024;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The ways to write bytes as text, by menu id. */
export const FORMATS = {
  hex: { label: 'Copy as hex', write: (b) => Array.from(b, (v) => HEX[v]).join(' ') },
  text: { label: 'Copy as text', write: (b) => Array.from(b, (v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '.')).join('') },
  c: { label: 'Copy as C array', write: cArray },
  python: { label: 'Copy as Python bytes', write: (b) => `b'${Array.from(b, (v) => `\\x${HEX[v]}`).join('')}'` },
  base64: { label: 'Copy as base64', write: base64 },
};

function cArray(b) {
  const lines = [];
  for (let i = 0; i < b.length; i += 12) lines.push(`  ${Array.from(b.subarray(i, i + 12), (v) => `0x${HEX[v]}`).join(', ')},`);
  return `const unsigned char data[${b.length}] = {\n${lines.join('\n')}\n};`;
}

function base64(b) {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Puts text on the clipboard; the async API where allowed, else a copy command. */
export async function writeClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const t = document.createElement('textarea');
    t.value = text;
    t.style.position = 'fixed';
    t.style.opacity = '0';
    document.body.append(t);
    t.select();
    const ok = document.execCommand('copy');
    t.remove();
    return ok;
  }
}

/** Copies the active selection in format `id`; says what it did in the status line. */
export async function copySelection(id = 'hex') {
  const sel = state.selection;
  if (!sel || sel.handle !== state.active) { setStatus('nothing selected to copy'); return null; }
  const n = sel.end - sel.start;
  if (n > MAX_COPY) { setStatus(`the selection is ${n.toLocaleString()} bytes; copying takes at most ${MAX_COPY.toLocaleString()}`); return null; }
  const bytes = await docs.bytes(sel.handle, sel.start, sel.end);
  const text = FORMATS[id].write(bytes);
  const ok = await writeClipboard(text);
  setStatus(ok ? `copied ${n.toLocaleString()} byte${n === 1 ? '' : 's'} at 0x${sel.start.toString(16)} as ${id === 'c' ? 'a C array' : id}` : 'the clipboard is not available here');
  return ok ? text : null;
}

/** Copies the value or the path of the field at the cursor. */
export async function copyField(what) {
  if (state.active == null || state.cursor == null) return null;
  const span = await docs.span_at(state.active, state.cursor);
  if (!span) { setStatus('no field covers this byte'); return null; }
  const text = what === 'path' ? span.path : String(span.value ?? '');
  const ok = await writeClipboard(text);
  setStatus(ok ? `copied the ${what === 'path' ? 'path' : 'value'} of ${span.path}` : 'the clipboard is not available here');
  return ok ? text : null;
}

/** Wires Ctrl+C and the context menu to the hex view `hexEl`; `view` is its HexView. */
export function attachCopy(hexEl, view) {
  hexEl.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'c') {
      e.preventDefault();
      copySelection('hex');
    } else if ((e.shiftKey && e.key === 'F10') || e.key === 'ContextMenu') {
      e.preventDefault();
      const cur = hexEl.querySelector('#hex-cursor') ?? hexEl;
      const r = cur.getBoundingClientRect();
      openMenu(hexEl, r.left + r.width / 2, r.bottom);
    }
  });
  hexEl.addEventListener('contextmenu', async (e) => {
    const o = view.offsetAt(e.target);
    if (o == null || !view.doc || view.doc.preview) return;
    e.preventDefault();
    const sel = state.selection;
    // A right click outside the selection selects the field there first, as a click would.
    if (!sel || sel.handle !== state.active || o < sel.start || o >= sel.end) await view.selectField(o);
    openMenu(hexEl, e.clientX, e.clientY);
  });
}

let menu = null;

function closeMenu(focusBack = true) {
  if (!menu) return;
  const { el, back } = menu;
  menu = null;
  el.remove();
  if (focusBack) back.focus({ preventScroll: true });
}

function openMenu(hexEl, x, y) {
  closeMenu(false);
  const el = document.createElement('div');
  el.id = 'hex-menu';
  el.setAttribute('role', 'menu');
  el.setAttribute('aria-label', 'Copy');
  const item = (label, run, disabled = false) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'menuitem');
    b.tabIndex = -1;
    b.textContent = label;
    if (disabled) b.setAttribute('aria-disabled', 'true');
    b.addEventListener('click', () => { if (disabled) return; closeMenu(); run(); });
    return b;
  };
  const sep = () => { const s = document.createElement('div'); s.setAttribute('role', 'separator'); return s; };
  const sel = state.selection;
  const n = sel ? sel.end - sel.start : 0;
  const none = !sel || n > MAX_COPY;
  el.append(
    ...Object.entries(FORMATS).map(([id, f]) => item(f.label, () => copySelection(id), none)),
    sep(),
    item('Copy field value', () => copyField('value'), state.cursor == null),
    item('Copy field path', () => copyField('path'), state.cursor == null),
  );
  document.body.append(el);
  // Inside the window: flipped left or up where it would run past an edge.
  const r = el.getBoundingClientRect();
  el.style.left = `${Math.max(0, Math.min(x, innerWidth - r.width - 4))}px`;
  el.style.top = `${Math.max(0, y + r.height > innerHeight ? y - r.height : y)}px`;
  menu = { el, back: hexEl };
  const items = () => [...el.querySelectorAll('[role=menuitem]')];
  const focusAt = (i) => { const list = items(); list[(i + list.length) % list.length].focus(); };
  focusAt(0);
  el.addEventListener('keydown', (e) => {
    const list = items();
    const i = list.indexOf(document.activeElement);
    if (e.key === 'ArrowDown') focusAt(i + 1);
    else if (e.key === 'ArrowUp') focusAt(i - 1);
    else if (e.key === 'Home') focusAt(0);
    else if (e.key === 'End') focusAt(list.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') closeMenu();
    else return;
    e.preventDefault();
    e.stopPropagation();
  });
  const away = (e) => {
    if (menu?.el === el && !el.contains(e.target)) { closeMenu(false); document.removeEventListener('pointerdown', away, true); }
  };
  document.addEventListener('pointerdown', away, true);
}
