//! Every input a fuzzer ever crashed on is kept under `tests/regressions/` and goes through
//! every entry point: `open`, `open_structure` then `complete` (the same document), attach
//! where the format takes companions, the census, OBJ and glb export and the rewrite. The
//! detected format and the first error's path are pinned per file below, so a change of
//! behaviour shows; a new input without an entry fails with what to add.
use meshscope::census::Census;
use meshscope::export::{gltf::write_glb, obj::write_obj};
use meshscope::{Document, Format};
use std::path::Path;

/// (file, format, path of the first error or "" for none).
const EXPECT: &[(&str, &str, &str)] = &[
    ("frostbite-inline-vertices-without-streams", "frostbite-meshset", "lod[0].section[0].vertex_count"),
    // An error at a field inside a declaration, which the census's decode lays out.
    ("frostbite-stream-stride-0-error-77d7447a", "frostbite-meshset", "lod[0].section[0].material_name_pointer"),
    ("frostbite-stream-stride-0-error-ca7baeae", "frostbite-meshset", "lod[0].section[1].material_name_pointer"),
    // Section records over the LOD record: their fields share extents with its fields, and
    // sort among them as the whole decode sorts them (fuzzing `open`'s laid-out sections).
    ("frostbite-sections-over-the-lod-record-2b616644", "frostbite-meshset", "lod[0].section[1].material_name_pointer"),
    ("frostbite-sections-over-the-lod-record-8b37b3be", "frostbite-meshset", "lod[0].section[0].bone_list_pointer"),
    ("frostbite-sections-over-the-lod-record-d8a24f9c", "frostbite-meshset", "lod[0].section[1].material_name_pointer"),
    ("frostbite-sections-over-the-lod-record-dca016c2", "frostbite-meshset", "lod[0].name_pointer"),
    ("frostbite-sections-over-the-lod-record-e4502083", "frostbite-meshset", "lod[0].section[0].material_name_pointer"),
    ("frostbite-sections-over-the-lod-record-f23c2828", "frostbite-meshset", "lod[0].section[1].material_name_pointer"),
    ("open_any-bare-magic", "gem-ply", ""),
    ("open_any-census-sort-order-1bf93ff9.ply", "gem-ply", "SKIN[1].bone_names[150].text"),
    ("open_any-census-sort-order-687508af.ply", "gem-ply", "SKIN[1].bone_names[207].text"),
    ("open_any-census-sort-order-c9c6edfa.ply", "gem-ply", "SKIN[1].bone_names[251].text"),
    ("open_any-census-sort-order-d3125697.ply", "gem-ply", "SKIN[1].bone_names[264].text"),
    ("open_any-huge-vertex-count", "gem-ply", "VERT.vertices[0]"),
];

fn exercise(name: &str, bytes: &[u8]) -> (Format, String) {
    let doc = meshscope::open(name, bytes.to_vec());
    let s = doc.summary();
    let _ = doc.spans_in(0, s.size);
    // The tree panel's top, made before the whole shape is, then from it.
    let top = doc.tree_json_top(2);
    let _ = doc.tree().len();
    assert_eq!(top, doc.tree_json_top(2), "{name}: the tree's top differs from the whole tree's");
    let mut quick = meshscope::open_structure(name, bytes.to_vec());
    quick.complete();
    same(&doc, &quick, name);
    for lod in &doc.mesh.lods {
        let _ = write_obj(lod, name);
    }
    let _ = write_glb(&doc.mesh, name);
    let _ = doc.rewrite();
    if doc.format == Format::FrostbiteMeshSet {
        // The file as its own companion: by name, and by hand to every LOD.
        let mut d = meshscope::open(name, bytes.to_vec());
        if let Ok(c) = d.attach("c.chunk", bytes.to_vec()) {
            let _ = c.summary();
        }
        let _ = d.attach(&format!("{name}.resmeta"), bytes.to_vec());
        for lod in 0..d.mesh.lods.len() {
            if let Ok(c) = d.attach_to_lod(lod, "c.chunk", bytes.to_vec()) {
                let _ = c.summary();
            }
        }
        let _ = d.summary();
    }
    if doc.format == Format::FrostbiteMeshSet {
        // The census's decode lays the declarations out: expanded, they are the fields, and an
        // error placed at a field inside one is placed as the whole decode places it.
        let full = meshscope::formats::decode(doc.format, name, bytes);
        let lean = meshscope::formats::decode_fields(doc.format, name, bytes);
        assert_eq!(lean.errors, full.errors, "{name}: the census's decode errs elsewhere");
        assert!(meshscope::laid::expand_all(lean.fields.spans, bytes) == full.fields.spans, "{name}: fields differ");
        // `open` lays the section records out too, and answers as the whole decode's document.
        let whole = Document::from_decode(name, doc.format, bytes.to_vec(), full);
        let fresh = meshscope::open(name, bytes.to_vec());
        let end = bytes.len() as u64;
        assert_eq!(fresh.tree_json_top(2), whole.tree_json_top(2), "{name}: tree top");
        assert_eq!(fresh.span_bounds(0, end), whole.span_bounds(0, end), "{name}: colors");
        assert!(fresh.spans_in(0, end) == whole.spans_in(0, end), "{name}: windows");
        assert!(fresh.spans.fixed() == whole.spans.fixed(), "{name}: spans");
    }
    // The census reads the file as whatever it is named for; each name is one decoder.
    let mut census = Census::new();
    for alias in [name, "as.ply", "as.res", "as.chunk"] {
        census.add_file(alias, bytes.to_vec());
    }
    let report = census.report(50);
    assert_eq!(report.files + report.skipped, 4, "{name}: every file is counted or skipped");
    (doc.format, doc.errors.first().map(|e| e.path.clone()).unwrap_or_default())
}

/// Structure first, then completed, is the document `open` gives (the mesh compared as text:
/// a NaN is not equal to itself).
fn same(a: &Document, b: &Document, name: &str) {
    assert!(a.spans.fixed() == b.spans.fixed(), "{name}: spans differ");
    assert!(a.errors == b.errors && a.tree() == b.tree(), "{name}: errors or tree differ");
    assert_eq!(format!("{:?}", a.mesh), format!("{:?}", b.mesh), "{name}: mesh differs");
}

#[test]
fn every_regression_input_goes_through_every_entry_point() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/regressions");
    let mut seen = Vec::new();
    let mut unexpected = Vec::new();
    let mut names: Vec<_> =
        std::fs::read_dir(&dir).expect("tests/regressions exists").map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names.iter().filter(|p| p.extension().is_none_or(|e| e != "md")) {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (format, first) = exercise(&name, &bytes);
        match EXPECT.iter().find(|e| e.0 == name) {
            Some(&(_, f, p)) => assert_eq!((format.name(), first.as_str()), (f, p), "{name}"),
            None => unexpected.push(format!("    (\"{name}\", \"{}\", \"{first}\"),", format.name())),
        }
        seen.push(name);
    }
    assert!(unexpected.is_empty(), "inputs without an expectation; add to EXPECT:\n{}", unexpected.join("\n"));
    for (name, ..) in EXPECT {
        assert!(seen.iter().any(|s| s == name), "{name} is expected but not in {}", dir.display());
    }
}
