//! Format detection and dispatch. Each format is one module laid out like its description.

pub mod frostbite;
pub mod gem_ply;

use crate::document::{Decode, Document};
use crate::error::Error;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Format {
    #[serde(rename = "gem-ply")]
    GemPly,
    #[serde(rename = "frostbite-meshset")]
    FrostbiteMeshSet,
    #[serde(rename = "frostbite-chunk")]
    FrostbiteChunk,
    #[serde(rename = "unknown")]
    #[default]
    Unknown,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::GemPly => "gem-ply",
            Format::FrostbiteMeshSet => "frostbite-meshset",
            Format::FrostbiteChunk => "frostbite-chunk",
            Format::Unknown => "unknown",
        }
    }
}

/// The format-specific decoded structure, kept for writers and the command line.
#[derive(Debug, Default)]
pub enum Details {
    #[default]
    None,
    GemPly(gem_ply::Ply),
    MeshSet(frostbite::MeshSetDetails),
}

pub fn detect(name: &str, bytes: &[u8]) -> Format {
    if gem_ply::detect(bytes) {
        Format::GemPly
    } else if frostbite::detect_meshset(name, bytes) {
        Format::FrostbiteMeshSet
    } else if frostbite::detect_chunk(name, bytes) {
        Format::FrostbiteChunk
    } else {
        Format::Unknown
    }
}

pub fn decode(format: Format, name: &str, bytes: &[u8]) -> Decode {
    match format {
        Format::GemPly => gem_ply::decode(bytes),
        Format::FrostbiteMeshSet => frostbite::decode_meshset(name, bytes),
        Format::FrostbiteChunk => frostbite::decode_chunk(name, bytes),
        Format::Unknown => Decode::default(),
    }
}

/// What a census reads of a file: its fields, regions and errors, as `decode` gives them,
/// without what only a person reads (a MeshSet's checks and summary facts).
pub fn decode_fields(format: Format, name: &str, bytes: &[u8]) -> Decode {
    match format {
        Format::FrostbiteMeshSet => frostbite::decode::decode_with(bytes, false),
        _ => decode(format, name, bytes),
    }
}

/// The structure alone, where a format can give it much faster than the whole decode (a
/// `.ply` whose vertex arrays are most of the work); `None` where it cannot.
pub fn decode_structure(format: Format, bytes: &[u8]) -> Option<Decode> {
    match format {
        Format::GemPly => Some(gem_ply::decode_structure(bytes)),
        _ => None,
    }
}

pub fn attach(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
    match doc.format {
        Format::FrostbiteMeshSet => frostbite::attach(doc, name, bytes),
        other => Err(Error::unsupported(0, "format", format!("{} files take no companion files", other.name()))),
    }
}

pub fn attach_to_lod(doc: &mut Document, lod: usize, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
    match doc.format {
        Format::FrostbiteMeshSet => frostbite::attach_to(doc, lod, name, bytes),
        other => Err(Error::unsupported(0, "format", format!("{} files have no LODs to attach to", other.name()))),
    }
}

pub fn rewrite(doc: &Document) -> Option<Result<Vec<u8>, Error>> {
    match &doc.details {
        Details::GemPly(p) => Some(gem_ply::write_with(p, &doc.bytes)),
        Details::MeshSet(m) => Some(frostbite::write_meshset(m)),
        Details::None => None,
    }
}
