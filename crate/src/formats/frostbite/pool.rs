//! Pointers and the pool: where the writer puts each pooled item, by the description's order
//! (bone lists; strings; section-index lists; bone masks or map; bone ids; bone bounds).

use super::MeshSetDetails;
use crate::error::Result;
use crate::read::Reader;
use crate::short::{PathText, Short};
use crate::span::{Confidence, Fields};

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

pub fn read_ptr(f: &mut Fields, r: &mut Reader, path: &str, c: Confidence, note: &'static str) -> Result<Ptr> {
    let at = r.offset();
    let value = r.u64().map_err(|e| e.at_path(path))?;
    let shown = if value == 0 {
        Short::from("0 (null)")
    } else {
        Short::display(&format_args!("0x{value:x} (-> 0x{:x})", value.wrapping_add(BASE)))
    };
    f.add(at, 8, path, "u64 pointer", shown, c, note);
    Ok(Ptr { at, value, path: PathText::from(path) })
}

pub fn align(v: usize, a: usize) -> usize {
    v.div_ceil(a) * a
}

/// Where every record and pooled item goes (absolute offsets; 0 for an absent item).
#[derive(Debug, Default, Clone)]
pub struct Layout {
    pub lod_at: Vec<usize>,
    pub section_at: Vec<Vec<usize>>,
    pub pool_start: usize,
    pub bone_list_at: Vec<Vec<usize>>,
    pub material_at: Vec<Vec<usize>>,
    pub lod_name_at: Vec<usize>,
    pub name_at: usize,
    pub lists_at: Vec<[usize; 5]>,
    pub bones_at: Vec<usize>,
    pub bone_ids_at: usize,
    pub bone_bounds_at: usize,
    /// End of the pool: where the relocation table starts.
    pub pool_end: usize,
    /// Absolute offsets of every non-null pointer field, in record order.
    pub pointers: Vec<usize>,
}

/// Lays out a MeshSet: header, LOD records (16-aligned slots), every LOD's sections, the pool.
pub fn layout(m: &MeshSetDetails) -> Layout {
    let h = &m.header;
    let mut l = Layout::default();
    let slot = align(h.lod_bytes as usize, 16);
    let mut at = h.size();
    for _ in &m.lods {
        l.lod_at.push(at);
        at += slot;
    }
    for lod in &m.lods {
        l.section_at.push(
            lod.sections
                .iter()
                .map(|_| {
                    let a = at;
                    at += super::section::SIZE;
                    a
                })
                .collect(),
        );
    }
    l.pool_start = at;
    // Bone lists, u16 each, then 16-aligned.
    for lod in &m.lods {
        l.bone_list_at.push(
            lod.sections
                .iter()
                .map(|s| {
                    if s.bones.is_empty() {
                        0
                    } else {
                        let a = at;
                        at += 2 * s.bones.len();
                        a
                    }
                })
                .collect(),
        );
    }
    at = align(at, 16);
    // Strings: per LOD its section names then its name; then the MeshSet name; 16-aligned.
    for lod in &m.lods {
        l.material_at.push(
            lod.sections
                .iter()
                .map(|s| {
                    let a = at;
                    at += s.material.len() + 1;
                    a
                })
                .collect(),
        );
        l.lod_name_at.push(at);
        at += lod.name.len() + 1;
    }
    l.name_at = at;
    at = align(at + h.name.len() + 1, 16);
    // Each LOD's five section-index lists, 16-aligned per LOD.
    for lod in &m.lods {
        let mut a5 = [0usize; 5];
        for k in 0..5 {
            if !lod.lists[k].is_empty() {
                a5[k] = at;
                at += lod.lists[k].len();
            }
        }
        l.lists_at.push(a5);
        at = align(at, 16);
    }
    // Each LOD's bone masks (16-aligned) or bone map (4-aligned).
    for lod in &m.lods {
        match h.lod_bytes {
            0xb8 if !lod.bone_masks.is_empty() => {
                l.bones_at.push(at);
                at = align(at + 24 * lod.bone_masks.len(), 16);
            }
            0xbc if !lod.bone_map.is_empty() => {
                l.bones_at.push(at);
                at = align(at + 4 * lod.bone_map.len(), 4);
            }
            _ => l.bones_at.push(0),
        }
    }
    if h.has_bones() {
        if !h.bone_ids.is_empty() {
            l.bone_ids_at = at;
            at = align(at + 2 * h.bone_ids.len(), 16);
        }
        if !h.bone_bounds.is_empty() {
            l.bone_bounds_at = at;
            at = align(at + 32 * h.bone_bounds.len(), 16);
        }
    }
    l.pool_end = at;
    // Pointer fields, in record order: header, LOD records, section records.
    let mut p = Vec::new();
    for i in 0..m.lods.len().min(7) {
        p.push(0x30 + 8 * i);
    }
    p.push(0x68);
    p.push(0x70);
    if h.has_bones() {
        if l.bone_ids_at != 0 {
            p.push(0xC8);
        }
        if l.bone_bounds_at != 0 {
            p.push(0xD0);
        }
    }
    for (i, lod) in m.lods.iter().enumerate() {
        let b = l.lod_at[i];
        if !lod.sections.is_empty() {
            p.push(b + 0xC);
        }
        for k in 0..5 {
            if l.lists_at[i][k] != 0 {
                p.push(b + 0x18 + 12 * k);
            }
        }
        p.extend([b + 0x8C, b + 0x94, b + 0x9C]);
        if l.bones_at[i] != 0 {
            p.push(b + if h.lod_bytes == 0xbc { 0xB4 } else { 0xB0 });
        }
    }
    for (i, lod) in m.lods.iter().enumerate() {
        for (k, _) in lod.sections.iter().enumerate() {
            let b = l.section_at[i][k];
            p.push(b + 0x8);
            if l.bone_list_at[i][k] != 0 {
                p.push(b + 0x10);
            }
        }
    }
    l.pointers = p;
    l
}

/// Stored value of a pointer to absolute offset `abs` (0 stays null).
pub fn stored(abs: usize) -> u64 {
    if abs == 0 {
        0
    } else {
        abs as u64 - BASE
    }
}
