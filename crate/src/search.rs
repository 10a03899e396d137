//! Finding bytes in a document, for the page's "find" box: a 512 MB file is searched in
//! wasm rather than copied to JS.

/// The first offset at or after `from` where `needle` occurs in `hay`, wrapping around to
/// the start once; `None` when it does not occur (or the needle is empty).
pub fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let from = from.min(hay.len());
    let after = hay.get(from..).and_then(|tail| first(tail, needle)).map(|i| i + from);
    after.or_else(|| {
        // Wrap: search the head, letting a match start before `from` and run past it.
        let head_end = (from + needle.len()).saturating_sub(1).min(hay.len());
        hay.get(..head_end).and_then(|head| first(head, needle))
    })
}

/// The last offset strictly before `before` where `needle` starts, wrapping to the end once.
pub fn find_back(hay: &[u8], needle: &[u8], before: usize) -> Option<usize> {
    let before = before.min(hay.len());
    let head_end = (before + needle.len()).saturating_sub(1).min(hay.len());
    let found = hay.get(..head_end).and_then(|head| last(head, needle));
    found.or_else(|| last(hay, needle))
}

fn first(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&lead, rest) = needle.split_first()?;
    let mut at = 0;
    // Scanning for the first byte with `position` is what the compiler vectorises best.
    while let Some(i) = hay.get(at..)?.iter().position(|&b| b == lead) {
        let s = at + i;
        if hay.get(s + 1..s + needle.len()) == Some(rest) {
            return Some(s);
        }
        at = s + 1;
    }
    None
}

fn last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).rev().find(|&s| hay.get(s..s + needle.len()) == Some(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_forward_and_wraps() {
        let hay = b"abcXYabcXY";
        assert_eq!(find(hay, b"XY", 0), Some(3));
        assert_eq!(find(hay, b"XY", 4), Some(8));
        assert_eq!(find(hay, b"XY", 9), Some(3), "wraps to the start");
        assert_eq!(find(hay, b"zz", 0), None);
        assert_eq!(find(hay, b"", 0), None);
        assert_eq!(find(hay, b"Y", 100), Some(4), "a start past the end wraps");
        assert_eq!(find(b"", b"a", 0), None);
    }

    #[test]
    fn finds_backward_and_wraps() {
        let hay = b"abcXYabcXY";
        assert_eq!(find_back(hay, b"XY", 8), Some(3));
        assert_eq!(find_back(hay, b"XY", 3), Some(8), "wraps to the end");
        assert_eq!(find_back(hay, b"abc", 10), Some(5));
        assert_eq!(find_back(hay, b"q", 10), None);
    }
}
