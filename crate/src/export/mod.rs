//! Exports of the neutral mesh. Both writers take the same triangles (`section_triangles`) and
//! refuse the same meshes (`drawable`, with `NOTHING_DRAWABLE`).

pub mod gltf;
pub mod obj;

use crate::document::Document;
use crate::formats::Format;
use crate::mesh::{Lod, Section};
use std::borrow::Cow;

/// What either writer says when a mesh has nothing to draw.
pub const NOTHING_DRAWABLE: &str = "no drawable mesh decoded (no LOD has vertices and valid triangles)";

/// The axis that points up in a format's decoded positions; glTF's is +Y.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Up {
    Y,
    /// GEM `.ply` (its landscapes' grid spans x and y, and units stand along +z).
    Z,
}

impl Up {
    pub fn of(format: Format) -> Up {
        match format {
            Format::GemPly => Up::Z,
            _ => Up::Y,
        }
    }
}

/// The sections to write: the LOD's own, or one covering every index when it has none.
pub fn sections_of(lod: &Lod) -> Cow<'_, [Section]> {
    if lod.sections.is_empty() {
        Cow::Owned(vec![Section {
            name: lod.name.clone(),
            index_count: lod.indices.len() as u32,
            ..Default::default()
        }])
    } else {
        Cow::Borrowed(&lod.sections)
    }
}

/// The triangles of a section that name real vertices, in drawing order: a mirrored section's
/// winding is flipped, as the engine flips it when it draws the section with negative scaling.
pub fn section_triangles(lod: &Lod, s: &Section) -> Vec<u32> {
    let n = lod.vertex_count() as u32;
    let start = (s.index_start as usize).min(lod.indices.len());
    let end = start.saturating_add(s.index_count as usize).min(lod.indices.len());
    let mut out = Vec::new();
    for t in lod.indices.get(start..end).unwrap_or(&[]).chunks_exact(3) {
        if t.iter().all(|&i| i < n) {
            if s.mirrored {
                out.extend_from_slice(&[t[0], t[2], t[1]])
            } else {
                out.extend_from_slice(t)
            }
        }
    }
    out
}

/// Whether a LOD has vertices and at least one triangle naming real vertices.
pub fn drawable(lod: &Lod) -> bool {
    lod.vertex_count() > 0 && sections_of(lod).iter().any(|s| !section_triangles(lod, s).is_empty())
}

/// The `.glb` of a document: every LOD, stood upright (a root-node rotation) when the format's
/// positions are Z-up.
pub fn glb_of(doc: &Document) -> Result<Vec<u8>, String> {
    gltf::write_glb_up(&doc.mesh, &doc.name, Up::of(doc.format))
}
