//! The command line on `.ply`: `inspect --json` (its `gem_ply` object), `export --format
//! obj` (to stdout and to a file) and `roundtrip`, run through the built binary.

mod common;

use serde_json::Value;
use std::process::Command;

/// A sample's path (each test first returns when the samples folder is missing).
fn sample(name: &str) -> String {
    common::samples_dir().join("gem-ply").join(name).to_string_lossy().into_owned()
}

/// Runs the tool, checks its exit code and returns its stdout.
fn run_code(args: &[&str], code: i32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_meshscope")).args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

fn run(args: &[&str]) -> String {
    run_code(args, 0)
}

#[test]
fn inspect_json_has_the_gem_ply_object() {
    if common::samples().is_none() {
        return;
    }
    let out = run(&["inspect", "--json", &sample("gun2.ply"), &sample("map_4v4_long.ply")]);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    let g = &lines[0]["gem_ply"];
    assert_eq!(g["magic"], "EPLY");
    assert_eq!(g["chunks"], serde_json::json!(["BNDS", "SKIN", "MESH", "VERT", "INDX"]));
    assert_eq!(
        (g["vertex_count"].as_u64(), g["vertex_size"].as_u64(), g["index_count"].as_u64()),
        (Some(325), Some(56), Some(432))
    );
    assert_eq!(lines[0]["coverage"]["uncovered"], 0);
    let g = &lines[1]["gem_ply"];
    assert_eq!(g["magic"], "BPLY");
    assert_eq!(g["index_count"].as_u64(), Some(98802));
}

#[test]
fn export_obj_writes_positions_normals_uvs_and_a_group_per_submesh() {
    if common::samples().is_none() {
        return;
    }
    let obj = run(&["export", &sample("enumerator1.ply"), "--format", "obj"]);
    // 12 vertices, three MESH chunks of two faces each, materials number1..3.mtl.
    assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 12);
    assert_eq!(obj.lines().filter(|l| l.starts_with("vn ")).count(), 12);
    assert_eq!(obj.lines().filter(|l| l.starts_with("vt ")).count(), 12);
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 6);
    for m in ["number1.mtl", "number2.mtl", "number3.mtl"] {
        assert!(obj.contains(&format!("usemtl {m}\n")), "{m}");
    }
    // The first vertex exactly as stored: d890 7240 acff 81bf 0c2d 23c0 at 0x8c.
    let x = f32::from_le_bytes([0xd8, 0x90, 0x72, 0x40]);
    let y = f32::from_le_bytes([0xac, 0xff, 0x81, 0xbf]);
    let z = f32::from_le_bytes([0x0c, 0x2d, 0x23, 0xc0]);
    assert!(obj.contains(&format!("\nv {x} {y} {z}\n")), "first vertex as stored");
    // First face: INDX at 0x23c holds 2 1 0 first, clockwise as GEM winds; OBJ counts from 1
    // and winds counter-clockwise: 2 0 1.
    assert!(obj.contains("\nf 3/3/3 1/1/1 2/2/2\n"), "{obj}");

    let tmp = tempfile::Builder::new().prefix("meshscope-gem-cli-").tempdir().unwrap();
    let dir = tmp.path();
    let out = dir.join("gun2.obj");
    let stdout = run(&["export", &sample("gun2.ply"), "--format", "obj", "-o", out.to_str().unwrap()]);
    assert!(stdout.is_empty());
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().filter(|l| l.starts_with("f ")).count(), 144);
    assert!(written.contains("usemtl body.mtl"));
}

#[test]
fn roundtrip_reports_identical_per_file() {
    if common::samples().is_none() {
        return;
    }
    let files: Vec<String> =
        ["enumerator_background1.ply", "enumerator1.ply", "at1_a1.ply", "gun2.ply", "ger1.ply", "map_4v4_long.ply"]
            .iter()
            .map(|f| sample(f))
            .collect();
    let mut args = vec!["roundtrip"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6);
    for (l, f) in lines.iter().zip(&files) {
        assert_eq!(l["file"], f.as_str());
        assert_eq!(l["identical"], true, "{l}");
    }
    // A damaged file (an index past the vertices) still writes back what it read; its decode
    // error makes the exit code 1.
    let tmp = tempfile::Builder::new().prefix("meshscope-gem-rt-").tempdir().unwrap();
    let dir = tmp.path();
    let mut b = std::fs::read(sample("enumerator_background1.ply")).unwrap();
    b[0xe6] = 9;
    let p = dir.join("bad.ply");
    std::fs::write(&p, &b).unwrap();
    let out = run_code(&["roundtrip", p.to_str().unwrap()], 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["identical"], true);
    // Cut in the middle of the VERT chunk: the chunk loop stops, so the rewrite is shorter.
    std::fs::write(&p, &b[..0x70]).unwrap();
    let out = run_code(&["roundtrip", p.to_str().unwrap()], 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["identical"], false);
}

/// (counter-clockwise, clockwise) triangles of a .glb's primitives, against their normals.
fn windings(glb: &[u8]) -> (usize, usize) {
    let u32_at = |o: usize| u32::from_le_bytes(glb[o..o + 4].try_into().unwrap()) as usize;
    let jlen = u32_at(12);
    let json: Value = serde_json::from_slice(&glb[20..20 + jlen]).unwrap();
    let bin = &glb[20 + jlen + 8..];
    let acc = |i: &Value| {
        let a = &json["accessors"][i.as_u64().unwrap() as usize];
        let v = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let off = v["byteOffset"].as_u64().unwrap() as usize;
        let len = v["byteLength"].as_u64().unwrap() as usize;
        bin[off..off + len].chunks_exact(4).map(|c| c.try_into().unwrap()).collect::<Vec<[u8; 4]>>()
    };
    let (mut ccw, mut cw) = (0, 0);
    for m in json["meshes"].as_array().unwrap() {
        for p in m["primitives"].as_array().unwrap() {
            let pos: Vec<f32> = acc(&p["attributes"]["POSITION"]).into_iter().map(f32::from_le_bytes).collect();
            let nor: Vec<f32> = acc(&p["attributes"]["NORMAL"]).into_iter().map(f32::from_le_bytes).collect();
            let idx: Vec<usize> = acc(&p["indices"]).into_iter().map(|b| u32::from_le_bytes(b) as usize).collect();
            for t in idx.chunks_exact(3) {
                let v = |i: usize, k: usize| pos[t[i] * 3 + k] as f64;
                let (u, w) = ([0, 1, 2].map(|k| v(1, k) - v(0, k)), [0, 1, 2].map(|k| v(2, k) - v(0, k)));
                let n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
                let s: f64 = (0..3).map(|k| n[k] * t.iter().map(|&i| nor[i * 3 + k] as f64).sum::<f64>()).sum();
                if s > 0.0 {
                    ccw += 1
                } else if s < 0.0 {
                    cw += 1
                }
            }
        }
    }
    (ccw, cw)
}

#[test]
fn glb_of_a_gem_sample_stands_up_and_winds_as_gltf_wants() {
    if common::samples().is_none() {
        return;
    }
    let tmp = tempfile::Builder::new().prefix("meshscope-gem-glb-").tempdir().unwrap();
    let dir = tmp.path();
    // The stored triangles wind clockwise around their normals (Direct3D's front faces), in
    // every sample with normals; the export winds them counter-clockwise, glTF's front faces.
    for (name, triangles) in [("at1_a1.ply", 66), ("gun2.ply", 144), ("map_4v4_long.ply", 32934)] {
        let doc = meshscope::open(name, std::fs::read(sample(name)).unwrap());
        let lod = &doc.mesh.lods[0];
        let stored = windings_of_lod(lod);
        assert_eq!(stored, (0, triangles), "{name}: stored clockwise");
        let out = dir.join(format!("{name}.glb"));
        run(&["export", &sample(name), "--format", "glb", "-o", out.to_str().unwrap()]);
        let glb = std::fs::read(&out).unwrap();
        assert_eq!(windings(&glb), (triangles, 0), "{name}: exported counter-clockwise");
        let u32_at = |o: usize| u32::from_le_bytes(glb[o..o + 4].try_into().unwrap()) as usize;
        let json: Value = serde_json::from_slice(&glb[20..20 + u32_at(12)]).unwrap();
        let root =
            &json["nodes"][json["scenes"][0]["nodes"].as_array().unwrap().last().unwrap().as_u64().unwrap() as usize];
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let q: Vec<f64> = root["rotation"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(q, [-h, 0.0, 0.0, h], "{name}: Z-up turned to Y-up");
    }
}

/// (counter-clockwise, clockwise) triangles of a decoded LOD, against its normals.
fn windings_of_lod(lod: &meshscope::mesh::Lod) -> (usize, usize) {
    let (mut ccw, mut cw) = (0, 0);
    for t in lod.indices.chunks_exact(3) {
        let v = |i: usize, k: usize| lod.positions[t[i] as usize * 3 + k] as f64;
        let (u, w) = ([0, 1, 2].map(|k| v(1, k) - v(0, k)), [0, 1, 2].map(|k| v(2, k) - v(0, k)));
        let n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
        let s: f64 =
            (0..3).map(|k| n[k] * t.iter().map(|&i| lod.normals[i as usize * 3 + k] as f64).sum::<f64>()).sum();
        if s > 0.0 {
            ccw += 1
        } else if s < 0.0 {
            cw += 1
        }
    }
    (ccw, cw)
}
