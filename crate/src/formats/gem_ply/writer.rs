//! Encodes a `Ply` back to bytes, chunk by chunk in its order, from the decoded values: the
//! inverse of the readers, so a rewrite that gives the file back shows the decode lost nothing.

use super::{Buf, Chunk, Column, Element, MeshChunk, Ply, Tag, Values};
use crate::error::{Error, Result};

struct W(Vec<u8>);

impl W {
    fn b(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.b(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.b(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.b(&v.to_le_bytes());
    }
    fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.b(&x.to_le_bytes());
        }
    }
    fn name(&mut self, n: &[u8], what: &str) -> Result<()> {
        let len = u8::try_from(n.len())
            .map_err(|_| Error::limit(self.0.len() as u64, what, "a name holds at most 255 bytes"))?;
        self.u8(len);
        self.b(n);
        Ok(())
    }
    fn count(&mut self, n: usize, what: &str) -> Result<()> {
        let v = i32::try_from(n).map_err(|_| Error::limit(self.0.len() as u64, what, "count does not fit an int32"))?;
        self.i32(v);
        Ok(())
    }
    fn bone_map(&mut self, m: &[u8], what: &str) -> Result<()> {
        let n = u8::try_from(m.len())
            .map_err(|_| Error::limit(self.0.len() as u64, what, "a bone map holds at most 255 entries"))?;
        self.u8(n);
        self.b(m);
        Ok(())
    }
    fn lists(&mut self, elements: &[Element], tags: &[Tag]) {
        for e in elements {
            self.b(&[e.type_usage, e.usage_index, e.stream]);
        }
        self.u8(0xff);
        for t in tags {
            self.u8(t.tag_index);
            self.u32(t.tag_chunk);
        }
        self.u8(0xff);
    }
}

fn mesh(w: &mut W, m: &MeshChunk) -> Result<()> {
    w.u32(m.fvf);
    w.i32(m.face_start);
    w.i32(m.face_count);
    w.u32(m.flags);
    if let Some(s) = m.specular {
        w.b(&s);
    }
    if let Some(n) = &m.material {
        w.name(n, "MESH.material_name")?;
    }
    for t in &m.textures {
        w.name(t, "MESH.texture")?;
    }
    if let Some(b) = &m.bone_map {
        w.bone_map(b, "MESH.bone_map")?;
    }
    Ok(())
}

/// The vertices from their columns: each vertex is `size` bytes, each column's values go
/// to its offset in it (bytes no column holds are zero, as a builder leaves padding).
fn vertices(w: &mut W, count: u32, size: u16, columns: &[Column]) -> Result<()> {
    let stride = size as usize;
    let n = columns.first().map_or(0, |c| c.values.len() / c.per.max(1));
    let stored = if stride == 0 { 0 } else { count as usize };
    if n != stored || columns.iter().any(|c| c.values.len() != n * c.per) {
        let msg = format!("the columns hold {n} vertices, the count says {count}: a file cut short writes no VERT");
        return Err(Error::bad_value(w.0.len() as u64, "VERT.vertices", msg));
    }
    let start = w.0.len();
    w.0.resize(start + n * stride, 0);
    for c in columns {
        let width = match &c.values {
            Values::F32(_) => 4,
            Values::F16(_) | Values::I16(_) => 2,
            Values::U8(_) => 1,
        };
        if c.offset as usize + c.per * width > stride {
            return Err(Error::bad_value(start as u64, "VERT.vertices", "a column runs past vertex_size"));
        }
        for i in 0..n {
            let at = start + i * stride + c.offset as usize;
            let dst = &mut w.0[at..at + c.per * width];
            let (a, b) = (i * c.per, (i + 1) * c.per);
            match &c.values {
                Values::F32(v) => {
                    v[a..b].iter().zip(dst.chunks_exact_mut(4)).for_each(|(x, d)| d.copy_from_slice(&x.to_le_bytes()))
                }
                Values::F16(v) => {
                    v[a..b].iter().zip(dst.chunks_exact_mut(2)).for_each(|(x, d)| d.copy_from_slice(&x.to_le_bytes()))
                }
                Values::I16(v) => {
                    v[a..b].iter().zip(dst.chunks_exact_mut(2)).for_each(|(x, d)| d.copy_from_slice(&x.to_le_bytes()))
                }
                Values::U8(v) => dst.copy_from_slice(&v[a..b]),
            }
        }
    }
    Ok(())
}

/// Writes a `Ply` from its values. Buffers still ranges of a file (a `Ply` from the chunk
/// loop alone, before the decode filled them) are refused: nothing is copied.
pub fn write(ply: &Ply) -> Result<Vec<u8>> {
    let mut w = W(Vec::new());
    let undecoded = |at: usize, what: &str| {
        Error::bad_value(at as u64, what, "not decoded: the values are still a range of the file")
    };
    w.b(ply.magic.fourcc());
    for c in &ply.chunks {
        w.b(c.id().as_bytes());
        match c {
            Chunk::Indices { wide, data } => {
                let Buf::Values(v) = data else { return Err(undecoded(w.0.len(), "indices")) };
                w.count(v.len(), "index_count")?;
                for &i in v {
                    if *wide {
                        w.u32(i);
                    } else {
                        let i = u16::try_from(i).map_err(|_| {
                            Error::limit(w.0.len() as u64, "INDX.indices", "an INDX index fits 16 bits")
                        })?;
                        w.u16(i);
                    }
                }
            }
            Chunk::Vert { count, size, flags, data } => {
                let Buf::Values(cols) = data else { return Err(undecoded(w.0.len(), "VERT.vertices")) };
                w.u32(*count);
                w.u16(*size);
                w.u16(*flags);
                vertices(&mut w, *count, *size, cols)?;
            }
            Chunk::Bas2 { polygons, texture } => {
                for v in polygons.iter().chain(texture) {
                    w.f32s(v);
                }
            }
            Chunk::InfG { start, end, faces } => {
                w.i32(start[0]);
                w.i32(start[1]);
                w.i32(end[0]);
                w.i32(end[1]);
                w.u32(u32::try_from(faces.len()).unwrap_or(u32::MAX));
                for f in faces {
                    w.u16(*f);
                }
            }
            Chunk::Bnds { min, max } => {
                w.f32s(min);
                w.f32s(max);
            }
            Chunk::Adja(a) => {
                w.count(a.len(), "ADJA.face_count")?;
                for n in a.iter().flatten() {
                    w.u16(*n);
                }
            }
            Chunk::Shdw(s) => {
                w.count(s.len(), "SHDW.face_count")?;
                w.b(s);
            }
            Chunk::Mror => {}
            Chunk::Mark(m) => {
                w.u32(u32::try_from(m.len()).unwrap_or(u32::MAX));
                w.b(m);
            }
            Chunk::Skin(names) => {
                w.u32(u32::try_from(names.len()).unwrap_or(u32::MAX));
                for n in names {
                    w.name(n, "SKIN.bone_names")?;
                }
            }
            Chunk::Mesh(m) => mesh(&mut w, m)?,
            Chunk::Sbm1(s) => {
                w.lists(&s.elements, &s.tags);
                w.i32(s.face_start);
                w.i32(s.face_count);
                w.u32(s.flags);
                w.name(&s.material, "SBM1.material_name")?;
            }
            Chunk::Subm(s) => {
                for v in [s.vertex_format, s.face_start, s.face_count, s.vertex_start, s.vertex_count, s.flags] {
                    w.u16(v);
                }
                if let Some(b) = &s.bone_map {
                    w.bone_map(b, "SUBM.bone_map")?;
                }
                w.name(&s.material, "SUBM.material_name")?;
            }
            Chunk::SubmAs2(s) => {
                w.lists(&s.elements, &s.tags);
                w.u32(s.face_start);
                w.u32(s.face_count);
                w.u32(s.unknown[0]);
                w.u32(s.unknown[1]);
                w.u32(s.flags);
                w.name(&s.material, "SUBM.material_name")?;
            }
        }
    }
    Ok(w.0)
}
