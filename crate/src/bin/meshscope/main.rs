//! `meshscope`: the decoders on the command line. JSON Lines out, one object per file.
//!
//! Exit codes: 0 when every file was read and decoded cleanly; 1 when a file could not be read
//! or decoded with errors (every other file is still processed); 2 for a usage error. A closed
//! pipe (`meshscope census DIR | head`) ends the program quietly.

meshscope::native_allocator!();

mod census;
mod diff;
mod export;
mod frostbite;
mod gem_ply;
mod inspect;

use clap::{Parser, Subcommand};
use meshscope::document::Document;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXIT_CODES: &str = "Exit codes:
  0  every file was read and decoded cleanly
  1  a file could not be read, or decoded with errors (every other file is still processed)
  2  usage error
(diff: 0 the files are the same, 1 they differ, 2 any other failure)";

#[derive(Parser)]
#[command(
    name = "meshscope",
    version,
    about = "Inspects game mesh binaries: GEM engine .ply and Frostbite MeshSets with their geometry chunks",
    after_help = EXIT_CODES,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decodes files and prints their format, coverage and errors (--json: one object a file)
    Inspect(inspect::Args),
    /// Prints the spans of a file, one JSON object a line
    Spans(SpansArgs),
    /// Writes a file's mesh as Wavefront OBJ (one LOD) or glTF binary (every LOD)
    Export(export::Args),
    /// Decodes each file, writes it back and says whether the bytes are identical
    Roundtrip(RoundtripArgs),
    /// What every field and unexplained byte holds across many files
    Census(census::Args),
    /// Compares two files by structure (exit 1: they differ)
    Diff(diff::DiffArgs),
}

#[derive(clap::Args)]
#[command(after_help = EXIT_CODES)]
struct SpansArgs {
    /// The file
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// First byte offset (decimal or 0x hex)
    #[arg(long, value_name = "A", value_parser = number)]
    from: Option<u64>,
    /// End byte offset, exclusive (decimal or 0x hex)
    #[arg(long, value_name = "B", value_parser = number)]
    to: Option<u64>,
    /// A geometry chunk to attach: PATH (matched by the GUID in its name) or lodN=PATH (to LOD N)
    #[arg(long, value_name = "[lodN=]PATH")]
    chunk: Vec<String>,
}

#[derive(clap::Args)]
#[command(after_help = EXIT_CODES)]
struct RoundtripArgs {
    /// Files to decode and write back
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// How a command ended early: the output was closed, or something no file can be blamed for.
pub enum Stop {
    /// stdout is a closed pipe: end quietly.
    Pipe,
    /// A usage error found after parsing, or `diff` failing (exit 2).
    Usage(String),
    /// Writing the output failed (exit 1).
    Fatal(String),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Stop::Pipe
        } else {
            Stop::Fatal(format!("writing the output: {e}"))
        }
    }
}

/// What a command met on the way: any problem with a file makes the exit code 1.
#[derive(Default)]
pub struct Problems {
    any: bool,
}

impl Problems {
    /// Reports a problem with one file on stderr and remembers it for the exit code.
    pub fn report(&mut self, what: impl std::fmt::Display) {
        self.any = true;
        writeln!(std::io::stderr(), "meshscope: {what}").ok();
    }

    /// Says something on stderr that does not change the exit code.
    pub fn note(&self, what: impl std::fmt::Display) {
        writeln!(std::io::stderr(), "meshscope: {what}").ok();
    }

    /// Reports each decode error of a document (on stderr) as a problem.
    pub fn decode_errors(&mut self, file: &str, doc: &Document) {
        for e in &doc.errors {
            self.report(format!("{file}: {e}"));
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and --version go to stdout with 0; usage errors to stderr with 2.
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            e.print().ok();
            return ExitCode::from(code);
        }
    };
    let mut problems = Problems::default();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = match &cli.command {
        Command::Inspect(a) => inspect::run(a, &mut out, &mut problems),
        Command::Spans(a) => spans(a, &mut out, &mut problems),
        Command::Export(a) => export::run(a, &mut out, &mut problems),
        Command::Roundtrip(a) => roundtrip(a, &mut out, &mut problems),
        Command::Census(a) => census::run(a, &mut out, &mut problems),
        Command::Diff(a) => match diff::run(a) {
            Ok(differ) => {
                problems.any = differ;
                Ok(())
            }
            Err(e) => Err(Stop::Usage(e)),
        },
    };
    let result = result.and_then(|()| out.flush().map_err(Stop::from));
    match result {
        Ok(()) | Err(Stop::Pipe) => ExitCode::from(problems.any as u8),
        Err(Stop::Usage(m)) => {
            writeln!(std::io::stderr(), "meshscope: {m}").ok();
            ExitCode::from(2)
        }
        Err(Stop::Fatal(m)) => {
            writeln!(std::io::stderr(), "meshscope: {m}").ok();
            ExitCode::from(1)
        }
    }
}

/// A byte offset: decimal, or hex after `0x`.
fn number(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("not a number: {s}"))
}

/// The path as given, for messages and the `file` key.
pub fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Opens a file and attaches its companions: those the format finds beside it and `extra`.
/// `None` when the file cannot be read; a companion that cannot be read is reported and left
/// out. Every problem goes to `problems`.
pub fn open_with_companions(path: &Path, extra: &[String], problems: &mut Problems) -> Option<Document> {
    let bytes = read(path).map_err(|e| problems.report(e)).ok()?;
    let mut doc = meshscope::open(&file_name(path), bytes);
    let mut companions: Vec<PathBuf> = frostbite::companions(&doc, path);
    let mut by_hand = Vec::new();
    for x in extra {
        match frostbite::by_hand(x) {
            Some(h) => by_hand.push(h),
            None => companions.push(PathBuf::from(x)),
        }
    }
    for c in companions {
        let Ok(b) = read(&c).map_err(|e| problems.report(e)) else { continue };
        if let Err(e) = doc.attach(&file_name(&c), b) {
            doc.errors.push(e);
        }
    }
    for (lod, p) in by_hand {
        let p = PathBuf::from(p);
        let Ok(b) = read(&p).map_err(|e| problems.report(e)) else { continue };
        if let Err(e) = frostbite::attach_to(&mut doc, lod, &file_name(&p), b) {
            doc.errors.push(e);
        }
    }
    Some(doc)
}

fn spans(a: &SpansArgs, out: &mut impl Write, problems: &mut Problems) -> Result<(), Stop> {
    let Some(doc) = open_with_companions(&a.file, &a.chunk, problems) else { return Ok(()) };
    problems.decode_errors(&shown(&a.file), &doc);
    let from = a.from.unwrap_or(0);
    let to = a.to.unwrap_or(doc.bytes.len() as u64);
    for s in doc.spans_in(from, to) {
        serde_json::to_writer(&mut *out, &s).map_err(std::io::Error::from)?;
        writeln!(out)?;
    }
    Ok(())
}

fn roundtrip(a: &RoundtripArgs, out: &mut impl Write, problems: &mut Problems) -> Result<(), Stop> {
    for path in &a.files {
        let f = shown(path);
        let Ok(bytes) = read(path).map_err(|e| problems.report(e)) else { continue };
        let doc = meshscope::open(&file_name(path), bytes);
        problems.decode_errors(&f, &doc);
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
        writeln!(out, "{v}")?;
    }
    Ok(())
}
