//! The census on sets made by the formats' own builders, in which chosen fields take known
//! distributions: the census finds exactly them. Expected counts come from the generators'
//! rules below, never from the census's output.

use meshscope::census::report::{EntryReport, Report, Shown};
use meshscope::census::Census;
use meshscope::formats::frostbite::builder::{build, cube, BuildLod, BuildMesh};
use meshscope::formats::gem_ply::builder::{torus, Builder};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{Chunk, Magic, MeshChunk};
use std::collections::BTreeMap;

fn entry<'a>(r: &'a Report, kind: &str, path: &str) -> &'a EntryReport {
    r.entries.iter().find(|e| e.kind == kind && e.path == path).unwrap_or_else(|| panic!("no {kind} entry {path}"))
}

/// Value -> count, the value cut to its first word (`0x5 (two-sided | ...)` -> `0x5`).
fn dist(e: &EntryReport) -> BTreeMap<String, u64> {
    e.values
        .iter()
        .map(|v| {
            let s = match &v.value {
                Shown::Number(n) => n.to_string(),
                Shown::Text(t) => t.split(' ').next().unwrap_or("").to_string(),
            };
            (s, v.count)
        })
        .collect()
}

fn tally<T: ToString>(xs: impl Iterator<Item = T>) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for x in xs {
        *m.entry(x.to_string()).or_insert(0) += 1;
    }
    m
}

// ---- GEM .ply ----

const PLY: u32 = 60;
fn meshes(i: u32) -> u32 {
    1 + i % 3
}
fn mesh_flags(i: u32) -> u32 {
    if i.is_multiple_of(5) {
        0x5
    } else {
        0x4
    }
}
fn vert_flags(i: u32) -> u16 {
    if i.is_multiple_of(7) {
        0x3
    } else {
        0x7
    }
}
fn rings(i: u32) -> u32 {
    3 + i % 4
}

fn ply(i: u32) -> Vec<u8> {
    let (v, idx) = torus(rings(i), 4, 1.0, 0.4);
    let faces = (idx.len() / 3) as i32;
    let fvf = 0x112;
    let l = Layout::from_fvf(fvf);
    let s = l.size();
    let mut b = Builder::new(Magic::Eply).bnds(&v);
    let n = meshes(i) as i32;
    for k in 0..n {
        let (start, end) = (faces * k / n, faces * (k + 1) / n);
        let m = MeshChunk {
            fvf,
            face_start: start,
            face_count: end - start,
            flags: mesh_flags(i),
            textures: vec![b"t.dds".to_vec()],
            ..Default::default()
        };
        b = b.chunk(Chunk::Mesh(m));
    }
    let i16: Vec<u16> = idx.iter().map(|&x| x as u16).collect();
    b.vert(&l, s as u16, vert_flags(i), &v).indx(&i16).build().expect("a built .ply")
}

#[test]
fn a_built_ply_set_gives_its_distributions() {
    let mut c = Census::new();
    for i in 0..PLY {
        let (format, errors) = c.add_file(&format!("m{i}.ply"), ply(i));
        assert_eq!((format, errors), (meshscope::Format::GemPly, 0));
    }
    let r = c.report(1000);
    assert_eq!(r.files, PLY as u64);
    assert_eq!(dist(entry(&r, "count", "MESH[*]")), tally((0..PLY).map(meshes)));
    let per_mesh = (0..PLY).flat_map(|i| (0..meshes(i)).map(move |_| format!("0x{:x}", mesh_flags(i))));
    let flags = entry(&r, "field", "MESH[*].mesh_flags");
    assert_eq!(dist(flags), tally(per_mesh));
    assert_eq!(flags.records, (0..PLY).map(meshes).sum::<u32>() as u64);
    assert_eq!(flags.files, PLY as u64);
    assert_eq!(
        dist(entry(&r, "field", "VERT.vertex_flags")),
        tally((0..PLY).map(|i| format!("0x{:x}", vert_flags(i))))
    );
    // torus(rings, 4): (rings + 1) * 5 vertices.
    let count = entry(&r, "field", "VERT.vertex_count");
    assert_eq!(dist(count), tally((0..PLY).map(|i| (rings(i) + 1) * 5)));
    assert!(count.equals.iter().any(|e| e == "element count of VERT.vertices"), "{:?}", count.equals);
    assert!(entry(&r, "field", "INDX.index_count").equals.iter().any(|e| e == "element count of INDX.indices"));
    // The files where a value is: the first two-sided meshes are in m0 and m5.
    let two_sided = flags.values.iter().find(|v| matches!(&v.value, Shown::Text(t) if t.starts_with("0x5"))).unwrap();
    let files: Vec<&str> = two_sided.at.iter().map(|p| p.file.as_str()).collect();
    assert_eq!(&files[..2], ["m0.ply", "m5.ply"]);
    assert_eq!(two_sided.at[0].record, "MESH[0]");
}

// ---- Frostbite MeshSet ----

const MS: u32 = 40;
fn lods(i: u32) -> u32 {
    1 + i % 3
}
fn sections(i: u32, k: u32) -> u32 {
    1 + (i + k) % 2
}
fn byte_7d(i: u32) -> u8 {
    if i.is_multiple_of(8) {
        5
    } else {
        3
    }
}

fn meshset(i: u32) -> Vec<u8> {
    let lods = (0..lods(i))
        .map(|k| BuildLod {
            sections: (0..sections(i, k)).map(|j| cube(&format!("M/{j}"), 1.0 + j as f32, [0.0; 3])).collect(),
            index_32: false,
            inline: false,
        })
        .collect();
    let mut b = build(&BuildMesh { name: format!("census/mesh{i}"), mesh_type: 0, bone_count: 0, lods }).resource;
    // 0x7D is an Unknown byte: what a census is for. The builder writes 3.
    if let Some(x) = b.get_mut(0x7d) {
        *x = byte_7d(i);
    }
    b
}

#[test]
fn a_built_meshset_set_gives_its_distributions() {
    let mut c = Census::new();
    for i in 0..MS {
        let bytes = meshset(i);
        let doc = meshscope::census::CensusFile::new(&format!("mesh{i}.MeshSet"), bytes);
        assert_eq!(doc.format, meshscope::Format::FrostbiteMeshSet);
        c.add(&doc);
    }
    let r = c.report(1000);
    assert_eq!(r.files, MS as u64);
    assert_eq!(dist(entry(&r, "field", "header.unknown_7d")), tally((0..MS).map(byte_7d)));
    let b7d = entry(&r, "unknown", "header+0x7d");
    assert_eq!(dist(b7d), tally((0..MS).map(byte_7d)));
    assert_eq!(b7d.offset, Some(0x7d));
    assert_eq!(dist(entry(&r, "count", "lod[*]")), tally((0..MS).map(lods)));
    let per_lod = (0..MS).flat_map(|i| (0..lods(i)).map(move |k| sections(i, k)));
    assert_eq!(dist(entry(&r, "count", "lod[*].section[*]")), tally(per_lod));
    let lc = entry(&r, "field", "header.lod_count");
    assert!(lc.equals.iter().any(|e| e == "count of lod[*]"), "{:?}", lc.equals);
    let sc = entry(&r, "field", "lod[*].section_count");
    assert!(sc.equals.iter().any(|e| e == "count of lod[*].section[*]"), "{:?}", sc.equals);
    // Every 5 is listed with its files: mesh0, mesh8, ...
    let five = b7d.values.iter().find(|v| v.value == Shown::Number(5)).unwrap();
    assert_eq!(
        five.at.iter().map(|p| p.file.as_str()).collect::<Vec<_>>(),
        ["mesh0.MeshSet", "mesh8.MeshSet", "mesh16.MeshSet", "mesh24.MeshSet", "mesh32.MeshSet"]
    );
}
