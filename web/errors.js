// The error banner over the hex view: a file that failed to decode still opens with every
// span decoded before the error, and each error shows its offset and field path as a
// button that selects the bytes it names. A file of no known format says here what it was
// expected to be (web/expect.js). The × hides the banner for that document.
import { state, on, select, EV } from './state.js';

export class ErrorBanner {
  constructor(el) {
    this.el = el;
    on(EV.active, (doc) => this.render(doc));
    on(EV.completed, (doc) => { if (doc.handle === state.active) this.render(doc); });
    on(EV.docNotes, (doc) => { if (doc.handle === state.active) this.render(doc); });
  }

  render(doc) {
    const errs = doc?.summary.errors ?? [];
    const expected = doc?.expected ?? '';
    this.el.hidden = (errs.length === 0 && !expected) || !!doc?.errorsHidden;
    if (this.el.hidden) { this.el.replaceChildren(); return; }
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'errors-close';
    close.textContent = '×';
    close.title = 'Hide these errors for this file';
    close.setAttribute('aria-label', close.title);
    close.addEventListener('click', () => { doc.errorsHidden = true; this.render(doc); });
    const items = errs.map((e) => {
      const b = document.createElement('button');
      b.className = 'error';
      b.dataset.offset = e.offset;
      const where = document.createElement('strong');
      where.textContent = `0x${e.offset.toString(16)} (${e.offset})`;
      const path = document.createElement('code');
      path.textContent = e.path || '(file)';
      const msg = document.createElement('span');
      msg.textContent = e.message;
      b.append('Decode error at ', where, ' in ', path, ': ', msg);
      b.title = 'Show these bytes';
      // An error at the end of a truncated file points past its last byte: show that byte.
      const o = Math.max(0, Math.min(e.offset, doc.size - 1));
      b.addEventListener('click', () => select(o, o + 1, 'error'));
      return b;
    });
    if (expected) {
      const p = document.createElement('button');
      p.className = 'error expected';
      p.dataset.offset = '0';
      p.textContent = expected;
      p.title = 'Show the first bytes';
      p.addEventListener('click', () => { if (doc.size) select(0, Math.min(4, doc.size), 'error'); });
      items.unshift(p);
    }
    this.el.replaceChildren(close, ...items);
  }
}
