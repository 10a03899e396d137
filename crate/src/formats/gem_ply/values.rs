//! A `Ply`'s buffers as decoded values, made when a rewrite needs them: the decode leaves
//! them ranges of the file, since only the writer reads them.

use super::vertex::Kind;
use super::{Buf, Chunk, Ply};

impl Ply {
    /// This `Ply` with each buffer that is still a range of `file` replaced by its values,
    /// which the writer encodes: the first VERT by the columns of `vertex_layout`; any later
    /// VERT (which nothing describes), and a first VERT whose layout does not tile its
    /// vertices, as one column of bytes.
    pub fn with_values(&self, file: &[u8]) -> Ply {
        let mut out = self.clone();
        let mut first_vert = true;
        for c in &mut out.chunks {
            match c {
                Chunk::Vert { size, data, .. } => {
                    let layout = self.vertex_layout.as_ref().filter(|_| first_vert);
                    first_vert = false;
                    let Some(raw) = data.file_bytes(file) else { continue };
                    let stride = *size as usize;
                    let cols = layout
                        .and_then(|l| l.columns(raw, stride))
                        .unwrap_or_else(|| vec![Kind::Raw(*size as u32).column(0, raw, stride)]);
                    *data = Buf::Values(cols);
                }
                Chunk::Indices { wide, data } => {
                    let Some(raw) = data.file_bytes(file) else { continue };
                    *data = Buf::Values(index_values(raw, *wide));
                }
                _ => {}
            }
        }
        out
    }
}

/// Little-endian u32 (IND4, `wide`) or u16 (INDX) indices.
pub(super) fn index_values(data: &[u8], wide: bool) -> Vec<u32> {
    if wide {
        data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    } else {
        // Eight at a time into a fixed array, which vectorizes (widening loads) in wasm too.
        let mut out = Vec::with_capacity(data.len() / 2);
        let mut blocks = data.chunks_exact(16);
        for b in &mut blocks {
            let mut t = [0u32; 8];
            for (i, v) in t.iter_mut().enumerate() {
                *v = u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) as u32;
            }
            out.extend_from_slice(&t);
        }
        out.extend(blocks.remainder().chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as u32));
        out
    }
}
