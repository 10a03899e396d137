//! `open` keeps a MeshSet's section records and declarations as placeholders (`laid`) and
//! makes their fields when asked for. Whatever is asked, the document answers as one made from
//! the whole decode, whose every field is a span: the spans, their windows and colors, the
//! coverage, the tree's top levels and the whole tree.
#[path = "common/sets.rs"]
mod sets;

use meshscope::document::Document;
use meshscope::formats::{self, Format};

/// The document `open` makes, and one made from the whole decode of the same bytes.
fn both(name: &str, bytes: &[u8]) -> (Document, Document) {
    let laid = meshscope::open(name, bytes.to_vec());
    let whole = Document::from_decode(
        name,
        Format::FrostbiteMeshSet,
        bytes.to_vec(),
        formats::decode(Format::FrostbiteMeshSet, name, bytes),
    );
    (laid, whole)
}

/// Builder MeshSets of one to four LODs, and cut ones (a placeholder whose bytes the file does
/// not hold stays a span of its own).
fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = sets::meshsets(60);
    let cut: Vec<_> = out.iter().take(12).map(|(n, b)| (format!("cut-{n}"), b[..b.len() * 2 / 3].to_vec())).collect();
    out.extend(cut);
    out
}

#[test]
fn the_tree_top_is_made_without_the_placeholders_fields_and_is_the_same() {
    let mut laid_files = 0;
    for (name, bytes) in files() {
        for levels in 1..=3 {
            let (laid, whole) = both(&name, &bytes);
            laid_files += usize::from(levels == 1 && laid.spans.laid().is_some());
            assert_eq!(laid.tree_json_top(levels), whole.tree_json_top(levels), "{name}: {levels} levels");
        }
    }
    assert!(laid_files >= 60, "only {laid_files} files kept placeholders");
}

#[test]
fn spans_windows_colors_and_coverage_are_the_same() {
    for (name, bytes) in files() {
        let (laid, whole) = both(&name, &bytes);
        assert_eq!(laid.coverage(), whole.coverage(), "{name}: coverage");
        let len = bytes.len() as u64;
        for (start, end) in (0..len).step_by(37).map(|s| (s, s + 64)).chain([(0, len), (len / 2, len + 9)]) {
            assert_eq!(laid.span_bounds(start, end), whole.span_bounds(start, end), "{name}: colors of {start}..{end}");
            assert_eq!(laid.spans_in(start, end), whole.spans_in(start, end), "{name}: spans of {start}..{end}");
        }
        for at in (0..len).step_by(13) {
            assert_eq!(laid.span_at(at), whole.span_at(at), "{name}: span at {at}");
        }
        assert_eq!(laid.spans.fixed(), whole.spans.fixed(), "{name}: spans");
        assert_eq!(laid.tree_json(), whole.tree_json(), "{name}: tree");
    }
}
