//! Tests on eight bytes at once, for scans of short texts where a vector searcher's set-up
//! costs more than the scan (path segments, JSON escapes).

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight bytes as one little-endian word (`c` holds eight).
pub fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().unwrap_or_default())
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
