//! Writes the GEM fixtures (and the sample) as seeds for the `gem_ply` fuzz target:
//! `cargo run --example gem_ply_seeds -- fuzz/corpus/gem_ply`. The first byte picks the magic.
use meshscope::formats::gem_ply::fixtures::all;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "fuzz/corpus/gem_ply".into());
    std::fs::create_dir_all(&dir).expect("corpus dir");
    let mut files: Vec<(String, Vec<u8>)> = all().into_iter().map(|f| (f.name.to_string(), f.bytes)).collect();
    files.push(("sample".into(), meshscope::sample::sample_ply()));
    for (name, bytes) in files {
        let m = match bytes.get(..4) {
            Some(b"BPLY") => 1u8,
            Some(b"PM01") => 2,
            _ => 0,
        };
        let mut seed = vec![m];
        seed.extend_from_slice(bytes.get(4..).unwrap_or(&[]));
        std::fs::write(format!("{dir}/{name}"), seed).expect("write seed");
    }
}
