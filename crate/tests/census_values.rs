//! The census counts a field whose decoder kept its value's kind (`span::Value::Of`) by the
//! field's bytes, and makes each distinct value's text once. Its report must be the one of
//! counting every value by its text, as the census did before: here the same files are
//! censused both ways, the old way from a decode whose every value was made text first, on
//! builder MeshSets, builder `.ply` files and the real samples; the new way on one thread, on
//! several, and handed over between planners as the page's workers do. The old way also
//! expands the records the census's decode lays out (`laid`) into a span a field, so the new
//! way's walk of their parts is checked against the walk of their fields' shape.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::census::handover::{plan_batch, Batch, Held};
use meshscope::census::plan::{Plan, VALUE_TEXT};
use meshscope::census::{Census, CensusFile, Planner};
use meshscope::span::Value;

type Files = Vec<(String, Vec<u8>)>;

fn report(c: &Census) -> String {
    serde_json::to_string(&c.report(1000)).expect("a report is JSON")
}

/// The old way: every field a span of its own (records laid out expanded), its value made
/// text before the census sees it, so each is counted by text.
fn by_text(files: &Files) -> String {
    let mut c = Census::new();
    for (name, bytes) in files {
        let format = meshscope::formats::detect(name, bytes);
        let mut decode = meshscope::formats::decode_fields(format, name, bytes);
        decode.fields.spans = meshscope::laid::expand_all(std::mem::take(&mut decode.fields.spans), bytes);
        for s in &mut decode.fields.spans {
            s.value = Value::Text(s.text(bytes));
        }
        c.add(&CensusFile::from_decode(name, format, bytes.clone(), decode));
    }
    report(&c)
}

/// The new way on `threads` threads.
fn by_bytes(files: &Files, threads: usize) -> String {
    let mut c = Census::new();
    c.add_files(files.len(), threads, |i| Ok(files[i].clone())).expect("files in memory");
    report(&c)
}

/// The new way with runs of five files planned by two planners in turn and handed over as
/// bytes, the second planner's runs held before the first's.
fn handed_over(files: &Files) -> String {
    let mut held = Held::new();
    let (mut planners, mut plan) = ([Planner::new(), Planner::new()], Plan::default());
    let mut runs: Vec<(usize, usize, Vec<u8>, Vec<u8>)> = Vec::new();
    for (k, run) in files.chunks(5).enumerate() {
        let bytes: Vec<u8> = run.iter().flat_map(|f| f.1.iter().copied()).collect();
        let sizes: Vec<u32> = run.iter().map(|f| f.1.len() as u32).collect();
        let names: Vec<String> = run.iter().map(|f| f.0.clone()).collect();
        let mut out = Vec::new();
        let batch = Batch { bytes: &bytes, sizes: &sizes, names: &names };
        plan_batch(&mut planners[k % 2], &batch, &mut plan, &mut out).expect("a batch plans");
        runs.push((k, k % 2 + 1, out, bytes));
    }
    runs.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (k, planner, out, bytes) in &runs {
        held.hold_plans(k * 5, out, bytes, *planner).expect("plans hold");
    }
    assert_eq!(held.count_ready(files.len()), files.len());
    report(&held.census)
}

/// How many fields of the files' plans go as bytes, and how many as text.
fn fields_by_bytes(files: &Files) -> (usize, usize) {
    let (mut planner, mut plan, mut n) = (Planner::new(), Plan::default(), (0, 0));
    for (name, bytes) in files {
        planner.plan(&CensusFile::new(name, bytes.clone()), &mut plan);
        let raw = plan.fields.iter().filter(|f| f.shown != VALUE_TEXT).count();
        n = (n.0 + raw, n.1 + plan.fields.len() - raw);
    }
    n
}

fn same_both_ways(what: &str, files: &Files) {
    let (raw, text) = fields_by_bytes(files);
    assert!(raw > 0, "{what}: some fields go as bytes ({raw} as bytes, {text} as text)");
    let old = by_text(files);
    assert!(old.contains(&format!("\"files\":{}", files.len())), "{what}: {}", &old[..old.len().min(200)]);
    assert_eq!(by_bytes(files, 1), old, "{what}, one thread");
    assert_eq!(by_bytes(files, 3), old, "{what}, three threads");
    assert_eq!(handed_over(files), old, "{what}, handed over");
}

#[test]
fn builder_meshsets_report_as_counted_by_text() {
    let files = sets::meshsets(300);
    let laid: usize = files
        .iter()
        .map(|(name, bytes)| {
            let d = CensusFile::new(name, bytes.clone()).decode;
            d.fields.spans.iter().filter(|s| matches!(s.value, Value::Laid(_))).count()
        })
        .sum();
    assert!(laid >= 2 * files.len(), "every MeshSet's declarations are laid out: {laid} in {}", files.len());
    same_both_ways("builder MeshSets", &files);
}

/// The file decoded as the census decodes it, but with its records laid out expanded into
/// a span a field.
fn expanded(name: &str, bytes: &[u8]) -> CensusFile {
    let format = meshscope::formats::detect(name, bytes);
    let mut decode = meshscope::formats::decode_fields(format, name, bytes);
    decode.fields.spans = meshscope::laid::expand_all(std::mem::take(&mut decode.fields.spans), bytes);
    CensusFile::from_decode(name, format, bytes.to_vec(), decode)
}

#[test]
fn laid_out_records_plan_as_their_fields_do() {
    // Files whose declarations repeat, byte for byte, from file to file and within a file:
    // a planner walks each distinct one once and replays its plan after.
    let files = sets::meshsets(120);
    let (mut laid, mut fields) = (Planner::new(), Planner::new());
    let (mut a, mut b) = (Plan::default(), Plan::default());
    for (name, bytes) in &files {
        laid.plan(&CensusFile::new(name, bytes.clone()), &mut a);
        fields.plan(&expanded(name, bytes), &mut b);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}");
        assert!(a.records.len() > 20 && !a.strides.is_empty(), "{name}: {} records", a.records.len());
    }
    // Section records (a fixed layout) were replayed too, each under its own path and checked
    // against the file's uncovered bytes; the fields' planner replays nothing.
    let hits = laid.replay_hits();
    assert!(hits.fixed > 100 && hits.records > hits.fixed, "{hits:?}");
    assert_eq!(fields.replay_hits().records, 0);
}

#[test]
fn builder_plys_report_as_counted_by_text() {
    same_both_ways("builder .ply files", &sets::plys(24));
}

#[test]
fn the_samples_report_as_counted_by_text() {
    let Some(files) = common::gem_ply_samples() else { return };
    assert_eq!(files.len(), 6);
    // Twice over, so that every value is met again as bytes seen before.
    let twice: Files =
        files.iter().chain(&files).enumerate().map(|(i, f)| (format!("{i}/{}", f.0), f.1.clone())).collect();
    same_both_ways("the samples", &twice);
}

#[test]
fn a_section_is_replayed_only_where_the_file_leaves_the_same_bytes_uncovered() {
    use meshscope::formats::frostbite::builder::{build, cube, BuildLod, BuildMesh};
    // Two sections of one material and vertex format: the second one's plan is the first
    // one's, moved, unless the file covers the first one's undescribed bytes otherwise.
    let lod =
        BuildLod { sections: vec![cube("M", 1.0, [0.0; 3]), cube("M", 2.0, [1.0; 3])], index_32: false, inline: false };
    let mesh = BuildMesh { name: "m/two".into(), mesh_type: 0, bone_count: 0, lods: vec![lod] };
    let plain = build(&mesh).resource;
    let full = meshscope::formats::decode_fields(meshscope::formats::Format::FrostbiteMeshSet, "a.res", &plain);
    let spans = meshscope::laid::expand_all(full.fields.spans, &plain);
    let at = |p: &str| spans.iter().find(|s| s.path == p).map(|s| s.start as usize).expect(p);
    let (s0, s1) =
        (at("lod[0].section[0].material_name_pointer") - 8, at("lod[0].section[1].material_name_pointer") - 8);
    // The second section's material name moved into the first one's bytes 0x30..0x54, which
    // no field describes: a pool string now covers two of them.
    let mut moved = plain.clone();
    moved[s0 + 0x30..s0 + 0x32].copy_from_slice(b"x\0");
    moved[s1 + 8..s1 + 16].copy_from_slice(&(s0 as u64 + 0x30 - 16).to_le_bytes());
    let mut hits = Vec::new();
    for (name, bytes) in [("plain.res", &plain), ("moved.res", &moved)] {
        let (mut laid, mut fields) = (Planner::new(), Planner::new());
        let (mut a, mut b) = (Plan::default(), Plan::default());
        laid.plan(&CensusFile::new(name, bytes.clone()), &mut a);
        fields.plan(&expanded(name, bytes), &mut b);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}");
        hits.push(laid.replay_hits().fixed);
    }
    assert_eq!(hits, [1, 0], "the second section is replayed in the plain file alone");
}
