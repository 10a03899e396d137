//! The boxes a MeshSet stores, copied into the neutral mesh as numbers: the header bounds
//! (over every LOD), each section's bounds, and the pool's bone bounds. The view draws them
//! beside what it measures; the checks compare them with the decoded positions.

use super::header::Header;
use super::lod::Lod;
use super::pool::SectionId;
use crate::mesh::{self, BoneBox, StoredBox};
use crate::short::{PathText, Short};
use crate::show::{decimal, made_once};
use std::sync::OnceLock;

fn xyz(v: &[f32; 4]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}

/// The stored bone boxes: entry `j` belongs to bounded bone id `j` when the header lists
/// bounded ids, else to bone `j` (the description: "per bounded bone, else per bone").
pub fn bone_boxes(h: &Header) -> Vec<BoneBox> {
    h.bone_bounds
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let bone = if h.bone_ids.is_empty() { j as u32 } else { h.bone_ids.get(j).map_or(j as u32, |&b| b as u32) };
            BoneBox {
                bone,
                name: bone_name(bone),
                bounds: StoredBox {
                    path: made_once(j, &BOX_PATHS, |j, d| PathText::concat(&["pool.bone_bounds[", decimal(j, d), "]"])),
                    min: [v[0], v[1], v[2]],
                    max: [v[4], v[5], v[6]],
                },
            }
        })
        .collect()
}

static BONE_NAMES: OnceLock<Vec<Short>> = OnceLock::new();
static BOX_PATHS: OnceLock<Vec<PathText>> = OnceLock::new();

/// `bone N`, the model's name for bone `n`: a MeshSet stores no bone names.
pub fn bone_name(n: u32) -> Short {
    made_once(n as usize, &BONE_NAMES, |n, d| Short::concat(&["bone ", decimal(n, d)]))
}

/// Fills LOD `li`'s stored boxes from the records. Called whenever the LOD is (re)built: at
/// decode and when a chunk is attached.
pub fn fill(out: &mut mesh::Lod, h: &Header, l: &Lod, li: usize) {
    out.stored_bounds =
        Some(StoredBox { path: "header.bounds_min".into(), min: xyz(&h.bounds_min), max: xyz(&h.bounds_max) });
    out.bone_bounds = bone_boxes(h);
    for (k, (sec, s)) in out.sections.iter_mut().zip(&l.sections).enumerate() {
        let id = SectionId { lod: li as u32, section: k as u32 };
        sec.stored_bounds =
            Some(StoredBox { path: id.path().join(".bounds_min"), min: xyz(&s.bounds_min), max: xyz(&s.bounds_max) });
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::frostbite::builder::{bone_bounds, build, cube, BuildLod, BuildMesh, Built};
    use crate::formats::frostbite::{guid, writer};
    use crate::mesh::StoredBox;
    use crate::Document;

    /// Two unit cubes: the lower one on bone 0, the upper one on bone 1; bone 2 moves nothing.
    fn two_cubes(mesh_type: u8) -> BuildMesh {
        let mut low = cube("Char/Legs", 1.0, [0.0, 0.5, 0.0]);
        let mut high = cube("Char/Head", 1.0, [0.0, 2.0, 0.0]);
        for (t, bone) in [(&mut low, 0u16), (&mut high, 1)] {
            let n = t.positions.len();
            t.joints = vec![[bone, 2, 0, 0]; n];
            t.weights = vec![[0.75, 0.25, 0.0, 0.0]; n];
            t.bones = vec![0, 1, 2];
        }
        BuildMesh {
            name: format!("chars/two_cubes_{mesh_type}"),
            mesh_type,
            bone_count: 3,
            lods: vec![BuildLod { sections: vec![low, high], index_32: false, inline: false }],
        }
    }

    fn open_with_chunks(b: &Built) -> Document {
        let mut doc = crate::open("x.res", b.resource.clone());
        for (g, c) in &b.chunks {
            doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches");
        }
        doc
    }

    #[test]
    fn the_builder_bounds_each_bone_by_the_vertices_it_weighs_most() {
        // By hand: the cubes span y 0..1 and 1.5..2.5, x and z -0.5..0.5.
        let bb = bone_bounds(&two_cubes(1));
        assert_eq!(
            bb,
            vec![[-0.5, 0.0, -0.5, 0.0, 0.5, 1.0, 0.5, 0.0], [-0.5, 1.5, -0.5, 0.0, 0.5, 2.5, 0.5, 0.0], [0.0; 8],]
        );
    }

    #[test]
    fn stored_bone_bounds_decode_to_what_the_builder_wrote() {
        for mesh_type in [1, 2] {
            let b = build(&two_cubes(mesh_type));
            let doc = open_with_chunks(&b);
            assert!(doc.errors.is_empty(), "{:?}", doc.errors);
            let lod = &doc.mesh.lods[0];
            assert_eq!(lod.triangle_count(), 24, "the chunk's geometry is there");
            let want = bone_bounds(&two_cubes(mesh_type));
            assert_eq!(lod.bone_bounds.len(), 3, "type {mesh_type}");
            for (j, (got, w)) in lod.bone_bounds.iter().zip(&want).enumerate() {
                assert_eq!(got.bone, j as u32);
                assert_eq!(got.name, format!("bone {j}"));
                assert_eq!(
                    got.bounds,
                    StoredBox {
                        path: format!("pool.bone_bounds[{j}]").into(),
                        min: [w[0], w[1], w[2]],
                        max: [w[4], w[5], w[6]]
                    }
                );
            }
        }
        // Rigid meshes store none.
        let rigid = BuildMesh { mesh_type: 0, bone_count: 0, ..two_cubes(0) };
        assert!(open_with_chunks(&build(&rigid)).mesh.lods[0].bone_bounds.is_empty());
    }

    #[test]
    fn bounded_bone_ids_name_the_boxes() {
        let mut b = build(&two_cubes(2));
        // 300 is past the names made once (`show::made_once`).
        b.details.header.bone_ids = vec![5, 300, 9];
        let bytes = writer::write(&b.details).expect("writes");
        let doc = crate::open("x.res", bytes);
        let bones: Vec<(u32, String)> =
            doc.mesh.lods[0].bone_bounds.iter().map(|x| (x.bone, x.name.to_string())).collect();
        assert_eq!(bones, [(5, "bone 5".to_string()), (300, "bone 300".into()), (9, "bone 9".into())]);
        // A section's bone list names its bones the same way.
        assert_eq!(doc.mesh.lods[0].sections[0].bones, ["bone 0", "bone 1", "bone 2"]);
        assert_eq!(doc.mesh.lods[0].bone_bounds[1].bounds.min, [-0.5, 1.5, -0.5]);
    }

    #[test]
    fn a_lods_fact_counts_its_sections_and_names_its_chunk() {
        let b = build(&two_cubes(1));
        let doc = crate::open("x.res", b.resource.clone());
        let fact = |k: &str| doc.facts.iter().find(|(key, _)| key == k).map(|(_, v)| v.to_string());
        let chunk = guid::text(&b.details.lods[0].chunk);
        assert_eq!(chunk.len(), 36);
        assert_eq!(fact("lod[0]"), Some(format!("2 sections, chunk {chunk}")));
        assert_eq!(fact("LODs").as_deref(), Some("1"));
        let mut inline = two_cubes(1);
        inline.lods[0].inline = true;
        let doc = crate::open("x.res", build(&inline).resource);
        assert_eq!(
            doc.facts.iter().find(|(k, _)| k == "lod[0]").map(|(_, v)| v.as_ref()),
            Some("2 sections, chunk inline")
        );
    }

    #[test]
    fn stored_bounds_are_the_header_and_section_values() {
        let b = build(&two_cubes(1));
        // Before and after the chunk is attached (attaching rebuilds the LOD).
        let alone = crate::open("x.res", b.resource.clone());
        let doc = open_with_chunks(&b);
        for d in [&alone, &doc] {
            let lod = &d.mesh.lods[0];
            let h = &b.details.header;
            assert_eq!(
                lod.stored_bounds,
                Some(StoredBox {
                    path: "header.bounds_min".into(),
                    min: [h.bounds_min[0], h.bounds_min[1], h.bounds_min[2]],
                    max: [h.bounds_max[0], h.bounds_max[1], h.bounds_max[2]],
                })
            );
            // By hand: both cubes together.
            assert_eq!(lod.stored_bounds.as_ref().map(|x| (x.min, x.max)), Some(([-0.5, 0.0, -0.5], [0.5, 2.5, 0.5])));
            let secs: Vec<_> = lod.sections.iter().map(|s| s.stored_bounds.clone().expect("stored")).collect();
            assert_eq!(secs[0].path, "lod[0].section[0].bounds_min");
            assert_eq!((secs[0].min, secs[0].max), ([-0.5, 0.0, -0.5], [0.5, 1.0, 0.5]));
            assert_eq!(secs[1].path, "lod[0].section[1].bounds_min");
            assert_eq!((secs[1].min, secs[1].max), ([-0.5, 1.5, -0.5], [0.5, 2.5, 0.5]));
        }
    }
}
