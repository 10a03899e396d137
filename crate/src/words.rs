//! Tests on eight bytes at once, for scans and compares of short texts where a vector
//! searcher's set-up or a call costs more than the work (path segments, JSON escapes, names).

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight bytes as one little-endian word (`c` holds eight).
pub fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().unwrap_or_default())
}

/// Whether `a` and `b` hold the same bytes: names and paths, a few words long. In wasm
/// `memcmp` goes a byte at a time, so there they are compared a word at a time; natively
/// `memcmp` is vector code.
pub fn same(a: &(impl AsRef<[u8]> + ?Sized), b: &(impl AsRef<[u8]> + ?Sized)) -> bool {
    let (a, b) = (a.as_ref(), b.as_ref());
    if cfg!(target_arch = "wasm32") {
        same_words(a, b)
    } else {
        a == b
    }
}

/// `a == b`, eight bytes at a time (the last word overlapping the one before).
pub fn same_words(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        let half =
            |x: &[u8], at: usize| x.get(at..at + 4).map(|h| u32::from_le_bytes(h.try_into().unwrap_or_default()));
        return if n >= 4 { half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4) } else { a == b };
    }
    let whole = a.chunks_exact(8).zip(b.chunks_exact(8)).all(|(x, y)| word(x) == word(y));
    whole && a.get(n - 8..).map(word) == b.get(n - 8..).map(word)
}

/// A word whose high bit is set in the lowest byte of `w` below `n` (n <= 128), if there is
/// one; bytes above it may be marked wrongly, so only the lowest mark (or none) is exact.
pub fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * n as u64) & !w & HIGH
}

/// `below` for the bytes equal to `b`.
pub fn equal(w: u64, b: u8) -> u64 {
    below(w ^ (ONES * b as u64), 1)
}

/// The index of the byte a `below` or `equal` mark is on (the lowest, the exact one).
pub fn first_marked(mark: u64) -> usize {
    (mark.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_words_is_slice_equality() {
        // Every length to 40, a difference at every place, and lengths that differ.
        for n in 0..40usize {
            let a: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
            assert!(same_words(&a, &a.clone()) && same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x40;
                assert!(!same_words(&a, &b) && !same(&a, &b), "{n} at {at}");
            }
            let mut longer = a.clone();
            longer.push(0);
            assert!(!same_words(&a, &longer) && !same_words(&longer, &a), "{n}");
        }
    }
}
