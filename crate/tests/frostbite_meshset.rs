//! MeshSets built by the builder, decoded, checked and written back; chunks attached by GUID
//! and by hand. There are no real MeshSets to read: the builder makes every input.

use meshscope::djb2_xor;
use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, Built, TriMesh};
use meshscope::formats::frostbite::{guid, MeshSetDetails};
use meshscope::formats::Format;
use meshscope::{open, Confidence, Document};

fn rigid() -> BuildMesh {
    let mut wood = cube("Props/Wood", 2.0, [0.0, 1.0, 0.0]);
    wood.uv1 = Some(wood.uv0.iter().map(|u| [u[0] * 0.5, u[1] * 0.5]).collect());
    let mut decal = grid("Props/Decal_Sticker", 2, 0.5);
    decal.lists = vec![2];
    let shadow = TriMesh { lists: vec![4], ..cube("Props/ShadowProxy", 2.0, [0.0, 1.0, 0.0]) };
    BuildMesh {
        name: "skate/props/crate_a".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![
            BuildLod { sections: vec![wood, decal, shadow], index_32: false, inline: false },
            BuildLod { sections: vec![grid("Props/Wood", 1, 2.0)], index_32: true, inline: false },
        ],
    }
}

fn skinned(mesh_type: u8, inline: bool) -> BuildMesh {
    let mut body = cube("Char/Body", 1.0, [0.0, 0.0, 0.0]);
    let n = body.positions.len();
    body.joints = (0..n).map(|v| [(v % 3) as u16, 1, 0, 0]).collect();
    body.weights = (0..n).map(|_| [0.75, 0.25, 0.0, 0.0]).collect();
    body.bones = vec![0, 1, 2];
    BuildMesh {
        name: format!("skate/chars/dev_{mesh_type}"),
        mesh_type,
        bone_count: 3,
        lods: vec![
            BuildLod { sections: vec![body.clone()], index_32: false, inline },
            BuildLod { sections: vec![body], index_32: true, inline: false },
        ],
    }
}

/// Opens the built resource and attaches every chunk by its GUID name (32-hex form).
fn open_built(b: &Built, name: &str) -> (Document, Vec<Document>) {
    let mut doc = open(name, b.resource.clone());
    let mut chunks = Vec::new();
    for (g, c) in &b.chunks {
        chunks.push(doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches"));
    }
    (doc, chunks)
}

fn details(doc: &Document) -> &MeshSetDetails {
    doc.details.get::<MeshSetDetails>().unwrap_or_else(|| panic!("not a MeshSet"))
}

#[test]
fn built_meshsets_are_detected_and_decode_without_errors() {
    for (bm, name) in [
        (rigid(), "crate.res"),
        (skinned(1, false), "sk.res"),
        (skinned(2, false), "co.res"),
        (skinned(1, true), "dev.res"),
    ] {
        let b = build(&bm);
        let (doc, chunks) = open_built(&b, name);
        assert_eq!(doc.format, Format::FrostbiteMeshSet, "{name}");
        assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
        for c in &chunks {
            assert_eq!(c.format, Format::FrostbiteChunk);
            assert!(c.errors.is_empty(), "{name}: {:?}", c.errors);
        }
        let failed: Vec<_> = doc.checks().iter().filter(|c| !c.passed).collect();
        assert!(failed.is_empty(), "{name}: {failed:?}");
        let m = details(&doc);
        assert_eq!(m.header.name, bm.name);
        assert_eq!(m.lods.len(), bm.lods.len());
        // The detector looks at the bytes, not the name.
        assert_eq!(open("whatever.bin", b.resource.clone()).format, Format::FrostbiteMeshSet);
    }
}

#[test]
fn the_census_decode_gives_the_same_fields_and_errors_without_the_checks() {
    let mut cut = build(&rigid()).resource;
    cut.truncate(cut.len() * 2 / 3); // errors too, not only fields
    for bytes in [build(&rigid()).resource, build(&skinned(1, true)).resource, cut] {
        let full = meshscope::formats::decode(Format::FrostbiteMeshSet, "m.res", &bytes);
        let lean = meshscope::formats::decode_fields(Format::FrostbiteMeshSet, "m.res", &bytes);
        assert!(
            lean.checks.len() < full.checks.len() && lean.facts.is_empty() && !full.facts.is_empty(),
            "what only a person reads is left out (the pointer errors stay, not their checks)"
        );
        assert!(lean.checks.is_empty(), "{:?}", lean.checks);
        assert!(lean.fields.spans.len() < full.fields.spans.len(), "declarations are laid out");
        assert_eq!(meshscope::laid::expand_all(lean.fields.spans, &bytes), full.fields.spans);
        assert_eq!(lean.fields.records, full.fields.records);
        assert_eq!(lean.fields.regions.len(), full.fields.regions.len());
        assert_eq!(lean.errors, full.errors);
    }
}

#[test]
fn written_back_byte_for_byte_with_metadata() {
    for bm in [rigid(), skinned(1, false), skinned(2, false), skinned(1, true)] {
        let b = build(&bm);
        let doc = open("x.res", b.resource.clone());
        let w = doc.rewrite().unwrap().unwrap();
        assert_eq!(w, b.resource, "{}", bm.name);
        let m = details(&doc);
        assert_eq!(meshscope::formats::frostbite::relocation::meta_bytes(m.resmeta_computed), b.resmeta);
        // Metadata fields mean what they say: the table sits at its offset, the trailing
        // bytes end the file.
        let [off, len, trail, zero] = m.resmeta_computed;
        assert_eq!(zero, 0);
        // Trailing bytes follow the table's padding to 16; without them the file ends at the table.
        let table_end = off as usize + len as usize;
        let padded = if trail == 0 { table_end } else { table_end.div_ceil(16) * 16 };
        assert_eq!(padded + trail as usize, b.resource.len());
        assert_eq!(len as usize, 4 * m.relocation.len());
    }
}

/// The bytes of a section record that no field describes are written back as the file holds
/// them: another writer may leave anything there.
#[test]
fn undescribed_section_bytes_are_written_back() {
    use meshscope::formats::frostbite::section;
    use meshscope::laid::Layout;
    for bm in [rigid(), skinned(1, false)] {
        let mut bytes = build(&bm).resource;
        let at: Vec<u64> = details(&open("x.res", bytes.clone())).section_at.iter().flatten().copied().collect();
        assert!(!at.is_empty(), "{}", bm.name);
        let mut changed = 0;
        for (k, &s) in at.iter().enumerate() {
            for &(from, to) in section::LAYOUT.gaps() {
                for o in from..to {
                    let b = &mut bytes[s as usize + o as usize];
                    *b = (o as u8).wrapping_mul(7).wrapping_add(k as u8) | 1;
                    changed += 1;
                }
            }
        }
        assert_eq!(changed, at.len() * 82, "the section record leaves 82 bytes undescribed");
        let doc = open("x.res", bytes.clone());
        assert!(doc.errors.is_empty(), "{}: {:?}", bm.name, doc.errors);
        assert_eq!(doc.rewrite().unwrap().unwrap(), bytes, "{}", bm.name);
    }
}

#[test]
fn record_layout_follows_the_description() {
    let b = build(&rigid());
    let r = &b.resource;
    let u32at = |o: usize| u32::from_le_bytes(r[o..o + 4].try_into().unwrap());
    let u64at = |o: usize| u64::from_le_bytes(r[o..o + 8].try_into().unwrap());
    assert_eq!((u32at(0), u32at(4), u32at(8)), (0xc0, 0xb0, 384));
    assert_eq!(u16::from_le_bytes([r[0xb4], r[0xb5]]), 2);
    // LOD 0 right after the 0xd0 header; pointers are relative to byte 16.
    assert_eq!(u64at(0x30) + 16, 0xd0);
    assert_eq!(u64at(0x38) + 16, 0xd0 + 0xb0);
    // The name: pointer at 0x68, hash at 0x78, the last part at 0x70.
    let name_at = (u64at(0x68) + 16) as usize;
    assert_eq!(&r[name_at..name_at + 19], b"skate/props/crate_a");
    assert_eq!(u64at(0x70) - u64at(0x68), "skate/props/".len() as u64);
    assert_eq!(u32at(0x78), djb2_xor(b"skate/props/crate_a"));
    // djb2-XOR by hand for a short name: ((5381*33)^'a')*33 ^ 'b'.
    assert_eq!(djb2_xor(b"ab"), ((5381u32 * 33) ^ 97).wrapping_mul(33) ^ 98);
    // Every relocation entry names an 8-byte pointer whose target is inside the file.
    let m = details(&open("x.res", r.clone())).clone();
    for &e in &m.relocation {
        let v = u64at(e as usize + 16);
        assert!(v + 16 < r.len() as u64);
    }
    // Sections of LOD 0: first section at the section array pointer, 384 bytes each.
    let lod0 = 0xd0;
    let sec = (u64at(lod0 + 0xC) + 16) as usize;
    assert_eq!(sec, 0xd0 + 2 * 0xb0);
    assert_eq!(u32at(lod0 + 8), 3);
    assert_eq!(u32at(sec + 0x2C), 24); // the cube's vertices
    assert_eq!(u32at(sec + 0x20), 12); // and triangles
    assert_eq!(u32at(sec + 0x144), djb2_xor(b"props/wood"));
}

#[test]
fn passes_and_measures() {
    let b = build(&rigid());
    let (doc, _) = open_built(&b, "crate.res");
    let lod = &doc.mesh.lods[0];
    let passes: Vec<Vec<&str>> = lod.sections.iter().map(|s| s.passes.iter().map(|p| p.as_str()).collect()).collect();
    assert_eq!(passes[0], ["main", "depth", "shadow"]);
    assert_eq!(passes[1], ["decals"]);
    assert_eq!(passes[2], ["shadow"]);
    // A 2 m cube: area 24 m^2, UV 0..1 per face of 4 m^2 -> density sqrt(1/4) = 0.5.
    let s = &details(&doc).lods[0].sections[0];
    assert!((s.area - 24.0).abs() < 1e-4, "{}", s.area);
    assert!((s.uv_density[0] - 0.5).abs() < 1e-6);
    assert!((s.uv_density[1] - 0.25).abs() < 1e-6);
    assert_eq!(lod.vertex_count(), 24 + 9 + 24);
    assert_eq!(lod.triangle_count(), 12 + 8 + 12);
    let (lo, hi) = lod.bounds().unwrap();
    assert_eq!((lo, hi), ([-1.0, 0.0, -1.0], [1.0, 2.0, 1.0]));
    // Packed tangent space gave back the cube's face normals and +U tangents.
    assert_eq!(&lod.normals[..3], &[1.0, 0.0, 0.0]);
    assert!((lod.tangents[2] + 1.0).abs() < 1e-6 && lod.tangents[3] == 1.0);
    // Where the geometry lives: the attached chunk, file 1.
    let src = lod.sections[0].vertex_source.unwrap();
    assert_eq!((src.file, src.offset, src.stride), (1, 0, 12));
    let names: Vec<_> = doc.checks().iter().filter(|c| c.name.starts_with("measured")).collect();
    assert!(names.iter().any(|c| c.name.contains("header bounds")));
    // Per section: bounds, area and UV0 density, and UV1 density where it has UV1; then the
    // header's bounds once every LOD is decoded.
    let sections = rigid().lods.iter().flat_map(|l| l.sections.clone()).collect::<Vec<_>>();
    let want = sections.iter().map(|s| 3 + s.uv1.is_some() as usize).sum::<usize>() + 1;
    assert_eq!(want, 3 * 4 + 1 + 1, "by hand: four sections, one with UV1");
    assert_eq!(names.len(), want);
}

#[test]
fn a_changed_stored_value_fails_its_check() {
    let bm = rigid();
    let mut b = build(&bm);
    let mut m = b.details.clone();
    m.lods[0].sections[0].area *= 1.05;
    m.lods[0].sections[0].material_hash ^= 1;
    m.header.name_hash ^= 1;
    b.resource = meshscope::formats::frostbite::write_meshset(&m).unwrap();
    let (doc, _) = open_built(&b, "crate.res");
    let failed: Vec<&str> = doc.checks().iter().filter(|c| !c.passed).map(|c| &*c.name).collect();
    assert_eq!(failed.len(), 3, "{failed:?}");
    assert!(failed.iter().any(|n| n.contains("lod[0].section[0] surface area")));
    assert!(failed.iter().any(|n| n.starts_with("name hash")));
    // Each check links to its stored field: section 0 of LOD 0 follows two 0xb0 LOD records.
    let area = doc.checks().iter().find(|c| c.name.contains("lod[0].section[0] surface area")).unwrap();
    assert_eq!(area.offset, Some(0xd0 + 2 * 0xb0 + 0x14C));
    assert_eq!(
        doc.checks().iter().find(|c| c.name.starts_with("lod[1] name hash")).unwrap().offset,
        Some(0xd0 + 0xb0 + 0xA4)
    );
}

#[test]
fn mesh_type_rule_is_checked() {
    let mut m = build(&rigid()).details;
    m.header.mesh_type = 1; // says skinned, but 0xb0 records and a 0xd0 header
    let bytes = meshscope::formats::frostbite::write_meshset(&m).unwrap();
    let doc = open("x.res", bytes);
    let c = doc.checks().iter().find(|c| c.name == "record forms match the mesh type").unwrap();
    assert!(!c.passed);
    let c = doc.checks().iter().find(|c| c.name.contains("blend indices")).unwrap();
    assert!(!c.passed);
}

#[test]
fn skinned_and_composite_pools() {
    let b = build(&skinned(1, false));
    let (doc, _) = open_built(&b, "sk.res");
    let m = details(&doc);
    assert_eq!(m.header.size(), 0xe0);
    assert_eq!(m.header.lod_bytes, 0xbc);
    assert_eq!(m.lods[0].bone_map, [0, 1, 2]);
    assert_eq!(m.header.bone_bounds.len(), 3); // per bone: no bounded ids
    assert_eq!(doc.mesh.lods[0].joints[..4], [0, 1, 0, 0]);
    assert_eq!(doc.mesh.lods[0].sections[0].bones, ["bone 0", "bone 1", "bone 2"]);
    assert!((doc.mesh.lods[0].weights[0] - 191.0 / 255.0).abs() < 1e-6);
    let b = build(&skinned(2, false));
    let (doc, _) = open_built(&b, "co.res");
    let m = details(&doc);
    assert_eq!(m.header.lod_bytes, 0xb8);
    assert_eq!(m.lods[0].bone_masks.len(), 1);
    assert_eq!(m.lods[0].bone_masks[0][0], 0b111);
    assert_eq!(m.header.bone_ids, [0, 1, 2]);
    // LOD records of 0xb8 bytes occupy 192-byte slots.
    let lod1 = u64::from_le_bytes(b.resource[0x38..0x40].try_into().unwrap()) + 16;
    assert_eq!(lod1, 0xe0 + 192);
}

#[test]
fn inline_geometry_is_read_from_the_trailing_data() {
    let b = build(&skinned(1, true));
    assert_eq!(b.chunks.len(), 1);
    let doc = open("dev.res", b.resource.clone());
    let m = details(&doc);
    assert!(m.lods[0].inline());
    assert_eq!(m.trailing.len(), (m.lods[0].vertex_bytes + m.lods[0].index_bytes + 4) as usize);
    assert_eq!(doc.mesh.lods[0].vertex_count(), 24);
    assert_eq!(doc.mesh.lods[0].sections[0].vertex_source.unwrap().file, 0);
    assert!(doc.mesh.lods[1].positions.is_empty(), "LOD 1 waits for its chunk");
    assert!(doc.spans.regions().iter().any(|r| r.path == "trailing.lod[0].section[0].stream[0]"));
    assert_eq!(m.header.layout_flags & 1, 0);
    // Inline geometry stopped by a resource field: the error is at that field.
    let mut m2 = m.clone();
    m2.lods[0].index_format = 0x22;
    let doc = open("dev.res", meshscope::formats::frostbite::write_meshset(&m2).unwrap());
    let e = doc.errors.iter().find(|e| e.path == "lod[0].index_format").unwrap_or_else(|| panic!("{:?}", doc.errors));
    assert_eq!(Some(e.offset), doc.spans.fixed().iter().find(|s| s.path == "lod[0].index_format").map(|s| s.start));
}

#[test]
fn several_inline_lods_follow_each_other_in_the_trailing_data() {
    // The stock file has one inline LOD; the builder can make more, each with its own
    // buffers and padding in LOD order, and the decoder must find each where it was put.
    let mut b = skinned(1, true);
    b.lods.push(b.lods[0].clone());
    b.lods[1].inline = true;
    b.lods[2].sections[0] = grid("Char/Body", 3, 0.25);
    let built = build(&b);
    assert!(built.chunks.is_empty());
    let doc = open("dev.res", built.resource.clone());
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert!(doc.checks().iter().all(|c| c.passed), "{:?}", doc.checks().iter().find(|c| !c.passed));
    assert_eq!(doc.mesh.lods.iter().map(|l| l.vertex_count()).collect::<Vec<_>>(), [24, 24, 16]);
    let pads: Vec<u64> = doc
        .spans
        .fixed()
        .iter()
        .filter(|s| s.path.starts_with("trailing.lod") && s.path.ends_with(".padding"))
        .map(|s| s.start)
        .collect();
    assert_eq!(pads.len(), 3, "one four-byte padding after each inline LOD");
    assert_eq!(*pads.last().unwrap() + 4, built.resource.len() as u64);
    assert_eq!(doc.rewrite().unwrap().unwrap(), built.resource);
}

#[test]
fn chunks_attach_by_text_guid_or_by_hand() {
    let b = build(&rigid());
    let mut doc = open("crate.res", b.resource.clone());
    let (g, c) = &b.chunks[1];
    let chunk = doc.attach(&format!("{}.chunk", guid::text(g)), c.clone()).unwrap();
    assert_eq!(doc.attached.len(), 1);
    assert!(chunk.spans.regions().iter().any(|r| r.path == "lod[1].section[0].indices" && r.stride == 4));
    assert_eq!(doc.mesh.lods[1].triangle_count(), 2);
    // By hand: a name without a GUID, attached to LOD 0.
    let (_, c0) = &b.chunks[0];
    let chunk = doc.attach_to_lod(0, "mystery.bin", c0.clone()).unwrap();
    assert!(chunk.errors.is_empty());
    assert_eq!(doc.mesh.lods[0].sections[0].vertex_source.unwrap().file, 2);
    // A chunk no LOD names is refused.
    assert!(doc.attach(&format!("{}.chunk", "ab".repeat(16)), c0.clone()).is_err());
    // Stream regions: one element per declared element, with the usage table's confidence.
    let r = chunk.spans.regions().iter().find(|r| r.path == "lod[0].section[0].stream[1]").unwrap();
    let names: Vec<_> = r.elems.iter().map(|e| (e.name.as_str(), e.confidence)).collect();
    assert_eq!(
        names,
        [
            ("packed_tangent_space", Confidence::Observed),
            ("texcoord0", Confidence::Observed),
            ("texcoord1", Confidence::Observed)
        ]
    );
}

#[test]
fn resmeta_is_read_and_checked() {
    let b = build(&rigid());
    let mut doc = open("crate.res", b.resource.clone());
    doc.attach("crate.res.resmeta", b.resmeta.to_vec()).unwrap();
    let c = doc.checks().iter().find(|c| c.name.starts_with("resource metadata")).unwrap();
    assert!(c.passed);
    let mut bad = b.resmeta;
    bad[0] ^= 0x10;
    doc.attach("crate.res.resmeta", bad.to_vec()).unwrap();
    assert!(!doc.checks().iter().rev().find(|c| c.name.starts_with("resource metadata")).unwrap().passed);
}

#[test]
fn spans_carry_the_description_confidence() {
    let b = build(&rigid());
    let doc = open("crate.res", b.resource.clone());
    let at =
        |p: &str| doc.spans.fixed().iter().find(|s| s.path == p).unwrap_or_else(|| panic!("{p}")).shown(&doc.bytes);
    assert_eq!(at("header.lod_count").confidence, Confidence::Proven);
    assert_eq!(at("header.unknown_0c").confidence, Confidence::Unknown);
    assert_eq!(at("header.name_hash").confidence, Confidence::Observed);
    assert_eq!(at("lod[0].section_count").start, 0xd0 + 8);
    assert_eq!(at("lod[0].section[2].vertex_count").confidence, Confidence::Proven);
    assert_eq!(at("lod[0].section[0].stored_declaration.element[3].format").value, "0x06 (Half2)");
    assert_eq!(at("lod[0].section[0].flags").confidence, Confidence::Observed);
    assert!(at("pool.strings[0]").value == "Props/Wood");
    // Undescribed header bytes (0x7E..0xA8) stay uncovered.
    assert!(doc.span_at(0x80).is_none());
    assert!(doc.spans_in(0, b.resource.len() as u64).iter().any(|s| s.path == "relocation[5]"));
}
