//! A `.ply` cut short inside an array keeps the array as far as whole elements go: a region
//! of the whole elements, the cut element as a span of its own, the error at the first
//! missing byte, and the whole vertices in the mesh.

use meshscope::formats::gem_ply::builder::{torus, Builder};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{parse, Chunk, Magic, MeshChunk};
use meshscope::tree::Node;
use meshscope::{Confidence, Document, ErrorKind};
use std::path::PathBuf;

/// The real samples, or `None` (with a line saying so) when the folder is absent; under
/// `CI=true` a missing folder fails.
fn samples() -> Option<Vec<(String, Vec<u8>)>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir =
        std::env::var_os("MESHSCOPE_SAMPLES").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/samples"));
    let Ok(rd) = std::fs::read_dir(dir.join("gem-ply")) else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "no samples in {} under CI", dir.display());
        eprintln!("skipped: no samples in {}", dir.display());
        return None;
    };
    let mut v: Vec<_> = rd
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    Some(v)
}

fn find<'a>(nodes: &'a [Node], path: &str) -> Option<&'a Node> {
    nodes.iter().find_map(|n| if n.path == path { Some(n) } else { find(&n.children, path) })
}

/// A 32-byte-vertex torus (position, normal, uv0: fvf 0x112) under one MESH, then INDX.
fn built() -> (Vec<u8>, Vec<[f32; 3]>, Vec<u16>) {
    let (v, i) = torus(6, 4, 1.0, 0.4);
    let idx: Vec<u16> = i.iter().map(|&x| x as u16).collect();
    let l = Layout::from_fvf(0x112);
    let textures = vec![b"t.dds".to_vec()];
    let m = MeshChunk { fvf: 0x112, face_count: (idx.len() / 3) as i32, textures, ..Default::default() };
    let bytes =
        Builder::new(Magic::Eply).chunk(Chunk::Mesh(m)).vert(&l, 32, 0x3, &v).indx(&idx).build().expect("builds");
    (bytes, v.iter().map(|x| x.position).collect(), idx)
}

#[test]
fn a_vertex_buffer_cut_short_keeps_its_whole_vertices() {
    let (bytes, positions, _) = built();
    let start = parse(&bytes).places.vert_data.expect("a VERT") as usize;
    let cut = start + 5 * 32 + 7;
    let doc = meshscope::open("cut.ply", bytes[..cut].to_vec());
    let e = &doc.errors[0];
    assert_eq!((e.offset, e.path.as_str()), (cut as u64, "VERT.vertices[5]"));
    let needed = (positions.len() as u64 - 5) * 32;
    assert_eq!(e.kind, ErrorKind::Truncated { needed, available: 7 });
    let r = doc.spans.regions().iter().find(|r| r.path == "VERT.vertices").expect("the vertex region");
    assert_eq!((r.start, r.stride, r.count), (start as u64, 32, 5));
    let s = doc.span_at(cut as u64 - 1).expect("the cut vertex has a span");
    assert_eq!((s.start, s.len, s.path.as_str(), &*s.ty), (cut as u64 - 7, 7, "VERT.vertices[5]", "u8[7] cut"));
    assert_eq!(s.confidence, Confidence::Unknown);
    assert!(s.note.contains("cut short") && s.note.contains("element 5 of 35"), "{}", s.note);
    let kept: Vec<f32> = positions[..5].iter().flatten().copied().collect();
    assert_eq!(doc.mesh.lods[0].positions, kept);
    assert_eq!(doc.coverage().uncovered, 0);
    assert_eq!(find(doc.tree(), "VERT.vertices").and_then(|n| n.count), Some(5));
    assert!(find(doc.tree(), "VERT.vertices[5]").is_some(), "the cut vertex is in the tree");
}

#[test]
fn an_index_buffer_cut_short_keeps_its_whole_indices() {
    let (bytes, positions, idx) = built();
    let p = parse(&bytes);
    let (at, path) = p.places.index_data.clone().expect("an INDX");
    assert_eq!(path, "INDX.indices");
    let cut = at as usize + 2 * 7 + 1;
    let doc = meshscope::open("cut.ply", bytes[..cut].to_vec());
    let e = &doc.errors[0];
    assert_eq!((e.offset, e.path.as_str()), (cut as u64, "INDX.indices[7]"));
    assert_eq!(e.kind, ErrorKind::Truncated { needed: (idx.len() as u64 - 7) * 2, available: 1 });
    let want: Vec<u32> = idx[..7].iter().map(|&i| i as u32).collect();
    assert_eq!(doc.mesh.lods[0].indices, want);
    assert_eq!(doc.mesh.lods[0].positions.len(), positions.len() * 3, "every vertex is there");
    assert_eq!(doc.coverage().uncovered, 0);
}

#[test]
fn every_sample_cut_inside_its_vertices_keeps_the_whole_ones() {
    let Some(files) = samples() else { return };
    assert_eq!(files.len(), 6);
    for (name, bytes) in files {
        let full = meshscope::open(&name, bytes.clone());
        let p = parse(&bytes);
        let (start, (count, size, _)) = (p.places.vert_data.unwrap(), p.ply.vert_header().unwrap());
        let end = start + count as u64 * size as u64;
        for cut in [start + 1, (start + end) / 2, end - 1] {
            let doc: Document = meshscope::open(&name, bytes[..cut as usize].to_vec());
            let whole = (cut - start) / size as u64;
            let e = &doc.errors[0];
            assert_eq!((e.offset, e.path.clone()), (cut, format!("VERT.vertices[{whole}]")), "{name} at {cut}");
            assert_eq!(doc.coverage().uncovered, 0, "{name} cut at {cut}: every kept byte is covered");
            let n = whole as usize * 3;
            assert_eq!(doc.mesh.lods[0].positions, full.mesh.lods[0].positions[..n], "{name} at {cut}");
        }
    }
}

/// The fact of a document, by name.
fn fact<'a>(doc: &'a Document, name: &str) -> Option<&'a str> {
    doc.facts.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_ref())
}

#[test]
fn a_file_cut_between_chunks_is_an_empty_mesh_that_says_what_it_lacks() {
    // Built: BNDS, SKIN, MESH, VERT, INDX. No chunk stores its size, so a cut between chunks
    // is a valid file of fewer chunks: no error, and the summary names what is absent.
    let (v, i) = torus(3, 3, 1.0, 0.4);
    let idx: Vec<u16> = i.iter().map(|&x| x as u16).collect();
    let m = MeshChunk {
        fvf: 0x112,
        face_count: (idx.len() / 3) as i32,
        textures: vec![b"t".to_vec()],
        ..Default::default()
    };
    let bytes = Builder::new(Magic::Eply)
        .bnds(&v)
        .chunk(Chunk::Skin(vec![b"root".to_vec()]))
        .chunk(Chunk::Mesh(m))
        .vert(&Layout::from_fvf(0x112), 32, 0, &v)
        .indx(&idx)
        .build()
        .unwrap();
    let records = parse(&bytes).fields.records;
    let end_of = |id: &str| records.iter().find(|r| r.path == id).map(|r| (r.start + r.len) as usize).unwrap();
    for (cut, last) in [(4, "the magic"), (end_of("BNDS"), "BNDS"), (end_of("SKIN"), "SKIN")] {
        let doc = meshscope::open("cut.ply", bytes[..cut].to_vec());
        assert!(doc.errors.is_empty(), "cut after {last}: {:?}", doc.errors);
        assert_eq!(doc.mesh.lods[0].vertex_count(), 0);
        let want = format!("the file has no VERT, INDX or submesh chunk (it ends after {last})");
        assert_eq!(fact(&doc, "absent chunks"), Some(want.as_str()), "cut after {last}");
        let quick = meshscope::open_structure("cut.ply", bytes[..cut].to_vec());
        assert_eq!(fact(&quick, "absent chunks"), Some(want.as_str()), "structure first, cut after {last}");
    }
    // After VERT only INDX is absent; the whole file lacks nothing.
    let doc = meshscope::open("cut.ply", bytes[..end_of("VERT")].to_vec());
    assert_eq!(fact(&doc, "absent chunks"), Some("the file has no INDX chunk (it ends after VERT)"));
    assert_eq!(fact(&meshscope::open("whole.ply", bytes), "absent chunks"), None);
}
