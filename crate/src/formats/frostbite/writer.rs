//! Writes a MeshSet back from its decoded form and its placement: every record and pooled
//! item where its stored pointer names it, the relocation table in its stored order, the
//! bytes between the parts as stored, the trailing data. A MeshSet without a placement (a new
//! one) is laid out as the game lays it out.

use super::placement::{self, abs, Placement};
use super::{header, lod, section, MeshSetDetails};
use crate::error::{Error, Result};
use std::borrow::Cow;

struct Out<'a> {
    bytes: Vec<u8>,
    raw: &'a [(usize, Vec<u8>)],
}

impl Out<'_> {
    fn put(&mut self, at: usize, b: &[u8], path: &str) -> Result<()> {
        let len = self.bytes.len();
        let d = at.checked_add(b.len()).and_then(|e| self.bytes.get_mut(at..e)).ok_or_else(|| {
            Error::bad_value(at as u64, path, format!("{} bytes at 0x{at:x} pass the {len}-byte resource", b.len()))
        })?;
        d.copy_from_slice(b);
        Ok(())
    }

    /// A string and its NUL at a stored pointer (null: nothing); one stored as non-UTF-8
    /// bytes goes back as those bytes.
    fn string(&mut self, ptr: u64, s: &str, path: &str) -> Result<()> {
        let Some(at) = abs(ptr) else { return Ok(()) };
        let b: Cow<[u8]> = match self.raw.iter().find(|(a, _)| *a == at) {
            Some((_, b)) => Cow::Borrowed(b),
            None => Cow::Owned([s.as_bytes(), &[0]].concat()),
        };
        self.put(at, &b, path)
    }

    fn at(&mut self, ptr: u64, b: &[u8], path: &str) -> Result<()> {
        match abs(ptr) {
            Some(at) if !b.is_empty() => self.put(at, b, path),
            _ => Ok(()),
        }
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
    let (p, table): (Cow<Placement>, Cow<[u32]>) = match &m.placement {
        Some(p) => (Cow::Borrowed(p), Cow::Borrowed(&m.relocation)),
        None => {
            let (p, t) = placement::game(m);
            (Cow::Owned(p), Cow::Owned(t))
        }
    };
    write_placed(m, &p, &table)
}

fn write_placed(m: &MeshSetDetails, p: &Placement, table: &[u32]) -> Result<Vec<u8>> {
    let h = &m.header;
    if p.lods.len() != m.lods.len() || p.sections.len() != m.lods.len() || p.header.lods.len() != m.lods.len() {
        return Err(Error::bad_value(0x30, "header.lod_pointer", "the placement does not name every LOD"));
    }
    let mut o = Out { bytes: vec![0u8; p.len], raw: &p.raw_strings };
    for (at, b) in &p.gaps {
        o.put(*at, b, "padding")?;
    }
    let hp = &p.header;
    let mut hb = vec![0u8; h.size()];
    header::write(h, &mut hb, hp);
    o.put(0, &hb, "header")?;
    for (i, lr) in m.lods.iter().enumerate() {
        let lp = &p.lods[i];
        let path = format!("lod[{i}]");
        let at = abs(hp.lods[i]).ok_or_else(|| Error::bad_value(0x30 + 8 * i as u64, &path, "null LOD pointer"))?;
        let mut b = vec![0u8; h.lod_bytes as usize];
        lod::write(lr, h.lod_bytes, &mut b, lp);
        o.put(at, &b, &path)?;
        let sp = p.sections.get(i).filter(|v| v.len() == lr.sections.len());
        let sp = sp.ok_or_else(|| Error::bad_value(at as u64, &path, "the placement does not name every section"))?;
        let sat = abs(lp.sections).unwrap_or(0);
        for (k, s) in lr.sections.iter().enumerate() {
            let path = format!("lod[{i}].section[{k}]");
            let mut b = vec![0u8; section::SIZE];
            section::write(s, &mut b, sp[k][0], sp[k][1]);
            o.put(sat + k * section::SIZE, &b, &path)?;
            let bones: Vec<u8> = s.bones.iter().flat_map(|b| b.to_le_bytes()).collect();
            o.at(sp[k][1], &bones, &path)?;
            o.string(sp[k][0], &s.material, &path)?;
        }
        o.string(lp.name, &lr.name, &path)?;
        for k in 0..5 {
            o.at(lp.lists[k], &lr.lists[k], &path)?;
        }
        let b: Vec<u8> = match h.lod_bytes {
            0xb8 => lr.bone_masks.iter().flatten().copied().collect(),
            0xbc => lr.bone_map.iter().flat_map(|v| v.to_le_bytes()).collect(),
            _ => Vec::new(),
        };
        o.at(lp.bones, &b, &path)?;
    }
    o.string(hp.name, &h.name, "header.name_pointer")?;
    if h.has_bones() {
        let ids: Vec<u8> = h.bone_ids.iter().flat_map(|v| v.to_le_bytes()).collect();
        o.at(hp.bone_ids, &ids, "pool.bone_ids")?;
        let bb: Vec<u8> = h.bone_bounds.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
        o.at(hp.bone_bounds, &bb, "pool.bone_bounds")?;
    }
    for (at, b) in &p.copies {
        o.put(*at, b, "pool.strings")?;
    }
    let t: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
    o.put(p.table_at, &t, "relocation")?;
    o.put(p.trailing_at, &m.trailing, "trailing")?;
    Ok(o.bytes)
}

/// {table offset, table bytes, trailing bytes, 0}: where the table is, 4 bytes per entry, the
/// bytes after the table's padding.
pub fn resmeta(m: &MeshSetDetails) -> [u32; 4] {
    match &m.placement {
        Some(p) => [p.table_at as u32, 4 * m.relocation.len() as u32, m.trailing.len() as u32, 0],
        None => {
            let (p, t) = placement::game(m);
            [p.table_at as u32, 4 * t.len() as u32, m.trailing.len() as u32, 0]
        }
    }
}
