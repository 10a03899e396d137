//! Decode speed of the GEM `.ply` decoder on a 1 MB and a 64 MB vertex-heavy landscape-like
//! file (BPLY, AS2 SUBM, 44-byte vertices, IND4), natively:
//!
//!     cargo run --release --example bench_gem_ply
//!
//! Reports MB/s for the cheap pass (`parse`: fields, regions, the writer's `Ply`), for the
//! full decode (plus layout, mesh extraction, checks) and for `open` (plus the span map and
//! tree). Also writes both files to `target/bench-fixtures/gem-1mb.ply` and `gem-64mb.ply`
//! for the wasm timing script.

use meshscope::formats::gem_ply::builder::{Builder, Vertex};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{self, Chunk, Element, Magic, SubmAs2};
use meshscope::Confidence;
use std::time::{Duration, Instant};

fn landscape(target_bytes: usize) -> Vec<u8> {
    // About 70% of the bytes in vertices, the rest in u32 indices.
    let nv = target_bytes * 7 / 10 / 44;
    let side = (nv as f64).sqrt() as usize;
    let nv = side * side;
    let verts: Vec<Vertex> = (0..nv)
        .map(|k| {
            let (x, y) = ((k % side) as f32 * 10.0, (k / side) as f32 * 10.0);
            Vertex {
                position: [x, y, (x * 0.01).sin() * 5.0],
                normal: [0.0, 0.0, 1.0],
                uvs: [[x / 100.0, y / 100.0], [0.0; 2], [0.0; 2], [0.0; 2]],
                colors: [[127, 127, 127, 255], [0; 4]],
                ..Default::default()
            }
        })
        .collect();
    let left = target_bytes.saturating_sub(nv * 44 + 200) / 4 / 3 * 3;
    let mut idx = Vec::with_capacity(left);
    'outer: for r in 0..side - 1 {
        for c in 0..side - 1 {
            let a = (r * side + c) as u32;
            let b = a + side as u32;
            for i in [a, a + 1, b, b, a + 1, b + 1] {
                if idx.len() == left {
                    break 'outer;
                }
                idx.push(i);
            }
        }
    }
    while idx.len() < left {
        idx.push(0);
    }
    let elements: Vec<Element> =
        [0x02, 0x12, 0x26, 0x31].iter().map(|&t| Element { type_usage: t, usage_index: 0, stream: 0 }).collect();
    let (mut l, _) = Layout::from_elements(&elements, Confidence::Observed, "");
    l.fit(44, false);
    Builder::new(Magic::Bply)
        .bnds(&verts)
        .chunk(Chunk::SubmAs2(SubmAs2 {
            elements,
            tags: vec![],
            face_start: 0,
            face_count: (idx.len() / 3) as u32,
            unknown: [0, nv as u32],
            flags: 0x1404,
            material: b"bench.mtl".to_vec(),
        }))
        .vert(&l, 44, 0, &verts)
        .ind4(&idx)
        .build()
        .expect("bench file")
}

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
    // As `meshscope` does (memory.rs): freed memory stays in the process.
    meshscope::memory::keep_freed_memory();
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
