//! Section records, 384 bytes (description: the section table).

use super::declaration::{self, Declaration};
use super::pool::{Ptr, PtrPath, SectionId, BASE};
use crate::error::{Error, ErrorKind, Result};
use crate::field::FieldType;
use crate::laid::{Layout, LayoutRef, Part, PartValue, IN_RECORD};
use crate::read::Reader;
use crate::short::PathText;
use crate::show::Kind;
use crate::span::{Confidence, Fields};

pub const SIZE: usize = 384;
/// Where a section record holds its stored and its draw declaration.
pub const DECLARATIONS_AT: [usize; 2] = [0x70, 0xD4];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    /// Every record byte as stored; undescribed bytes come from here.
    pub raw: RecordBytes,
    /// 0x8 -> material name (Proven).
    pub material: String,
    /// 0x10 -> bone list, 0x18 its count (Proven).
    pub bones: Vec<u16>,
    /// 0x1B: flags (Observed).
    pub flags: u8,
    /// 0x1C: material slot index (Observed).
    pub material_slot: u8,
    /// 0x1E: total vertex stride (Proven).
    pub stride: u8,
    /// 0x1F: primitive type, 3 triangle list (Observed).
    pub primitive_type: u8,
    /// 0x20: primitive count (Proven).
    pub primitive_count: u32,
    /// 0x24: start index (Proven).
    pub start_index: u32,
    /// 0x28: vertex byte offset (Proven).
    pub vertex_offset: u32,
    /// 0x2C: vertex count (Proven).
    pub vertex_count: u32,
    /// 0x54: repeated vertex byte offset (Proven).
    pub vertex_offset_again: u32,
    /// 0x58, 0x5C: UV0 and UV1 texel density (Observed).
    pub uv_density: [f32; 2],
    /// 0x70: stored vertex declaration (Proven).
    pub stored: Declaration,
    /// 0xD4: draw vertex declaration (Proven).
    pub draw: Declaration,
    /// 0x138: material key (Proven).
    pub material_key: u64,
    /// 0x140: repeated start index (Proven).
    pub start_index_again: u32,
    /// 0x144: djb2-XOR of the lowercased material name (Observed).
    pub material_hash: u32,
    /// 0x14C: surface area, square metres (Observed).
    pub area: f32,
    /// 0x150, 0x160: bounds (Observed; w is 0).
    pub bounds_min: [f32; 4],
    pub bounds_max: [f32; 4],
}

/// A section record's bytes, held in place rather than on the heap: the record is fixed in
/// size, and a MeshSet's sections are each read once.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordBytes(pub [u8; SIZE]);

impl Default for RecordBytes {
    fn default() -> Self {
        RecordBytes([0; SIZE])
    }
}

#[derive(Debug, Default)]
pub struct SectionPtrs {
    pub material: Ptr,
    pub bones: Ptr,
    pub bone_count: u16,
}

const FLAGS_NOTE: &str = "15 values below 0x20; 0x0a (170,233 sections), 0x04 (116,897) and 0x0e (10,935) are the commonest; the byte does not say which section list holds the section (0x0a is on sections of list 0 alone and of list 2 alone)";
const UV0_NOTE: &str = "Median over the triangles of sqrt(UV area / area); 1.0 when no triangle has area";

/// Reads the section record at `at` of the file, recording its fields under section `id`'s path (one
/// placeholder when `f` lays records out): every field is read from the record's 384 bytes,
/// which must all be there. The section is pushed to `sections` once every field is read, made
/// in place there: a section is about a kilobyte, and each move of it was a copy.
pub fn read(
    f: &mut Fields,
    file: &Reader,
    at: usize,
    id: SectionId,
    sections: &mut Vec<Section>,
) -> Result<SectionPtrs> {
    let path = &id.path();
    let mut r = file.window(at, SIZE).map_err(|e| e.at_path(path))?;
    let base = r.base();
    let truncated = || Error::new(base, path.as_str(), ErrorKind::Truncated { needed: SIZE as u64, available: 0 });
    // The window holds exactly the record's bytes.
    let raw: &[u8; SIZE] = r.data().try_into().map_err(|_| truncated())?;
    f.record(path.clone(), base, SIZE as u64);
    let prefix = path.join(".");
    let pp = |n: &str| prefix.join(n);
    let p = SectionPtrs {
        material: Ptr { at: base + 0x8, value: le(raw, 0x8), path: PtrPath::Section(id, "material_name_pointer") },
        bones: Ptr { at: base + 0x10, value: le(raw, 0x10), path: PtrPath::Section(id, "bone_list_pointer") },
        bone_count: le(raw, 0x18) as u16,
    };
    if f.lays_out(&r, SIZE as u64) {
        f.add_laid(base, SIZE as u64, path.clone(), LayoutRef(&LAYOUT));
        // The declarations' extents, as `declaration::read` records them.
        for (at, name) in DECLARATIONS_AT.iter().zip(["stored_declaration", "draw_declaration"]) {
            f.record(pp(name), base + *at as u64, declaration::SIZE as u64);
        }
    } else {
        record_parts(f, &mut r, raw, &prefix)?;
    }
    sections.push(parse(raw));
    Ok(p)
}

/// Records the section's fields one by one, and reads its declarations, from `r` (the
/// record's window, whose bytes are `raw`); field paths start with `prefix`.
fn record_parts(f: &mut Fields, r: &mut Reader, raw: &[u8; SIZE], prefix: &PathText) -> Result<()> {
    let base = r.base();
    for part in &PARTS {
        let (start, len) = (part.start as usize, part.len as usize);
        match part.value {
            PartValue::Laid(_) => {
                r.seek(start)?;
                declaration::read(f, r, &prefix.join(part.name))?;
            }
            PartValue::Of(kind) => {
                r.seek(start + len)?;
                let value = f.value_of(r, len as u64, kind, || kind.show(&raw[start..start + len]).into());
                f.add(
                    base + start as u64,
                    len as u64,
                    prefix.join(part.name),
                    part.ty,
                    value,
                    part.confidence,
                    part.note,
                );
            }
            PartValue::Group | PartValue::Text(_) => {}
        }
    }
    Ok(())
}

/// The little-endian number of the (up to) eight bytes at `at` of the record.
fn le(raw: &[u8; SIZE], at: usize) -> u64 {
    raw[at..].iter().take(8).rev().fold(0, |n, &b| n << 8 | b as u64)
}

/// A section's values from its 384 bytes.
fn parse(raw: &[u8; SIZE]) -> Section {
    let u32_at = |at| le(raw, at) as u32;
    let f32_at = |at| f32::from_bits(u32_at(at));
    let f32x4_at = |at| [f32_at(at), f32_at(at + 4), f32_at(at + 8), f32_at(at + 12)];
    let decl =
        |at: usize| declaration::parse(raw[at..at + declaration::SIZE].try_into().unwrap_or(&[0; declaration::SIZE]));
    Section {
        raw: RecordBytes(*raw),
        flags: raw[0x1B],
        material_slot: raw[0x1C],
        stride: raw[0x1E],
        primitive_type: raw[0x1F],
        primitive_count: u32_at(0x20),
        start_index: u32_at(0x24),
        vertex_offset: u32_at(0x28),
        vertex_count: u32_at(0x2C),
        vertex_offset_again: u32_at(0x54),
        uv_density: [f32_at(0x58), f32_at(0x5C)],
        stored: decl(DECLARATIONS_AT[0]),
        draw: decl(DECLARATIONS_AT[1]),
        material_key: le(raw, 0x138),
        start_index_again: u32_at(0x140),
        material_hash: u32_at(0x144),
        area: f32_at(0x14C),
        bounds_min: f32x4_at(0x150),
        bounds_max: f32x4_at(0x160),
        ..Default::default()
    }
}

/// A section record laid out statically (`laid`): its fields, and its two declarations as
/// records laid out of their own, in the order of the description.
pub struct SectionLayout;

pub static LAYOUT: SectionLayout = SectionLayout;

/// A field of the section record: `T`'s type name and kind.
const fn field<T: FieldType>(name: &'static str, start: u32, confidence: Confidence, note: &'static str) -> Part {
    let len = std::mem::size_of::<T>() as u32;
    let value = match T::KIND {
        Some(kind) => PartValue::Of(kind),
        None => PartValue::Of(Kind::Hex),
    };
    Part { name, group: IN_RECORD, kids: 0, start, len, ty: T::NAME, confidence, value, note }
}

/// A pointer field (`pool::read_ptr`).
const fn pointer(name: &'static str, start: u32) -> Part {
    let value = PartValue::Of(Kind::Offset { base: BASE as u8 });
    Part { value, ty: "u64 pointer", len: 8, ..field::<u64>(name, start, Confidence::Proven, "") }
}

/// A vertex declaration, laid out by `declaration::LAYOUT`.
const fn declaration_at(name: &'static str, start: usize) -> Part {
    let value = PartValue::Laid(LayoutRef(&declaration::LAYOUT));
    Part { value, ty: "", len: declaration::SIZE as u32, ..field::<u8>(name, start as u32, Confidence::Proven, "") }
}

/// The section record's parts, the same whatever its bytes.
static PARTS: [Part; 22] = {
    use Confidence::{Observed, Proven};
    [
        pointer("material_name_pointer", 0x8),
        pointer("bone_list_pointer", 0x10),
        field::<u16>("bone_count", 0x18, Proven, ""),
        field::<u8>("flags", 0x1B, Observed, FLAGS_NOTE),
        field::<u8>("material_slot_index", 0x1C, Observed, "Index in the mesh asset's Materials."),
        field::<u8>("total_vertex_stride", 0x1E, Proven, ""),
        field::<u8>("primitive_type", 0x1F, Observed, "3 (triangle list) in all 300,875 sections"),
        field::<u32>("primitive_count", 0x20, Proven, ""),
        field::<u32>("start_index", 0x24, Proven, ""),
        field::<u32>("vertex_byte_offset", 0x28, Proven, ""),
        field::<u32>("vertex_count", 0x2C, Proven, ""),
        field::<u32>("repeated_vertex_byte_offset", 0x54, Proven, ""),
        field::<f32>("uv0_texel_density", 0x58, Observed, UV0_NOTE),
        field::<f32>("uv1_texel_density", 0x5C, Observed, ""),
        declaration_at("stored_declaration", DECLARATIONS_AT[0]),
        declaration_at("draw_declaration", DECLARATIONS_AT[1]),
        field::<u64>("material_key", 0x138, Proven, ""),
        field::<u32>("repeated_start_index", 0x140, Proven, ""),
        field::<u32>("material_name_hash", 0x144, Observed, "djb2-XOR of the lowercased material name."),
        field::<f32>("surface_area", 0x14C, Observed, "Square metres."),
        field::<[f32; 4]>("bounds_min", 0x150, Observed, "w is 0"),
        field::<[f32; 4]>("bounds_max", 0x160, Observed, ""),
    ]
};

/// The bytes no field describes; `tests` checks them against the parts.
const GAPS: [(u32, u32); 7] =
    [(0, 0x8), (0x1A, 0x1B), (0x1D, 0x1E), (0x30, 0x54), (0x60, 0x70), (0x148, 0x14C), (0x170, 0x180)];

impl Layout for SectionLayout {
    fn parts(&self, _own: &[u8], out: &mut Vec<Part>) {
        out.clear();
        out.extend_from_slice(&PARTS);
    }

    fn gaps(&self) -> &[(u32, u32)] {
        &GAPS
    }

    fn fixed(&self) -> bool {
        true
    }
}

pub fn write(s: &Section, out: &mut [u8], material: u64, bones: u64) {
    let n = SIZE.min(out.len());
    out[..n].copy_from_slice(&s.raw.0[..n]);
    let mut put = |at: usize, b: &[u8]| {
        if at + b.len() <= n {
            out[at..at + b.len()].copy_from_slice(b);
        }
    };
    put(0x8, &material.to_le_bytes());
    put(0x10, &bones.to_le_bytes());
    put(0x18, &(s.bones.len() as u16).to_le_bytes());
    put(0x1B, &[s.flags, s.material_slot]);
    put(0x1E, &[s.stride, s.primitive_type]);
    put(0x20, &s.primitive_count.to_le_bytes());
    put(0x24, &s.start_index.to_le_bytes());
    put(0x28, &s.vertex_offset.to_le_bytes());
    put(0x2C, &s.vertex_count.to_le_bytes());
    put(0x54, &s.vertex_offset_again.to_le_bytes());
    put(0x58, &s.uv_density[0].to_le_bytes());
    put(0x5C, &s.uv_density[1].to_le_bytes());
    let mut d = [0u8; declaration::SIZE];
    declaration::write(&s.stored, &mut d);
    put(0x70, &d);
    declaration::write(&s.draw, &mut d);
    put(0xD4, &d);
    put(0x138, &s.material_key.to_le_bytes());
    put(0x140, &s.start_index_again.to_le_bytes());
    put(0x144, &s.material_hash.to_le_bytes());
    put(0x14C, &s.area.to_le_bytes());
    for k in 0..4 {
        put(0x150 + 4 * k, &s.bounds_min[k].to_le_bytes());
        put(0x160 + 4 * k, &s.bounds_max[k].to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laid::expand_all;

    /// The bytes no part covers, from the parts (a declaration tiles its 100 bytes).
    fn uncovered() -> Vec<(u32, u32)> {
        let mut parts = Vec::new();
        LAYOUT.parts(&[0; SIZE], &mut parts);
        let mut covered = vec![false; SIZE];
        for p in &parts {
            covered[p.start as usize..(p.start + p.len) as usize].iter_mut().for_each(|c| *c = true);
        }
        let mut gaps: Vec<(u32, u32)> = Vec::new();
        for (i, _) in covered.iter().enumerate().filter(|(_, &c)| !c) {
            match gaps.last_mut() {
                Some(g) if g.1 == i as u32 => g.1 += 1,
                _ => gaps.push((i as u32, i as u32 + 1)),
            }
        }
        gaps
    }

    #[test]
    fn the_gaps_are_the_bytes_no_part_covers_and_parts_come_by_start() {
        assert_eq!(LAYOUT.gaps(), uncovered());
        let mut parts = Vec::new();
        LAYOUT.parts(&[0; SIZE], &mut parts);
        assert!(parts.windows(2).all(|w| w[0].start + w[0].len <= w[1].start));
        assert_eq!(crate::laid::content_len(LayoutRef(&LAYOUT), SIZE as u64), 0x170);
    }

    /// A section laid out as one placeholder expands to the fields a whole read records, and
    /// both give the same values.
    #[test]
    fn a_laid_out_section_expands_to_the_fields_read_one_by_one() {
        let mut file = vec![0u8; 8 + SIZE];
        for (i, b) in file.iter_mut().enumerate() {
            *b = (i * 37 % 251) as u8;
        }
        // Counts a declaration can have (up to 16 each).
        for d in DECLARATIONS_AT {
            file[8 + d + declaration::COUNTS_AT] = 3;
            file[8 + d + declaration::COUNTS_AT + 1] = 2;
        }
        let reader = Reader::new(&file);
        let path = SectionId { lod: 0, section: 1 };
        let (mut s1, mut s2) = (Vec::new(), Vec::new());
        let mut whole = Fields::over(&file);
        let p1 = read(&mut whole, &reader, 8, path, &mut s1).unwrap();
        let mut laid = Fields::laying_over(&file);
        let p2 = read(&mut laid, &reader, 8, path, &mut s2).unwrap();
        assert_eq!((s1.len(), s2.len()), (1, 1));
        assert_eq!(laid.spans.len(), 1);
        assert_eq!(expand_all(laid.spans, &file), whole.spans);
        assert_eq!(laid.records, whole.records);
        assert_eq!((&s1, p1.material, p1.bones, p1.bone_count), (&s2, p2.material, p2.bones, p2.bone_count));
        assert!(whole.spans.iter().any(|s| s.path == "lod[0].section[1].stored_declaration.element[2].usage"));
        // A section the file cuts short is an error at its start, with its path.
        let e = read(&mut Fields::laying_over(&file), &reader, 9, path, &mut s2).unwrap_err();
        assert_eq!((e.offset, e.path.as_str()), (9, "lod[0].section[1]"));
        assert_eq!(s2.len(), 1, "a section that fails to read is not pushed");
    }
}
