//! Exports of the neutral mesh. Both writers take the same triangles (`section_triangles`) and
//! refuse the same meshes (`drawable`, with `NOTHING_DRAWABLE`).

pub mod gltf;
pub mod obj;

use crate::document::Document;
use crate::formats::{self, Format};
pub use crate::mesh::{Axes, Up};
use crate::mesh::{Lod, Section};
use std::borrow::Cow;

/// What either writer says when a mesh has nothing to draw.
pub const NOTHING_DRAWABLE: &str = "no drawable mesh decoded (no LOD has vertices and valid triangles)";

/// How a format's decoded mesh is oriented (`FileFormat::axes`); glTF's for a file of no
/// format we know.
pub fn axes_of(format: Format) -> Axes {
    formats::of(format).map_or(Axes::GLTF, |f| f.axes())
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

/// The triangles of a section that name real vertices, wound counter-clockwise for glTF and
/// OBJ: flipped when the format winds clockwise, and flipped (again) for a mirrored section, as
/// the engine flips it when it draws the section with negative scaling.
pub fn section_triangles(lod: &Lod, s: &Section, clockwise: bool) -> Vec<u32> {
    let n = lod.vertex_count() as u32;
    let start = (s.index_start as usize).min(lod.indices.len());
    let end = start.saturating_add(s.index_count as usize).min(lod.indices.len());
    let mut out = Vec::new();
    for t in lod.indices.get(start..end).unwrap_or(&[]).chunks_exact(3) {
        if t.iter().all(|&i| i < n) {
            if s.mirrored != clockwise {
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
    lod.vertex_count() > 0 && sections_of(lod).iter().any(|s| !section_triangles(lod, s, false).is_empty())
}

/// The `.glb` of a document: every LOD, stood upright (a root-node rotation) when the format's
/// positions are Z-up, wound as glTF wants.
pub fn glb_of(doc: &Document) -> Result<Vec<u8>, String> {
    gltf::write_glb_axes(&doc.mesh, &doc.name, axes_of(doc.format))
}

/// The OBJ of a document's LOD `lod`, wound as OBJ wants (counter-clockwise).
pub fn obj_of(doc: &Document, lod: usize) -> Result<obj::Obj, String> {
    let l = doc.mesh.lods.get(lod).ok_or_else(|| format!("no LOD {lod} decoded"))?;
    obj::write_obj_axes(l, &doc.name, axes_of(doc.format))
}
