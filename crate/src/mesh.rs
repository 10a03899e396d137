//! The neutral mesh every format decodes into: LODs of sections over typed vertex arrays.
//! Arrays are flat (`positions` is x, y, z, x, y, z, ...) so they cross to JS as typed arrays.

use crate::short::{PathText, Short};
use serde::Serialize;

/// Where a run of elements lives in the bytes: for picking a triangle or vertex into the hex view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Source {
    /// 0 is the document's own file; N is its N-th attached file (a geometry chunk).
    pub file: u32,
    pub offset: u64,
    pub stride: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Section {
    /// Material, texture or section name as stored.
    pub name: String,
    /// Range into `Lod::indices` (in indices, not triangles).
    pub index_start: u32,
    pub index_count: u32,
    /// Range of vertices the section's indices name.
    pub vertex_start: u32,
    pub vertex_count: u32,
    pub two_sided: bool,
    /// Mirrored meshes flip the winding when drawn.
    pub mirrored: bool,
    /// Bone names the section's joint indices resolve to (empty for rigid meshes); `Short`
    /// so that a MeshSet's `bone N` names are not an allocation each.
    pub bones: Vec<Short>,
    /// Render passes drawing this section (MeshSet section lists), empty when not known.
    pub passes: Vec<Short>,
    /// Where the section's first vertex and first index are stored.
    pub vertex_source: Option<Source>,
    pub index_source: Option<Source>,
    /// The section's bounding box as the file stores it (MeshSet section bounds), `None` when
    /// not stored. Kept as numbers so the view never parses check text.
    pub stored_bounds: Option<StoredBox>,
}

/// A bounding box read from the file (not measured), with the path of the field it was read
/// from, so the view can name it and compare it with what it measures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StoredBox {
    /// Field path of the stored minimum (e.g. `header.bounds_min`, `BNDS.min`).
    pub path: PathText,
    pub min: [f32; 3],
    pub max: [f32; 3],
}

/// One bone's bounding box as the file stores it (MeshSet bone bounds in the pool).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BoneBox {
    /// The bone id the box belongs to (a bounded bone id, else the bone's index).
    pub bone: u32,
    /// The bone's name when stored, else `bone N` as in `Section::bones`.
    pub name: Short,
    #[serde(flatten)]
    pub bounds: StoredBox,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Lod {
    pub name: String,
    pub positions: Vec<f32>,
    pub normals: Vec<f32>,
    /// x, y, z and the bitangent sign in w.
    pub tangents: Vec<f32>,
    /// One flat u, v array per UV set.
    pub uvs: Vec<Vec<f32>>,
    /// r, g, b, a in 0..1 (GEM colors are already doubled where the file says so).
    pub colors: Vec<f32>,
    /// Four joint indices per vertex, into `Lod::bone_names`.
    pub joints: Vec<u16>,
    pub weights: Vec<f32>,
    pub bone_names: Vec<String>,
    pub indices: Vec<u32>,
    pub sections: Vec<Section>,
    /// Per triangle: casts a shadow (GEM SHDW), empty when not stored.
    pub shadow: Vec<u8>,
    /// Per triangle: its three neighbouring triangles, `u32::MAX` for none (GEM ADJA),
    /// empty when not stored.
    pub adjacency: Vec<u32>,
    /// A landscape's triangle grid (GEM BAS2 + InfG), when stored.
    pub grid: Option<Grid>,
    /// The box the file stores around the whole mesh (GEM `BNDS`; the MeshSet header's, which
    /// covers every LOD), `None` when not stored.
    pub stored_bounds: Option<StoredBox>,
    /// Per-bone boxes the file stores (MeshSet bone bounds, the same for every LOD); empty
    /// when not stored. Boxes measured from the weights are the view's own.
    pub bone_bounds: Vec<BoneBox>,
}

/// A landscape triangle grid: the bases that generate its triangles and UVs, and per grid
/// face its submesh and invalid flag.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Grid {
    /// Center, axis x, axis y (x, y each) of the triangle generation basis.
    pub polygon_basis: Vec<f32>,
    /// Center, axis x, axis y of the UV basis.
    pub texture_basis: Vec<f32>,
    pub start: [i32; 2],
    pub end: [i32; 2],
    pub face_submesh: Vec<u16>,
    pub face_invalid: Vec<bool>,
}

impl Lod {
    pub fn vertex_count(&self) -> usize {
        self.positions.len() / 3
    }

    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Bounds of the decoded positions, `None` without vertices.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        bounds_of(&self.positions)
    }
}

/// Bounds of the x, y, z triples in `positions` (a shorter tail is ignored), `None` without
/// one. NaN is skipped, as `f32::min` skips it; an axis that holds only NaN is NaN.
pub fn bounds_of(positions: &[f32]) -> Option<([f32; 3], [f32; 3])> {
    let whole = positions.get(..positions.len() / 3 * 3).filter(|p| !p.is_empty())?;
    // Four points a block, lane k on axis k % 3. A compare and select (which skips NaN; which
    // of -0 and +0 it keeps is unspecified, as with `f32::min`) vectorizes, in wasm as
    // f32x4.pmin; `f32::min` does not.
    let (mut lo, mut hi) = ([f32::INFINITY; 12], [f32::NEG_INFINITY; 12]);
    let mut blocks = whole.chunks_exact(12);
    lanes_bounds(&mut blocks, &mut lo, &mut hi);
    for (k, &v) in blocks.remainder().iter().enumerate() {
        lo[k] = if v < lo[k] { v } else { lo[k] };
        hi[k] = if v > hi[k] { v } else { hi[k] };
    }
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for k in 0..12 {
        let a = k % 3;
        min[a] = if lo[k] < min[a] { lo[k] } else { min[a] };
        max[a] = if hi[k] > max[a] { hi[k] } else { max[a] };
    }
    for a in 0..3 {
        if min[a] > max[a] {
            (min[a], max[a]) = (f32::NAN, f32::NAN);
        }
    }
    Some((min, max))
}

/// Folds whole blocks of 12 into the lanes' minimum and maximum, by `<` and `>`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn lanes_bounds(blocks: &mut std::slice::ChunksExact<f32>, lo: &mut [f32; 12], hi: &mut [f32; 12]) {
    for b in blocks {
        for k in 0..12 {
            lo[k] = if b[k] < lo[k] { b[k] } else { lo[k] };
            hi[k] = if b[k] > hi[k] { b[k] } else { hi[k] };
        }
    }
}

/// The same with wasm's pmin and pmax (`b < a ? b : a`), which LLVM does not find itself.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn lanes_bounds(blocks: &mut std::slice::ChunksExact<f32>, lo: &mut [f32; 12], hi: &mut [f32; 12]) {
    use core::arch::wasm32::{f32x4, f32x4_extract_lane as lane, f32x4_pmax, f32x4_pmin, v128};
    let load = |a: &[f32]| f32x4(a[0], a[1], a[2], a[3]);
    let mut l: [v128; 3] = [load(&lo[..4]), load(&lo[4..8]), load(&lo[8..])];
    let mut h: [v128; 3] = [load(&hi[..4]), load(&hi[4..8]), load(&hi[8..])];
    for b in blocks {
        for g in 0..3 {
            let v = load(&b[4 * g..]);
            l[g] = f32x4_pmin(l[g], v);
            h[g] = f32x4_pmax(h[g], v);
        }
    }
    for g in 0..3 {
        let unpack = |x: v128| [lane::<0>(x), lane::<1>(x), lane::<2>(x), lane::<3>(x)];
        lo[4 * g..4 * g + 4].copy_from_slice(&unpack(l[g]));
        hi[4 * g..4 * g + 4].copy_from_slice(&unpack(h[g]));
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Mesh {
    pub lods: Vec<Lod>,
}

/// The axis that points up in a format's decoded positions; glTF's is +Y.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Up {
    /// glTF's, and MeshSets'.
    Y,
    /// GEM `.ply`'s.
    Z,
}

/// How a format's decoded mesh is oriented, against glTF's (and OBJ's) +Y up and
/// counter-clockwise front faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axes {
    pub up: Up,
    /// Front faces wind clockwise (Direct3D's default), measured against the stored normals.
    pub clockwise: bool,
}

impl Axes {
    /// glTF's own: Y up, counter-clockwise.
    pub const GLTF: Axes = Axes { up: Up::Y, clockwise: false };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_every_position() {
        assert_eq!(bounds_of(&[]), None);
        let b = bounds_of(&[1.0, -2.0, 3.0, -1.0, 5.0, 0.0]).unwrap();
        assert_eq!(b, ([-1.0, -2.0, 0.0], [1.0, 5.0, 3.0]));
    }

    /// Against a plain `f32::min`/`max` fold, for every length up to a few blocks, with NaN
    /// in some places and a whole axis of NaN.
    #[test]
    fn bounds_match_a_plain_fold() {
        let reference = |p: &[f32]| -> Option<([f32; 3], [f32; 3])> {
            let mut it = p.chunks_exact(3);
            let f = it.next()?;
            let (mut mn, mut mx) = ([f[0], f[1], f[2]], [f[0], f[1], f[2]]);
            for q in it {
                for k in 0..3 {
                    mn[k] = mn[k].min(q[k]);
                    mx[k] = mx[k].max(q[k]);
                }
            }
            Some((mn, mx))
        };
        let same = |a: f32, b: f32| a == b || (a.is_nan() && b.is_nan());
        let mut seed = 7u32;
        for len in 0..64 {
            for nan_every in [0usize, 5, 7] {
                let p: Vec<f32> = (0..len)
                    .map(|i| {
                        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                        let v = (seed >> 8) as f32 / 65_536.0 - 128.0;
                        if (nan_every > 0 && i % nan_every == 0) || (len > 40 && i % 3 == 1) {
                            f32::NAN
                        } else {
                            v
                        }
                    })
                    .collect();
                let (got, want) = (bounds_of(&p), reference(&p));
                assert_eq!(got.is_some(), want.is_some(), "length {len}");
                if let (Some(g), Some(w)) = (got, want) {
                    for k in 0..3 {
                        assert!(same(g.0[k], w.0[k]) && same(g.1[k], w.1[k]), "length {len}: {g:?} against {w:?}");
                    }
                }
            }
        }
    }
}
