// The panel borders: dragging a splitter (or its arrow keys when focused) sets the width of
// the hex view or the tree (CSS variables on main#panes); the widths are kept in
// localStorage and put back on the next visit. Where the layout stacks (narrow windows) the
// splitters are hidden and the widths do not apply.

const KEY = 'meshscope.layout';
const MIN = { hex: 320, tree: 160 };
/** What the other columns keep at least (the rest: the 3D view and values). */
const REST_MIN = 280;

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof v === 'object' && v ? v : {};
  } catch {
    return {}; // storage off or a bad value: the default widths
  }
}

function save(sizes) {
  try {
    localStorage.setItem(KEY, JSON.stringify(sizes));
  } catch { /* not kept: storage off */ }
}

export function initLayout(panes = document.getElementById('panes')) {
  const sizes = load();
  const apply = () => {
    for (const k of ['hex', 'tree']) {
      if (Number.isFinite(sizes[k])) panes.style.setProperty(`--${k}-w`, `${Math.round(sizes[k])}px`);
    }
  };
  apply();
  const pane = { hex: document.getElementById('hex-pane'), tree: document.getElementById('tree-pane') };
  const splitter = { hex: document.getElementById('split-hex'), tree: document.getElementById('split-tree') };
  for (const k of ['hex', 'tree']) {
    const s = splitter[k];
    if (!s) continue;
    const set = (w) => {
      const other = k === 'hex' ? (pane.tree.offsetParent ? pane.tree.offsetWidth : 0) : pane.hex.offsetWidth;
      const max = panes.clientWidth - other - REST_MIN - 10;
      sizes[k] = Math.round(Math.max(MIN[k], Math.min(max, w)));
      apply();
      s.setAttribute('aria-valuenow', String(sizes[k]));
    };
    s.setAttribute('aria-valuemin', String(MIN[k]));
    s.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      s.setPointerCapture(e.pointerId);
      s.classList.add('dragging');
      const x0 = e.clientX;
      const w0 = pane[k].getBoundingClientRect().width;
      const move = (m) => set(w0 + (m.clientX - x0));
      const up = () => {
        s.classList.remove('dragging');
        s.removeEventListener('pointermove', move);
        s.removeEventListener('pointerup', up);
        s.removeEventListener('pointercancel', up);
        save(sizes);
      };
      s.addEventListener('pointermove', move);
      s.addEventListener('pointerup', up);
      s.addEventListener('pointercancel', up);
    });
    s.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 64 : 16;
      const w = pane[k].getBoundingClientRect().width;
      if (e.key === 'ArrowLeft') set(w - step);
      else if (e.key === 'ArrowRight') set(w + step);
      else return;
      e.preventDefault();
      save(sizes);
    });
  }
}
