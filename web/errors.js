// The error banner over the hex view: a file that failed to decode still opens with every
// span decoded before the error, and each error shows its offset and field path as a
// button that selects the bytes it names.
import { state, on, select } from './state.js';

export class ErrorBanner {
  constructor(el) {
    this.el = el;
    on('active', (doc) => this.render(doc));
    on('completed', (doc) => { if (doc.handle === state.active) this.render(doc); });
  }

  render(doc) {
    const errs = doc?.summary.errors ?? [];
    this.el.hidden = errs.length === 0;
    this.el.replaceChildren(...errs.map((e) => {
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
    }));
  }
}
