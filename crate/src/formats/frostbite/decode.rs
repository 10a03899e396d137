//! Decoding a MeshSet resource: records through their pointers, the pool items they name,
//! every pointer checked, the relocation table, trailing inline geometry.

use super::header::{self, HeaderPtrs};
use super::lod::{self, LodPtrs};
use super::pool::{layout, Ptr};
use super::section::{self, SectionPtrs};
use super::{checks, chunk, relocation, stored, writer, MeshSetDetails};
use crate::document::Decode;
use crate::error::{Error, Result};
use crate::field::show_text;
use crate::read::Reader;
use crate::span::{Confidence, Fields};

/// Every pointer read, with the kind of place it must land in.
#[derive(Default)]
pub struct Pointers {
    /// Pointers to records (LOD records, section arrays).
    pub records: Vec<Ptr>,
    /// Pointers into the pool.
    pub pool: Vec<Ptr>,
}

fn target(p: &Ptr, file: &Reader) -> Result<usize> {
    match p.target() {
        Some(t) if t < file.len() as u64 => Ok(t as usize),
        _ => Err(Error::bad_value(
            p.at,
            p.path.to_string(),
            format!("pointer 0x{:x} lands outside the {}-byte resource", p.value, file.len()),
        )),
    }
}

/// A NUL-terminated string at `at`, recorded as `pool.strings[k]`.
fn string(f: &mut Fields, file: &Reader, p: &Ptr, k: &mut usize) -> Result<String> {
    let at = target(p, file)?;
    let rest = file.from(at)?;
    let len = rest.data().iter().position(|&c| c == 0).ok_or_else(|| {
        Error::new(
            at as u64,
            p.path.to_string(),
            crate::error::ErrorKind::Truncated { needed: rest.len() as u64 + 1, available: rest.len() as u64 },
        )
    })?;
    let b = rest.peek(len)?;
    f.add(
        at as u64,
        len as u64 + 1,
        format!("pool.strings[{k}]"),
        "char[] + NUL",
        show_text(b),
        Confidence::Proven,
        "The strings: per LOD its section names then its Mesh:<name>_lodN name, then the MeshSet's name.",
    );
    *k += 1;
    Ok(String::from_utf8_lossy(b).into_owned())
}

/// `count` items of `size` bytes at a pointer, checked before anything is allocated.
fn items<'a>(file: &Reader<'a>, p: &Ptr, count: u64, size: u64) -> Result<Reader<'a>> {
    let at = target(p, file)?;
    let r = file.from(at)?;
    let n = r.check_count(count, size, &p.path)?;
    r.window(0, n)
}

/// The offset of a pointer into a string, checked to lie inside it.
fn inside(p: &Ptr, base: &Ptr, s: &str) -> Result<u32> {
    let off = p.value.wrapping_sub(base.value);
    if p.value < base.value || off > s.len() as u64 {
        return Err(Error::bad_value(p.at, p.path.to_string(), format!("does not point into the name {s:?}")));
    }
    Ok(off as u32)
}

pub fn decode(bytes: &[u8]) -> Decode {
    decode_with(bytes, true)
}

/// `decode`, with `checks` false leaving out what only a person reads: the checks of stored
/// against recomputed values, the summary's facts, the stored bounds on the mesh and the
/// mesh's sections of LODs whose geometry is in a chunk. Fields,
/// regions and errors are the same (the census, which reads only those, decodes this way;
/// the fuzz target compares the two).
pub fn decode_with(bytes: &[u8], checks: bool) -> Decode {
    let mut d = Decode::default();
    // Section records hold most fields, about one per three bytes: reserving that once saves
    // the span list's regrowths (capped, for a resource with much inline geometry).
    d.fields.spans.reserve((bytes.len() / 3).min(1 << 15));
    let mut m = MeshSetDetails::default();
    let mut ptrs = Pointers::default();
    let file = Reader::new(bytes);
    if let Err(e) = records(&mut d, &mut m, &mut ptrs, &file) {
        d.errors.push(e);
    }
    // The relocation table and metadata: computed from the layout, read where it says.
    let l = layout(&m);
    m.resmeta_computed = writer::resmeta(&m);
    let listed = ptrs.records.iter().chain(&ptrs.pool).filter(|p| !p.is_null()).count();
    let table_at = m.resmeta_computed[0] as usize;
    m.pool_range = (l.pool_start, table_at);
    match relocation::read(&mut d.fields, &file, table_at, listed) {
        Ok(t) => {
            m.relocation = t;
            let end = table_at + 4 * listed;
            m.trailing = file.from(end).map(|r| r.data().to_vec()).unwrap_or_default();
            m.resmeta_computed[2] = m.trailing.len() as u32;
            m.table_found = true;
        }
        Err(e) => d.errors.push(e),
    }
    checks::pointers(&mut d, &m, &ptrs);
    // Inline geometry: a LOD with an all-zero chunk GUID reads the trailing data. The one
    // stock file has one such LOD; several (the builder makes them) follow each other in
    // LOD order, each its vertex buffer, index buffer and four zero bytes.
    let mut trailing_at = bytes.len() - m.trailing.len();
    // The mesh's LODs from the records; only what a person reads needs them where the
    // geometry is in a chunk (an inline LOD's decode makes its own).
    d.mesh.lods = if checks {
        m.lods.iter().enumerate().map(|(i, l)| chunk::skeleton(l, i)).collect()
    } else {
        vec![Default::default(); m.lods.len()]
    };
    m.measures = vec![Vec::new(); m.lods.len()];
    m.chunk_found = vec![false; m.lods.len()];
    let errors_before_inline = d.errors.len();
    for (i, l) in m.lods.iter().enumerate() {
        if l.inline() && !m.trailing.is_empty() {
            let Ok(data) = file.from(trailing_at) else { continue };
            let (lod, measured) =
                chunk::decode_lod(&mut d.fields, &mut d.errors, l, i, &data, &format!("trailing.lod[{i}]"), 0);
            d.mesh.lods[i] = lod;
            m.measures[i] = measured;
            m.chunk_found[i] = true;
            let pad_at = trailing_at + l.vertex_bytes as usize + l.index_bytes as usize;
            if let Ok(mut r) = file.window(pad_at, 4) {
                let _ = d.fields.bytes(
                    &mut r,
                    4,
                    format!("trailing.lod[{i}].padding"),
                    Confidence::Observed,
                    "The trailing data is the vertex buffer, then the index buffer, then four zero bytes",
                );
            }
            trailing_at = pad_at.saturating_add(4);
        }
    }
    if checks {
        for (i, (out, l)) in d.mesh.lods.iter_mut().zip(&m.lods).enumerate() {
            stored::fill(out, &m.header, l, i);
        }
    }
    // Inline geometry stopped by a resource field: the error goes to that field's offset.
    let inline_errors = d.errors.split_off(errors_before_inline.min(d.errors.len()));
    let (theirs, own) = chunk::in_resource(inline_errors, &d.fields.spans);
    d.errors.extend(theirs.into_iter().chain(own));
    if checks {
        checks::records(&mut d, &m);
        checks::measures(&mut d.checks, &m, &d.mesh);
        super::facts(&mut d.facts, &m);
    }
    d.details = crate::formats::Details::MeshSet(m);
    d
}

fn records(d: &mut Decode, m: &mut MeshSetDetails, ptrs: &mut Pointers, file: &Reader) -> Result<()> {
    let f = &mut d.fields;
    let (h, hp) = header::read(f, file)?;
    m.header = h;
    let HeaderPtrs { lods: lod_ptrs, name, name_last, bone_ids, bone_bounds } = hp;
    let mut lptrs: Vec<LodPtrs> = Vec::new();
    let mut sptrs: Vec<Vec<SectionPtrs>> = Vec::new();
    for (i, p) in lod_ptrs.iter().enumerate() {
        ptrs.records.push(p.clone());
        let at = target(p, file)?;
        if at < m.header.size() {
            return Err(Error::bad_value(p.at, p.path.to_string(), "LOD pointer lands inside the header"));
        }
        let (mut l, lp) = lod::read(f, file, at, m.header.lod_bytes, i)?;
        m.lod_at.push(at as u64);
        m.section_at.push(Vec::new());
        ptrs.records.push(lp.sections.clone());
        let mut sp = Vec::new();
        if lp.section_count > 0 {
            let sat = target(&lp.sections, file)?;
            file.from(sat)?.check_count(
                lp.section_count as u64,
                section::SIZE as u64,
                &format!("lod[{i}].section_count"),
            )?;
            for k in 0..lp.section_count as usize {
                let (s, p) = section::read(f, file, sat + k * section::SIZE, &format!("lod[{i}].section[{k}]"))?;
                if let Some(v) = m.section_at.last_mut() {
                    v.push((sat + k * section::SIZE) as u64);
                }
                l.sections.push(s);
                sp.push(p);
            }
        }
        m.lods.push(l);
        lptrs.push(lp);
        sptrs.push(sp);
    }
    m.header.lod_count = m.lods.len() as u16;
    // The pool, item by item; a bad item is reported and the rest still read.
    let mut errors = Vec::new();
    let mut k = 0usize;
    macro_rules! try_push {
        ($e:expr) => {
            match $e {
                Ok(v) => Some(v),
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        };
    }
    for (i, (l, sp)) in m.lods.iter_mut().zip(&sptrs).enumerate() {
        for (j, (s, p)) in l.sections.iter_mut().zip(sp).enumerate() {
            ptrs.pool.push(p.material.clone());
            if let Some(v) = try_push!(string(f, file, &p.material, &mut k)) {
                s.material = v;
            }
            ptrs.pool.push(p.bones.clone());
            if p.bone_count > 0 {
                if let Some(mut r) = try_push!(items(file, &p.bones, p.bone_count as u64, 2)) {
                    let at = r.offset();
                    s.bones = (0..p.bone_count).filter_map(|_| r.u16().ok()).collect();
                    f.add(
                        at,
                        2 * p.bone_count as u64,
                        format!("pool.bone_lists.lod[{i}].section[{j}]"),
                        "u16[]",
                        format!("{:?}", s.bones),
                        Confidence::Proven,
                        "The bone lists (then 16-aligned).",
                    );
                }
            }
        }
        let lp = &lptrs[i];
        for p in [&lp.name, &lp.name_part, &lp.name_last] {
            ptrs.pool.push(p.clone());
        }
        if let Some(v) = try_push!(string(f, file, &lp.name, &mut k)) {
            l.name = v;
            l.name_part = try_push!(inside(&lp.name_part, &lp.name, &l.name)).unwrap_or(0);
            l.name_last = try_push!(inside(&lp.name_last, &lp.name, &l.name)).unwrap_or(0);
        }
    }
    ptrs.pool.push(name.clone());
    ptrs.pool.push(name_last.clone());
    if let Some(v) = try_push!(string(f, file, &name, &mut k)) {
        m.header.name = v;
        m.header.name_last = try_push!(inside(&name_last, &name, &m.header.name)).unwrap_or(0);
    }
    for (i, l) in m.lods.iter_mut().enumerate() {
        let lp = &lptrs[i];
        for (j, (c, p)) in lp.lists.iter().enumerate() {
            ptrs.pool.push(p.clone());
            if *c == 0 {
                continue;
            }
            if let Some(r) = try_push!(items(file, p, *c as u64, 1)) {
                l.lists[j] = r.data().to_vec();
                let bad = l.lists[j].iter().find(|&&x| x as usize >= l.sections.len());
                if let Some(b) = bad {
                    errors.push(Error::bad_value(
                        r.base(),
                        format!("pool.section_lists.lod[{i}].list[{j}]"),
                        format!("section {b} of {}", l.sections.len()),
                    ));
                }
                f.add(
                    r.base(),
                    *c as u64,
                    format!("pool.section_lists.lod[{i}].list[{j}]"),
                    "u8[]",
                    format!("{:?}", l.lists[j]),
                    Confidence::Proven,
                    "Each LOD's five section-index lists (16-aligned).",
                );
            }
        }
        if let Some(p) = &lp.bone_masks {
            ptrs.pool.push(p.clone());
            let n = l.sections.len() as u64;
            if !p.is_null() && n > 0 {
                if let Some(mut r) = try_push!(items(file, p, n, 24)) {
                    for j in 0..n {
                        let at = r.offset();
                        if let Ok(b) = r.array::<24>() {
                            l.bone_masks.push(b);
                            f.add(
                                at,
                                24,
                                format!("pool.bone_masks.lod[{i}].section[{j}]"),
                                "u8[24]",
                                crate::field::show_hex(&b),
                                Confidence::Proven,
                                "0xb8 records: a 24-byte bone mask per section (16-aligned).",
                            );
                        }
                    }
                }
            }
        }
        if let Some((c, p)) = &lp.bone_map {
            ptrs.pool.push(p.clone());
            if *c > 0 {
                if let Some(mut r) = try_push!(items(file, p, *c as u64, 4)) {
                    let at = r.offset();
                    l.bone_map = (0..*c).filter_map(|_| r.u32().ok()).collect();
                    f.add(
                        at,
                        4 * *c as u64,
                        format!("pool.bone_map.lod[{i}]"),
                        "u32[]",
                        format!("{:?}", l.bone_map),
                        Confidence::Proven,
                        "0xbc records: u32 count, then pointer to u32 bone map (4-aligned).",
                    );
                }
            }
        }
    }
    if let (Some(ids), Some(bb)) = (bone_ids, bone_bounds) {
        let h = &mut m.header;
        ptrs.pool.push(ids.clone());
        if h.bounded_bone_count > 0 {
            if let Some(mut r) = try_push!(items(file, &ids, h.bounded_bone_count as u64, 2)) {
                let at = r.offset();
                h.bone_ids = (0..h.bounded_bone_count).filter_map(|_| r.u16().ok()).collect();
                f.add(
                    at,
                    2 * h.bone_ids.len() as u64,
                    "pool.bone_ids",
                    "u16[]",
                    format!("{:?}", h.bone_ids),
                    Confidence::Proven,
                    "Bounded bone ids (16-aligned).",
                );
            }
        }
        ptrs.pool.push(bb.clone());
        let n = h.bone_bounds_count() as u64;
        if n > 0 {
            if let Some(mut r) = try_push!(items(file, &bb, n, 32)) {
                for j in 0..n {
                    let at = r.offset();
                    if let Ok(v) = r.f32x::<8>() {
                        h.bone_bounds.push(v);
                        f.add(
                            at,
                            32,
                            format!("pool.bone_bounds[{j}]"),
                            "f32x4[2]",
                            crate::field::show_floats(&v),
                            Confidence::Proven,
                            "f32x4 minimum and maximum per bounded bone, else per bone (16-aligned).",
                        );
                    }
                }
            }
        }
    }
    d.errors.extend(errors);
    Ok(())
}
