//! Finding bytes in a document, for the page's "find" box: a 512 MB file is searched in
//! wasm rather than copied to JS, with `memchr::memmem` both ways.

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
    if needle.is_empty() {
        return None;
    }
    memchr::memmem::find(hay, needle)
}

fn last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    memchr::memmem::rfind(hay, needle)
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
        assert_eq!(find_back(hay, b"", 10), None);
        assert_eq!(find_back(hay, b"XY", 0), Some(8), "before 0 wraps to the last");
        assert_eq!(find_back(b"a", b"aa", 1), None, "a needle longer than the file");
    }

    #[test]
    fn every_offset_against_a_plain_scan() {
        // Both directions from every start, compared with the definition scanned by hand.
        let hay: Vec<u8> = (0..300u32).map(|i| (i * 7 % 5) as u8).collect();
        for needle in [&[0u8][..], &[2, 4], &[1, 3, 0], &[4, 1, 3, 0, 2], &[9]] {
            let at: Vec<usize> = (0..hay.len()).filter(|&s| hay[s..].starts_with(needle)).collect();
            for from in 0..=hay.len() + 1 {
                let want = at.iter().find(|&&s| s >= from).or(at.first()).copied();
                assert_eq!(find(&hay, needle, from), want, "{needle:?} from {from}");
                let want = at.iter().rev().find(|&&s| s < from).or(at.last()).copied();
                assert_eq!(find_back(&hay, needle, from), want, "{needle:?} before {from}");
            }
        }
    }
}
