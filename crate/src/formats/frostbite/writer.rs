//! Writes a MeshSet back from its decoded form: records, pool in order and alignment,
//! relocation table, trailing data; and its bundle resource metadata.

use super::pool::{layout, stored};
use super::{header, lod, section, MeshSetDetails};
use crate::error::{Error, Result};

fn put(out: &mut [u8], at: usize, b: &[u8]) {
    if let Some(d) = out.get_mut(at..at + b.len()) {
        d.copy_from_slice(b);
    }
}

pub fn write(m: &MeshSetDetails) -> Result<Vec<u8>> {
    let h = &m.header;
    if m.lods.len() > 7 || m.lods.len() != h.lod_count as usize {
        return Err(Error::bad_value(
            0xB4,
            "header.lod_count",
            format!("{} LODs for a count of {}", m.lods.len(), h.lod_count),
        ));
    }
    let l = layout(m);
    let table = l.pool_end;
    let total = table + 4 * l.pointers.len() + m.trailing.len();
    let mut out = vec![0u8; total];
    let lod_ptrs: Vec<u64> = l.lod_at.iter().map(|&a| stored(a)).collect();
    let mut hb = vec![0u8; h.size()];
    header::write(
        h,
        &mut hb,
        &lod_ptrs,
        stored(l.name_at),
        stored(l.name_at + h.name_last as usize),
        stored(l.bone_ids_at),
        stored(l.bone_bounds_at),
    );
    put(&mut out, 0, &hb);
    for (i, lr) in m.lods.iter().enumerate() {
        let name = l.lod_name_at[i];
        let v = lod::LodPtrValues {
            sections: l.section_at[i].first().map_or(0, |&a| stored(a)),
            lists: l.lists_at[i].map(stored),
            name: stored(name),
            name_part: stored(name + lr.name_part as usize),
            name_last: stored(name + lr.name_last as usize),
            bones: stored(l.bones_at[i]),
        };
        let mut b = vec![0u8; h.lod_bytes as usize];
        lod::write(lr, h.lod_bytes, &mut b, &v);
        put(&mut out, l.lod_at[i], &b);
        for (k, s) in lr.sections.iter().enumerate() {
            let mut b = vec![0u8; section::SIZE];
            section::write(s, &mut b, stored(l.material_at[i][k]), stored(l.bone_list_at[i][k]));
            put(&mut out, l.section_at[i][k], &b);
            let bones: Vec<u8> = s.bones.iter().flat_map(|b| b.to_le_bytes()).collect();
            put(&mut out, l.bone_list_at[i][k], &bones);
            put(&mut out, l.material_at[i][k], s.material.as_bytes());
        }
        put(&mut out, name, lr.name.as_bytes());
        for k in 0..5 {
            put(&mut out, l.lists_at[i][k], &lr.lists[k]);
        }
        if l.bones_at[i] != 0 {
            let b: Vec<u8> = if h.lod_bytes == 0xb8 {
                lr.bone_masks.iter().flatten().copied().collect()
            } else {
                lr.bone_map.iter().flat_map(|v| v.to_le_bytes()).collect()
            };
            put(&mut out, l.bones_at[i], &b);
        }
    }
    put(&mut out, l.name_at, h.name.as_bytes());
    let ids: Vec<u8> = h.bone_ids.iter().flat_map(|v| v.to_le_bytes()).collect();
    put(&mut out, l.bone_ids_at, &ids);
    let bb: Vec<u8> = h.bone_bounds.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    put(&mut out, l.bone_bounds_at, &bb);
    for (k, &p) in l.pointers.iter().enumerate() {
        put(&mut out, table + 4 * k, &((p - 16) as u32).to_le_bytes());
    }
    put(&mut out, table + 4 * l.pointers.len(), &m.trailing);
    Ok(out)
}

/// {table offset, table bytes, trailing bytes, 0}, as the writer lays the resource out.
pub fn resmeta(m: &MeshSetDetails) -> [u32; 4] {
    let l = layout(m);
    [l.pool_end as u32, 4 * l.pointers.len() as u32, m.trailing.len() as u32, 0]
}
