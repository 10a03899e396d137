//! FxHash: the hasher of hot maps keyed by paths and values.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small, fast, non-cryptographic hasher (the FxHash mix) for hot maps (the census's,
/// the tree's paths): their keys are paths and values from files, not attacker-chosen in any way that matters
/// beyond a slower census.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        // The last one to seven bytes as one word, their count in the top byte ("ab" and
        // "ab\0" differ): one multiply instead of one a byte.
        let rest = chunks.remainder();
        if !rest.is_empty() {
            self.write_u64(tail_word(rest) | (rest.len() as u64) << 56);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    // One multiply for a small integer: the defaults go through `write`, which a string's
    // end marker (a `u8`) and a key's tag would otherwise take on every hash.
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        // A multiply carries a word's differences upwards only, and maps pick buckets by the
        // low bits: fold the high half down.
        self.0 ^ (self.0 >> 29)
    }
}

/// Up to eight bytes as one little-endian word, gathered in a register: a word put together
/// in memory byte by byte and read back at once stalls the multiply that needs it.
pub fn tail_word(bytes: &[u8]) -> u64 {
    bytes.iter().take(8).rev().fold(0u64, |w, &b| w << 8 | b as u64)
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

#[cfg(test)]
mod tests {
    use super::*;

    fn h(b: &[u8]) -> u64 {
        let mut f = Fx::default();
        f.write(b);
        f.finish()
    }

    #[test]
    fn tails_hash_apart_and_spread_over_the_low_bits() {
        assert_ne!(h(b"ab"), h(b"ab\0"), "the tail's length counts");
        assert_ne!(h(b"12345678a"), h(b"12345678b"));
        // Names that differ only in a high byte of their last word still land in different
        // buckets of a small table (its low bits).
        let low: std::collections::HashSet<u64> = (0..16).map(|i| h(format!("element[{i}]").as_bytes()) & 63).collect();
        assert!(low.len() >= 12, "{} of 16 distinct", low.len());
        let m: FxMap<&str, u32> = [("a", 1), ("ab", 2), ("ab\0", 3)].into_iter().collect();
        assert_eq!((m["a"], m["ab"], m["ab\0"]), (1, 2, 3));
    }
}
