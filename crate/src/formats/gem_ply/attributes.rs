//! The vertex arrays of the mesh, read from the VERT bytes through the fitted layout:
//! positions, normals, tangents, every UV set, color set 0 (doubled when the file says so),
//! weights (with the implicit last one) and raw joint indices (resolved later).
//!
//! Each array is filled field by field, one loop over the vertices per field and kind, so
//! the loop's reads are fixed for it (a vertex at a time, matching on the kind per field,
//! was most of the decode).

use super::vertex::{Kind, Layout, Sem, VElem};
use crate::mesh::Lod;

/// One field of every vertex as `W` values a vertex: the field's values (at most four,
/// `Kind::value_count`) over `init`, whose other values stay. A field that does not
/// lie inside the stride gives `init` for every vertex.
struct Field<'a> {
    data: &'a [u8],
    stride: usize,
    count: usize,
}

impl Field<'_> {
    /// Appends `W` values a vertex of `e` to `out`; returns how many values the field gives a
    /// vertex (0 when it does not fit in the stride).
    fn column<const W: usize>(&self, e: &VElem, init: [f32; 4], out: &mut Vec<f32>) -> usize {
        let at = out.len();
        out.resize(at + self.count * W, 0.0);
        let dst = &mut out[at..];
        let (o, size) = (e.offset as usize, e.kind.size() as usize);
        if o.checked_add(size).is_none_or(|end| end > self.stride) {
            dst.chunks_exact_mut(W).for_each(|d| d.copy_from_slice(&init[..W]));
            return 0;
        }
        let given = e.kind.value_count();
        let le4 = |b: &[u8], i: usize| f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        let le2 = |b: &[u8], i: usize| [b[2 * i], b[2 * i + 1]];
        match e.kind {
            Kind::F32(n) => match n.min(4) {
                2 => self.fill::<W, 8>(o, init, dst, |b, t| (0..2).for_each(|i| t[i] = le4(b, i))),
                3 => self.fill::<W, 12>(o, init, dst, |b, t| (0..3).for_each(|i| t[i] = le4(b, i))),
                4 => self.fill::<W, 16>(o, init, dst, |b, t| (0..4).for_each(|i| t[i] = le4(b, i))),
                _ => self.fill::<W, 4>(o, init, dst, |b, t| t[0] = le4(b, 0)),
            },
            Kind::Half4 => self.fill::<W, 8>(o, init, dst, |b, t| {
                (0..4).for_each(|i| t[i] = half::f16::from_le_bytes(le2(b, i)).to_f32())
            }),
            Kind::Short2 => {
                self.fill::<W, 4>(o, init, dst, |b, t| (0..2).for_each(|i| t[i] = i16::from_le_bytes(le2(b, i)) as f32))
            }
            Kind::U8(n) => self.bytes::<W>(o, n, init, dst, |x| x as f32),
            Kind::Unorm8(n) => self.bytes::<W>(o, n, init, dst, |x| x as f32 / 255.0),
            Kind::Color => self.bytes::<W>(o, 4, init, dst, |x| x as f32 / 255.0),
            Kind::Raw(_) => dst.chunks_exact_mut(W).for_each(|d| d.copy_from_slice(&init[..W])),
        }
        given
    }

    /// A field of `n` bytes, each a value by `f` (at most four).
    fn bytes<const W: usize>(&self, o: usize, n: u8, init: [f32; 4], dst: &mut [f32], f: fn(u8) -> f32) {
        match n.min(4) {
            0 => self.fill::<W, 0>(o, init, dst, |_, _| {}),
            1 => self.fill::<W, 1>(o, init, dst, |b, t| t[0] = f(b[0])),
            2 => self.fill::<W, 2>(o, init, dst, |b, t| (0..2).for_each(|i| t[i] = f(b[i]))),
            3 => self.fill::<W, 3>(o, init, dst, |b, t| (0..3).for_each(|i| t[i] = f(b[i]))),
            _ => self.fill::<W, 4>(o, init, dst, |b, t| (0..4).for_each(|i| t[i] = f(b[i]))),
        }
    }

    /// Every vertex's `B` bytes at `o` read by `read` over `init`, `W` values into `dst`.
    fn fill<const W: usize, const B: usize>(
        &self,
        o: usize,
        init: [f32; 4],
        dst: &mut [f32],
        read: impl Fn(&[u8; B], &mut [f32; 4]),
    ) {
        for (d, v) in dst.chunks_exact_mut(W).zip(self.data.chunks_exact(self.stride)) {
            let mut t = init;
            if let Some(b) = v.get(o..o + B).and_then(|b| <&[u8; B]>::try_from(b).ok()) {
                read(b, &mut t);
            }
            d.copy_from_slice(&t[..W]);
        }
    }
}

pub(super) fn vertex_arrays(layout: &Layout, vdata: &[u8], stride: usize, double: bool, lod: &mut Lod) {
    if stride == 0 {
        return;
    }
    let has = |sem: Sem| layout.elems.iter().find(|e| e.sem == sem);
    let f = Field { data: vdata, stride, count: vdata.len() / stride };
    match has(Sem::Position) {
        Some(e) => {
            f.column::<3>(e, [0.0; 4], &mut lod.positions);
        }
        None => lod.positions = vec![0.0; f.count * 3],
    }
    if let Some(e) = has(Sem::Normal) {
        f.column::<3>(e, [0.0; 4], &mut lod.normals);
    }
    if let Some(e) = has(Sem::Tangent) {
        f.column::<4>(e, [0.0, 0.0, 0.0, 1.0], &mut lod.tangents);
    }
    let mut uv_elems: Vec<(u8, &VElem)> = layout
        .elems
        .iter()
        .filter_map(|e| match e.sem {
            Sem::Uv(k) => Some((k, e)),
            _ => None,
        })
        .collect();
    uv_elems.sort_by_key(|(k, _)| *k);
    lod.uvs = uv_elems
        .iter()
        .map(|(_, e)| {
            let mut u = Vec::new();
            f.column::<2>(e, [0.0; 4], &mut u);
            u
        })
        .collect();
    let col = layout.elems.iter().filter(|e| matches!(e.sem, Sem::Color(_))).min_by_key(|e| match e.sem {
        Sem::Color(k) => k,
        _ => 0,
    });
    if let Some(e) = col {
        f.column::<4>(e, [0.0, 0.0, 0.0, 1.0], &mut lod.colors);
        if double {
            lod.colors.chunks_exact_mut(4).for_each(|c| c[..3].iter_mut().for_each(|x| *x *= 2.0));
        }
    }
    weights_and_joints(&f, has(Sem::Weights), has(Sem::Indices), lod);
}

/// Four weights a vertex, the last implicit (1 minus the stored ones), and the raw joint
/// indices where the vertices store them (GEM3 skins store none).
fn weights_and_joints(f: &Field, wts: Option<&VElem>, idx: Option<&VElem>, lod: &mut Lod) {
    if wts.is_none() && idx.is_none() {
        return;
    }
    let nw = match wts {
        Some(e) => f.column::<4>(e, [0.0; 4], &mut lod.weights),
        None => {
            lod.weights = vec![0.0; f.count * 4];
            0
        }
    };
    if nw < 4 {
        for w in lod.weights.chunks_exact_mut(4) {
            w[nw] = 1.0 - w[..nw].iter().sum::<f32>();
        }
    }
    if let Some(e) = idx {
        let mut j = Vec::new();
        f.column::<4>(e, [0.0; 4], &mut j);
        lod.joints = j.iter().map(|&x| x as u16).collect();
    }
}
