//! The page's built-in sample: a small mesh made by our own builder and writer, never a
//! game file. A torus in three submeshes (`MESH` with materials, one two-sided), with
//! normals, UV0 and vertex colors stored at half strength (VERT flag 0x1 clear: the
//! engine doubles them), and a `SHDW` per-face shadow array, so the page shows fields the
//! vendor documents (Proven) beside vertex places worked out from real files (Observed).

use crate::formats::gem_ply::builder::{torus, Builder};
use crate::formats::gem_ply::vertex::Layout;
use crate::formats::gem_ply::{Chunk, Magic, MeshChunk};

pub fn sample_ply() -> Vec<u8> {
    let (mut verts, idx) = torus(24, 12, 1.0, 0.35);
    // Half-strength colors: a warm-to-cool band around the ring, doubled on loading.
    for v in &mut verts {
        let a = v.position[2].atan2(v.position[0]);
        let t = (a.sin() * 0.5 + 0.5) * 127.0;
        v.colors[0] = [t as u8, 80, 127 - t as u8, 255];
    }
    let fvf = 0x152; // position, normal, diffuse color, one texcoord set
    let mut layout = Layout::from_fvf(fvf);
    let stride = layout.size() as u16;
    layout.fit(stride as u32, false);
    let faces = (idx.len() / 3) as i32;
    let third = faces / 3;
    let parts = [
        (0, third, 0x404, "sample_copper.mtl"),
        (third, third, 0x405, "sample_glaze_two_sided.mtl"),
        (2 * third, faces - 2 * third, 0x404, "sample_stone.mtl"),
    ];
    let mut b = Builder::new(Magic::Eply).bnds(&verts);
    for (start, count, flags, name) in parts {
        b = b.chunk(Chunk::Mesh(MeshChunk {
            fvf,
            face_start: start,
            face_count: count,
            flags,
            material: Some(name.as_bytes().to_vec()),
            ..Default::default()
        }));
    }
    let idx16: Vec<u16> = idx.iter().map(|&i| i as u16).collect();
    // Every other ring casts no shadow, so the per-face array is not all one value.
    let shadow = (0..faces).map(|f| ((f / 24) % 2 == 0) as u8).collect();
    b = b.vert(&layout, stride, 0x2, &verts).indx(&idx16).chunk(Chunk::Shdw(shadow));
    // The builder writes what it was given; nothing here can exceed a format limit.
    b.build().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sample_decodes_cleanly_with_three_submeshes() {
        let doc = crate::open("sample.ply", super::sample_ply());
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        assert_eq!(doc.coverage().uncovered, 0);
        let lod = &doc.mesh.lods[0];
        assert_eq!(lod.sections.len(), 3);
        assert!(lod.sections[1].two_sided && !lod.sections[0].two_sided);
        assert_eq!(lod.colors.len(), lod.vertex_count() * 4);
        assert_eq!(lod.shadow.len(), lod.triangle_count());
        assert!(doc.checks().iter().all(|c| c.passed), "{:?}", doc.checks());
    }
}

/// A second built-in sample: a MeshSet resource (a cube and a grid in one LOD) and its
/// geometry chunk, named `<32 hex digits of the GUID>.chunk` as extracted chunks are, so the
/// page can show a MeshSet with its chunk attached. Made by the MeshSet builder.
pub fn sample_meshset() -> Vec<(String, Vec<u8>)> {
    use crate::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh};
    let b = build(&BuildMesh {
        name: "meshscope/sample_crate".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![BuildLod {
            sections: vec![cube("Props/Sample_Metal", 1.0, [0.0, 0.5, 0.0]), grid("Props/Sample_Floor", 4, 0.5)],
            index_32: false,
            inline: false,
        }],
    });
    files("sample_crate.res", b)
}

/// The resource, then its chunks named by GUID.
fn files(name: &str, b: crate::formats::frostbite::builder::Built) -> Vec<(String, Vec<u8>)> {
    use crate::formats::frostbite::guid;
    let mut files = vec![(name.to_string(), b.resource)];
    for (g, c) in b.chunks {
        files.push((format!("{}.chunk", guid::hex(&g)), c));
    }
    files
}

/// A skinned MeshSet sample (and its chunk): three stacked boxes (legs, body, head), each
/// weighing most on its own bone (0, 1, 2) and a quarter on the next, except the body's top
/// face, which follows the head (a neck), so the head bone's box is wider than the head. The
/// header stores bone bounds the 3D view draws beside the ones it measures. Made by the
/// MeshSet builder.
pub fn sample_meshset_skinned() -> Vec<(String, Vec<u8>)> {
    use crate::formats::frostbite::builder::{build, cube, BuildLod, BuildMesh};
    let parts = [("Char/Sample_Legs", 0.6, 0.3), ("Char/Sample_Body", 0.8, 1.0), ("Char/Sample_Head", 0.4, 1.6)];
    let sections = parts
        .iter()
        .enumerate()
        .map(|(k, &(name, size, y))| {
            let mut t = cube(name, size, [0.0, y, 0.0]);
            let n = t.positions.len();
            let bone = k as u16;
            t.joints = (0..n)
                .map(|v| {
                    let neck = k == 1 && t.normals[v][1] > 0.5;
                    if neck {
                        [2, 1, 0, 0]
                    } else {
                        [bone, (bone + 1) % 3, 0, 0]
                    }
                })
                .collect();
            t.weights = vec![[0.75, 0.25, 0.0, 0.0]; n];
            t.bones = vec![0, 1, 2];
            t
        })
        .collect();
    let b = build(&BuildMesh {
        name: "meshscope/sample_figure".into(),
        mesh_type: 1,
        bone_count: 3,
        lods: vec![BuildLod { sections, index_32: false, inline: false }],
    });
    files("sample_figure.res", b)
}

#[cfg(test)]
mod meshset_sample_tests {
    use super::*;

    #[test]
    fn the_meshset_sample_decodes_with_its_chunk_attached() {
        let files = sample_meshset();
        assert_eq!(files.len(), 2, "one resource, one chunk");
        let mut doc = crate::open(&files[0].0, files[0].1.clone());
        assert_eq!(doc.format, crate::Format::FrostbiteMeshSet);
        let chunk = doc.attach(&files[1].0, files[1].1.clone()).expect("the chunk attaches by its GUID name");
        assert_eq!(chunk.format, crate::Format::FrostbiteChunk);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        let lod = &doc.mesh.lods[0];
        assert_eq!(lod.sections.len(), 2);
        assert!(lod.triangle_count() >= 12 + 2 * 16, "a cube and a 4x4 grid");
    }

    #[test]
    fn the_skinned_sample_stores_a_box_per_bone() {
        let files = sample_meshset_skinned();
        let mut doc = crate::open(&files[0].0, files[0].1.clone());
        doc.attach(&files[1].0, files[1].1.clone()).expect("the chunk attaches");
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        assert!(
            doc.checks().iter().all(|c| c.passed),
            "{:?}",
            doc.checks().iter().filter(|c| !c.passed).collect::<Vec<_>>()
        );
        let lod = &doc.mesh.lods[0];
        assert_eq!(lod.triangle_count(), 36);
        // Positions are centre ± half size in f32: equal to the values by hand within 1e-6.
        let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        let bone = |j: usize, min: [f32; 3], max: [f32; 3]| {
            let b = &lod.bone_bounds[j];
            assert!(b.bone == j as u32 && close(b.bounds.min, min) && close(b.bounds.max, max), "bone {j}: {b:?}");
        };
        // Bone 1 is the body: a 0.8 box centred at y 1.0 (its sides reach the top edge).
        bone(1, [-0.4, 0.6, -0.4], [0.4, 1.4, 0.4]);
        // Bone 2, the head (0.4 box at y 1.6), also holds the body's top face at y 1.4.
        bone(2, [-0.4, 1.4, -0.4], [0.4, 1.8, 0.4]);
        assert_eq!(lod.bone_bounds.len(), 3);
    }
}

#[cfg(test)]
mod stored_bounds_tests {
    #[test]
    fn the_ply_sample_carries_its_bnds_box_as_numbers() {
        let doc = crate::open("sample.ply", super::sample_ply());
        let lod = &doc.mesh.lods[0];
        let b = lod.stored_bounds.as_ref().expect("BNDS is stored");
        assert_eq!(b.path, "BNDS.min");
        // The builder writes the positions' own box.
        assert_eq!(Some((b.min, b.max)), lod.bounds());
        assert!(lod.sections.iter().all(|s| s.stored_bounds.is_none()), "submeshes store no box");
        assert!(lod.bone_bounds.is_empty());
    }
}
