//! Bad MeshSets and chunks: every truncation, pointers out of place, counts past their space,
//! overlapping streams, short chunks, indices past their section: an error naming the offset
//! and the field, the spans before it kept, never a panic.

use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, Built};
use meshscope::formats::frostbite::{guid, write_meshset, MeshSetDetails};
use meshscope::open;

fn built(mesh_type: u8, inline: bool) -> Built {
    let mut c = cube("M/A", 1.0, [0.0; 3]);
    if mesh_type != 0 {
        c.joints = vec![[0, 1, 0, 0]; c.positions.len()];
        c.weights = vec![[1.0, 0.0, 0.0, 0.0]; c.positions.len()];
        c.bones = vec![0, 1];
    }
    build(&BuildMesh {
        name: "bad/input".into(),
        mesh_type,
        bone_count: if mesh_type == 0 { 0 } else { 2 },
        lods: vec![
            BuildLod { sections: vec![c, grid("M/B", 2, 1.0)], index_32: false, inline },
            BuildLod { sections: vec![grid("M/C", 1, 1.0)], index_32: true, inline: false },
        ],
    })
}

#[test]
fn every_truncation_of_every_form_fails_cleanly() {
    // Every length for the rigid form; for the skinned (inline geometry), skinned and
    // composite forms (0xe0 headers, 0xbc/0xb8 records, trailing data) every 4th to 7th.
    for (t, inline, step) in [(0, false, 1), (1, true, 4), (1, false, 7), (2, false, 5)] {
        let b = built(t, inline);
        let full = b.resource.len();
        let whole = meshscope::formats::decode(meshscope::Format::FrostbiteMeshSet, "t.res", &b.resource);
        let records: Vec<(u64, u64)> = whole.fields.records.iter().map(|r| (r.start, r.start + r.len)).collect();
        for len in (0..full).step_by(step) {
            let doc = open("t.res", b.resource[..len].to_vec());
            let _ = doc.rewrite();
            if len % 16 == 0 {
                // The page's calls too (slower in a debug build, so on every 16th length).
                let _ = doc.summary();
                let _ = doc.spans_in(0, len as u64);
            }
            if len >= 0xC + 0xB6 {
                // Past the header's first fields it is still a MeshSet, and the cut is reported.
                assert!(!doc.errors.is_empty() || doc.checks().iter().any(|c| !c.passed), "type {t} len {len}");
                for e in &doc.errors {
                    assert!(e.offset <= full as u64, "{e}");
                    assert!(!e.path.is_empty(), "type {t} len {len}: {e}");
                }
            }
            // Spans decoded before the cut are kept: the header's fields, once the whole
            // header is there, are those of the whole file's decode.
            let header = |d: &[meshscope::Span]| -> Vec<(u64, String)> {
                d.iter().filter(|s| s.path.starts_with("header.")).map(|s| (s.start, s.path.to_string())).collect()
            };
            if records.first().is_some_and(|r| r.1 <= len as u64) {
                assert_eq!(header(doc.spans.fixed()), header(&whole.fields.spans), "type {t} len {len}");
            }
        }
    }
}

#[test]
fn chunk_truncation_names_the_stream_or_indices() {
    let b = built(0, false);
    let (g, c) = &b.chunks[0];
    for len in (0..c.len()).step_by(7) {
        let mut doc = open("t.res", b.resource.clone());
        let ch = doc.attach(&format!("{}.chunk", guid::hex(g)), c[..len].to_vec()).unwrap();
        assert!(!ch.errors.is_empty(), "len {len}");
        for e in &ch.errors {
            assert!(e.path.starts_with("lod[0].section["), "{e}");
            assert!(e.path.contains(".stream[") || e.path.contains(".indices"), "{e}");
        }
        // The document stays consistent: every index names a vertex.
        let lod = &doc.mesh.lods[0];
        assert!(lod.indices.iter().all(|&i| (i as usize) < lod.vertex_count()));
        assert_eq!(lod.normals.len(), lod.positions.len());
    }
}

fn u64_at(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn pointers_out_of_place_are_named() {
    let b = built(0, false);
    // The name pointer outside the resource.
    let mut r = b.resource.clone();
    u64_at(&mut r, 0x68, 0xffff_ff00);
    let doc = open("p.res", r);
    assert!(doc.errors.iter().any(|e| e.path == "header.name_pointer" && e.offset == 0x68), "{:?}", doc.errors);
    // The name pointer into the LOD records: inside the file, outside the pool.
    let mut r = b.resource.clone();
    u64_at(&mut r, 0x68, 0xd0 + 0x20 - 16);
    let doc = open("p.res", r);
    assert!(
        doc.errors.iter().any(|e| e.path == "header.name_pointer" && e.message().contains("outside the pool")),
        "{:?}",
        doc.errors
    );
    let c = doc.checks().iter().find(|c| c.name.starts_with("pointers land")).unwrap();
    assert!(!c.passed && c.measured.contains("header.name_pointer"));
    // A LOD pointer into the header.
    let mut r = b.resource.clone();
    u64_at(&mut r, 0x30, 0);
    let doc = open("p.res", r);
    assert!(doc.errors.iter().any(|e| e.path == "header.lod_pointer[0]"), "{:?}", doc.errors);
    // A relocation entry removed: the pointer it named is reported as not listed.
    let mut m = open("p.res", b.resource.clone()).details.get::<MeshSetDetails>().unwrap().clone();
    let table = m.resmeta_computed[0] as usize;
    let mut r = write_meshset(&m).unwrap();
    r[table..table + 4].copy_from_slice(&0u32.to_le_bytes());
    let doc = open("p.res", r);
    let c = doc.checks().iter().find(|c| c.name.contains("relocation table")).unwrap();
    assert!(!c.passed && c.measured.contains("header.lod_pointer[0]"), "{c:?}");
    m.header.lod_count = 9;
    assert!(write_meshset(&m).is_err());
}

#[test]
fn counts_past_their_space() {
    let b = built(0, false);
    let lod0 = 0xd0;
    let sec0 = lod0 + 2 * 0xb0;
    // Section count far beyond the file.
    let mut r = b.resource.clone();
    r[lod0 + 8..lod0 + 12].copy_from_slice(&0x0fff_ffffu32.to_le_bytes());
    let doc = open("c.res", r);
    assert!(doc.errors.iter().any(|e| e.path == "lod[0].section_count"), "{:?}", doc.errors);
    // A bone count with nowhere to be.
    let mut r = b.resource.clone();
    r[sec0 + 0x18..sec0 + 0x1a].copy_from_slice(&0xffffu16.to_le_bytes());
    let near_end = (r.len() - 20) as u64;
    u64_at(&mut r, sec0 + 0x10, near_end);
    let doc = open("c.res", r);
    assert!(doc.errors.iter().any(|e| e.path == "lod[0].section[0].bone_list_pointer"), "{:?}", doc.errors);
    // A section list count past the file.
    let mut r = b.resource.clone();
    r[lod0 + 0x14..lod0 + 0x18].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let doc = open("c.res", r);
    assert!(doc.errors.iter().any(|e| e.path == "lod[0].section_list[0].pointer"), "{:?}", doc.errors);
    // LOD count past seven.
    let mut r = b.resource.clone();
    r[0xb4..0xb6].copy_from_slice(&8u16.to_le_bytes());
    // Not a sane MeshSet header any more, so not detected; decoded anyway it names the count.
    assert_eq!(open("c.res", r.clone()).format, meshscope::Format::Unknown);
    let d = meshscope::formats::frostbite::decode_meshset("c.res", &r);
    assert!(d.errors.iter().any(|e| e.path == "header.lod_count" && e.offset == 0xb4), "{:?}", d.errors);
}

#[test]
fn overlapping_streams_and_bad_indices() {
    let b = built(0, false);
    let m = open("o.res", b.resource.clone()).details.get::<MeshSetDetails>().unwrap().clone();
    // Section 1's vertices moved onto section 0's.
    let mut m2 = m.clone();
    m2.lods[0].sections[1].vertex_offset = 16;
    let mut doc = open("o.res", write_meshset(&m2).unwrap());
    let ch = doc.attach_to_lod(0, "c.bin", b.chunks[0].1.clone()).unwrap();
    assert!(ch.errors.iter().any(|e| e.message().contains("overlaps")), "{:?}", ch.errors);
    // An index past the section's vertices: named by offset and index.
    let mut c = b.chunks[0].1.clone();
    let ib = m.lods[0].vertex_bytes as usize;
    c[ib + 4..ib + 6].copy_from_slice(&500u16.to_le_bytes());
    let mut doc = open("o.res", b.resource.clone());
    let ch = doc.attach_to_lod(0, "c.bin", c).unwrap();
    let e = ch.errors.iter().find(|e| e.path == "lod[0].section[0].indices[2]").unwrap();
    assert_eq!(e.offset, (ib + 4) as u64);
    assert!(e.message().contains("500"));
    // The other section still decoded.
    assert_eq!(doc.mesh.lods[0].sections[1].vertex_count, 9);
    // The failed section's indices (decoded straight into the LOD's array) are gone again:
    // section 1's start at 0 and name its own vertices.
    let lod = &doc.mesh.lods[0];
    let s1 = &lod.sections[1];
    assert_eq!((lod.sections[0].index_count, s1.index_start, s1.vertex_start), (0, 0, 0));
    assert_eq!(lod.indices.len(), s1.index_count as usize);
    assert!(lod.indices.iter().all(|&i| (i as usize) < s1.vertex_count as usize));
    // An unknown element format is shown as unknown, not a failure.
    let mut m3 = m.clone();
    m3.lods[0].sections[0].stored.elements[2].format = 0x09;
    let mut doc = open("o.res", write_meshset(&m3).unwrap());
    assert!(doc.errors.is_empty());
    let f =
        doc.spans.fixed().iter().find(|s| s.path == "lod[0].section[0].stored_declaration.element[2].format").unwrap();
    assert!(f.text(&doc.bytes).contains("unknown"));
    let ch = doc.attach_to_lod(0, "c.bin", b.chunks[0].1.clone()).unwrap();
    assert!(ch.errors.is_empty(), "{:?}", ch.errors);
    // Vertices on no stream: refused before anything is sized from the count.
    let mut m5 = m.clone();
    m5.lods[0].sections[0].stored.stream_count = 0;
    m5.lods[0].sections[0].vertex_count = u32::MAX;
    let mut doc = open("o.res", write_meshset(&m5).unwrap());
    let ch = doc.attach_to_lod(0, "c.bin", b.chunks[0].1.clone()).unwrap();
    // The cause is the resource's field: the error is the resource's, at that field.
    let field = |doc: &meshscope::Document, p: &str| doc.spans.fixed().iter().find(|s| s.path == p).unwrap().start;
    let e = doc
        .errors
        .iter()
        .find(|e| e.path == "lod[0].section[0].vertex_count")
        .unwrap_or_else(|| panic!("{:?}", doc.errors));
    assert_eq!(e.offset, field(&doc, "lod[0].section[0].vertex_count"));
    assert!(ch.errors.iter().all(|e| !e.path.ends_with("vertex_count")), "{:?}", ch.errors);
    // Index format neither 0x21 nor 0x2e.
    let mut m4 = m;
    m4.lods[0].index_format = 0x22;
    let mut doc = open("o.res", write_meshset(&m4).unwrap());
    let _ = doc.attach_to_lod(0, "c.bin", b.chunks[0].1.clone()).unwrap();
    let e = doc.errors.iter().find(|e| e.path == "lod[0].index_format").unwrap_or_else(|| panic!("{:?}", doc.errors));
    assert_eq!(e.offset, field(&doc, "lod[0].index_format"));
    // An element that passes its stream's stride: named by the declaration's element.
    let mut m6 = open("o.res", b.resource.clone()).details.get::<MeshSetDetails>().unwrap().clone();
    let k = m6.lods[0].sections[0].stored.used().iter().position(|e| e.stream == 0).unwrap();
    m6.lods[0].sections[0].stored.elements[k].offset = 250;
    let mut doc = open("o.res", write_meshset(&m6).unwrap());
    let _ = doc.attach_to_lod(0, "c.bin", b.chunks[0].1.clone()).unwrap();
    let p = format!("lod[0].section[0].stored_declaration.element[{k}].offset");
    let e = doc.errors.iter().find(|e| e.path == p).unwrap_or_else(|| panic!("{:?}", doc.errors));
    assert_eq!(e.offset, field(&doc, &p));
    assert!(e.message().contains("passes the stream stride"));
}
