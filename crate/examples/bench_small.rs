//! The per-file cost of `open` on small files (issue #21), natively:
//!
//!     cargo run --release --example bench_small
//!
//! Four sets: 1,000 builder MeshSets (0.9 to 16 KB), 200 one-LOD builder MeshSets of 1.5 to
//! 2.5 KB (issue #21's 2 KB aim), 500 builder `.ply` files (10 to 200 KB), and the real GEM
//! samples (`$MESHSCOPE_SAMPLES/gem-ply`, default `../shared/samples`)
//! repeated; the samples are skipped with a line when absent. Each stage is timed over the
//! whole set, best of `ROUNDS` (5), and reported in µs a file and MB/s beside a plain copy of
//! the same bytes (the floor), all in one run. The sets are also written as packs to
//! `target/bench-small/` for `scripts/bench-small-wasm.mjs`.

#[path = "../tests/common/sets.rs"]
mod sets;

use meshscope::document::{Decode, Document};
use meshscope::formats::{self, Format};
use meshscope::span::SpanMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

// The command line's allocator, so that the figures are its figures (memory.rs).
meshscope::native_allocator!();

struct File {
    name: String,
    bytes: Vec<u8>,
    format: Format,
}

fn best(rounds: usize, mut f: impl FnMut() -> Duration) -> Duration {
    (0..rounds).map(|_| f()).min().unwrap_or_default()
}

fn timed(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// Every file decoded, not timed: the input of the stages that start from a decode.
fn decodes(files: &[File]) -> Vec<Decode> {
    files.iter().map(|f| formats::decode(f.format, &f.name, &f.bytes)).collect()
}

/// Each stage's best time over the whole set, in the order printed.
fn stages(files: &[File], rounds: usize) -> Vec<(&'static str, Duration)> {
    let copies = || files.iter().map(|f| f.bytes.clone()).collect::<Vec<_>>();
    let copy = best(rounds, || timed(|| files.iter().for_each(|f| drop(black_box(black_box(&f.bytes).to_vec())))));
    let decode = best(rounds, || {
        timed(|| files.iter().for_each(|f| drop(black_box(formats::decode(f.format, &f.name, &f.bytes)))))
    });
    let fields = best(rounds, || {
        timed(|| files.iter().for_each(|f| drop(black_box(formats::decode_fields(f.format, &f.name, &f.bytes)))))
    });
    let index = best(rounds, || {
        let mut ds = decodes(files);
        timed(|| {
            for d in &mut ds {
                let f = &mut d.fields;
                drop(black_box(SpanMap::new(std::mem::take(&mut f.spans), std::mem::take(&mut f.regions))));
            }
        })
    });
    let tree = best(rounds, || {
        let docs: Vec<Document> = files.iter().map(|f| meshscope::open(&f.name, f.bytes.clone())).collect();
        timed(|| {
            docs.iter().for_each(|d| {
                black_box(d.tree().len());
            })
        })
    });
    // What a document makes on first use, timed on documents just opened.
    let first_use = |f: &dyn Fn(&Document)| {
        best(rounds, || {
            let docs: Vec<Document> = files.iter().map(|f| meshscope::open(&f.name, f.bytes.clone())).collect();
            timed(|| docs.iter().for_each(f))
        })
    };
    // The page's tree: JSON of the nodes (as before `tree_json`), and straight from the shape.
    let json_of_nodes = first_use(&|d| drop(black_box(meshscope::tree::to_json(d.tree()))));
    let json = first_use(&|d| drop(black_box(d.tree_json())));
    let top = first_use(&|d| drop(black_box(d.tree_json_top(2))));
    let first_summary = first_use(&|d| drop(black_box(d.summary_first())));
    let checks = first_use(&|d| {
        black_box(d.checks().len());
    });
    let document = best(rounds, || {
        let ds = decodes(files);
        let bytes = copies();
        timed(|| {
            for ((f, d), b) in files.iter().zip(ds).zip(bytes) {
                drop(black_box(Document::from_decode(&f.name, f.format, b, d)));
            }
        })
    });
    let opened: Vec<Document> = files.iter().map(|f| meshscope::open(&f.name, f.bytes.clone())).collect();
    let summary = best(rounds, || timed(|| opened.iter().for_each(|d| drop(black_box(d.summary())))));
    let window = best(rounds, || timed(|| opened.iter().for_each(|d| drop(black_box(d.spans_in(0, 1024))))));
    let colors = best(rounds, || timed(|| opened.iter().for_each(|d| drop(black_box(d.span_bounds(0, 1024))))));
    drop(opened);
    let open = best(rounds, || {
        let bytes = copies();
        timed(|| {
            for (f, b) in files.iter().zip(bytes) {
                drop(black_box(meshscope::open(&f.name, b)));
            }
        })
    });
    // A new file's first paint: `open`, a tree's JSON, the summary (checks that wait left
    // out, as the page gets it) and the first colors.
    let paint_with = |tree: fn(&Document) -> String| {
        best(rounds, || {
            let bytes = copies();
            timed(|| {
                for (f, b) in files.iter().zip(bytes) {
                    let d = meshscope::open(&f.name, b);
                    black_box((tree(&d).len(), d.summary_first(), d.span_bounds(0, 1024)));
                }
            })
        })
    };
    let paint = paint_with(Document::tree_json);
    // As the page paints: the tree panel's top two levels, not the whole tree.
    let page_paint = paint_with(|d| d.tree_json_top(2));
    vec![
        ("copy (floor)", copy),
        ("decode", decode),
        ("decode_fields (census)", fields),
        ("span index (SpanMap::new)", index),
        ("tree (Document::tree, first use)", tree),
        ("tree JSON of the nodes (to_json of tree)", json_of_nodes),
        ("tree JSON (Document::tree_json, first use)", json),
        ("tree panel's top (tree_json_top(2), first use)", top),
        ("document (from_decode)", document),
        ("summary (checks, coverage)", summary),
        ("summary for the first paint (summary_first)", first_summary),
        ("the checks left for later (checks, first use)", checks),
        ("first screen, with text (spans_in 0..1024)", window),
        ("first screen, colors (span_bounds 0..1024)", colors),
        ("open", open),
        ("open + tree JSON + summary + first colors", paint),
        ("open + tree top + summary + first colors (the page)", page_paint),
    ]
}

fn report(set: &str, files: &[File], rounds: usize) {
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    let (lo, hi) = files.iter().fold((usize::MAX, 0), |(lo, hi), f| (lo.min(f.bytes.len()), hi.max(f.bytes.len())));
    println!("{set}: {} files, {bytes} bytes ({lo} to {hi} a file), best of {rounds}", files.len());
    let n = files.len() as f64;
    let results = stages(files, rounds);
    let copy = results[0].1.as_secs_f64();
    for (stage, d) in results {
        let s = d.as_secs_f64();
        println!(
            "  {stage:<44} {:>9.2} µs/file {:>8.0} MB/s  {:>6.1} × copy",
            s * 1e6 / n,
            bytes as f64 / 1e6 / s,
            s / copy
        );
    }
}

/// The set as one file and its index (`[[name, offset, length], ...]`) for the wasm script.
fn pack(dir: &std::path::Path, set: &str, files: &[File]) {
    let mut index = Vec::new();
    let mut at = 0;
    for f in files {
        index.push(format!("[{:?},{at},{}]", f.name, f.bytes.len()));
        at += f.bytes.len();
    }
    let all: Vec<u8> = files.iter().flat_map(|f| f.bytes.iter().copied()).collect();
    std::fs::write(dir.join(format!("{set}.pack")), all).expect("pack");
    std::fs::write(dir.join(format!("{set}.json")), format!("[{}]", index.join(","))).expect("pack index");
}

fn of(named: Vec<(String, Vec<u8>)>) -> Vec<File> {
    named.into_iter().map(|(name, bytes)| File { format: formats::detect(&name, &bytes), name, bytes }).collect()
}

/// The real samples repeated `times` over, `None` (with a line) when the folder is absent.
fn samples(times: usize) -> Option<Vec<File>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join(std::env::var("MESHSCOPE_SAMPLES").unwrap_or_else(|_| "../shared/samples".into()));
    let Ok(entries) = std::fs::read_dir(dir.join("gem-ply")) else {
        println!("samples: skipped, no {}", dir.join("gem-ply").display());
        return None;
    };
    let mut one: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ply"))
        .map(|p| (p.file_name().unwrap_or_default().to_string_lossy().into_owned(), std::fs::read(&p).expect("sample")))
        .collect();
    one.sort();
    Some(of((0..times).flat_map(|k| one.iter().map(move |(n, b)| (format!("{k}/{n}"), b.clone()))).collect()))
}

fn main() {
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5).max(1);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-small");
    std::fs::create_dir_all(&dir).expect("bench-small folder");
    let mut sets = vec![
        ("meshsets", of(sets::meshsets(1000))),
        ("meshsets-2k", of(sets::small_meshsets(200))),
        ("ply", of(sets::plys(500))),
    ];
    if let Some(s) = samples(20) {
        sets.push(("samples", s));
    }
    for (set, files) in &sets {
        if let Some(f) = files.iter().find(|f| !meshscope::open(&f.name, f.bytes.clone()).errors.is_empty()) {
            panic!("{set}: {} does not decode cleanly", f.name);
        }
        pack(&dir, set, files);
        report(set, files, rounds);
    }
    println!("packs: {}", dir.display());
}
