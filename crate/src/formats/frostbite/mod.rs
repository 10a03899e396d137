//! Frostbite MeshSet resources and their geometry chunks, after
//! `shared/spec/frostbite-meshset.txt`. Placeholder until the decoder lands: detects nothing.

use crate::document::{Decode, Document};
use crate::error::{Error, Result};

/// The decoded resource, as the writer needs it.
#[derive(Debug, Default, Clone)]
pub struct MeshSetDetails {}

pub fn detect_meshset(_name: &str, _bytes: &[u8]) -> bool {
    false
}

pub fn detect_chunk(_name: &str, _bytes: &[u8]) -> bool {
    false
}

pub fn decode_meshset(_name: &str, _bytes: &[u8]) -> Decode {
    Decode::default()
}

pub fn decode_chunk(_name: &str, _bytes: &[u8]) -> Decode {
    Decode::default()
}

pub fn attach(_doc: &mut Document, _name: &str, _bytes: Vec<u8>) -> Result<Document> {
    Err(Error::unsupported(0, "", "attaching chunks is not written yet"))
}

pub fn write_meshset(_m: &MeshSetDetails) -> Result<Vec<u8>> {
    Err(Error::unsupported(0, "", "the MeshSet writer is not written yet"))
}
