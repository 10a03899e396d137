//! Builds `.ply` files from plain vertex data, through the same layouts the decoder uses
//! and the writer: synthetic test files and the page's sample.

use super::vertex::{Kind, Layout, Sem};
use super::{writer, Buf, Chunk, Column, Magic, Ply, Values};
use crate::error::Result;

/// Every value a vertex field can take; each layout picks what it stores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub tangent: [f32; 4],
    pub uvs: [[f32; 2]; 4],
    pub colors: [[u8; 4]; 2],
    /// Weights of the four bones; a layout storing n < 4 weights writes the first n.
    pub weights: [f32; 4],
    /// Indices into the submesh's bone map.
    pub joints: [u8; 4],
    pub wind: f32,
}

impl Default for Vertex {
    fn default() -> Self {
        Vertex {
            position: [0.0; 3],
            normal: [0.0, 0.0, 1.0],
            tangent: [1.0, 0.0, 0.0, 1.0],
            uvs: [[0.0; 2]; 4],
            colors: [[255; 4]; 2],
            weights: [1.0, 0.0, 0.0, 0.0],
            joints: [0; 4],
            wind: 0.0,
        }
    }
}

/// One vertex field's values, as `kind` stores them (f16 by the `half` crate, rounded to
/// nearest; 8-bit kinds from 0..1 floats, UNORM8 and colors rounded).
fn field_values(kind: Kind, floats: [f32; 4], out: &mut Values) {
    let n = kind.per();
    match (kind, out) {
        (Kind::F32(_), Values::F32(v)) => v.extend_from_slice(&floats[..n]),
        (Kind::Half4, Values::F16(v)) => v.extend(floats.iter().map(|&f| half::f16::from_f32(f))),
        (Kind::Short2, Values::I16(v)) => v.extend(floats[..2].iter().map(|&f| f as i16)),
        (Kind::U8(_), Values::U8(v)) => v.extend(floats[..n].iter().map(|&f| f as u8)),
        (Kind::Unorm8(_) | Kind::Color, Values::U8(v)) => {
            v.extend(floats[..n].iter().map(|&f| (f * 255.0).round() as u8))
        }
        (Kind::Raw(_), Values::U8(v)) => v.extend(std::iter::repeat_n(0, n)),
        _ => {}
    }
}

/// What vertex `v` holds for a field of meaning `sem`, as up to four floats.
fn floats_of(v: &Vertex, sem: Sem) -> [f32; 4] {
    match sem {
        Sem::Position => [v.position[0], v.position[1], v.position[2], 1.0],
        Sem::Normal => [v.normal[0], v.normal[1], v.normal[2], 0.0],
        Sem::Tangent => v.tangent,
        Sem::Uv(k) => {
            let u = v.uvs.get(k as usize).copied().unwrap_or_default();
            [u[0], u[1], 0.0, 0.0]
        }
        Sem::Weights => v.weights,
        Sem::Color(k) => v.colors.get(k as usize).copied().unwrap_or_default().map(|x| x as f32 / 255.0),
        Sem::Indices => v.joints.map(|x| x as f32),
        Sem::Wind => [v.wind, 0.0, 0.0, 0.0],
        Sem::Other | Sem::Unexplained => [0.0; 4],
    }
}

/// The vertices as `layout` stores them, one column per field; the fields `layout` leaves
/// out of a stride write as zeros.
pub fn columns(layout: &Layout, verts: &[Vertex]) -> Vec<Column> {
    layout
        .elems
        .iter()
        .map(|e| {
            let mut values = match e.kind {
                Kind::F32(_) => Values::F32(Vec::new()),
                Kind::Half4 => Values::F16(Vec::new()),
                Kind::Short2 => Values::I16(Vec::new()),
                _ => Values::U8(Vec::new()),
            };
            for v in verts {
                field_values(e.kind, floats_of(v, e.sem), &mut values);
            }
            Column { offset: e.offset, per: e.kind.per(), values }
        })
        .collect()
}

/// A `Ply` under construction, chunk by chunk in file order.
#[derive(Debug, Clone)]
pub struct Builder {
    pub ply: Ply,
}

impl Builder {
    pub fn new(magic: Magic) -> Self {
        Builder { ply: Ply { magic, ..Ply::default() } }
    }

    pub fn chunk(mut self, c: Chunk) -> Self {
        self.ply.chunks.push(c);
        self
    }

    /// A `BNDS` that is the bounding box of `verts`.
    pub fn bnds(self, verts: &[Vertex]) -> Self {
        let mut min = [f32::MAX; 3];
        let mut max = [f32::MIN; 3];
        for v in verts {
            for k in 0..3 {
                min[k] = min[k].min(v.position[k]);
                max[k] = max[k].max(v.position[k]);
            }
        }
        self.chunk(Chunk::Bnds { min, max })
    }

    /// A `VERT` of `verts` laid out as `layout` (already fitted to `stride`).
    pub fn vert(self, layout: &Layout, stride: u16, flags: u16, verts: &[Vertex]) -> Self {
        let data = Buf::Values(columns(layout, verts));
        self.chunk(Chunk::Vert { count: verts.len() as u32, size: stride, flags, data })
    }

    pub fn indx(self, idx: &[u16]) -> Self {
        let data = Buf::Values(idx.iter().map(|&i| i as u32).collect());
        self.chunk(Chunk::Indices { wide: false, data })
    }

    pub fn ind4(self, idx: &[u32]) -> Self {
        self.chunk(Chunk::Indices { wide: true, data: Buf::Values(idx.to_vec()) })
    }

    pub fn build(&self) -> Result<Vec<u8>> {
        writer::write(&self.ply)
    }
}

/// A torus as vertices and u32 triangle indices: the sample's and the tests' shape.
pub fn torus(rings: u32, sides: u32, r_big: f32, r_small: f32) -> (Vec<Vertex>, Vec<u32>) {
    let mut verts = Vec::new();
    for i in 0..=rings {
        let u = i as f32 / rings as f32 * std::f32::consts::TAU;
        for j in 0..=sides {
            let v = j as f32 / sides as f32 * std::f32::consts::TAU;
            let (cu, su, cv, sv) = (u.cos(), u.sin(), v.cos(), v.sin());
            let uv = [i as f32 / rings as f32, j as f32 / sides as f32];
            verts.push(Vertex {
                position: [(r_big + r_small * cv) * cu, r_small * sv, (r_big + r_small * cv) * su],
                normal: [cv * cu, sv, cv * su],
                tangent: [-su, 0.0, cu, 1.0],
                uvs: [uv, [uv[1], uv[0]], [uv[0] * 2.0, uv[1] * 2.0], [0.5, 0.5]],
                colors: [[(100.0 + 100.0 * cu) as u8, (100.0 + 100.0 * sv) as u8, 180, 255], [50, 60, 70, 80]],
                ..Default::default()
            });
        }
    }
    let mut idx = Vec::new();
    let row = sides + 1;
    for i in 0..rings {
        for j in 0..sides {
            let a = i * row + j;
            let b = (i + 1) * row + j;
            idx.extend_from_slice(&[a, a + 1, b, b, a + 1, b + 1]);
        }
    }
    (verts, idx)
}
