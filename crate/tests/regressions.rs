//! Every input a fuzzer ever crashed on is kept under `tests/regressions/` and must now open
//! without a panic, through every entry point the page uses, and be counted by the census.
use std::path::Path;

#[test]
fn fuzz_regressions_open_without_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/regressions exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc = meshscope::open(&name, bytes);
        let s = doc.summary();
        let _ = doc.spans_in(0, s.size);
        let _ = doc.rewrite();
        // The census reads the file as whatever it is named for; each name is one decoder.
        let mut census = meshscope::census::Census::new();
        for alias in [name.as_str(), "as.ply", "as.res", "as.chunk"] {
            census.add_file(alias, std::fs::read(&path).unwrap());
        }
        let report = census.report(50);
        assert_eq!(report.files + report.skipped, 4, "{name}: every file is counted or skipped");
        n += 1;
    }
    // An empty folder would make this test pass by doing nothing; the README file is not input.
    assert!(n > 0, "no regression inputs found in {}", dir.display());
}
