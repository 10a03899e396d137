// The small shared state every panel reads and sets, and every event the panels send one
// another. A panel subscribes with on(EV.x, fn) and sends with emit(EV.x, detail); a name not
// declared in EV throws (tests/state-events.test.mjs also checks the sources for them).

/** Every event, each with what its detail holds. */
export const EV = Object.freeze({
  /** The open documents changed (one added or closed): state.docs. */
  docs: 'docs',
  /** Another tab is shown: its document, or null when none is open. */
  active: 'active',
  /** Bytes were selected: {handle, start, end, source, cursor} (`source`: the panel that did). */
  selection: 'selection',
  /** A line for the status bar: text. */
  status: 'status',
  /** Progress of long work: {label, done, total} (total 0: indeterminate), or null when done. */
  progress: 'progress',
  /** A document opened structure first has its mesh and checks decoded: the document. */
  completed: 'completed',
  /** A document opened with its checks still to come has them (doc.summary.checks): the document. */
  checked: 'checked',
  /** A document got notes of the page's own (doc.expected: what a file of no known format was
   *  expected to be): the document. */
  docNotes: 'doc-notes',
  /** A big File is read: its bytes show before it is a document: the File. */
  preview: 'preview',
  /** The first rows of a File being read are decoded: {name, window: {start, bytes, bounds}}. */
  previewDecoded: 'preview-decoded',
  /** The annotations' marks on the active document changed: state.annotationMarks. */
  annotations: 'annotations',
  /** A panel proposes an annotation (a census row): the draft, in the annotation file form. */
  annotateRequest: 'annotate-request',
  /** A census finished: its report. */
  census: 'census',
  /** Bytes another panel points at besides the selection (the 3D view's picked triangle):
   *  {handle, ranges: [[start, end], …]}, or null to clear. */
  byteMarks: 'byte-marks',
  /** A link asks the 3D view for a LOD and pass: {lod, pass} (either may be undefined). */
  view: 'view',
});

const declared = new Set(Object.values(EV));
const listeners = new Map();

export const state = {
  /** The open documents (tabs), in opening order.
   *  @type {{handle:number, name:string, size:number, summary:any, parent?:number}[]} */
  docs: [],
  /** The handle of the document shown, or null. */
  active: null,
  /** The selected bytes {handle, start, end} [start, end) of the active document, or null. */
  selection: null,
  /** The cursor: one byte offset in the active document, or null. */
  cursor: null,
  /** The annotation marks on the active document, [{start, end, annotation}] (tooltip, hex). */
  annotationMarks: [],
  /** The 3D view's LOD and pass as a link keeps them: {lod, pass}. */
  view: { lod: undefined, pass: undefined },
};

function known(event) {
  if (!declared.has(event)) throw new Error(`event ${event} is not declared in web/state.js`);
}

export function on(event, fn) {
  known(event);
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
  return () => listeners.get(event).delete(fn);
}

export function emit(event, detail) {
  known(event);
  for (const fn of listeners.get(event) ?? []) fn(detail);
}

export function activeDoc() {
  return state.docs.find((d) => d.handle === state.active) ?? null;
}

export function addDoc(doc) {
  state.docs.push(doc);
  emit(EV.docs, state.docs);
  setActive(doc.handle);
}

export function removeDoc(handle) {
  const i = state.docs.findIndex((d) => d.handle === handle);
  if (i < 0) return;
  state.docs.splice(i, 1);
  emit(EV.docs, state.docs);
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
  emit(EV.active, activeDoc());
}

/** Selects bytes [start, end) of the active document; `source` names the panel that did it.
 *  The cursor goes to `cursor` (default: the selection's first byte). */
export function select(start, end, source, cursor = start) {
  if (state.active == null) return;
  state.selection = { handle: state.active, start, end };
  state.cursor = cursor;
  emit(EV.selection, { ...state.selection, source, cursor });
}

export function setStatus(text) {
  emit(EV.status, text);
}

/** Progress of long work (EV.progress). */
export function setProgress(p) {
  emit(EV.progress, p);
}
