//! The GEM engine `.ply` behind `FileFormat`.

use super::Ply;
use crate::error::Error;
use crate::formats::{Axes, Details, FileFormat, Format, Up};
use crate::model::Decode;

#[allow(non_upper_case_globals)] // named like `Format::Unknown`
impl Format {
    /// GEM engine `.ply`.
    pub const GemPly: Format = Format::new("gem-ply");
}

/// GEM engine `.ply`.
pub struct GemPly;

impl FileFormat for GemPly {
    fn format(&self) -> Format {
        Format::GemPly
    }
    fn detect(&self, _name: &str, bytes: &[u8]) -> bool {
        super::detect(bytes)
    }
    fn decode(&self, _name: &str, bytes: &[u8]) -> Decode {
        super::decode(bytes)
    }
    fn decode_structure(&self, bytes: &[u8]) -> Option<Decode> {
        Some(super::decode_structure(bytes))
    }
    fn rewrite(&self, details: &Details, bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        details.get::<Ply>().map(|p| super::rewrite(p, bytes))
    }
    /// Z-up (its landscapes' grid spans x and y, and units stand along +z), with clockwise
    /// front faces: every triangle of the real samples that store normals winds clockwise
    /// around them.
    fn axes(&self) -> Axes {
        Axes { up: Up::Z, clockwise: true }
    }
}
