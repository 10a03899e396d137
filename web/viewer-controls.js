// The 3D view's toolbar and pointer input. Builds plain DOM controls and reports changes
// through callbacks; knows nothing about wasm.

/** Section colors: distinct, light enough to shade, readable on the light background. */
export const PALETTE = [
  [0.35, 0.62, 0.85], [0.90, 0.60, 0.25], [0.45, 0.75, 0.50], [0.85, 0.45, 0.55],
  [0.65, 0.55, 0.85], [0.80, 0.75, 0.35], [0.40, 0.75, 0.78], [0.75, 0.55, 0.40],
];

/** LodGroup presets from the MeshSet description (switch distances in metres; the last is the cull distance). */
export const LOD_PRESETS = {
  off: null,
  'WorldObject_MediumVista_2Lod': [90, 1000],
  DingoVistaLodGroup: [10000],
};

export const TOGGLES = [
  ['wireframe', 'Wire', 'Wireframe over the shading'],
  ['normals', 'Normals', 'Decoded normals as short lines'],
  ['tangents', 'Tangents', 'Decoded tangent frames (tangent red, bitangent green)'],
  ['bounds', 'Bounds', 'Bounding boxes: measured from the LOD (dashed) and stored in the file (solid)'],
  ['boneBoxes', 'Bone bounds', 'Bone bounding boxes: stored in the file (solid) and measured from the vertices each bone weighs most (dashed)'],
  ['shadow', 'Shadow faces', 'Mark the faces that cast shadows (GEM SHDW)'],
  ['grid', 'Grid', 'Landscape grid (GEM InfG): faces colored by submesh, invalid faces red'],
  ['cull', 'Cull back', 'Cull back faces (counter-clockwise front; mirrored sections flipped)'],
  ['zUp', 'Z up', 'Treat +Z as up instead of +Y'],
];

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

/** Builds the toolbar into `bar`; returns the controls for the viewer to fill and read. */
export function buildToolbar(bar, on) {
  const c = {};
  c.lod = el('select', { id: 'viewer-lod', title: 'Level of detail' });
  c.pass = el('select', { id: 'viewer-pass', title: 'Render pass (MeshSet section lists)' });
  c.color = el('select', { id: 'viewer-color', title: 'Surface color' });
  for (const [v, t] of [['sections', 'Section colors'], ['checker', 'UV checker'], ['weights', 'Bone weights']]) {
    c.color.append(el('option', { value: v, textContent: t }));
  }
  c.bone = el('select', { id: 'viewer-bone', title: 'Bone whose weights are shown', hidden: true });
  c.toggles = {};
  const toggles = el('span', { className: 'viewer-toggles' });
  for (const [key, label, title] of TOGGLES) {
    const box = el('input', { type: 'checkbox', id: `viewer-${key}` });
    c.toggles[key] = box;
    box.addEventListener('change', () => on.options());
    toggles.append(el('label', { title }, box, ` ${label}`));
  }
  c.lodPreview = el('select', { id: 'viewer-lod-preview', title: 'Switch LOD by camera distance with a LodGroup preset' });
  for (const k of [...Object.keys(LOD_PRESETS), 'custom']) {
    c.lodPreview.append(el('option', { value: k, textContent: k === 'off' ? 'LOD by distance: off' : k }));
  }
  c.lodDistances = el('input', { id: 'viewer-lod-distances', placeholder: 'e.g. 20, 60, 300', size: 12, hidden: true, title: 'Switch distances in metres, comma-separated; the last one culls' });
  c.reset = el('button', { id: 'viewer-reset', textContent: 'Reset view' });
  c.download = el('button', { id: 'viewer-download', textContent: 'Download .glb' });
  c.sections = el('details', { id: 'viewer-sections' }, el('summary', { textContent: 'Sections' }));
  bar.append(c.lod, c.pass, c.color, c.bone, toggles, c.lodPreview, c.lodDistances, c.reset, c.download, c.sections);

  c.lod.addEventListener('change', () => on.lod(Number(c.lod.value)));
  c.pass.addEventListener('change', () => on.sections());
  c.color.addEventListener('change', () => { c.bone.hidden = c.color.value !== 'weights'; on.colors(); });
  c.bone.addEventListener('change', () => on.colors());
  c.lodPreview.addEventListener('change', () => { c.lodDistances.hidden = c.lodPreview.value !== 'custom'; on.lodPreview(); });
  c.lodDistances.addEventListener('input', () => on.lodPreview());
  c.reset.addEventListener('click', () => on.reset());
  c.download.addEventListener('click', () => on.download());
  return c;
}

/** The switch distances of the chosen LOD preview, or null when off. */
export function lodDistances(c) {
  if (c.lodPreview.value === 'custom') {
    const d = c.lodDistances.value.split(/[,\s]+/).map(Number).filter((x) => Number.isFinite(x) && x > 0);
    return d.length ? d.sort((a, b) => a - b) : null;
  }
  return LOD_PRESETS[c.lodPreview.value] ?? null;
}

/** Fills the section list: a checkbox per section with its color and triangle count. */
export function fillSections(c, sections, passOf, onToggle) {
  const list = el('div', { className: 'viewer-section-list' });
  sections.forEach((s, k) => {
    const box = el('input', { type: 'checkbox', checked: passOf(s) });
    box.dataset.section = String(k);
    box.addEventListener('change', () => onToggle(k, box.checked));
    const [r, g, b] = PALETTE[k % PALETTE.length].map((x) => Math.round(x * 255));
    const sw = el('span', { className: 'swatch' });
    sw.style.background = `rgb(${r},${g},${b})`;
    const flags = [s.mirrored ? 'mirrored' : '', s.two_sided ? 'two-sided' : ''].filter(Boolean).join(', ');
    list.append(el('label', {}, box, sw, ` ${k}: ${s.name || '(unnamed)'} · ${(s.index_count / 3) | 0} tris${flags ? ` · ${flags}` : ''}`));
  });
  c.sections.replaceChildren(el('summary', { textContent: `Sections (${sections.length})` }), list);
  return [...list.querySelectorAll('input')];
}

/**
 * Mouse, wheel and touch: drag orbits (left button, one finger), right or shift drag pans,
 * wheel and pinch zoom, a click without movement picks. Calls `on.orbit/pan/zoom/pick`.
 */
export function attachInput(canvas, on) {
  const pointers = new Map();
  let moved = 0;
  let pinch = null;
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    try { canvas.setPointerCapture(e.pointerId); } catch { /* a pointer the browser no longer tracks */ }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, button: e.button, shift: e.shiftKey });
    moved = 0;
    pinch = null;
  });
  canvas.addEventListener('pointermove', (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    moved += Math.abs(dx) + Math.abs(dy);
    p.x = e.clientX;
    p.y = e.clientY;
    const h = canvas.clientHeight || 1;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch) on.zoom(pinch / Math.max(d, 1));
      pinch = d;
      on.pan(dx / h / 2, dy / h / 2);
    } else if (p.button === 2 || p.shift) {
      on.pan(dx / h, dy / h);
    } else {
      on.orbit(dx / h * 3, dy / h * 3);
    }
  });
  const up = (e) => {
    const p = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (p && moved < 4 && e.type === 'pointerup' && pointers.size === 0) {
      const r = canvas.getBoundingClientRect();
      on.pick(((e.clientX - r.left) / r.width) * 2 - 1, 1 - ((e.clientY - r.top) / r.height) * 2);
    }
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    on.zoom(Math.exp(e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
  }, { passive: false });
}
