//! The MeshSet and its geometry chunk behind `FileFormat`.

use super::{attach, decode, MeshSetDetails};
use crate::error::Error;
use crate::formats::{Details, FileFormat, Format};
use crate::model::{Attachment, Check, Decode, Parent};

#[allow(non_upper_case_globals)] // named like `Format::Unknown`
impl Format {
    /// A Frostbite MeshSet resource.
    pub const FrostbiteMeshSet: Format = Format::new("frostbite-meshset");
    /// A Frostbite geometry chunk.
    pub const FrostbiteChunk: Format = Format::new("frostbite-chunk");
}

/// A Frostbite MeshSet resource.
pub struct FrostbiteMeshSet;

impl FileFormat for FrostbiteMeshSet {
    fn format(&self) -> Format {
        Format::FrostbiteMeshSet
    }
    fn detect(&self, name: &str, bytes: &[u8]) -> bool {
        super::detect_meshset(name, bytes)
    }
    fn decode(&self, _name: &str, bytes: &[u8]) -> Decode {
        decode::decode(bytes)
    }
    fn decode_fields(&self, _name: &str, bytes: &[u8]) -> Decode {
        decode::decode_with(bytes, false)
    }
    fn decode_first(&self, _name: &str, bytes: &[u8]) -> Option<Decode> {
        Some(decode::decode_first(bytes))
    }
    fn later_checks(&self, details: &Details) -> Vec<Check> {
        decode::later_checks(details)
    }
    fn attach(&self, parent: &Parent, lod: Option<usize>, name: &str, bytes: &[u8]) -> Result<Attachment, Error> {
        match lod {
            Some(lod) => attach::attach_to(parent, lod, name, bytes),
            None => attach::attach(parent, name, bytes),
        }
    }
    fn rewrite(&self, details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        details.get::<MeshSetDetails>().map(super::write_meshset)
    }
}

/// A Frostbite geometry chunk, decoded alone; attached to its MeshSet it is decoded there.
pub struct FrostbiteChunk;

impl FileFormat for FrostbiteChunk {
    fn format(&self) -> Format {
        Format::FrostbiteChunk
    }
    fn detect(&self, name: &str, bytes: &[u8]) -> bool {
        super::detect_chunk(name, bytes)
    }
    fn decode(&self, name: &str, bytes: &[u8]) -> Decode {
        super::decode_chunk(name, bytes)
    }
}
