//! MeshSet exports: rigid, skinned and composite MeshSets made by the Frostbite builder (there
//! are no real MeshSets to read), decoded with their chunks attached, exported, read back, and
//! written for the Khronos validator (tests/gltf.test.mjs) when `MESHSCOPE_GLB_OUT` is set.

use super::tests::parse_glb;
use super::write_glb;
use crate::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, TriMesh};
use crate::formats::frostbite::guid;

fn open_built(b: &BuildMesh) -> crate::Document {
    let built = build(b);
    let mut doc = crate::open("meshset.res", built.resource.clone());
    for (g, c) in &built.chunks {
        doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches");
    }
    doc
}

fn rigid() -> BuildMesh {
    let mut decal = grid("Props/Decal_Sticker", 2, 0.5);
    decal.lists = vec![2];
    let shadow = TriMesh { lists: vec![4], ..cube("Props/ShadowProxy", 2.0, [0.0, 1.0, 0.0]) };
    BuildMesh {
        name: "skate/props/crate_a".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![
            BuildLod {
                sections: vec![cube("Props/Wood", 2.0, [0.0, 1.0, 0.0]), decal, shadow],
                index_32: false,
                inline: false,
            },
            BuildLod { sections: vec![grid("Props/Wood", 1, 2.0)], index_32: true, inline: true },
        ],
    }
}

fn skinned(mesh_type: u8) -> BuildMesh {
    let mut body = cube("Char/Body", 1.0, [0.0, 0.0, 0.0]);
    let n = body.positions.len();
    body.joints = (0..n).map(|v| [(v % 3) as u16, 1, 0, 0]).collect();
    body.weights = (0..n).map(|_| [0.75, 0.25, 0.0, 0.0]).collect();
    body.bones = vec![0, 1, 2];
    BuildMesh {
        name: format!("skate/chars/dev_{mesh_type}"),
        mesh_type,
        bone_count: 3,
        lods: vec![
            BuildLod { sections: vec![body.clone()], index_32: false, inline: false },
            BuildLod { sections: vec![body], index_32: true, inline: false },
        ],
    }
}

#[test]
fn meshset_exports_read_back_and_are_written_for_the_validator() {
    let dir = std::env::var_os("MESHSCOPE_GLB_OUT");
    for (name, b) in [("meshset-rigid", rigid()), ("meshset-skinned", skinned(1)), ("meshset-composite", skinned(2))] {
        let doc = open_built(&b);
        assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
        let glb = write_glb(&doc.mesh, name).unwrap();
        let (json, _) = parse_glb(&glb);
        let meshes = json["meshes"].as_array().unwrap();
        assert_eq!(meshes.len(), b.lods.len(), "{name}: one glTF mesh per LOD");
        for (m, l) in meshes.iter().zip(&b.lods) {
            assert_eq!(
                m["primitives"].as_array().unwrap().len(),
                l.sections.len(),
                "{name}: one primitive per section"
            );
        }
        let materials: Vec<&str> =
            json["materials"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
        for s in &b.lods[0].sections {
            assert!(materials.contains(&s.material.as_str()), "{name}: material {} named", s.material);
        }
        if b.mesh_type != 0 {
            assert!(json["skins"].as_array().is_some_and(|s| !s.is_empty()), "{name}: skinned export has a skin");
        }
        if let Some(d) = &dir {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(std::path::Path::new(d).join(format!("{name}.glb")), glb).unwrap();
        }
    }
}
