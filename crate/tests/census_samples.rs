//! The real `.ply` samples censused together: the counts the census gives are compared with
//! counts this test reads from the files' bytes itself (the VERT chunk's vertex_count and
//! vertex_size, the magic, the file sizes). Skipped when the samples folder is missing.

mod common;

use meshscope::census::report::{EntryReport, Shown};
use meshscope::census::Census;
use std::collections::BTreeMap;

/// vertex_count and vertex_size after the first `VERT` FourCC (spec: VERT, int32, uint16).
fn vert(b: &[u8]) -> (u64, u64) {
    let at = b.windows(4).position(|w| w == b"VERT").expect("a VERT chunk") + 4;
    let count = u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let size = u16::from_le_bytes(b[at + 4..at + 6].try_into().unwrap());
    (count as u64, size as u64)
}

fn dist(e: &EntryReport) -> BTreeMap<String, u64> {
    e.values.iter().map(|v| (v.value.to_string(), v.count)).collect()
}

fn tally<T: ToString>(xs: impl Iterator<Item = T>) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for x in xs {
        *m.entry(x.to_string()).or_insert(0) += 1;
    }
    m
}

#[test]
fn the_samples_censused_together_match_counts_read_from_the_bytes() {
    let Some(files) = common::gem_ply_samples() else { return };
    assert_eq!(files.len(), 6);
    for (name, bytes) in &files {
        let doc = meshscope::open(name, bytes.clone());
        assert_eq!(doc.format, meshscope::Format::GemPly, "{name} opens as a .ply");
        assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
    }
    let mut c = Census::new();
    for (name, bytes) in &files {
        c.add_file(name, bytes.clone());
    }
    let r = c.report(1000);
    assert_eq!(r.files, 6);
    assert_eq!(r.bytes, files.iter().map(|f| f.1.len() as u64).sum::<u64>());

    let size = r.entries.iter().find(|e| e.kind == "size" && e.record == "(file)").expect("file sizes");
    assert_eq!(dist(size), tally(files.iter().map(|f| f.1.len())));

    let magic =
        r.entries.iter().find(|e| e.kind == "field" && e.values.iter().any(|v| v.value == Shown::Text("EPLY".into())));
    let magic = magic.expect("a field holding the magic");
    assert_eq!(dist(magic), tally(files.iter().map(|f| String::from_utf8_lossy(&f.1[..4]).into_owned())));

    let verts: Vec<(u64, u64)> = files.iter().map(|f| vert(&f.1)).collect();
    let count = r
        .entries
        .iter()
        .find(|e| e.kind == "field" && e.path.ends_with("vertex_count") && e.record.starts_with("VERT"));
    let count = count.expect("VERT vertex_count");
    assert_eq!(dist(count), tally(verts.iter().map(|v| v.0)));
    assert_eq!((count.min, count.max), (Some(4.0), Some(16911.0)));
    let vsize =
        r.entries.iter().find(|e| e.kind == "field" && e.path.ends_with("vertex_size") && e.record.starts_with("VERT"));
    assert_eq!(dist(vsize.expect("VERT vertex_size")), tally(verts.iter().map(|v| v.1)));
    // Each file's vertex array region has vertex_count elements: the census relates them.
    assert!(
        count.equals.iter().any(|e| e.starts_with("element count of")),
        "vertex_count equals its region's element count: {:?}",
        count.equals
    );
}
