//! The command line on built MeshSets: inspect --json finds chunks and .resmeta beside the
//! resource, --chunk lodN=PATH attaches by hand, export writes OBJ, roundtrip says identical.

use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh};
use meshscope::formats::frostbite::guid;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// A new folder for a test's files, removed when the test ends (passed or not).
fn dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("meshscope-frostbite-{name}-")).tempdir().unwrap()
}

fn run(args: &[&str]) -> (String, bool) {
    let o = Command::new(env!("CARGO_BIN_EXE_meshscope")).args(args).output().unwrap();
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status.success())
}

fn fixture(d: &std::path::Path, text_guid: bool) -> (PathBuf, Vec<PathBuf>) {
    let b = build(&BuildMesh {
        name: "skate/props/bench_b".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![
            BuildLod {
                sections: vec![cube("Props/Metal", 1.0, [0.0; 3]), grid("Props/Paint", 2, 1.0)],
                index_32: false,
                inline: false,
            },
            BuildLod { sections: vec![cube("Props/Metal", 1.0, [0.0; 3])], index_32: true, inline: false },
        ],
    });
    let res = d.join("bench_b.res");
    std::fs::write(&res, &b.resource).unwrap();
    std::fs::write(d.join("bench_b.res.resmeta"), b.resmeta).unwrap();
    let mut chunks = Vec::new();
    for (g, c) in &b.chunks {
        let n = if text_guid { guid::text(g) } else { guid::hex(g) };
        let p = d.join(format!("{n}.chunk"));
        std::fs::write(&p, c).unwrap();
        chunks.push(p);
    }
    (res, chunks)
}

#[test]
fn inspect_json_has_the_meshset_object() {
    let d_dir = dir("inspect");
    let d = d_dir.path();
    let (res, _) = fixture(d, true);
    let (out, ok) = run(&["inspect", "--json", res.to_str().unwrap()]);
    assert!(ok);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["format"], "frostbite-meshset");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0, "{}", v["errors"]);
    let m = &v["meshset"];
    assert_eq!(m["name"], "skate/props/bench_b");
    assert_eq!(m["name_hash_ok"], true);
    assert_eq!(m["mesh_type"], 0);
    assert_eq!(m["lod_count"], 2);
    let l0 = &m["lods"][0];
    assert_eq!(l0["chunk_found"], true);
    assert_eq!(l0["index_size"], 2);
    assert_eq!(m["lods"][1]["index_size"], 4);
    let s = &l0["sections"][0];
    assert_eq!(s["material"], "Props/Metal");
    assert_eq!(s["material_hash_ok"], true);
    assert_eq!((s["vertices"].as_u64(), s["triangles"].as_u64()), (Some(24), Some(12)));
    // A unit cube: 6 m^2, UV square per 1 m^2 face -> density 1.
    let area = s["area"]["measured"].as_f64().unwrap();
    assert!((area - 6.0).abs() < 1e-6, "{area}");
    assert!((s["uv0_density"]["measured"].as_f64().unwrap() - 1.0).abs() < 1e-6);
    assert_eq!(s["area"]["stored"].as_f64(), Some(6.0));
    assert!((s["area"]["ratio"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    // The metadata beside it is read and agrees.
    assert_eq!(m["resmeta"]["stored"], m["resmeta"]["computed"]);
    assert!(v["checks"].as_array().unwrap().iter().all(|c| c["passed"] == true), "{}", v["checks"]);
    assert_eq!(m["lod_groups"][0]["distances"][0], 90.0);
}

#[test]
fn chunks_by_hex_name_and_by_hand() {
    let d_dir = dir("hand");
    let d = d_dir.path();
    let (res, chunks) = fixture(d, false);
    let (out, _) = run(&["inspect", "--json", res.to_str().unwrap()]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["meshset"]["lods"][1]["chunk_found"], true);
    // Renamed so no GUID is in the name: found only when attached by hand.
    let other_dir = dir("hand2");
    let other = other_dir.path();
    let res2 = other.join("r.res");
    std::fs::copy(&res, &res2).unwrap();
    let c1 = other.join("lod1-geometry.bin");
    std::fs::copy(&chunks[1], &c1).unwrap();
    let arg = format!("lod1={}", c1.display());
    let (out, _) = run(&["inspect", "--json", "--chunk", &arg, res2.to_str().unwrap()]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["meshset"]["lods"][0]["chunk_found"], false);
    assert_eq!(v["meshset"]["lods"][1]["chunk_found"], true);
}

#[test]
fn export_obj_and_roundtrip() {
    let d_dir = dir("export");
    let d = d_dir.path();
    let (res, _) = fixture(d, true);
    let (obj, ok) = run(&["export", res.to_str().unwrap(), "--format", "obj", "--lod", "0"]);
    assert!(ok);
    assert_eq!(obj.matches("\nv ").count(), 24 + 9);
    assert_eq!(obj.matches("\nvn ").count(), 24 + 9);
    assert_eq!(obj.matches("\nf ").count(), 12 + 8);
    let metal = obj.find("usemtl Props/Metal").unwrap();
    let paint = obj.find("usemtl Props/Paint").unwrap();
    assert!(metal < paint, "sections in order");
    // Values as decoded: the cube's first vertex is (0.5, -0.5, 0.5) on the +x face.
    assert!(obj.contains("\nv 0.5 -0.5 0.5\n"));
    let out = d.join("lod1.obj");
    let (_, ok) = run(&["export", res.to_str().unwrap(), "--format", "obj", "--lod", "1", "-o", out.to_str().unwrap()]);
    assert!(ok);
    assert_eq!(std::fs::read_to_string(out).unwrap().matches("\nf ").count(), 12);
    let (rt, _) = run(&["roundtrip", res.to_str().unwrap()]);
    let v: Value = serde_json::from_str(rt.trim()).unwrap();
    assert_eq!(v["identical"], true, "{v}");
}

#[test]
fn metadata_beside_as_name_resmeta_and_a_chunk_of_another_lod_said_first() {
    let d_dir = dir("meta");
    let d = d_dir.path();
    let (res, chunks) = fixture(d, true);
    // m0.res with m0.resmeta (no .res.resmeta): found.
    let m0 = d.join("m0.res");
    std::fs::rename(&res, &m0).unwrap();
    std::fs::rename(d.join("bench_b.res.resmeta"), d.join("m0.resmeta")).unwrap();
    let (out, ok) = run(&["inspect", "--json", m0.to_str().unwrap()]);
    assert!(ok);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let meta = &v["meshset"]["resmeta"];
    assert!(meta["stored"].is_array(), "{meta}");
    assert_eq!(meta["stored"], meta["computed"]);
    // LOD 1's chunk attached by hand to LOD 0: a warning naming both GUIDs, before anything else.
    let other_dir = dir("meta2");
    let other = other_dir.path();
    std::fs::copy(&m0, other.join("m0.res")).unwrap();
    let named = other.join("y").join(chunks[1].file_name().unwrap());
    std::fs::create_dir_all(named.parent().unwrap()).unwrap();
    std::fs::copy(&chunks[1], &named).unwrap();
    let arg = format!("lod0={}", named.display());
    let o = Command::new(env!("CARGO_BIN_EXE_meshscope"))
        .args(["inspect", "--json", "--chunk", &arg, other.join("m0.res").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let g0 = chunks[0].file_stem().unwrap().to_string_lossy().into_owned();
    let g1 = chunks[1].file_stem().unwrap().to_string_lossy().into_owned();
    let first = err.lines().next().unwrap_or_default();
    assert_eq!(first, format!("warning: {g1}.chunk is chunk {g1}; lod[0] names chunk {g0}"), "{err}");
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
    assert_eq!(v["checks"][0]["name"], "attached chunk's GUID is lod[0]'s");
    assert_eq!(v["checks"][0]["passed"], false);
}
