//! A LOD's geometry, from its chunk or from the resource's trailing data: each section's stored
//! streams back to back from its vertex offset (`stride * vertex_count` each), the index buffer
//! at the LOD's vertex buffer byte count, indices counted from the section's start index.

use super::declaration::{usage, Element};
use super::element_format;
use super::lod::{Lod, PASSES};
use super::measures::{measure_from, Measured};
use super::tangent;
use crate::error::{Error, Result};
use crate::mesh::{self, Source};
use crate::read::Reader;
use crate::span::{Confidence, Elem, Fields, Region};

/// Which vertex arrays the LOD fills: any section's stored declaration naming the usage.
#[derive(Default, Clone, Copy)]
struct Want {
    normals: bool,
    tangents: bool,
    colors: bool,
    joints: bool,
    weights: bool,
    uv_sets: usize,
}

fn want(l: &Lod) -> Want {
    let has = |u: &[u8]| l.sections.iter().any(|s| s.stored.used().iter().any(|e| u.contains(&e.usage)));
    Want {
        normals: has(&[6, 52]),
        tangents: has(&[7, 52]),
        colors: has(&[30]),
        joints: has(&[2]),
        weights: has(&[4]),
        uv_sets: (0..8u8).rev().find(|&u| has(&[33 + u])).map_or(0, |u| u as usize + 1),
    }
}

fn show_u16(b: &[u8]) -> String {
    match b {
        [a, c] => u16::from_le_bytes([*a, *c]).to_string(),
        _ => String::new(),
    }
}
fn show_u32(b: &[u8]) -> String {
    match b {
        [a, c, d, e] => u32::from_le_bytes([*a, *c, *d, *e]).to_string(),
        _ => String::new(),
    }
}

/// The mesh LOD with no geometry yet: sections from the records alone.
pub fn skeleton(l: &Lod) -> mesh::Lod {
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
            // The section's bone list holds bone indices; their names are not in the MeshSet.
            bones: s.bones.iter().map(|b| format!("bone {b}")).collect(),
            ..Default::default()
        });
        istart = istart.saturating_add(ic);
        vstart = vstart.saturating_add(s.vertex_count);
    }
    out
}

/// The passes whose lists hold section `k`.
pub fn passes_of(l: &Lod, k: usize) -> Vec<String> {
    (0..5).filter(|&p| l.lists[p].iter().any(|&x| x as usize == k)).map(|p| PASSES[p].to_string()).collect()
}

/// Decodes a LOD's geometry from `data`, whose byte 0 is the vertex buffer's start.
/// Spans go under `prefix` (`lod[i]` in a chunk, `trailing.lod[i]` inline). Errors of one
/// section are pushed and the section left without geometry; the others still decode.
pub fn decode_lod(
    f: &mut Fields,
    errors: &mut Vec<Error>,
    l: &Lod,
    data: &Reader,
    prefix: &str,
    file: u32,
) -> (mesh::Lod, Vec<Measured>) {
    let mut out = skeleton(l);
    let w = want(l);
    // Room for every vertex up front (bounded by the bytes there are), so the arrays do not
    // grow by copying.
    let total: usize = l.sections.iter().map(|s| s.vertex_count as usize).sum::<usize>().min(data.len() / 4);
    let tris: usize = l.sections.iter().map(|s| s.primitive_count as usize * 3).sum::<usize>().min(data.len() / 2);
    out.positions.reserve(total * 3);
    out.indices.reserve(tris);
    if w.normals {
        out.normals.reserve(total * 3);
    }
    if w.tangents {
        out.tangents.reserve(total * 4);
    }
    out.uvs = (0..w.uv_sets).map(|_| Vec::with_capacity(total * 2)).collect();
    let table = tangent::AngleTable::default();
    let mut ranges: Vec<(u64, u64, String)> = Vec::new();
    let mut measured = Vec::with_capacity(l.sections.len());
    for k in 0..l.sections.len() {
        let path = format!("{prefix}.section[{k}]");
        let v0 = out.positions.len() / 3;
        let i0 = out.indices.len();
        let regions = f.regions.len();
        let r = section(f, l, k, data, &path, &mut ranges, &mut out, &w, &table);
        let n = match r {
            Ok(n) => n,
            Err(e) => {
                // The section keeps no geometry; the arrays go back to where it started.
                errors.push(e);
                f.regions.truncate(regions);
                truncate(&mut out, v0, i0, &w);
                0
            }
        };
        let uv = |u: usize| out.uvs.get(u).and_then(|a| a.get(v0 * 2..)).filter(|a| !a.is_empty());
        let pos = out.positions.get(v0 * 3..).unwrap_or(&[]);
        let st = &l.sections[k].stored;
        let uvs = [uv(0).filter(|_| st.has_usage(33)), uv(1).filter(|_| st.has_usage(34))];
        // The section's indices hold LOD vertex numbers; the measures count them from v0.
        let idx = out.indices.get(i0..).unwrap_or(&[]);
        measured.push(measure_from(pos, uvs, idx, v0 as u32));
        let ni = idx.len();
        let s = &l.sections[k];
        let sec = &mut out.sections[k];
        sec.index_start = i0 as u32;
        sec.index_count = ni as u32;
        sec.vertex_start = v0 as u32;
        sec.vertex_count = n as u32;
        sec.vertex_source =
            Some(Source { file, offset: data.base() + s.vertex_offset as u64, stride: s.stored.stride(0) as u64 });
        if let Some(isz) = l.index_size() {
            sec.index_source = Some(Source {
                file,
                offset: data.base() + l.vertex_bytes as u64 + s.start_index as u64 * isz as u64,
                stride: isz as u64,
            });
        }
    }
    // Streams of different sections must not share bytes.
    ranges.sort();
    for w in ranges.windows(2) {
        if w[1].0 < w[0].1 {
            errors.push(Error::bad_value(
                w[1].0,
                w[1].2.clone(),
                format!("overlaps {} (ends at 0x{:x})", w[0].2, w[0].1),
            ));
        }
    }
    (out, measured)
}

/// The resource's path of a record decoded from a chunk (`lod[0].section[1]`) or from the
/// trailing data (`trailing.lod[0].section[1]`).
fn resource_path(path: &str) -> &str {
    path.strip_prefix("trailing.").unwrap_or(path)
}

/// Gives each error that names a field of the resource that field's offset there, and
/// splits them from the errors in the chunk's own bytes: (resource's, chunk's).
pub fn in_resource(errors: Vec<Error>, resource: &[crate::span::Span]) -> (Vec<Error>, Vec<Error>) {
    let mut res = Vec::new();
    let mut own = Vec::new();
    for mut e in errors {
        match resource.iter().find(|s| s.path == e.path) {
            Some(s) => {
                e.offset = s.start;
                res.push(e);
            }
            None => own.push(e),
        }
    }
    (res, own)
}

fn truncate(out: &mut mesh::Lod, v0: usize, i0: usize, w: &Want) {
    out.indices.truncate(i0);
    out.positions.truncate(v0 * 3);
    out.normals.truncate(if w.normals { v0 * 3 } else { 0 });
    out.tangents.truncate(if w.tangents { v0 * 4 } else { 0 });
    out.colors.truncate(if w.colors { v0 * 4 } else { 0 });
    out.joints.truncate(if w.joints { v0 * 4 } else { 0 });
    out.weights.truncate(if w.weights { v0 * 4 } else { 0 });
    for u in out.uvs.iter_mut() {
        u.truncate(v0 * 2);
    }
}

/// One element of every vertex in a stream: where it is in each vertex, and its format.
#[derive(Clone, Copy)]
struct StreamElement<'a> {
    /// The stream's vertices.
    bytes: &'a [u8],
    stride: usize,
    /// The element's offset in a vertex, and its size.
    offset: usize,
    size: usize,
    format: u8,
}

/// Calls `f` with each vertex's bytes of one element.
#[inline]
fn each<F: FnMut(&[u8])>(e: &StreamElement, mut f: F) {
    for v in e.bytes.chunks_exact(e.stride) {
        if let Some(b) = v.get(e.offset..e.offset + e.size) {
            f(b);
        }
    }
}

/// Decodes every vertex's packed tangent space (usage 52) a block of `tangent::LANES` at a
/// time and appends the normals and the tangents (sign in w) to the arrays given.
fn packed_frames(
    e: &StreamElement,
    table: &tangent::AngleTable,
    mut normals: Option<&mut Vec<f32>>,
    mut tangents: Option<&mut Vec<f32>>,
) {
    let mut codes = [[0u8; 4]; tangent::LANES];
    let mut out = tangent::Block::default();
    let mut m = 0;
    let mut flush = |codes: &[[u8; 4]; tangent::LANES], m: usize| {
        tangent::decode_block(codes, table, &mut out);
        // A full block copies a fixed size (no call to a general copy per block).
        let m = m.min(tangent::LANES);
        if let Some(v) = normals.as_deref_mut() {
            if m == tangent::LANES {
                v.extend_from_slice(out.normals.as_flattened())
            } else {
                v.extend_from_slice(out.normals[..m].as_flattened())
            }
        }
        if let Some(v) = tangents.as_deref_mut() {
            if m == tangent::LANES {
                v.extend_from_slice(out.tangents.as_flattened())
            } else {
                v.extend_from_slice(out.tangents[..m].as_flattened())
            }
        }
    };
    each(e, |x| {
        if let [a, b, c, d, ..] = *x {
            codes[m] = [a, b, c, d];
            m += 1;
            if m == tangent::LANES {
                flush(&codes, m);
                m = 0;
            }
        }
    });
    if m > 0 {
        flush(&codes, m); // the lanes past m hold earlier codes and are not appended
    }
}

/// Appends `want` components of every vertex's element to `dst` (missing ones as `fill`).
/// The common formats get a loop of their own, the format's decode inlined with its id and
/// the component count fixed (no per-vertex dispatch on the id, fixed-size copies); the others
/// decode through the general match per vertex.
fn take(dst: &mut Vec<f32>, e: &StreamElement, want: usize, fill: f32) {
    match want {
        2 => take_w::<2>(dst, e, fill),
        3 => take_w::<3>(dst, e, fill),
        4 => take_w::<4>(dst, e, fill),
        _ => take_any(dst, e, want, fill),
    }
}

fn take_w<const W: usize>(dst: &mut Vec<f32>, e: &StreamElement, fill: f32) {
    macro_rules! typed {
        ($($id:literal)*) => {
            match e.format {
                $($id => take_fixed::<W>(dst, e, $id, fill),)*
                _ => take_fixed::<W>(dst, e, e.format, fill),
            }
        };
    }
    // Float2-4, Half2 and Half4, the byte and short formats of normals, colours and weights.
    typed!(0x02 0x03 0x04 0x06 0x08 0x0B 0x0C 0x0D 0x13 0x15 0x17 0x19)
}

/// The loop with `W` components: the array is sized once and each vertex's slot written, so
/// there is no capacity check or variable-length copy per vertex. Inlined, so that a constant
/// `format` (`e.format`, passed apart to be a constant) folds its decode's match away.
#[inline(always)]
fn take_fixed<const W: usize>(dst: &mut Vec<f32>, e: &StreamElement, format: u8, fill: f32) {
    let (bytes, stride, off, size) = (e.bytes, e.stride, e.offset, e.size);
    let start = dst.len();
    let n = bytes.len() / stride.max(1);
    dst.resize(start + n * W, 0.0);
    let Some(out) = dst.get_mut(start..) else { return };
    for (o, v) in out.chunks_exact_mut(W).zip(bytes.chunks_exact(stride.max(1))) {
        // (The element was checked to lie inside the stride; a vertex without it keeps zeros.)
        let Some(b) = v.get(off..off.saturating_add(size)) else { continue };
        let mut tmp = [0.0, 0.0, 0.0, fill];
        element_format::decode(format, b, &mut tmp);
        o.copy_from_slice(&tmp[..W]);
    }
}

/// The general loop: each vertex's element through `element_format::decode`.
fn take_any(dst: &mut Vec<f32>, e: &StreamElement, want: usize, fill: f32) {
    let mut tmp = [0f32; 4];
    each(e, |b| {
        tmp = [0.0, 0.0, 0.0, fill];
        element_format::decode(e.format, b, &mut tmp);
        dst.extend_from_slice(&tmp[..want.min(4)]);
    });
}

#[allow(clippy::too_many_arguments)]
fn section(
    f: &mut Fields,
    l: &Lod,
    k: usize,
    data: &Reader,
    path: &str,
    ranges: &mut Vec<(u64, u64, String)>,
    out: &mut mesh::Lod,
    w: &Want,
    table: &tangent::AngleTable,
) -> Result<usize> {
    let s = &l.sections[k];
    let d = &s.stored;
    let n = s.vertex_count as usize;
    // The section's first vertex in the LOD arrays: its indices are stored shifted by it.
    let v0 = out.positions.len() / 3;
    // Errors whose cause is a field of the resource name that field; `in_resource` gives it
    // its offset there.
    let rp = resource_path(path);
    let base = u32::try_from(v0)
        .ok()
        .filter(|b| b.checked_add(s.vertex_count).is_some())
        .ok_or_else(|| Error::limit(0, format!("{rp}.vertex_count"), "the LOD has more than 2^32 vertices"))?;
    // Each stream: its bytes and the elements it holds.
    let mut start = s.vertex_offset as usize;
    let streams = (d.stream_count as usize).min(16);
    // Vertices with no bytes at all would size the arrays from the count alone.
    if n > 0 && (0..streams).all(|st| d.stride(st) == 0) {
        return Err(Error::bad_value(
            0,
            format!("{rp}.vertex_count"),
            format!("{n} vertices but the stored declaration has no stream with a stride"),
        ));
    }
    let mut windows = Vec::with_capacity(streams);
    for st in 0..streams {
        let stride = d.stride(st) as usize;
        let sp = format!("{path}.stream[{st}]");
        let elems: Vec<(usize, &Element)> =
            d.used().iter().enumerate().filter(|(_, e)| e.stream as usize == st).collect();
        if stride == 0 {
            if !elems.is_empty() && n > 0 {
                return Err(Error::bad_value(
                    0,
                    format!("{rp}.stored_declaration.stream[{st}].stride"),
                    "elements on a stream of stride 0",
                ));
            }
            windows.push(None);
            continue;
        }
        let len = stride
            .checked_mul(n)
            .ok_or_else(|| Error::limit(0, format!("{rp}.vertex_count"), "stream size overflows"))?;
        let win = data.window(start, len).map_err(|e| Error::new(e.offset, sp.clone(), e.kind))?;
        ranges.push((win.base(), win.base() + len as u64, sp.clone()));
        let mut region =
            Region { start: win.base(), stride: stride as u64, count: n as u64, path: sp.clone(), elems: Vec::new() };
        for &(ei, e) in &elems {
            let Some((fname, size, _)) = element_format::info(e.format) else { continue };
            if e.offset as usize + size as usize > stride {
                return Err(Error::bad_value(
                    0,
                    format!("{rp}.stored_declaration.element[{ei}].offset"),
                    format!("element at offset {} of {size} bytes passes the stream stride {stride}", e.offset),
                ));
            }
            let (uname, conf) = usage(e.usage);
            region.elems.push(Elem {
                offset: e.offset as u64,
                len: size as u64,
                name: uname.into_owned(),
                ty: fname.into(),
                confidence: conf,
                note: "Stored streams occupy consecutive stride * vertex_count ranges from a section's vertex offset."
                    .into(),
                format: element_format::shower(e.format),
            });
        }
        region.elems.sort_by_key(|e| e.offset);
        f.add_region(region);
        windows.push(Some(win));
        start += len;
    }
    // Each array takes the first element of its usage; arrays the section lacks are filled.
    let find = |u: &[u8]| {
        d.used().iter().find_map(|e| {
            let Some(Some(win)) = windows.get(e.stream as usize) else { return None };
            let (_, size, _) = element_format::info(e.format)?;
            u.contains(&e.usage).then(|| StreamElement {
                bytes: win.data(),
                stride: d.stride(e.stream as usize) as usize,
                offset: e.offset as usize,
                size: size as usize,
                format: e.format,
            })
        })
    };
    let fill = |dst: &mut Vec<f32>, comps: usize, v: f32| dst.resize(dst.len() + n * comps, v);
    match find(&[1]) {
        Some(e) => take(&mut out.positions, &e, 3, 1.0),
        None => fill(&mut out.positions, 3, 0.0),
    }
    let packed = find(&[52]).filter(|x| x.size == 4);
    if let Some(e) = packed {
        // Packed tangent space gives the normal and the tangent with its sign in w.
        packed_frames(&e, table, w.normals.then_some(&mut out.normals), w.tangents.then_some(&mut out.tangents));
    } else {
        if w.normals {
            match find(&[6]) {
                Some(e) => take(&mut out.normals, &e, 3, 0.0),
                None => fill(&mut out.normals, 3, 0.0),
            }
        }
        if w.tangents {
            match find(&[7]) {
                Some(e) => take(&mut out.tangents, &e, 4, 1.0),
                None => fill(&mut out.tangents, 4, 0.0),
            }
        }
    }
    if w.colors {
        match find(&[30]) {
            Some(e) => take(&mut out.colors, &e, 4, 1.0),
            None => fill(&mut out.colors, 4, 1.0),
        }
    }
    if w.weights {
        match find(&[4]) {
            Some(e) => take(&mut out.weights, &e, 4, 0.0),
            None => fill(&mut out.weights, 4, 0.0),
        }
    }
    if w.joints {
        let mut tmp = Vec::with_capacity(n * 4);
        match find(&[2]) {
            Some(e) => take(&mut tmp, &e, 4, 0.0),
            None => fill(&mut tmp, 4, 0.0),
        }
        out.joints.extend(tmp.iter().map(|&v| v as u16));
    }
    for u in 0..w.uv_sets {
        let dst = &mut out.uvs[u];
        match find(&[33 + u as u8]) {
            Some(e) => take(dst, &e, 2, 0.0),
            None => dst.resize(dst.len() + n * 2, 0.0),
        }
    }
    // Indices.
    let Some(isz) = l.index_size() else {
        let lod = rp.rsplit_once(".section[").map_or(rp, |x| x.0);
        return Err(Error::unsupported(
            0,
            format!("{lod}.index_format"),
            format!("index format 0x{:x} is neither 0x21 nor 0x2e", l.index_format),
        ));
    };
    let count = (s.primitive_count as usize)
        .checked_mul(3)
        .ok_or_else(|| Error::limit(0, format!("{rp}.primitive_count"), "overflows"))?;
    let at = (l.vertex_bytes as usize).saturating_add((s.start_index as usize).saturating_mul(isz as usize));
    let ip = format!("{path}.indices");
    let len = count.checked_mul(isz as usize).ok_or_else(|| Error::limit(0, ip.clone(), "overflows"))?;
    let w = data.window(at, len).map_err(|e| Error::new(e.offset, ip.clone(), e.kind))?;
    let b = w.data();
    // Straight into the LOD's index array, shifted to LOD vertex numbers, keeping the largest
    // stored index to check once afterwards (the caller truncates the array on an error).
    // In pieces small enough to stay in cache: the largest of a piece first, then the piece
    // shifted, two loops the compiler vectorises where one with both did not.
    let i0 = out.indices.len();
    let mut max = 0u32;
    for piece in b.chunks(16 * 1024) {
        if isz == 2 {
            let v = || piece.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as u32);
            max = max.max(v().max().unwrap_or(0));
            out.indices.extend(v().map(|i| i.wrapping_add(base)));
        } else {
            let v = || piece.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            max = max.max(v().max().unwrap_or(0));
            out.indices.extend(v().map(|i| i.wrapping_add(base)));
        }
    }
    let indices = out.indices.get(i0..).unwrap_or(&[]);
    if !indices.is_empty() && max as usize >= n {
        let j = indices.iter().position(|&i| i.wrapping_sub(base) as usize >= n).unwrap_or(0);
        let idx = indices.get(j).map_or(0, |&i| i.wrapping_sub(base));
        return Err(Error::bad_value(
            w.base() + (j * isz as usize) as u64,
            format!("{ip}[{j}]"),
            format!("index {idx} names no vertex of the section's {n}"),
        ));
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
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_loops_give_what_the_general_decode_gives() {
        // Random bytes (NaN and infinite halves and floats among them) as vertices of stride
        // size + 3 with the element at offset 1, for every listed format and every count of
        // components asked: the typed, fixed-count loops against the general one, bit for bit.
        let mut seed = 9u64;
        let bytes: Vec<u8> = (0..40 * 19)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (seed >> 56) as u8
            })
            .collect();
        for id in 0..=255u8 {
            let Some((_, size, _)) = element_format::info(id) else { continue };
            let (size, stride) = (size as usize, size as usize + 3);
            let b = &bytes[..stride * 40];
            for want in 1..=4 {
                let (mut x, mut y) = (vec![9.0f32], vec![9.0f32]);
                let e = StreamElement { bytes: b, stride, offset: 1, size, format: id };
                take(&mut x, &e, want, 0.5);
                take_any(&mut y, &e, want, 0.5);
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&x), bits(&y), "format {id:#x}, {want} components");
                assert_eq!(x.len(), 1 + 40 * want);
            }
        }
    }
}
