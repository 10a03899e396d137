//! The real samples for the tests that read them: the folder `$MESHSCOPE_SAMPLES` (absolute,
//! or relative to the repository root), by default `../shared/samples` beside the repository.
//! When it is missing a test skips with one line saying so, except under `CI=true`, where a
//! missing folder fails the run. A sample that is there but does not decode fails as usual.
// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The samples folder, whether or not it exists.
pub fn samples_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::var_os("MESHSCOPE_SAMPLES").map(PathBuf::from);
    root.join(dir.unwrap_or_else(|| PathBuf::from("../shared/samples")))
}

/// The samples folder when it exists. Otherwise prints one line and returns `None` (the
/// test then returns), or panics under `CI=true`.
pub fn samples() -> Option<PathBuf> {
    let dir = samples_dir();
    if dir.is_dir() {
        return Some(dir);
    }
    let msg =
        format!("no samples at {}: set MESHSCOPE_SAMPLES to a folder holding gem-ply/ to run this test", dir.display());
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{msg} (CI=true: the samples must be there)");
    }
    // Straight to stderr: the test harness captures eprintln! of a passing test.
    writeln!(std::io::stderr(), "skipped: {msg}").ok();
    None
}

/// The path of one GEM `.ply` sample, `None` when the folder is missing (see `samples`).
pub fn gem_ply_path(name: &str) -> Option<PathBuf> {
    samples().map(|d| d.join("gem-ply").join(name))
}

/// Every GEM `.ply` sample as (file name, bytes), sorted by name; `None` when the folder is
/// missing. A sample that cannot be read panics: it is there and must be readable.
pub fn gem_ply_samples() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = samples()?.join("gem-ply");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path())
        .filter(|p| p.extension().is_some_and(|x| x == "ply"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().unwrap_or_default().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    out.sort();
    Some(out)
}

/// One GEM `.ply` sample's bytes; `None` when the folder is missing.
pub fn gem_ply_bytes(name: &str) -> Option<Vec<u8>> {
    let p = gem_ply_path(name)?;
    Some(std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}
