//! Census benchmark: `cargo run --release --example bench_census [-- FILES...]`.
//!
//! Without arguments it censuses 48,000 generated MeshSet-sized documents (a header, one to
//! four LOD records, one to eight 384-byte section records per LOD, about 400 spans and
//! 5 KB each, with gaps and Unknown bytes), built one at a time and dropped, and prints the
//! time spent in `Census::add` and in the report, apart from generating and dropping them
//! (`N=2000` censuses fewer). With files (or
//! folders) it reads, decodes and censuses them as `meshscope census` does and prints the
//! whole time, reading and decoding included (`--repeat N` censuses them N times over).

use meshscope::census::Census;
use meshscope::document::{Decode, Document};
use meshscope::formats::Format;
use meshscope::span::{Confidence, Fields};
use std::time::{Duration, Instant};

/// A xorshift generator: the set is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// One record of `len` bytes at the end of `bytes`: a u32 field every 4 bytes except every
/// seventh word, which is left uncovered, and every eleventh, which is Unknown.
fn record(bytes: &mut Vec<u8>, f: &mut Fields, path: &str, len: u64, rng: &mut Rng) {
    let start = bytes.len() as u64;
    f.record(path, start, len);
    for w in 0..len / 4 {
        let v = match w % 5 {
            0 => rng.next() % 4,
            1 => rng.next(),
            _ => w as u32,
        };
        let at = bytes.len() as u64;
        bytes.extend_from_slice(&v.to_le_bytes());
        if w % 7 == 6 {
            continue;
        }
        let c = if w % 11 == 10 { Confidence::Unknown } else { Confidence::Observed };
        f.add(at, 4, format!("{path}.field_{w:02x}"), "u32", v.to_string(), c, "");
    }
}

fn meshset(i: u32, rng: &mut Rng) -> Document {
    let mut bytes = Vec::with_capacity(8192);
    let mut f = Fields::default();
    record(&mut bytes, &mut f, "header", 0xd0, rng);
    let lods = 1 + rng.next() % 4;
    let sections: Vec<u32> = (0..lods).map(|_| 1 + rng.next() % 8).collect();
    for k in 0..lods {
        record(&mut bytes, &mut f, &format!("lod[{k}]"), 0xb0, rng);
    }
    for (k, n) in sections.iter().enumerate() {
        for j in 0..*n {
            record(&mut bytes, &mut f, &format!("lod[{k}].section[{j}]"), 384, rng);
        }
    }
    let d = Decode { fields: f, ..Decode::default() };
    Document::from_decode(&format!("mesh{i:05}.MeshSet"), Format::FrostbiteMeshSet, bytes, d)
}

/// `[--repeat N] FILE|DIR...`: every file read once, then censused N times over.
fn files(args: &[String]) {
    let mut repeat = 1;
    let mut args = args.to_vec();
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).and_then(|n| n.parse().ok()).expect("--repeat N");
        args.drain(i..i + 2);
    }
    let mut paths = Vec::new();
    fn walk(p: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        if p.is_dir() {
            let mut k: Vec<_> = std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).collect();
            k.sort();
            k.iter().for_each(|x| walk(x, out));
        } else {
            out.push(p.to_path_buf());
        }
    }
    args.iter().for_each(|a| walk(a.as_ref(), &mut paths));
    let t = Instant::now();
    let mut c = Census::new();
    for r in 0..repeat {
        for p in &paths {
            let b = std::fs::read(p).expect("readable file");
            c.add_file(&format!("{r}/{}", p.to_string_lossy()), b);
        }
    }
    let r = c.report(1000);
    println!(
        "{} files ({} bytes, {} skipped): read + decode + census + report in {:.3} s; {} entries, {} relations",
        r.files, r.bytes, r.skipped, t.elapsed().as_secs_f64(), r.entries.len(), r.relations.len()
    );
}

#[allow(non_snake_case)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        return files(&args);
    }
    let n_env = std::env::var("N").ok().and_then(|v| v.parse().ok());
    let N: u32 = n_env.unwrap_or(48_000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut gen, mut add, mut dropping) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut bytes, mut spans) = (0u64, 0u64);
    let mut c = Census::new();
    for i in 0..N {
        let t = Instant::now();
        let d = meshset(i, &mut rng);
        gen += t.elapsed();
        bytes += d.bytes.len() as u64;
        spans += d.spans.fixed().len() as u64;
        let t = Instant::now();
        c.add(&d);
        add += t.elapsed();
        let t = Instant::now();
        drop(d);
        dropping += t.elapsed();
    }
    let t = Instant::now();
    let r = c.report(1000);
    let report = t.elapsed();
    println!(
        "{N} generated documents ({bytes} bytes, {spans} spans): census add {:.3} s, report {:.3} s; not counted: generating them (Document::from_decode included) {:.3} s, dropping them {:.3} s; {} entries, {} relations",
        add.as_secs_f64(), report.as_secs_f64(), gen.as_secs_f64(), dropping.as_secs_f64(), r.entries.len(), r.relations.len()
    );
}
