//! Every submesh chunk (MESH, SBM1, both SUBMs) as one shape: what the mesh and the
//! checks need from it, with the vertex layout its format describes.

use super::vertex::Layout;
use super::{Chunk, Parsed, VENDOR};
use crate::span::Confidence;

/// A submesh whatever its chunk: what the mesh and the checks need.
pub(super) struct Sub {
    pub(super) path: String,
    pub(super) face_start: i64,
    pub(super) face_count: i64,
    pub(super) face_count_at: u64,
    pub(super) two_sided: bool,
    pub(super) mirrored: bool,
    pub(super) name: String,
    pub(super) bone_map: Option<Vec<u8>>,
    pub(super) layout: Layout,
    pub(super) layout_error: Option<String>,
    pub(super) bump: bool,
    pub(super) vertex_range: Option<(u32, u32)>,
}

pub(super) fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// SBM1 and the Assault Squad 2 SUBM: a submesh described by a vertex element list.
fn element_sub(
    path: String,
    face_count_at: u64,
    (face_start, face_count, flags): (i64, i64, u64),
    material: &[u8],
    (layout, layout_error): (Layout, Option<String>),
) -> Sub {
    Sub {
        path,
        face_start,
        face_count,
        face_count_at,
        two_sided: flags & 1 != 0,
        mirrored: flags & 0x40 != 0,
        name: lossy(material),
        bone_map: None,
        layout,
        layout_error,
        bump: flags & 0x100 != 0,
        vertex_range: None,
    }
}

pub(super) fn subs_of(p: &Parsed) -> Vec<Sub> {
    let mut out = Vec::new();
    let mut places = p.places.subs.iter();
    for c in &p.ply.chunks {
        let (path, at) = match c {
            Chunk::Mesh(_) | Chunk::Sbm1(_) | Chunk::Subm(_) | Chunk::SubmAs2(_) => match places.next() {
                Some(pl) => (pl.path.clone(), pl.face_count_at),
                None => continue,
            },
            _ => continue,
        };
        let s = match c {
            Chunk::Mesh(m) => Sub {
                path,
                face_start: m.face_start as i64,
                face_count: m.face_count as i64,
                face_count_at: at,
                two_sided: m.flags & 1 != 0,
                mirrored: m.flags & 0x40 != 0,
                name: lossy(
                    m.material
                        .as_ref()
                        .or(m.textures.first())
                        .map(|v| &v[..])
                        .unwrap_or(b""),
                ),
                bone_map: m.bone_map.clone(),
                layout: Layout::from_fvf(m.fvf),
                layout_error: None,
                bump: m.flags & 0x100 != 0,
                vertex_range: None,
            },
            Chunk::Sbm1(s) => element_sub(
                path,
                at,
                (s.face_start as i64, s.face_count as i64, s.flags as u64),
                &s.material,
                Layout::from_elements(&s.elements, Confidence::Proven, VENDOR),
            ),
            Chunk::SubmAs2(s) => element_sub(
                path,
                at,
                (s.face_start as i64, s.face_count as i64, s.flags as u64),
                &s.material,
                Layout::from_elements(
                    &s.elements,
                    Confidence::Observed,
                    "vendor description names the element types and usages; the landscape sample stores them as SBM1 does",
                ),
            ),
            Chunk::Subm(s) => Sub {
                path,
                face_start: s.face_start as i64,
                face_count: s.face_count as i64,
                face_count_at: at,
                two_sided: s.flags & 1 != 0,
                mirrored: false,
                name: lossy(&s.material),
                bone_map: s.bone_map.clone(),
                layout: Layout::from_gem3(s.vertex_format),
                layout_error: None,
                bump: false,
                vertex_range: Some((s.vertex_start as u32, s.vertex_count as u32)),
            },
            _ => continue,
        };
        out.push(s);
    }
    out
}
