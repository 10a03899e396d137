//! `meshscope census`: what every field and unexplained byte holds across many files.
//! Files are read, decoded, counted and dropped one at a time.

use crate::{Problems, Stop};
use meshscope::census::report::{EntryReport, Shown};
use meshscope::census::Census;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

#[derive(clap::Args)]
#[command(after_help = crate::EXIT_CODES)]
pub struct Args {
    /// One JSON object per entry (JSON Lines)
    #[arg(long)]
    json: bool,
    /// With --json: where each value was seen (file, offset)
    #[arg(long)]
    places: bool,
    /// Values listed per entry, most frequent first
    #[arg(long, value_name = "N", default_value_t = meshscope::census::report::REPORT_VALUES)]
    max_values: usize,
    /// Threads: one counts in file order, the others read and decode [default: all cores]
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Files, and folders walked for the files under them (symlinks followed, loops not)
    #[arg(required = true, value_name = "FILE|DIR")]
    inputs: Vec<PathBuf>,
}

/// Files under `p` (itself when it is not a folder), in name order. A file that cannot be
/// opened, or a folder that cannot be read, is reported and left out; a symlink loop is
/// said on stderr and not followed.
fn collect(p: &Path, out: &mut Vec<PathBuf>, problems: &mut Problems) {
    for entry in WalkDir::new(p).follow_links(true).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_dir() => {}
            Ok(e) => match std::fs::File::open(e.path()) {
                Ok(_) => out.push(e.into_path()),
                Err(err) => problems.report(format!("{}: {err}", e.path().display())),
            },
            Err(err) if err.loop_ancestor().is_some() => {
                let at = err.path().map(|p| p.display().to_string()).unwrap_or_default();
                problems.note(format!("{at}: a symlink loop, not followed"));
            }
            Err(err) => problems.report(err),
        }
    }
}

fn shown(v: &Shown) -> Value {
    match v {
        Shown::Number(n) => json!(n),
        Shown::Text(t) => json!(t),
    }
}

/// One entry as a JSON line: path, record, offset, files, records, values (most frequent
/// first) and what the census adds (kind, type, constant, min, max, tail, equals).
pub fn entry_json(e: &EntryReport, places: bool) -> Value {
    let values: Vec<Value> = e
        .values
        .iter()
        .map(|v| {
            let mut o = json!({"value": shown(&v.value), "count": v.count, "files": v.files});
            if places {
                o["at"] = json!(v.at);
            }
            o
        })
        .collect();
    let mut o = json!({
        "path": e.path,
        "record": e.record,
        "kind": e.kind,
        "type": e.ty,
        "format": e.format,
        "files": e.files,
        "records": e.records,
        "distinct": e.distinct,
        "constant": e.constant,
        "values": values,
    });
    if let Some(off) = e.offset {
        if e.kind == "uncovered" || e.kind == "unknown" || !e.offset_varies {
            o["offset"] = json!(off);
        }
    }
    if let (Some(lo), Some(hi)) = (e.min, e.max) {
        o["min"] = json!(lo);
        o["max"] = json!(hi);
    }
    if let Some(t) = &e.tail {
        o["tail"] = json!(t);
    }
    if !e.equals.is_empty() {
        o["equals"] = json!(e.equals);
    }
    o
}

pub fn run(a: &Args, out: &mut impl Write, problems: &mut Problems) -> Result<(), Stop> {
    // Threads: the census counts on one, in file order, the others decode; all cores by default.
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut files = Vec::new();
    for p in &a.inputs {
        collect(p, &mut files, problems);
    }
    let mut c = Census::new();
    let loaded = c.add_files(files.len(), threads, |i| {
        let f = &files[i];
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        Ok((f.to_string_lossy().into_owned(), bytes))
    });
    if let Err(e) = loaded {
        // A file that opened a moment ago and now cannot be read: the census stops there.
        problems.report(format!("{e} (the census stopped at this file)"));
    }
    let r = c.report(a.max_values);
    if r.files_with_errors > 0 {
        problems.report(format!("{} files decoded with errors", r.files_with_errors));
    }
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}");
    if a.json {
        for e in &r.entries {
            w(&mut *out, entry_json(e, a.places).to_string())?;
        }
    } else {
        w(
            &mut *out,
            format!(
                "{} files ({} bytes; {} with decode errors, {} of no known format skipped), {} entries, {} relations",
                r.files,
                r.bytes,
                r.files_with_errors,
                r.skipped,
                r.entries.len(),
                r.relations.len()
            ),
        )?;
        for e in &r.entries {
            let off = match (e.offset, e.offset_varies) {
                (Some(o), false) => format!("+0x{o:02x}"),
                _ => String::new(),
            };
            let top: Vec<String> = e.values.iter().take(4).map(|v| format!("{} x{}", v.value, v.count)).collect();
            let more = if e.values.len() > 4 || e.tail.is_some() { ", ..." } else { "" };
            w(
                &mut *out,
                format!(
                    "{:<24} {:>7} {:<12} {:<40} {:>6} files {:>7} records {:>5} distinct{}  {}{}",
                    e.record,
                    off,
                    e.kind,
                    e.path,
                    e.files,
                    e.records,
                    e.distinct,
                    if e.constant { " constant" } else { "" },
                    top.join(", "),
                    more
                ),
            )?;
        }
        for rel in &r.relations {
            w(&mut *out, format!("relation: {} always equals {} ({} records)", rel.path, rel.equals, rel.records))?;
        }
    }
    Ok(())
}
