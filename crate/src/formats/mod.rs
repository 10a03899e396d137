//! The formats, behind one trait. Each format is one module laid out like its description;
//! `FileFormat` is what the rest of the crate asks of it, and `FORMATS` lists them, in the
//! order `detect` tries them. Adding a format: docs/adding-a-format.md.

pub mod frostbite;
pub mod gem_ply;

use crate::error::Error;
pub use crate::mesh::{Axes, Up};
use crate::model::{Attachment, Check, Decode, Parent};
pub use crate::model::{Details, Format};

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

    /// What `open` decodes where some checks can wait: `decode` less the checks that
    /// `later_checks` makes from the details, made when someone first reads the checks
    /// (`Document::checks`); `None` where the format makes its checks with the decode. Its
    /// records laid out statically may be placeholders (`laid`): the document's span map
    /// answers for their fields.
    fn decode_first(&self, _name: &str, _bytes: &[u8]) -> Option<Decode> {
        None
    }

    /// The checks `decode_first` left out, made from its details: its checks and then these
    /// are `decode`'s checks, in order.
    fn later_checks(&self, _details: &Details) -> Vec<Check> {
        Vec::new()
    }

    /// The structure alone, where it comes much faster than the whole decode (a `.ply` whose
    /// vertex arrays are most of the work); `None` where it does not.
    fn decode_structure(&self, _bytes: &[u8]) -> Option<Decode> {
        None
    }

    /// A companion file attached to `parent` (at LOD `lod` when a person chose one, else
    /// where its name says): its own decode and what it changes in the parent, which the
    /// document applies.
    fn attach(&self, parent: &Parent, lod: Option<usize>, _name: &str, _bytes: &[u8]) -> Result<Attachment, Error> {
        Err(no_companions(parent.format, lod))
    }

    /// The file written again from its details, byte for byte what was read where nothing
    /// changed; `None` when the format has no writer.
    fn rewrite(&self, _details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
        None
    }

    /// How its decoded mesh is oriented, which the exports turn into glTF's and OBJ's
    /// (default: theirs, +Y up and counter-clockwise front faces).
    fn axes(&self) -> Axes {
        Axes::GLTF
    }
}

/// Every format, in the order `detect` tries them.
pub const FORMATS: [&dyn FileFormat; 3] = [&gem_ply::GemPly, &frostbite::FrostbiteMeshSet, &frostbite::FrostbiteChunk];

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

/// The decode whose checks from the details wait, where the format has such checks
/// (`FileFormat::decode_first`).
pub fn decode_first(format: Format, name: &str, bytes: &[u8]) -> Option<Decode> {
    of(format).and_then(|f| f.decode_first(name, bytes))
}

/// The checks `decode_first` left out (`FileFormat::later_checks`).
pub fn later_checks(format: Format, details: &Details) -> Vec<Check> {
    of(format).map_or_else(Vec::new, |f| f.later_checks(details))
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

/// A companion file attached to `parent` (`FileFormat::attach`).
pub fn attach(parent: &Parent, lod: Option<usize>, name: &str, bytes: &[u8]) -> Result<Attachment, Error> {
    match of(parent.format) {
        Some(f) => f.attach(parent, lod, name, bytes),
        None => Err(no_companions(parent.format, lod)),
    }
}

/// The file written again from its details (`FileFormat::rewrite`).
pub fn rewrite(format: Format, details: &Details, bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
    of(format).and_then(|f| f.rewrite(details, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_its_own_name_and_serializes_as_it() {
        let names: Vec<&str> = FORMATS.iter().map(|f| f.format().name()).collect();
        assert_eq!(names, ["gem-ply", "frostbite-meshset", "frostbite-chunk"]);
        let all = [Format::GemPly, Format::FrostbiteMeshSet, Format::FrostbiteChunk, Format::Unknown];
        let json = serde_json::to_string(&all).unwrap();
        assert_eq!(json, r#"["gem-ply","frostbite-meshset","frostbite-chunk","unknown"]"#);
        assert_eq!(Format::default(), Format::Unknown);
        assert!(of(Format::Unknown).is_none());
        assert!(FORMATS.iter().all(|f| of(f.format()).map(|g| g.format()) == Some(f.format())));
    }

    #[test]
    fn gem_ply_alone_is_z_up_and_clockwise() {
        let axes: Vec<Axes> = FORMATS.iter().map(|f| f.axes()).collect();
        let gem = Axes { up: Up::Z, clockwise: true };
        assert_eq!(axes, [gem, Axes::GLTF, Axes::GLTF]);
        assert_eq!(Axes::GLTF, Axes { up: Up::Y, clockwise: false });
    }
}
