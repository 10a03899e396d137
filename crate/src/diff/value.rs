//! Values as numbers, for deltas: `325`, `-0.5`, `[1, 2.5, 3]`, `[1] (last 0)`. Flags and hex
//! text are not numbers here: the difference of two flag words means nothing.

/// The numbers a value text holds: one for a scalar, one per component for `[a, b, c]`;
/// `None` for anything else (text, hex, flags).
pub fn numbers(text: &str) -> Option<Vec<f64>> {
    // A note after the value (`[1] (last 0)`) is the decoder's, not part of it.
    let text = text.split(" (").next().unwrap_or(text).trim();
    match text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(inner) => inner.split(',').map(|p| number(p.trim())).collect(),
        None => number(text).map(|n| vec![n]),
    }
}

fn number(t: &str) -> Option<f64> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    let plain = digits.bytes().next().is_some_and(|c| c.is_ascii_digit())
        && digits.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+'))
        && !digits.starts_with("0x");
    if !plain {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// B minus A per component, when both are numbers of the same arity and the type is not flags.
/// Values of a float type are read back as the f32 their text was printed from, so the delta
/// is the exact difference of the stored numbers.
pub fn delta(ty: &str, a: &str, b: &str) -> Vec<f64> {
    if ty.contains("flags") {
        return Vec::new();
    }
    let float = ty.starts_with('f') || ty.contains("half");
    let stored = |v: f64| if float { v as f32 as f64 } else { v };
    match (numbers(a), numbers(b)) {
        (Some(x), Some(y)) if x.len() == y.len() => x.iter().zip(&y).map(|(p, q)| stored(*q) - stored(*p)).collect(),
        _ => Vec::new(),
    }
}

/// Bytes as hex pairs (`0a ff 00`), at most `max` of them, then `…`.
pub fn hex(bytes: &[u8], max: usize) -> String {
    let mut s = String::with_capacity(bytes.len().min(max) * 3 + 3);
    for (i, b) in bytes.iter().take(max).enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{b:02x}"));
    }
    if bytes.len() > max {
        s.push_str(" …");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_deltas() {
        assert_eq!(numbers("325"), Some(vec![325.0]));
        assert_eq!(numbers("[1] (last 0)"), Some(vec![1.0]));
        assert_eq!(numbers("[1.5, -2, 3e2]"), Some(vec![1.5, -2.0, 300.0]));
        assert_eq!(numbers("0x7 (full color)"), None);
        assert_eq!(numbers("body.mtl"), None);
        assert_eq!(numbers("[a, 1]"), None);
        assert_eq!(delta("u32", "3", "5"), vec![2.0]);
        assert_eq!(delta("f32[2]", "[0.1, 1]", "[0.3, 1]"), vec![0.3f32 as f64 - 0.1f32 as f64, 0.0]);
        assert_eq!(delta("i32", "0.1", "0.3"), vec![0.3 - 0.1]);
        assert!(delta("u16 flags", "3", "5").is_empty());
        assert!(delta("f32[2]", "[1, 2]", "[1, 2, 3]").is_empty());
        assert_eq!(hex(&[0, 0xab, 7], 2), "00 ab …");
    }
}
