//! MeshSets laid out as the game lays them out (the builder), and the same meshes re-laid by
//! hand as other tools lay them out: every kind decodes without an error, its checks pass or
//! name the departures, and it rewrites byte for byte. The game's layout facts are read back
//! from the bytes here, computed without the library's layout code.

use meshscope::document::Basis;
use meshscope::formats::frostbite::builder::{
    build, cube, grid, BuildLod, BuildMesh, Built, TriMesh, PASS_COMBINATIONS,
};
use meshscope::formats::frostbite::placement::{HeaderPlace, LodPlace, Placement};
use meshscope::formats::frostbite::{guid, write_meshset, MeshSetDetails};
use meshscope::formats::Format;
use meshscope::{open, Document};

fn u16at(r: &[u8], o: usize) -> u16 {
    u16::from_le_bytes(r[o..o + 2].try_into().unwrap())
}
fn u32at(r: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(r[o..o + 4].try_into().unwrap())
}
fn u64at(r: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(r[o..o + 8].try_into().unwrap())
}
fn align(v: usize, a: usize) -> usize {
    v.div_ceil(a) * a
}

fn details(doc: &Document) -> &MeshSetDetails {
    doc.details.get::<MeshSetDetails>().unwrap_or_else(|| panic!("{} is not a MeshSet", doc.name))
}

/// A section with bones when the mesh is skinned or composite.
fn skin(mut t: TriMesh, mesh_type: u8) -> TriMesh {
    if mesh_type != 0 {
        let n = t.positions.len();
        t.joints = (0..n).map(|v| [(v % 3) as u16, 1, 0, 0]).collect();
        t.weights = vec![[0.75, 0.25, 0.0, 0.0]; n];
        t.bones = vec![0, 1, 2];
    }
    t
}

fn mesh(name: &str, mesh_type: u8, lods: Vec<BuildLod>) -> BuildMesh {
    let bone_count = if mesh_type == 0 { 0 } else { 3 };
    BuildMesh { name: name.into(), mesh_type, bone_count, lods }
}

fn lod(sections: Vec<TriMesh>) -> BuildLod {
    BuildLod { sections, index_32: false, inline: false }
}

/// Every kind the builder makes, named.
fn variants() -> Vec<(&'static str, BuildMesh)> {
    let mut v = Vec::new();
    for t in 0..3u8 {
        let kind = ["rigid", "skinned", "composite"][t as usize];
        for n in 1..=7 {
            let lods = (0..n)
                .map(|i| {
                    let mut s = vec![skin(cube("Props/Wood", 2.0, [0.0, 1.0, 0.0]), t)];
                    if i % 2 == 0 {
                        s.push(skin(TriMesh { lists: vec![2], ..grid("Props/Decal", 2, 0.5) }, t));
                    }
                    lod(s)
                })
                .collect();
            v.push((kind, mesh(&format!("skate/{kind}/lods_{n}"), t, lods)));
        }
        let mut l = lod(vec![skin(cube("Props/Wide", 1.0, [0.0; 3]), t)]);
        l.index_32 = true;
        v.push((
            "32-bit indices",
            mesh(&format!("skate/{kind}/index32"), t, vec![l, lod(vec![skin(grid("P/G", 1, 1.0), t)])]),
        ));
        let passes = PASS_COMBINATIONS
            .iter()
            .map(|(lists, flags)| {
                let mut s = skin(grid("Props/Pass", 1, 1.0), t);
                s.lists = lists.to_vec();
                s.flags = Some(*flags);
                s
            })
            .collect();
        v.push(("pass combinations", mesh(&format!("skate/{kind}/passes"), t, vec![lod(passes)])));
        let mut h = skin(cube("Props/Half", 3.3, [100.7, -20.3, 5.1]), t);
        h.half_positions = true;
        let mut g = skin(grid("Props/HalfGrid", 3, 0.37), t);
        g.half_positions = true;
        v.push(("half positions", mesh(&format!("skate/{kind}/half"), t, vec![lod(vec![h, g])])));
        let empty =
            vec![lod(vec![skin(cube("P/A", 1.0, [0.0; 3]), t)]), lod(vec![]), lod(vec![skin(grid("P/B", 1, 1.0), t)])];
        v.push(("a LOD without sections", mesh(&format!("skate/{kind}/empty_lod"), t, empty)));
        let mut il = lod(vec![skin(cube("Dev/Body", 1.0, [0.0; 3]), t), skin(grid("Dev/Cape", 2, 0.5), t)]);
        il.inline = true;
        v.push(("inline", mesh(&format!("skate/{kind}/inline"), t, vec![il])));
    }
    v
}

/// Opens the resource with its metadata and chunks, as the command line does.
fn open_all(b: &Built, name: &str) -> (Document, Vec<Document>) {
    let mut doc = open(name, b.resource.clone());
    doc.attach(&format!("{name}.resmeta"), b.resmeta.to_vec()).expect("resmeta attaches");
    let chunks = b
        .chunks
        .iter()
        .map(|(g, c)| doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches"))
        .collect();
    (doc, chunks)
}

/// The game's relocation table for the records of `r`, read from the bytes: per LOD its
/// section-array pointer, each section's material-name pointer and bone-list pointer (when it
/// has bones), the five list pointers, the three name pointers, the bone pointer; then the
/// header's LOD pointers, its two name pointers, its bone ids and bone bounds pointers.
fn game_table(r: &[u8]) -> Vec<u32> {
    let hsize = u32at(r, 0) as usize + 16;
    let lod_bytes = u32at(r, 4);
    let n = u16at(r, 0xB4) as usize;
    let mut t = Vec::new();
    for i in 0..n {
        let l = u64at(r, 0x30 + 8 * i) as usize + 16;
        t.push(l + 0xC);
        let count = u32at(r, l + 8) as usize;
        let first = u64at(r, l + 0xC) as usize + 16;
        for k in 0..count {
            let s = first + 384 * k;
            t.push(s + 8);
            if u16at(r, s + 0x18) > 0 {
                t.push(s + 0x10);
            }
        }
        t.extend((0..5).map(|k| l + 0x18 + 12 * k));
        t.extend([l + 0x8C, l + 0x94, l + 0x9C]);
        match lod_bytes {
            0xb8 => t.push(l + 0xB0),
            0xbc => t.push(l + 0xB4),
            _ => {}
        }
    }
    t.extend((0..n).map(|i| 0x30 + 8 * i));
    t.extend([0x68, 0x70]);
    if hsize == 0xe0 {
        t.extend([0xC8, 0xD0]);
    }
    t.into_iter().map(|a| a as u32 - 16).collect()
}

/// The game's layout facts, read back from the bytes.
fn assert_game_layout(b: &Built, bm: &BuildMesh) {
    let r = &b.resource;
    let (hsize, lod_bytes, slot) = match bm.mesh_type {
        0 => (0xd0, 0xb0, 0xb0),
        1 => (0xe0, 0xbc, 0xc0),
        _ => (0xe0, 0xb8, 0xc0),
    };
    assert_eq!((u32at(r, 0) + 16, u32at(r, 4)), (hsize as u32, lod_bytes));
    let n = bm.lods.len();
    let mut section_at = hsize + n * slot;
    let mut list_end: Option<usize> = None;
    for (i, bl) in bm.lods.iter().enumerate() {
        let l = u64at(r, 0x30 + 8 * i) as usize + 16;
        assert_eq!(l, hsize + i * slot, "LOD records take their size rounded up to 16");
        let sp = u64at(r, l + 0xC);
        if bl.sections.is_empty() {
            assert_eq!(sp, 0, "a LOD without sections stores 0 as its section-array pointer");
        } else {
            assert_eq!(sp as usize + 16, section_at);
        }
        section_at += 384 * bl.sections.len();
        // The five lists of every LOD one after another, empty ones pointing where they start.
        for k in 0..5 {
            let (c, p) = (u32at(r, l + 0x14 + 12 * k) as usize, u64at(r, l + 0x18 + 12 * k) as usize + 16);
            assert_ne!(p, 16, "every list has a pointer");
            if let Some(e) = list_end {
                assert_eq!(p, e, "lod[{i}] list {k} follows the list before it");
            }
            list_end = Some(p + c);
        }
        let bones = match lod_bytes {
            0xb8 => Some((u64at(r, l + 0xB0) as usize + 16, 16)),
            0xbc => Some((u64at(r, l + 0xB4) as usize + 16, 4)),
            _ => None,
        };
        if let Some((at, a)) = bones {
            assert_eq!(at % a, 0, "bone masks are 16-aligned, a bone map 4-aligned");
            assert!(at >= align(list_end.unwrap(), 16), "bone tables after the lists' one alignment");
        }
    }
    let table = game_table(r);
    let [off, len, trail, zero] = [0, 4, 8, 12].map(|k| u32at(&b.resmeta, k) as usize);
    assert_eq!((len, zero), (4 * table.len(), 0));
    assert_eq!(off % 16, 0);
    let stored: Vec<u32> = (0..table.len()).map(|k| u32at(r, off + 4 * k)).collect();
    assert_eq!(stored, table, "the table in the game's order");
    // Every relocated pointer names a byte before the table.
    for &e in &table {
        let v = u64at(r, e as usize + 16);
        assert!(v + 16 <= off as u64, "entry 0x{e:x}");
    }
    let inline = bm.lods.iter().any(|l| l.inline);
    assert_eq!(u32at(r, 0xA8) & 1 == 0, inline, "header bit 0 clear exactly for inline geometry");
    if inline {
        // The trailing data: the vertex buffer, the index buffer, four zero bytes: what the
        // chunk of the same mesh holds, then the zeros.
        let chunked = build(&BuildMesh {
            lods: bm.lods.iter().map(|l| BuildLod { inline: false, ..l.clone() }).collect(),
            ..bm.clone()
        });
        let mut want = chunked.chunks[0].1.clone();
        want.extend([0; 4]);
        assert_eq!(trail, want.len());
        assert_eq!(&r[align(off + len, 16)..], &want[..]);
        let l0 = u64at(r, 0x30) as usize + 16;
        assert_eq!(u32at(r, l0 + 0x50) & 0x40, 0, "LOD bit 6 clear on the inline LOD");
        assert_eq!(&r[l0 + 0x74..l0 + 0x84], &[0; 16], "a zero GUID");
    } else {
        assert_eq!(trail, 0);
        assert_eq!(off + len, r.len(), "without trailing data the file ends at the table");
    }
}

fn failed(doc: &Document) -> Vec<String> {
    doc.checks().iter().filter(|c| !c.passed).map(|c| format!("{} ({:?}): {}", c.name, c.basis, c.measured)).collect()
}

#[test]
fn every_built_kind_decodes_checks_and_rewrites_identically() {
    let mut counts = std::collections::BTreeMap::new();
    for (kind, bm) in variants() {
        let b = build(&bm);
        assert_game_layout(&b, &bm);
        let (doc, chunks) = open_all(&b, "m.res");
        assert_eq!(doc.format, Format::FrostbiteMeshSet, "{}", bm.name);
        assert!(doc.errors.is_empty(), "{}: {:?}", bm.name, doc.errors);
        for c in &chunks {
            assert!(c.errors.is_empty(), "{}: {:?}", bm.name, c.errors);
        }
        assert_eq!(failed(&doc), Vec::<String>::new(), "{}", bm.name);
        let m = details(&doc);
        assert!(m.chunk_found.iter().all(|&x| x), "{}: every LOD's geometry decoded", bm.name);
        assert_eq!(doc.rewrite().unwrap().unwrap(), b.resource, "{}", bm.name);
        // The same without the metadata: the table is found after the last pointed-to byte.
        let alone = open("m.res", b.resource.clone());
        assert!(alone.errors.is_empty(), "{}: {:?}", bm.name, alone.errors);
        assert_eq!(details(&alone).relocation, m.relocation);
        assert_eq!(alone.rewrite().unwrap().unwrap(), b.resource);
        // The mesh is there: the builder's triangles.
        let tris: usize = bm.lods.iter().flat_map(|l| &l.sections).map(|s| s.indices.len() / 3).sum();
        assert_eq!(doc.mesh.lods.iter().map(|l| l.triangle_count()).sum::<usize>(), tris, "{}", bm.name);
        *counts.entry(kind).or_insert(0) += 1;
        for (k, flags) in PASS_COMBINATIONS.iter().enumerate().filter(|_| kind == "pass combinations") {
            assert_eq!(m.lods[0].sections[k].flags, flags.1);
            let lists: Vec<usize> = (0..5).filter(|&p| m.lods[0].lists[p].contains(&(k as u8))).collect();
            assert_eq!(lists, flags.0);
        }
    }
    let want: Vec<(&str, usize)> = vec![
        ("32-bit indices", 3),
        ("a LOD without sections", 3),
        ("composite", 7),
        ("half positions", 3),
        ("inline", 3),
        ("pass combinations", 3),
        ("rigid", 7),
        ("skinned", 7),
    ];
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), want);
}

#[test]
fn half_float_bounds_allow_half_a_step_and_show_it() {
    // 100.7 is no half float: the nearest are 100.6875 and 100.75 (steps of 1/16 from 64 to
    // 128), so the decoded minimum x lies 1/16 - ... within half a step of the stored one.
    let mut h = cube("Props/Half", 3.3, [100.7, -20.3, 5.1]);
    h.half_positions = true;
    let b = build(&mesh("skate/half", 0, vec![lod(vec![h.clone()])]));
    let (doc, _) = open_all(&b, "h.res");
    let c = doc.checks().iter().find(|c| c.name == "measured lod[0].section[0] bounds").unwrap();
    assert!(c.passed, "{c:?}");
    // The widest tolerance is at x (64 to 128, steps of 1/16), first met at the minimum: the
    // larger magnitude of the stored and the decoded value.
    let stored = b.details.lods[0].sections[0].bounds_min[0];
    let lo = doc.mesh.lods[0].bounds().unwrap().0;
    assert_ne!(lo[0], stored, "the decoded position is quantised");
    assert_eq!(lo[0], half::f16::from_f32(stored).to_f32());
    assert!((lo[0] - stored).abs() <= 1.0 / 32.0);
    assert_eq!(c.tolerance, format!("±0.5 step of f16 at {} ({:.3e})", stored.abs().max(lo[0].abs()), 1.0f64 / 32.0));
    // Moved by more than half a step, the stored bounds fail.
    let mut m = b.details.clone();
    m.lods[0].sections[0].bounds_min[0] -= 0.07;
    let mut doc = open("h.res", write_meshset(&m).unwrap());
    doc.attach(&format!("{}.chunk", guid::hex(&b.chunks[0].0)), b.chunks[0].1.clone()).unwrap();
    let c = doc.checks().iter().find(|c| c.name == "measured lod[0].section[0] bounds").unwrap();
    assert!(!c.passed && c.basis == Basis::Description);
    // f32 positions are exact.
    let b = build(&mesh("skate/f32", 0, vec![lod(vec![cube("P/F", 3.3, [100.7, -20.3, 5.1])])]));
    let (doc, _) = open_all(&b, "f.res");
    let c = doc.checks().iter().find(|c| c.name == "measured lod[0].section[0] bounds").unwrap();
    assert_eq!((c.passed, c.tolerance.as_str()), (true, "exact (f32)"));
}

/// How another tool might lay the same mesh out.
#[derive(Clone, Copy, Default, Debug)]
struct Relay {
    /// Each LOD's five lists 16-aligned after them (not once after the last LOD's).
    per_lod_align: bool,
    /// Empty lists stored as null pointers, and not in the table.
    null_empty: bool,
    /// The table in reverse order.
    reverse_table: bool,
    /// Name-part pointers naming copies placed right after each name.
    name_copies: bool,
}

/// The test's own layout (header, LOD slots, sections, bone lists, strings, lists, bone
/// tables, table, trailing), with the departures `o` asks for.
fn relay(m: &MeshSetDetails, o: Relay) -> (Placement, Vec<u32>) {
    let h = &m.header;
    let slot = align(h.lod_bytes as usize, 16);
    let rel = |a: usize| a as u64 - 16;
    let mut p = Placement::default();
    let mut at = h.size();
    let lod_at: Vec<usize> = (0..m.lods.len()).map(|i| at + i * slot).collect();
    at += slot * m.lods.len();
    p.header = HeaderPlace { lods: lod_at.iter().map(|&a| rel(a)).collect(), ..Default::default() };
    let mut section_at = Vec::new();
    for l in &m.lods {
        section_at.push(at);
        p.lods.push(LodPlace { sections: if l.sections.is_empty() { 0 } else { rel(at) }, ..Default::default() });
        p.sections.push(vec![[0; 2]; l.sections.len()]);
        at += 384 * l.sections.len();
    }
    for (i, l) in m.lods.iter().enumerate() {
        for (k, s) in l.sections.iter().enumerate() {
            if !s.bones.is_empty() {
                p.sections[i][k][1] = rel(at);
                at += 2 * s.bones.len();
            }
        }
    }
    at = align(at, 16);
    let copies =
        |name: &str, parts: &[usize], at: &mut usize, out: &mut Vec<u64>, copies: &mut Vec<(usize, Vec<u8>)>| {
            let start = *at;
            *at += name.len() + 1;
            for &k in parts {
                if o.name_copies {
                    out.push(rel(*at));
                    copies.push((*at, [&name.as_bytes()[k..], &[0]].concat()));
                    *at += name.len() - k + 1;
                } else {
                    out.push(rel(start + k));
                }
            }
            rel(start)
        };
    for (i, l) in m.lods.iter().enumerate() {
        for (k, s) in l.sections.iter().enumerate() {
            p.sections[i][k][0] = rel(at);
            at += s.material.len() + 1;
        }
        let mut parts = Vec::new();
        p.lods[i].name =
            copies(&l.name, &[l.name_part as usize, l.name_last as usize], &mut at, &mut parts, &mut p.copies);
        (p.lods[i].name_part, p.lods[i].name_last) = (parts[0], parts[1]);
    }
    let mut parts = Vec::new();
    p.header.name = copies(&h.name, &[h.name_last as usize], &mut at, &mut parts, &mut p.copies);
    p.header.name_last = parts[0];
    at = align(at, 16);
    for (i, l) in m.lods.iter().enumerate() {
        for k in 0..5 {
            if l.lists[k].is_empty() && o.null_empty {
                continue;
            }
            p.lods[i].lists[k] = rel(at);
            at += l.lists[k].len();
        }
        if o.per_lod_align {
            at = align(at, 16);
        }
    }
    at = align(at, 16);
    for (i, l) in m.lods.iter().enumerate() {
        match h.lod_bytes {
            0xb8 => {
                at = align(at, 16);
                p.lods[i].bones = rel(at);
                at += 24 * l.bone_masks.len();
            }
            0xbc => {
                at = align(at, 4);
                p.lods[i].bones = rel(at);
                at += 4 * l.bone_map.len();
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
    // The game's entries for these records, less the null ones this tool leaves out.
    let mut t = Vec::new();
    for (i, l) in m.lods.iter().enumerate() {
        let b = lod_at[i];
        t.push(b + 0xC);
        for (k, s) in l.sections.iter().enumerate() {
            t.push(section_at[i] + 384 * k + 8);
            if !s.bones.is_empty() {
                t.push(section_at[i] + 384 * k + 0x10);
            }
        }
        t.extend((0..5).filter(|&k| p.lods[i].lists[k] != 0).map(|k| b + 0x18 + 12 * k));
        t.extend([b + 0x8C, b + 0x94, b + 0x9C]);
        match h.lod_bytes {
            0xb8 => t.push(b + 0xB0),
            0xbc => t.push(b + 0xB4),
            _ => {}
        }
    }
    t.extend((0..m.lods.len()).map(|i| 0x30 + 8 * i));
    t.extend([0x68, 0x70]);
    if h.has_bones() {
        t.extend([0xC8, 0xD0]);
    }
    let mut t: Vec<u32> = t.into_iter().map(|a| a as u32 - 16).collect();
    if o.reverse_table {
        t.reverse();
    }
    let end = p.table_at + 4 * t.len();
    p.trailing_at = if m.trailing.is_empty() { end } else { align(end, 16) };
    p.len = p.trailing_at + m.trailing.len();
    (p, t)
}

const GAME: &str = "records, pool and table laid out as the game lays them out";

/// The guesses a re-laid file must fail: exactly the departures it has.
fn departures(m: &MeshSetDetails, o: Relay) -> Vec<&'static str> {
    let mut v = Vec::new();
    let has_empty = m.lods.iter().any(|l| l.lists.iter().any(|x| x.is_empty()));
    // Per-LOD alignment moves a list only where one follows an unaligned LOD end.
    let (mut end, mut gap, mut moved) = (0usize, false, false);
    for l in &m.lods {
        for x in l.lists.iter().filter(|x| !(x.is_empty() && o.null_empty)) {
            moved |= gap;
            gap = false;
            end += x.len();
        }
        if o.per_lod_align && end % 16 != 0 {
            end = align(end, 16);
            gap = true;
        }
    }
    if o.null_empty && has_empty {
        v.push("relocation table lists the pointer fields the game lists (null ones too)");
    }
    if o.reverse_table {
        v.push("relocation table in the game's order");
    }
    if o.null_empty && has_empty {
        v.push("empty section lists point where they would start (not null)");
    }
    if moved {
        v.push("section lists one after another, every LOD's (one 16-byte alignment after the last)");
    }
    if o.name_copies {
        v.push("name parts point into their names");
    }
    if moved || o.null_empty && has_empty || o.reverse_table || o.name_copies {
        v.push(GAME);
    }
    v
}

/// Re-lays a built mesh, decodes it, and checks it as the issue asks; returns the bytes.
fn check_relaid(b: &Built, o: Relay) -> Vec<u8> {
    let mut m = b.details.clone();
    let (p, t) = relay(&m, o);
    m.placement = Some(p);
    m.relocation = t;
    let bytes = write_meshset(&m).expect("writes");
    let mut doc = open("r.res", bytes.clone());
    for (g, c) in &b.chunks {
        doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).unwrap();
    }
    let name = &m.header.name;
    assert_eq!(doc.format, Format::FrostbiteMeshSet);
    assert!(doc.errors.is_empty(), "{name} {o:?}: {:?}", doc.errors);
    let desc: Vec<String> = failed(&doc).into_iter().filter(|c| c.contains("(Description)")).collect();
    assert!(desc.is_empty(), "{name} {o:?}: {desc:?}");
    let guesses: Vec<&str> = doc.checks().iter().filter(|c| !c.passed).map(|c| &*c.name).collect();
    assert_eq!(guesses, departures(&m, o), "{name} {o:?}");
    assert_eq!(doc.rewrite().unwrap().unwrap(), bytes, "{name} {o:?}");
    // The decoded mesh is the same as the game-laid one's.
    let (game, _) = open_all(b, "g.res");
    assert_eq!(
        doc.mesh.lods.iter().map(|l| l.positions.clone()).collect::<Vec<_>>(),
        game.mesh.lods.iter().map(|l| l.positions.clone()).collect::<Vec<_>>()
    );
    let d = details(&doc);
    for (a, g) in d.lods.iter().zip(&details(&game).lods) {
        assert_eq!((&a.name, a.name_part, a.name_last, &a.lists), (&g.name, g.name_part, g.name_last, &g.lists));
    }
    assert_eq!((&d.header.name, d.header.name_last), (&details(&game).header.name, details(&game).header.name_last));
    bytes
}

#[test]
fn meshes_relaid_as_other_tools_do_decode_name_their_departures_and_rewrite() {
    let mut n = 0;
    let one = [
        Relay { per_lod_align: true, ..Default::default() },
        Relay { null_empty: true, ..Default::default() },
        Relay { reverse_table: true, ..Default::default() },
        Relay { name_copies: true, ..Default::default() },
        Relay { per_lod_align: true, null_empty: true, reverse_table: true, name_copies: true },
    ];
    for (_, bm) in variants() {
        let b = build(&bm);
        for o in one {
            let bytes = check_relaid(&b, o);
            // A layout with no departure for this mesh is the game's, byte for byte.
            let same = departures(&b.details, o).is_empty();
            assert_eq!(bytes == b.resource, same, "{} {o:?}", bm.name);
            n += 1;
        }
    }
    assert_eq!(n, 5 * 36);
}

#[test]
fn the_name_part_copies_lie_right_after_the_name() {
    let b = build(&mesh("skate/props/crate_c", 0, vec![lod(vec![cube("P/A", 1.0, [0.0; 3])])]));
    let bytes = check_relaid(&b, Relay { name_copies: true, ..Default::default() });
    let l = u64at(&bytes, 0x30) as usize + 16;
    let name = u64at(&bytes, l + 0x8C) as usize + 16;
    let full = b"Mesh:skate/props/crate_c_lod0\0";
    assert_eq!(&bytes[name..name + full.len()], full);
    let part = u64at(&bytes, l + 0x94) as usize + 16;
    assert_eq!(part, name + full.len());
    assert_eq!(&bytes[part..part + 25], b"skate/props/crate_c_lod0\0");
    let last = u64at(&bytes, l + 0x9C) as usize + 16;
    assert_eq!(&bytes[last..last + 13], b"crate_c_lod0\0");
    let doc = open("c.res", bytes);
    let s = doc.spans.fixed().iter().find(|s| s.start == part as u64).unwrap();
    assert!(s.path.starts_with("pool.strings[") && s.note.contains("apart from its name"), "{s:?}");
}

#[test]
fn every_truncation_is_a_meshset_with_a_positioned_error_and_keeps_its_records() {
    let bms = [
        mesh(
            "cut/rigid",
            0,
            vec![lod(vec![cube("A", 1.0, [0.0; 3]), grid("B", 2, 1.0)]), lod(vec![grid("C", 1, 1.0)])],
        ),
        variants().into_iter().find(|(k, b)| *k == "inline" && b.mesh_type == 1).unwrap().1,
        mesh(
            "cut/composite",
            2,
            vec![lod(vec![skin(cube("A", 1.0, [0.0; 3]), 2)]), lod(vec![skin(grid("C", 1, 1.0), 2)])],
        ),
    ];
    for (bm, step) in bms.iter().zip([1, 7, 3]) {
        let b = build(bm);
        let full = meshscope::formats::decode(Format::FrostbiteMeshSet, "f.res", &b.resource);
        let records: Vec<(u64, u64)> = full.fields.records.iter().map(|r| (r.start, r.start + r.len)).collect();
        for len in (0..b.resource.len()).step_by(step) {
            let doc = open("t.res", b.resource[..len].to_vec());
            let _ = doc.rewrite();
            if len < 12 {
                assert_eq!(doc.format, Format::Unknown, "{} len {len}", bm.name);
                continue;
            }
            assert_eq!(doc.format, Format::FrostbiteMeshSet, "{} len {len}", bm.name);
            assert!(!doc.errors.is_empty(), "{} len {len}: no error", bm.name);
            for e in &doc.errors {
                assert!(e.offset <= len as u64 && !e.path.is_empty(), "{} len {len}: {e}", bm.name);
            }
            // Every span of a record (the outermost, read whole) that ends before the cut is kept.
            for s in full.fields.spans.iter().filter(|s| s.path.starts_with("header") || s.path.starts_with("lod[")) {
                let rec = records.iter().filter(|r| r.0 <= s.start && s.start < r.1).map(|r| r.1).max();
                if rec.is_some_and(|end| end <= len as u64) {
                    assert!(
                        doc.spans.fixed().iter().any(|t| t.start == s.start && t.path == s.path),
                        "{} len {len}: {} lost",
                        bm.name,
                        s.path
                    );
                }
            }
        }
    }
}

/// xorshift64*, seeded: the same meshes on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.below(1 << 20) as f32 / (1 << 20) as f32)
    }
}

fn random_mesh(r: &mut Rng, k: usize) -> BuildMesh {
    let t = r.below(3) as u8;
    let inline = r.below(8) == 0;
    let lods = if inline { 1 } else { 1 + r.below(7) as usize };
    let lods = (0..lods)
        .map(|i| {
            let sections = (0..r.below(5))
                .map(|s| {
                    let centre = [r.f(-500.0, 500.0), r.f(-50.0, 50.0), r.f(-500.0, 500.0)];
                    let size = r.f(1.0, 40.0);
                    let mut m = if r.below(2) == 0 {
                        cube(&format!("Rand/M{k}_{i}_{s}"), size, centre)
                    } else {
                        let mut g = grid(&format!("Rand/Grid{}", r.below(4)), 1 + r.below(4) as u32, size / 4.0);
                        g.positions.iter_mut().for_each(|p| (0..3).for_each(|a| p[a] += centre[a]));
                        g
                    };
                    let (lists, flags) = PASS_COMBINATIONS[r.below(8) as usize];
                    m.lists = lists.to_vec();
                    m.flags = Some(flags);
                    m.half_positions = r.below(2) == 0;
                    if r.below(3) == 0 {
                        m.uv1 = Some(m.uv0.iter().map(|u| [u[1], u[0] * 0.5]).collect());
                    }
                    skin(m, t)
                })
                .collect();
            BuildLod { sections, index_32: r.below(3) == 0, inline }
        })
        .collect();
    let name = format!("rand/{}/mesh_{k}_{}", ["rigid", "skinned", "composite"][t as usize], r.below(1000));
    mesh(&name, t, lods)
}

#[test]
fn a_seeded_run_over_random_meshes() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut relaid = 0;
    for k in 0..300 {
        let bm = random_mesh(&mut r, k);
        let b = build(&bm);
        let (doc, chunks) = open_all(&b, "r.res");
        assert!(doc.errors.is_empty(), "{}: {:?}", bm.name, doc.errors);
        assert!(chunks.iter().all(|c| c.errors.is_empty()), "{}", bm.name);
        assert_eq!(failed(&doc), Vec::<String>::new(), "{}", bm.name);
        assert_eq!(doc.rewrite().unwrap().unwrap(), b.resource, "{}", bm.name);
        assert_eq!(details(&open("r.res", b.resource.clone())).relocation, game_table(&b.resource), "{}", bm.name);
        let bits = r.below(16);
        let o = Relay {
            per_lod_align: bits & 1 != 0,
            null_empty: bits & 2 != 0,
            reverse_table: bits & 4 != 0,
            name_copies: bits & 8 != 0,
        };
        check_relaid(&b, o);
        relaid += 1;
    }
    assert_eq!(relaid, 300);
}

#[test]
fn attach_failures_say_where() {
    let b = build(&mesh("skate/attach", 0, vec![lod(vec![cube("A", 1.0, [0.0; 3])]), lod(vec![grid("B", 1, 1.0)])]));
    let mut doc = open("a.res", b.resource.clone());
    let lod1 = u64at(&b.resource, 0x38) + 16;
    let e = doc.attach("mystery.chunk", b.chunks[0].1.clone()).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (0, "chunk file name"));
    let e = doc.attach(&format!("{}.chunk", "ab".repeat(16)), b.chunks[0].1.clone()).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (0xd0 + 0x74, "lod[*].geometry_chunk"));
    let e = doc.attach_to_lod(5, "x.chunk", vec![]).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (0xB4, "header.lod_count"));
    let e = doc.attach("a.res.resmeta", vec![0; 9]).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (9, "resmeta"));
    let mut gem = open("x.ply", vec![0; 4]);
    let e = meshscope::formats::frostbite::attach::attach_to(&gem.as_parent(), 0, "x.chunk", &[]).expect_err("refused");
    assert_eq!((e.offset, e.path.as_str()), (0, "header"));
    assert!(!e.to_string().contains("(?)"));
    let e = gem.attach("x.chunk", vec![]).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (0, "format"));
    let e = gem.attach_to_lod(0, "x.chunk", vec![]).err().expect("refused");
    assert_eq!((e.offset, e.path.as_str()), (0, "format"));
    // A chunk attached by hand whose name carries another GUID: a failed check first, in both
    // documents, naming both GUIDs.
    let (g0, c0) = &b.chunks[0];
    let g1 = b.chunks[1].0;
    let chunk = doc.attach_to_lod(1, &format!("{}.chunk", guid::hex(g0)), c0.clone()).unwrap();
    for c in [&doc.checks()[0], &chunk.checks()[0]] {
        assert_eq!(c.name, "attached chunk's GUID is lod[1]'s");
        assert!(!c.passed);
        assert_eq!(c.stored, format!("lod[1] names chunk {}", guid::text(&g1)));
        assert!(c.measured.ends_with(&format!("is chunk {}", guid::text(g0))), "{}", c.measured);
        assert_eq!(c.offset, Some(lod1 + 0x74));
    }
    // Its own chunk passes.
    let chunk = doc.attach_to_lod(1, &format!("{}.chunk", guid::text(&g1)), b.chunks[1].1.clone()).unwrap();
    assert!(chunk.checks()[0].passed && doc.checks()[0].passed);
}

#[test]
fn a_resmeta_that_moves_the_table_is_followed() {
    // A file whose table the metadata names: here one with a bone-free rigid mesh whose table
    // the scan would also find, then the metadata pointing 16 bytes later at a copy of it.
    let b = build(&mesh("skate/meta", 0, vec![lod(vec![cube("A", 1.0, [0.0; 3])])]));
    let [off, len] = [0, 4].map(|k| u32at(&b.resmeta, k) as usize);
    let mut r = b.resource.clone();
    let table = r[off..off + len].to_vec();
    r.truncate(off);
    r.extend([0xAB; 16]);
    r.extend(&table);
    let mut doc = open("m.res", r.clone());
    assert!(
        !doc.errors.is_empty() || doc.checks().iter().any(|c| !c.passed),
        "without metadata the table is not found"
    );
    let meta: Vec<u8> = [(off + 16) as u32, len as u32, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    doc.attach("m.res.resmeta", meta).unwrap();
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let m = details(&doc);
    assert_eq!(m.relocation.len() * 4, len);
    assert_eq!(m.resmeta_computed, [(off + 16) as u32, len as u32, 0, 0]);
    assert!(doc.checks().iter().find(|c| c.name.starts_with("resource metadata")).unwrap().passed);
    assert_eq!(doc.rewrite().unwrap().unwrap(), r, "the 16 bytes before the table are kept");
}

#[test]
fn a_resmeta_after_the_chunks_keeps_their_geometry() {
    // A skinned mesh whose LOD 0 is inline and LOD 1 in a chunk; the chunk attached by hand
    // under another LOD's name first, then metadata that moves the table 16 bytes on.
    let mut bm = variants().into_iter().find(|(k, b)| *k == "inline" && b.mesh_type == 1).unwrap().1;
    bm.lods.push(lod(vec![skin(grid("Dev/Far", 1, 2.0), 1)]));
    let b = build(&bm);
    let [off, len, trail] = [0, 4, 8].map(|k| u32at(&b.resmeta, k) as usize);
    let mut r = b.resource[..off].to_vec();
    r.extend([0x5A; 16]);
    r.extend(&b.resource[off..]);
    let mut doc = open("m.res", r.clone());
    let (_, c) = &b.chunks[0];
    doc.attach_to_lod(1, &format!("{}.chunk", guid::hex(&[7; 16])), c.clone()).unwrap();
    assert_eq!(doc.mesh.lods[1].triangle_count(), 2);
    let meta: Vec<u8> = [(off + 16) as u32, len as u32, trail as u32, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    doc.attach("m.res.resmeta", meta).unwrap();
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert_eq!(doc.mesh.lods[1].triangle_count(), 2, "the attached chunk's LOD is kept");
    assert_eq!(doc.mesh.lods[0].triangle_count(), 12 + 8, "the inline LOD is read from the moved trailing data");
    assert_eq!(doc.attached, [format!("{}.chunk", guid::hex(&[7; 16]))]);
    assert!(
        !doc.checks()[0].passed && doc.checks()[0].name == "attached chunk's GUID is lod[1]'s",
        "{:?}",
        doc.checks()[0]
    );
    assert!(doc.checks().iter().find(|c| c.name.starts_with("resource metadata")).unwrap().passed);
    assert!(doc.checks().iter().any(|c| c.name == "measured lod[1].section[0] bounds" && c.passed));
    assert_eq!(doc.rewrite().unwrap().unwrap(), r);
}
