// The small shared state every panel reads and sets: the open documents (tabs), the active
// one, the selection {handle, start, end} and the cursor (one byte offset). Panels subscribe
// to the events they draw: docs, active, selection, status, progress.

const listeners = new Map();

export const state = {
  /** @type {{handle:number, name:string, size:number, summary:any, parent?:number}[]} */
  docs: [],
  active: null,
  selection: null,
  cursor: null,
};

export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
  return () => listeners.get(event).delete(fn);
}

export function emit(event, detail) {
  for (const fn of listeners.get(event) ?? []) fn(detail);
}

export function activeDoc() {
  return state.docs.find((d) => d.handle === state.active) ?? null;
}

export function addDoc(doc) {
  state.docs.push(doc);
  emit('docs', state.docs);
  setActive(doc.handle);
}

export function removeDoc(handle) {
  const i = state.docs.findIndex((d) => d.handle === handle);
  if (i < 0) return;
  state.docs.splice(i, 1);
  emit('docs', state.docs);
  if (state.active === handle) {
    state.active = null;
    setActive(state.docs[Math.min(i, state.docs.length - 1)]?.handle ?? null);
  }
}

export function setActive(handle) {
  if (state.active === handle) return;
  state.active = handle;
  state.selection = null;
  state.cursor = null;
  emit('active', activeDoc());
}

/** Selects bytes [start, end) of the active document; `source` names the panel that did it.
 *  The cursor goes to `cursor` (default: the selection's first byte). */
export function select(start, end, source, cursor = start) {
  if (state.active == null) return;
  state.selection = { handle: state.active, start, end };
  state.cursor = cursor;
  emit('selection', { ...state.selection, source, cursor });
}

export function setStatus(text) {
  emit('status', text);
}

/** Progress of long work: {label, done, total} (total 0: indeterminate), or null when done. */
export function setProgress(p) {
  emit('progress', p);
}
