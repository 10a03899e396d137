//! A LOD's geometry, from its chunk or from the resource's trailing data: each section's stored
//! streams back to back from its vertex offset (`stride * vertex_count` each), the index buffer
//! at the LOD's vertex buffer byte count, indices counted from the section's start index.

use super::declaration::usage;
use super::element_format;
use super::lod::{Lod, PASSES};
use super::measures::{measure, Measured};
use super::tangent;
use crate::error::{Error, Result};
use crate::mesh::{self, Source};
use crate::read::Reader;
use crate::span::{Confidence, Elem, Fields, Region};

/// One section's decoded vertices and its local indices.
#[derive(Default)]
struct Geom {
    n: usize,
    positions: Vec<f32>,
    normals: Option<Vec<f32>>,
    tangents: Option<Vec<f32>>,
    uvs: [Option<Vec<f32>>; 8],
    colors: Option<Vec<f32>>,
    joints: Option<Vec<u16>>,
    weights: Option<Vec<f32>>,
    indices: Vec<u32>,
}

fn show_u16(b: &[u8]) -> String {
    match b { [a, c] => u16::from_le_bytes([*a, *c]).to_string(), _ => String::new() }
}
fn show_u32(b: &[u8]) -> String {
    match b { [a, c, d, e] => u32::from_le_bytes([*a, *c, *d, *e]).to_string(), _ => String::new() }
}

/// The mesh LOD with no geometry yet: sections from the records alone.
pub fn skeleton(l: &Lod, li: usize) -> mesh::Lod {
    let mut out = mesh::Lod { name: l.name.clone(), ..Default::default() };
    let mut istart = 0u32;
    let mut vstart = 0u32;
    for (k, s) in l.sections.iter().enumerate() {
        let ic = s.primitive_count.saturating_mul(3);
        out.sections.push(mesh::Section {
            name: s.material.clone(),
            index_start: istart,
            index_count: ic,
            vertex_start: vstart,
            vertex_count: s.vertex_count,
            passes: passes_of(l, k),
            ..Default::default()
        });
        istart = istart.saturating_add(ic);
        vstart = vstart.saturating_add(s.vertex_count);
    }
    let _ = li;
    out
}

/// The passes whose lists hold section `k`.
pub fn passes_of(l: &Lod, k: usize) -> Vec<String> {
    (0..5).filter(|&p| l.lists[p].iter().any(|&x| x as usize == k)).map(|p| PASSES[p].to_string()).collect()
}

/// Decodes LOD `li`'s geometry from `data`, whose byte 0 is the vertex buffer's start.
/// Spans go under `prefix` (`lod[i]` in a chunk, `trailing.lod[i]` inline). Errors of one
/// section are pushed and the section left without geometry; the others still decode.
pub fn decode_lod(
    f: &mut Fields,
    errors: &mut Vec<Error>,
    l: &Lod,
    li: usize,
    data: &Reader,
    prefix: &str,
    file: u32,
) -> (mesh::Lod, Vec<Measured>) {
    let mut out = skeleton(l, li);
    let mut geoms = Vec::new();
    let mut ranges: Vec<(u64, u64, String)> = Vec::new();
    for (k, s) in l.sections.iter().enumerate() {
        let path = format!("{prefix}.section[{k}]");
        match section(f, l, k, data, &path, &mut ranges) {
            Ok(g) => geoms.push(g),
            Err(e) => {
                errors.push(e);
                geoms.push(Geom::default());
            }
        }
        let _ = s;
    }
    // Streams of different sections must not share bytes.
    ranges.sort();
    for w in ranges.windows(2) {
        if w[1].0 < w[0].1 {
            errors.push(Error::bad_value(w[1].0, w[1].2.clone(), format!("overlaps {} (ends at 0x{:x})", w[0].2, w[0].1)));
        }
    }
    // Measure, then merge the sections into one LOD.
    let measured: Vec<Measured> = geoms
        .iter()
        .map(|g| measure(&g.positions, [g.uvs[0].as_deref(), g.uvs[1].as_deref()], &g.indices))
        .collect();
    let total: usize = geoms.iter().map(|g| g.n).sum();
    let any = |f: &dyn Fn(&Geom) -> bool| geoms.iter().any(f);
    let (has_n, has_t, has_c, has_j, has_w) = (
        any(&|g| g.normals.is_some()),
        any(&|g| g.tangents.is_some()),
        any(&|g| g.colors.is_some()),
        any(&|g| g.joints.is_some()),
        any(&|g| g.weights.is_some()),
    );
    let uv_sets = (0..8).rev().find(|&u| any(&|g| g.uvs[u].is_some())).map_or(0, |u| u + 1);
    out.positions.reserve(total * 3);
    out.uvs = vec![Vec::with_capacity(total * 2); uv_sets];
    let mut vstart = 0u32;
    let mut istart = 0u32;
    for (k, g) in geoms.iter().enumerate() {
        fn ext<T: Copy>(dst: &mut Vec<T>, src: &Option<Vec<T>>, n: usize, fill: T, on: bool) {
            if on {
                match src {
                    Some(v) => dst.extend_from_slice(v),
                    None => dst.resize(dst.len() + n, fill),
                }
            }
        }
        out.positions.extend_from_slice(&g.positions);
        ext(&mut out.normals, &g.normals, g.n * 3, 0.0, has_n);
        ext(&mut out.tangents, &g.tangents, g.n * 4, 0.0, has_t);
        ext(&mut out.colors, &g.colors, g.n * 4, 1.0, has_c);
        ext(&mut out.joints, &g.joints, g.n * 4, 0, has_j);
        ext(&mut out.weights, &g.weights, g.n * 4, 0.0, has_w);
        for u in 0..uv_sets {
            ext(&mut out.uvs[u], &g.uvs[u], g.n * 2, 0.0, true);
        }
        out.indices.extend(g.indices.iter().map(|&i| i + vstart));
        let sec = &mut out.sections[k];
        sec.index_start = istart;
        sec.index_count = g.indices.len() as u32;
        sec.vertex_start = vstart;
        sec.vertex_count = g.n as u32;
        let s = &l.sections[k];
        let s0 = s.stored.stride(0) as u64;
        sec.vertex_source = Some(Source { file, offset: data.base() + s.vertex_offset as u64, stride: s0 });
        if let Some(isz) = l.index_size() {
            sec.index_source = Some(Source {
                file,
                offset: data.base() + l.vertex_bytes as u64 + s.start_index as u64 * isz as u64,
                stride: isz as u64,
            });
        }
        istart += g.indices.len() as u32;
        vstart += g.n as u32;
    }
    (out, measured)
}

fn section(f: &mut Fields, l: &Lod, k: usize, data: &Reader, path: &str, ranges: &mut Vec<(u64, u64, String)>) -> Result<Geom> {
    let s = &l.sections[k];
    let d = &s.stored;
    let n = s.vertex_count as usize;
    let mut g = Geom { n, ..Default::default() };
    // Each stream: its bytes and the elements it holds.
    let mut start = s.vertex_offset as usize;
    let streams = (d.stream_count as usize).min(16);
    let mut windows = Vec::with_capacity(streams);
    for st in 0..streams {
        let stride = d.stride(st) as usize;
        let sp = format!("{path}.stream[{st}]");
        let elems: Vec<_> = d.used().iter().filter(|e| e.stream as usize == st).collect();
        if stride == 0 {
            if !elems.is_empty() && n > 0 {
                return Err(Error::bad_value(data.base() + start as u64, sp, "elements on a stream of stride 0"));
            }
            windows.push(None);
            continue;
        }
        let len = stride.checked_mul(n).ok_or_else(|| Error::limit(data.base(), format!("{path}.vertex_count"), "stream size overflows"))?;
        let w = data.window(start, len).map_err(|e| {
            Error::new(e.offset, sp.clone(), e.kind).at_path(&sp)
        })?;
        ranges.push((w.base(), w.base() + len as u64, sp.clone()));
        let mut region = Region { start: w.base(), stride: stride as u64, count: n as u64, path: sp.clone(), elems: Vec::new() };
        for e in &elems {
            let Some((fname, size, _)) = element_format::info(e.format) else { continue };
            if e.offset as usize + size as usize > stride {
                return Err(Error::bad_value(w.base(), format!("{sp}.{}", usage(e.usage).0),
                    format!("element at offset {} of {size} bytes passes the stream stride {stride}", e.offset)));
            }
            let (uname, conf) = usage(e.usage);
            region.elems.push(Elem {
                offset: e.offset as u64,
                len: size as u64,
                name: uname,
                ty: fname.to_string(),
                confidence: conf,
                note: "Stored streams occupy consecutive stride * vertex_count ranges from a section's vertex offset.".into(),
                format: element_format::shower(e.format),
            });
        }
        region.elems.sort_by_key(|e| e.offset);
        f.add_region(region);
        windows.push(Some(w));
        start += len;
    }
    for e in d.used() {
        let Some(Some(w)) = windows.get(e.stream as usize) else { continue };
        let Some((_, size, comps)) = element_format::info(e.format) else { continue };
        let stride = d.stride(e.stream as usize) as usize;
        let (off, size) = (e.offset as usize, size as usize);
        let bytes = w.data();
        let each = |mut put: Box<dyn FnMut(&[u8]) + '_>| {
            for v in bytes.chunks_exact(stride) {
                if let Some(b) = v.get(off..off + size) {
                    put(b);
                }
            }
        };
        let mut tmp = [0f32; 4];
        let mut take = |want: usize, fill: f32| -> Vec<f32> {
            let mut out = Vec::with_capacity(n * want);
            if e.format == 0x03 && want == 3 {
                // Float3, the common position format: straight copy.
                each(Box::new(|b| {
                    for c in b.chunks_exact(4) {
                        out.push(f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
                    }
                }));
                return out;
            }
            each(Box::new(|b| {
                tmp = [0.0, 0.0, 0.0, fill];
                element_format::decode(e.format, b, &mut tmp);
                out.extend_from_slice(&tmp[..want]);
            }));
            out
        };
        match e.usage {
            1 if g.positions.is_empty() => g.positions = take(3, 1.0),
            6 if g.normals.is_none() => g.normals = Some(take(3, 0.0)),
            7 if g.tangents.is_none() => g.tangents = Some(take(4, 1.0)),
            30 if g.colors.is_none() => g.colors = Some(take(4, 1.0)),
            33..=40 if g.uvs[(e.usage - 33) as usize].is_none() => g.uvs[(e.usage - 33) as usize] = Some(take(2, 0.0)),
            4 if g.weights.is_none() => g.weights = Some(take(4, 0.0)),
            2 if g.joints.is_none() => g.joints = Some(take(4, 0.0).into_iter().map(|v| v as u16).collect()),
            52 if size == 4 && g.normals.is_none() => {
                let mut nn = Vec::with_capacity(n * 3);
                let mut tt = Vec::with_capacity(n * 4);
                each(Box::new(|b| {
                    let f = tangent::decode([b[0], b[1], b[2], b[3]]);
                    let (nv, tv, sg) = f.map_or(([0.0; 3], [0.0; 3], 1.0), |f| (f.normal, f.tangent, f.sign));
                    nn.extend_from_slice(&nv);
                    tt.extend_from_slice(&[tv[0], tv[1], tv[2], sg]);
                }));
                g.normals = Some(nn);
                g.tangents = Some(tt);
            }
            _ => {}
        }
        let _ = comps;
    }
    if g.positions.len() != n * 3 {
        // No position element: keep the vertex count so indices still line up.
        g.positions = vec![0.0; n * 3];
    }
    // Indices.
    let Some(isz) = l.index_size() else {
        return Err(Error::unsupported(0, format!("{path}.indices"), format!("index format 0x{:x} is neither 0x21 nor 0x2e", l.index_format)));
    };
    let count = (s.primitive_count as usize).checked_mul(3).ok_or_else(|| Error::limit(0, format!("{path}.primitive_count"), "overflows"))?;
    let at = (l.vertex_bytes as usize).checked_add((s.start_index as usize).saturating_mul(isz as usize)).unwrap_or(usize::MAX);
    let ip = format!("{path}.indices");
    let len = count.checked_mul(isz as usize).ok_or_else(|| Error::limit(0, ip.clone(), "overflows"))?;
    let w = data.window(at, len).map_err(|e| Error::new(e.offset, ip.clone(), e.kind))?;
    let b = w.data();
    g.indices = if isz == 2 {
        b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as u32).collect()
    } else {
        b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    };
    let max = g.indices.iter().copied().max().unwrap_or(0);
    if !g.indices.is_empty() && max as usize >= n {
        let j = g.indices.iter().position(|&i| i as usize >= n).unwrap_or(0);
        let idx = g.indices[j];
        g.indices.clear();
        return Err(Error::bad_value(w.base() + (j * isz as usize) as u64, format!("{ip}[{j}]"),
            format!("index {idx} names no vertex of the section's {n}"))).map(|_: ()| g);
    }
    f.add_region(Region {
        start: w.base(),
        stride: isz as u64,
        count: count as u64,
        path: ip,
        elems: vec![Elem {
            offset: 0,
            len: isz as u64,
            name: String::new(),
            ty: if isz == 2 { "u16".into() } else { "u32".into() },
            confidence: Confidence::Proven,
            note: "In the geometry chunk the index data starts at the vertex buffer byte count; indices are relative to their section.".into(),
            format: if isz == 2 { show_u16 } else { show_u32 },
        }],
    });
    Ok(g)
}
