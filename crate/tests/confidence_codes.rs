//! The confidence codes the wasm API sends (`Confidence::code`, 0 for uncovered) are the
//! indices of `LEVELS` in web/hexview.js: one source, the Rust enum, and this test ties the
//! page's list to it.

use meshscope::Confidence;

/// The names in `export const LEVELS = ['uncovered', ...];` of web/hexview.js.
fn page_levels() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/hexview.js");
    let js = std::fs::read_to_string(path).expect("web/hexview.js");
    let line = js.lines().find(|l| l.starts_with("export const LEVELS = [")).expect("a LEVELS line in web/hexview.js");
    let list = line.split_once('[').and_then(|(_, rest)| rest.split_once(']')).expect("LEVELS = [...]").0;
    list.split(',').map(|s| s.trim().trim_matches('\'').to_string()).filter(|s| !s.is_empty()).collect()
}

#[test]
fn the_pages_levels_are_the_confidence_codes() {
    let levels = page_levels();
    let mut want = vec!["uncovered".to_string()];
    let mut by_code: Vec<(u8, &str)> = Confidence::ALL.iter().map(|c| (c.code(), c.name())).collect();
    by_code.sort();
    assert_eq!(by_code.iter().map(|c| c.0).collect::<Vec<_>>(), [1, 2, 3, 4], "codes count from 1");
    want.extend(by_code.iter().map(|c| c.1.to_string()));
    assert_eq!(levels, want);
    for c in Confidence::ALL {
        assert_eq!(levels[c.code() as usize], c.name(), "{c:?}");
    }
}
