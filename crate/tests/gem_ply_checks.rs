//! What each GEM `.ply` check rests on: the description (a failure is a broken file) or a
//! guess of ours (a failure is an observation), and the tolerance of each measured check.

use meshscope::document::Basis;
use meshscope::formats::gem_ply::builder::{Builder, Vertex};
use meshscope::formats::gem_ply::fixtures::all;
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{Chunk, Element, Magic, MeshChunk, SubmAs2};
use meshscope::{Check, Document};

fn named<'a>(doc: &'a Document, name: &str) -> &'a Check {
    doc.checks().iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no check {name}: {:?}", doc.checks()))
}

fn fixture(name: &str) -> Document {
    let f = all().into_iter().find(|f| f.name == name).unwrap();
    meshscope::open(name, f.bytes)
}

#[test]
fn guessed_relations_are_guesses_and_measured_ones_show_their_tolerance() {
    let doc = fixture("bply_grid");
    assert_eq!(named(&doc, "SUBM unknown[1] = VERT vertex count").basis, Basis::Guess);
    assert_eq!(named(&doc, "SUBM unknown[1] = VERT vertex count").path, "SUBM[0].unknown[1]");
    assert_eq!(named(&doc, "submesh faces cover the triangles").basis, Basis::Guess);
    let b = named(&doc, "BNDS contains the positions");
    assert_eq!((b.basis, b.tolerance.as_str()), (Basis::Description, "1 f32 step at the value's magnitude"));
    assert_eq!(named(&doc, "indices name vertices").basis, Basis::Description);
    assert_eq!(named(&doc, "SHDW.face_count = triangles").basis, Basis::Description);
    let t = named(&fixture("mesh_bump_tangent"), "tail tangent is orthogonal to the normal with sign +-1").clone();
    assert_eq!(t.basis, Basis::Guess);
    assert!(t.passed && t.tolerance.contains("0.05"), "{t:?}");
}

/// A BPLY whose AS2 SUBM holds in `unknown[1]` something other than the vertex count (four
/// vertices, unknown = [7, 9]): the guess fails, and it is an observation, not an error.
#[test]
fn a_bply_whose_unknown_word_is_not_the_vertex_count_is_not_broken() {
    let el = |t| Element { type_usage: t, usage_index: 0, stream: 0 };
    let elements = vec![el(0x02)];
    let (l, _) = Layout::from_elements(&elements, meshscope::Confidence::Observed, "");
    let verts: Vec<Vertex> = (0..4).map(|k| Vertex { position: [k as f32, 0.0, 1.0], ..Default::default() }).collect();
    let sub = SubmAs2 { elements, face_count: 2, unknown: [7, 9], ..Default::default() };
    let bytes = Builder::new(Magic::Bply)
        .bnds(&verts)
        .chunk(Chunk::SubmAs2(sub))
        .vert(&l, 12, 0, &verts)
        .ind4(&[0, 1, 2, 2, 1, 3])
        .build()
        .unwrap();
    let doc = meshscope::open("land.ply", bytes);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let c = named(&doc, "SUBM unknown[1] = VERT vertex count");
    assert!(!c.passed && c.basis == Basis::Guess);
    assert_eq!((c.stored.as_str(), c.measured.as_str()), ("9", "4"));
    let failed_description: Vec<_> =
        doc.checks().iter().filter(|c| !c.passed && c.basis == Basis::Description).collect();
    assert!(failed_description.is_empty(), "{failed_description:?}");
}

/// The tangent tail measured on unit vectors: a tangent twice as long as a unit one and
/// normals of length 3 still count as orthogonal; one vertex 30 degrees off is counted.
#[test]
fn the_tangent_tail_check_counts_the_vertices_off_orthogonal() {
    let fvf = 0x112;
    let mut l = Layout::from_fvf(fvf);
    l.fit(48, true);
    let mut verts: Vec<Vertex> = (0..4)
        .map(|k| Vertex {
            position: [k as f32, 0.0, 0.0],
            normal: [0.0, 0.0, 3.0],
            tangent: [2.0, 0.0, 0.0, if k % 2 == 0 { 1.0 } else { -1.0 }],
            ..Default::default()
        })
        .collect();
    let (s, c) = (30f32.to_radians().sin(), 30f32.to_radians().cos());
    verts[3].tangent = [c, 0.0, s, 1.0];
    let m = MeshChunk {
        fvf,
        face_count: 2,
        flags: 0x100,
        textures: vec![b"d".to_vec(), b"b".to_vec()],
        ..Default::default()
    };
    let bytes = Builder::new(Magic::Eply)
        .chunk(Chunk::Mesh(m))
        .vert(&l, 48, 0, &verts)
        .indx(&[0, 1, 2, 2, 1, 3])
        .build()
        .unwrap();
    let doc = meshscope::open("bump.ply", bytes);
    let t = named(&doc, "tail tangent is orthogonal to the normal with sign +-1");
    assert!(!t.passed && t.basis == Basis::Guess);
    assert_eq!(
        t.measured,
        format!("1 of 4 vertices off orthogonal (largest |cos| {s:.4}), 0 with w not +-1, 0 zero-length")
    );
}
