//! Decodes a built MeshSet whose one LOD has a 64 MB chunk and reports MB/s; also writes the
//! fixture files to `target/bench-fixtures/` for the wasm timing script.
//!
//! cargo run --release --example bench_meshset [-- MB]

use meshscope::formats::frostbite::builder::{build, grid, BuildLod, BuildMesh};
use meshscope::formats::frostbite::{guid, measures};
use std::time::Instant;

// The command line's allocator, so that the figures are its figures (memory.rs).
meshscope::native_allocator!();

/// This thread's CPU seconds (user + system) from /proc, so a figure taken on a busy machine
/// can be told apart from time spent waiting for a core. `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn fixture(mb: usize) -> meshscope::formats::frostbite::builder::Built {
    // Four grid sections with 32-bit indices: 20 bytes a vertex, 24 bytes of indices a quad.
    let n = (((mb << 20) as f64 / 4.0 / 44.0).sqrt()) as u32;
    let sections = (0..4).map(|k| grid(&format!("Bench/Grid{k}"), n, 0.25)).collect();
    build(&BuildMesh {
        name: format!("bench/meshset_{mb}mb"),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![BuildLod { sections, index_32: true, inline: false }],
    })
}

fn main() {
    let mb: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let sizes = [mb / 4, mb / 2, mb];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-fixtures");
    std::fs::create_dir_all(&dir).expect("fixture folder");
    for &size in &sizes {
        let b = fixture(size);
        let (g, chunk) = &b.chunks[0];
        let res_name = format!("meshset-{size}mb.res");
        let chunk_name = format!("{}.chunk", guid::text(g));
        if size == mb {
            std::fs::write(dir.join(&res_name), &b.resource).unwrap();
            std::fs::write(dir.join(format!("{res_name}.resmeta")), b.resmeta).unwrap();
            std::fs::write(dir.join(&chunk_name), chunk).unwrap();
        }
        let total = (b.resource.len() + chunk.len()) as f64 / 1e6;
        let mut best = f64::MAX;
        let mut best_measure = f64::MAX;
        let mut cpu_total = 0.0;
        let runs = 5;
        for _ in 0..runs {
            let (res, ch) = (b.resource.clone(), chunk.clone());
            let t = Instant::now();
            let c0 = cpu_seconds();
            let mut doc = meshscope::open(&res_name, res);
            let c = doc.attach(&chunk_name, ch).expect("attach");
            assert!(c.errors.is_empty() && doc.errors.is_empty());
            std::hint::black_box(&doc.mesh);
            best = best.min(t.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (c0, cpu_seconds()) {
                cpu_total += b - a;
            }
            // The stored-vs-measured part alone (area and texel density of every triangle).
            let lod = &doc.mesh.lods[0];
            let t = Instant::now();
            for s in &lod.sections {
                let (v0, n) = (s.vertex_start as usize, s.vertex_count as usize);
                let idx: Vec<u32> = lod.indices[s.index_start as usize..(s.index_start + s.index_count) as usize]
                    .iter()
                    .map(|&i| i - v0 as u32)
                    .collect();
                let m = measures::measure(
                    &lod.positions[v0 * 3..(v0 + n) * 3],
                    [Some(&lod.uvs[0][v0 * 2..(v0 + n) * 2]), None],
                    &idx,
                );
                std::hint::black_box(m);
            }
            best_measure = best_measure.min(t.elapsed().as_secs_f64());
        }
        let vertices: usize = b.details.lods[0].sections.iter().map(|s| s.vertex_count as usize).sum();
        println!(
            "{{\"chunk_mb\": {:.1}, \"vertices\": {vertices}, \"best_s\": {best:.4}, \"mb_per_s\": {:.0}, \"measures_s\": {best_measure:.4}, \"cpu_s_mean\": {:.3}, \"cpu_mb_per_s\": {:.0}}}",
            chunk.len() as f64 / 1e6, total / best, cpu_total / runs as f64, total / (cpu_total / runs as f64)
        );
    }
    println!("fixtures: {}", dir.display());
}
