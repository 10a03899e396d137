//! The real `.ply` samples compared pairwise: the differences the diff gives for the bounds
//! (`BNDS.min`, `BNDS.max`) and the vertex count are the ones this test reads from the bytes
//! itself; the command line exits 0, 1 and 2 as `diff` does.

mod common;

use meshscope::diff::{compare, Kind, Options};
use std::process::Command;

/// The samples as (path, bytes), sorted; `None` when the folder is missing (tests/common).
fn samples() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::samples()?.join("gem-ply");
    let files = common::gem_ply_samples()?;
    Some(files.into_iter().map(|(n, b)| (dir.join(n).to_string_lossy().into_owned(), b)).collect())
}

fn f32s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64).collect()
}

/// The vertex count after the first `VERT` FourCC (spec: VERT, int32 count, uint16 size).
fn vertex_count(b: &[u8]) -> i64 {
    let at = b.windows(4).position(|w| w == b"VERT").expect("a VERT chunk") + 4;
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as i64
}

#[test]
fn sample_pairs_differ_where_their_bytes_say() {
    let Some(files) = samples() else { return };
    assert_eq!(files.len(), 6);
    let docs: Vec<_> = files.iter().map(|(n, b)| meshscope::open(n, b.clone())).collect();
    let mut pairs = 0;
    for (i, (_, ba)) in files.iter().enumerate() {
        for (j, (_, bb)) in files.iter().enumerate().filter(|&(j, _)| j != i) {
            let c = compare(&docs[i], &docs[j], &Options::default());
            assert_eq!(c.same(), ba == bb);
            let back = compare(&docs[j], &docs[i], &Options::default());
            assert_eq!(back.differences, c.mirrored().differences, "{j} vs {i} mirrors {i} vs {j}");
            let at = |p: &str| c.differences.iter().find(|d| d.path == p && d.kind == Kind::Changed);
            // Every sample starts with its magic and a BNDS chunk: min at 8, max at 20.
            assert_eq!(&ba[4..8], b"BNDS");
            for (path, range) in [("BNDS.min", 8..20), ("BNDS.max", 20..32)] {
                let (pa, pb) = (f32s(&ba[range.clone()]), f32s(&bb[range.clone()]));
                match at(path) {
                    None => assert_eq!(pa, pb, "{path}: {i} vs {j}"),
                    Some(d) => {
                        assert_ne!(pa, pb);
                        let want: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| y - x).collect();
                        assert_eq!(d.delta, want, "{path}: {i} vs {j}");
                        assert_eq!(d.a.as_ref().unwrap().offset, Some(range.start as u64));
                    }
                }
            }
            let (na, nb) = (vertex_count(ba), vertex_count(bb));
            match at("VERT.vertex_count") {
                None => assert_eq!(na, nb),
                Some(d) => assert_eq!(d.delta, [(nb - na) as f64]),
            }
            pairs += 1;
        }
    }
    assert_eq!(pairs, 30);
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_meshscope")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_command_line_exits_as_diff_does() {
    let Some(files) = samples() else { return };
    let gun = files.iter().find(|(n, _)| n.ends_with("gun2.ply")).expect("gun2.ply").0.as_str();
    let ger = files.iter().find(|(n, _)| n.ends_with("ger1.ply")).expect("ger1.ply").0.as_str();
    assert_eq!(run(&["diff", gun, gun]), (0, String::new()));
    let (code, out) = run(&["diff", "--json", gun, ger]);
    assert_eq!(code, 1);
    let docs = [gun, ger].map(|p| meshscope::open(p, std::fs::read(p).unwrap()));
    let c = compare(&docs[0], &docs[1], &Options::default());
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), c.differences.len());
    for (l, d) in lines.iter().zip(&c.differences) {
        assert_eq!(l["path"], d.path.as_str());
        assert_eq!(l["kind"], d.kind.name());
    }
    assert_eq!(run(&["diff", gun, "/nonexistent/file.ply"]).0, 2);
    assert_eq!(run(&["diff", gun]).0, 2);
}
