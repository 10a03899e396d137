// The comparison's 3D view (web/compare.js): both files' meshes in one scene on the page's
// renderer (crate/src/wasm/view), A's vertices first, then B's. Shown: A with its moved
// vertices colored by how far they moved (matched by index; wasm `diff_geometry`), or B so,
// or both overlaid (A's surface, B's edges). Triangles on one side only are drawn over it (A's
// red, B's green) and lines show where moved vertices went. A click on a triangle reports
// it to the panel, which chooses its difference; a difference chosen in the list is marked.
import { loadWasm } from './wasm.js';
import { call, docs } from './docs.js';
import { attachInput } from './viewer-controls.js';
import { antialias, cssColor, addStyles, elementsInBytes, fitCanvas, drawSoon, MAX_LINES_TRIANGLES } from './viewer.js';
import { flatInZ } from './viewer-bounds.js';
import { el } from './dom.js';

/** Overlay layers: the picked or chosen triangle on top, then B's and A's own triangles. */
const LAYER = { selection: 1, onlyB: 2, onlyA: 3 };
/** Colors (r, g, b in 0..1); `near`..`far` is the ramp of moved vertices. */
export const COLOR = {
  same: [0.72, 0.73, 0.75],
  near: [1.0, 0.82, 0.15],
  far: [0.8, 0.02, 0.05],
  onlyA: [0.85, 0.1, 0.45],
  onlyB: [0.1, 0.65, 0.25],
  edgesB: [0.15, 0.35, 0.95],
  moves: [0.55, 0.1, 0.75],
  pick: [1.0, 0.9, 0.1],
};
const MODES = [['a', 'A, moved vertices colored'], ['b', 'B, moved vertices colored'], ['ab', 'A and B overlaid (B as edges)']];
const MAX_MOVE_LINES = 200_000;

const plural = (n, one, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const rgb = (c) => `rgb(${c.map((x) => Math.round(x * 255)).join(',')})`;

export class CompareMesh {
  /** Builds the view into `pane`; `onPick({side, triangle, vertices})` hears a clicked triangle. */
  constructor(pane, onPick) {
    addStyles();
    this.pane = pane;
    this.onPick = onPick;
    this.mode = el('select', { id: 'cmp3d-mode', title: 'What the 3D view shows', onchange: () => this.apply() },
      ...MODES.map(([v, t]) => el('option', { value: v }, t)));
    this.lod = el('select', { id: 'cmp3d-lod', title: 'Level of detail', onchange: () => this.load(Number(this.lod.value)) });
    this.lines = el('input', { id: 'cmp3d-lines', type: 'checkbox', checked: true, onchange: () => this.apply() });
    this.wire = el('input', { id: 'cmp3d-wire', type: 'checkbox', onchange: () => this.apply() });
    this.canvas = el('canvas', { id: 'cmp3d-canvas', tabIndex: 0, 'aria-label': '3D view of both meshes: arrows orbit, + and - zoom' });
    this.message = el('div', { id: 'cmp3d-message', role: 'status', hidden: true });
    this.legend = el('div', { id: 'cmp3d-legend' });
    this.info = el('div', { id: 'cmp3d-info', 'aria-live': 'polite' });
    this.stage = el('div', { class: 'cmp3d-stage' }, this.canvas, this.message);
    pane.replaceChildren(
      el('div', { class: 'cmp3d-bar', role: 'toolbar', 'aria-label': '3D comparison controls' },
        this.mode, this.lod,
        el('label', { title: 'Lines from where moved vertices were in A to where they are in B' }, this.lines, ' moves'),
        el('label', { title: 'Wireframe of what is drawn' }, this.wire, ' wire'),
        el('button', { id: 'cmp3d-reset', type: 'button', onclick: () => { this.view?.reset(); this.redraw(); } }, 'Reset view')),
      this.stage, this.legend, this.info);
    attachInput(this.canvas, {
      orbit: (dx, dy) => { this.view?.orbit(dx, dy); this.redraw(); },
      pan: (dx, dy) => { this.view?.pan(dx, dy); this.redraw(); },
      zoom: (f) => { this.view?.zoom(f); this.redraw(); },
      pick: (x, y) => this.pick(x, y),
    });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.frames = 0;
    this.scene = null; // {a, b, geo, lod, ...}: what is drawn
    new ResizeObserver(() => this.resize()).observe(this.stage);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.applyTheme());
  }

  async start() {
    if (this.view !== undefined) return;
    this.view = null;
    const api = await loadWasm();
    try {
      this.view = new api.Viewer(this.canvas, antialias());
      this.applyTheme();
      this.resize();
    } catch (e) {
      this.say(`The 3D view cannot start: ${e.message ?? e}`);
    }
  }

  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  applyTheme() {
    if (!this.view) return;
    const [r, g, b] = cssColor(getComputedStyle(this.pane).getPropertyValue('--viewer-bg'));
    this.view.set_background(r / 255, g / 255, b / 255);
    this.canvas.dataset.background = [r, g, b].join(',');
    this.redraw();
  }

  resize() {
    fitCanvas(this.stage, this.canvas, this.view);
    this.redraw();
  }

  redraw() {
    drawSoon(this, () => this.scene);
  }

  /** Shows documents `a` and `b` ({handle, name}) compared with `tolerance`, from LOD 0; the
   *  same two again (a new tolerance) keep their scene: the distances do not depend on it. */
  async show(a, b, tolerance) {
    await this.start();
    const key = [a, b].map((d) => `${d.handle}+${d.summary?.attached?.length ?? 0}`).join();
    if (this.scene && this.key === key) return this.setTolerance(tolerance);
    this.key = key;
    this.docs = { a, b };
    this.tolerance = tolerance;
    this.lod.replaceChildren();
    await this.load(0, { frame: true });
  }

  /** Loads LOD `n` of both meshes and what differs between them. */
  async load(n, { frame = false } = {}) {
    const { a, b } = this.docs;
    let ma;
    let mb;
    let g;
    try {
      [ma, mb, g] = await Promise.all([docs.mesh(a.handle, n), docs.mesh(b.handle, n), call('diff_geometry', [a.handle, b.handle, n])]);
    } catch (e) {
      return this.clear(`No mesh: ${e.message ?? e}`);
    }
    if (this.docs.a !== a || this.docs.b !== b) return; // another comparison began meanwhile
    const count = Math.max(ma?.lodCount ?? 0, mb?.lodCount ?? 0);
    if (!count || (!ma?.positions.length && !mb?.positions.length)) return this.clear('Neither file has a decoded mesh.');
    if (this.lod.options.length !== count) {
      this.lod.replaceChildren(...Array.from({ length: count }, (_, k) => el('option', { value: k }, `LOD ${k}`)));
    }
    this.lod.value = String(n);
    const scene = combine(ma, mb, g);
    scene.lod = n;
    if (scene.triangles > 6_000_000) return this.clear(`LOD ${n} has too many triangles to draw here.`);
    if (!this.view) return;
    this.say(!ma || !mb ? `LOD ${n} is in ${ma ? 'A' : 'B'} only.` : '');
    const keep = !frame && this.scene ? this.view.distance() : null;
    this.scene = scene;
    this.view.set_geometry(scene.positions, scene.normals, new Float32Array(0), new Float32Array(0), scene.indices);
    if (keep != null) this.view.set_distance(keep);
    this.view.set_z_up(flatInZ(scene.positions));
    // The sections once per LOD (each setting rebuilds the GPU meshes): colors and visibility
    // follow in apply().
    const secs = [...scene.sections.a, ...scene.sections.b];
    const colors = new Float32Array(secs.length * 3);
    secs.forEach((_, k) => colors.set(COLOR.same, k * 3));
    this.view.set_sections(new Uint32Array(secs.map((x) => x.start)), new Uint32Array(secs.map((x) => x.count)),
      new Uint8Array(secs.map((x) => x.flags)), colors);
    this.canvas.dataset.lod = String(n);
    this.apply();
  }

  clear(text) {
    this.scene = null;
    this.key = null;
    this.say(text);
    this.legend.replaceChildren();
    this.info.textContent = '';
    try {
      this.view?.clear_scene();
      this.view?.render();
    } catch { /* nothing drawn is fine */ }
  }

  /** The tolerance changed (the panel compared again): colors and lines follow it. */
  setTolerance(t) {
    this.tolerance = t;
    this.apply();
  }

  /** Sections, colors, overlays and lines for the chosen mode. */
  apply() {
    const s = this.scene;
    if (!s || !this.view) return;
    const mode = this.mode.value;
    const tol = this.tolerance;
    const moved = s.distances.reduce((n, d) => n + (d > tol ? 1 : 0), 0);
    let far = 0;
    for (const d of s.distances) if (d > tol && d > far && Number.isFinite(d)) far = d;
    s.moved = moved;
    s.far = far;
    const show = { a: mode !== 'b', b: mode === 'b' };
    [...s.sections.a, ...s.sections.b].forEach((x, k) => this.view.set_section_visible(k, show[x.side]));
    this.view.set_vertex_colors(vertexColors(s, tol, far));
    this.view.set_overlay(LAYER.onlyA, s.onlyA, ...COLOR.onlyA);
    this.view.set_overlay(LAYER.onlyB, s.onlyB, ...COLOR.onlyB);
    const edges = mode === 'ab' && s.nb > 0 && s.indices.length / 3 <= MAX_LINES_TRIANGLES;
    this.view.set_edges(s.bIndex, edges ? s.indices.length - s.bIndex : 0, ...COLOR.edgesB);
    this.view.set_segments(this.lines.checked ? moveLines(s, tol) : new Float32Array(0), ...COLOR.moves);
    const wire = this.wire.checked && s.indices.length / 3 <= MAX_LINES_TRIANGLES;
    this.view.set_options(wire ? 1 : 0);
    this.showLegend(mode, edges);
    const ds = this.canvas.dataset;
    Object.assign(ds, { mode, moved: String(moved), onlyA: String(s.onlyA.length), onlyB: String(s.onlyB.length), edges: String(edges) });
    this.describe();
    this.redraw();
  }

  showLegend(mode, edges) {
    const s = this.scene;
    const item = (color, text, key) => {
      const sw = el('span', { class: 'swatch' });
      sw.style.background = Array.isArray(color) ? rgb(color) : color;
      const e = el('span', { class: 'legend-item' }, sw, ` ${text}`);
      e.dataset.key = key;
      return e;
    };
    const ramp = `linear-gradient(to right, ${rgb(COLOR.near)}, ${rgb(COLOR.far)})`;
    const items = [item(COLOR.same, 'not moved', 'same')];
    if (s.moved) items.push(item(ramp, `moved: over ${this.tolerance} … ${fmt(s.far)}`, 'moved'));
    if (s.onlyA.length) items.push(item(COLOR.onlyA, `${plural(s.onlyA.length, 'triangle')} in A only`, 'onlyA'));
    if (s.onlyB.length) items.push(item(COLOR.onlyB, `${plural(s.onlyB.length, 'triangle')} in B only`, 'onlyB'));
    if (edges) items.push(item(COLOR.edgesB, "B's edges", 'edgesB'));
    if (this.lines.checked && s.moved) items.push(item(COLOR.moves, 'where moved vertices went (A to B)', 'moves'));
    if (s.na !== s.nb) {
      const [who, color] = mode === 'b' ? ['B', COLOR.onlyB] : ['A', COLOR.onlyA];
      items.push(item(color, `${who}'s vertices past the other's ${Math.min(s.na, s.nb).toLocaleString()}`, 'extra'));
    }
    this.legend.replaceChildren(...items);
  }

  describe(extra = '') {
    const s = this.scene;
    const base = `LOD ${s.lod}: A ${plural(s.na, 'vertex', 'vertices')}, ${plural(s.ta, 'triangle')}; B ${plural(s.nb, 'vertex', 'vertices')}, ${plural(s.indices.length / 3 - s.ta, 'triangle')}; ${s.moved.toLocaleString()} moved`;
    this.info.textContent = [base, extra].filter(Boolean).join(' · ');
  }

  /** A click on the canvas: the triangle under it, on the side drawn there. */
  pick(x, y) {
    const s = this.scene;
    if (!this.view || !s) return;
    const t = this.view.pick(x, y);
    if (t < 0) return;
    const side = t < s.ta ? 'a' : 'b';
    const triangle = side === 'a' ? t : t - s.ta;
    const base = side === 'a' ? 0 : s.na;
    const vertices = [...s.indices.subarray(t * 3, t * 3 + 3)].map((i) => i - base);
    this.mark({ triangles: [t], vertices: vertices.map((v) => base + v) });
    this.canvas.dataset.picked = `${side}:${triangle}`;
    const moved = vertices.filter((v) => s.distances[v] > this.tolerance);
    this.describe(`${side.toUpperCase()} triangle ${triangle} [${vertices.join(', ')}]${moved.length ? `, moved: ${moved.map((v) => `${v} by ${fmt(s.distances[v])}`).join(', ')}` : ''}`);
    this.onPick?.({ side, lod: s.lod, triangle, vertices, moved });
  }

  /** Marks triangles (of the combined list) and vertices (combined numbers). */
  mark({ triangles = [], vertices = [] }) {
    if (!this.view) return;
    this.view.set_overlay(LAYER.selection, new Uint32Array(triangles), ...COLOR.pick);
    this.view.set_marked_vertices(new Uint32Array(vertices));
    this.canvas.dataset.marked = `${triangles.length},${vertices.length}`;
    this.redraw();
  }

  /** Marks what a difference of the list is about: a vertex or triangle of the mesh (its LOD
   *  loaded first), or the vertices and triangles whose bytes a field covers on its side. */
  async focus(d) {
    const m = /^mesh\.lod\[(\d+)\]\.(vertex|triangle)\[(\d+)\]$/.exec(d.path);
    if (m) {
      const [lod, kind, k] = [Number(m[1]), m[2], Number(m[3])];
      if (this.scene?.lod !== lod) await this.load(lod);
      const s = this.scene;
      if (!s) return;
      if (kind === 'vertex') this.mark({ vertices: [k, s.na + k].filter((v, i) => (i ? k < s.nb : k < s.na)) });
      else this.mark({ triangles: [d.kind === 'only_b' ? s.ta + k : k] });
      return;
    }
    const s = this.scene;
    const side = d.a?.offset != null ? 'a' : d.b?.offset != null ? 'b' : null;
    if (!s || !side || !s.mesh[side]) return this.mark({});
    const p = d[side];
    const { tris, verts } = elementsInBytes(s.mesh[side], 0, p.offset, p.offset + Math.max(1, p.len));
    // A whole buffer is not one thing to point at: only a field of a few elements is marked.
    if (tris.size > 64 || verts.size > 64) return this.mark({});
    const [tBase, vBase] = side === 'a' ? [0, 0] : [s.ta, s.na];
    this.mark({ triangles: [...tris].map((t) => t + tBase), vertices: [...verts].map((v) => v + vBase) });
  }

  /** The bytes a geometry difference (`mesh.lod[L].vertex[i]` or `.triangle[k]`) is about on
   *  each side, from the shown LOD's sections (where their vertices and indices lie in the
   *  file): {a, b}, each {start, end} or null. */
  bytesOf(d) {
    const s = this.scene;
    const m = /^mesh\.lod\[(\d+)\]\.(vertex|triangle)\[(\d+)\]$/.exec(d.path);
    const out = { a: null, b: null };
    if (!s || !m || Number(m[1]) !== s.lod) return out;
    const k = Number(m[3]);
    for (const side of ['a', 'b']) {
      const mesh = s.mesh[side];
      if (!mesh || (d.kind === 'only_a' && side === 'b') || (d.kind === 'only_b' && side === 'a')) continue;
      for (const x of mesh.sections) {
        const v = x.vertex_source;
        const t = x.index_source;
        if (m[2] === 'vertex' && v?.file === 0 && k >= x.vertex_start && k < x.vertex_start + x.vertex_count) {
          const start = v.offset + (k - x.vertex_start) * v.stride;
          out[side] = { start, end: start + v.stride };
        } else if (m[2] === 'triangle' && t?.file === 0 && k * 3 >= x.index_start && k * 3 < x.index_start + x.index_count) {
          const start = t.offset + (k * 3 - x.index_start) * t.stride;
          out[side] = { start, end: start + 3 * t.stride };
        }
        if (out[side]) break;
      }
    }
    return out;
  }

  onKey(e) {
    const step = 0.15;
    const act = {
      ArrowLeft: () => this.view?.orbit(-step, 0),
      ArrowRight: () => this.view?.orbit(step, 0),
      ArrowUp: () => this.view?.orbit(0, -step),
      ArrowDown: () => this.view?.orbit(0, step),
      '+': () => this.view?.zoom(0.9),
      '=': () => this.view?.zoom(0.9),
      '-': () => this.view?.zoom(1.1),
    }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
    this.redraw();
  }
}

/** A distance as a short text. */
const fmt = (d) => (Number.isFinite(d) ? String(Number(d.toPrecision(3))) : 'NaN on one side');

/** Both LODs in one scene: A's vertices and triangles first, then B's, each side's sections
 *  kept (with its flags); `distances` (per vertex both have) and the one-side triangle lists
 *  from `g` (wasm `diff_geometry`, null when either side lacks the LOD). */
export function combine(ma, mb, g) {
  const na = ma ? ma.positions.length / 3 : 0;
  const nb = mb ? mb.positions.length / 3 : 0;
  const ta = ma ? ma.indices.length / 3 : 0;
  const positions = new Float32Array((na + nb) * 3);
  if (ma) positions.set(ma.positions);
  if (mb) positions.set(mb.positions, na * 3);
  const hasNormals = (m, n) => !m || m.normals.length === n * 3;
  let normals = new Float32Array(0);
  if (hasNormals(ma, na) && hasNormals(mb, nb)) {
    normals = new Float32Array((na + nb) * 3);
    if (ma) normals.set(ma.normals);
    if (mb) normals.set(mb.normals, na * 3);
  }
  const indices = new Uint32Array((ma?.indices.length ?? 0) + (mb?.indices.length ?? 0));
  if (ma) indices.set(ma.indices);
  const bIndex = ma?.indices.length ?? 0;
  if (mb) for (let i = 0; i < mb.indices.length; i++) indices[bIndex + i] = mb.indices[i] + na;
  const sectionsOf = (m, side, first) => {
    if (!m) return [];
    const list = m.sections.length ? m.sections : [{ index_start: 0, index_count: m.indices.length }];
    return list.map((x) => ({ side, start: first + x.index_start, count: x.index_count, flags: (x.mirrored ? 1 : 0) | (x.two_sided ? 2 : 0) }));
  };
  return {
    positions, normals, indices, na, nb, ta, bIndex,
    mesh: { a: ma, b: mb },
    sections: { a: sectionsOf(ma, 'a', 0), b: sectionsOf(mb, 'b', bIndex) },
    triangles: indices.length / 3,
    distances: g?.distances ?? new Float32Array(0),
    onlyA: g?.onlyA ?? new Uint32Array(0),
    onlyB: g ? Uint32Array.from(g.onlyB, (t) => t + ta) : new Uint32Array(0),
  };
}

/** Per-vertex colors of the scene: a vertex both sides have is grey, or on the ramp by how
 *  far it moved past the tolerance (the farthest finite move is the ramp's end, a NaN on one
 *  side its end too); the vertices past the other side's count are A's red, B's green. */
export function vertexColors(s, tol, far) {
  const out = new Float32Array((s.na + s.nb) * 3);
  const both = Math.min(s.na, s.nb);
  for (const [base, n, extra] of [[0, s.na, COLOR.onlyA], [s.na, s.nb, COLOR.onlyB]]) {
    for (let i = 0; i < n; i++) {
      let c = extra;
      if (i < both) {
        const d = s.distances[i];
        if (!(d > tol)) c = COLOR.same;
        else {
          const t = Number.isFinite(d) && far > tol ? (d - tol) / (far - tol) : 1;
          c = COLOR.near.map((x, k) => x + (COLOR.far[k] - x) * t);
        }
      }
      out.set(c, (base + i) * 3);
    }
  }
  return out;
}

/** Segments from each moved vertex's place in A to its place in B (finite ones, at most
 *  MAX_MOVE_LINES). */
function moveLines(s, tol) {
  const out = [];
  for (let i = 0; i < s.distances.length && out.length < MAX_MOVE_LINES * 6; i++) {
    const d = s.distances[i];
    if (!(d > tol) || !Number.isFinite(d)) continue;
    for (let k = 0; k < 3; k++) out.push(s.positions[i * 3 + k]);
    for (let k = 0; k < 3; k++) out.push(s.positions[(s.na + i) * 3 + k]);
  }
  return new Float32Array(out);
}
