//! Tests of the `.glb` writer: the container read back by hand, the JSON parsed, and the
//! binary arrays compared with what went in. Synthetic meshes only; the real files are
//! exported and checked by the Khronos validator in tests/gltf.test.mjs.

use super::*;
use crate::mesh::{Lod, Mesh, Section};
use serde_json::Value;

/// Splits a `.glb` into its JSON and binary chunks, checking the container on the way.
pub(crate) fn parse_glb(glb: &[u8]) -> (Value, Vec<u8>) {
    let u32_at = |o: usize| u32::from_le_bytes(glb[o..o + 4].try_into().unwrap()) as usize;
    assert_eq!(&glb[0..4], b"glTF");
    assert_eq!(u32_at(4), 2);
    assert_eq!(u32_at(8), glb.len(), "header length is the file length");
    let jlen = u32_at(12);
    assert_eq!(&glb[16..20], b"JSON");
    assert_eq!(jlen % 4, 0);
    let json: Value = serde_json::from_slice(&glb[20..20 + jlen]).expect("JSON chunk parses");
    let b = 20 + jlen;
    let blen = u32_at(b);
    assert_eq!(&glb[b + 4..b + 8], b"BIN\0");
    assert_eq!(b + 8 + blen, glb.len());
    assert_eq!(json["buffers"][0]["byteLength"].as_u64().unwrap() as usize, blen);
    (json, glb[b + 8..].to_vec())
}

/// The bytes an accessor covers (tightly packed views only, which is all the writer makes).
fn accessor_bytes<'a>(json: &Value, bin: &'a [u8], a: u64) -> &'a [u8] {
    let acc = &json["accessors"][a as usize];
    let view = &json["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    let off = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    assert_eq!(off % 4, 0, "views are 4-byte aligned");
    &bin[off..off + len]
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn quad() -> Lod {
    Lod {
        name: "lod0".into(),
        positions: vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0, 3.0, 0.0, 0.0, 3.0, -1.0],
        normals: vec![0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        tangents: vec![1.0, 0.0, 0.0, -0.5, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
        uvs: vec![vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0], vec![0.5; 8]],
        colors: vec![1.0, 0.0, 0.0, 1.0, 2.0, 0.5, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        indices: vec![0, 1, 2, 0, 2, 3],
        sections: vec![
            Section { name: "front \"plate\"".into(), index_start: 0, index_count: 3, ..Default::default() },
            Section {
                name: "back".into(),
                index_start: 3,
                index_count: 3,
                mirrored: true,
                two_sided: true,
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

#[test]
fn container_attributes_and_values_read_back() {
    let glb = write_glb(&Mesh { lods: vec![quad()] }, "quad.ply").unwrap();
    let (json, bin) = parse_glb(&glb);
    let prims = json["meshes"][0]["primitives"].as_array().unwrap();
    assert_eq!(prims.len(), 2, "one primitive per section");
    let attrs = &prims[0]["attributes"];
    for k in ["POSITION", "NORMAL", "TANGENT", "TEXCOORD_0", "TEXCOORD_1", "COLOR_0"] {
        assert!(attrs.get(k).is_some(), "{k} written");
    }
    assert!(attrs.get("JOINTS_0").is_none(), "a rigid mesh has no joints");
    let pa = attrs["POSITION"].as_u64().unwrap();
    assert_eq!(f32s(accessor_bytes(&json, &bin, pa)), quad().positions);
    let acc = &json["accessors"][pa as usize];
    let nums = |v: &Value| -> Vec<f64> { v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect() };
    assert_eq!(nums(&acc["min"]), [0.0, 0.0, -1.0]);
    assert_eq!(nums(&acc["max"]), [2.0, 3.0, 0.0]);
    // Normals come out unit length; the zero normal of vertex 2 becomes +Z.
    let n = f32s(accessor_bytes(&json, &bin, attrs["NORMAL"].as_u64().unwrap()));
    assert_eq!(&n[0..3], &[0.0, 0.0, 1.0]);
    assert_eq!(&n[6..9], &[0.0, 0.0, 1.0]);
    // The tangent's w is reduced to its sign.
    let t = f32s(accessor_bytes(&json, &bin, attrs["TANGENT"].as_u64().unwrap()));
    assert_eq!(t[3], -1.0);
    assert_eq!(t[7], 1.0);
    let c = f32s(accessor_bytes(&json, &bin, attrs["COLOR_0"].as_u64().unwrap()));
    assert_eq!(&c[4..8], &[1.0, 0.5, 0.0, 1.0], "colors clamped to 0..1");
    // Section 0 as stored; section 1 is mirrored, so its winding is flipped.
    let i0 = u32s(accessor_bytes(&json, &bin, prims[0]["indices"].as_u64().unwrap()));
    let i1 = u32s(accessor_bytes(&json, &bin, prims[1]["indices"].as_u64().unwrap()));
    assert_eq!(i0, vec![0, 1, 2]);
    assert_eq!(i1, vec![0, 3, 2]);
    let m0 = &json["materials"][prims[0]["material"].as_u64().unwrap() as usize];
    let m1 = &json["materials"][prims[1]["material"].as_u64().unwrap() as usize];
    assert_eq!(m0["name"], "front \"plate\"");
    assert_eq!(m0["doubleSided"], false);
    assert_eq!(m1["name"], "back");
    assert_eq!(m1["doubleSided"], true);
}

#[test]
fn triangles_naming_missing_vertices_are_dropped() {
    let mut l = quad();
    l.indices = vec![0, 1, 2, 0, 2, 99];
    l.sections.clear();
    let (json, bin) = parse_glb(&write_glb(&Mesh { lods: vec![l] }, "x").unwrap());
    let prims = json["meshes"][0]["primitives"].as_array().unwrap();
    assert_eq!(prims.len(), 1, "no sections: one primitive for the whole LOD");
    assert_eq!(u32s(accessor_bytes(&json, &bin, prims[0]["indices"].as_u64().unwrap())), vec![0, 1, 2]);
}

#[test]
fn skinned_meshes_get_a_skin_with_bone_named_nodes_and_normalized_weights() {
    let mut l = quad();
    l.bone_names = vec!["root".into(), "arm".into()];
    // Vertex 0: joint 1 twice (merged); vertex 1: a joint that does not exist (dropped);
    // vertex 2: no weight at all (goes to joint 0); vertex 3: unnormalized.
    l.joints = vec![1, 1, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
    l.weights = vec![0.25, 0.25, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0];
    let (json, bin) = parse_glb(&write_glb(&Mesh { lods: vec![l] }, "x").unwrap());
    let attrs = &json["meshes"][0]["primitives"][0]["attributes"];
    let jb = accessor_bytes(&json, &bin, attrs["JOINTS_0"].as_u64().unwrap());
    let j: Vec<u16> = jb.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let w = f32s(accessor_bytes(&json, &bin, attrs["WEIGHTS_0"].as_u64().unwrap()));
    assert_eq!(&j[0..4], &[1, 0, 0, 0]);
    assert_eq!(&w[0..4], &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(&j[4..8], &[0, 0, 0, 0]);
    assert_eq!(&w[4..8], &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(&w[8..12], &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(&j[12..16], &[0, 1, 0, 0]);
    assert_eq!(&w[12..16], &[0.25, 0.75, 0.0, 0.0]);
    let skin = &json["skins"][0];
    let names: Vec<&str> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| json["nodes"][n.as_u64().unwrap() as usize]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["root", "arm"]);
    let mesh_node = json["scenes"][0]["nodes"][0].as_u64().unwrap() as usize;
    assert_eq!(json["nodes"][mesh_node]["skin"], 0);
}

#[test]
fn joints_without_bone_names_get_numbered_joint_nodes() {
    let mut l = quad();
    l.joints = vec![0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 5, 0, 0];
    l.weights = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let (json, _) = parse_glb(&write_glb(&Mesh { lods: vec![l] }, "x").unwrap());
    let names: Vec<&str> = json["skins"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| json["nodes"][n.as_u64().unwrap() as usize]["name"].as_str().unwrap())
        .collect();
    // Joint 5 carries no weight, so the largest joint in use is 2.
    assert_eq!(names, ["joint 0", "joint 1", "joint 2"]);
}

#[test]
fn each_lod_is_a_mesh_and_a_scene() {
    let mut l1 = quad();
    l1.name = "lod1".into();
    l1.sections.truncate(1);
    let empty = Lod::default();
    let (json, _) = parse_glb(&write_glb(&Mesh { lods: vec![quad(), empty, l1] }, "x").unwrap());
    let meshes = json["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 2, "an LOD without vertices is left out");
    assert_eq!(meshes[1]["name"], "lod1");
    assert_eq!(meshes[1]["primitives"].as_array().unwrap().len(), 1);
    assert_eq!(json["scenes"].as_array().unwrap().len(), 2);
    assert_eq!(json["scene"], 0);
}

#[test]
fn nothing_drawable_is_an_error_not_an_empty_file() {
    assert!(write_glb(&Mesh::default(), "x").is_err());
    let mut l = quad();
    l.indices = vec![5, 6, 7];
    l.sections.clear();
    assert!(write_glb(&Mesh { lods: vec![l] }, "x").is_err());
}

#[test]
fn json_strings_are_escaped() {
    assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
}

/// Writes synthetic exports for the Khronos validator (tests/gltf.test.mjs) when
/// `MESHSCOPE_GLB_OUT` names a directory; otherwise checks they build.
#[test]
fn synthetic_exports_for_the_validator() {
    // A torus of 24 x 12 quads (position, normal, uv), built here so the test owns its input.
    let mut torus = Lod { name: "torus".into(), ..Default::default() };
    let (rings, sides) = (24u32, 12u32);
    let mut uv = Vec::new();
    for i in 0..=rings {
        let u = i as f32 / rings as f32 * std::f32::consts::TAU;
        for j in 0..=sides {
            let v = j as f32 / sides as f32 * std::f32::consts::TAU;
            let (cu, su, cv, sv) = (u.cos(), u.sin(), v.cos(), v.sin());
            torus.positions.extend_from_slice(&[(1.0 + 0.35 * cv) * cu, 0.35 * sv, (1.0 + 0.35 * cv) * su]);
            torus.normals.extend_from_slice(&[cv * cu, sv, cv * su]);
            uv.extend_from_slice(&[i as f32 / rings as f32, j as f32 / sides as f32]);
        }
    }
    torus.uvs = vec![uv];
    for i in 0..rings {
        for j in 0..sides {
            let a = i * (sides + 1) + j;
            let b = a + sides + 1;
            torus.indices.extend_from_slice(&[a, a + 1, b, b, a + 1, b + 1]);
        }
    }
    let half = (torus.indices.len() / 2) as u32;
    torus.sections = vec![
        Section { name: "a".into(), index_start: 0, index_count: half, ..Default::default() },
        Section { name: "b".into(), index_start: half, index_count: half, mirrored: true, ..Default::default() },
    ];
    let mut skinned = quad();
    skinned.bone_names = vec!["root".into(), "arm".into()];
    skinned.joints = vec![1, 1, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
    skinned.weights = vec![0.25, 0.25, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0];
    let cases = [
        ("synthetic-quad", Mesh { lods: vec![quad()] }),
        ("synthetic-torus-2lods", Mesh { lods: vec![torus.clone(), quad()] }),
        ("synthetic-skinned", Mesh { lods: vec![skinned, quad()] }),
        (
            "synthetic-nan",
            Mesh {
                lods: vec![Lod {
                    positions: vec![f32::NAN, 0.0, 0.0, 1.0, f32::INFINITY, 0.0, 0.0, 1.0, 0.0],
                    indices: vec![0, 1, 2],
                    ..Default::default()
                }],
            },
        ),
    ];
    let dir = std::env::var_os("MESHSCOPE_GLB_OUT");
    for (name, m) in cases {
        let glb = write_glb(&m, name).unwrap();
        parse_glb(&glb);
        if let Some(d) = &dir {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(std::path::Path::new(d).join(format!("{name}.glb")), glb).unwrap();
        }
    }
}

/// Applies the unit quaternion `q` (x, y, z, w) to `v`.
fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let (u, w) = ([q[0], q[1], q[2]], q[3]);
    let cross =
        |a: [f64; 3], b: [f64; 3]| [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    // v + 2w (u x v) + 2 u x (u x v)
    let t = cross(u, v);
    let t2 = cross(u, t);
    [0, 1, 2].map(|k| v[k] + 2.0 * w * t[k] + 2.0 * t2[k])
}

#[test]
fn a_z_up_mesh_gets_a_root_rotation_and_keeps_its_vertex_values() {
    let mesh = Mesh { lods: vec![quad()] };
    let (y_json, y_bin) = parse_glb(&write_glb(&mesh, "q").unwrap());
    let (z_json, z_bin) = parse_glb(&write_glb_axes(&mesh, "q", Axes { up: Up::Z, clockwise: false }).unwrap());
    assert_eq!(y_bin, z_bin, "the binary arrays are the same bytes");
    assert_eq!(y_json["accessors"], z_json["accessors"]);
    assert!(y_json["nodes"].as_array().unwrap().iter().all(|n| n.get("rotation").is_none()), "Y-up: no rotation");
    // Z-up: the scene's one root is a rotation whose child is the mesh node.
    let roots = z_json["scenes"][0]["nodes"].as_array().unwrap();
    assert_eq!(roots.len(), 1);
    let root = &z_json["nodes"][roots[0].as_u64().unwrap() as usize];
    let child = root["children"][0].as_u64().unwrap() as usize;
    assert_eq!(z_json["nodes"][child]["mesh"], 0);
    let q: Vec<f64> = root["rotation"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let q = [q[0], q[1], q[2], q[3]];
    // The file's +Z becomes glTF's +Y, +Y becomes -Z and X stays: upright, right-handed.
    let close = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
    assert!(close(rotate(q, [0.0, 0.0, 1.0]), [0.0, 1.0, 0.0]), "{:?}", rotate(q, [0.0, 0.0, 1.0]));
    assert!(close(rotate(q, [0.0, 1.0, 0.0]), [0.0, 0.0, -1.0]));
    assert!(close(rotate(q, [1.0, 0.0, 0.0]), [1.0, 0.0, 0.0]));
}

#[test]
fn a_z_up_skinned_mesh_turns_with_its_skeleton() {
    let mut lod = quad();
    lod.bone_names = vec!["root".into()];
    lod.joints = vec![0; 16];
    lod.weights = [1.0, 0.0, 0.0, 0.0].repeat(4);
    let (json, _) =
        parse_glb(&write_glb_axes(&Mesh { lods: vec![lod] }, "s", Axes { up: Up::Z, clockwise: false }).unwrap());
    let nodes = json["nodes"].as_array().unwrap();
    let roots: Vec<usize> =
        json["scenes"][0]["nodes"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
    // The skinned mesh node stays a root (glTF ignores its parents); the skeleton is under
    // the rotation, so the joints, and with them the skinned vertices, turn.
    assert_eq!(roots.len(), 2);
    assert_eq!(nodes[roots[0]]["skin"], 0);
    let rot = &nodes[roots[1]];
    assert!(rot.get("rotation").is_some());
    let skeleton = json["skins"][0]["skeleton"].as_u64().unwrap();
    assert_eq!(rot["children"], serde_json::json!([skeleton]));
}

#[test]
fn a_gem_document_is_exported_z_up() {
    let doc = crate::open("sample.ply", crate::sample::sample_ply());
    let (json, _) = parse_glb(&crate::export::glb_of(&doc).unwrap());
    let root = json["scenes"][0]["nodes"][0].as_u64().unwrap() as usize;
    assert!(json["nodes"][root].get("rotation").is_some(), "GEM is Z-up");
    let files = crate::sample::sample_meshset();
    let mut set = crate::open(&files[0].0, files[0].1.clone());
    set.attach(&files[1].0, files[1].1.clone()).unwrap();
    let (json, _) = parse_glb(&crate::export::glb_of(&set).unwrap());
    assert!(json["nodes"].as_array().unwrap().iter().all(|n| n.get("rotation").is_none()), "a MeshSet is Y-up");
}
