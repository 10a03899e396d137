//! After the chunk loop: the vertex layout from the submeshes, the vertex region, index and
//! face-range checks, the mesh (positions .. bones, sections, shadow, adjacency, grid) and
//! the consistency checks.

use super::subs::{lossy, subs_of};
use super::vertex::{Kind, Layout, Sem};
use super::{Chunk, Parsed, Ply};
use crate::document::{Basis, Check, Decode};
use crate::error::Error;
use crate::formats::Details;
use crate::mesh::{bounds_of, Grid, Lod, Mesh, Section, Source, StoredBox};
use crate::span::Confidence;

fn check(name: &str, passed: bool, stored: String, measured: String, offset: Option<u64>, path: &str) -> Check {
    Check {
        name: name.into(),
        passed,
        stored,
        measured,
        offset,
        path: path.into(),
        basis: Basis::Description,
        tolerance: String::new(),
    }
}

fn index_at(data: &[u8], wide: bool, i: usize) -> u32 {
    if wide {
        match data.get(i * 4..i * 4 + 4) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            _ => 0,
        }
    } else {
        match data.get(i * 2..i * 2 + 2) {
            Some(&[a, b]) => u16::from_le_bytes([a, b]) as u32,
            _ => 0,
        }
    }
}

/// Turns a parse into a decode. Without `mesh` it stops before the vertex arrays: the
/// spans, regions, index checks and errors of the structure are all there, which is what
/// the hex view needs first on a large file (the mesh follows in a second call).
pub fn finish(p: Parsed, bytes: &[u8], mesh: bool) -> Decode {
    let mut d = Decode::default();
    let mut subs = subs_of(&p);
    let Parsed { ply, fields, errors, places, .. } = p;
    d.fields = fields;
    d.errors = errors;

    let (vcount, stride, vflags, vdata) = ply.vert(bytes).unwrap_or((0, 0, 0, &[]));
    let stride = stride as usize;
    let vert_at = places.vert_data.unwrap_or(0);
    if stride == 0 && vcount > 0 {
        d.errors.push(Error::bad_value(
            vert_at.saturating_sub(4),
            "VERT.vertex_size",
            "vertex_size is 0 with vertices stored",
        ));
    }
    let vcount = if stride == 0 { 0 } else { vdata.len() / stride };

    // The layout: the first submesh's, checked against the others.
    let mut layout = match subs.first() {
        Some(s) => s.layout.clone(),
        None => {
            let mut l = Layout::default();
            if stride >= 12 {
                l.elems.push(super::vertex::VElem {
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
    };
    for s in &subs {
        if let Some(msg) = &s.layout_error {
            d.errors.push(Error::unsupported(s.face_count_at, format!("{}.vertex_elements", s.path), msg.clone()));
        }
    }
    for s in subs.iter().skip(1) {
        if s.layout.elems != layout.elems {
            d.errors.push(Error::bad_value(
                s.face_count_at,
                s.path.clone(),
                format!("vertex format differs from {}'s; the shared VERT is decoded with the first", subs[0].path),
            ));
        }
    }
    if !subs.is_empty() && ply.vert_header().is_none() {
        d.errors.push(Error::bad_value(bytes.len() as u64, "VERT", "the file has submeshes but no VERT chunk"));
    }
    let bump = subs.first().is_some_and(|s| s.bump);
    let format_size = layout.size();
    if ply.vert_header().is_some() {
        if let Some(msg) = layout.fit(stride as u32, bump) {
            d.errors.push(Error::bad_value(vert_at.saturating_sub(4), "VERT.vertex_size", msg));
        }
        if vcount > 0 && stride > 0 {
            d.fields.add_region(layout.region(vert_at, stride as u64, vcount as u64, "VERT.vertices"));
        }
    }

    // Indices: every one must name a vertex.
    let (wide, idata) = ply.indices(bytes).unwrap_or((false, &[]));
    let iw = if wide { 4 } else { 2 };
    let icount = idata.len() / iw;
    let (index_at0, index_path) = places.index_data.clone().unwrap_or((0, "INDX.indices".into()));
    let mut indices = Vec::with_capacity(icount);
    let mut bad = 0usize;
    let mut first_bad = None;
    for i in 0..icount {
        let v = index_at(idata, wide, i);
        if v as usize >= vcount {
            bad += 1;
            first_bad.get_or_insert((i, v));
        }
        indices.push(v);
    }
    if let Some((i, v)) = first_bad {
        d.errors.push(Error::bad_value(
            index_at0 + (i * iw) as u64,
            format!("{index_path}[{i}]"),
            format!("index {v} is at or past the vertex count {vcount} ({bad} such indices)"),
        ));
    }
    if ply.indices(bytes).is_some() {
        d.checks.push(check(
            "indices name vertices",
            bad == 0,
            format!("{icount} indices"),
            format!("{bad} at or past vertex count {vcount}"),
            Some(index_at0),
            &index_path,
        ));
    }

    // Face ranges.
    let tris = icount / 3;
    let mut face_sum = 0i64;
    for s in &subs {
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
        d.checks.push(check(
            "submesh faces cover the triangles",
            face_sum == tris as i64,
            format!("{face_sum} faces in submeshes"),
            format!("{tris} triangles"),
            None,
            "",
        ));
    }
    for (path, at, n) in &places.face_counts {
        d.checks.push(check(
            &format!("{path} = triangles"),
            *n == tris as u64,
            n.to_string(),
            tris.to_string(),
            Some(*at),
            path,
        ));
    }

    if !mesh {
        return d;
    }

    // The mesh.
    let mut lod = Lod { name: "lod0".into(), ..Default::default() };
    super::attributes::vertex_arrays(&layout, vdata, stride, vflags & 1 == 0, vcount, &mut lod);
    let idx = layout.elems.iter().find(|e| e.sem == Sem::Indices).cloned();
    let tris_valid = |a: usize| a < vcount;
    // Resolve joints through the bone map of the submesh that owns each vertex.
    let skin = ply.skin().unwrap_or(&[]);
    if !lod.joints.is_empty() {
        lod.bone_names.push("(mesh transform)".into());
        lod.bone_names.extend(skin.iter().map(|n| lossy(n)));
        let mut owner = vec![u32::MAX; vcount];
        // Submesh ranges may overlap; a budget of a few passes over the indices keeps a
        // file of many overlapping submeshes linear.
        let mut budget = indices.len().saturating_mul(4).saturating_add(1 << 20);
        for (k, s) in subs.iter().enumerate() {
            let a = (s.face_start.max(0) as usize).saturating_mul(3).min(indices.len());
            let b = ((s.face_start + s.face_count).max(0) as usize).saturating_mul(3).min(indices.len()).max(a);
            if b - a > budget {
                break;
            }
            budget -= b - a;
            for &i in indices.get(a..b).unwrap_or(&[]) {
                if let Some(o) = owner.get_mut(i as usize) {
                    if *o == u32::MAX {
                        *o = k as u32;
                    }
                }
            }
        }
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
            let e = idx.as_ref().map(|e| e.offset).unwrap_or(0) as u64;
            d.errors.push(Error::bad_value(
                vert_at + (vi * stride) as u64 + e + slot as u64,
                format!("VERT.vertices[{vi}].blend_indices"),
                format!("bone index {j} is past its submesh's bone map"),
            ));
        }
        for s in &subs {
            if let Some(map) = &s.bone_map {
                let worst = map.iter().copied().max().unwrap_or(0);
                d.checks.push(check(
                    &format!("{}.bone_map names SKIN bones", s.path),
                    worst as usize <= skin.len(),
                    format!("largest entry {worst}"),
                    format!("{} SKIN bones", skin.len()),
                    None,
                    &format!("{}.bone_map", s.path),
                ));
            }
        }
    }
    lod.indices = indices;

    let mirrored_file = ply.mirrored();
    let mut budget = icount.saturating_mul(4).saturating_add(1 << 20);
    for s in &mut subs {
        let a = (s.face_start.max(0) as u64 * 3).min(icount as u64) as usize;
        let b = (((s.face_start + s.face_count).max(0) as u64) * 3).min(icount as u64).max(a as u64) as usize;
        let (vs, vc) = match s.vertex_range {
            Some(r) => r,
            // Past the budget (many overlapping submeshes) a section names every vertex.
            None if b - a > budget => (0, vcount as u32),
            None => {
                budget -= b - a;
                let used = lod.indices.get(a..b).unwrap_or(&[]).iter().filter(|&&i| tris_valid(i as usize));
                let (mut lo, mut hi) = (u32::MAX, 0u32);
                for &i in used {
                    lo = lo.min(i);
                    hi = hi.max(i);
                }
                if lo == u32::MAX {
                    (0, 0)
                } else {
                    (lo, hi - lo + 1)
                }
            }
        };
        lod.sections.push(Section {
            name: s.name.clone(),
            index_start: a as u32,
            index_count: (b - a) as u32,
            vertex_start: vs,
            vertex_count: vc,
            two_sided: s.two_sided,
            mirrored: mirrored_file || s.mirrored,
            bones: s
                .bone_map
                .iter()
                .flatten()
                .map(|&g| match g {
                    0 => "(mesh transform)".to_string(),
                    n => skin.get(n as usize - 1).map(|x| lossy(x)).unwrap_or_else(|| format!("bone {n}?")),
                })
                .collect(),
            passes: Vec::new(),
            vertex_source: ply.vert_header().map(|_| Source {
                file: 0,
                offset: vert_at + vs as u64 * stride as u64,
                stride: stride as u64,
            }),
            index_source: ply.indices(bytes).map(|_| Source {
                file: 0,
                offset: index_at0 + (a * iw) as u64,
                stride: iw as u64,
            }),
            // Submeshes store no box of their own; BNDS is the whole mesh's.
            stored_bounds: None,
        });
    }
    if subs.is_empty() && icount > 0 {
        lod.sections.push(Section {
            name: "(no submesh)".into(),
            index_count: icount as u32,
            vertex_count: vcount as u32,
            mirrored: mirrored_file,
            vertex_source: Some(Source { file: 0, offset: vert_at, stride: stride as u64 }),
            index_source: Some(Source { file: 0, offset: index_at0, stride: iw as u64 }),
            ..Default::default()
        });
    }

    // Per-face arrays and the grid.
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
            _ => {}
        }
    }
    lod.grid = grid;
    // The stored box as numbers, for the view (the check below compares it with the positions).
    if let Some(Chunk::Bnds { min, max }) = ply.chunks.iter().find(|c| matches!(c, Chunk::Bnds { .. })) {
        lod.stored_bounds = Some(StoredBox { path: "BNDS.min".into(), min: *min, max: *max });
    }

    // Checks on the vertices.
    if let Some(Chunk::Bnds { min, max }) = ply.chunks.iter().find(|c| matches!(c, Chunk::Bnds { .. })) {
        if let Some((mn, mx)) = bounds_of(&lod.positions) {
            let tol = |a: f32| 1e-4 * a.abs().max(1.0);
            let contains = (0..3).all(|k| min[k] <= mn[k] + tol(mn[k]) && max[k] >= mx[k] - tol(mx[k]));
            d.checks.push(check(
                "BNDS contains the positions",
                contains,
                format!("min {:?} max {:?}", min, max),
                format!("min {:?} max {:?}", mn, mx),
                places.bnds,
                "BNDS.min",
            ));
        }
    }
    if ply.vert_header().is_some() {
        let tail = layout
            .elems
            .iter()
            .filter(|e| e.offset >= format_size)
            .map(|e| format!("{} ({} bytes)", e.name, e.kind.len()))
            .collect::<Vec<_>>();
        d.checks.push(check(
            "VERT.vertex_size holds the submesh format",
            format_size as usize <= stride,
            format!("{stride} bytes"),
            if tail.is_empty() {
                format!("{format_size} bytes from the format")
            } else {
                format!("{format_size} bytes from the format, then {}", tail.join(", "))
            },
            Some(vert_at.saturating_sub(4)),
            "VERT.vertex_size",
        ));
    }
    if let Some(t) = layout.elems.iter().find(|e| e.sem == Sem::Tangent && e.offset >= format_size) {
        let (mut worst_dot, mut signs_ok) = (0f32, true);
        for (k, tv) in lod.tangents.chunks_exact(4).enumerate() {
            let nv = lod.normals.get(k * 3..k * 3 + 3).unwrap_or(&[0.0, 0.0, 0.0]);
            let dot = tv[0] * nv[0] + tv[1] * nv[1] + tv[2] * nv[2];
            worst_dot = worst_dot.max(dot.abs());
            signs_ok &= tv[3] == 1.0 || tv[3] == -1.0;
        }
        d.checks.push(check(
            "tail tangent is orthogonal to the normal with sign +-1",
            worst_dot < 0.05 && signs_ok,
            format!("{} at vertex offset {}", t.name, t.offset),
            format!("max |n.t| {worst_dot:.4}, every w +-1: {signs_ok}"),
            Some(vert_at + t.offset as u64),
            "VERT.vertices[0].tangent",
        ));
    }
    if let Some(u) = layout.elems.iter().find(|e| e.sem == Sem::Unexplained) {
        let (o, l) = (u.offset as usize, u.kind.len() as usize);
        let zero =
            vdata.chunks_exact(stride.max(1)).all(|v| v.get(o..o + l).is_some_and(|b| b.iter().all(|&x| x == 0)));
        d.facts.push((
            "unexplained vertex bytes".into(),
            format!("{l} at offset {o}{}", if zero { ", zero in every vertex" } else { "" }),
        ));
    }
    for c in &ply.chunks {
        if let Chunk::SubmAs2(s) = c {
            d.checks.push(check(
                "SUBM unknown[1] = VERT vertex count",
                s.unknown[1] as usize == vcount,
                s.unknown[1].to_string(),
                vcount.to_string(),
                None,
                "SUBM[0].unknown[1]",
            ));
        }
    }

    d.facts.push(("vertices".into(), format!("{vcount} x {stride} bytes, flags 0x{vflags:x}")));
    d.facts.push(("vertex layout".into(), layout.describe()));
    d.facts.push(("indices".into(), format!("{icount} ({} bit)", iw * 8)));
    d.facts.push(("submeshes".into(), subs.iter().map(|s| s.name.clone()).collect::<Vec<_>>().join(", ")));
    if !skin.is_empty() {
        d.facts.push(("bones".into(), skin.iter().map(|n| lossy(n)).collect::<Vec<_>>().join(", ")));
    }
    d.mesh = Mesh { lods: vec![lod] };
    d.details = Details::GemPly(ply_keep(ply));
    d
}

fn ply_keep(p: Ply) -> Ply {
    p
}
