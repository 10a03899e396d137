// Per-vertex and per-bone values the 3D view derives from a docs.mesh object, and the stored
// bounding boxes the decoders put in it. Pure functions (no DOM, no wasm).

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


/** A box that can be drawn: three finite minimum and maximum coordinates, min <= max. */
function drawable(b) {
  const ok = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);
  return !!b && ok(b.min) && ok(b.max) && b.min.every((x, k) => x <= b.max[k]);
}

/** A stored box's short name from its field path: `header`, `BNDS`, `lod[0].section[1]`. */
export function boxName(path) {
  return String(path ?? '').replace(/\.(bounds_)?min$/, '');
}

/**
 * The stored bounding boxes of a docs.mesh LOD, as numbers from the decoder: the whole mesh's
 * (`storedBounds`: GEM `BNDS`, the MeshSet header's) and each section's (`stored_bounds`).
 * Boxes that cannot be drawn (non-finite, min above max) are left out.
 */
export function storedBoxes(mesh) {
  const all = [mesh?.storedBounds, ...(mesh?.sections ?? []).map((s) => s.stored_bounds)];
  return all.filter(drawable).map((b) => ({ name: boxName(b.path), path: b.path, min: [...b.min], max: [...b.max] }));
}

/** The stored bone bounds of a docs.mesh LOD (`boneBounds`: bone id, name, box), drawable ones only. */
export function storedBoneBoxes(mesh) {
  return (mesh?.boneBounds ?? []).filter(drawable)
    .map((b) => ({ bone: b.bone, name: b.name, path: b.path, min: [...b.min], max: [...b.max] }));
}

/** Boxes as the renderer takes them: min x, y, z, max x, y, z per box. */
export function flatBoxes(boxes) {
  return new Float32Array(boxes.flatMap((b) => [...b.min, ...b.max]));
}

/**
 * Whether +Z should be up: the formats state no axis convention, so the view guesses from the
 * shape. A mesh much flatter in Z than in X and Y (a GEM landscape) is Z-up; anything else Y-up.
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
  const [ex, ey, ez] = max.map((x, k) => x - min[k]);
  // Flat against both other axes: a figure thin in Z and X but tall in Y stays Y-up.
  return Number.isFinite(ez) && ez < ey * 0.5 && ez < ex * 0.5;
}
