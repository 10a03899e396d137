// The structure tree, lazy: a node's children exist in the DOM only once it is opened, and
// the page holds only the nodes it was sent: the top levels at first, and a node's children
// when it is opened (a node whose children were not sent carries `kids`, their count). An
// array (a region) of 100,000 elements opens as buckets of 1,000 that load on demand.
// Clicking a node selects its bytes; a selection made elsewhere opens the path to it.
// Keyboard: the WAI-ARIA tree pattern (one item in the Tab order; Up/Down, Home/End,
// Right opens or goes to the first child, Left closes or goes to the parent, Enter selects).
import { state, on, select, EV } from './state.js';
import { docs } from './docs.js';

const BUCKET = 1000;
/** Levels of nodes sent at once: the top levels first (a file of few records opens its roots
 *  at once, so their children are among them), then a node's children with their own. */
const LEVELS = 2;

export class TreeView {
  constructor(el) {
    this.el = el;
    this.handle = null;
    this.roots = [];
    this.selected = null;
    this.token = 0;
    this.revealing = 0; // the latest reveal; an older one still waiting gives way
    this.items = new WeakMap(); // treeitem element -> item
    this.current = null; // the item in the Tab order
    el.addEventListener('keydown', (e) => this.onKey(e));
    on(EV.active, (doc) => this.load(doc));
    on(EV.selection, (sel) => {
      if (sel.source !== 'tree') this.reveal(sel.start, sel.end);
    });
  }

  async load(doc) {
    const t = ++this.token;
    this.el.replaceChildren();
    this.roots = [];
    this.selected = null;
    this.current = null;
    this.handle = doc?.handle ?? null;
    if (!doc) return;
    const nodes = await docs.treeTop(doc.handle, LEVELS);
    if (t !== this.token) return;
    if (!nodes.length) {
      const p = document.createElement('p');
      p.className = 'empty';
      p.textContent = 'No decoded structure: every byte is uncovered.';
      this.el.append(p);
      return;
    }
    this.roots = nodes.map((n) => this.item(n, 1));
    this.el.append(...this.roots.map((i) => i.el));
    this.setCurrent(this.roots[0]);
    // A file of a few records opens one level deep, so its fields show at once.
    if (this.roots.length <= 12) {
      for (const it of this.roots) if (it.node.children?.length || it.node.kids) await this.toggle(it, true);
    }
    this.el.dataset.handle = doc.handle;
  }

  /** One tree item: {node, el, row, group, kids, depth}; children are made when opened. */
  item(node, depth) {
    const el = document.createElement('div');
    el.className = 'ti';
    el.setAttribute('role', 'treeitem');
    el.setAttribute('aria-level', depth);
    el.dataset.path = node.path;
    el.tabIndex = -1;
    const row = document.createElement('div');
    row.className = 'tr';
    row.style.paddingLeft = `${(depth - 1) * 14 + 4}px`;
    const it = { node, el, row, group: null, kids: null, depth };
    this.items.set(el, it);
    const expandable = hasKids(node);
    const tog = document.createElement('span');
    tog.className = 'tog';
    tog.textContent = expandable ? '▸' : '';
    if (expandable) el.setAttribute('aria-expanded', 'false');
    const name = span('tn', node.name);
    const type = span('tt', node.type ?? (node.count != null ? `[${node.count}]` : ''));
    const value = span('tv', node.value ?? '');
    const conf = node.confidence ?? '';
    const badge = span(`badge lv-${conf || 'none'}`, conf ? conf[0].toUpperCase() : '');
    if (conf) badge.title = conf;
    row.append(tog, badge, name, type, value);
    row.title = `${node.path}  0x${node.start.toString(16)}..0x${node.end.toString(16)}`;
    el.append(row);
    tog.addEventListener('click', (e) => { e.stopPropagation(); this.toggle(it); });
    row.addEventListener('click', () => {
      this.choose(it);
      it.el.focus({ preventScroll: true });
    });
    row.addEventListener('dblclick', () => this.toggle(it));
    return it;
  }

  /** Marks an item and selects its bytes (a click, Enter). */
  choose(it) {
    this.mark(it);
    if (it.node.end > it.node.start) select(it.node.start, it.node.end, 'tree');
  }

  /** Puts `it` in the Tab order (roving tabindex), the only item there. */
  setCurrent(it) {
    if (this.current === it) return;
    if (this.current) this.current.el.tabIndex = -1;
    this.current = it ?? null;
    if (it) it.el.tabIndex = 0;
  }

  /** The items a reader sees now (not inside a closed group), in order. */
  visibleItems() {
    return [...this.el.querySelectorAll('[role=treeitem]')].filter((e) => !e.parentElement.closest('[role=group][hidden]'));
  }

  async onKey(e) {
    const el = e.target.closest?.('[role=treeitem]');
    const it = el && this.items.get(el);
    if (!it || e.altKey || e.ctrlKey || e.metaKey) return;
    const go = (x) => { if (x) { this.setCurrent(x); x.el.focus(); x.row.scrollIntoView({ block: 'nearest' }); } };
    const open = it.el.getAttribute('aria-expanded') === 'true';
    switch (e.key) {
      case 'ArrowDown': case 'ArrowUp': case 'Home': case 'End': {
        const list = this.visibleItems();
        const i = list.indexOf(it.el);
        const j = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : list.length - 1;
        if (list[j]) go(this.items.get(list[j]));
        break;
      }
      case 'ArrowRight':
        if (!hasKids(it.node)) break;
        if (!open) await this.toggle(it, true);
        else go(it.kids?.[0]);
        break;
      case 'ArrowLeft':
        if (open) await this.toggle(it, false);
        else go(this.items.get(it.el.parentElement.closest('[role=treeitem]')));
        break;
      case 'Enter': case ' ':
        this.choose(it);
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  async toggle(it, open = it.el.getAttribute('aria-expanded') !== 'true') {
    if (!hasKids(it.node)) return;
    if (open && !it.kids) await this.fill(it);
    if (!it.group) return;
    it.group.hidden = !open;
    it.el.setAttribute('aria-expanded', String(open));
    it.row.firstChild.textContent = open ? '▾' : '▸';
  }

  /** Makes an item's children: its nodes (sent or asked for), a region's buckets, or (1,000
   *  or fewer) elements. */
  async fill(it) {
    const n = it.node;
    let kids;
    if (n.children?.length) kids = n.children;
    else if (n.kids) {
      const handle = this.handle;
      kids = await docs.treeChildren(handle, n.path, LEVELS);
      if (handle !== this.handle) return;
    } else if (n.region != null && n.count > BUCKET) kids = buckets(n);
    else if (n.region != null) {
      const handle = this.handle;
      kids = await docs.region_items(handle, n.region, n.first ?? 0, n.count);
      if (handle !== this.handle) return;
    } else kids = [];
    if (it.kids) return; // filled meanwhile
    it.kids = kids.map((k) => this.item(k, it.depth + 1));
    it.group = document.createElement('div');
    it.group.setAttribute('role', 'group');
    it.group.hidden = true;
    it.group.append(...it.kids.map((k) => k.el));
    it.el.append(it.group);
  }

  mark(it) {
    if (this.selected) {
      this.selected.row.classList.remove('sel');
      this.selected.el.removeAttribute('aria-selected');
    }
    this.selected = it;
    if (it) {
      it.row.classList.add('sel');
      it.el.setAttribute('aria-selected', 'true');
      this.setCurrent(it);
    }
  }

  /** Opens the path to the deepest node holding [start, end) and marks it. The way down
   *  follows the path of the field at `start`, and the bytes where no path leads (a bucket,
   *  an uncovered byte): a record's children need not lie in its own bytes (a MeshSet's
   *  sections are not inside their LOD's record). */
  async reveal(start, end) {
    const t = this.token;
    const r = ++this.revealing;
    const stale = () => t !== this.token || r !== this.revealing;
    const field = this.handle == null ? null : await docs.span_at(this.handle, start).catch(() => null);
    if (stale()) return;
    const target = field?.path ?? '';
    const holds = (n) => n.start <= start && n.end >= end && n.end > n.start;
    const leads = (n) => target !== '' && (target === n.path || target.startsWith(`${n.path}.`) || target.startsWith(`${n.path}[`));
    // The items from a root down, filled (not opened) so that only the way to the mark opens.
    const way = [];
    let list = this.roots;
    for (;;) {
      const next = list.find((k) => leads(k.node)) ?? list.find((k) => holds(k.node));
      if (!next) break;
      way.push(next);
      if (!hasKids(next.node)) break;
      if (!next.kids) await this.fill(next);
      if (stale()) return;
      list = next.kids ?? [];
    }
    const at = way.findLastIndex((it) => holds(it.node));
    for (const it of way.slice(0, Math.max(at, 0))) {
      await this.toggle(it, true);
      if (stale()) return;
    }
    const best = way[at] ?? null;
    this.mark(best);
    best?.row.scrollIntoView({ block: 'nearest' });
  }
}

function hasKids(n) {
  return (n.children?.length ?? 0) > 0 || n.kids > 0 || (n.region != null && n.count > 0);
}

/** Buckets of a region node (or of a bucket): at most 1,000, each of 1,000^k elements. */
function buckets(n) {
  const stride = (n.end - n.start) / n.count;
  const base = n.first ?? 0;
  let size = BUCKET;
  while (n.count / size > BUCKET) size *= BUCKET;
  const out = [];
  for (let first = 0; first < n.count; first += size) {
    const count = Math.min(size, n.count - first);
    const a = base + first;
    out.push({
      name: `[${a}…${a + count - 1}]`,
      path: `${n.path.replace(/\[\d+\.\.\d+\]$/, '')}[${a}..${a + count}]`,
      start: n.start + first * stride,
      end: n.start + (first + count) * stride,
      type: `${count.toLocaleString()} elements`,
      region: n.region,
      count,
      first: a,
    });
  }
  return out;
}

function span(cls, text) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text; // strings from files are text, never HTML
  return s;
}
