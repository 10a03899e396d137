//! The formats, behind one trait. Each format is one module laid out like its description;
//! `FileFormat` is what the rest of the crate asks of it, and `FORMATS` lists them, in the
//! order `detect` tries them. Adding a format: docs/adding-a-format.md.

pub mod frostbite;
pub mod gem_ply;

use crate::document::Document;
use crate::error::Error;
use crate::model::Decode;
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
    MeshSet(Box<frostbite::MeshSetDetails>),
}

/// What a format gives the rest of the crate. Only `format`, `detect` and `decode` are
/// required; the others say by default that the format has no such thing.
pub trait FileFormat: Sync {
    /// The format this is.
    fn format(&self) -> Format;

    /// Whether `bytes`, a file named `name`, are of this format.
    fn detect(&self, name: &str, bytes: &[u8]) -> bool;

    /// The whole decode. Never fails: a decode that fails partway keeps what it decoded.
    fn decode(&self, name: &str, bytes: &[u8]) -> Decode;

    /// What a census reads: the fields, regions and errors `decode` gives, without what only
    /// a person reads (checks, summary facts) where leaving that out is faster.
    fn decode_fields(&self, name: &str, bytes: &[u8]) -> Decode {
        self.decode(name, bytes)
    }

    /// The structure alone, where it comes much faster than the whole decode (a `.ply` whose
    /// vertex arrays are most of the work); `None` where it does not.
    fn decode_structure(&self, _bytes: &[u8]) -> Option<Decode> {
        None
    }

    /// Attaches a companion file to `doc` (at LOD `lod` when a person chose one, else where
    /// its name says) and returns it as a document of its own.
    fn attach(&self, doc: &mut Document, lod: Option<usize>, _name: &str, _bytes: Vec<u8>) -> Result<Document, Error> {
        Err(no_companions(doc.format, lod))
    }

    /// The file written again from its details, byte for byte what was read where nothing
    /// changed; `None` when the format has no writer.
    fn rewrite(&self, _details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        None
    }
}

/// Every format, in the order `detect` tries them.
pub const FORMATS: [&dyn FileFormat; 3] = [&GemPly, &FrostbiteMeshSet, &FrostbiteChunk];

/// The format of `bytes`, a file named `name`.
pub fn detect(name: &str, bytes: &[u8]) -> Format {
    FORMATS.iter().find(|f| f.detect(name, bytes)).map_or(Format::Unknown, |f| f.format())
}

/// The implementation of `format`; `None` for `Format::Unknown`.
pub fn of(format: Format) -> Option<&'static dyn FileFormat> {
    FORMATS.iter().copied().find(|f| f.format() == format)
}

pub fn decode(format: Format, name: &str, bytes: &[u8]) -> Decode {
    of(format).map_or_else(Decode::default, |f| f.decode(name, bytes))
}

/// What a census reads of a file (`FileFormat::decode_fields`).
pub fn decode_fields(format: Format, name: &str, bytes: &[u8]) -> Decode {
    of(format).map_or_else(Decode::default, |f| f.decode_fields(name, bytes))
}

/// The structure alone, where a format can give it much faster (`FileFormat::decode_structure`).
pub fn decode_structure(format: Format, bytes: &[u8]) -> Option<Decode> {
    of(format).and_then(|f| f.decode_structure(bytes))
}

/// The error of attaching to a document whose format takes no companions (at LOD `lod`).
fn no_companions(format: Format, lod: Option<usize>) -> Error {
    let what = if lod.is_some() { "have no LODs to attach to" } else { "take no companion files" };
    Error::unsupported(0, "format", format!("{} files {what}", format.name()))
}

pub fn attach(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
    match of(doc.format) {
        Some(f) => f.attach(doc, None, name, bytes),
        None => Err(no_companions(doc.format, None)),
    }
}

pub fn attach_to_lod(doc: &mut Document, lod: usize, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
    match of(doc.format) {
        Some(f) => f.attach(doc, Some(lod), name, bytes),
        None => Err(no_companions(doc.format, Some(lod))),
    }
}

pub fn rewrite(doc: &Document) -> Option<Result<Vec<u8>, Error>> {
    of(doc.format).and_then(|f| f.rewrite(&doc.details, &doc.bytes))
}

/// GEM engine `.ply` (`gem_ply`).
pub struct GemPly;

impl FileFormat for GemPly {
    fn format(&self) -> Format {
        Format::GemPly
    }
    fn detect(&self, _name: &str, bytes: &[u8]) -> bool {
        gem_ply::detect(bytes)
    }
    fn decode(&self, _name: &str, bytes: &[u8]) -> Decode {
        gem_ply::decode(bytes)
    }
    fn decode_structure(&self, bytes: &[u8]) -> Option<Decode> {
        Some(gem_ply::decode_structure(bytes))
    }
    fn rewrite(&self, details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        match details {
            Details::GemPly(p) => Some(gem_ply::write(p)),
            _ => None,
        }
    }
}

/// A Frostbite MeshSet resource (`frostbite`).
pub struct FrostbiteMeshSet;

impl FileFormat for FrostbiteMeshSet {
    fn format(&self) -> Format {
        Format::FrostbiteMeshSet
    }
    fn detect(&self, name: &str, bytes: &[u8]) -> bool {
        frostbite::detect_meshset(name, bytes)
    }
    fn decode(&self, name: &str, bytes: &[u8]) -> Decode {
        frostbite::decode_meshset(name, bytes)
    }
    fn decode_fields(&self, _name: &str, bytes: &[u8]) -> Decode {
        frostbite::decode::decode_with(bytes, false)
    }
    fn attach(&self, doc: &mut Document, lod: Option<usize>, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
        match lod {
            Some(lod) => frostbite::attach_to(doc, lod, name, bytes),
            None => frostbite::attach(doc, name, bytes),
        }
    }
    fn rewrite(&self, details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        match details {
            Details::MeshSet(m) => Some(frostbite::write_meshset(m)),
            _ => None,
        }
    }
}

/// A Frostbite geometry chunk, decoded alone; attached to its MeshSet it is decoded there.
pub struct FrostbiteChunk;

impl FileFormat for FrostbiteChunk {
    fn format(&self) -> Format {
        Format::FrostbiteChunk
    }
    fn detect(&self, name: &str, bytes: &[u8]) -> bool {
        frostbite::detect_chunk(name, bytes)
    }
    fn decode(&self, name: &str, bytes: &[u8]) -> Decode {
        frostbite::decode_chunk(name, bytes)
    }
}
