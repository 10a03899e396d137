// The annotations panel: annotate the selected bytes (name, type guess, confidence, note),
// list, edit, jump to and delete annotations, export and import them. Each annotation is
// anchored to a record kind + offset where a record holds the bytes (see anchor.js), so it
// shows on every file of the format and every record of the kind.
import { state, on, emit, select, activeDoc, setStatus, EV } from './state.js';
import { docs } from './docs.js';
import { anchorFor, placesOf, describeAnchor } from './anchor.js';
import { AnnotationStore, TYPES, CONFIDENCES, newId, annotationFile, parseAnnotationFile } from './annotation-store.js';
import { decodeAs } from './decode.js';
import { censusLookup } from './census.js';

const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

export class AnnotationsPanel {
  constructor(root) {
    this.root = root;
    this.store = new AnnotationStore();
    this.trees = new Map(); // handle -> tree, fetched once per document
    this.editing = null;
    this.build();
    on(EV.active, () => this.refresh());
    on(EV.selection, () => this.renderForm());
    // A census row turned into an annotation ("Annotate this" in the census panel).
    on(EV.annotateRequest, (draft) => this.addDraft(draft));
    on(EV.census, () => this.refresh());
    this.ready = this.store.load().then(() => this.refresh()).then(() => {
      if (this.store.unavailable) {
        this.storage.hidden = false;
        this.storage.textContent = `Annotations will not be kept: this browser's storage (IndexedDB) is not available (${this.store.unavailable.message ?? this.store.unavailable}). They last until the page is closed; export them to keep them.`;
      }
    });
  }

  build() {
    this.form = el('form', { className: 'ann-form', hidden: true, noValidate: true });
    this.name = el('input', { name: 'name', placeholder: 'name', required: true, autocomplete: 'off', ariaLabel: 'Name' });
    this.type = el('select', { name: 'type' }, ...TYPES.map((t) => el('option', { value: t, textContent: t })));
    this.conf = el('select', { name: 'confidence' }, ...CONFIDENCES.map((c) => el('option', { value: c, textContent: c })));
    this.conf.value = 'inferred';
    this.note = el('textarea', { name: 'note', placeholder: 'note', rows: 2 });
    this.where = el('div', { className: 'ann-where' });
    const save = el('button', { type: 'submit', textContent: 'Save annotation' });
    const cancel = el('button', { type: 'button', textContent: 'Cancel' });
    cancel.addEventListener('click', () => { this.editing = null; this.renderForm(); });
    this.form.append(this.where, this.name, this.type, this.conf, this.note, save, cancel);
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.save(); });

    this.annotate = el('button', { type: 'button', className: 'ann-new', textContent: 'Annotate selection', disabled: true });
    this.annotate.addEventListener('click', () => { this.editing = 'new'; this.renderForm(); this.name.focus(); });
    const exp = el('button', { type: 'button', textContent: 'Export…' });
    exp.addEventListener('click', () => this.exportFile());
    this.importInput = el('input', { type: 'file', accept: '.json,application/json', hidden: true, className: 'ann-import-input' });
    const imp = el('button', { type: 'button', textContent: 'Import…' });
    imp.addEventListener('click', () => this.importInput.click());
    this.importInput.addEventListener('change', async () => {
      const f = this.importInput.files[0];
      this.importInput.value = '';
      if (f) await this.importText(await f.text());
    });
    this.message = el('div', { className: 'ann-message', role: 'status' });
    this.storage = el('p', { className: 'ann-storage', hidden: true });
    this.list = el('ul', { className: 'ann-list' });
    this.root.replaceChildren(
      el('div', { className: 'ann-bar' }, this.annotate, exp, imp, this.importInput),
      this.storage, this.message, this.form, this.list,
    );
  }

  async tree(doc) {
    if (!this.trees.has(doc.handle)) this.trees.set(doc.handle, await docs.tree(doc.handle));
    return this.trees.get(doc.handle);
  }

  renderForm() {
    const sel = state.selection;
    this.annotate.disabled = !sel;
    if (!this.editing) { this.form.hidden = true; return; }
    this.form.hidden = false;
    if (this.editing === 'new') {
      this.where.textContent = sel ? `bytes 0x${sel.start.toString(16)}–0x${(sel.end - 1).toString(16)}` : '';
    }
  }

  async save() {
    const doc = activeDoc();
    let a;
    if (!this.editing) { this.say('Select bytes first, then "Annotate selection".', true); return; }
    if (!this.name.value.trim()) { this.say('An annotation needs a name.', true); this.name.focus(); return; }
    if (this.editing === 'new') {
      const sel = state.selection;
      if (!doc || !sel) { this.say('Select the bytes to annotate first.', true); return; }
      const anchor = anchorFor(doc, await this.tree(doc), sel.start, sel.end);
      a = { id: newId(), created: new Date().toISOString(), anchor };
    } else {
      a = { ...this.store.list.find((x) => x.id === this.editing) };
    }
    Object.assign(a, { name: this.name.value.trim(), type: this.type.value, confidence: this.conf.value, note: this.note.value });
    try {
      await this.store.put(a);
      this.editing = null;
      this.name.value = '';
      this.note.value = '';
      this.say(`saved "${a.name}"${this.store.unavailable ? ' (in this page only: it will not be kept)' : ''}`);
    } catch (e) {
      this.say(e.message, true);
    }
    await this.refresh();
  }

  async addDraft(draft) {
    const now = new Date().toISOString();
    try {
      const a = await this.store.put({ ...draft, id: newId(), created: now });
      this.say(`annotated ${describeAnchor(a.anchor)} as "${a.name}" from the census`);
    } catch (e) {
      this.say(e.message, true);
    }
    await this.refresh();
  }

  edit(a) {
    this.editing = a.id;
    this.name.value = a.name;
    this.type.value = a.type;
    this.conf.value = a.confidence;
    this.note.value = a.note;
    this.where.textContent = describeAnchor(a.anchor);
    this.renderForm();
  }

  say(text, error = false) {
    this.message.textContent = text;
    this.message.classList.toggle('error', error);
    setStatus(text);
  }

  /** Recomputes where each annotation lands in the active document and redraws. */
  async refresh() {
    const doc = activeDoc();
    const marks = [];
    const rows = [];
    // Only record anchors need the whole tree; a file's anchors are its offsets.
    const tree = doc && this.store.list.some((a) => a.anchor?.kind !== 'file') ? await this.tree(doc) : [];
    for (const a of this.store.list) {
      const places = doc ? placesOf(a.anchor, doc, tree) : [];
      for (const p of places) marks.push({ ...p, id: a.id, annotation: a });
      rows.push({ a, places });
    }
    state.annotationMarks = marks;
    emit(EV.annotations, marks);
    const values = await Promise.all(rows.map(async ({ places }) => {
      if (!doc || !places.length) return null;
      const p = places[0];
      return docs.bytes(doc.handle, p.start, p.end);
    }));
    this.list.replaceChildren(...rows.map(({ a, places }, i) => {
      const li = el('li', { className: 'ann-item' });
      li.dataset.id = a.id;
      const title = el('button', { type: 'button', className: 'ann-jump', textContent: a.name, title: 'show these bytes' });
      title.disabled = !places.length;
      title.addEventListener('click', () => places.length && select(places[0].start, places[0].end, 'annotations'));
      const value = values[i] ? decodeAs(a.type, values[i]) : '';
      const info = el('div', { className: 'ann-info' },
        el('span', { textContent: `${a.type} · ${a.confidence} · ${describeAnchor(a.anchor)}` }),
        el('span', { className: 'ann-count', textContent: doc ? ` · ${places.length} place${places.length === 1 ? '' : 's'} here` : '' }),
        value ? el('div', { className: 'ann-value', textContent: `= ${value}` }) : '',
        a.note ? el('div', { className: 'ann-note', textContent: a.note }) : '',
        censusLine(a));
      const edit = el('button', { type: 'button', textContent: 'Edit' });
      edit.addEventListener('click', () => this.edit(a));
      const del = el('button', { type: 'button', textContent: 'Delete', className: 'ann-delete' });
      del.addEventListener('click', async () => { await this.store.remove(a.id); this.say(`deleted "${a.name}"`); await this.refresh(); });
      li.append(title, info, el('div', { className: 'ann-actions' }, edit, del));
      return li;
    }));
    this.renderForm();
  }

  exportFile() {
    const blob = new Blob([annotationFile(this.store.list)], { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: 'meshscope-annotations.json' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  /** Imports an annotation file; an invalid one changes nothing and says why. */
  async importText(text) {
    let list;
    try {
      list = parseAnnotationFile(text);
    } catch (e) {
      this.say(`import failed, nothing changed: ${e.message}`, true);
      return false;
    }
    await this.store.importAll(list);
    this.say(`imported ${list.length} annotation${list.length === 1 ? '' : 's'}`);
    await this.refresh();
    return true;
  }

  /** The annotations at a byte, for the tooltip: [{annotation, value}] */
  async at(offset) {
    const doc = activeDoc();
    const hits = (state.annotationMarks ?? []).filter((m) => m.start <= offset && offset < m.end);
    return Promise.all(hits.map(async (m) => ({
      annotation: m.annotation,
      value: doc ? decodeAs(m.annotation.type, await docs.bytes(doc.handle, m.start, m.end)) : '',
    })));
  }
}

/** What the last census says of an annotation's bytes, when it covered that record kind. */
function censusLine(a) {
  if (a.anchor.kind !== 'record') return '';
  const entries = censusLookup(a.anchor.record, a.anchor.offset, a.anchor.format);
  if (!entries.length) return '';
  const e = entries[0];
  const top = e.values.slice(0, 3).map((v) => `${v.value} ×${v.count}`).join(', ');
  return el('div', { className: 'ann-census', textContent: `census: ${e.records} records in ${e.files} files, ${e.distinct} distinct${e.constant ? ' (constant)' : ''}: ${top}` });
}
