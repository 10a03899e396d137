//! `meshscope diff A B`: two files compared by structure (crate/src/diff/). Exits 0 when they
//! are the same, 1 when they differ, 2 on any other failure, as `diff` does.

use meshscope::diff::{compare, Comparison, Difference, Options, Side};
use meshscope::document::Document;
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// The arguments of `meshscope diff`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::EXIT_CODES)]
pub struct DiffArgs {
    /// One JSON object per difference (JSON Lines).
    #[arg(long)]
    pub json: bool,
    /// A geometry chunk for A, matched by name, or attached to LOD N with `lodN=PATH`.
    #[arg(long = "chunk", value_name = "[lodN=]PATH")]
    pub chunk: Vec<String>,
    /// A geometry chunk for B, as `--chunk` is for A.
    #[arg(long = "chunk-b", value_name = "[lodN=]PATH")]
    pub chunk_b: Vec<String>,
    /// Vertices closer than this have not moved.
    #[arg(long, default_value_t = Options::default().tolerance)]
    pub tolerance: f32,
    /// How many changed elements of one array are listed one by one (all are counted).
    #[arg(long, default_value_t = Options::default().listed)]
    pub listed: usize,
    /// The first file (A)
    pub a: String,
    /// The second file (B)
    pub b: String,
}

/// A file and its geometry chunks, each a document of its own.
struct Opened {
    doc: Document,
    chunks: Vec<Document>,
}

fn open(path: &str, extra: &[String]) -> Result<Opened, String> {
    let read = |p: &str| std::fs::read(p).map_err(|e| format!("{p}: {e}"));
    let name = |p: &str| Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut doc = meshscope::open(&name(path), read(path)?);
    let mut found = super::frostbite::companions(&doc, Path::new(path));
    let mut by_hand = Vec::new();
    for x in extra {
        match super::frostbite::by_hand(x) {
            Some(h) => by_hand.push(h),
            None => found.push(x.into()),
        }
    }
    let mut chunks = Vec::new();
    for c in found {
        let p = c.to_string_lossy().into_owned();
        match doc.attach(&name(&p), read(&p)?) {
            Ok(d) => chunks.push(d),
            Err(e) => doc.errors.push(e),
        }
    }
    for (lod, p) in by_hand {
        match doc.attach_to_lod(lod, &name(&p), read(&p)?) {
            Ok(d) => chunks.push(d),
            Err(e) => doc.errors.push(e),
        }
    }
    Ok(Opened { doc, chunks })
}

/// Runs the comparison and prints it; whether the files differ.
pub fn run(args: &DiffArgs) -> Result<bool, String> {
    let (a, b) = (open(&args.a, &args.chunk)?, open(&args.b, &args.chunk_b)?);
    let opts = Options { tolerance: args.tolerance, listed: args.listed, geometry: true };
    let mut all = vec![("", compare(&a.doc, &b.doc, &opts))];
    // Chunks are paired in the order they were attached; their geometry is the file's.
    let chunk_opts = Options { geometry: false, ..opts };
    let names: Vec<String> = (0..a.chunks.len().min(b.chunks.len())).map(|i| format!("chunk[{i}]")).collect();
    for (i, (x, y)) in a.chunks.iter().zip(&b.chunks).enumerate() {
        all.push((names[i].as_str(), compare(x, y, &chunk_opts)));
    }
    let mut out = std::io::stdout().lock();
    let mut differ = a.chunks.len() != b.chunks.len();
    for (file, c) in &all {
        differ |= !c.same();
        print(&mut out, file, c, args.json).map_err(|e| e.to_string())?;
    }
    if a.chunks.len() != b.chunks.len() {
        let line = format!("{} geometry chunks in A, {} in B", a.chunks.len(), b.chunks.len());
        writeln!(out, "{}", if args.json { json!({"kind": "chunks", "note": line}).to_string() } else { line })
            .map_err(|e| e.to_string())?;
    }
    Ok(differ)
}

fn print(out: &mut impl Write, file: &str, c: &Comparison, as_json: bool) -> std::io::Result<()> {
    for d in &c.differences {
        if as_json {
            let mut v = serde_json::to_value(d).unwrap_or_default();
            if !file.is_empty() {
                v["file"] = json!(file);
            }
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{}", line(file, d))?;
        }
    }
    Ok(())
}

fn side(name: &str, s: &Option<Side>) -> String {
    match s {
        None => format!("{name}: -"),
        Some(s) => match s.offset {
            Some(o) => format!("{name}@0x{o:x}: {}", s.value),
            None => format!("{name}: {}", s.value),
        },
    }
}

/// One difference as a line of text.
fn line(file: &str, d: &Difference) -> String {
    let place = if file.is_empty() { d.path.clone() } else { format!("{file}:{}", d.path) };
    let mut s = format!("{:<11} {place}", d.kind.name());
    s.push_str(&format!("  {}  {}", side("A", &d.a), side("B", &d.b)));
    if let Some(n) = d.changed {
        s.push_str(&format!("  ({n} changed)"));
    }
    if !d.delta.is_empty() {
        let parts: Vec<String> = d.delta.iter().map(|x| format!("{:+}", *x as f32)).collect();
        s.push_str(&format!("  delta {}", parts.join(", ")));
    }
    if !d.note.is_empty() {
        s.push_str(&format!("  ({})", d.note));
    }
    s
}
