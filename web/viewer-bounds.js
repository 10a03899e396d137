// Per-vertex and per-bone values the 3D view derives from a docs.mesh object, and the stored
// bounding boxes it reads from the document's checks. Pure functions (no DOM, no wasm).

/** The weight of `bone` per vertex as colors: dark blue (0) through green to yellow (1). */
export function weightRamp(mesh, bone) {
  const n = mesh.positions.length / 3;
  const out = new Float32Array(n * 3);
  const { joints, weights } = mesh;
  for (let v = 0; v < n; v++) {
    let w = 0;
    for (let k = 0; k < 4; k++) if (joints[v * 4 + k] === bone) w += weights[v * 4 + k] ?? 0;
    w = Math.min(Math.max(w, 0), 1);
    const c = w < 0.5
      ? [0.12 + w * 0.2, 0.15 + w * 1.1, 0.45 - w * 0.3]
      : [0.22 + (w - 0.5) * 1.56, 0.7 + (w - 0.5) * 0.4, 0.3 - (w - 0.5) * 0.4];
    out.set(c, v * 3);
  }
  return out;
}

/**
 * The joints' names: the decoded bone names, or `joint N` up to the largest joint carrying
 * weight when the format stores no names (MeshSets), as in the glTF export.
 */
export function jointNames(mesh) {
  if (mesh.boneNames?.length) return mesh.boneNames;
  const { joints, weights } = mesh;
  let max = -1;
  if (joints?.length && joints.length === weights?.length) {
    for (let i = 0; i < joints.length; i++) if (weights[i] > 0 && joints[i] > max) max = joints[i];
  }
  return Array.from({ length: max + 1 }, (_, k) => `joint ${k}`);
}

/** Measured bone bounds: for each bone, the box of the vertices it weighs most. */
export function boneBoxes(mesh) {
  const bones = jointNames(mesh).length;
  const { joints, weights, positions } = mesh;
  if (!bones || !weights.length) return new Float32Array(0);
  const box = Array.from({ length: bones }, () => [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let v = 0; v < positions.length / 3; v++) {
    let best = -1;
    let bw = 0;
    for (let k = 0; k < 4; k++) if (weights[v * 4 + k] > bw) { bw = weights[v * 4 + k]; best = joints[v * 4 + k]; }
    if (best < 0 || best >= bones) continue;
    const b = box[best];
    for (let a = 0; a < 3; a++) {
      b[a] = Math.min(b[a], positions[v * 3 + a]);
      b[a + 3] = Math.max(b[a + 3], positions[v * 3 + a]);
    }
  }
  return new Float32Array(box.filter((b) => b[0] <= b[3]).flat());
}


/**
 * The stored bounding boxes of LOD `lod`, from the decoder's checks that compare stored bounds
 * with measured ones (GEM `BNDS`: "min [x, y, z] max [x, y, z]"; MeshSet header and section
 * bounds: "[x, y, z] [x, y, z]"). A check naming another LOD (`lod[N]…`) is left out.
 */
export function storedBoxes(checks, lod) {
  const out = [];
  for (const c of checks ?? []) {
    if (!/bound|bnds/i.test(`${c.name} ${c.path}`)) continue;
    const m = /^lod\[(\d+)\]/.exec(c.path ?? '');
    if (m && Number(m[1]) !== lod) continue;
    const groups = [...String(c.stored ?? '').matchAll(/\[([^\]]*)\]/g)]
      .map((g) => g[1].split(',').map((x) => Number(x.trim())));
    if (groups.length !== 2 || groups.some((g) => g.length < 3 || g.slice(0, 3).some((x) => !Number.isFinite(x)))) continue;
    const [min, max] = groups.map((g) => g.slice(0, 3));
    if (min.some((x, k) => x > max[k])) continue;
    out.push({ name: c.path || c.name, min, max });
  }
  return out;
}

/**
 * Whether +Z should be up: the formats state no axis convention, so the view guesses from the
 * shape. A mesh much flatter in Z than in Y (a GEM landscape) is Z-up; anything else Y-up.
 */
export function flatInZ(positions) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = positions[i + k];
      if (x < min[k]) min[k] = x;
      if (x > max[k]) max[k] = x;
    }
  }
  const [, ey, ez] = max.map((x, k) => x - min[k]);
  return Number.isFinite(ez) && ez < ey * 0.5;
}
