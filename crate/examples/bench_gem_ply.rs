//! Decode speed of the GEM `.ply` decoder on a 1 MB and a 64 MB vertex-heavy landscape-like
//! file (BPLY, AS2 SUBM, 44-byte vertices, IND4), natively:
//!
//!     cargo run --release --example bench_gem_ply
//!
//! Reports MB/s for the cheap pass (`parse`: fields, regions, the writer's `Ply`), for the
//! full decode (plus layout, mesh extraction, checks) and for `open` (plus the span map and
//! tree). Also writes both files to `target/bench-fixtures/gem-1mb.ply` and `gem-64mb.ply`
//! for the wasm timing script.

#[path = "../tests/common/sets.rs"]
mod sets;

use meshscope::formats::gem_ply;
use sets::landscape;
use std::time::{Duration, Instant};

// The command line's allocator, so that the figures are its figures (memory.rs).
meshscope::native_allocator!();

fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-fixtures");
    std::fs::create_dir_all(&dir).expect("bench-fixtures dir");
    for (name, size, runs) in [("gem-1mb.ply", 1 << 20, 200), ("gem-64mb.ply", 64 << 20, 5)] {
        let bytes = landscape(size);
        std::fs::write(dir.join(name), &bytes).expect("write fixture");
        let check = gem_ply::decode(&bytes);
        assert!(check.errors.is_empty(), "{name}: {:?}", check.errors);
        let mb = bytes.len() as f64 / 1e6;
        let parse = best(runs, || {
            std::hint::black_box(gem_ply::parse(std::hint::black_box(&bytes)));
        });
        let decode = best(runs, || {
            std::hint::black_box(gem_ply::decode(std::hint::black_box(&bytes)));
        });
        let open = best(runs.min(20), || {
            std::hint::black_box(meshscope::open(name, bytes.clone()));
        });
        // For scale on this machine: one copy of the file into a fresh buffer.
        let copy = best(runs, || {
            std::hint::black_box(std::hint::black_box(&bytes).to_vec());
        });
        let rate = |d: Duration| mb / d.as_secs_f64();
        println!("{name}: a plain copy of the file {:.1} ms = {:.0} MB/s", copy.as_secs_f64() * 1e3, rate(copy));
        println!(
            "{name}: {} bytes; parse {:.1} ms = {:.0} MB/s; decode (with mesh) {:.1} ms = {:.0} MB/s; open (with span map, tree) {:.1} ms = {:.0} MB/s",
            bytes.len(),
            parse.as_secs_f64() * 1e3,
            rate(parse),
            decode.as_secs_f64() * 1e3,
            rate(decode),
            open.as_secs_f64() * 1e3,
            rate(open)
        );
    }
}
