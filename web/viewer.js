// The 3D view: gets one LOD as typed arrays from `docs.mesh` (the documents may live in another
// wasm instance or a worker) and hands them to its own wasm renderer (crate/src/wasm/view) on
// this thread. Draws only when something changed. Picking selects bytes through `select`; a
// selection made elsewhere is highlighted here.
import { loadWasm } from './wasm.js';
import { docs } from './docs.js';
import { state, on, emit, select, setActive, EV } from './state.js';
import { PALETTE, buildToolbar, fillSections, attachInput, lodDistances } from './viewer-controls.js';
import { weightRamp, boneBoxes, storedBoxes, storedBoneBoxes, flatBoxes, jointNames, flatInZ } from './viewer-bounds.js';

const OPT = { wireframe: 1, normals: 2, tangents: 4, bounds: 8, checker: 16, cull: 32 };
/** Overlay layers in the renderer. */
const LAYER = { selection: 1, shadow: 2, invalid: 3, grid: 10 };
/** Above this many triangles the view does not try to draw (a clear message instead). */
export const MAX_TRIANGLES = 6_000_000;
export const MAX_LINES_TRIANGLES = 1_500_000;
/**
 * Box colors (r, g, b in 0..1). Stored boxes are solid, measured ones dashed (the renderer
 * draws them so; the measured LOD box's color is the renderer's own, repeated here for the
 * legend).
 */
export const BOX_COLORS = {
  measured: [0.35, 0.2, 0.7],
  stored: [0.0, 0.6, 0.5],
  boneMeasured: [0.1, 0.15, 0.5],
  boneStored: [0.75, 0.05, 0.25],
};

function el(tag, props = {}) {
  return Object.assign(document.createElement(tag), props);
}

export class MeshView {
  constructor(pane) {
    this.pane = pane;
    this.bar = el('div', { id: 'viewer-toolbar', role: 'toolbar', ariaLabel: '3D view controls' });
    this.stage = el('div', { id: 'viewer-stage' });
    this.canvas = el('canvas', { id: 'viewer-canvas', tabIndex: 0 });
    this.message = el('div', { id: 'viewer-message', hidden: true, role: 'status' });
    this.info = el('div', { id: 'viewer-info', ariaLive: 'polite' });
    this.legend = el('div', { id: 'viewer-legend', hidden: true });
    this.stage.append(this.canvas, this.message);
    pane.replaceChildren(this.bar, this.stage, this.legend, this.info);
    this.c = buildToolbar(this.bar, {
      lod: (n) => this.showLod(n),
      sections: () => this.applySections(),
      colors: () => this.applyColors(),
      options: () => this.applyOptions(),
      lodPreview: () => this.updateLodPreview(),
      reset: () => { this.view?.reset(); this.redraw(); },
      download: () => this.download(),
    });
    // The up axis follows the mesh (see flatInZ) until the user picks one.
    this.upChosen = false;
    this.c.toggles.zUp.addEventListener('change', () => { this.upChosen = true; });
    attachInput(this.canvas, {
      orbit: (dx, dy) => { this.view?.orbit(dx, dy); this.moved(); },
      pan: (dx, dy) => { this.view?.pan(dx, dy); this.moved(); },
      zoom: (f) => { this.view?.zoom(f); this.moved(); },
      pick: (x, y) => this.pick(x, y),
    });
    this.handle = null;
    this.maxTriangles = MAX_TRIANGLES;
    this.meshes = new Map(); // lod -> mesh object from docs.mesh
    this.lod = 0;
    this.frames = 0;
    this.pending = false;
    this.canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      try { this.view?.free(); } catch { /* already gone */ }
      this.view = null;
      this.say('The WebGL context was lost; waiting for the browser to restore it…');
    });
    this.canvas.addEventListener('webglcontextrestored', () => this.restore());
    new ResizeObserver(() => this.resize()).observe(this.stage);
  }

  async start() {
    this.api = await loadWasm();
    this.createView();
    on(EV.active, (doc) => this.follow(doc));
    // A big .ply opens structure first; its mesh arrives with 'completed'.
    on(EV.completed, (doc) => { if (doc.handle === this.handle) this.open(doc.handle); });
    on(EV.selection, (s) => this.highlightSelection(s));
    on(EV.view, (v) => { this.linked = v; this.applyLinked(); });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.applyTheme());
    if (state.active != null) await this.follow(state.docs.find((d) => d.handle === state.active));
  }

  createView() {
    try {
      this.view = new this.api.Viewer(this.canvas, antialias());
      this.applyTheme();
      this.resize();
    } catch (e) {
      this.view = null;
      this.say(`The 3D view cannot start: ${e.message ?? e}`);
    }
  }

  async restore() {
    this.createView();
    if (this.view && this.meshes.size) {
      this.mesh = null;
      await this.showLod(this.lod);
    }
  }

  /** The clear color from the page's --viewer-bg, light or dark as the theme is. */
  applyTheme() {
    if (!this.view) return;
    const [r, g, b] = cssColor(getComputedStyle(this.pane).getPropertyValue('--viewer-bg'));
    this.view.set_background(r / 255, g / 255, b / 255);
    this.canvas.dataset.background = [r, g, b].join(',');
    if (this.mesh) this.redraw();
    else this.blank();
  }

  /** The LOD and pass a link asked for (EV.view), once a mesh is shown. */
  async applyLinked() {
    const v = this.linked;
    if (!v || !this.mesh) return;
    this.linked = null;
    if (v.lod != null && v.lod !== this.lod && v.lod < this.mesh.lodCount) await this.showLod(v.lod);
    if (v.pass && [...this.c.pass.options].some((o) => o.value === v.pass)) {
      this.c.pass.value = v.pass;
      this.applySections();
    }
  }

  /** state.view: the LOD and pass shown, for a link. */
  noteView() {
    state.view = { lod: this.mesh ? this.lod : undefined, pass: (this.mesh && this.c.pass.value) || undefined };
  }

  /** The controls of a file without a mesh: nothing of the previous file's is left (its LODs,
   *  passes, sections, bones, boxes). */
  resetControls() {
    state.view = { lod: undefined, pass: undefined };
    this.linked = null;
    this.c.lod.replaceChildren();
    this.c.pass.replaceChildren(el('option', { value: '', textContent: 'All passes' }));
    this.c.pass.hidden = true;
    this.c.bone.replaceChildren();
    this.c.bone.hidden = true;
    if (this.c.color.value === 'weights') this.c.color.value = 'sections';
    this.c.sections.open = false;
    this.c.sections.replaceChildren(el('summary', { textContent: 'Sections' }));
    this.sectionBoxes = [];
    this.legend.replaceChildren();
    this.legend.hidden = true;
    this.info.textContent = '';
    this.lodNote = '';
    for (const k of ['lod', 'reset', 'download']) this.c[k].disabled = true;
    this.c.sections.hidden = true;
  }

  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  resize() {
    fitCanvas(this.stage, this.canvas, this.view);
    this.redraw();
  }

  /** Asks for one frame on the next animation frame, once however often it is called. */
  redraw() {
    drawSoon(this, () => this.mesh);
  }

  /** No mesh to show: an empty canvas, not the last document's picture. */
  blank() {
    this.mesh = null;
    try {
      this.view?.clear_scene();
      this.view?.render();
    } catch { /* nothing drawn is fine here */ }
  }

  moved() {
    this.updateLodPreview(true);
    this.redraw();
  }

  /**
   * Follows the active tab. A geometry chunk attached to a MeshSet shows its MeshSet's mesh
   * (its bytes are that mesh's), so switching between the two keeps the view, the camera and
   * the picked triangle; the mesh is fetched again only when another file was attached.
   */
  async follow(doc) {
    const owner = doc ? (doc.parent ?? doc.handle) : null;
    const attached = state.docs.find((d) => d.handle === owner)?.summary?.attached?.length ?? 0;
    if (owner == null || owner !== this.handle || attached !== this.attachedCount) {
      this.attachedCount = attached;
      await this.open(owner);
    }
    if (doc && doc.parent === this.handle) await this.showLodOfFile(this.fileOf(doc.handle));
  }

  async open(handle) {
    this.handle = handle;
    this.meshes.clear();
    this.mesh = null;
    this.c.lod.replaceChildren();
    if (handle == null) { this.resetControls(); this.blank(); return this.say(''); }
    if (state.docs.find((d) => d.handle === handle)?.summary?.pending) {
      this.blank();
      return this.say('Decoding the mesh…');
    }
    await this.showLod(0, { frame: true });
  }

  /**
   * Which file of the shown mesh's sources (`Source.file`) a tab's bytes are: 0 the document's
   * own, N its N-th attached chunk; null for a tab of another document.
   */
  fileOf(handle) {
    if (handle == null) return null;
    if (handle === this.handle) return 0;
    const d = state.docs.find((x) => x.handle === handle);
    if (!d || d.parent == null || d.parent !== this.handle) return null;
    if (d.attachedAs) return d.attachedAs;
    const names = state.docs.find((x) => x.handle === this.handle)?.summary?.attached ?? [];
    const k = names.lastIndexOf(d.name);
    return k >= 0 ? k + 1 : null;
  }

  /** The open tab holding file `file` of the shown mesh's sources, or null. */
  docOfFile(file) {
    if (file === 0) return this.handle ?? state.active;
    return state.docs.find((d) => d.parent === this.handle && this.fileOf(d.handle) === file)?.handle ?? null;
  }

  /** Shows the first LOD whose sections read file `file`, unless the LOD shown does. */
  async showLodOfFile(file) {
    if (!file || !this.mesh) return;
    const uses = (m) => m?.sections?.some((s) => s.index_source?.file === file || s.vertex_source?.file === file);
    if (uses(this.mesh)) return;
    for (let k = 0; k < this.mesh.lodCount; k++) {
      if (uses(await this.getMesh(k).catch(() => null))) return this.showLod(k);
    }
  }

  /** Shows mesh objects built elsewhere (tests, the benchmark): `lods[k]` is what `docs.mesh(h, k)` would give. */
  async load(lods) {
    this.meshes = new Map(lods.map((m, k) => [k, m]));
    this.mesh = null;
    this.c.lod.replaceChildren();
    await this.showLod(0, { frame: true });
  }

  async getMesh(lod) {
    if (!this.meshes.has(lod)) this.meshes.set(lod, await docs.mesh(this.handle, lod));
    return this.meshes.get(lod);
  }

  /** Loads LOD `n` into the renderer (camera kept unless `frame`). */
  async showLod(n, { frame = false } = {}) {
    const handle = this.handle;
    let mesh;
    try {
      mesh = await this.getMesh(n);
    } catch (e) {
      if (handle === this.handle) { this.blank(); this.resetControls(); }
      return this.say(`No mesh: ${e.message ?? e}`);
    }
    if (handle !== this.handle) return; // another document was opened meanwhile
    this.canvas.dataset.lod = String(n);
    if (!mesh || !mesh.positions.length) {
      this.blank();
      this.resetControls();
      return this.say('No mesh decoded for this file.');
    }
    for (const k of ['lod', 'reset', 'download']) this.c[k].disabled = false;
    this.c.sections.hidden = false;
    if (!this.c.lod.options.length) {
      for (let k = 0; k < mesh.lodCount; k++) this.c.lod.append(el('option', { value: k, textContent: `LOD ${k}` }));
    }
    this.c.lod.value = String(n);
    const tris = mesh.indices.length / 3;
    if (tris > this.maxTriangles) {
      this.blank();
      return this.say(`LOD ${n} has ${tris.toLocaleString()} triangles, more than this view draws (${this.maxTriangles.toLocaleString()}). The bytes, tree and export still work; choose a smaller LOD.`);
    }
    if (!this.view) return this.say('The 3D view is not available (no WebGL2).');
    this.say('');
    const keep = !frame && this.mesh ? this.view.distance() : null;
    this.lod = n;
    this.mesh = mesh;
    try {
      const uv0 = mesh.uvs[0] ?? new Float32Array(0);
      this.view.set_geometry(mesh.positions, mesh.normals, mesh.tangents, uv0, mesh.indices);
      if (keep != null) this.view.set_distance(keep);
      if (frame && !this.upChosen) this.c.toggles.zUp.checked = flatInZ(mesh.positions);
      this.fillPasses();
      this.fillBones();
      this.sectionBoxes = fillSections(this.c, mesh.sections, (s) => this.inPass(s), (k, v) => {
        this.view.set_section_visible(k, v);
        this.redraw();
      });
      this.applySections(false);
      this.applyColors();
      this.applyOptions();
    } catch (e) {
      this.mesh = null;
      return this.say(`This mesh could not be drawn here: ${e.message ?? e}`);
    }
    this.describe();
    this.redraw();
    this.noteView();
    if (this.linked) await this.applyLinked();
  }

  fillPasses() {
    const passes = [...new Set(this.mesh.sections.flatMap((s) => s.passes ?? []))];
    const old = this.c.pass.value;
    this.c.pass.replaceChildren(el('option', { value: '', textContent: 'All passes' }),
      ...passes.map((p) => el('option', { value: p, textContent: p })));
    this.c.pass.hidden = passes.length === 0;
    if (passes.includes(old)) this.c.pass.value = old;
  }

  fillBones() {
    const names = jointNames(this.mesh);
    this.c.bone.replaceChildren(...names.map((b, k) => el('option', { value: k, textContent: `${k}: ${b}` })));
    this.c.color.querySelector('[value=weights]').disabled = names.length === 0 || !this.mesh.weights.length;
    // Bone bounds: stored in the file, or measured from the weights.
    this.c.toggles.boneBoxes.disabled = !storedBoneBoxes(this.mesh).length && (names.length === 0 || !this.mesh.weights.length);
    if (this.c.color.value === 'weights' && names.length === 0) this.c.color.value = 'sections';
    this.c.bone.hidden = this.c.color.value !== 'weights';
  }

  inPass(s) {
    const p = this.c.pass.value;
    return !p || (s.passes ?? []).includes(p);
  }

  /** Sections to the renderer (ranges, flags, colors) and their visibility from the pass. */
  applySections(redraw = true) {
    this.noteView();
    const secs = this.mesh.sections;
    if (secs.length) {
      const colors = new Float32Array(secs.length * 3);
      secs.forEach((s, k) => colors.set(PALETTE[k % PALETTE.length], k * 3));
      this.view.set_sections(
        new Uint32Array(secs.map((s) => s.index_start)),
        new Uint32Array(secs.map((s) => s.index_count)),
        new Uint8Array(secs.map((s) => (s.mirrored ? 1 : 0) | (s.two_sided ? 2 : 0))),
        colors,
      );
    } else {
      this.view.set_sections(new Uint32Array([0]), new Uint32Array([this.mesh.indices.length]), new Uint8Array([0]), new Float32Array(PALETTE[0]));
    }
    secs.forEach((s, k) => {
      const on = this.inPass(s);
      if (this.sectionBoxes?.[k]) this.sectionBoxes[k].checked = on;
      this.view.set_section_visible(k, on);
    });
    if (redraw) this.redraw();
  }

  /** Section colors, the UV checker, or the chosen bone's weights as a ramp. */
  applyColors() {
    if (!this.mesh) return;
    const mode = this.c.color.value;
    this.c.bone.hidden = mode !== 'weights';
    if (mode === 'weights') {
      this.view.set_vertex_colors(weightRamp(this.mesh, Number(this.c.bone.value || 0)));
    } else {
      this.view.set_vertex_colors(new Float32Array(0));
    }
    this.applyOptions();
  }

  applyOptions() {
    if (!this.mesh) return;
    const t = this.c.toggles;
    const tris = this.mesh.indices.length / 3;
    let bits = 0;
    for (const k of ['wireframe', 'normals', 'tangents', 'bounds', 'cull']) if (t[k].checked) bits |= OPT[k];
    if (this.c.color.value === 'checker') bits |= OPT.checker;
    if (tris > MAX_LINES_TRIANGLES && bits & (OPT.wireframe | OPT.normals | OPT.tangents)) {
      bits &= ~(OPT.wireframe | OPT.normals | OPT.tangents);
      this.say(`Wireframe, normals and tangents are off above ${MAX_LINES_TRIANGLES.toLocaleString()} triangles.`);
    }
    this.view.set_z_up(t.zUp.checked);
    this.view.set_options(bits);
    this.applyBoxes();
    const shadow = this.mesh.shadow;
    if (t.shadow.checked && shadow.length) {
      const faces = [];
      for (let i = 0; i < shadow.length; i++) if (shadow[i]) faces.push(i);
      this.view.set_overlay(LAYER.shadow, new Uint32Array(faces), 0.25, 0.2, 0.3);
    } else {
      this.view.set_overlay(LAYER.shadow, new Uint32Array(0), 0, 0, 0);
    }
    t.shadow.disabled = !shadow.length;
    this.applyGrid();
    this.describe();
    this.redraw();
  }

  /**
   * Bounding boxes: the LOD's measured box and the stored ones ("Bounds"), the bone boxes
   * stored in the file and those measured from the weights ("Bone bounds"); a legend line
   * names what is drawn in which color. Counts go to the canvas's data attributes.
   */
  applyBoxes() {
    const t = this.c.toggles;
    const stored = t.bounds.checked ? storedBoxes(this.mesh) : [];
    const bonesStored = t.boneBoxes.checked ? storedBoneBoxes(this.mesh) : [];
    const bonesMeasured = t.boneBoxes.checked ? boneBoxes(this.mesh) : new Float32Array(0);
    this.view.set_boxes(1, flatBoxes(stored), ...BOX_COLORS.stored);
    this.view.set_boxes(2, flatBoxes(bonesStored), ...BOX_COLORS.boneStored);
    this.view.set_boxes(0, bonesMeasured, ...BOX_COLORS.boneMeasured);
    const ds = this.canvas.dataset;
    ds.storedBoxes = String(stored.length);
    ds.boneBoxes = `${bonesStored.length},${bonesMeasured.length / 6}`;
    const items = [];
    if (t.bounds.checked) {
      items.push(['measured', 'bounds measured (dashed)']);
      items.push(['stored', stored.length ? `bounds stored: ${stored.map((b) => b.name).join('; ')}` : 'no bounds stored']);
    }
    if (t.boneBoxes.checked) {
      items.push(['boneStored', bonesStored.length ? `bone bounds stored: ${bonesStored.length}` : 'no bone bounds stored']);
      items.push(['boneMeasured', `bone bounds measured from weights (dashed): ${bonesMeasured.length / 6}`]);
    }
    this.legend.replaceChildren(...items.map(([k, text]) => {
      const sw = el('span', { className: 'swatch' });
      sw.style.background = `rgb(${BOX_COLORS[k].map((x) => Math.round(x * 255)).join(',')})`;
      const item = el('span', { className: 'legend-item' });
      item.dataset.box = k;
      item.append(sw, ` ${text}`);
      return item;
    }));
    this.legend.hidden = !items.length;
  }

  /** The landscape grid: one overlay per submesh in its color, and the invalid faces in red. */
  applyGrid() {
    const grid = this.mesh.grid;
    const t = this.c.toggles.grid;
    t.disabled = !grid;
    for (const l of this.gridLayers ?? []) this.view.set_overlay(l, new Uint32Array(0), 0, 0, 0);
    this.gridLayers = [];
    if (!grid || !t.checked) return;
    const bySub = new Map();
    const invalid = [];
    grid.face_submesh.forEach((s, f) => {
      if (!bySub.has(s)) bySub.set(s, []);
      bySub.get(s).push(f);
      if (grid.face_invalid[f]) invalid.push(f);
    });
    for (const [s, faces] of bySub) {
      const layer = LAYER.grid + s;
      this.view.set_overlay(layer, new Uint32Array(faces), ...PALETTE[(s + 1) % PALETTE.length]); // shifted: submesh 0 differs from section 0
      this.gridLayers.push(layer);
    }
    this.view.set_overlay(LAYER.invalid, new Uint32Array(invalid), 0.9, 0.1, 0.1);
    this.gridLayers.push(LAYER.invalid);
  }

  describe(extra = '') {
    const m = this.mesh;
    const base = `LOD ${this.lod}${m.name ? ` (${m.name})` : ''} of ${m.lodCount}: ${(m.positions.length / 3).toLocaleString()} vertices, ${(m.indices.length / 3).toLocaleString()} triangles, ${m.sections.length} sections`;
    this.info.textContent = [base, this.lodNote, extra].filter(Boolean).join(' · ');
  }

  /** LOD preview by distance: picks the LOD the camera distance asks for under the preset. */
  updateLodPreview(fromMove = false) {
    const d = lodDistances(this.c);
    if (!d || !this.view || !this.mesh) {
      if (this.lodNote) { this.lodNote = ''; this.describe(); }
      return;
    }
    const dist = this.view.distance();
    let want = d.findIndex((x) => dist < x);
    const culled = want < 0;
    if (culled) want = d.length;
    const have = Math.min(want, this.mesh.lodCount - 1);
    this.lodNote = culled
      ? `${dist.toFixed(1)} m: past the cull distance ${d.at(-1)} m (showing LOD ${have})`
      : `${dist.toFixed(1)} m: LOD ${want} by distance${have !== want ? ` (only ${this.mesh.lodCount} decoded, showing LOD ${have})` : ''}`;
    this.canvas.dataset.lodWanted = String(want);
    if (have !== this.lod) this.showLod(have);
    else this.describe();
    if (!fromMove) this.redraw();
  }

  /** Which section a triangle belongs to. */
  sectionOf(tri) {
    const i = tri * 3;
    return this.mesh.sections.findIndex((s) => i >= s.index_start && i < s.index_start + s.index_count);
  }

  pick(x, y) {
    if (!this.view || !this.mesh) return;
    const tri = this.view.pick(x, y);
    if (tri < 0) return;
    const idx = [...this.mesh.indices.subarray(tri * 3, tri * 3 + 3)];
    const k = this.sectionOf(tri);
    const s = this.mesh.sections[k];
    this.view.set_overlay(LAYER.selection, new Uint32Array([tri]), 1.0, 0.85, 0.1);
    this.view.set_marked_vertices(new Uint32Array(idx));
    this.canvas.dataset.picked = String(tri);
    // The bytes live in the document's own file or in an attached chunk: that tab is made
    // active, its three indices selected and the triangle's vertices marked in its hex view.
    let where = '';
    let verts = '';
    const v = s?.vertex_source;
    const vertexRanges = v ? idx.map((i) => {
      const a = v.offset + (i - s.vertex_start) * v.stride;
      return [a, a + v.stride];
    }) : [];
    if (v) verts = ' · vertices at ' + vertexRanges.map(([a]) => `0x${a.toString(16)}`).join(', ');
    if (s?.index_source) {
      const src = s.index_source;
      const start = src.offset + (tri * 3 - s.index_start) * src.stride;
      const end = start + 3 * src.stride;
      const target = this.docOfFile(src.file);
      const name = src.file ? state.docs.find((d) => d.handle === target)?.name : null;
      if (target != null) {
        if (state.active !== target) setActive(target);
        emit(EV.byteMarks, { handle: this.docOfFile(v?.file), ranges: vertexRanges });
        select(start, end, 'viewer');
      }
      where = ` · indices at 0x${start.toString(16)}${src.file ? ` in ${name ?? `attached file ${src.file} (not open)`}` : ''}`;
    }
    this.describe(`triangle ${tri} [${idx.join(', ')}] in section ${k}${s ? ` "${s.name}"` : ''}${where}${verts}`);
    this.redraw();
  }

  /** A byte selection from another panel: the vertices and triangles whose bytes it covers. */
  highlightSelection(sel) {
    if (!this.mesh || !this.view || sel.source === 'viewer') return;
    // The selection's tab: the document's own bytes (file 0) or one of its attached chunks.
    const file = this.fileOf(sel.handle);
    if (file == null) return;
    emit(EV.byteMarks, null);
    const { tris, verts } = elementsInBytes(this.mesh, file, sel.start, sel.end);
    this.view.set_overlay(LAYER.selection, new Uint32Array(tris), 1.0, 0.85, 0.1);
    this.view.set_marked_vertices(new Uint32Array(verts));
    this.canvas.dataset.highlighted = `${tris.size},${verts.size}`;
    if (tris.size || verts.size) this.describe(`selection: ${tris.size} triangle(s), ${verts.size} vertex(es)`);
    this.redraw();
  }

  async download() {
    if (this.handle == null) return;
    try {
      const glb = await docs.export_glb(this.handle);
      const name = (state.docs.find((d) => d.handle === this.handle)?.name ?? 'mesh').replace(/\.[^.]*$/, '') + '.glb';
      const url = URL.createObjectURL(new Blob([glb], { type: 'model/gltf-binary' }));
      const a = el('a', { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      this.say(`Export failed: ${e.message ?? e}`);
    }
  }
}

/** Sizes `canvas` to `stage` in device pixels (at most two per CSS pixel) and tells the
 *  renderer `view`. */
export function fitCanvas(stage, canvas, view) {
  const r = stage.getBoundingClientRect();
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  view?.resize(canvas.width, canvas.height);
}

/** Renders `owner.view` on the next animation frame (once however often it is asked) when
 *  `has()` says there is something to draw; counts the frames in the canvas's data-frames and
 *  says a failure through `owner.say`. `owner`: {view, canvas, frames, pending, say}. */
export function drawSoon(owner, has) {
  if (owner.pending || !owner.view) return;
  owner.pending = true;
  requestAnimationFrame(() => {
    owner.pending = false;
    if (!owner.view || !has()) return;
    try {
      owner.view.render();
      owner.frames++;
      owner.canvas.dataset.frames = String(owner.frames);
    } catch (e) {
      owner.say(`Drawing failed: ${e.message ?? e}`);
    }
  });
}

/**
 * The triangles and vertices of `mesh` whose bytes in file `file` of its sources (0 the
 * document's own) overlap [start, end): {tris, verts} as Sets, at most 500,000 and 20,000.
 */
export function elementsInBytes(mesh, file, start, end) {
  const tris = new Set();
  const verts = new Set();
  const overlap = (src, count) => {
    if (!src || src.file !== file || !src.stride) return null;
    const a = Math.max(start, src.offset);
    const b = Math.min(end, src.offset + count * src.stride);
    if (a >= b) return null;
    return [Math.floor((a - src.offset) / src.stride), Math.ceil((b - src.offset) / src.stride)];
  };
  for (const s of mesh.sections) {
    const iv = overlap(s.index_source, s.index_count);
    if (iv) {
      for (let t = Math.floor((s.index_start + iv[0]) / 3); t < Math.ceil((s.index_start + iv[1]) / 3) && tris.size < 500000; t++) tris.add(t);
    }
    const vv = overlap(s.vertex_source, s.vertex_count);
    if (vv) for (let v = vv[0]; v < vv[1] && verts.size < 20000; v++) verts.add(s.vertex_start + v);
  }
  return { tris, verts };
}

/**
 * Multisampling, unless the WebGL renderer is software (SwiftShader, llvmpipe), where it costs
 * about three times the frame time (docs/viewer.md). `#aa=0` / `#aa=1` in the address decide.
 */
export function antialias() {
  const m = /(?:^|[#&])aa=([01])/.exec(location.hash);
  if (m) return m[1] === '1';
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl?.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return !/swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return true;
  }
}

/** r, g, b (0..255) of a CSS color as getComputedStyle gives it (#rrggbb or rgb()). */
export function cssColor(text) {
  const t = text.trim();
  const h = /^#([0-9a-f]{6})$/i.exec(t);
  if (h) return [0, 2, 4].map((i) => parseInt(h[1].slice(i, i + 2), 16));
  const m = /rgba?\(([^)]*)\)/.exec(t);
  if (m) return m[1].split(/[ ,/]+/).slice(0, 3).map(Number);
  return [237, 237, 232];
}

export function addStyles() {
  if (document.querySelector('link[data-viewer]')) return;
  const link = el('link', { rel: 'stylesheet', href: new URL('./viewer.css', import.meta.url).href });
  link.dataset.viewer = '';
  document.head.append(link);
}

/** Sets the view up in `#viewer-pane`; returns it (also as `window.meshscope.viewer`). */
export async function initViewer(pane = document.getElementById('viewer-pane')) {
  if (!pane) return null;
  addStyles();
  const v = new MeshView(pane);
  await v.start();
  if (window.meshscope) window.meshscope.viewer = v;
  return v;
}
