//! Builds `.ply` files from plain vertex data, through the same layouts the decoder uses
//! and the writer: synthetic test files and the page's sample.

use super::vertex::{Kind, Layout, Sem};
use super::{writer, Buf, Chunk, Magic, Ply};
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

/// f32 to IEEE half (round toward zero), for HALF4 elements.
pub fn to_half(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let man = (b >> 13) & 0x3ff;
    if x.is_nan() {
        sign | 0x7e00
    } else if exp >= 31 {
        sign | 0x7c00
    } else if exp <= 0 {
        sign
    } else {
        sign | ((exp as u16) << 10) | man as u16
    }
}

/// Packs vertices as `layout` lays them out, `stride` bytes each.
pub fn pack(layout: &Layout, stride: usize, verts: &[Vertex]) -> Vec<u8> {
    let mut out = vec![0u8; stride * verts.len()];
    for (v, dst) in verts.iter().zip(out.chunks_exact_mut(stride.max(1))) {
        for e in &layout.elems {
            let o = e.offset as usize;
            let floats: [f32; 4] = match e.sem {
                Sem::Position => [v.position[0], v.position[1], v.position[2], 1.0],
                Sem::Normal => [v.normal[0], v.normal[1], v.normal[2], 0.0],
                Sem::Tangent => v.tangent,
                Sem::Uv(k) => {
                    let u = v.uvs.get(k as usize).copied().unwrap_or_default();
                    [u[0], u[1], 0.0, 0.0]
                }
                Sem::Weights => v.weights,
                Sem::Color(k) => {
                    let c = v.colors.get(k as usize).copied().unwrap_or_default();
                    c.map(|x| x as f32 / 255.0)
                }
                Sem::Indices => v.joints.map(|x| x as f32),
                Sem::Wind => [v.wind, 0.0, 0.0, 0.0],
                Sem::Other | Sem::Unexplained => [0.0; 4],
            };
            let mut bytes: Vec<u8> = Vec::new();
            match e.kind {
                Kind::F32(n) => floats.iter().take(n as usize).for_each(|f| bytes.extend_from_slice(&f.to_le_bytes())),
                Kind::Half4 => floats.iter().for_each(|f| bytes.extend_from_slice(&to_half(*f).to_le_bytes())),
                Kind::Short2 => floats.iter().take(2).for_each(|f| bytes.extend_from_slice(&(*f as i16).to_le_bytes())),
                Kind::U8(n) => floats.iter().take(n as usize).for_each(|f| bytes.push(*f as u8)),
                Kind::Unorm8(n) => floats.iter().take(n as usize).for_each(|f| bytes.push((f * 255.0).round() as u8)),
                Kind::Color => floats.iter().for_each(|f| bytes.push((f * 255.0).round() as u8)),
                Kind::Raw(_) => {}
            }
            if let Some(d) = dst.get_mut(o..o + bytes.len()) {
                d.copy_from_slice(&bytes);
            }
        }
    }
    out
}

/// A `Ply` under construction, chunk by chunk in file order.
#[derive(Debug, Clone)]
pub struct Builder {
    pub ply: Ply,
}

impl Builder {
    pub fn new(magic: Magic) -> Self {
        Builder { ply: Ply { magic, chunks: Vec::new() } }
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
        let data = pack(layout, stride as usize, verts);
        self.chunk(Chunk::Vert { count: verts.len() as u32, size: stride, flags, data: Buf::Owned(data) })
    }

    pub fn indx(self, idx: &[u16]) -> Self {
        let data = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
        self.chunk(Chunk::Indices { wide: false, data: Buf::Owned(data) })
    }

    pub fn ind4(self, idx: &[u32]) -> Self {
        let data = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
        self.chunk(Chunk::Indices { wide: true, data: Buf::Owned(data) })
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
