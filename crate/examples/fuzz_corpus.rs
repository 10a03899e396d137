//! Writes the seed corpus of every fuzz target into `crate/fuzz/corpus/<target>/`: the real
//! samples (`$MESHSCOPE_SAMPLES`, default `../shared/samples` beside the repository), every
//! input in `tests/regressions/`, and files the builders write (the GEM fixtures, the page's
//! samples, built MeshSets with their chunks). Each target gets them in its own input form.
//! `cargo run --example fuzz_corpus [DIR]` (DIR defaults to `crate/fuzz/corpus`).
use meshscope::census::handover::{plan_batch, Batch};
use meshscope::census::plan::Plan;
use meshscope::census::Planner;
use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh};
use meshscope::formats::gem_ply::fixtures;
use std::path::{Path, PathBuf};

/// One seed file: a name, its bytes, and the resource's chunk when it is a built MeshSet.
struct Seed {
    name: String,
    bytes: Vec<u8>,
    chunk: Option<Vec<u8>>,
}

fn files_under(dir: &Path, out: &mut Vec<Seed>, prefix: &str) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files_under(&p, out, prefix);
        } else if p.extension().is_none_or(|e| e != "md" && e != "expect") {
            let name = format!("{prefix}-{}", p.file_name().unwrap_or_default().to_string_lossy());
            if let Ok(bytes) = std::fs::read(&p) {
                out.push(Seed { name, bytes, chunk: None });
            }
        }
    }
}

fn built() -> Vec<Seed> {
    let mut out: Vec<Seed> = fixtures::all()
        .into_iter()
        .map(|f| Seed { name: format!("built-{}", f.name), bytes: f.bytes, chunk: None })
        .collect();
    out.push(Seed { name: "built-sample.ply".into(), bytes: meshscope::sample::sample_ply(), chunk: None });
    for set in [meshscope::sample::sample_meshset(), meshscope::sample::sample_meshset_skinned()] {
        let chunk = set.get(1).map(|(_, b)| b.clone());
        for (i, (name, bytes)) in set.into_iter().enumerate() {
            let chunk = if i == 0 { chunk.clone() } else { None };
            out.push(Seed { name: format!("built-{name}"), bytes, chunk });
        }
    }
    for t in 0u8..3 {
        let mut c = cube("S/A", 1.0, [0.0; 3]);
        if t != 0 {
            c.joints = vec![[0, 1, 0, 0]; c.positions.len()];
            c.weights = vec![[1.0, 0.0, 0.0, 0.0]; c.positions.len()];
            c.bones = vec![0, 1];
        }
        let b = build(&BuildMesh {
            name: "s/seed".into(),
            mesh_type: t,
            bone_count: if t == 0 { 0 } else { 2 },
            lods: vec![BuildLod { sections: vec![c, grid("S/B", 1, 1.0)], index_32: t == 2, inline: t == 1 }],
        });
        let chunk = b.chunks.first().map(|(_, c)| c.clone());
        out.push(Seed { name: format!("built-type{t}.res"), bytes: b.resource, chunk });
        out.push(Seed { name: format!("built-type{t}.res.resmeta"), bytes: b.resmeta.to_vec(), chunk: None });
    }
    out
}

/// The census_handover target's input: the plans' length, the plans a planner hands over
/// for the file, then the file's bytes.
fn handed_over(s: &Seed) -> Vec<u8> {
    let (sizes, names) = ([s.bytes.len() as u32], [s.name.clone()]);
    let batch = Batch { bytes: &s.bytes, sizes: &sizes, names: &names };
    let mut plans = Vec::new();
    plan_batch(&mut Planner::new(), &batch, &mut Plan::default(), &mut plans).expect("one whole file");
    [&(plans.len() as u32).to_le_bytes()[..], &plans, &s.bytes].concat()
}

/// The census_glb target's first byte names the file: `.ply`, `.res`, `.chunk`, other.
fn name_pick(name: &str) -> u8 {
    match name.rsplit('.').next() {
        Some("ply") => 0,
        Some("res") => 1,
        Some("chunk") => 2,
        _ => 3,
    }
}

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| manifest.join("fuzz/corpus"));
    let samples = std::env::var_os("MESHSCOPE_SAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/samples"));
    let mut seeds = Vec::new();
    files_under(&samples, &mut seeds, "sample");
    files_under(&manifest.join("../tests/regressions"), &mut seeds, "regression");
    seeds.extend(built());
    let mut written = [0usize; 5];
    let targets = ["open_any", "census_glb", "gem_ply", "frostbite_meshset", "census_handover"];
    for t in targets {
        std::fs::create_dir_all(out.join(t)).expect("corpus folder");
    }
    for s in &seeds {
        let mut put = |k: usize, bytes: Vec<u8>| {
            std::fs::write(out.join(targets[k]).join(&s.name), bytes).expect("write seed");
            written[k] += 1;
        };
        put(0, s.bytes.clone());
        put(1, [&[name_pick(&s.name)][..], &s.bytes].concat());
        if s.bytes.len() <= 1 << 16 {
            put(4, handed_over(s));
        }
        let magic = match s.bytes.get(..4) {
            Some(b"EPLY") => Some(0u8),
            Some(b"BPLY") => Some(1),
            Some(b"PM01") => Some(2),
            _ => None,
        };
        if let Some(m) = magic {
            put(2, [&[m][..], &s.bytes[4..]].concat());
        } else if s.bytes.len() <= u16::MAX as usize {
            // Raw mode: mode 0, the resource's length, the resource, then its chunk.
            let len = (s.bytes.len() as u16).to_le_bytes();
            let chunk = s.chunk.as_deref().unwrap_or(&[]);
            put(3, [&[0u8, len[0], len[1]][..], &s.bytes, chunk].concat());
        }
    }
    for (t, n) in targets.iter().zip(written) {
        println!("{t}: {n} seeds in {}", out.join(t).display());
    }
}
