//! `meshscope inspect`: per file, its format, coverage and errors; with `--json`, one object a
//! file in the README's key order (file, format, size, errors, coverage, checks, mesh, then
//! the format's own object).

use crate::{frostbite, gem_ply, open_with_companions, shown, Problems, Stop, EXIT_CODES};
use meshscope::document::Document;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = EXIT_CODES)]
pub struct Args {
    /// One JSON object per file (JSON Lines), keys as the README lists them
    #[arg(long)]
    json: bool,
    /// A geometry chunk to attach: PATH (matched by the GUID in its name) or lodN=PATH (to LOD N)
    #[arg(long, value_name = "[lodN=]PATH")]
    chunk: Vec<String>,
    /// Files to inspect; one that cannot be read is reported and the others still inspected
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// The `inspect --json` object of a document; `file` is the path as given.
pub fn inspect_json(file: &str, doc: &Document) -> Value {
    let s = doc.summary();
    let mut v = json!({
        "file": file,
        "format": s.format,
        "size": s.size,
        "errors": s.errors,
        "coverage": s.coverage,
        "checks": s.checks,
        "mesh": s.mesh,
    });
    if let (Some(obj), Some((k, extra))) = (v.as_object_mut(), gem_ply::inspect(doc)) {
        obj.insert(k.into(), extra);
    }
    if let (Some(obj), Some((k, extra))) = (v.as_object_mut(), frostbite::inspect(doc)) {
        obj.insert(k.into(), extra);
    }
    v
}

pub fn run(a: &Args, out: &mut impl Write, problems: &mut Problems) -> Result<(), Stop> {
    for path in &a.files {
        let f = shown(path);
        let Some(doc) = open_with_companions(path, &a.chunk, problems) else { continue };
        if !doc.errors.is_empty() {
            // The errors themselves are in the output; stderr says which file had them.
            problems.report(format!("{f}: decoded with errors ({})", doc.errors.len()));
        }
        if a.json {
            writeln!(out, "{}", inspect_json(&f, &doc))?;
            continue;
        }
        let c = &doc.summary().coverage;
        writeln!(
            out,
            "{f}: {} {} bytes, {} errors; proven {} observed {} inferred {} unknown {} uncovered {}",
            doc.format.name(),
            doc.bytes.len(),
            doc.errors.len(),
            c.proven,
            c.observed,
            c.inferred,
            c.unknown,
            c.uncovered
        )?;
        for e in &doc.errors {
            writeln!(out, "  error {e}")?;
        }
    }
    Ok(())
}
