//! What the page shows stays byte for byte the same: for the real samples and for builder
//! files, every span of the whole file with its value text (`spans_in`), the tree with every
//! region's items (`region_items`), and the summary (checks, facts, coverage, errors) are
//! serialized as the page receives them (the same serde structures) and their SHA-256 is
//! compared with the one recorded in `golden/page_output.sha256`. The builder files are made
//! here from fixed seeds; the samples' digests are stored, not the samples.
//!
//! After a change that means to alter what the page shows, regenerate the digests with
//! `MESHSCOPE_BLESS=1 cargo test -q --test page_output` and say why in the commit.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::document::Document;
use meshscope::formats::frostbite::guid;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/page_output.sha256");

/// A `Write` that hashes what is written, so a dump is never held whole in memory.
struct Hashing(Sha256);
impl Write for Hashing {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.update(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The SHA-256 of everything the page can ask of `doc`, as hex.
fn digest(doc: &Document) -> String {
    let mut h = Hashing(Sha256::new());
    let mut part = |v: &dyn erased::Ser| {
        v.write_to(&mut h);
        h.write_all(b"\n").unwrap();
    };
    part(&doc.spans_in(0, doc.bytes.len() as u64));
    part(&doc.tree());
    let json = serde_json::to_string(doc.tree()).expect("serializable");
    assert!(meshscope::tree::to_json(doc.tree()) == json, "{}: tree::to_json differs from serde_json", doc.name);
    for (i, r) in doc.spans.regions().iter().enumerate() {
        part(&doc.region_items(i as u32, 0, r.count));
    }
    part(&doc.summary());
    h.0.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

mod erased {
    /// Any serializable value, written as JSON (a trait object, so `part` takes them all).
    pub trait Ser {
        fn write_to(&self, w: &mut dyn std::io::Write);
    }
    impl<T: serde::Serialize> Ser for T {
        fn write_to(&self, w: &mut dyn std::io::Write) {
            serde_json::to_writer(w, self).expect("serializable");
        }
    }
}

/// The builder's MeshSets: each resource alone, each chunk attached to it, and the resource
/// with its chunks and metadata attached.
fn meshsets() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..24 {
        let b = sets::meshset_built(i, &mut rng);
        let name = format!("mesh{i:05}.MeshSet");
        out.insert(format!("meshset/{name}"), digest(&meshscope::open(&name, b.resource.clone())));
        let mut doc = meshscope::open(&name, b.resource.clone());
        for (k, (g, c)) in b.chunks.iter().enumerate() {
            let chunk = doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches");
            out.insert(format!("meshset/{name}+chunk{k}"), digest(&chunk));
        }
        doc.attach(&format!("{name}.resmeta"), b.resmeta.to_vec()).expect("resmeta attaches");
        out.insert(format!("meshset/{name}+attached"), digest(&doc));
    }
    out
}

/// The builder's `.ply` files (tori in 1 to 4 submeshes, landscapes) and the page's sample,
/// opened whole and structure first.
fn plys() -> BTreeMap<String, String> {
    let mut files = vec![("sample.ply".to_string(), meshscope::sample::sample_ply())];
    for (k, size) in [10_000, 20_000, 40_000].into_iter().enumerate() {
        files.push((format!("torus{size}.ply"), sets::torus_ply(size, 1 << k)));
        files.push((format!("landscape{size}.ply"), sets::landscape(size)));
    }
    opened("ply", files)
}

/// Each file opened whole and structure first, labelled `group/name` and `group/name:structure`.
fn opened(group: &str, files: Vec<(String, Vec<u8>)>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, bytes) in files {
        out.insert(format!("{group}/{name}"), digest(&meshscope::open(&name, bytes.clone())));
        out.insert(format!("{group}/{name}:structure"), digest(&meshscope::open_structure(&name, bytes)));
    }
    out
}

fn read_golden() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(GOLDEN).unwrap_or_else(|e| panic!("{GOLDEN}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (hash, label) = l.split_once("  ").unwrap_or_else(|| panic!("bad line in {GOLDEN}: {l}"));
            (label.to_string(), hash.to_string())
        })
        .collect()
}

/// Compares `now` with the recorded digests of `group`; with `MESHSCOPE_BLESS=1`, records
/// them instead (the file is shared by the groups: each rewrites only its own lines).
fn check(group: &str, now: BTreeMap<String, String>) {
    let prefix = format!("{group}/");
    let mut golden = if std::path::Path::new(GOLDEN).exists() { read_golden() } else { BTreeMap::new() };
    if std::env::var("MESHSCOPE_BLESS").is_ok_and(|v| v == "1") {
        let _lock = BLESS.lock();
        let mut golden = if std::path::Path::new(GOLDEN).exists() { read_golden() } else { BTreeMap::new() };
        golden.retain(|k, _| !k.starts_with(&prefix));
        golden.extend(now);
        let commit = std::process::Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let mut f = std::fs::File::create(GOLDEN).expect("golden file");
        writeln!(f, "# SHA-256 of what the page shows (crate/tests/page_output.rs), last made at {commit}.").unwrap();
        writeln!(f, "# Regenerate: MESHSCOPE_BLESS=1 cargo test -q --test page_output (with the samples).").unwrap();
        for (label, hash) in &golden {
            writeln!(f, "{hash}  {label}").unwrap();
        }
        return;
    }
    golden.retain(|k, _| k.starts_with(&prefix));
    assert!(!golden.is_empty(), "no digests recorded for {group} in {GOLDEN}");
    let changed: Vec<&String> = now.keys().filter(|k| golden.get(*k) != now.get(*k)).collect();
    let missing: Vec<&String> = golden.keys().filter(|k| !now.contains_key(*k)).collect();
    assert!(
        changed.is_empty() && missing.is_empty(),
        "what the page shows changed for {changed:?}; not made: {missing:?}"
    );
}

static BLESS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn builder_meshsets_show_as_recorded() {
    check("meshset", meshsets());
}

#[test]
fn builder_plys_show_as_recorded() {
    check("ply", plys());
}

#[test]
fn the_samples_show_as_recorded() {
    if let Some(samples) = common::gem_ply_samples() {
        check("samples", opened("samples", samples));
    }
}

/// The census panel's report of `files`, as JSON (the page asks for up to 1,000 values an
/// entry), hashed.
fn census_digest(files: Vec<(String, Vec<u8>)>) -> String {
    let mut c = meshscope::census::Census::new();
    for (name, bytes) in files {
        c.add_file(&name, bytes);
    }
    let mut h = Hashing(Sha256::new());
    serde_json::to_writer(&mut h, &c.report(1000)).expect("serializable");
    h.0.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn the_census_of_builder_files_reports_as_recorded() {
    let mut now = BTreeMap::new();
    // Enough MeshSets that some entries hold more distinct values than the census keeps (1,024).
    now.insert("census/meshsets-1500".to_string(), census_digest(sets::meshsets(1500)));
    now.insert("census/plys-40".to_string(), census_digest(sets::plys(40)));
    check("census", now);
}

#[test]
fn the_census_of_the_samples_reports_as_recorded() {
    if let Some(samples) = common::gem_ply_samples() {
        let repeated: Vec<_> =
            (0..3).flat_map(|k| samples.iter().map(move |(n, b)| (format!("{k}/{n}"), b.clone()))).collect();
        check("samples-census", BTreeMap::from([("samples-census/x3".to_string(), census_digest(repeated))]));
    }
}
