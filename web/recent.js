// Recent files: where the browser offers the File System Access API, "Open files…" uses its
// picker, and the file handles it gives are kept in IndexedDB, so after a reload the
// "Recent" list reopens a file with one click (the browser asks for permission again). Where
// the API or the storage is missing, the list says so. Names are text, never HTML.

const DB = 'meshscope-recent';
const STORE = 'handles';
const KEEP = 12;

export const supported = () => typeof window.showOpenFilePicker === 'function';

function openDb() {
  return new Promise((ok, no) => {
    let req;
    try {
      req = indexedDB.open(DB, 1);
    } catch (e) {
      no(e);
      return;
    }
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'name' });
    req.onsuccess = () => ok(req.result);
    req.onerror = () => no(req.error ?? new Error('IndexedDB refused'));
  });
}

function run(db, mode, fn) {
  return new Promise((ok, no) => {
    const t = db.transaction(STORE, mode);
    const r = fn(t.objectStore(STORE));
    t.oncomplete = () => ok(r?.result);
    t.onerror = () => no(t.error);
    t.onabort = () => no(t.error);
  });
}

export class RecentFiles {
  /** `list`: the element to fill; `open(files)`: opens Files in the inspector. */
  constructor(list, open) {
    this.el = list;
    this.open = open;
    this.db = supported() ? openDb().catch((e) => { this.storageError = e; return null; }) : Promise.resolve(null);
    this.ready = this.render();
  }

  async entries() {
    const db = await this.db;
    if (!db) return [];
    const all = await run(db, 'readonly', (s) => s.getAll());
    return all.sort((a, b) => b.time - a.time);
  }

  /** Asks the browser's picker for files; opens them and keeps their handles. False if the
   *  API is missing (the caller falls back to the file input). */
  async pick() {
    if (!supported()) return false;
    let handles;
    try {
      handles = await window.showOpenFilePicker({ multiple: true });
    } catch (e) {
      if (e?.name === 'AbortError') return true; // the person closed the picker
      throw e;
    }
    const files = await Promise.all(handles.map((h) => h.getFile()));
    await this.remember(handles);
    await this.open(files);
    return true;
  }

  async remember(handles) {
    const db = await this.db;
    if (!db) return;
    const now = Date.now();
    await run(db, 'readwrite', (s) => { handles.forEach((h, i) => s.put({ name: h.name, handle: h, time: now + i })); });
    const all = await this.entries();
    if (all.length > KEEP) await run(db, 'readwrite', (s) => { for (const e of all.slice(KEEP)) s.delete(e.name); });
    await this.render();
  }

  /** Reopens a kept handle, asking for read permission where the browser wants it. */
  async reopen(entry) {
    const h = entry.handle;
    let p = (await h.queryPermission?.({ mode: 'read' })) ?? 'granted';
    if (p !== 'granted') p = await h.requestPermission({ mode: 'read' });
    if (p !== 'granted') throw new Error(`${entry.name}: the browser did not allow reading it again`);
    const file = await h.getFile();
    await this.remember([h]);
    await this.open([file]);
  }

  async render() {
    const say = (text) => { const p = document.createElement('p'); p.textContent = text; return p; };
    if (!supported()) {
      this.el.replaceChildren(say('Recent files need a browser that supports the File System Access API (such as Chrome or Edge); this one opens files but cannot reopen them after a reload.'));
      return;
    }
    await this.db;
    if (this.storageError) {
      this.el.replaceChildren(say(`Recent files cannot be kept: the browser's storage (IndexedDB) is not available (${this.storageError.message ?? this.storageError}).`));
      return;
    }
    const list = await this.entries();
    if (!list.length) {
      this.el.replaceChildren(say('Files you open with "Open files…" are listed here after a reload.'));
      return;
    }
    const ul = document.createElement('ul');
    for (const e of list) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'recent-file';
      b.textContent = e.name;
      b.title = `Open ${e.name} again (opened ${new Date(e.time).toLocaleString()})`;
      b.addEventListener('click', () => {
        this.el.closest('details')?.removeAttribute('open');
        this.reopen(e).catch((err) => this.onError?.(err));
      });
      li.append(b);
      ul.append(li);
    }
    this.el.replaceChildren(ul);
  }
}
