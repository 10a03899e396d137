//! What a format decoder hands back, in terms neither the formats nor the document own:
//! `Decode` (spans, regions, mesh, errors, checks, facts) and `Check`. The formats fill it,
//! `document.rs` indexes it, the census reads it; the value formatters are `show.rs`.

use crate::error::Error;
use crate::formats::Details;
use crate::mesh::Mesh;
use crate::span::Fields;
use serde::Serialize;

/// A check a decoder ran: a stored value against one it measured or recomputed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub name: String,
    pub passed: bool,
    pub stored: String,
    pub measured: String,
    /// Where the stored value is, for a link to the bytes.
    pub offset: Option<u64>,
    pub path: String,
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
    pub facts: Vec<(String, String)>,
    pub details: Details,
}
