//! Census benchmark: `cargo run --release --example bench_census [-- FILES...]`.
//!
//! Without arguments it censuses 48,000 MeshSet resources made by the MeshSet builder (rigid,
//! skinned and composite; one to four LODs of one to six sections; a few KB each), the size
//! of the set the description was worked out from. Building them is not timed; each is then
//! decoded by the real decoder, planned, counted and dropped, as `meshscope census` does, and
//! the decode + census + report time is printed on one thread and on every core, three runs
//! each (`RUNS=`; the census counts on one thread in file order either way, the others decode
//! and plan; `N=4800` censuses fewer). With files (or
//! folders) it reads, decodes and censuses them as `meshscope census` does and prints the
//! whole time, reading and decoding included (`--repeat N` censuses them N times over).
//! `--pack PATH` writes the generated set as one file for the page's census benchmark.

#[path = "../tests/common/sets.rs"]
mod sets;

use meshscope::census::Census;
use sets::{meshset, Rng};
use std::time::Instant;

// The command line's allocator, so that the figures are its figures (memory.rs).
meshscope::native_allocator!();

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
    let n = paths.len();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    c.add_files(n * repeat, threads, |i| {
        let p = &paths[i % n];
        let b = std::fs::read(p).map_err(|e| e.to_string())?;
        Ok((format!("{}/{}", i / n, p.to_string_lossy()), b))
    })
    .expect("readable files");
    let r = c.report(1000);
    println!(
        "{} files ({} bytes, {} skipped): read + decode + census + report in {:.3} s; {} entries, {} relations",
        r.files,
        r.bytes,
        r.skipped,
        t.elapsed().as_secs_f64(),
        r.entries.len(),
        r.relations.len()
    );
}

/// CPU seconds (user and system) from a `/proc` stat file: the process's (`self`) or the
/// calling thread's (`thread-self`); 0 where there is none. On a shared machine these say more
/// than the wall time.
fn cpu_seconds(of: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{of}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let ticks: f64 = rest.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<f64>().ok()).sum();
    ticks / 100.0
}

/// `--pack PATH`: writes the set as one file and `PATH.json` (name, offset, length of each),
/// for the page's census benchmark (scripts/bench-census-page.mjs) to cut into Files.
fn pack(path: &str, files: &[Vec<u8>]) {
    let mut index = Vec::new();
    let mut at = 0;
    for (i, f) in files.iter().enumerate() {
        index.push(format!("[\"mesh{i:05}.MeshSet\",{at},{}]", f.len()));
        at += f.len();
    }
    if let Some(dir) = std::path::Path::new(path).parent() {
        std::fs::create_dir_all(dir).expect("pack folder");
    }
    std::fs::write(path, files.concat()).expect("pack");
    std::fs::write(format!("{path}.json"), format!("[{}]", index.join(","))).expect("pack index");
    println!("{} MeshSets, {at} bytes: {path}", files.len());
}

#[allow(non_snake_case)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pack_to = args.iter().position(|a| a == "--pack").and_then(|i| args.get(i + 1)).cloned();
    if !args.is_empty() && pack_to.is_none() {
        return files(&args);
    }
    let n_env = std::env::var("N").ok().and_then(|v| v.parse().ok());
    let N: u32 = n_env.unwrap_or(48_000);
    let mut rng = Rng(sets::SEED);
    let t = Instant::now();
    let files: Vec<Vec<u8>> = (0..N).map(|i| meshset(i, &mut rng)).collect();
    let gen = t.elapsed();
    if let Some(p) = pack_to {
        return pack(&p, &files);
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut runs = vec![1];
    if cores > 1 {
        runs.push(cores);
    }
    // Each configuration runs RUNS times (3 by default): this shared machine's second core
    // is sometimes slow to come, so the spread is printed, and the best and the median.
    let repeats: usize = std::env::var("RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3).max(1);
    for threads in runs {
        let (mut times, mut cpus) = (Vec::new(), Vec::new());
        for _ in 0..repeats {
            let (t, cpu, own) = (Instant::now(), cpu_seconds("self"), cpu_seconds("thread-self"));
            let mut c = Census::new();
            c.add_files(files.len(), threads, |i| Ok((format!("mesh{i:05}.MeshSet"), files[i].clone())))
                .expect("in memory");
            let add = t.elapsed();
            let t = Instant::now();
            let r = c.report(1000);
            let report = t.elapsed();
            let all = (add + report).as_secs_f64();
            let (cpu, own) = (cpu_seconds("self") - cpu, cpu_seconds("thread-self") - own);
            times.push(all);
            cpus.push((cpu, own));
            println!(
                "{N} builder-made MeshSets ({bytes} bytes, {} with errors), on {threads} thread(s) ({}): decode + census {:.3} s, report {:.3} s, together {all:.3} s ({:.0} files/s), CPU {cpu:.2} s, {own:.2} s of it on the counting thread; not counted: building them {:.3} s; {} entries, {} relations",
                r.files_with_errors, if threads > 1 { format!("{} decoding and planning while one counts", threads - 1) } else { "decoding, planning and counting".to_string() }, add.as_secs_f64(), report.as_secs_f64(), N as f64 / all, gen.as_secs_f64(), r.entries.len(), r.relations.len()
            );
        }
        times.sort_by(f64::total_cmp);
        cpus.sort_by(|a, b| a.0.total_cmp(&b.0));
        println!(
            "  {threads} thread(s), {repeats} runs: best {:.3} s ({:.0} files/s), median {:.3} s; least CPU {:.2} s ({:.2} s counting thread)",
            times[0],
            N as f64 / times[0],
            times[times.len() / 2],
            cpus[0].0,
            cpus[0].1
        );
    }
}
