// The small shared state every panel reads and sets: the open documents (tabs), the active
// one, and the selection {handle, start, end}. Panels subscribe to the events they draw.

const listeners = new Map();

export const state = {
  /** @type {{handle:number, name:string, size:number, summary:any}[]} */
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

export function setActive(handle) {
  if (state.active === handle) return;
  state.active = handle;
  state.selection = null;
  emit('active', activeDoc());
}

/** Selects bytes [start, end) of the active document; `source` names the panel that did it. */
export function select(start, end, source) {
  if (state.active == null) return;
  state.selection = { handle: state.active, start, end };
  emit('selection', { ...state.selection, source });
}

export function setStatus(text) {
  emit('status', text);
}
