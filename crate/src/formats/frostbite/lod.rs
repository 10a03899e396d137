//! LOD records (description: the LOD table; offsets relative to the record).

use super::placement::LodPlace;
use super::pool::{lod_prefix, read_ptr, section_list_prefix, Ptr, PtrPath};
use super::section::Section;
use crate::error::{Error, Result};
use crate::read::Reader;
use crate::short::{PathText, Short};
use crate::show::hex;
use crate::span::{Confidence, Fields};

/// Names of the five section-index lists (list 0 main, 2 decals, 3 depth, 4 shadow: Inferred;
/// list 1 is "transparent" by the same Frostbite subset order, also Inferred).
pub const PASSES: [&str; 5] = ["main", "transparent", "decals", "depth", "shadow"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lod {
    /// Every record byte as stored (0xb0, 0xb8 or 0xbc); undescribed bytes come from here.
    pub raw: Vec<u8>,
    /// 0x8: section count (Proven); 0xC points at the section records.
    pub sections: Vec<Section>,
    /// 0x14: five byte lists of section indices (Proven).
    pub lists: [Vec<u8>; 5],
    /// 0x50: layout flags (Observed).
    pub layout_flags: u32,
    /// 0x54: index format, 0x21 16-bit, 0x2e 32-bit (Proven).
    pub index_format: u32,
    /// 0x58: index buffer byte count (Proven).
    pub index_bytes: u32,
    /// 0x5C: vertex buffer byte count (Proven).
    pub vertex_bytes: u32,
    /// 0x74: geometry chunk GUID, all zero for inline geometry (Proven).
    pub chunk: [u8; 16],
    /// 0x8C -> name (Proven); 0x94 -> a part of it; 0x9C -> its last part (offsets into `name`).
    pub name: String,
    pub name_part: u32,
    pub name_last: u32,
    /// 0xA4: djb2-XOR of <name>_lod0 (Observed).
    pub name_hash: u32,
    /// 0xb8 records: a 24-byte bone mask per section (Proven).
    pub bone_masks: Vec<[u8; 24]>,
    /// 0xbc records: the bone map (Proven).
    pub bone_map: Vec<u32>,
}

impl Lod {
    pub fn index_size(&self) -> Option<u32> {
        match self.index_format {
            0x21 => Some(2),
            0x2e => Some(4),
            _ => None,
        }
    }
    pub fn inline(&self) -> bool {
        self.chunk == [0; 16]
    }
}

#[derive(Debug, Default)]
pub struct LodPtrs {
    pub section_count: u32,
    /// Where the section count is stored.
    pub section_count_at: u64,
    pub sections: Ptr,
    pub lists: [(u32, Ptr); 5],
    pub name: Ptr,
    pub name_part: Ptr,
    pub name_last: Ptr,
    pub bone_masks: Option<Ptr>,
    pub bone_map: Option<(u32, Ptr)>,
}

pub const LAYOUT_FLAGS: [(u64, &str); 2] = [(0x10, "bit 4"), (0x40, "geometry is a chunk")];

/// Reads the LOD record of `bytes` bytes at absolute `at`.
/// Where a LOD record holds its section count (u32) and then its section-array pointer.
pub const SECTION_COUNT_AT: usize = 0x8;

pub fn read(f: &mut Fields, file: &Reader, at: usize, bytes: u32, i: usize) -> Result<(Lod, LodPtrs)> {
    let prefix = lod_prefix(i);
    let path = PathText::from(prefix.trim_end_matches('.'));
    let pp = |n: &str| prefix.join(n);
    let mut r = file.window(at, bytes as usize).map_err(|e| e.at_path(&path))?;
    let mut l = Lod { raw: r.data().to_vec(), ..Default::default() };
    f.record(path.clone(), r.base(), bytes as u64);
    let mut p = LodPtrs::default();
    r.seek(SECTION_COUNT_AT)?;
    p.section_count_at = r.offset();
    p.section_count = f.read(&mut r, pp("section_count"), Confidence::Proven, "")?;
    p.sections = read_ptr(f, &mut r, PtrPath::Lod(i as u32, "section_array_pointer"), Confidence::Proven, "")?;
    for k in 0..5 {
        let note = "Count and pointer of five byte lists, at 12-byte steps";
        let slot = section_list_prefix(i, k);
        let list = |n: &str| slot.join(n);
        let c: u32 = f.read(&mut r, list("count"), Confidence::Proven, note)?;
        let q = read_ptr(f, &mut r, PtrPath::SectionList(i as u32, k as u32), Confidence::Proven, note)?;
        p.lists[k] = (c, q);
    }
    l.layout_flags = f.flags(&mut r, pp("layout_flags"), &LAYOUT_FLAGS, Confidence::Observed,
        "bit 6: the geometry is a chunk (clear only on the LOD with inline geometry); bit 4 only on LODs of MeshSets that set header bit 2; bits 0, 9, 17 and 18 take other values that are not named here")?;
    let fmt_at = r.offset();
    l.index_format = r.u32().map_err(|e| e.at_path(&pp("index_format")))?;
    let fmt = match l.index_format {
        0x21 => "16-bit",
        0x2e => "32-bit",
        _ => "not described",
    };
    f.add(
        fmt_at,
        4,
        pp("index_format"),
        "u32",
        Short::concat(&["0x", hex(l.index_format as u64, &mut [0; 16]), " (", fmt, ")"]),
        Confidence::Proven,
        "0x21 is 16-bit; 0x2e is 32-bit",
    );
    l.index_bytes = f.read(&mut r, pp("index_buffer_bytes"), Confidence::Proven, "")?;
    l.vertex_bytes = f.read(
        &mut r,
        pp("vertex_buffer_bytes"),
        Confidence::Proven,
        "Multiple of 16 in every stock MeshSet; the game also loads community MeshSets that are not (65,400)",
    )?;
    r.seek(0x74)?;
    let g_at = r.offset();
    l.chunk = r.array().map_err(|e| e.at_path(&pp("geometry_chunk")))?;
    f.add(g_at, 16, pp("geometry_chunk"), "GUID", super::guid::text(&l.chunk), Confidence::Proven, "");
    r.seek(0x8C)?;
    p.name = read_ptr(f, &mut r, PtrPath::Lod(i as u32, "name_pointer"), Confidence::Proven, "")?;
    p.name_part = read_ptr(f, &mut r, PtrPath::Lod(i as u32, "name_part_pointer"), Confidence::Proven, "")?;
    p.name_last = read_ptr(f, &mut r, PtrPath::Lod(i as u32, "name_last_part_pointer"), Confidence::Proven, "")?;
    l.name_hash = f.read(&mut r, pp("name_hash"), Confidence::Observed, "djb2-XOR of <name>_lod0")?;
    r.seek(0xB0)?;
    let note = "0xb8 records: pointer to a 24-byte bone mask per section; 0xbc records: u32 count, then pointer to u32 bone map";
    match bytes {
        0xb8 => {
            p.bone_masks =
                Some(read_ptr(f, &mut r, PtrPath::Lod(i as u32, "bone_masks_pointer"), Confidence::Proven, note)?)
        }
        0xbc => {
            let c: u32 = f.read(&mut r, pp("bone_map_count"), Confidence::Proven, note)?;
            p.bone_map =
                Some((c, read_ptr(f, &mut r, PtrPath::Lod(i as u32, "bone_map_pointer"), Confidence::Proven, note)?));
        }
        _ => {}
    }
    if p.section_count > 0 && p.sections.value == 0 {
        return Err(Error::bad_value(
            p.sections.at,
            p.sections.path.text(),
            format!("null pointer for {} sections", p.section_count),
        ));
    }
    Ok((l, p))
}

/// Writes the record's bytes at the start of `out`, with its pointers' stored values `v`.
pub fn write(l: &Lod, bytes: u32, out: &mut [u8], v: &LodPlace) {
    let n = (bytes as usize).min(out.len());
    let raw_n = l.raw.len().min(n);
    out[..raw_n].copy_from_slice(&l.raw[..raw_n]);
    let mut put = |at: usize, b: &[u8]| {
        if at + b.len() <= n {
            out[at..at + b.len()].copy_from_slice(b);
        }
    };
    put(0x8, &(l.sections.len() as u32).to_le_bytes());
    put(0xC, &v.sections.to_le_bytes());
    for k in 0..5 {
        put(0x14 + 12 * k, &(l.lists[k].len() as u32).to_le_bytes());
        put(0x18 + 12 * k, &v.lists[k].to_le_bytes());
    }
    put(0x50, &l.layout_flags.to_le_bytes());
    put(0x54, &l.index_format.to_le_bytes());
    put(0x58, &l.index_bytes.to_le_bytes());
    put(0x5C, &l.vertex_bytes.to_le_bytes());
    put(0x74, &l.chunk);
    put(0x8C, &v.name.to_le_bytes());
    put(0x94, &v.name_part.to_le_bytes());
    put(0x9C, &v.name_last.to_le_bytes());
    put(0xA4, &l.name_hash.to_le_bytes());
    match bytes {
        0xb8 => put(0xB0, &v.bones.to_le_bytes()),
        0xbc => {
            put(0xB0, &(l.bone_map.len() as u32).to_le_bytes());
            put(0xB4, &v.bones.to_le_bytes());
        }
        _ => {}
    }
}
