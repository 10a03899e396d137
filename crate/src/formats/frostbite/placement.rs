//! Where a MeshSet's parts lie: every pointer's stored value, the relocation table's and the
//! trailing data's offsets, and the bytes between the parts. The decoder reads a placement from
//! the file, so the writer puts every part back where it was; `game` lays a new file out as the
//! game does (the "game's layout"), and `game_table` lists its pointers in the game's order.

use super::pool::{align, BASE};
use super::{section, MeshSetDetails};

/// Stored values (relative to byte 16; 0 is null) of one LOD record's pointers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LodPlace {
    /// 0xC: the section array.
    pub sections: u64,
    /// 0x18 + 12k: the five section-index lists.
    pub lists: [u64; 5],
    /// 0x8C, 0x94, 0x9C: the name, a part of it, its last part.
    pub name: u64,
    pub name_part: u64,
    pub name_last: u64,
    /// 0xB0 (0xb8 records) or 0xB4 (0xbc records): the bone masks or bone map; 0 for 0xb0.
    pub bones: u64,
}

/// Stored values of the header's pointers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeaderPlace {
    /// 0x30 + 8i, one per LOD.
    pub lods: Vec<u64>,
    /// 0x68 and 0x70.
    pub name: u64,
    pub name_last: u64,
    /// 0xC8 and 0xD0 (0xe0 headers only).
    pub bone_ids: u64,
    pub bone_bounds: u64,
}

/// Where everything lies, as stored. Offsets are absolute.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placement {
    /// Resource bytes.
    pub len: usize,
    pub header: HeaderPlace,
    pub lods: Vec<LodPlace>,
    /// Per LOD, per section: the material-name and bone-list pointers (0x8, 0x10).
    pub sections: Vec<Vec<[u64; 2]>>,
    /// Name parts stored as strings of their own instead of inside their names: (offset, bytes
    /// with the NUL).
    pub copies: Vec<(usize, Vec<u8>)>,
    /// Strings whose bytes are not UTF-8, as stored (offset, bytes with the NUL).
    pub raw_strings: Vec<(usize, Vec<u8>)>,
    pub table_at: usize,
    pub trailing_at: usize,
    /// Non-zero bytes that no record, pooled item, table entry or trailing byte covers.
    pub gaps: Vec<(usize, Vec<u8>)>,
}

/// The absolute offset a stored pointer names; `None` for null.
pub fn abs(v: u64) -> Option<usize> {
    (v != 0).then(|| v.checked_add(BASE).and_then(|a| usize::try_from(a).ok())).flatten()
}

fn rel(a: usize) -> u64 {
    a as u64 - BASE
}

/// The offset of a LOD record's bone pointer field.
pub fn bones_field(lod_bytes: u32) -> Option<usize> {
    match lod_bytes {
        0xb8 => Some(0xB0),
        0xbc => Some(0xB4),
        _ => None,
    }
}

/// The relocation entries the game writes, in its order, for records at `lod_at` and
/// `section_at` (absolute): per LOD its section-array pointer, each section's material-name
/// pointer and (when it has bones) bone-list pointer, the five list pointers, the three name
/// pointers, the bone pointer; then the header's LOD pointers, its two name pointers, its bone
/// ids and bone bounds pointers.
/// Offsets are the file's record places (`u64`, `MeshSetDetails::lod_at`) or the game's
/// (`usize`, `game`).
pub fn game_table<A: Copy + TryInto<usize>>(m: &MeshSetDetails, lod_at: &[A], section_at: &[Vec<A>]) -> Vec<u32> {
    let h = &m.header;
    // The stored table lists the same fields when the file is laid out as the game does.
    let mut t = Vec::with_capacity(m.relocation.len());
    let mut push = |a: usize| t.push((a as u64).saturating_sub(BASE) as u32);
    // A record's place in bytes held in memory always fits a usize.
    let place = |a: Option<&A>| a.and_then(|&a| a.try_into().ok());
    for (i, l) in m.lods.iter().enumerate() {
        let Some(b) = place(lod_at.get(i)) else { continue };
        push(b + 0xC);
        for (k, s) in l.sections.iter().enumerate() {
            let Some(sa) = place(section_at.get(i).and_then(|v| v.get(k))) else { continue };
            push(sa + 0x8);
            if !s.bones.is_empty() {
                push(sa + 0x10);
            }
        }
        for k in 0..5 {
            push(b + 0x18 + 12 * k);
        }
        for f in [0x8C, 0x94, 0x9C] {
            push(b + f);
        }
        if let Some(f) = bones_field(h.lod_bytes) {
            push(b + f);
        }
    }
    for i in 0..m.lods.len().min(7) {
        push(0x30 + 8 * i);
    }
    push(0x68);
    push(0x70);
    if h.has_bones() {
        push(0xC8);
        push(0xD0);
    }
    t
}

/// Lays a MeshSet out as the game does. Header, LOD records in 16-byte slots, every LOD's
/// sections; the pool: bone lists (then 16-aligned), per LOD its section names and its name,
/// the MeshSet's name (16-aligned), every LOD's five lists one after another (one 16-byte
/// alignment after the last; an empty list points where it would start), each LOD's bone
/// masks (16-aligned before) or bone map (4-aligned before), the bone ids and bone bounds
/// (each 16-aligned); the table 16-aligned; the trailing data after the table's padding.
/// Returns the placement and the relocation table.
pub fn game(m: &MeshSetDetails) -> (Placement, Vec<u32>) {
    let h = &m.header;
    let mut p = Placement::default();
    let slot = align(h.lod_bytes as usize, 16);
    let mut at = h.size();
    let lod_at: Vec<usize> = m
        .lods
        .iter()
        .map(|_| {
            at += slot;
            at - slot
        })
        .collect();
    let mut section_at = Vec::new();
    for lod in &m.lods {
        section_at.push((0..lod.sections.len()).map(|k| at + k * section::SIZE).collect::<Vec<_>>());
        at += lod.sections.len() * section::SIZE;
    }
    p.header.lods = lod_at.iter().map(|&a| rel(a)).collect();
    p.lods = section_at
        .iter()
        .map(|s| LodPlace { sections: s.first().map_or(0, |&a| rel(a)), ..Default::default() })
        .collect();
    p.sections = m.lods.iter().map(|l| vec![[0u64; 2]; l.sections.len()]).collect();
    for (i, lod) in m.lods.iter().enumerate() {
        for (k, s) in lod.sections.iter().enumerate() {
            if !s.bones.is_empty() {
                p.sections[i][k][1] = rel(at);
                at += 2 * s.bones.len();
            }
        }
    }
    at = align(at, 16);
    for (i, lod) in m.lods.iter().enumerate() {
        for (k, s) in lod.sections.iter().enumerate() {
            p.sections[i][k][0] = rel(at);
            at += s.material.len() + 1;
        }
        let name = at;
        p.lods[i].name = rel(name);
        p.lods[i].name_part = rel(name + lod.name_part as usize);
        p.lods[i].name_last = rel(name + lod.name_last as usize);
        at += lod.name.len() + 1;
    }
    p.header.name = rel(at);
    p.header.name_last = rel(at + h.name_last as usize);
    at = align(at + h.name.len() + 1, 16);
    for (i, lod) in m.lods.iter().enumerate() {
        for k in 0..5 {
            p.lods[i].lists[k] = rel(at);
            at += lod.lists[k].len();
        }
    }
    at = align(at, 16);
    for (i, lod) in m.lods.iter().enumerate() {
        match h.lod_bytes {
            0xb8 => {
                at = align(at, 16);
                p.lods[i].bones = rel(at);
                at += 24 * lod.bone_masks.len();
            }
            0xbc => {
                at = align(at, 4);
                p.lods[i].bones = rel(at);
                at += 4 * lod.bone_map.len();
            }
            _ => {}
        }
    }
    if h.has_bones() {
        at = align(at, 16);
        p.header.bone_ids = rel(at);
        at = align(at + 2 * h.bone_ids.len(), 16);
        p.header.bone_bounds = rel(at);
        at += 32 * h.bone_bounds.len();
    }
    p.table_at = align(at, 16);
    let table = game_table(m, &lod_at, &section_at);
    let end = p.table_at + 4 * table.len();
    p.trailing_at = if m.trailing.is_empty() { end } else { align(end, 16) };
    p.len = p.trailing_at + m.trailing.len();
    (p, table)
}

/// Absolute offsets of every LOD record and section record a placement names.
pub fn records_at(m: &MeshSetDetails, p: &Placement) -> (Vec<usize>, Vec<Vec<usize>>) {
    let lod_at: Vec<usize> = p.header.lods.iter().map(|&v| abs(v).unwrap_or(0)).collect();
    let section_at = m
        .lods
        .iter()
        .zip(&p.lods)
        .map(|(l, lp)| {
            let s = abs(lp.sections).unwrap_or(0);
            (0..l.sections.len()).map(|k| s + k * section::SIZE).collect()
        })
        .collect();
    (lod_at, section_at)
}

/// The non-zero bytes of `bytes` outside the sorted-or-not ranges `covered` ([start, end)).
pub fn gaps(bytes: &[u8], covered: &mut [(usize, usize)]) -> Vec<(usize, Vec<u8>)> {
    covered.sort_unstable();
    let mut out = Vec::new();
    let free = |from: usize, to: usize, out: &mut Vec<(usize, Vec<u8>)>| {
        let Some(b) = bytes.get(from..to.min(bytes.len())) else { return };
        let mut k = 0;
        while k < b.len() {
            if b[k] == 0 {
                k += 1;
                continue;
            }
            let s = k;
            while k < b.len() && b[k] != 0 {
                k += 1;
            }
            out.push((from + s, b[s..k].to_vec()));
        }
    };
    let mut at = 0usize;
    for &(s, e) in covered.iter() {
        if s > at {
            free(at, s, &mut out);
        }
        at = at.max(e);
    }
    free(at, bytes.len(), &mut out);
    out
}
