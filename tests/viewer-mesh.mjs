// Mesh objects shaped like `docs.mesh(handle, lod)` for the viewer tests and the benchmark,
// built in the page (functions are passed to page.evaluate as source).

/** A torus as a docs.mesh object: `rings x sides` quads, split into `nsec` sections. */
export function torusMesh({ rings = 48, sides = 24, R = 1, r = 0.35, nsec = 2, lodCount = 1, indexSource = null } = {}) {
  const pos = [];
  const nor = [];
  const uv = [];
  for (let i = 0; i <= rings; i++) {
    const u = (i / rings) * Math.PI * 2;
    for (let j = 0; j <= sides; j++) {
      const v = (j / sides) * Math.PI * 2;
      const [cu, su, cv, sv] = [Math.cos(u), Math.sin(u), Math.cos(v), Math.sin(v)];
      pos.push((R + r * cv) * cu, r * sv, (R + r * cv) * su);
      nor.push(cv * cu, sv, cv * su);
      uv.push(i / rings, j / sides);
    }
  }
  const idx = [];
  const row = sides + 1;
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < sides; j++) {
      const a = i * row + j;
      const b = (i + 1) * row + j;
      idx.push(a, a + 1, b, b, a + 1, b + 1);
    }
  }
  const tris = idx.length / 3;
  const per = Math.ceil(tris / nsec);
  const sections = [];
  for (let k = 0; k < nsec; k++) {
    const start = k * per * 3;
    const count = Math.max(0, Math.min(per * 3, idx.length - start));
    sections.push({
      name: `section${k}`, index_start: start, index_count: count, vertex_start: 0, vertex_count: pos.length / 3,
      two_sided: false, mirrored: false, bones: [], passes: [],
      vertex_source: indexSource ? { file: 0, offset: 0, stride: 32 } : null,
      index_source: indexSource ? { file: 0, offset: indexSource.offset + start * indexSource.stride, stride: indexSource.stride } : null,
    });
  }
  return {
    lodCount, name: 'torus', positions: new Float32Array(pos), normals: new Float32Array(nor),
    tangents: new Float32Array(0), uvs: [new Float32Array(uv)], colors: new Float32Array(0),
    joints: new Uint16Array(0), weights: new Float32Array(0), indices: new Uint32Array(idx),
    shadow: new Uint8Array(0), sections, boneNames: [],
  };
}

// The canvas helpers below run in the page through page.evaluate, which sends each function's
// own text alone: they cannot share a helper, so each copies the canvas itself.

/** Counts the canvas pixels that are not background; returns share, centroid and bbox. */
export function canvasCoverage() {
  const src = document.getElementById('viewer-canvas');
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height;
  const g = c.getContext('2d');
  g.drawImage(src, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  const bg = [d[0], d[1], d[2]];
  let n = 0; let sx = 0; let sy = 0;
  let minX = c.width; let minY = c.height; let maxX = 0; let maxY = 0;
  const lum = [];
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const o = (y * c.width + x) * 4;
      if (Math.abs(d[o] - bg[0]) + Math.abs(d[o + 1] - bg[1]) + Math.abs(d[o + 2] - bg[2]) > 24) {
        n++; sx += x; sy += y;
        minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        if ((x + y) % 7 === 0) lum.push(0.3 * d[o] + 0.59 * d[o + 1] + 0.11 * d[o + 2]);
      }
    }
  }
  lum.sort((a, b) => a - b);
  return {
    width: c.width, height: c.height, bg, share: n / (c.width * c.height),
    cx: sx / n / c.width, cy: sy / n / c.height, bbox: [minX, minY, maxX, maxY],
    lumSpread: lum.length ? lum[Math.floor(lum.length * 0.95)] - lum[Math.floor(lum.length * 0.05)] : 0,
  };
}

/** The color of one canvas pixel (x, y in CSS pixels from the top left). */
export function canvasPixel([x, y]) {
  const src = document.getElementById('viewer-canvas');
  const k = src.width / src.clientWidth;
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height;
  const g = c.getContext('2d');
  g.drawImage(src, 0, 0);
  return [...g.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data];
}

/** How many canvas pixels are within `tol` (per channel) of the color `rgb` (0..255). */
export function canvasColorCount([rgb, tol]) {
  const src = document.getElementById('viewer-canvas');
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height;
  const g = c.getContext('2d');
  g.drawImage(src, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let o = 0; o < d.length; o += 4) {
    if (Math.abs(d[o] - rgb[0]) <= tol && Math.abs(d[o + 1] - rgb[1]) <= tol && Math.abs(d[o + 2] - rgb[2]) <= tol) n++;
  }
  return n;
}

/**
 * A point the mesh covers well inside its outline (CSS pixels from the canvas's top left): the
 * covered pixel nearest the centre whose 9 x 9 neighbourhood is covered too, or null.
 */
export function innerCoveredPoint() {
  const src = document.getElementById('viewer-canvas');
  const c = document.createElement('canvas');
  c.width = src.width;
  c.height = src.height;
  const g = c.getContext('2d');
  g.drawImage(src, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  const bg = [d[0], d[1], d[2]];
  const covered = (x, y) => {
    const o = (y * c.width + x) * 4;
    return Math.abs(d[o] - bg[0]) + Math.abs(d[o + 1] - bg[1]) + Math.abs(d[o + 2] - bg[2]) > 60;
  };
  const inner = (x, y) => {
    for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) if (!covered(x + dx, y + dy)) return false;
    return true;
  };
  let best = null;
  const [cx, cy] = [c.width / 2, c.height / 2];
  for (let y = 4; y < c.height - 4; y += 2) {
    for (let x = 4; x < c.width - 4; x += 2) {
      const dist = Math.hypot(x - cx, y - cy);
      if ((!best || dist < best[2]) && inner(x, y)) best = [x, y, dist];
    }
  }
  const k = src.width / src.clientWidth;
  return best ? [best[0] / k, best[1] / k] : null;
}
