//! Pointer fields: where each is, what it holds, its path. Stored pointers are relative to
//! byte 16; `placement` says where the pooled items lie.

use crate::error::Result;
use crate::read::Reader;
use crate::short::PathText;
use crate::show::{offset_text, Kind};
use crate::span::{Confidence, Fields, Value};

/// Stored pointers are relative to byte 16 of the resource.
pub const BASE: u64 = 16;

/// One pointer field as read: where it is, what it holds, its path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ptr {
    pub at: u64,
    pub value: u64,
    /// Inline text: a MeshSet reads about fifty pointers, each kept for the checks.
    pub path: PathText,
}

impl Ptr {
    pub fn is_null(&self) -> bool {
        self.value == 0
    }
    /// The absolute offset it names; `None` past u64.
    pub fn target(&self) -> Option<u64> {
        self.value.checked_add(BASE)
    }
}

pub fn read_ptr(
    f: &mut Fields,
    r: &mut Reader,
    path: impl Into<PathText>,
    c: Confidence,
    note: &'static str,
) -> Result<Ptr> {
    let path = path.into();
    let at = r.offset();
    let value = r.u64().map_err(|e| e.at_path(&path))?;
    // The text waits for the span to be shown, where the pointer is the file's own bytes.
    let kind = Kind::Offset { base: BASE as u8 };
    let shown = if f.of_file(r, 8) { Value::Of(kind) } else { offset_text(value, BASE).into() };
    f.add(at, 8, path.clone(), "u64 pointer", shown, c, note);
    Ok(Ptr { at, value, path })
}

pub fn align(v: usize, a: usize) -> usize {
    v.div_ceil(a) * a
}
