//! After the chunk loop: the vertex layout from the submeshes, the vertex region, index and
//! face-range checks, the mesh (positions .. bones, sections, shadow, adjacency, grid) and
//! the consistency checks.

use super::subs::{lossy, subs_of, Sub};
use super::values::index_values;
use super::vertex::{Kind, Layout, Sem, VElem};
use super::{Chunk, Name, Parsed, Places, Ply};
use crate::error::Error;
use crate::formats::Details;
use crate::mesh::{bounds_of, Grid, Lod, Mesh, Section, Source, StoredBox};
use crate::model::{Basis, Check, Decode};
use crate::span::{Confidence, Text};

/// A check against the description, stored and measured equal.
fn check(
    name: impl Into<Text>,
    passed: bool,
    stored: String,
    measured: String,
    offset: Option<u64>,
    path: &str,
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

/// A check of a relation we only guessed: a failure is an observation, not a broken file.
fn guess(c: Check) -> Check {
    Check { basis: Basis::Guess, ..c }
}

/// The first `VERT` as the decode reads it.
struct Verts<'a> {
    /// Whole vertices in the file (fewer than stored when it is cut short).
    count: usize,
    /// `vertex_size`: the engine steps by it, whatever the format explains.
    stride: usize,
    flags: u16,
    data: &'a [u8],
    /// Offset of the first vertex.
    at: u64,
    present: bool,
    layout: Layout,
    /// Bytes the submesh format explains per vertex.
    format_size: u32,
}

/// The first index chunk.
struct Indices {
    values: Vec<u32>,
    wide: bool,
    at: u64,
    path: String,
    present: bool,
    /// Every index names a vertex (most files), so a used range needs no test per index.
    all_name_vertices: bool,
}

impl Indices {
    fn width(&self) -> usize {
        if self.wide {
            4
        } else {
            2
        }
    }

    fn triangles(&self) -> usize {
        self.values.len() / 3
    }
}

/// Turns a parse into a decode. Without `mesh` it stops before the vertex arrays: the
/// spans, regions, index checks and errors of the structure are all there, which is what
/// the hex view needs first on a large file (the mesh follows in a second call).
pub fn finish(p: Parsed, bytes: &[u8], mesh: bool) -> Decode {
    let subs = subs_of(&p);
    let Parsed { ply, fields, errors, places, .. } = p;
    let mut d = Decode { fields, errors, ..Decode::default() };
    let v = vertices(&mut d, &ply, &places, &subs, bytes);
    let ix = indices(&mut d, &ply, &places, bytes, v.count);
    face_checks(&mut d, &subs, &places, ix.triangles());
    absent_chunks(&mut d, &ply, &subs);
    if !mesh {
        return d;
    }
    let mut lod = Lod { name: "lod0".into(), ..Default::default() };
    super::attributes::vertex_arrays(&v.layout, v.data, v.stride, v.flags & 1 == 0, &mut lod);
    let skin = ply.skin().unwrap_or(&[]);
    bone_map_checks(&mut d, &subs, skin);
    if !lod.joints.is_empty() {
        resolve_joints(&mut d, &mut lod, &subs, skin, &v, &ix.values);
    }
    lod.sections = sections(&subs, &ply, &v, &ix, skin);
    per_face(&mut lod, &ply);
    vertex_checks(&mut d, &lod, &places, &v);
    guessed_counts(&mut d, &ply, &places, v.count);
    facts(&mut d, &v, &ix, &subs, skin);
    let vertex_layout = Some(v.layout);
    lod.indices = ix.values;
    d.mesh = Mesh { lods: vec![lod] };
    d.details = Details::new(Ply { vertex_layout, ..ply });
    d
}

/// The layout of the first submesh, checked against the others, fitted to `vertex_size`,
/// and the vertex region it gives.
fn vertices<'a>(d: &mut Decode, ply: &'a Ply, places: &Places, subs: &[Sub], bytes: &'a [u8]) -> Verts<'a> {
    let present = ply.vert_header().is_some();
    let (_, stride, flags, data) = ply.vert(bytes).unwrap_or((0, 0, 0, &[]));
    let stride = stride as usize;
    let at = places.vert_data.unwrap_or(0);
    if stride == 0 && !data.is_empty() {
        d.errors.push(Error::bad_value(
            at.saturating_sub(4),
            "VERT.vertex_size",
            "vertex_size is 0 with vertices stored",
        ));
    }
    let count = data.len().checked_div(stride).unwrap_or(0);
    let mut layout = subs.first().map(|s| s.layout.clone()).unwrap_or_else(|| position_only(stride));
    for s in subs {
        if let Some(msg) = &s.layout_error {
            d.errors.push(Error::unsupported(s.face_count_at, format!("{}.vertex_elements", s.path), msg.clone()));
        }
    }
    for s in subs.iter().skip(1).filter(|s| s.layout.elems != layout.elems) {
        d.errors.push(Error::bad_value(
            s.face_count_at,
            s.path.clone(),
            format!("vertex format differs from {}'s; the shared VERT is decoded with the first", subs[0].path),
        ));
    }
    if !subs.is_empty() && !present {
        d.errors.push(Error::bad_value(bytes.len() as u64, "VERT", "the file has submeshes but no VERT chunk"));
    }
    let format_size = layout.size();
    if present {
        // Fields past vertex_size are dropped: the failed size check says so.
        let _ = layout.fit(stride as u32, subs.first().is_some_and(|s| s.bump));
        if count > 0 {
            d.fields.add_region(layout.region(at, stride as u64, count as u64, "VERT.vertices"));
        }
    }
    Verts { count, stride, flags, data, at, present, layout, format_size }
}

/// Without a submesh nothing describes the vertices: the first 12 bytes as a position.
fn position_only(stride: usize) -> Layout {
    let mut l = Layout::default();
    if stride >= 12 {
        l.elems.push(VElem {
            name: "position".into(),
            offset: 0,
            kind: Kind::F32(3),
            sem: Sem::Position,
            confidence: Confidence::Inferred,
            note: "no submesh describes the vertices; the first 12 bytes taken as the position".into(),
        });
    }
    l
}

/// The indices of the first index chunk; every one must name a vertex.
fn indices(d: &mut Decode, ply: &Ply, places: &Places, bytes: &[u8], vcount: usize) -> Indices {
    let found = ply.indices(bytes);
    let present = found.is_some();
    let (wide, data) = found.unwrap_or((false, &[]));
    let (at, path) = places.index_data.clone().unwrap_or((0, "INDX.indices".into()));
    let values = index_values(data, wide);
    // The largest index alone tells most files' answer, in a pass that vectorizes.
    let all_name_vertices = values.iter().copied().max().is_none_or(|m| (m as usize) < vcount);
    let ix = Indices { values, wide, at, path, present, all_name_vertices };
    let past = |v: &u32| *v as usize >= vcount;
    let first_bad = if all_name_vertices { None } else { ix.values.iter().position(past) };
    let bad = first_bad.map_or(0, |i| ix.values[i..].iter().filter(|v| past(v)).count());
    if let Some(i) = first_bad {
        d.errors.push(Error::bad_value(
            at + (i * ix.width()) as u64,
            format!("{}[{i}]", ix.path),
            format!("index {} is at or past the vertex count {vcount} ({bad} such indices)", ix.values[i]),
        ));
    }
    if present {
        d.checks.push(check(
            "indices name vertices",
            bad == 0,
            format!("{} indices", ix.values.len()),
            format!("{bad} at or past vertex count {vcount}"),
            Some(at),
            &ix.path,
        ));
    }
    ix
}

/// Submesh face ranges inside the triangles, and the per-face chunks' counts.
fn face_checks(d: &mut Decode, subs: &[Sub], places: &Places, tris: usize) {
    let mut face_sum = 0i64;
    for s in subs {
        face_sum += s.face_count;
        let end = s.face_start + s.face_count;
        if s.face_start < 0 || s.face_count < 0 || end as u64 > tris as u64 {
            d.errors.push(Error::bad_value(
                s.face_count_at,
                format!("{}.face_count", s.path),
                format!("faces {}..{} run past the {tris} triangles of the index chunk", s.face_start, end),
            ));
        }
    }
    if !subs.is_empty() {
        // The description gives each submesh a range; that they share every triangle is ours.
        d.checks.push(guess(check(
            "submesh faces cover the triangles",
            face_sum == tris as i64,
            format!("{face_sum} faces in submeshes"),
            format!("{tris} triangles"),
            None,
            "",
        )));
    }
    for (path, at, n) in &places.face_counts {
        d.checks.push(check(
            format!("{path} = triangles"),
            *n == tris as u64,
            n.to_string(),
            tris.to_string(),
            Some(*at),
            path,
        ));
    }
}

/// No chunk stores its size, so a file cut between chunks is a valid file with fewer
/// chunks: the summary says which of the mesh's chunks it lacks.
fn absent_chunks(d: &mut Decode, ply: &Ply, subs: &[Sub]) {
    let mut absent = Vec::new();
    if ply.vert_header().is_none() {
        absent.push("VERT");
    }
    if !ply.chunks.iter().any(|c| matches!(c, Chunk::Indices { .. })) {
        absent.push("INDX");
    }
    if subs.is_empty() {
        absent.push("submesh");
    }
    if absent.is_empty() {
        return;
    }
    let list = match absent.as_slice() {
        [a] => a.to_string(),
        [a, b] => format!("{a} or {b}"),
        [a, b, c, ..] => format!("{a}, {b} or {c}"),
        [] => String::new(),
    };
    let after = ply.chunks.last().map_or("the magic".to_string(), |c| c.id().to_string());
    d.facts.push(("absent chunks".into(), format!("the file has no {list} chunk (it ends after {after})").into()));
}

/// Every bone map entry names the mesh (0) or a SKIN bone (N > 0 is SKIN bone N-1).
fn bone_map_checks(d: &mut Decode, subs: &[Sub], skin: &[Name]) {
    for s in subs {
        if let Some(map) = &s.bone_map {
            let worst = map.iter().copied().max().unwrap_or(0);
            d.checks.push(check(
                format!("{}.bone_map names SKIN bones", s.path),
                worst as usize <= skin.len(),
                format!("largest entry {worst}"),
                format!("{} SKIN bones", skin.len()),
                None,
                &format!("{}.bone_map", s.path),
            ));
        }
    }
}

/// Per vertex, the submesh whose faces first use it (`u32::MAX`: none). Submesh ranges may
/// overlap; a budget of a few passes over the indices keeps many overlapping ones linear.
fn vertex_owners(subs: &[Sub], indices: &[u32], vcount: usize) -> Vec<u32> {
    let mut owner = vec![u32::MAX; vcount];
    let mut budget = indices.len().saturating_mul(4).saturating_add(1 << 20);
    for (k, s) in subs.iter().enumerate() {
        let a = (s.face_start.max(0) as usize).saturating_mul(3).min(indices.len());
        let b = ((s.face_start + s.face_count).max(0) as usize).saturating_mul(3).min(indices.len()).max(a);
        if b - a > budget {
            break;
        }
        budget -= b - a;
        for &i in &indices[a..b] {
            if let Some(o) = owner.get_mut(i as usize) {
                if *o == u32::MAX {
                    *o = k as u32;
                }
            }
        }
    }
    owner
}

/// Joints through the bone map of the submesh that owns each vertex: a joint becomes the
/// bone map value, so `bone_names[0]` is the mesh and `bone_names[N]` SKIN bone N-1.
fn resolve_joints(d: &mut Decode, lod: &mut Lod, subs: &[Sub], skin: &[Name], v: &Verts, indices: &[u32]) {
    lod.bone_names.push("(mesh transform)".into());
    lod.bone_names.extend(skin.iter().map(|n| lossy(n)));
    let owner = vertex_owners(subs, indices, v.count);
    let mut past = None;
    for (vi, j4) in lod.joints.chunks_exact_mut(4).enumerate() {
        let map = owner.get(vi).and_then(|&o| subs.get(o as usize)).and_then(|s| s.bone_map.as_ref());
        let Some(map) = map else { continue };
        for (slot, j) in j4.iter_mut().enumerate() {
            match map.get(*j as usize) {
                Some(&g) => *j = if (g as usize) <= skin.len() { g as u16 } else { 0 },
                None => {
                    // Only weighted slots must resolve; unused slots often hold 0.
                    past.get_or_insert((vi, slot, *j));
                    *j = 0;
                }
            }
        }
    }
    if let Some((vi, slot, j)) = past {
        let e = v.layout.elems.iter().find(|e| e.sem == Sem::Indices).map_or(0, |e| e.offset) as u64;
        d.errors.push(Error::bad_value(
            v.at + (vi * v.stride) as u64 + e + slot as u64,
            format!("VERT.vertices[{vi}].blend_indices"),
            format!("bone index {j} is past its submesh's bone map"),
        ));
    }
}

/// One section per submesh (or one for the whole mesh without a submesh).
fn sections(subs: &[Sub], ply: &Ply, v: &Verts, ix: &Indices, skin: &[Name]) -> Vec<Section> {
    let icount = ix.values.len();
    let iw = ix.width();
    let mirrored_file = ply.mirrored();
    let mut out = Vec::new();
    let mut budget = icount.saturating_mul(4).saturating_add(1 << 20);
    for s in subs.iter() {
        let a = (s.face_start.max(0) as u64 * 3).min(icount as u64) as usize;
        let b = (((s.face_start + s.face_count).max(0) as u64) * 3).min(icount as u64).max(a as u64) as usize;
        let (vs, vc) = match s.vertex_range {
            Some(r) => r,
            // Past the budget (many overlapping submeshes) a section names every vertex.
            None if b - a > budget => (0, v.count as u32),
            None => {
                budget -= b - a;
                used_range(&ix.values[a..b], v.count, ix.all_name_vertices)
            }
        };
        out.push(Section {
            name: s.name.clone(),
            index_start: a as u32,
            index_count: (b - a) as u32,
            vertex_start: vs,
            vertex_count: vc,
            two_sided: s.two_sided,
            mirrored: mirrored_file || s.mirrored,
            bones: s.bone_map.iter().flatten().map(|&g| bone_name(g, skin).into()).collect(),
            passes: Vec::new(),
            vertex_source: v.present.then_some(Source {
                file: 0,
                offset: v.at + vs as u64 * v.stride as u64,
                stride: v.stride as u64,
            }),
            index_source: ix.present.then_some(Source { file: 0, offset: ix.at + (a * iw) as u64, stride: iw as u64 }),
            // Submeshes store no box of their own; BNDS is the whole mesh's.
            stored_bounds: None,
        });
    }
    if subs.is_empty() && icount > 0 {
        out.push(Section {
            name: "(no submesh)".into(),
            index_count: icount as u32,
            vertex_count: v.count as u32,
            mirrored: mirrored_file,
            vertex_source: Some(Source { file: 0, offset: v.at, stride: v.stride as u64 }),
            index_source: Some(Source { file: 0, offset: ix.at, stride: iw as u64 }),
            ..Default::default()
        });
    }
    out
}

/// The first vertex and the vertex count that `indices` name (only vertices that exist;
/// `all_exist` says that every index names one).
fn used_range(indices: &[u32], vcount: usize, all_exist: bool) -> (u32, u32) {
    let (vc, every) = u32::try_from(vcount).map_or((u32::MAX, true), |v| (v, false));
    // Plain minimum and maximum vectorize in wasm too; the per-index test does not.
    let (lo, hi) = if all_exist || every {
        indices.iter().fold((u32::MAX, 0u32), |(lo, hi), &i| (lo.min(i), hi.max(i)))
    } else {
        // Branch-free: an index past the vertices counts as neither.
        indices.iter().fold((u32::MAX, 0u32), |(lo, hi), &i| {
            let used = i < vc;
            (lo.min(if used { i } else { u32::MAX }), hi.max(if used { i } else { 0 }))
        })
    };
    if lo == u32::MAX {
        (0, 0)
    } else {
        (lo, hi - lo + 1)
    }
}

fn bone_name(g: u8, skin: &[Name]) -> String {
    match g {
        0 => "(mesh transform)".to_string(),
        n => skin.get(n as usize - 1).map(|x| lossy(x)).unwrap_or_else(|| format!("bone {n}?")),
    }
}

/// The per-face arrays (SHDW, ADJA), the grid (BAS2, InfG) and the stored box (BNDS).
fn per_face(lod: &mut Lod, ply: &Ply) {
    let mut grid: Option<Grid> = None;
    for c in &ply.chunks {
        match c {
            Chunk::Shdw(s) if lod.shadow.is_empty() => lod.shadow = s.clone(),
            Chunk::Adja(a) if lod.adjacency.is_empty() => {
                lod.adjacency = a.iter().flatten().map(|&n| if n == 0xffff { u32::MAX } else { n as u32 }).collect();
            }
            Chunk::Bas2 { polygons, texture } => {
                let g = grid.get_or_insert_with(Grid::default);
                g.polygon_basis = polygons.iter().flatten().copied().collect();
                g.texture_basis = texture.iter().flatten().copied().collect();
            }
            Chunk::InfG { start, end, faces } => {
                let g = grid.get_or_insert_with(Grid::default);
                g.start = *start;
                g.end = *end;
                g.face_submesh = faces.iter().map(|f| f & 0x7fff).collect();
                g.face_invalid = faces.iter().map(|f| f & 0x8000 != 0).collect();
            }
            Chunk::Bnds { min, max } if lod.stored_bounds.is_none() => {
                lod.stored_bounds = Some(StoredBox { path: "BNDS.min".into(), min: *min, max: *max });
            }
            _ => {}
        }
    }
    lod.grid = grid;
}

/// Checks on the decoded vertices: the stored box, the vertex size, the tangent tail.
fn vertex_checks(d: &mut Decode, lod: &Lod, places: &Places, v: &Verts) {
    let pos_kind = v.layout.elems.iter().find(|e| e.sem == Sem::Position).map_or(Kind::F32(3), |e| e.kind);
    if let (Some(b), Some((mn, mx))) = (&lod.stored_bounds, bounds_of(&lod.positions)) {
        d.checks.push(bounds_check(b, mn, mx, pos_kind, places.bnds));
    }
    if v.present {
        d.checks.push(size_check(v));
    }
    if let Some(t) = v.layout.elems.iter().find(|e| e.sem == Sem::Tangent && e.offset >= v.format_size) {
        d.checks.push(tangent_tail_check(lod, t, v.at));
    }
    if let Some(u) = v.layout.elems.iter().find(|e| e.sem == Sem::Unexplained) {
        let (o, l) = (u.offset as usize, u.kind.size() as usize);
        let zero =
            v.data.chunks_exact(v.stride.max(1)).all(|x| x.get(o..o + l).is_some_and(|b| b.iter().all(|&x| x == 0)));
        d.facts.push((
            "unexplained vertex bytes".into(),
            format!("{l} at offset {o}{}", if zero { ", zero in every vertex" } else { "" }).into(),
        ));
    }
}

/// BNDS (the description's "mesh bounding box") holds every decoded position, within the
/// precision the positions are stored in.
fn bounds_check(b: &StoredBox, mn: [f32; 3], mx: [f32; 3], kind: Kind, at: Option<u64>) -> Check {
    let tol = |x: f32| kind.step(x);
    let contains = (0..3).all(|k| b.min[k] <= mn[k] + tol(mn[k]) && b.max[k] >= mx[k] - tol(mx[k]));
    Check {
        tolerance: kind.step_text().into(),
        ..check(
            "BNDS contains the positions",
            contains,
            format!("min {:?} max {:?}", b.min, b.max),
            format!("min {:?} max {:?}", mn, mx),
            at,
            "BNDS.min",
        )
    }
}

/// The description: the engine steps by `vertex_size` even where the format explains less;
/// a format larger than `vertex_size` contradicts it.
fn size_check(v: &Verts) -> Check {
    let tail: Vec<String> = v
        .layout
        .elems
        .iter()
        .filter(|e| e.offset >= v.format_size)
        .map(|e| format!("{} ({} bytes)", e.name, e.kind.size()))
        .collect();
    let measured = if tail.is_empty() {
        format!("{} bytes from the format", v.format_size)
    } else {
        format!("{} bytes from the format, then {}", v.format_size, tail.join(", "))
    };
    check(
        "VERT.vertex_size holds the submesh format",
        v.format_size as usize <= v.stride,
        format!("{} bytes", v.stride),
        measured,
        Some(v.at.saturating_sub(4)),
        "VERT.vertex_size",
    )
}

/// Bump-mapped vertices carry 16 bytes their format does not explain; we read them as a
/// tangent and a bitangent sign. A guess: it holds where each tangent is orthogonal to its
/// normal (measured on the unit vectors, so neither length matters) with w exactly ±1.
fn tangent_tail_check(lod: &Lod, t: &VElem, vert_at: u64) -> Check {
    const COS: f32 = 0.05;
    let (mut off, mut bad_w, mut zero, mut worst) = (0usize, 0usize, 0usize, 0f32);
    let n = lod.tangents.len() / 4;
    for (tv, nv) in lod.tangents.chunks_exact(4).zip(lod.normals.chunks_exact(3)) {
        let (lt, ln) = (len3(&tv[..3]), len3(nv));
        if lt == 0.0 || ln == 0.0 {
            zero += 1;
        } else {
            let cos = ((tv[0] * nv[0] + tv[1] * nv[1] + tv[2] * nv[2]) / (lt * ln)).abs();
            worst = worst.max(cos);
            off += (cos > COS) as usize;
        }
        bad_w += (tv[3] != 1.0 && tv[3] != -1.0) as usize;
    }
    Check {
        tolerance: format!("|cos(normal, tangent)| <= {COS} (within about 3 degrees of orthogonal); w exactly +-1"),
        ..guess(check(
            "tail tangent is orthogonal to the normal with sign +-1",
            off == 0 && bad_w == 0,
            format!("{} at vertex offset {}", t.name, t.offset),
            format!(
                "{off} of {n} vertices off orthogonal (largest |cos| {worst:.4}), {bad_w} with w not +-1, {zero} zero-length"
            ),
            Some(vert_at + t.offset as u64),
            "VERT.vertices[0].tangent",
        ))
    }
}

fn len3(v: &[f32]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// The AS2 SUBM's `unknown[1]`, which the landscape sample holds the vertex count in.
fn guessed_counts(d: &mut Decode, ply: &Ply, places: &Places, vcount: usize) {
    let paths = places.subs.iter().map(|s| &s.path);
    let as2 =
        ply.chunks.iter().filter(|c| matches!(c, Chunk::Mesh(_) | Chunk::Sbm1(_) | Chunk::Subm(_) | Chunk::SubmAs2(_)));
    for (c, path) in as2.zip(paths) {
        if let Chunk::SubmAs2(s) = c {
            d.checks.push(guess(check(
                "SUBM unknown[1] = VERT vertex count",
                s.unknown[1] as usize == vcount,
                s.unknown[1].to_string(),
                vcount.to_string(),
                None,
                &format!("{path}.unknown[1]"),
            )));
        }
    }
}

fn facts(d: &mut Decode, v: &Verts, ix: &Indices, subs: &[Sub], skin: &[Name]) {
    d.facts.push(("vertices".into(), format!("{} x {} bytes, flags 0x{:x}", v.count, v.stride, v.flags).into()));
    d.facts.push(("vertex layout".into(), v.layout.describe().into()));
    d.facts.push(("indices".into(), format!("{} ({} bit)", ix.values.len(), ix.width() * 8).into()));
    d.facts.push(("submeshes".into(), subs.iter().map(|s| s.name.clone()).collect::<Vec<_>>().join(", ").into()));
    if !skin.is_empty() {
        d.facts.push(("bones".into(), skin.iter().map(|n| lossy(n)).collect::<Vec<_>>().join(", ").into()));
    }
}

#[cfg(test)]
mod tests {
    use super::used_range;

    #[test]
    fn used_range_skips_indices_past_the_vertices() {
        assert_eq!(used_range(&[], 10, true), (0, 0));
        assert_eq!(used_range(&[4, 2, 7, 2], 10, true), (2, 6));
        // The slow path agrees with the fast one where every index names a vertex...
        assert_eq!(used_range(&[4, 2, 7, 2], 10, false), (2, 6));
        // ...and leaves out the ones that do not.
        assert_eq!(used_range(&[4, 2, 70, 2, 11], 10, false), (2, 3));
        assert_eq!(used_range(&[40, 20], 10, false), (0, 0));
    }
}
