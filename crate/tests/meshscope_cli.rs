//! The command line as a person meets it: help and version, `--opt=value`, suggestions, exit
//! codes (0 clean, 1 a file unreadable or decoded with errors, 2 usage), files after a missing
//! one still read, a closed pipe, binary refused on a terminal, one refusal for OBJ and glb,
//! `inspect --json` key order, and a census of a folder with a symlink loop. Inputs are the
//! built-in sample and builder-made files, written to a temporary folder.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_meshscope");

/// A new folder for a test's files, removed when the test ends (passed or not).
fn tmp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("meshscope-cli-{name}-")).tempdir().unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The built-in sample (a clean GEM torus), and the same cut in the middle of its vertices.
fn samples(d: &Path) -> (String, String) {
    let b = meshscope::sample::sample_ply();
    let clean = d.join("torus.ply");
    std::fs::write(&clean, &b).unwrap();
    let cut = d.join("cut.ply");
    std::fs::write(&cut, &b[..b.len() / 2]).unwrap();
    (clean.to_string_lossy().into_owned(), cut.to_string_lossy().into_owned())
}

#[test]
fn help_on_the_tool_and_every_subcommand_goes_to_stdout_with_exit_0() {
    let subs = ["inspect", "spans", "export", "roundtrip", "census", "diff"];
    let mut calls: Vec<Vec<&str>> = vec![vec!["--help"], vec!["-h"], vec!["help"]];
    for s in subs {
        calls.push(vec![s, "--help"]);
        calls.push(vec![s, "-h"]);
        calls.push(vec!["help", s]);
    }
    for args in calls {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        assert!(out.contains("Usage: meshscope"), "{args:?}: {out}");
        assert!(out.contains("Exit codes:"), "{args:?}: the exit codes are in the help");
        assert!(o.stderr.is_empty(), "{args:?}");
    }
    let top = text(&run(&["--help"]).stdout);
    for s in subs {
        assert!(top.contains(&format!("  {s} ")), "the tool's help lists {s}");
    }
    // Every option of a subcommand is in its help.
    let export = text(&run(&["export", "--help"]).stdout);
    for opt in ["--format", "--lod", "-o, --output", "--chunk"] {
        assert!(export.contains(opt), "export --help names {opt}");
    }
    let census = text(&run(&["census", "--help"]).stdout);
    for opt in ["--json", "--places", "--max-values", "--threads"] {
        assert!(census.contains(opt), "census --help names {opt}");
    }
    assert!(text(&run(&["spans", "--help"]).stdout).contains("--chunk"));
}

#[test]
fn version_is_the_crate_version() {
    let o = run(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), format!("meshscope {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn usage_errors_exit_2_with_a_suggestion() {
    let o = run(&["inspct", "x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("unrecognized subcommand 'inspct'") && err.contains("'inspect'"), "{err}");
    assert!(o.stdout.is_empty());
    let o = run(&["inspect", "--jsn", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--json"), "did you mean --json");
    let o = run(&["export", "x", "--format", "gltf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("[possible values: obj, glb]"), "{}", text(&o.stderr));
    assert_eq!(run(&[]).status.code(), Some(2), "no subcommand");
    assert_eq!(run(&["inspect"]).status.code(), Some(2), "no file");
    assert_eq!(run(&["spans", "x", "--from", "12q"]).status.code(), Some(2), "not a number");
}

#[test]
fn exit_codes_follow_the_files_and_a_missing_file_does_not_stop_the_others() {
    let d_dir = tmp("exit");
    let d = d_dir.path();
    let (clean, cut) = samples(d);
    let o = run(&["inspect", &clean]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stderr.is_empty());

    let missing = d.join("missing.ply").to_string_lossy().into_owned();
    let o = run(&["inspect", "--json", &missing, &clean]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "the file after the missing one is inspected");
    assert_eq!(lines[0]["file"], clean.as_str());
    assert!(text(&o.stderr).contains(&format!("{missing}: No such file")), "{}", text(&o.stderr));

    let o = run(&["inspect", &cut, &clean]);
    assert_eq!(o.status.code(), Some(1), "a file decoded with errors");
    let out = text(&o.stdout);
    assert_eq!(out.lines().filter(|l| !l.starts_with("  error")).count(), 2, "{out}");
    let errors = meshscope::open("cut.ply", std::fs::read(&cut).unwrap()).errors.len();
    assert!(errors > 0);
    assert_eq!(out.lines().filter(|l| l.starts_with("  error at 0x")).count(), errors);
    assert!(text(&o.stderr).contains(&format!("{cut}: decoded with errors ({errors})")));

    assert_eq!(run(&["spans", &cut]).status.code(), Some(1));
    assert_eq!(run(&["spans", &clean, "--from=0x0", "--to=4"]).status.code(), Some(0));
    assert_eq!(run(&["roundtrip", &clean, &missing]).status.code(), Some(1));
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn inspect_json_keys_are_in_the_readme_order_and_errors_have_a_kind() {
    let d_dir = tmp("json");
    let d = d_dir.path();
    let (clean, cut) = samples(d);
    let o = run(&["inspect", "--json", &clean, &cut]);
    let lines: Vec<Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let want = ["file", "format", "size", "errors", "coverage", "checks", "mesh", "gem_ply"];
    assert_eq!(keys(&lines[0]), want);
    assert_eq!(keys(&lines[0]["coverage"]), ["proven", "observed", "inferred", "unknown", "uncovered"]);
    let check = &lines[0]["checks"][0];
    assert_eq!(keys(check), ["name", "passed", "stored", "measured", "offset", "path", "basis", "tolerance"]);
    assert_eq!(keys(&lines[0]["mesh"][0]), ["vertices", "triangles", "sections", "bounds"]);
    let doc = meshscope::open("cut.ply", std::fs::read(&cut).unwrap());
    let errors = lines[1]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), doc.errors.len());
    for (j, e) in errors.iter().zip(&doc.errors) {
        assert_eq!(keys(j), ["offset", "path", "kind", "message"]);
        assert_eq!(j["kind"], e.kind_name());
        assert_eq!((j["offset"].as_u64(), j["path"].as_str()), (Some(e.offset), Some(e.path.as_str())));
    }
    // The kind is the error's own: a vertex buffer cut short is truncated at its first missing byte.
    assert!(matches!(doc.errors[0].kind, meshscope::error::ErrorKind::Truncated { .. }), "{:?}", doc.errors);
    assert_eq!(errors[0]["kind"], "truncated");
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    let d_dir = tmp("pipe");
    let d = d_dir.path();
    let b = meshscope::sample::sample_ply();
    for i in 0..20 {
        std::fs::write(d.join(format!("t{i:02}.ply")), &b).unwrap();
    }
    // spans prints thousands of lines: reading one and closing the pipe stops it.
    let mut child = Command::new(BIN)
        .args(["spans", d.join("t00.ply").to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with('{'));
    let o = child.wait_with_output().unwrap();
    assert_eq!(text(&o.stderr), "", "nothing said about the pipe");
    assert_eq!(o.status.code(), Some(0));
    // The same with the census (`census DIR | head`).
    let mut child = Command::new(BIN)
        .args(["census", "--json", d.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(text(&o.stderr), "");
    assert_eq!(o.status.code(), Some(0));
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn export_refuses_binary_on_a_terminal() {
    // `script` gives the command a terminal for stdout; without it there is no terminal here.
    let Ok(probe) = Command::new("script").args(["-qec", "true", "/dev/null"]).output() else {
        eprintln!("skipped: no `script` (util-linux) to give the export a terminal");
        return;
    };
    assert!(probe.status.success());
    let d_dir = tmp("tty");
    let d = d_dir.path();
    let (clean, _) = samples(d);
    let cmd = format!("{BIN} export {clean} --format glb");
    let o = Command::new("script").args(["-qec", &cmd, "/dev/null"]).output().unwrap();
    let shown = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{shown}");
    assert!(shown.contains("refusing to write binary glTF to a terminal"), "{shown}");
    assert!(!shown.contains("glTF\u{2}"), "no glb bytes on the terminal");
    // OBJ is text: it goes to the terminal.
    let cmd = format!("{BIN} export {clean} --format obj");
    let o = Command::new("script").args(["-qec", &cmd, "/dev/null"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("\nv "));
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn obj_and_glb_refuse_the_same_broken_file_with_the_same_message() {
    let d_dir = tmp("refuse");
    let d = d_dir.path();
    // The sample cut before its indices: vertices and submeshes, but no triangle.
    let b = meshscope::sample::sample_ply();
    let indx = b.windows(4).position(|w| w == b"INDX").unwrap();
    let cut = d.join("noindex.ply");
    std::fs::write(&cut, &b[..indx]).unwrap();
    let cut = cut.to_string_lossy().into_owned();
    let mut messages = Vec::new();
    for format in ["obj", "glb"] {
        let out = d.join(format!("out.{format}"));
        let o = run(&["export", &cut, "--format", format, "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        assert!(!out.exists(), "{format}: nothing written");
        let err = text(&o.stderr);
        let refusal = err.lines().find(|l| l.contains("no drawable mesh")).map(str::to_string);
        messages.push(refusal.unwrap_or_else(|| panic!("{format}: {err}")));
    }
    assert_eq!(messages[0], messages[1]);
    assert_eq!(messages[0], format!("meshscope: {cut}: {}", meshscope::export::NOTHING_DRAWABLE));
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn census_of_a_folder_survives_a_symlink_loop() {
    let d_dir = tmp("loop");
    let d = d_dir.path();
    let b = meshscope::sample::sample_ply();
    std::fs::create_dir_all(d.join("a/b")).unwrap();
    std::fs::write(d.join("a/one.ply"), &b).unwrap();
    std::fs::write(d.join("a/b/two.ply"), &b).unwrap();
    std::os::unix::fs::symlink(d.join("a"), d.join("a/b/back")).unwrap();
    let o = run(&["census", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let first = text(&o.stdout).lines().next().unwrap_or_default().to_string();
    assert!(first.starts_with(&format!("2 files ({} bytes; 0 with decode errors", 2 * b.len())), "{first}");
    assert!(text(&o.stderr).contains("a symlink loop, not followed"), "{}", text(&o.stderr));
    std::fs::remove_dir_all(d).ok();
}
