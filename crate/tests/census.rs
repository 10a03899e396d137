//! The census on synthetic sets: documents built from `span::Fields` by a small writer, in
//! which chosen fields, gaps and Unknown bytes take known distributions. The expected counts
//! are computed here from the generator's rules, not read back from the census.

use meshscope::census::report::{EntryReport, Shown};
use meshscope::census::{Census, CensusFile};
use meshscope::document::Decode;
use meshscope::formats::Format;
use meshscope::span::{Confidence, Elem, Fields, Region};

/// Writes bytes and records spans as it goes; `gap` writes bytes no span covers.
#[derive(Default)]
struct W {
    bytes: Vec<u8>,
    f: Fields,
}

impl W {
    fn at(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn u32(&mut self, path: &str, v: u32, c: Confidence) {
        self.f.add(self.at(), 4, path, "u32", v.to_string(), c, "");
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn u8(&mut self, path: &str, v: u8, c: Confidence) {
        self.f.add(self.at(), 1, path, "u8", v.to_string(), c, "");
        self.bytes.push(v);
    }
    fn gap(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }
    fn doc(self, name: &str) -> CensusFile {
        let d = Decode { fields: self.f, ..Decode::default() };
        CensusFile::from_decode(name, Format::FrostbiteMeshSet, self.bytes, d)
    }
}

fn show(_: &[u8]) -> String {
    String::new()
}

/// The generator's rules for file `i`.
fn mesh_type(i: u32) -> u8 {
    if i % 10 < 7 {
        0
    } else if i % 10 < 9 {
        1
    } else {
        2
    }
}
fn byte_11(i: u32) -> u8 {
    if i % 25 == 3 {
        5
    } else {
        3
    }
}
fn lod_count(i: u32) -> u32 {
    1 + i % 3
}
fn section_count(i: u32, k: u32) -> u32 {
    (i + k) % 4 + 1
}
fn vert_count(i: u32) -> u32 {
    3 + i % 5
}

/// Header 0x18 bytes, `lod_count` LOD records of 0x10, their sections (8 bytes each), then
/// a VERT record with a region of `vert_count` 12-byte vertices.
fn build(i: u32) -> CensusFile {
    let mut w = W::default();
    let lods = lod_count(i);
    w.u32("header.size", 0x18, Confidence::Proven);
    w.u32("header.lod_bytes", 0x10, Confidence::Proven);
    w.u32("header.lod_count", lods, Confidence::Proven);
    w.u32("header.unknown_0c", i % 3, Confidence::Unknown);
    w.u8("header.mesh_type", mesh_type(i), Confidence::Observed);
    w.gap(&[byte_11(i), 0, 0]);
    w.u32("header.hash", i * 7, Confidence::Observed);
    for k in 0..lods {
        w.u32(&format!("lod[{k}].section_count"), section_count(i, k), Confidence::Proven);
        w.u32(&format!("lod[{k}].flags"), 0x40, Confidence::Observed);
        w.u32(&format!("lod[{k}].end"), 0, Confidence::Inferred);
        w.gap(&0xdead_beefu32.to_le_bytes());
    }
    for k in 0..lods {
        for j in 0..section_count(i, k) {
            let p = format!("lod[{k}].section[{j}]");
            // Section records are declared, with a first field at +2 (as a MeshSet
            // section's is at +8): offsets count from the declared start.
            w.f.record(p.clone(), w.at(), 10);
            w.gap(&[0x77, 0x77]);
            w.u32(&format!("{p}.vertex_count"), vert_count(i), Confidence::Proven);
            w.u8(&format!("{p}.kind"), (j % 2) as u8, Confidence::Inferred);
            w.u8(&format!("{p}.pad"), 0, Confidence::Observed);
            w.gap(&[j as u8, 0xaa]);
        }
    }
    let n = vert_count(i);
    w.u32("VERT.count", n, Confidence::Proven);
    let start = w.at();
    w.f.add_region(Region {
        start,
        stride: 12,
        count: n as u64,
        path: "VERT.vertices".into(),
        elems: vec![Elem {
            offset: 0,
            len: 12,
            name: "position".into(),
            ty: "f32[3]".into(),
            confidence: Confidence::Proven,
            note: "".into(),
            format: show,
        }],
    });
    w.gap(&vec![0x11; 12 * n as usize]);
    w.doc(&format!("file{i:03}.bin"))
}

const N: u32 = 50;

fn census() -> Vec<EntryReport> {
    let mut c = Census::new();
    for i in 0..N {
        let d = build(i);
        c.add(&d);
    }
    c.report(1000).entries
}

fn entry<'a>(es: &'a [EntryReport], kind: &str, path: &str, ty: &str) -> &'a EntryReport {
    es.iter()
        .find(|e| e.kind == kind && e.path == path && e.ty == ty)
        .unwrap_or_else(|| panic!("no {kind} entry {path} ({ty})"))
}

/// (value, count) pairs of an entry, in the report's order.
fn counts(e: &EntryReport) -> Vec<(String, u64)> {
    e.values.iter().map(|v| (v.value.to_string(), v.count)).collect()
}

/// Expected (value, count) from a rule over files, most frequent first, ties by value.
fn expect(values: impl Iterator<Item = u64>) -> Vec<(String, u64)> {
    let mut m = std::collections::BTreeMap::new();
    for v in values {
        *m.entry(v).or_insert(0u64) += 1;
    }
    let mut out: Vec<(u64, u64)> = m.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out.into_iter().map(|(v, n)| (v.to_string(), n)).collect()
}

#[test]
fn fields_take_their_generated_distributions() {
    let es = census();
    let mt = entry(&es, "field", "header.mesh_type", "u8");
    assert_eq!(counts(mt), expect((0..N).map(|i| mesh_type(i) as u64)));
    assert_eq!(counts(mt), [("0".to_string(), 35), ("1".to_string(), 10), ("2".to_string(), 5)]);
    assert_eq!((mt.files, mt.records, mt.offset, mt.constant), (50, 50, Some(0x10), false));
    assert_eq!((mt.min, mt.max), (Some(0.0), Some(2.0)));

    // Folded paths: one entry for every section of every LOD.
    let sections: u32 = (0..N).map(|i| (0..lod_count(i)).map(|k| section_count(i, k)).sum::<u32>()).sum();
    let kind = entry(&es, "field", "lod[*].section[*].kind", "u8");
    assert_eq!(kind.records, sections as u64);
    assert_eq!(kind.record, "lod[*].section[*]");
    assert_eq!(kind.offset, Some(6));
    let flags = entry(&es, "field", "lod[*].flags", "u32");
    assert!(flags.constant);
    assert_eq!(flags.records, (0..N).map(lod_count).sum::<u32>() as u64);

    let hash = entry(&es, "field", "header.hash", "u32");
    assert_eq!(hash.distinct, N as u64, "every file has its own hash");
    assert_eq!(hash.values[0].at[0].file, "file000.bin");
    assert_eq!(hash.values[0].at[0].offset, 0x14);
}

#[test]
fn unexplained_bytes_are_counted_per_record_offset() {
    let es = census();
    // header +0x11..+0x13: uncovered, not 4-aligned in the record: bytes.
    let b11 = entry(&es, "uncovered", "header+0x11", "u8");
    assert_eq!(counts(b11), expect((0..N).map(|i| byte_11(i) as u64)));
    assert_eq!(counts(b11), [("3".to_string(), 48), ("5".to_string(), 2)]);
    let where5 = &b11.values[1].at;
    assert_eq!(where5.iter().map(|p| p.file.as_str()).collect::<Vec<_>>(), ["file003.bin", "file028.bin"]);
    assert_eq!(where5[0].offset, 0x11);
    assert_eq!(where5[0].record, "header");
    assert!(entry(&es, "uncovered", "header+0x12", "u8").constant);
    // The Unknown span at +0x0C is a whole aligned word.
    let u = entry(&es, "unknown", "header+0x0c", "u32");
    assert_eq!(counts(u), expect((0..N).map(|i| (i % 3) as u64)));
    // The LOD records' undescribed last word: a record in an array owns the bytes up to the
    // next element; the last element takes the stride of the one before, a lone one the
    // stride last seen for its kind. File 0 has one LOD and nothing seen before: lost.
    assert_eq!(lod_count(0), 1);
    let dead = entry(&es, "uncovered", "lod[*]+0x0c", "u32");
    assert!(dead.constant);
    assert_eq!(counts(dead)[0].0, 0xdead_beefu32.to_string());
    assert_eq!(dead.records, (1..N).map(lod_count).sum::<u32>() as u64);
    // Sections are declared 10 bytes: +0 and +1 are uncovered 0x77 (a whole word does not
    // fit before the first field at +2), +8 is j, +9 is 0xaa. No stride needed.
    let s8 = entry(&es, "uncovered", "lod[*].section[*]+0x08", "u8");
    let js = (0..N).flat_map(|i| (0..lod_count(i)).flat_map(move |k| 0..section_count(i, k)));
    assert_eq!(counts(s8), expect(js.map(u64::from)));
    assert!(entry(&es, "uncovered", "lod[*].section[*]+0x00", "u8").constant);
    // The vertex region is covered by its elements: no unexplained bytes there, and no
    // entries past the records.
    assert!(!es.iter().any(|e| e.record == "VERT" && e.kind == "uncovered"));
    let unexplained: Vec<_> =
        es.iter().filter(|e| e.kind == "uncovered" || e.kind == "unknown").map(|e| e.path.as_str()).collect();
    assert_eq!(
        unexplained,
        [
            "header+0x0c",
            "header+0x11",
            "header+0x12",
            "header+0x13",
            "lod[*]+0x0c",
            "lod[*].section[*]+0x00",
            "lod[*].section[*]+0x01",
            "lod[*].section[*]+0x08",
            "lod[*].section[*]+0x09"
        ]
    );
}

#[test]
fn counts_sizes_and_regions() {
    let es = census();
    let lods = entry(&es, "count", "lod[*]", "count");
    assert_eq!(counts(lods), expect((0..N).map(|i| lod_count(i) as u64)));
    let secs = entry(&es, "count", "lod[*].section[*]", "count");
    let per_lod = (0..N).flat_map(|i| (0..lod_count(i)).map(move |k| section_count(i, k) as u64));
    assert_eq!(counts(secs), expect(per_lod));
    // LOD records are 16 bytes with their undescribed tail, 12 without (file 0's lone LOD).
    let size = entry(&es, "size", "lod[*]", "size");
    assert_eq!(counts(size), [("16".to_string(), (1..N).map(lod_count).sum::<u32>() as u64), ("12".to_string(), 1)]);
    let ssize = entry(&es, "size", "lod[*].section[*]", "size");
    assert!(ssize.constant && ssize.values[0].value == Shown::Number(10), "a declared extent is the size");
    let rc = entry(&es, "region.count", "VERT.vertices", "count");
    assert_eq!(counts(rc), expect((0..N).map(|i| vert_count(i) as u64)));
    assert!(entry(&es, "region.stride", "VERT.vertices", "stride").constant);
}

#[test]
fn relations_find_fields_equal_to_counts_and_fields() {
    let es = census();
    let mut c = Census::new();
    for i in 0..N {
        c.add(&build(i));
    }
    let rels = c.report(10).relations;
    let has = |p: &str, eq: &str| rels.iter().any(|r| r.path == p && r.equals == eq);
    assert!(has("header.lod_count", "count of lod[*]"), "{rels:#?}");
    assert!(has("lod[*].section_count", "count of lod[*].section[*]"));
    assert!(has("VERT.count", "element count of VERT.vertices"));
    assert!(has("VERT.count", "lod[*].section[*].vertex_count") || has("lod[*].section[*].vertex_count", "VERT.count"));
    // Constant fields are constant, not related: header.lod_bytes is always 16 like the
    // LOD size, and is not listed.
    assert!(!rels.iter().any(|r| r.path == "header.lod_bytes"));
    // mesh_type varies on its own: related to nothing.
    assert!(!rels.iter().any(|r| r.path == "header.mesh_type"));
    let e = entry(&es, "field", "lod[*].section_count", "u32");
    assert_eq!(e.equals, ["count of lod[*].section[*]"]);
}

#[test]
fn lookup_by_record_kind_and_offset() {
    let mut c = Census::new();
    for i in 0..N {
        c.add(&build(i));
    }
    let at = |rec: &str, off: u64| c.lookup(rec, off, 5).into_iter().map(|e| (e.kind, e.path)).collect::<Vec<_>>();
    assert_eq!(at("header", 0x11), [("uncovered", "header+0x11".to_string())]);
    assert_eq!(
        at("header", 0x0e),
        [("field", "header.unknown_0c".to_string()), ("unknown", "header+0x0c".to_string())]
    );
    assert_eq!(at("lod[*].section[*]", 6), [("field", "lod[*].section[*].kind".to_string())]);
    assert_eq!(at("lod[*].section[*]", 1), [("uncovered", "lod[*].section[*]+0x01".to_string())]);
    assert!(at("lod[*]", 0x40).is_empty());
}

#[test]
fn distinct_values_past_the_cap_are_a_tail() {
    let mut c = Census::new();
    for i in 0..1100u32 {
        let mut w = W::default();
        w.u32("header.id", i, Confidence::Observed);
        w.u32("header.kind", i % 2, Confidence::Observed);
        c.add(&w.doc("f"));
    }
    let r = c.report(1000);
    let id = entry(&r.entries, "field", "header.id", "u32");
    assert_eq!(id.values.len(), 1000);
    assert_eq!(id.distinct, 1024);
    let t = id.tail.as_ref().expect("a tail");
    assert!(t.capped);
    assert_eq!(t.records, 100, "24 kept past the list and 76 never kept");
    assert_eq!((id.min, id.max), (Some(0.0), Some(1099.0)), "min and max see the tail too");
    assert_eq!(r.files, 1100);
}
