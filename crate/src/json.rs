//! JSON string escaping as `serde_json` does it, for the JSON written by hand (the tree's,
//! the summary's), with the escapes looked for eight bytes at a time.

/// The inside of a JSON string, escaped as `serde_json` escapes it: quote, backslash and
/// control bytes. Text between escapes is copied whole.
pub fn json_chars(s: &str, out: &mut String) {
    let mut from = 0;
    while let Some(k) = first_escape(&s.as_bytes()[from..]) {
        let i = from + k;
        // `i` is an ASCII byte, so a char boundary.
        out.push_str(&s[from..i]);
        let b = s.as_bytes()[i];
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                out.push_str("\\u00");
                out.push(char::from(b"0123456789abcdef"[(b >> 4) as usize]));
                out.push(char::from(b"0123456789abcdef"[(b & 15) as usize]));
            }
        }
        from = i + 1;
    }
    out.push_str(&s[from..]);
}

/// Whether a byte is escaped in a JSON string.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The index of the first byte to escape, looked for eight bytes at a time. Kept by hand:
/// `memchr` finds up to three given bytes, not a range (the control bytes), and a scan of one
/// byte at a time was slower on the tree's JSON (docs/performance.md).
fn first_escape(b: &[u8]) -> Option<usize> {
    use crate::words::{below, equal, word};
    // Nonzero exactly when some byte of `w` is escaped.
    let marked = |w: u64| below(w, 0x20) | equal(w, b'"') | equal(w, b'\\') != 0;
    let mut words = b.chunks_exact(8);
    for (k, c) in (&mut words).enumerate() {
        if marked(word(c)) {
            if let Some(i) = c.iter().position(|&x| escaped(x)) {
                return Some(k * 8 + i);
            }
        }
    }
    // The last few bytes: in the word that ends the text (it overlaps the one before).
    let rest = words.remainder();
    if let Some(last) = b.len().checked_sub(8).and_then(|at| b.get(at..)) {
        if !rest.is_empty() && !marked(word(last)) {
            return None;
        }
    }
    rest.iter().position(|&x| escaped(x)).map(|i| b.len() - rest.len() + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_found_wherever_they_are() {
        // Every byte value at every place of texts of ASCII and UTF-8 (high) bytes, shorter
        // than a word, a word and longer, with and without bytes after the last whole word.
        for (len, fill) in
            [1, 5, 8, 13, 20].into_iter().flat_map(|n| [b'a', 0x7f, 0x80, 0xff, 0x21, 0x5d, 0x23].map(|f| (n, f)))
        {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut t = vec![fill; len];
                    t[at] = b;
                    let want = t.iter().position(|&x| x < 0x20 || x == b'"' || x == b'\\');
                    assert_eq!(first_escape(&t), want, "{b:#x} at {at} among {fill:#x}");
                }
            }
        }
        let mut out = String::new();
        json_chars("long text before the quote \" and é after\u{0}\\", &mut out);
        assert_eq!(out, r#"long text before the quote \" and é after\u0000\\"#);
    }
}
