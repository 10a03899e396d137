//! The six real `.ply` samples (read from ../shared, never copied): each decodes without
//! errors, leaves no byte uncovered, writes back byte-identical, and carries what the
//! shared README's table and the bytes themselves say it holds.

mod common;

use meshscope::formats::gem_ply::Ply;
use meshscope::{Confidence, Document};

/// The sample decoded; `None` when the samples folder is missing (the test then skips).
fn sample(name: &str) -> Option<Document> {
    common::gem_ply_bytes(name).map(|bytes| meshscope::open(name, bytes))
}

/// (file, magic, chunks, vertices, stride, indices), from shared/README.md's table.
const TABLE: [(&str, &str, &str, usize, u16, usize); 6] = [
    ("enumerator_background1.ply", "EPLY", "BNDS MESH VERT INDX", 4, 32, 6),
    ("enumerator1.ply", "EPLY", "BNDS MESH MESH MESH VERT INDX", 12, 36, 18),
    ("at1_a1.ply", "EPLY", "BNDS MESH VERT INDX", 137, 48, 198),
    ("gun2.ply", "EPLY", "BNDS SKIN MESH VERT INDX", 325, 56, 432),
    ("ger1.ply", "EPLY", "BNDS MESH VERT INDX MROR", 4, 32, 6),
    ("map_4v4_long.ply", "BPLY", "BNDS SUBM BAS2 VERT IND4", 16911, 44, 98802),
];

#[test]
fn samples_decode_fully_and_match_the_table() {
    for (file, magic, chunks, nv, stride, ni) in TABLE {
        let Some(doc) = sample(file) else { return };
        assert_eq!(doc.format, meshscope::Format::GemPly, "{file}");
        assert!(doc.errors.is_empty(), "{file}: {:?}", doc.errors);
        assert_eq!(doc.coverage().uncovered, 0, "{file}");
        let Some(p) = doc.details.get::<Ply>() else { panic!("{file}: no details") };
        assert_eq!(p.magic.name(), magic);
        assert_eq!(p.chunk_ids().join(" "), chunks, "{file}");
        assert_eq!(p.vert_header().map(|v| v.1), Some(stride), "{file}");
        let lod = &doc.mesh.lods[0];
        assert_eq!(lod.vertex_count(), nv, "{file}");
        assert_eq!(lod.indices.len(), ni, "{file}");
        assert_eq!(lod.normals.len(), nv * 3, "{file}");
        assert_eq!(lod.uvs.first().map(Vec::len), Some(nv * 2), "{file}");
        for c in doc.checks() {
            assert!(c.passed, "{file}: check {} failed: {} vs {}", c.name, c.stored, c.measured);
        }
        let secs: u32 = lod.sections.iter().map(|s| s.index_count).sum();
        assert_eq!(secs as usize, ni, "{file}: sections cover every index");
    }
}

#[test]
fn samples_roundtrip_byte_identical() {
    use meshscope::formats::gem_ply::{write, Buf, Chunk, Values};
    for (file, ..) in TABLE {
        let Some(doc) = sample(file) else { return };
        let Some(decoded) = doc.details.get::<Ply>() else { panic!("{file}: no details") };
        // The decode keeps the buffers as ranges of the file; a rewrite makes their values.
        for c in &decoded.chunks {
            match c {
                Chunk::Vert { data, .. } => assert!(matches!(data, Buf::File { .. }), "{file}: VERT a range"),
                Chunk::Indices { data, .. } => assert!(matches!(data, Buf::File { .. }), "{file}: indices a range"),
                _ => {}
            }
        }
        assert!(doc.rewrite().expect("a writer").expect("writes") == doc.bytes, "{file}: rewritten bytes differ");
        let p = &decoded.with_values(&doc.bytes);
        // The writer takes no file: every buffer is decoded values, encoded again.
        for c in &p.chunks {
            match c {
                Chunk::Vert { data, .. } => assert!(matches!(data, Buf::Values(_)), "{file}: VERT values"),
                Chunk::Indices { data, .. } => assert!(matches!(data, Buf::Values(_)), "{file}: index values"),
                _ => {}
            }
        }
        assert!(write(p).expect("writes") == doc.bytes, "{file}: written bytes differ");
        // An edited value is written where it is stored: the first vertex's x.
        let mut edited = p.clone();
        let Some(Chunk::Vert { data: Buf::Values(cols), .. }) =
            edited.chunks.iter_mut().find(|c| matches!(c, Chunk::Vert { .. }))
        else {
            panic!()
        };
        let Values::F32(x) = &mut cols[0].values else { panic!("{file}: position is f32") };
        x[0] = 1234.5;
        let w = write(&edited).expect("writes");
        let at = span(&doc, "VERT.vertices[0].position").start as usize;
        assert_eq!(&w[at..at + 4], &1234.5f32.to_le_bytes(), "{file}");
        assert_eq!((&w[..at], &w[at + 4..]), (&doc.bytes[..at], &doc.bytes[at + 4..]), "{file}: only the edit differs");
    }
}

fn span(doc: &Document, path: &str) -> meshscope::SpanText {
    doc.spans_in(0, doc.bytes.len() as u64)
        .into_iter()
        .find(|s| s.path == path)
        .unwrap_or_else(|| panic!("{}: no span {path}", doc.name))
}

#[test]
fn skinned_sample_resolves_bones_through_the_bone_map() {
    let Some(doc) = sample("gun2.ply") else { return };
    let lod = &doc.mesh.lods[0];
    // SKIN holds one bone, "gun"; joint 0 is the mesh's own transform.
    assert_eq!(lod.bone_names, ["(mesh transform)", "gun"]);
    assert_eq!(lod.sections[0].bones, ["(mesh transform)", "gun"]);
    // Vertex 0 (bytes at 0x5c..): weight 1.0 then indices 01 00 00 00: all on bone map[1] = SKIN[0].
    assert_eq!(&lod.weights[..2], &[1.0, 0.0]);
    assert_eq!(lod.joints[0], 1);
    // Vertex 1: weight 0.0, indices 0: the implicit second weight is 1 on bone map[0] = the mesh.
    assert_eq!(&lod.weights[4..6], &[0.0, 1.0]);
    assert_eq!(lod.joints[4..6], [0, 0]);
    let w = span(&doc, "VERT.vertices[0].blend_weight");
    assert_eq!((w.start, w.len, w.confidence), (0x5c + 12, 4, Confidence::Observed));
    let t = span(&doc, "VERT.vertices[0].tangent");
    assert_eq!((t.start, t.len, t.confidence), (0x5c + 40, 16, Confidence::Observed));
    assert_eq!(lod.tangents.len(), 325 * 4);
    let f = span(&doc, "MESH[0].mesh_flags");
    for name in ["skinned", "bump", "specular", "use material", "sub-skin", "realtime lighting"] {
        assert!(f.value.contains(name), "{name} in {}", f.value);
    }
    assert_eq!(span(&doc, "MESH[0].fvf").confidence, Confidence::Proven);
}

#[test]
fn colors_follow_the_full_color_flag() {
    // enumerator1: VERT flags 7 (full color), colors ff ff ff cc.
    let Some(doc) = sample("enumerator1.ply") else { return };
    let lod = &doc.mesh.lods[0];
    assert_eq!(&lod.colors[..4], &[1.0, 1.0, 1.0, 0xcc as f32 / 255.0]);
    assert_eq!(lod.sections.len(), 3);
    assert_eq!(lod.sections[2].name, "number3.mtl");
    // Each MESH holds two faces; section 1 starts at index 6.
    assert_eq!((lod.sections[1].index_start, lod.sections[1].index_count), (6, 6));
    // map: VERT flags 0, colors 7f 7f 7f ff: doubled after loading (rgb).
    let Some(doc) = sample("map_4v4_long.ply") else { return };
    let lod = &doc.mesh.lods[0];
    assert_eq!(&lod.colors[..4], &[254.0 / 255.0, 254.0 / 255.0, 254.0 / 255.0, 1.0]);
}

#[test]
fn landscape_submesh_follows_the_file_not_the_description() {
    let Some(doc) = sample("map_4v4_long.ply") else { return };
    // Elements are 3 bytes each: FLOAT3 POSITION at 0x24, then NORMAL at 0x27.
    let e = span(&doc, "SUBM[0].vertex_elements[1].type_usage");
    assert_eq!((e.start, e.confidence), (0x27, Confidence::Observed));
    assert!(e.value.contains("FLOAT3 NORMAL"), "{}", e.value);
    let u = span(&doc, "SUBM[0].unknown[1]");
    assert_eq!((u.start, u.value.as_str(), u.confidence), (0x3e, "16911", Confidence::Unknown));
    let tail = span(&doc, "VERT.vertices[5].unexplained");
    assert_eq!((tail.len, tail.confidence), (8, Confidence::Unknown));
    let grid = doc.mesh.lods[0].grid.as_ref().expect("BAS2 makes a grid");
    assert_eq!(grid.polygon_basis.len(), 6);
    // BAS2 data starts at 0x53: center (0, 0), then axis_x.x = 100.0 (bytes 00 00 c8 42 at 0x5b).
    assert_eq!(grid.polygon_basis[..3], [0.0, 0.0, 100.0]);
    let s = &doc.mesh.lods[0].sections[0];
    assert_eq!(s.index_source.map(|x| (x.offset, x.stride)), Some((744227 + 8, 4)));
    assert_eq!(s.vertex_source.map(|x| (x.offset, x.stride)), Some((0x8f, 44)));
}

#[test]
fn mirrored_sample_marks_its_sections() {
    let Some(doc) = sample("ger1.ply") else { return };
    assert!(doc.mesh.lods[0].sections.iter().all(|s| s.mirrored));
    let Some(doc) = sample("enumerator_background1.ply") else { return };
    assert!(doc.mesh.lods[0].sections.iter().all(|s| !s.mirrored));
    // ger1's MESH flags 0x445 include two-sided.
    let Some(doc) = sample("ger1.ply") else { return };
    assert!(doc.mesh.lods[0].sections[0].two_sided);
}

#[test]
fn the_structure_first_then_the_mesh_gives_the_whole_decode() {
    for (name, ..) in TABLE {
        let Some(whole) = sample(name) else { break };
        let mut quick = meshscope::open_structure(name, whole.bytes.clone());
        assert!(quick.pending, "{name}: a .ply opens structure first");
        assert!(quick.mesh.lods.is_empty(), "{name}: no mesh before complete");
        assert_eq!(quick.spans.fixed(), whole.spans.fixed(), "{name}: the same spans at once");
        assert_eq!(quick.spans.regions().len(), whole.spans.regions().len(), "{name}");
        assert_eq!(quick.tree(), whole.tree(), "{name}: the same tree at once");
        assert!(quick.summary().pending);
        quick.complete();
        assert!(!quick.pending);
        assert_eq!(quick.mesh, whole.mesh, "{name}: complete decodes the mesh");
        assert_eq!(quick.checks(), whole.checks(), "{name}");
        assert_eq!(quick.errors.len(), whole.errors.len(), "{name}");
    }
    // A format without a quicker structure pass opens whole.
    let files = meshscope::sample::sample_meshset();
    assert!(!meshscope::open_structure(&files[0].0, files[0].1.clone()).pending);
}
