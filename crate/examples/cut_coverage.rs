//! How much of a `.ply` cut inside its vertex buffer the decode still explains: 20 cuts at
//! seeded random points inside `VERT`'s vertices, spread over the real samples
//! (`$MESHSCOPE_SAMPLES`, default `../shared/samples`), each opened as the page opens it.
//! Prints, per cut, the share of the kept bytes that spans cover, and the median.
//! `cargo run --release --example cut_coverage`
use meshscope::formats::gem_ply;
use std::path::PathBuf;

fn main() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("MESHSCOPE_SAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/samples"))
        .join("gem-ply");
    let mut files: Vec<(String, Vec<u8>, u64, u64)> = Vec::new();
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("samples").filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p).expect("read sample");
        let parsed = gem_ply::parse(&bytes);
        let (Some(at), Some((count, size, _))) = (parsed.places.vert_data, parsed.ply.vert_header()) else { continue };
        let len = count as u64 * size as u64;
        if len > 1 {
            files.push((p.file_name().unwrap().to_string_lossy().into_owned(), bytes, at, len));
        }
    }
    // A fixed LCG, so every run cuts at the same points.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        state >> 33
    };
    let mut shares = Vec::new();
    for k in 0..20 {
        let (name, bytes, at, len) = &files[k % files.len()];
        let cut = (at + 1 + next() % (len - 1)) as usize;
        let doc = meshscope::open(name, bytes[..cut].to_vec());
        let c = doc.coverage();
        let share = 100.0 * (cut as u64 - c.uncovered) as f64 / cut as f64;
        let verts = doc.mesh.lods.first().map_or(0, |l| l.positions.len() / 3);
        println!("{name} cut at {cut} (VERT data {at}..{}): {share:.1} % covered, {verts} vertices", at + len);
        shares.push(share);
    }
    shares.sort_by(f64::total_cmp);
    println!("median {:.1} % of the kept bytes covered by spans", (shares[9] + shares[10]) / 2.0);
}
