//! The checks a MeshSet gets: pointers, name hashes, record forms against the mesh type,
//! layout flags, and stored against measured bounds, area and texel density.

use super::decode::Pointers;
use super::measures::{bounds_close, ratio, RATIO_TOLERANCE};
use super::MeshSetDetails;
use crate::djb2_xor;
use crate::document::{Basis, Check, Decode};
use crate::mesh::Mesh;

fn check(
    name: impl Into<String>,
    passed: bool,
    stored: impl Into<String>,
    measured: impl Into<String>,
    offset: Option<u64>,
    path: impl Into<String>,
) -> Check {
    Check {
        name: name.into(),
        passed,
        stored: stored.into(),
        measured: measured.into(),
        offset,
        path: path.into(),
        basis: Basis::Description,
        tolerance: String::new(),
    }
}

/// Every pointer lands inside its place (records or pool) and is listed in the relocation table.
pub fn pointers(d: &mut Decode, m: &MeshSetDetails, p: &Pointers) {
    let (pool_start, pool_end) = m.pool_range;
    let table: std::collections::HashSet<u64> = m.relocation.iter().map(|&v| v as u64 + 16).collect();
    let mut outside = Vec::new();
    let mut unlisted = Vec::new();
    let mut n = 0;
    for (ptr, in_pool) in p.records.iter().map(|x| (x, false)).chain(p.pool.iter().map(|x| (x, true))) {
        if ptr.is_null() {
            continue;
        }
        n += 1;
        let t = ptr.target().unwrap_or(u64::MAX);
        let ok = if in_pool { t >= pool_start as u64 && t < pool_end as u64 } else { t < pool_start as u64 };
        if !ok {
            outside.push(format!("{} -> 0x{t:x}", ptr.path));
            d.errors.push(crate::Error::bad_value(
                ptr.at,
                ptr.path.clone(),
                if in_pool {
                    format!("points to 0x{t:x}, outside the pool 0x{pool_start:x}..0x{pool_end:x}")
                } else {
                    format!("points to 0x{t:x}, past the records (they end at 0x{pool_start:x})")
                },
            ));
        }
        if !table.contains(&ptr.at) {
            unlisted.push(ptr.path.to_string());
        }
    }
    let show = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter().take(8).cloned().collect::<Vec<_>>().join(", ") + if v.len() > 8 { ", ..." } else { "" }
        }
    };
    d.checks.push(check(
        "pointers land in the pool (records for LOD and section pointers)",
        outside.is_empty(),
        format!("{n} pointers"),
        format!("outside: {}", show(&outside)),
        None,
        "header",
    ));
    d.checks.push(check(
        "pointers listed in the relocation table",
        unlisted.is_empty() && m.table_found,
        format!("{} entries", m.relocation.len()),
        format!("{n} pointers; not listed: {}", show(&unlisted)),
        Some(m.resmeta_computed[0] as u64),
        "relocation",
    ));
}

/// Absolute offset of field `off` of section `k` of LOD `i`, where it was read.
fn sec_at(m: &MeshSetDetails, i: usize, k: usize, off: u64) -> Option<u64> {
    m.section_at.get(i).and_then(|v| v.get(k)).map(|a| a + off)
}

pub fn records(d: &mut Decode, m: &MeshSetDetails) {
    let h = &m.header;
    let c = &mut d.checks;
    let hh = djb2_xor(h.name.as_bytes());
    c.push(check(
        "name hash (djb2-XOR of the MeshSet name)",
        hh == h.name_hash,
        format!("0x{:08x}", h.name_hash),
        format!("0x{hh:08x}"),
        Some(0x78),
        "header.name_hash",
    ));
    let lod0 = format!("{}_lod0", h.name);
    let lh = djb2_xor(lod0.as_bytes());
    for (i, l) in m.lods.iter().enumerate() {
        let at = m.lod_at.get(i).map(|a| a + 0xA4);
        c.push(check(
            format!("lod[{i}] name hash (djb2-XOR of {lod0})"),
            lh == l.name_hash,
            format!("0x{:08x}", l.name_hash),
            format!("0x{lh:08x}"),
            at,
            format!("lod[{i}].name_hash"),
        ));
        for (k, s) in l.sections.iter().enumerate() {
            let sh = djb2_xor(s.material.to_lowercase().as_bytes());
            c.push(check(
                format!("lod[{i}].section[{k}] material hash (djb2-XOR of the lowercased name)"),
                sh == s.material_hash,
                format!("0x{:08x}", s.material_hash),
                format!("0x{sh:08x}"),
                sec_at(m, i, k, 0x144),
                format!("lod[{i}].section[{k}].material_name_hash"),
            ));
        }
    }
    // Record forms by mesh type.
    let want = match h.mesh_type {
        0 => Some((0xb0, 0xd0)),
        1 => Some((0xbc, 0xe0)),
        2 => Some((0xb8, 0xe0)),
        _ => None,
    };
    let have = (h.lod_bytes, h.size() as u32);
    c.push(check(
        "record forms match the mesh type",
        want == Some(have),
        format!("mesh type {}", h.mesh_type),
        format!(
            "LOD records 0x{:x}, header 0x{:x}; expected {}",
            have.0,
            have.1,
            want.map_or("a described mesh type".into(), |w| format!("0x{:x}, 0x{:x}", w.0, w.1))
        ),
        Some(0x7C),
        "header.mesh_type",
    ));
    let rigid = h.mesh_type == 0;
    let wrong: Vec<String> = m
        .lods
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l.sections
                .iter()
                .enumerate()
                .filter(|(_, s)| s.stored.has_usage(2) == rigid)
                .map(move |(k, _)| format!("lod[{i}].section[{k}]"))
        })
        .collect();
    c.push(check(
        if rigid {
            "no section of a rigid mesh declares blend indices"
        } else {
            "every section of a non-rigid mesh declares blend indices"
        },
        wrong.is_empty(),
        format!("mesh type {}", h.mesh_type),
        if wrong.is_empty() { "all sections agree".into() } else { wrong.join(", ") },
        Some(0x7C),
        "header.mesh_type",
    ));
    // Inline geometry: header bit 0 and LOD bit 6 clear exactly where a LOD has no chunk.
    let inline: Vec<bool> = m.lods.iter().map(|l| l.inline()).collect();
    let header_ok = (h.layout_flags & 1 == 0) == inline.iter().any(|&x| x);
    let lods_ok = m.lods.iter().all(|l| (l.layout_flags & 0x40 == 0) == l.inline());
    c.push(check(
        "layout flags: header bit 0 and LOD bit 6 clear exactly for inline geometry",
        header_ok && lods_ok,
        format!(
            "header 0x{:x}; LODs {:?}",
            h.layout_flags,
            m.lods.iter().map(|l| format!("0x{:x}", l.layout_flags)).collect::<Vec<_>>()
        ),
        format!("inline LODs {:?}", inline.iter().enumerate().filter(|x| *x.1).map(|x| x.0).collect::<Vec<_>>()),
        Some(0xA8),
        "header.layout_flags",
    ));
    if m.lods.iter().any(|l| l.inline()) {
        let want: u64 =
            m.lods.iter().filter(|l| l.inline()).map(|l| l.vertex_bytes as u64 + l.index_bytes as u64 + 4).sum();
        c.push(check(
            "trailing data is the inline LODs' vertex and index buffers, each followed by four zero bytes",
            m.trailing.len() as u64 == want && m.trailing.ends_with(&[0, 0, 0, 0]),
            format!("{} trailing bytes", m.trailing.len()),
            format!("{want} expected"),
            Some(m.resmeta_computed[0] as u64 + m.resmeta_computed[1] as u64),
            "trailing",
        ));
    }
}

/// Stored bounds, area and texel density against the decoded geometry, where it is decoded.
pub fn measures(c: &mut Vec<crate::document::Check>, m: &MeshSetDetails, mesh: &Mesh) {
    c.retain(|x| !x.name.starts_with("measured "));
    let mut all: Option<([f32; 3], [f32; 3])> = None;
    for (i, l) in m.lods.iter().enumerate() {
        let Some(ms) = m.measures.get(i).filter(|v| v.len() == l.sections.len()) else { continue };
        for (k, (s, me)) in l.sections.iter().zip(ms).enumerate() {
            let p = format!("lod[{i}].section[{k}]");
            if let Some((lo, hi)) = me.bounds {
                let st = (
                    [s.bounds_min[0], s.bounds_min[1], s.bounds_min[2]],
                    [s.bounds_max[0], s.bounds_max[1], s.bounds_max[2]],
                );
                c.push(check(
                    format!("measured {p} bounds"),
                    bounds_close(st.0, lo) && bounds_close(st.1, hi),
                    format!("{:?} {:?}", st.0, st.1),
                    format!("{lo:?} {hi:?}"),
                    sec_at(m, i, k, 0x150),
                    format!("{p}.bounds_min"),
                ));
                all = Some(match all {
                    None => (lo, hi),
                    Some((a, b)) => (
                        [a[0].min(lo[0]), a[1].min(lo[1]), a[2].min(lo[2])],
                        [b[0].max(hi[0]), b[1].max(hi[1]), b[2].max(hi[2])],
                    ),
                });
            }
            let r = ratio(s.area as f64, me.area);
            c.push(check(
                format!("measured {p} surface area"),
                (r - 1.0).abs() <= RATIO_TOLERANCE,
                format!("{}", s.area),
                format!("{} (ratio {r:.4})", me.area),
                sec_at(m, i, k, 0x14C),
                format!("{p}.surface_area"),
            ));
            for u in 0..2 {
                if let Some(dm) = me.uv_density[u] {
                    let r = ratio(s.uv_density[u] as f64, dm);
                    c.push(check(
                        format!("measured {p} uv{u} texel density"),
                        (r - 1.0).abs() <= RATIO_TOLERANCE,
                        format!("{}", s.uv_density[u]),
                        format!("{dm} (ratio {r:.4})"),
                        sec_at(m, i, k, 0x58 + 4 * u as u64),
                        format!("{p}.uv{u}_texel_density"),
                    ));
                }
            }
        }
    }
    let complete = m.lods.iter().enumerate().all(|(i, _)| m.chunk_found.get(i) == Some(&true));
    if let (true, Some((lo, hi))) = (complete && !m.lods.is_empty(), all) {
        let h = &m.header;
        let st =
            ([h.bounds_min[0], h.bounds_min[1], h.bounds_min[2]], [h.bounds_max[0], h.bounds_max[1], h.bounds_max[2]]);
        c.push(check(
            "measured header bounds (over every LOD's decoded positions)",
            bounds_close(st.0, lo) && bounds_close(st.1, hi),
            format!("{:?} {:?}", st.0, st.1),
            format!("{lo:?} {hi:?}"),
            Some(0x10),
            "header.bounds_min",
        ));
    }
    let _ = mesh;
}
