//! Pointer fields: where each is, what it holds, its path. Stored pointers are relative to
//! byte 16; `placement` says where the pooled items lie.

use crate::error::Result;
use crate::read::Reader;
use crate::short::PathText;
use crate::show::{decimal, made_once, offset_text, Kind};
use crate::span::{Confidence, Fields, Value};
use std::sync::OnceLock;

/// Stored pointers are relative to byte 16 of the resource.
pub const BASE: u64 = 16;

/// One pointer field as read: where it is, what it holds, and its path as parts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ptr {
    pub at: u64,
    pub value: u64,
    /// The path as its parts: a MeshSet reads about fifty pointers, each kept for the checks,
    /// and only an error or a failed check writes one's text.
    pub path: PtrPath,
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

/// A section record's place: section `section` of LOD `lod`'s array.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SectionId {
    pub lod: u32,
    pub section: u32,
}

impl SectionId {
    /// `lod[i].section[k]`.
    pub fn path(self) -> PathText {
        lod_prefix(self.lod as usize).join("section").item(self.section.into())
    }
}

/// Where a pointer field is, as the parts of its path (`text` writes it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PtrPath {
    /// A header field's whole path, `header.<leaf>`.
    Header(&'static str),
    /// `header.lod_pointer[i]`.
    LodPointer(u32),
    /// `lod[i].<leaf>`.
    Lod(u32, &'static str),
    /// `lod[i].section_list[k].pointer`.
    SectionList(u32, u32),
    /// `lod[i].section[k].<leaf>`.
    Section(SectionId, &'static str),
}

impl Default for PtrPath {
    fn default() -> Self {
        PtrPath::Header("")
    }
}

impl std::fmt::Display for PtrPath {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl PtrPath {
    /// The path, as the field's span has it.
    pub fn text(self) -> PathText {
        static LOD_POINTERS: OnceLock<Vec<PathText>> = OnceLock::new();
        match self {
            PtrPath::Header(path) => PathText::from_static(path),
            PtrPath::LodPointer(i) => made_once(i as usize, &LOD_POINTERS, |i, d| {
                PathText::concat(&["header.lod_pointer[", decimal(i, d), "]"])
            }),
            PtrPath::Lod(i, leaf) => lod_prefix(i as usize).join(leaf),
            PtrPath::SectionList(i, k) => section_list_prefix(i as usize, k as usize).join("pointer"),
            // Only an error or a failed check writes one: a section's spans are its record's.
            PtrPath::Section(id, leaf) => PathText::concat(&[id.path().as_str(), ".", leaf]),
        }
    }
}

/// `lod[i].`, the start of the paths of LOD `i`'s fields.
pub fn lod_prefix(i: usize) -> PathText {
    static LODS: OnceLock<Vec<PathText>> = OnceLock::new();
    made_once(i, &LODS, |i, d| PathText::concat(&["lod[", decimal(i, d), "]."]))
}

/// `lod[i].section_list[k].`, the start of the paths of LOD `i`'s list `k`'s count and pointer.
pub fn section_list_prefix(i: usize, k: usize) -> PathText {
    // Entry `5 i + k` of the table is LOD `i`'s list `k`.
    static SLOTS: OnceLock<Vec<PathText>> = OnceLock::new();
    made_once(i * 5 + k, &SLOTS, |n, _| lod_prefix((n / 5) as usize).join("section_list").item(n % 5).join("."))
}

pub fn read_ptr(f: &mut Fields, r: &mut Reader, path: PtrPath, c: Confidence, note: &'static str) -> Result<Ptr> {
    let at = r.offset();
    let value = r.u64().map_err(|e| e.at_path(&path.text()))?;
    // The text waits for the span to be shown, where the pointer is the file's own bytes.
    let kind = Kind::Offset { base: BASE as u8 };
    let shown = if f.of_file(r, 8) { Value::Of(kind) } else { offset_text(value, BASE).into() };
    f.add(at, 8, path.text(), "u64 pointer", shown, c, note);
    Ok(Ptr { at, value, path })
}

pub fn align(v: usize, a: usize) -> usize {
    v.div_ceil(a) * a
}
