//! The vertex arrays of the mesh, read from the VERT bytes through the fitted layout:
//! positions, normals, tangents, every UV set, color set 0 (doubled when the file says so),
//! weights (with the implicit last one) and raw joint indices (resolved later).

use super::vertex::{Layout, Sem, VElem};
use crate::mesh::Lod;

pub(super) fn vertex_arrays(layout: &Layout, vdata: &[u8], stride: usize, double: bool, vcount: usize, lod: &mut Lod) {
    let has = |sem: Sem| layout.elems.iter().find(|e| e.sem == sem).cloned();
    let pos = has(Sem::Position);
    let nor = has(Sem::Normal);
    let tan = has(Sem::Tangent);
    let mut uv_elems: Vec<_> = layout
        .elems
        .iter()
        .filter_map(|e| match e.sem {
            Sem::Uv(k) => Some((k, e.clone())),
            _ => None,
        })
        .collect();
    uv_elems.sort_by_key(|(k, _)| *k);
    let col = layout
        .elems
        .iter()
        .filter(|e| matches!(e.sem, Sem::Color(_)))
        .min_by_key(|e| match e.sem {
            Sem::Color(k) => k,
            _ => 0,
        })
        .cloned();
    let wts = has(Sem::Weights);
    let idx = has(Sem::Indices);
    let field = |v: &[u8], e: &VElem, out: &mut [f32; 4]| -> usize {
        let o = e.offset as usize;
        match v.get(o..o + e.kind.size() as usize) {
            Some(b) => e.kind.values(b, out),
            None => 0,
        }
    };
    if stride > 0 {
        let n = vcount;
        lod.positions.reserve(n * 3);
        if nor.is_some() {
            lod.normals.reserve(n * 3);
        }
        lod.uvs = vec![Vec::with_capacity(n * 2); uv_elems.len()];
        for v in vdata.chunks_exact(stride) {
            let mut t = [0f32; 4];
            if let Some(e) = &pos {
                field(v, e, &mut t);
            }
            lod.positions.extend_from_slice(&t[..3]);
            if let Some(e) = &nor {
                t = [0.0; 4];
                field(v, e, &mut t);
                lod.normals.extend_from_slice(&t[..3]);
            }
            if let Some(e) = &tan {
                t = [0.0, 0.0, 0.0, 1.0];
                field(v, e, &mut t);
                lod.tangents.extend_from_slice(&t);
            }
            for (k, (_, e)) in uv_elems.iter().enumerate() {
                t = [0.0; 4];
                field(v, e, &mut t);
                if let Some(u) = lod.uvs.get_mut(k) {
                    u.extend_from_slice(&t[..2]);
                }
            }
            if let Some(e) = &col {
                t = [0.0, 0.0, 0.0, 1.0];
                field(v, e, &mut t);
                if double {
                    for c in &mut t[..3] {
                        *c *= 2.0;
                    }
                }
                lod.colors.extend_from_slice(&t);
            }
            if wts.is_some() || idx.is_some() {
                let mut w = [0f32; 4];
                let nw = wts.as_ref().map(|e| field(v, e, &mut w)).unwrap_or(0).min(4);
                if nw < 4 {
                    w[nw] = 1.0 - w[..nw].iter().sum::<f32>();
                }
                lod.weights.extend_from_slice(&w);
                // Without stored bone indices (GEM3 skins) there are no joints to give.
                if let Some(e) = &idx {
                    let mut j = [0f32; 4];
                    field(v, e, &mut j);
                    lod.joints.extend(j.iter().map(|&x| x as u16));
                }
            }
        }
    }
}
