//! Section records, 384 bytes (description: the section table).

use super::declaration::{self, Declaration};
use super::pool::{read_ptr, Ptr};
use crate::error::Result;
use crate::read::Reader;
use crate::short::PathText;
use crate::span::{Confidence, Fields};

pub const SIZE: usize = 384;
/// Where a section record holds its stored and its draw declaration.
pub const DECLARATIONS_AT: [usize; 2] = [0x70, 0xD4];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    /// Every record byte as stored; undescribed bytes come from here.
    pub raw: Vec<u8>,
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

#[derive(Debug, Default)]
pub struct SectionPtrs {
    pub material: Ptr,
    pub bones: Ptr,
    pub bone_count: u16,
}

pub fn read(f: &mut Fields, file: &Reader, at: usize, path: &PathText) -> Result<(Section, SectionPtrs)> {
    let mut r = file.window(at, SIZE).map_err(|e| e.at_path(path))?;
    let mut s = Section { raw: r.data().to_vec(), ..Default::default() };
    f.record(path.clone(), r.base(), SIZE as u64);
    let mut p = SectionPtrs::default();
    let prefix = path.join(".");
    let pp = |n: &str| prefix.join(n);
    r.seek(0x8)?;
    p.material = read_ptr(f, &mut r, pp("material_name_pointer"), Confidence::Proven, "")?;
    p.bones = read_ptr(f, &mut r, pp("bone_list_pointer"), Confidence::Proven, "")?;
    p.bone_count = f.read(&mut r, pp("bone_count"), Confidence::Proven, "")?;
    r.seek(0x1B)?;
    s.flags = f.read(&mut r, pp("flags"), Confidence::Observed,
        "15 values below 0x20; 0x0a (170,233 sections), 0x04 (116,897) and 0x0e (10,935) are the commonest; the byte does not say which section list holds the section (0x0a is on sections of list 0 alone and of list 2 alone)")?;
    s.material_slot =
        f.read(&mut r, pp("material_slot_index"), Confidence::Observed, "Index in the mesh asset's Materials.")?;
    r.seek(0x1E)?;
    s.stride = f.read(&mut r, pp("total_vertex_stride"), Confidence::Proven, "")?;
    s.primitive_type =
        f.read(&mut r, pp("primitive_type"), Confidence::Observed, "3 (triangle list) in all 300,875 sections")?;
    s.primitive_count = f.read(&mut r, pp("primitive_count"), Confidence::Proven, "")?;
    s.start_index = f.read(&mut r, pp("start_index"), Confidence::Proven, "")?;
    s.vertex_offset = f.read(&mut r, pp("vertex_byte_offset"), Confidence::Proven, "")?;
    s.vertex_count = f.read(&mut r, pp("vertex_count"), Confidence::Proven, "")?;
    r.seek(0x54)?;
    s.vertex_offset_again = f.read(&mut r, pp("repeated_vertex_byte_offset"), Confidence::Proven, "")?;
    s.uv_density[0] = f.read(
        &mut r,
        pp("uv0_texel_density"),
        Confidence::Observed,
        "Median over the triangles of sqrt(UV area / area); 1.0 when no triangle has area",
    )?;
    s.uv_density[1] = f.read(&mut r, pp("uv1_texel_density"), Confidence::Observed, "")?;
    r.seek(DECLARATIONS_AT[0])?;
    s.stored = declaration::read(f, &mut r, &pp("stored_declaration"))?;
    s.draw = declaration::read(f, &mut r, &pp("draw_declaration"))?;
    s.material_key = f.read(&mut r, pp("material_key"), Confidence::Proven, "")?;
    s.start_index_again = f.read(&mut r, pp("repeated_start_index"), Confidence::Proven, "")?;
    s.material_hash =
        f.read(&mut r, pp("material_name_hash"), Confidence::Observed, "djb2-XOR of the lowercased material name.")?;
    r.seek(0x14C)?;
    s.area = f.read(&mut r, pp("surface_area"), Confidence::Observed, "Square metres.")?;
    s.bounds_min = f.read(&mut r, pp("bounds_min"), Confidence::Observed, "w is 0")?;
    s.bounds_max = f.read(&mut r, pp("bounds_max"), Confidence::Observed, "")?;
    Ok((s, p))
}

pub fn write(s: &Section, out: &mut [u8], material: u64, bones: u64) {
    let n = SIZE.min(out.len());
    let raw_n = s.raw.len().min(n);
    out[..raw_n].copy_from_slice(&s.raw[..raw_n]);
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
