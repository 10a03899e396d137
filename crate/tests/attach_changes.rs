//! Attaching a companion through the format's `attach`: it reads the parent document and
//! returns what it adds, and the document applies exactly that, leaving the rest of itself
//! as it was.

use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, Built};
use meshscope::formats::frostbite::{guid, MeshSetDetails};
use meshscope::formats::{self, Format};
use meshscope::model::Check;
use meshscope::{open, Document};

/// A rigid MeshSet of two LODs, each in a chunk: a cube, then a one-quad grid.
fn two_lods() -> Built {
    let lod = |t| BuildLod { sections: vec![t], index_32: false, inline: false };
    build(&BuildMesh {
        name: "skate/attach/two".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![lod(cube("A", 1.0, [0.0; 3])), lod(grid("B", 1, 1.0))],
    })
}

fn details(doc: &Document) -> &MeshSetDetails {
    doc.details.get::<MeshSetDetails>().unwrap_or_else(|| panic!("{} is not a MeshSet", doc.name))
}

fn names(checks: &[Check]) -> Vec<&str> {
    checks.iter().map(|c| &*c.name).collect()
}

#[test]
fn a_chunk_attached_to_one_lod_changes_that_lod_its_checks_and_nothing_else() {
    let b = two_lods();
    let mut doc = open("two.res", b.resource.clone());
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let before_spans = doc.spans.fixed().to_vec();
    let before_mesh = doc.mesh.clone();
    let before_checks = doc.checks().to_vec();
    assert_eq!(details(&doc).chunk_found, [false, false]);
    assert!(!names(&before_checks).iter().any(|n| n.starts_with("measured lod[1]")));

    // The format's answer, from a read-only view of the document.
    let chunk1 = &b.chunks[1].1;
    let a = formats::attach(&doc.as_parent(), Some(1), "far.bin", chunk1).expect("attaches");
    assert_eq!(a.format, Format::FrostbiteChunk);
    let p = &a.parent;
    assert!(p.redecode.is_none() && p.errors.is_empty() && p.listed);
    let lod = p.lod.as_ref().expect("a LOD's geometry");
    // The grid of one quad: 4 vertices, 2 triangles, indices into this chunk (file 1).
    assert_eq!((lod.index, lod.lod.vertex_count(), lod.lod.triangle_count()), (1, 4, 2));
    assert_eq!(lod.lod.sections[0].vertex_source.unwrap().file, 1);
    let Some(now) = p.details.as_ref().and_then(|d| d.get::<MeshSetDetails>()) else { panic!("new details") };
    assert_eq!(now.chunk_found, [false, true]);
    // The parent's checks, unchanged and in order, then LOD 1's measured ones (no GUID in the
    // name, so no GUID check).
    let checks = p.checks.as_ref().expect("the parent's checks");
    let kept: Vec<&Check> = checks.iter().filter(|c| !c.name.starts_with("measured lod[1]")).collect();
    assert_eq!(kept, before_checks.iter().collect::<Vec<_>>());
    assert_eq!(
        names(checks).into_iter().filter(|n| n.starts_with("measured lod[1]")).collect::<Vec<_>>(),
        [
            "measured lod[1].section[0] bounds",
            "measured lod[1].section[0] surface area",
            "measured lod[1].section[0] uv0 texel density"
        ]
    );
    assert!(checks.iter().all(|c| c.passed), "{checks:?}");

    // Applied by the document: exactly those changes.
    let expected_lod = lod.lod.clone();
    let expected_checks = checks.clone();
    let c = doc.attach_to_lod(1, "far.bin", chunk1.clone()).expect("attaches");
    assert_eq!(c.format, Format::FrostbiteChunk);
    assert_eq!(doc.attached, ["far.bin"]);
    assert_eq!(doc.mesh.lods[0], before_mesh.lods[0], "LOD 0 is left as it was");
    assert_eq!(doc.mesh.lods[1], expected_lod);
    assert_eq!(doc.checks(), expected_checks);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert_eq!(doc.spans.fixed(), &before_spans[..], "the MeshSet's own spans are untouched");
    assert_eq!(details(&doc).chunk_found, [false, true]);

    // The second chunk, by its GUID name: file 2, and LOD 1 stays what the first gave it.
    let (g0, c0) = &b.chunks[0];
    let name0 = format!("{}.chunk", guid::hex(g0));
    let c = doc.attach(&name0, c0.clone()).expect("attaches");
    assert!(c.checks()[0].passed && c.checks()[0].name == "attached chunk's GUID is lod[0]'s");
    assert_eq!(doc.attached, ["far.bin".to_string(), name0]);
    assert_eq!(doc.mesh.lods[0].sections[0].vertex_source.unwrap().file, 2);
    assert_eq!((doc.mesh.lods[0].vertex_count(), doc.mesh.lods[0].triangle_count()), (24, 12));
    assert_eq!(doc.mesh.lods[1], expected_lod);
    assert_eq!(doc.checks()[0].name, "attached chunk's GUID is lod[0]'s");
    assert_eq!(details(&doc).chunk_found, [true, true]);
    assert!(names(doc.checks()).contains(&"measured header bounds (over every LOD's decoded positions)"));
}

#[test]
fn a_refused_attach_changes_nothing() {
    let b = two_lods();
    let mut doc = open("two.res", b.resource.clone());
    let (spans, mesh, checks) = (doc.spans.fixed().to_vec(), doc.mesh.clone(), doc.checks().to_vec());
    assert!(doc.attach_to_lod(2, "x.bin", b.chunks[0].1.clone()).is_err());
    assert!(doc.attach("a.res.resmeta", vec![0; 9]).is_err());
    assert!(doc.attach(&format!("{}.chunk", "ab".repeat(16)), b.chunks[0].1.clone()).is_err());
    assert_eq!((doc.spans.fixed(), &doc.mesh, doc.checks()), (&spans[..], &mesh, &checks[..]));
    assert!(doc.attached.is_empty());
}

#[test]
fn metadata_where_the_table_was_found_adds_its_check_without_decoding_again() {
    let b = two_lods();
    let mut doc = open("two.res", b.resource.clone());
    let (spans, mesh, checks) = (doc.spans.fixed().to_vec(), doc.mesh.clone(), doc.checks().to_vec());
    let a = formats::attach(&doc.as_parent(), None, "two.res.resmeta", &b.resmeta).expect("attaches");
    assert_eq!(a.format, Format::Unknown);
    assert!(a.parent.redecode.is_none() && a.parent.lod.is_none() && !a.parent.listed);
    let spans_of: Vec<&str> = a.companion.fields.spans.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(spans_of, ["resmeta.table_offset", "resmeta.table_bytes", "resmeta.trailing_bytes", "resmeta.zero"]);
    doc.attach("two.res.resmeta", b.resmeta.to_vec()).expect("attaches");
    assert!(doc.attached.is_empty(), "the metadata has no spans in the mesh");
    assert_eq!((doc.spans.fixed(), &doc.mesh), (&spans[..], &mesh));
    let added: Vec<&Check> = doc.checks().iter().filter(|c| !checks.contains(c)).collect();
    assert_eq!(names(&doc.checks()[..checks.len()]), names(&checks));
    assert_eq!(added.len(), 1);
    assert_eq!(added[0].name, "resource metadata {table offset, table bytes, trailing bytes, 0}");
    assert!(added[0].passed);
    let stored: [u32; 4] = std::array::from_fn(|k| u32::from_le_bytes(b.resmeta[4 * k..4 * k + 4].try_into().unwrap()));
    assert_eq!(details(&doc).resmeta_stored, Some(stored));
}
