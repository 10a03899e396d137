//! The checks a MeshSet gets: pointers, name hashes, record forms against the mesh type,
//! layout flags, and stored against measured bounds, area and texel density.

use super::decode::Pointers;
use super::element_format;
use super::measures::{ratio, RATIO_TOLERANCE};
use super::{placement, MeshSetDetails};
use crate::djb2_xor;
use crate::model::{Basis, Check};
use crate::short::{PathText, Short};
use crate::show::{decimal, hex2, Digits};
use crate::span::Text;

/// A check's stored or measured text, written in place when it fits a `Short` (most do).
macro_rules! text {
    ($($t:tt)*) => {
        Short::format(format_args!($($t)*))
    };
}

/// A field path, written in place.
macro_rules! path {
    ($($t:tt)*) => {
        PathText::format(format_args!($($t)*))
    };
}

fn check(
    name: impl Into<Text>,
    passed: bool,
    stored: impl Into<Short>,
    measured: impl Into<Short>,
    offset: Option<u64>,
    path: impl Into<PathText>,
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

fn guess(name: impl Into<Text>, passed: bool, stored: impl Into<Short>, measured: impl Into<Short>) -> Check {
    Check { basis: Basis::Guess, ..check(name, passed, stored, measured, None, "relocation") }
}

/// A set of a few dozen numbers (pointer fields, table entries), asked by binary search.
struct Sorted<T>(Vec<T>);

impl<T: Ord> Sorted<T> {
    fn new(mut v: Vec<T>) -> Self {
        v.sort_unstable();
        Sorted(v)
    }
    fn contains(&self, x: &T) -> bool {
        self.0.binary_search(x).is_ok()
    }
}

/// Up to eight items, then "...": "none" for no items, as most checks that pass have.
fn show(v: &[String]) -> Text {
    if v.is_empty() {
        return Text::Borrowed("none");
    }
    let mut s = String::new();
    for (i, x) in v.iter().take(8).enumerate() {
        s.push_str(if i == 0 { "" } else { ", " });
        s.push_str(x);
    }
    s.push_str(if v.len() > 8 { ", ..." } else { "" });
    Text::Owned(s)
}

/// The errors of pointers that land outside their place (records or pool): a pointer with
/// something to read that lands elsewhere stops it being read.
pub fn pointers_outside(errors: &mut Vec<crate::Error>, m: &MeshSetDetails, p: &Pointers) {
    let (pool_start, pool_end) = (m.pool_range.0 as u64, m.pool_range.1 as u64);
    for q in p.all.iter().filter(|q| !q.ptr.is_null() && q.len > 0) {
        let t = q.ptr.target().unwrap_or(u64::MAX);
        if lands_inside(q, t, m) {
            continue;
        }
        errors.push(crate::Error::bad_value(
            q.ptr.at,
            q.ptr.path.text(),
            if q.record {
                format!("points to 0x{t:x}, past the records (they end at 0x{pool_start:x})")
            } else {
                format!("points to 0x{t:x}, outside the pool 0x{pool_start:x}..0x{pool_end:x}")
            },
        ));
    }
}

/// Whether the `q.len` bytes at `t` lie where a pointer of its kind must point in `m`.
fn lands_inside(q: &super::decode::Pointed, t: u64, m: &MeshSetDetails) -> bool {
    let (pool_start, pool_end) = (m.pool_range.0 as u64, m.pool_range.1 as u64);
    let end = t.saturating_add(q.len);
    if q.record {
        end <= pool_start
    } else {
        t >= pool_start && end <= pool_end
    }
}

/// Every pointer lands inside its place (records or pool), every relocation entry names one
/// pointer field once, and every non-null pointer field is listed: from the pointers the
/// decode kept (`MeshSetDetails::pointers`).
pub fn pointers(c: &mut Vec<Check>, m: &MeshSetDetails) {
    let p = &m.pointers;
    let fields = p.fields();
    let mut outside = Vec::new();
    let mut n = 0;
    for q in p.all.iter().filter(|q| !q.ptr.is_null()) {
        n += 1;
        let t = q.ptr.target().unwrap_or(u64::MAX);
        if !lands_inside(q, t, m) {
            outside.push(format!("{} -> 0x{t:x}", q.ptr.path));
        }
    }
    c.push(check(
        "pointers land in the pool (records for LOD and section pointers)",
        outside.is_empty(),
        text!("{n} pointers"),
        text!("outside: {}", show(&outside)),
        None,
        "header",
    ));
    let table_at = m.placement.as_ref().map_or(0, |p| p.table_at) as u64;
    let mut seen = vec![false; fields.len()];
    let mut bad = Vec::new();
    for (k, &e) in m.relocation.iter().enumerate() {
        match fields.binary_search(&(e as u64 + 16)) {
            Ok(i) if seen[i] => bad.push(format!("entry {k} lists the field at 0x{:x} again", e as u64 + 16)),
            Ok(i) => seen[i] = true,
            Err(_) => bad.push(format!("entry {k} (0x{e:x}) names no pointer field")),
        }
    }
    c.push(check(
        "relocation entries each name a pointer field, none twice",
        bad.is_empty() && m.table_found,
        text!("{} entries", m.relocation.len()),
        if bad.is_empty() {
            Short::from_static("every entry names its own pointer field")
        } else {
            text!("{}", show(&bad))
        },
        Some(table_at),
        "relocation",
    ));
    let listed = Sorted::new(m.relocation.iter().map(|&v| v as u64 + 16).collect());
    let unlisted: Vec<String> = p
        .all
        .iter()
        .filter(|q| !q.ptr.is_null() && !listed.contains(&q.ptr.at))
        .map(|q| q.ptr.path.to_string())
        .collect();
    c.push(check(
        "pointers listed in the relocation table",
        unlisted.is_empty() && m.table_found,
        text!("{} entries", m.relocation.len()),
        text!("{n} pointers; not listed: {}", show(&unlisted)),
        Some(table_at),
        "relocation",
    ));
}

/// Where the file departs from the game's layout: observations, not failures of the file (the
/// description allows other placements; the game's habit is what the reference
/// implementation found on all stock MeshSets).
pub fn layout(c: &mut Vec<Check>, m: &MeshSetDetails) {
    let Some(p) = &m.placement else { return };
    if !m.table_found {
        return;
    }
    let game = placement::game_table(m, &m.lod_at, &m.section_at);
    let stored = Sorted::new(m.relocation.clone());
    let wanted = Sorted::new(game.clone());
    let field = |e: &u32| format!("0x{:x}", *e as u64 + 16);
    let missing: Vec<String> = game.iter().filter(|e| !stored.contains(e)).map(field).collect();
    let extra: Vec<String> = m.relocation.iter().filter(|e| !wanted.contains(e)).map(field).collect();
    c.push(guess(
        "relocation table lists the pointer fields the game lists (null ones too)",
        missing.is_empty() && extra.is_empty(),
        text!("{} entries", m.relocation.len()),
        text!("the game lists {}; not listed: {}; listed besides: {}", game.len(), show(&missing), show(&extra)),
    ));
    let a: Vec<u32> = m.relocation.iter().copied().filter(|e| wanted.contains(e)).collect();
    let b: Vec<u32> = game.iter().copied().filter(|e| stored.contains(e)).collect();
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    c.push(guess(
        "relocation table in the game's order",
        first.is_none(),
        Short::from_static("per LOD: sections, section names and bone lists, lists, names, bones; then the header's"),
        first.map_or("the game's order".into(), |k| {
            format!("entry {k} is {}, the game's is {}", field(&a[k]), field(&b[k]))
        }),
    ));
    let null_empty: Vec<String> = (0..m.lods.len())
        .flat_map(|i| (0..5).map(move |k| (i, k)))
        .filter(|&(i, k)| m.lods[i].lists[k].is_empty() && p.lods.get(i).is_some_and(|l| l.lists[k] == 0))
        .map(|(i, k)| format!("lod[{i}].section_list[{k}]"))
        .collect();
    c.push(guess(
        "empty section lists point where they would start (not null)",
        null_empty.is_empty(),
        Short::from_static("every list has a pointer"),
        text!("null: {}", show(&null_empty)),
    ));
    let mut apart = Vec::new();
    let mut next: Option<u64> = None;
    for (i, (l, lp)) in m.lods.iter().zip(&p.lods).enumerate() {
        for k in 0..5 {
            if lp.lists[k] == 0 {
                continue;
            }
            if next.is_some_and(|n| n != lp.lists[k]) {
                apart.push(format!("lod[{i}].section_list[{k}]"));
            }
            next = Some(lp.lists[k] + l.lists[k].len() as u64);
        }
    }
    c.push(guess(
        "section lists one after another, every LOD's (one 16-byte alignment after the last)",
        apart.is_empty(),
        Short::from_static("LOD 0's five lists, then LOD 1's, ..."),
        text!("not right after the list before: {}", show(&apart)),
    ));
    c.push(guess(
        "name parts point into their names",
        p.copies.is_empty(),
        Short::from_static("the game's name-part pointers name bytes of the name"),
        text!("{} name parts stored apart", p.copies.len()),
    ));
    let (g, gt) = placement::game(m);
    let mut differ = Vec::new();
    // The name of a field that differs is made only when it differs.
    let mut cmp = |a: u64, b: u64, what: &dyn Fn() -> String| {
        if a != b {
            differ.push(what());
        }
    };
    for (i, (a, b)) in p.header.lods.iter().zip(&g.header.lods).enumerate() {
        cmp(*a, *b, &|| format!("header.lod_pointer[{i}]"));
    }
    cmp(p.header.name, g.header.name, &|| "header.name_pointer".into());
    cmp(p.header.name_last, g.header.name_last, &|| "header.name_last_part_pointer".into());
    cmp(p.header.bone_ids, g.header.bone_ids, &|| "header.bounded_bone_ids_pointer".into());
    cmp(p.header.bone_bounds, g.header.bone_bounds, &|| "header.bone_bounds_pointer".into());
    for (i, (a, b)) in p.lods.iter().zip(&g.lods).enumerate() {
        cmp(a.sections, b.sections, &|| format!("lod[{i}].section_array_pointer"));
        for k in 0..5 {
            cmp(a.lists[k], b.lists[k], &|| format!("lod[{i}].section_list[{k}].pointer"));
        }
        cmp(a.name, b.name, &|| format!("lod[{i}].name_pointer"));
        cmp(a.name_part, b.name_part, &|| format!("lod[{i}].name_part_pointer"));
        cmp(a.name_last, b.name_last, &|| format!("lod[{i}].name_last_part_pointer"));
        cmp(a.bones, b.bones, &|| format!("lod[{i}].bones_pointer"));
    }
    for (i, (a, b)) in p.sections.iter().zip(&g.sections).enumerate() {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            cmp(x[0], y[0], &|| format!("lod[{i}].section[{k}].material_name_pointer"));
            cmp(x[1], y[1], &|| format!("lod[{i}].section[{k}].bone_list_pointer"));
        }
    }
    cmp(p.table_at as u64, g.table_at as u64, &|| "relocation table offset".into());
    cmp((m.relocation != gt) as u64, 0, &|| "relocation entries".into());
    cmp(p.len as u64, g.len as u64, &|| "resource bytes".into());
    cmp(p.gaps.len() as u64, 0, &|| "padding bytes (the game's are zero)".into());
    c.push(guess(
        "records, pool and table laid out as the game lays them out",
        differ.is_empty(),
        text!("{} bytes", p.len),
        text!("differs from the game's layout at: {}", show(&differ)),
    ));
}

/// Absolute offset of field `off` of section `k` of LOD `i`, where it was read.
fn sec_at(m: &MeshSetDetails, i: usize, k: usize, off: u64) -> Option<u64> {
    m.section_at.get(i).and_then(|v| v.get(k)).map(|a| a + off)
}

/// `0x` and eight hex digits, as `{:#010x}` shows a hash.
fn hex8(v: u32) -> Short {
    let [a, b, c, d] = v.to_be_bytes();
    let mut x = [[0; 2]; 4];
    let [p, q, r, s] = &mut x;
    Short::concat(&["0x", hex2(a, p), hex2(b, q), hex2(c, r), hex2(d, s)])
}

/// djb2-XOR of `name` lowercased; an ASCII name (every stock one) is lowercased byte by
/// byte as it is hashed, without a lowercased copy.
fn lowercase_hash(name: &str) -> u32 {
    if name.is_ascii() {
        name.bytes().fold(5381u32, |h, b| h.wrapping_mul(33) ^ b.to_ascii_lowercase() as u32)
    } else {
        djb2_xor(name.to_lowercase().as_bytes())
    }
}

/// The checks, made from the details alone (`decode_first` leaves them for
/// `FileFormat::later_checks`): the pointers, the records' stored values, the layout, the
/// measures.
pub fn from_details(c: &mut Vec<Check>, m: &MeshSetDetails) {
    c.reserve(super::decode::check_room(m));
    pointers(c, m);
    records(c, m);
    layout(c, m);
    measures(c, m);
}

pub fn records(c: &mut Vec<Check>, m: &MeshSetDetails) {
    let h = &m.header;
    let hh = djb2_xor(h.name.as_bytes());
    c.push(check(
        "name hash (djb2-XOR of the MeshSet name)",
        hh == h.name_hash,
        hex8(h.name_hash),
        hex8(hh),
        Some(0x78),
        "header.name_hash",
    ));
    let lod0 = [h.name.as_str(), "_lod0"].concat();
    let lh = djb2_xor(lod0.as_bytes());
    let (mut a, mut b) = (Digits::new(), Digits::new());
    for (i, l) in m.lods.iter().enumerate() {
        let at = m.lod_at.get(i).map(|a| a + 0xA4);
        let li = decimal(i as u64, &mut a);
        c.push(check(
            ["lod[", li, "] name hash (djb2-XOR of ", &lod0, ")"].concat(),
            lh == l.name_hash,
            hex8(l.name_hash),
            hex8(lh),
            at,
            PathText::concat(&["lod[", li, "].name_hash"]),
        ));
        for (k, s) in l.sections.iter().enumerate() {
            let sh = lowercase_hash(&s.material);
            let sk = decimal(k as u64, &mut b);
            c.push(check(
                ["lod[", li, "].section[", sk, "] material hash (djb2-XOR of the lowercased name)"].concat(),
                sh == s.material_hash,
                hex8(s.material_hash),
                hex8(sh),
                sec_at(m, i, k, 0x144),
                PathText::concat(&["lod[", li, "].section[", sk, "].material_name_hash"]),
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
        text!("mesh type {}", h.mesh_type),
        text!(
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
        text!("mesh type {}", h.mesh_type),
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
        text!(
            "header 0x{:x}; LODs {:?}",
            h.layout_flags,
            m.lods.iter().map(|l| format!("0x{:x}", l.layout_flags)).collect::<Vec<_>>()
        ),
        text!("inline LODs {:?}", inline.iter().enumerate().filter(|x| *x.1).map(|x| x.0).collect::<Vec<_>>()),
        Some(0xA8),
        "header.layout_flags",
    ));
    if m.lods.iter().any(|l| l.inline()) {
        let want: u64 =
            m.lods.iter().filter(|l| l.inline()).map(|l| l.vertex_bytes as u64 + l.index_bytes as u64 + 4).sum();
        c.push(check(
            "trailing data is the inline LODs' vertex and index buffers, each followed by four zero bytes",
            m.trailing.len() as u64 == want && m.trailing.ends_with(&[0, 0, 0, 0]),
            text!("{} trailing bytes", m.trailing.len()),
            text!("{want} expected"),
            Some(m.resmeta_computed[0] as u64 + m.resmeta_computed[1] as u64),
            "trailing",
        ));
    }
}

/// The position format of a section's stored declaration (usage 1); f32 when it has none.
fn position_format(s: &super::section::Section) -> u8 {
    s.stored.used().iter().find(|e| e.usage == 1).map_or(0x03, |e| e.format)
}

/// Stored bounds against measured ones, each coordinate within the position format's
/// precision at its magnitude (the stored bounds are those of the positions before they
/// were quantised). Returns the pass and the largest tolerance, shown.
fn bounds_within(stored: ([f32; 3], [f32; 3]), measured: ([f32; 3], [f32; 3]), formats: &[u8]) -> (bool, String) {
    let mut ok = true;
    // The widest tolerance's format and magnitude: its text is made once, at the end.
    let mut widest: (f32, Option<(u8, f32)>) = (0.0, None);
    for (a, b) in [(stored.0, measured.0), (stored.1, measured.1)] {
        for k in 0..3 {
            let mag = a[k].abs().max(b[k].abs());
            let mut tol = 0.0f32;
            for &f in formats {
                let t = element_format::tolerance(f, mag);
                tol = if t > tol { t } else { tol };
                if t > widest.0 {
                    widest = (t, Some((f, mag)));
                }
            }
            ok &= (a[k] - b[k]).abs() <= tol;
        }
    }
    let text = widest.1.map_or_else(|| "exact (f32)".to_string(), |(f, mag)| element_format::precision(f, mag).1);
    (ok, text)
}

/// Stored bounds, area and texel density against the decoded geometry, where it is decoded.
pub fn measures(c: &mut Vec<crate::model::Check>, m: &MeshSetDetails) {
    c.retain(|x| !x.name.starts_with("measured "));
    let mut all: Option<([f32; 3], [f32; 3])> = None;
    let mut formats = Vec::new();
    let ratio_tol = format!("±{} %", RATIO_TOLERANCE * 100.0);
    for (i, l) in m.lods.iter().enumerate() {
        let Some(ms) = m.measures.get(i).filter(|v| v.len() == l.sections.len()) else { continue };
        for (k, (s, me)) in l.sections.iter().zip(ms).enumerate() {
            let p = format!("lod[{i}].section[{k}]");
            let fmt = position_format(s);
            if !formats.contains(&fmt) {
                formats.push(fmt);
            }
            if let Some((lo, hi)) = me.bounds {
                let st = (
                    [s.bounds_min[0], s.bounds_min[1], s.bounds_min[2]],
                    [s.bounds_max[0], s.bounds_max[1], s.bounds_max[2]],
                );
                let (ok, tol) = bounds_within(st, (lo, hi), &[fmt]);
                c.push(Check {
                    tolerance: tol,
                    ..check(
                        format!("measured {p} bounds"),
                        ok,
                        text!("{:?} {:?}", st.0, st.1),
                        text!("{lo:?} {hi:?}"),
                        sec_at(m, i, k, 0x150),
                        path!("{p}.bounds_min"),
                    )
                });
                all = Some(match all {
                    None => (lo, hi),
                    Some((a, b)) => (
                        [a[0].min(lo[0]), a[1].min(lo[1]), a[2].min(lo[2])],
                        [b[0].max(hi[0]), b[1].max(hi[1]), b[2].max(hi[2])],
                    ),
                });
            }
            let r = ratio(s.area as f64, me.area);
            c.push(Check {
                tolerance: ratio_tol.clone(),
                ..check(
                    format!("measured {p} surface area"),
                    (r - 1.0).abs() <= RATIO_TOLERANCE,
                    text!("{}", s.area),
                    text!("{} (ratio {r:.4})", me.area),
                    sec_at(m, i, k, 0x14C),
                    path!("{p}.surface_area"),
                )
            });
            for u in 0..2 {
                if let Some(dm) = me.uv_density[u] {
                    let r = ratio(s.uv_density[u] as f64, dm);
                    c.push(Check {
                        tolerance: ratio_tol.clone(),
                        ..check(
                            format!("measured {p} uv{u} texel density"),
                            (r - 1.0).abs() <= RATIO_TOLERANCE,
                            text!("{}", s.uv_density[u]),
                            text!("{dm} (ratio {r:.4})"),
                            sec_at(m, i, k, 0x58 + 4 * u as u64),
                            path!("{p}.uv{u}_texel_density"),
                        )
                    });
                }
            }
        }
    }
    let complete = m.lods.iter().enumerate().all(|(i, _)| m.chunk_found.get(i) == Some(&true));
    if let (true, Some((lo, hi))) = (complete && !m.lods.is_empty(), all) {
        let h = &m.header;
        let st =
            ([h.bounds_min[0], h.bounds_min[1], h.bounds_min[2]], [h.bounds_max[0], h.bounds_max[1], h.bounds_max[2]]);
        let (ok, tol) = bounds_within(st, (lo, hi), &formats);
        c.push(Check {
            tolerance: tol,
            ..check(
                "measured header bounds (over every LOD's decoded positions)",
                ok,
                text!("{:?} {:?}", st.0, st.1),
                text!("{lo:?} {hi:?}"),
                Some(0x10),
                "header.bounds_min",
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowercase_hash_is_the_hash_of_the_lowercased_name() {
        for name in ["", "Materials/Set3/Mat0", "ABC_xyz-09", "Matériau/ÉTÉ", "İstanbul"] {
            assert_eq!(lowercase_hash(name), djb2_xor(name.to_lowercase().as_bytes()), "{name}");
        }
        // By hand: djb2-XOR of "ab" is (5381 * 33 ^ 'a') * 33 ^ 'b'.
        assert_eq!(lowercase_hash("AB"), (5381u32.wrapping_mul(33) ^ 0x61).wrapping_mul(33) ^ 0x62);
    }
}
