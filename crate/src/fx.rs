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
        for &b in chunks.remainder() {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
