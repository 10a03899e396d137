//! Diff benchmark: `cargo run --release --example bench_diff`.
//!
//! Builds a 64 MB `.ply` with the builder (1.5 M vertices of 32 bytes, 8 M u16 indices) and a
//! copy with 1,000 scattered changes (500 vertex coordinates, 500 indices), opens both (not
//! timed in the figure), then times `diff::compare` of the two, `RUNS=` times (default 3),
//! and prints the differences found. `--write` also writes the two files to
//! `target/bench-diff/` for `node scripts/bench-diff-wasm.mjs` (the same comparison in wasm).

use meshscope::diff::{compare, Kind, Options};
use meshscope::formats::gem_ply::builder::{Builder, Vertex};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{Chunk, Magic, MeshChunk};
use std::time::Instant;

// The command line's allocator, so that the figures are its figures (memory.rs).
meshscope::native_allocator!();

const VERTICES: usize = 1_500_000;
const INDICES: usize = 8_000_000;
const CHANGES: usize = 1_000;

/// A xorshift generator: the same files on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn main() {
    let fvf = 0x112;
    let mut layout = Layout::from_fvf(fvf);
    let size = layout.size();
    layout.fit(size, false);
    let verts: Vec<Vertex> = (0..VERTICES)
        .map(|k| Vertex { position: [k as f32, (k % 977) as f32, (k % 13) as f32], ..Default::default() })
        .collect();
    let indices: Vec<u16> = (0..INDICES).map(|k| (k % 65_521) as u16).collect();
    let mesh = MeshChunk {
        fvf,
        face_start: 0,
        face_count: (INDICES / 3) as i32,
        flags: 0x404,
        material: Some(b"bench.mtl".to_vec()),
        ..Default::default()
    };
    let a = Builder::new(Magic::Eply)
        .bnds(&verts)
        .chunk(Chunk::Mesh(mesh))
        .vert(&layout, size as u16, 0x7, &verts)
        .indx(&indices)
        .build()
        .expect("builds");
    drop(verts);
    // Where the VERT data and the indices start: the builder writes them last, in that order,
    // the indices after the INDX id and count.
    let index_at = a.len() - INDICES * 2;
    let vert_at = index_at - 8 - VERTICES * size as usize;
    let mut b = a.clone();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for k in 0..CHANGES {
        if k % 2 == 0 {
            // A bit of a vertex's y coordinate 2^-7 of its value: it moves.
            let v = (rng.next() % VERTICES as u64) as usize;
            b[vert_at + v * size as usize + 6] ^= 1;
        } else {
            let i = (rng.next() % INDICES as u64) as usize;
            b[index_at + i * 2] ^= 1;
        }
    }
    println!("files: {:.1} MB each, {CHANGES} bytes changed", a.len() as f64 / 1e6);
    if std::env::args().any(|x| x == "--write") {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-diff");
        std::fs::create_dir_all(&dir).expect("target/bench-diff");
        std::fs::write(dir.join("a.ply"), &a).expect("writes a.ply");
        std::fs::write(dir.join("b.ply"), &b).expect("writes b.ply");
    }
    let t = Instant::now();
    let (da, db) = (meshscope::open("a.ply", a), meshscope::open("b.ply", b));
    println!("open both: {:.3} s", t.elapsed().as_secs_f64());
    assert!(da.errors.is_empty() && db.errors.is_empty(), "{:?} {:?}", da.errors, db.errors);
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let c = compare(&da, &db, &Options::default());
        times.push(t.elapsed().as_secs_f64());
        last = Some(c);
    }
    let c = last.expect("one run");
    let count = |k: Kind| c.differences.iter().filter(|d| d.kind == k).count();
    let changed = |p: &str| c.differences.iter().find(|d| d.path == p).and_then(|d| d.changed).unwrap_or(0);
    println!(
        "differences: {} listed ({} changed, {} moved, {} triangles); VERT.vertices {} changed, INDX.indices {} changed",
        c.differences.len(),
        count(Kind::Changed),
        count(Kind::Moved),
        count(Kind::Triangles),
        changed("VERT.vertices"),
        changed("INDX.indices"),
    );
    times.sort_by(f64::total_cmp);
    let shown: Vec<String> = times.iter().map(|t| format!("{t:.3}")).collect();
    println!("compare: {} s (runs, fastest first; {runs} runs)", shown.join(", "));
}
