//! Bad input: truncation at every length, unknown chunks, counts and names past the end,
//! indices past the vertices, face ranges past the indices. Each gives an error with its
//! offset and field, keeps what was decoded before it, and never panics.

mod common;

use meshscope::formats::gem_ply::{self, fixtures::all};
use meshscope::Document;
use std::collections::HashSet;

/// The six real samples; none when the samples folder is missing (the fixtures still run).
fn samples() -> Vec<(String, Vec<u8>)> {
    let Some(v) = common::gem_ply_samples() else { return Vec::new() };
    assert_eq!(v.len(), 6);
    v
}

fn fixed_spans(doc: &Document) -> HashSet<(String, u64, u64)> {
    doc.spans.fixed().iter().map(|s| (s.path.to_string(), s.start, s.len)).collect()
}

/// Cuts `bytes` at `len` and checks the decode of what is left. The format's own decode
/// is checked at every length; the whole document pipeline (tree, summary, writer) at
/// every 61st, so the test stays quick in debug builds.
fn truncated(name: &str, bytes: &[u8], len: usize, full: &HashSet<(String, u64, u64)>, chunk_starts: &[u64]) {
    let cut = &bytes[..len];
    if len.is_multiple_of(61) {
        let doc = meshscope::open(name, cut.to_vec());
        let _ = doc.summary();
        let _ = doc.spans_in(0, len as u64);
        let _ = doc.rewrite();
    }
    if len < 4 {
        assert!(!gem_ply::detect(cut));
        return; // not detected as a .ply at all: opens as raw bytes
    }
    let d = gem_ply::decode(cut);
    if !chunk_starts.contains(&(len as u64)) {
        let e = d.errors.first().unwrap_or_else(|| panic!("{name} cut at {len}: no error"));
        assert!(e.offset <= len as u64, "{name} cut at {len}: error offset {} past the end", e.offset);
        assert!(!e.path.is_empty(), "{name} cut at {len}: error without a field path");
        // Every field of the whole file that ends before the error is still there.
        let have: HashSet<(&str, u64, u64)> =
            d.fields.spans.iter().map(|s| (s.path.as_str(), s.start, s.len)).collect();
        for s in full.iter().filter(|s| s.1 + s.2 <= e.offset) {
            assert!(have.contains(&(s.0.as_str(), s.1, s.2)), "{name} cut at {len}: lost {s:?} before error {e}");
        }
    }
}

fn chunk_starts(doc: &Document) -> Vec<u64> {
    let mut v: Vec<u64> = doc.spans.fixed().iter().filter(|s| s.path.ends_with(".id")).map(|s| s.start).collect();
    v.push(4);
    v
}

#[test]
fn truncation_at_every_length_of_every_sample_and_fixture() {
    let mut files = samples();
    files.extend(all().into_iter().map(|f| (f.name.to_string(), f.bytes)));
    for (name, bytes) in files {
        let doc = meshscope::open(&name, bytes.clone());
        let full = fixed_spans(&doc);
        let starts = chunk_starts(&doc);
        // The 1.1 MB landscape: every length through its header, then a stride through the
        // buffers, then every length of the last bytes.
        let lens: Vec<usize> = if bytes.len() > 100_000 {
            (0..400).chain((400..bytes.len()).step_by(99_991)).chain(bytes.len() - 12..bytes.len()).collect()
        } else {
            (0..bytes.len()).collect()
        };
        for len in lens {
            truncated(&name, &bytes, len, &full, &starts);
        }
    }
}

#[test]
fn a_file_cut_at_a_chunk_boundary_keeps_the_chunks_before_it() {
    // ger1 ends with MROR: without it the file is valid, and its MESH flags (0x445) still
    // say mirrored.
    let Some(bytes) = common::gem_ply_bytes("ger1.ply") else { return };
    let doc = meshscope::open("ger1.ply", bytes[..bytes.len() - 4].to_vec());
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let Some(p) = doc.details.get::<meshscope::formats::gem_ply::Ply>() else { panic!() };
    assert!(!p.mirrored() && p.chunk_ids() == ["BNDS", "MESH", "VERT", "INDX"]);
    assert!(doc.mesh.lods[0].sections[0].mirrored);
    // Cut before VERT: the submesh has nothing to draw from.
    let doc = meshscope::open("ger1.ply", bytes[..0x45].to_vec());
    assert!(doc.errors.iter().any(|e| e.path == "VERT"), "{:?}", doc.errors);
}

fn first_error(bytes: Vec<u8>) -> (Document, meshscope::Error) {
    let doc = meshscope::open("bad.ply", bytes);
    let e = doc.errors.first().cloned().expect("an error");
    (doc, e)
}

fn enumerator_bg() -> Option<Vec<u8>> {
    common::gem_ply_bytes("enumerator_background1.ply")
}

#[test]
fn unknown_chunk_id_stops_with_its_offset() {
    // enumerator_background1: BNDS at 4, MESH at 0x20. Rename MESH to XXXX.
    let Some(mut b) = enumerator_bg() else { return };
    b[0x20..0x24].copy_from_slice(b"XXXX");
    let (doc, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (0x20, "chunk[1].id"));
    assert!(e.message().contains("XXXX"), "{}", e.message());
    assert!(doc.spans.fixed().iter().any(|s| s.path == "BNDS.max"), "BNDS kept");
}

#[test]
fn counts_past_the_end_keep_the_whole_elements_there() {
    // VERT at 0x4e: vertex_count at 0x52 becomes 0x7fffffff; vertices start at 0x5a. The
    // file holds as many whole vertices as fit in its last bytes, and no more is allocated.
    let Some(mut b) = enumerator_bg() else { return };
    b[0x52..0x56].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let size = u16::from_le_bytes([b[0x56], b[0x57]]) as u64;
    let left = b.len() as u64 - 0x5a;
    let (whole, rest) = (left / size, left % size);
    let (doc, e) = first_error(b.clone());
    assert_eq!(e.path, format!("VERT.vertices[{whole}]"));
    assert_eq!(e.offset, b.len() as u64, "the error is at the first missing byte");
    let needed = 0x7fff_ffff * size - whole * size;
    assert_eq!(e.kind, meshscope::ErrorKind::Truncated { needed, available: rest });
    assert!(doc.spans.fixed().iter().any(|s| s.path == "VERT.vertex_flags"));
    assert_eq!(doc.mesh.lods[0].positions.len() as u64, whole * 3, "the whole vertices are in the mesh");
    // A negative index count.
    let Some(mut b) = enumerator_bg() else { return };
    b[0xde..0xe2].copy_from_slice(&(-3i32).to_le_bytes());
    let (_, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (0xde, "INDX.index_count"));
    // A SKIN bone count far beyond the file.
    let mut b = b"EPLYSKIN".to_vec();
    b.extend_from_slice(&1_000_000u32.to_le_bytes());
    b.extend_from_slice(&[3, b'g', b'u', b'n']);
    let (_, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (12, "SKIN.bone_count"));
}

#[test]
fn a_name_past_the_end_names_its_field() {
    // MESH material length at 0x34 (0x19 bytes): make it 0xff.
    let Some(mut b) = enumerator_bg() else { return };
    b[0x34] = 0xff;
    b.truncate(0x60);
    let (doc, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (0x35, "MESH[0].material_name.text"));
    assert!(doc.spans.fixed().iter().any(|s| s.path == "MESH[0].material_name.length"));
}

#[test]
fn an_index_past_the_vertices_is_an_error_at_that_index() {
    // INDX at 0xda: indices from 0xe2; the third (at 0xe6) becomes 4 = the vertex count.
    let Some(mut b) = enumerator_bg() else { return };
    b[0xe6..0xe8].copy_from_slice(&4u16.to_le_bytes());
    let (doc, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (0xe6, "INDX.indices[2]"));
    assert!(doc.checks().iter().any(|c| c.name == "indices name vertices" && !c.passed));
    // The OBJ export leaves that triangle out rather than writing a bad reference.
    let obj = meshscope::export::obj::write_obj(&doc.mesh.lods[0], "bad").expect("one triangle to draw");
    assert_eq!(obj.text.matches("\nf ").count(), 1);
}

#[test]
fn a_face_range_past_the_indices_is_an_error_at_face_count() {
    // MESH face_count at 0x2c: 2 faces -> 3.
    let Some(mut b) = enumerator_bg() else { return };
    b[0x2c..0x30].copy_from_slice(&3i32.to_le_bytes());
    let (_, e) = first_error(b);
    assert_eq!((e.offset, e.path.as_str()), (0x2c, "MESH[0].face_count"));
}

#[test]
fn garbage_after_a_magic_never_panics() {
    // A cheap stand-in for the fuzzer: every fixture with bytes flipped one at a time.
    for f in all().into_iter().take(4) {
        for i in (4..f.bytes.len()).step_by(3) {
            let mut b = f.bytes.clone();
            b[i] ^= 0xa5;
            let doc = meshscope::open(f.name, b);
            let _ = doc.summary();
            let _ = doc.rewrite();
        }
    }
}
