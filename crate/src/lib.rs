//! Meshscope: decoders for game mesh binaries that say, byte by byte, what each byte is and
//! how sure we are. The core is plain Rust; `wasm` is the only module that knows about JS.

pub mod census;
pub mod diff;
pub mod document;
pub mod error;
pub mod export;
pub mod field;
mod float_text;
pub mod formats;
pub mod fx;
pub(crate) mod json;
pub mod laid;
#[cfg(not(target_arch = "wasm32"))]
pub mod memory;
pub mod mesh;
pub mod model;
pub mod read;
pub mod sample;
pub mod search;
pub mod shape;
pub mod short;
pub mod show;
pub mod span;
pub mod summary_json;
pub mod tree;
mod words;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use document::{open, open_structure, Document, Summary};
pub use error::{Error, ErrorKind, Result};
pub use formats::Format;
pub use model::{Check, Decode};
pub use span::{Confidence, Span, SpanText};

/// djb2-XOR, the name hash of Frostbite MeshSets: `h = 5381`, then `h = h * 33 ^ byte`.
pub fn djb2_xor(bytes: &[u8]) -> u32 {
    bytes.iter().fold(5381u32, |h, &b| h.wrapping_mul(33) ^ b as u32)
}
