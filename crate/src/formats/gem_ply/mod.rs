//! GEM engine `.ply` (Men of War, Assault Squad 2, Gates of Hell, GEM RTS), after
//! `shared/spec/gem-ply.md`. Placeholder until the decoder lands: detects nothing.

use crate::document::Decode;
use crate::error::{Error, Result};

/// The decoded file, as the writer needs it.
#[derive(Debug, Default, Clone)]
pub struct Ply {}

pub fn detect(_bytes: &[u8]) -> bool {
    false
}

pub fn decode(_bytes: &[u8]) -> Decode {
    Decode::default()
}

pub fn write(_ply: &Ply) -> Result<Vec<u8>> {
    Err(Error::unsupported(0, "", "the .ply writer is not written yet"))
}
