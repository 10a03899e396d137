// Notices: problems and questions that need the reader (a file that failed to open, a link
// that could not be read, a chunk whose GUID is not its LOD's). They stack in the flow under
// the header (so they never cover a control), each with a × and optional buttons; Esc
// dismisses the newest. Texts are text (file names come from files), never HTML.
import { setStatus } from './state.js';

const box = () => document.getElementById('notice');

/**
 * Shows a notice; returns its element. `actions`: [{label, run}] buttons (each also dismisses
 * it); `kind`: 'error' or 'info'; `group`: notices of a group are dismissed together
 * (`dismissGroup`).
 */
export function notify(text, { actions = [], kind = 'error', group = '' } = {}) {
  const el = box();
  if (!el) return null;
  const n = document.createElement('div');
  n.className = `note ${kind}`;
  n.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  n.dataset.group = group;
  const t = document.createElement('span');
  t.className = 'note-text';
  t.textContent = text;
  const acts = document.createElement('span');
  acts.className = 'note-actions';
  for (const a of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = a.label;
    b.addEventListener('click', () => { dismiss(n); a.run(); });
    acts.append(b);
  }
  const x = document.createElement('button');
  x.type = 'button';
  x.className = 'note-close';
  x.textContent = '×';
  x.title = 'Dismiss (Esc)';
  x.setAttribute('aria-label', 'Dismiss this notice');
  x.addEventListener('click', () => dismiss(n));
  acts.append(x);
  n.append(t, acts);
  el.append(n);
  el.hidden = false;
  setStatus(text);
  return n;
}

export function dismiss(n) {
  const el = box();
  const hadFocus = n?.contains(document.activeElement);
  n?.remove();
  if (el && !el.children.length) el.hidden = true;
  if (hadFocus) document.getElementById('hex')?.focus({ preventScroll: true });
}

/** Dismisses every notice of `group` ('' included: every notice when group is null). */
export function dismissGroup(group = null) {
  for (const n of [...(box()?.children ?? [])]) if (group == null || n.dataset.group === group) dismiss(n);
}

/** The notices shown, oldest first. */
export function notices() {
  return [...(box()?.children ?? [])];
}

/** Esc dismisses the newest notice, unless something nearer the focus takes the key (a
 *  dialog, the context menu, an input that clears). */
export function initNotices() {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    if (document.querySelector('dialog[open]')) return;
    const list = notices();
    if (!list.length) return;
    dismiss(list.at(-1));
    e.preventDefault();
  });
}
