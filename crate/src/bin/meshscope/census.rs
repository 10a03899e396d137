//! `meshscope census`: what every field and unexplained byte holds across many files.
//! Files are read, decoded, counted and dropped one at a time.

use meshscope::census::report::{EntryReport, Shown};
use meshscope::census::Census;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const USAGE: &str = "meshscope census [--json] [--places] [--max-values N] [--threads N] FILE|DIR...";

/// Files under `p` (itself when it is a file), in name order.
fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if p.is_dir() {
        let mut kids: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        kids.sort();
        for k in kids {
            collect(&k, out)?;
        }
    } else {
        out.push(p.to_path_buf());
    }
    Ok(())
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

pub fn run(args: &[String]) -> Result<(), String> {
    let mut json_out = false;
    let mut places = false;
    let mut max_values = meshscope::census::report::REPORT_VALUES;
    // Threads: the census counts on one, in file order, the others decode; all cores by default.
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut inputs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json_out = true,
            "--places" => places = true,
            "--threads" => {
                let v = it.next().ok_or("--threads needs a value")?;
                threads = v.parse().map_err(|_| format!("not a number: {v}"))?;
            }
            "--max-values" => {
                let v = it.next().ok_or("--max-values needs a value")?;
                max_values = v.parse().map_err(|_| format!("not a number: {v}"))?;
            }
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s}\nusage: {USAGE}")),
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        return Err(format!("usage: {USAGE}"));
    }
    let mut files = Vec::new();
    for p in &inputs {
        collect(p, &mut files)?;
    }
    let mut c = Census::new();
    c.add_files(files.len(), threads, |i| {
        let f = &files[i];
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        Ok((f.to_string_lossy().into_owned(), bytes))
    })?;
    let r = c.report(max_values);
    let mut out = std::io::stdout().lock();
    let w = |out: &mut std::io::StdoutLock, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    if json_out {
        for e in &r.entries {
            w(&mut out, entry_json(e, places).to_string())?;
        }
    } else {
        w(
            &mut out,
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
                &mut out,
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
            w(&mut out, format!("relation: {} always equals {} ({} records)", rel.path, rel.equals, rel.records))?;
        }
    }
    Ok(())
}
