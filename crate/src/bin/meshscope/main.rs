//! `meshscope`: the decoders on the command line. JSON Lines out, one object per file.

mod census;
mod diff;
mod frostbite;
mod gem_ply;

use meshscope::document::Document;
use meshscope::export::gltf::write_glb;
use meshscope::export::obj::write_obj;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage:
  meshscope inspect [--json] [--chunk [lodN=]PATH]... FILE...
  meshscope spans FILE [--from A] [--to B]
  meshscope export FILE --format obj|glb [--lod N] [-o OUT]   (glb: every LOD)
  meshscope roundtrip FILE...
  meshscope census [--json] [--places] [--max-values N] FILE|DIR...
  meshscope diff [--json] [--chunk [lodN=]PATH]... [--chunk-b [lodN=]PATH]... A B   (exit 1: they differ)";

fn main() -> ExitCode {
    // Files are decoded one after another: freed memory stays in the process (memory.rs).
    meshscope::memory::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("inspect") => inspect(&args[1..]),
        Some("spans") => spans(&args[1..]),
        Some("export") => export(&args[1..]),
        Some("roundtrip") => roundtrip(&args[1..]),
        Some("census") => census::run(&args[1..]),
        Some("diff") => match diff::parse(&args[1..]).and_then(|a| diff::run(&a)) {
            Ok(true) => return ExitCode::from(1),
            r => r.map(|_| ()),
        },
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("meshscope: {e}");
            ExitCode::from(2)
        }
    }
}

/// Command-line options: flags with a value, and the rest as positional arguments.
struct Opts {
    values: Vec<(String, String)>,
    flags: Vec<String>,
    files: Vec<String>,
}

fn parse(args: &[String], with_value: &[&str], switches: &[&str]) -> Result<Opts, String> {
    let mut o = Opts { values: Vec::new(), flags: Vec::new(), files: Vec::new() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if with_value.contains(&a.as_str()) {
            let v = it.next().ok_or(format!("{a} needs a value"))?;
            o.values.push((a.clone(), v.clone()));
        } else if switches.contains(&a.as_str()) {
            o.flags.push(a.clone());
        } else if a.starts_with('-') && a.len() > 1 {
            return Err(format!("unknown option {a}\n{USAGE}"));
        } else {
            o.files.push(a.clone());
        }
    }
    Ok(o)
}

impl Opts {
    fn value(&self, k: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
    }
    fn all(&self, k: &str) -> Vec<&str> {
        self.values.iter().filter(|(n, _)| n == k).map(|(_, v)| v.as_str()).collect()
    }
}

fn number(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("not a number: {s}"))
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

fn file_name(path: &str) -> String {
    Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Opens a file and attaches its companions: those the format finds beside it and `extra`.
pub fn open_with_companions(path: &str, extra: &[&str]) -> Result<Document, String> {
    let bytes = read(path)?;
    let mut doc = meshscope::open(&file_name(path), bytes);
    let mut companions: Vec<PathBuf> = frostbite::companions(&doc, Path::new(path));
    let mut by_hand = Vec::new();
    for x in extra {
        match frostbite::by_hand(x) {
            Some(h) => by_hand.push(h),
            None => companions.push(PathBuf::from(x)),
        }
    }
    for c in companions {
        let p = c.to_string_lossy().into_owned();
        let b = read(&p)?;
        if let Err(e) = doc.attach(&file_name(&p), b) {
            doc.errors.push(e);
        }
    }
    for (lod, p) in by_hand {
        let b = read(&p)?;
        if let Err(e) = frostbite::attach_to(&mut doc, lod, &file_name(&p), b) {
            doc.errors.push(e);
        }
    }
    Ok(doc)
}

fn inspect_json(doc: &Document) -> Value {
    let s = doc.summary();
    let mut v = json!({
        "file": s.file,
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

fn inspect(args: &[String]) -> Result<(), String> {
    let o = parse(args, &["--chunk"], &["--json"])?;
    if o.files.is_empty() {
        return Err(USAGE.into());
    }
    let mut out = std::io::stdout().lock();
    for f in &o.files {
        let doc = open_with_companions(f, &o.all("--chunk"))?;
        let mut v = inspect_json(&doc);
        v["file"] = json!(f);
        if o.flags.iter().any(|x| x == "--json") {
            writeln!(out, "{v}").map_err(|e| e.to_string())?;
        } else {
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
            )
            .map_err(|e| e.to_string())?;
            for e in &doc.errors {
                writeln!(out, "  error {e}").map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

fn spans(args: &[String]) -> Result<(), String> {
    let o = parse(args, &["--from", "--to", "--chunk"], &["--json"])?;
    let f = o.files.first().ok_or(USAGE)?;
    let doc = open_with_companions(f, &o.all("--chunk"))?;
    let from = o.value("--from").map(number).transpose()?.unwrap_or(0);
    let to = o.value("--to").map(number).transpose()?.unwrap_or(doc.bytes.len() as u64);
    let mut out = std::io::stdout().lock();
    for s in doc.spans_in(from, to) {
        writeln!(out, "{}", serde_json::to_string(&s).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn export(args: &[String]) -> Result<(), String> {
    let o = parse(args, &["--format", "--lod", "-o", "--chunk"], &[])?;
    let f = o.files.first().ok_or(USAGE)?;
    let doc = open_with_companions(f, &o.all("--chunk"))?;
    let lod_n = o.value("--lod").map(number).transpose()?.unwrap_or(0) as usize;
    let lod = doc.mesh.lods.get(lod_n).ok_or(format!("{f}: no LOD {lod_n} decoded"))?;
    let data = match o.value("--format").unwrap_or("obj") {
        "obj" => write_obj(lod, &doc.name).into_bytes(),
        "glb" => write_glb(&doc.mesh, &doc.name).map_err(|e| format!("{f}: {e}"))?,
        other => return Err(format!("unknown export format {other}")),
    };
    match o.value("-o") {
        Some(p) => std::fs::write(p, data).map_err(|e| format!("{p}: {e}")),
        None => std::io::stdout().lock().write_all(&data).map_err(|e| e.to_string()),
    }
}

fn roundtrip(args: &[String]) -> Result<(), String> {
    let o = parse(args, &[], &[])?;
    let mut out = std::io::stdout().lock();
    for f in &o.files {
        let bytes = read(f)?;
        let doc = meshscope::open(&file_name(f), bytes);
        let v = match doc.rewrite() {
            None => json!({"file": f, "format": doc.format, "identical": false, "error": "no writer for this format"}),
            Some(Err(e)) => json!({"file": f, "format": doc.format, "identical": false, "error": e.to_string()}),
            Some(Ok(w)) => {
                let first_diff = w.iter().zip(&doc.bytes).position(|(a, b)| a != b).or(if w.len() != doc.bytes.len() {
                    Some(w.len().min(doc.bytes.len()))
                } else {
                    None
                });
                json!({"file": f, "format": doc.format, "identical": first_diff.is_none(),
                       "size": doc.bytes.len(), "written": w.len(), "first_difference": first_diff})
            }
        };
        writeln!(out, "{v}").map_err(|e| e.to_string())?;
    }
    Ok(())
}
