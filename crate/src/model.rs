//! What a format decoder hands back, in terms neither the formats nor the document own:
//! `Format` (a name), `Details` (a format's own type), `Decode` (spans, regions, mesh,
//! errors, checks, facts, details) and `Check`, and for a companion
//! file what it reads of its parent (`Parent`) and what it adds (`Attachment`). The formats
//! fill them, `document.rs` indexes and applies them, the census reads them; the value
//! formatters are `show.rs`.

use crate::error::Error;
use crate::mesh::{self, Mesh};
use crate::short::{PathText, Short};
use crate::span::{Fields, Span, Text};
use serde::Serialize;
use std::any::Any;

/// A file format, known by its name: what the page, the command line's JSON and the census
/// show (`"gem-ply"`). Each format declares its own where it lives (`Format::GemPly` in
/// `formats/gem_ply/`), so a new one adds nothing here; `Unknown` is a file of raw bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format(&'static str);

impl Format {
    /// A file of no format we know.
    #[allow(non_upper_case_globals)] // named like the formats' own constants
    pub const Unknown: Format = Format("unknown");

    /// The format named `name`; names are unique (a test checks the list).
    pub const fn new(name: &'static str) -> Format {
        Format(name)
    }

    pub fn name(self) -> &'static str {
        self.0
    }
}

impl Default for Format {
    fn default() -> Self {
        Format::Unknown
    }
}

impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// The decoded structure a format keeps for its writer and the command line, of the
/// format's own type: the format that made it reads it back with `get`.
#[derive(Default)]
pub struct Details(Option<Box<dyn Any + Send + Sync>>);

impl Details {
    pub fn new<T: Any + Send + Sync>(value: T) -> Details {
        Details(Some(Box::new(value)))
    }

    /// The details, when they are a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_ref()?.downcast_ref()
    }

    /// The details taken out, when they are a `T` (else they stay).
    pub fn take<T: Any>(&mut self) -> Option<T> {
        let b = self.0.take()?;
        match b.downcast::<T>() {
            Ok(t) => Some(*t),
            Err(other) => {
                self.0 = Some(other);
                None
            }
        }
    }

    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }
}

impl std::fmt::Debug for Details {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Details(..)" } else { "Details(none)" })
    }
}

/// A check a decoder ran: a stored value against one it measured or recomputed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// Mostly a literal of the decoder, borrowed then.
    pub name: Text,
    pub passed: bool,
    /// The values as shown: a count or a hash fits a `Short` without an allocation.
    pub stored: Short,
    pub measured: Short,
    /// Where the stored value is, for a link to the bytes.
    pub offset: Option<u64>,
    pub path: PathText,
    /// What the check rests on: a failed `Description` check means the file contradicts
    /// the format's description; a failed `Guess` only that a guess of ours does not hold.
    pub basis: Basis,
    /// How far stored and measured may differ and still pass, as shown to a person
    /// (`±0.5 step of f16`); empty when they must be equal.
    pub tolerance: String,
}

/// What a check's expectation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The format's description states it: a failure is a broken (or differently made) file.
    Description,
    /// Our own reading (an unknown word that might be a count): a failure is an observation.
    Guess,
}

/// What a format decoder hands back; a decode that fails partway still fills it.
#[derive(Debug, Default)]
pub struct Decode {
    pub fields: Fields,
    pub mesh: Mesh,
    pub errors: Vec<Error>,
    pub checks: Vec<Check>,
    /// Counts and names for the summary, in display order.
    pub facts: Vec<(Text, Text)>,
    pub details: Details,
}

/// What a format's `attach` reads of the document a companion file is attached to: read-only,
/// so that everything attaching changes is in the `Attachment` it returns.
#[derive(Clone, Copy)]
pub struct Parent<'a> {
    pub name: &'a str,
    pub format: Format,
    pub bytes: &'a [u8],
    /// Its fixed spans (not region elements), by start.
    pub spans: &'a [Span],
    pub mesh: &'a Mesh,
    pub checks: &'a [Check],
    pub errors: &'a [Error],
    pub details: &'a Details,
    /// How many companions are attached already: the next listed one's spans are file
    /// `attached + 1` (`Source::file`).
    pub attached: usize,
}

/// What attaching a companion file gives: the companion as a decode of its own, and what
/// changes in the parent.
#[derive(Debug)]
pub struct Attachment {
    /// The companion's format, for its own document.
    pub format: Format,
    pub companion: Decode,
    pub parent: ParentChanges,
}

/// The changes attaching makes to the parent document, applied by the document in the order
/// of the fields.
#[derive(Debug, Default)]
pub struct ParentChanges {
    /// The parent decoded again from its bytes (with what it kept of its attached
    /// companions): replaces its whole decode.
    pub redecode: Option<Decode>,
    /// Its details, replaced.
    pub details: Option<Details>,
    /// One LOD of its mesh, replaced.
    pub lod: Option<LodGeometry>,
    /// Its checks, replaced (the old ones are in `Parent::checks`).
    pub checks: Option<Vec<Check>>,
    /// Errors that are the parent's, each added unless it has it already.
    pub errors: Vec<Error>,
    /// The companion's spans are the parent's file `Parent::attached + 1`: its name is
    /// listed in the parent's `attached`.
    pub listed: bool,
}

/// A LOD's geometry, decoded from a companion, for the parent's mesh.
#[derive(Debug)]
pub struct LodGeometry {
    /// Which of the parent's LODs it replaces.
    pub index: usize,
    pub lod: mesh::Lod,
}
