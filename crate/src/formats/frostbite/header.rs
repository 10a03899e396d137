//! The MeshSet header (description: the 0xd0/0xe0-byte table). Pointers are relative to byte 16.

use super::placement::HeaderPlace;
use super::pool::{read_ptr, Ptr, PtrPath};
use crate::error::{Error, Result};
use crate::field::{decimal, Digits};
use crate::read::Reader;
use crate::short::Short;
use crate::span::{Confidence, Fields};

/// Mesh types (0x7C), Frostbite's names.
pub const MESH_TYPES: [&str; 3] = ["rigid", "skinned", "composite"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    /// Every header byte as stored: undescribed bytes are written back from here.
    pub raw: Vec<u8>,
    /// 0x0: header bytes minus 16 (Proven): 0xc0 or 0xd0.
    pub size_minus_16: u32,
    /// 0x4: LOD record bytes (Proven): 0xb0, 0xb8 with bone masks, 0xbc with a bone map.
    pub lod_bytes: u32,
    /// 0x8: section record bytes, 384 (Proven).
    pub section_bytes: u32,
    /// 0x10, 0x20: bounds over every section's bounds (Observed).
    pub bounds_min: [f32; 4],
    pub bounds_max: [f32; 4],
    /// 0x68 -> the MeshSet name (Proven); 0x70 points at its last part (Proven).
    pub name: String,
    /// Byte offset of the last part inside `name`.
    pub name_last: u32,
    /// 0x78: djb2-XOR of the name (Observed).
    pub name_hash: u32,
    /// 0x7C: 0 rigid, 1 skinned, 2 composite (Observed).
    pub mesh_type: u8,
    /// 0x7D: unknown (Unknown).
    pub unknown_7d: u8,
    /// 0xA8: layout flags (Observed).
    pub layout_flags: u32,
    /// 0xB4: LOD count (Proven).
    pub lod_count: u16,
    /// 0xC4: bone count (Proven, 0xe0 header only).
    pub bone_count: u16,
    /// 0xC6: bounded bone count (Proven, 0xe0 header only).
    pub bounded_bone_count: u16,
    /// 0xC8 ->: bounded bone ids, u16 each (Proven).
    pub bone_ids: Vec<u16>,
    /// 0xD0 ->: f32x4 minimum and maximum per bounded bone, else per bone (Proven).
    pub bone_bounds: Vec<[f32; 8]>,
}

impl Header {
    pub fn size(&self) -> usize {
        self.size_minus_16 as usize + 16
    }
    pub fn has_bones(&self) -> bool {
        self.size() >= 0xe0
    }
    /// Bone bounds entries the header promises.
    pub fn bone_bounds_count(&self) -> usize {
        if self.bounded_bone_count > 0 {
            self.bounded_bone_count as usize
        } else {
            self.bone_count as usize
        }
    }
}

/// Pointer fields the header holds, read before the pool.
#[derive(Debug, Default)]
pub struct HeaderPtrs {
    pub lods: Vec<Ptr>,
    pub name: Ptr,
    pub name_last: Ptr,
    pub bone_ids: Option<Ptr>,
    pub bone_bounds: Option<Ptr>,
}

pub const LAYOUT_FLAGS: [(u64, &str); 2] = [(1, "geometry in chunks"), (4, "some LOD sets its bit 4")];

pub fn read(f: &mut Fields, file: &Reader) -> Result<(Header, HeaderPtrs)> {
    let mut h = Header::default();
    let mut p = HeaderPtrs::default();
    let mut r = file.window(0, file.len().min(0x10))?;
    h.size_minus_16 = f.read(&mut r, "header.header_bytes_minus_16", Confidence::Proven, "")?;
    if h.size_minus_16 != 0xc0 && h.size_minus_16 != 0xd0 {
        return Err(Error::bad_value(
            0,
            "header.header_bytes_minus_16",
            format!("0x{:x}: a header is 0xd0 or 0xe0 bytes", h.size_minus_16),
        ));
    }
    h.lod_bytes = f.read(
        &mut r,
        "header.lod_record_bytes",
        Confidence::Proven,
        "0xb0, 0xb8 with bone masks, 0xbc with a bone map",
    )?;
    if ![0xb0, 0xb8, 0xbc].contains(&h.lod_bytes) {
        return Err(Error::bad_value(
            4,
            "header.lod_record_bytes",
            format!("0x{:x} is not 0xb0, 0xb8 or 0xbc", h.lod_bytes),
        ));
    }
    h.section_bytes = f.read(&mut r, "header.section_record_bytes", Confidence::Proven, "")?;
    if h.section_bytes != 384 {
        return Err(Error::bad_value(8, "header.section_record_bytes", format!("{} is not 384", h.section_bytes)));
    }
    f.bytes(&mut r, 4, "header.unknown_0c", Confidence::Unknown, "")?;
    // The whole header must be there before the rest is read.
    let mut r = file.window(0, h.size()).map_err(|e| e.at_path("header"))?;
    h.raw = r.data().to_vec();
    f.record("header", 0, h.size() as u64);
    r.seek(0x10)?;
    h.bounds_min = f.read(&mut r, "header.bounds_min", Confidence::Observed, "Over every section's bounds.")?;
    h.bounds_max = f.read(&mut r, "header.bounds_max", Confidence::Observed, "")?;
    let mut lod_ptrs = Vec::with_capacity(7);
    for i in 0..7 {
        lod_ptrs.push(read_ptr(f, &mut r, PtrPath::LodPointer(i), Confidence::Proven, "At most seven LODs.")?);
    }
    p.name = read_ptr(f, &mut r, PtrPath::Header("header.name_pointer"), Confidence::Proven, "")?;
    p.name_last = read_ptr(f, &mut r, PtrPath::Header("header.name_last_part_pointer"), Confidence::Proven, "")?;
    h.name_hash = f.read(
        &mut r,
        "header.name_hash",
        Confidence::Observed,
        "djb2-XOR of the MeshSet name; equals the mesh asset's NameHash.",
    )?;
    let mt_at = r.offset();
    h.mesh_type = r.u8()?;
    let mt_name = MESH_TYPES.get(h.mesh_type as usize).copied().unwrap_or("not described");
    f.add(
        mt_at,
        1,
        "header.mesh_type",
        "u8",
        Short::concat(&[decimal(h.mesh_type as u64, &mut Digits::new()), " (", mt_name, ")"]),
        Confidence::Observed,
        "0 rigid (46,977 MeshSets), 1 skinned (296), 2 composite (485); the names are Frostbite's mesh types",
    );
    h.unknown_7d = f.read(&mut r, "header.unknown_7d", Confidence::Unknown, "3 on 47,666 MeshSets, 5 on 92")?;
    r.seek(0xA8)?;
    h.layout_flags = f.flags(&mut r, "header.layout_flags", &LAYOUT_FLAGS, Confidence::Observed,
        "bit 0: geometry in chunks (clear only on the MeshSet with inline geometry); bit 2: some LOD sets its bit 4; bits 1, 4, 7, 8 to 23 and 29 to 31 take other values that are not named here")?;
    r.seek(0xB4)?;
    h.lod_count = f.read(&mut r, "header.lod_count", Confidence::Proven, "")?;
    if h.lod_count > 7 {
        return Err(Error::limit(
            0xB4,
            "header.lod_count",
            format!("{} LODs; at most seven LOD pointers", h.lod_count),
        ));
    }
    p.lods = lod_ptrs.into_iter().take(h.lod_count as usize).collect();
    if h.has_bones() {
        r.seek(0xC4)?;
        h.bone_count = f.read(&mut r, "header.bone_count", Confidence::Proven, "0xe0 header only.")?;
        h.bounded_bone_count = f.read(&mut r, "header.bounded_bone_count", Confidence::Proven, "0xe0 header only.")?;
        p.bone_ids = Some(read_ptr(
            f,
            &mut r,
            PtrPath::Header("header.bounded_bone_ids_pointer"),
            Confidence::Proven,
            "0xe0 header only; u16 each",
        )?);
        p.bone_bounds = Some(read_ptr(
            f,
            &mut r,
            PtrPath::Header("header.bone_bounds_pointer"),
            Confidence::Proven,
            "0xe0 header only; f32x4 minimum and maximum per bounded bone, else per bone",
        )?);
    }
    Ok((h, p))
}

/// Writes the header's bytes, with its pointers' stored values `p`.
pub fn write(h: &Header, out: &mut [u8], p: &HeaderPlace) {
    let n = h.size().min(out.len());
    let raw_n = h.raw.len().min(n);
    out[..raw_n].copy_from_slice(&h.raw[..raw_n]);
    let mut put = |at: usize, b: &[u8]| {
        if at + b.len() <= n {
            out[at..at + b.len()].copy_from_slice(b);
        }
    };
    put(0, &h.size_minus_16.to_le_bytes());
    put(4, &h.lod_bytes.to_le_bytes());
    put(8, &h.section_bytes.to_le_bytes());
    for k in 0..4 {
        put(0x10 + 4 * k, &h.bounds_min[k].to_le_bytes());
        put(0x20 + 4 * k, &h.bounds_max[k].to_le_bytes());
    }
    for i in 0..7 {
        put(0x30 + 8 * i, &p.lods.get(i).copied().unwrap_or(0).to_le_bytes());
    }
    put(0x68, &p.name.to_le_bytes());
    put(0x70, &p.name_last.to_le_bytes());
    put(0x78, &h.name_hash.to_le_bytes());
    put(0x7C, &[h.mesh_type, h.unknown_7d]);
    put(0xA8, &h.layout_flags.to_le_bytes());
    put(0xB4, &h.lod_count.to_le_bytes());
    if h.has_bones() {
        put(0xC4, &h.bone_count.to_le_bytes());
        put(0xC6, &h.bounded_bone_count.to_le_bytes());
        put(0xC8, &p.bone_ids.to_le_bytes());
        put(0xD0, &p.bone_bounds.to_le_bytes());
    }
}
