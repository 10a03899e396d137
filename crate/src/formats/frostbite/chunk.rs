//! A LOD's geometry, from its chunk or from the resource's trailing data: each section's stored
//! streams back to back from its vertex offset (`stride * vertex_count` each), the index buffer
//! at the LOD's vertex buffer byte count, indices counted from the section's start index.

use super::declaration::{usage, Element};
use super::element_format;
use super::lod::{Lod, PASSES};
use super::measures::{measure_from, Measured};
use super::section::Section;
use super::tangent;
use crate::error::{Error, Result};
use crate::mesh::{self, Source};
use crate::read::Reader;
use crate::short::Short;
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
            bones: s.bones.iter().map(|&b| super::stored::bone_name(b as u32)).collect(),
            ..Default::default()
        });
        istart = istart.saturating_add(ic);
        vstart = vstart.saturating_add(s.vertex_count);
    }
    out
}

/// The passes whose lists hold section `k`.
pub fn passes_of(l: &Lod, k: usize) -> Vec<Short> {
    (0..5).filter(|&p| l.lists[p].iter().any(|&x| x as usize == k)).map(|p| Short::from_static(PASSES[p])).collect()
}

/// A LOD's records and the geometry its sections are decoded from.
struct LodInput<'a> {
    lod: &'a Lod,
    /// The geometry: byte 0 is the vertex buffer's start.
    data: &'a Reader<'a>,
    /// The file the geometry is in, as `Source::file` counts them.
    file: u32,
    want: Want,
    table: &'static tangent::AngleTable,
}

/// One section of a LOD to decode, and the path its spans go under.
struct SectionInput<'a> {
    lod: &'a LodInput<'a>,
    k: usize,
    /// `{prefix}.section[k]`.
    path: String,
}

impl<'a> SectionInput<'a> {
    fn records(&self) -> &'a Section {
        &self.lod.lod.sections[self.k]
    }

    fn vertex_count(&self) -> usize {
        self.records().vertex_count as usize
    }

    /// Errors whose cause is a field of the resource name that field; `in_resource` gives it
    /// its offset there.
    fn resource_path(&self) -> &str {
        resource_path(&self.path)
    }
}

/// The bytes one stream of a section occupies in the geometry (ordered by start, then end).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct StreamBytes {
    start: u64,
    end: u64,
    /// The stream's path (`lod[0].section[1].stream[0]`).
    path: String,
}

/// Where a section's geometry starts in the LOD's arrays, and how many vertices it added.
#[derive(Clone, Copy)]
struct Placed {
    first_vertex: usize,
    first_index: usize,
    vertex_count: usize,
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
    let input = LodInput { lod: l, data, file, want: want(l), table: tangent::AngleTable::shared() };
    let mut out = skeleton(l);
    reserve(&mut out, &input);
    let mut streams: Vec<StreamBytes> = Vec::new();
    let mut measured = Vec::with_capacity(l.sections.len());
    for k in 0..l.sections.len() {
        let sec = SectionInput { lod: &input, k, path: format!("{prefix}.section[{k}]") };
        let mut at = Placed { first_vertex: out.positions.len() / 3, first_index: out.indices.len(), vertex_count: 0 };
        let regions = f.regions.len();
        match section(&sec, f, &mut streams, &mut out) {
            Ok(n) => at.vertex_count = n,
            Err(e) => {
                // The section keeps no geometry; the arrays go back to where it started.
                errors.push(e);
                f.regions.truncate(regions);
                truncate(&mut out, at.first_vertex, at.first_index, &input.want);
            }
        }
        measured.push(measure(&out, sec.records(), at));
        place(&mut out.sections[k], &sec, at, out.indices.len());
    }
    overlaps(streams, errors);
    (out, measured)
}

/// Room for every vertex up front (bounded by the bytes there are), so the arrays do not grow
/// by copying.
fn reserve(out: &mut mesh::Lod, input: &LodInput) {
    let (l, len, w) = (input.lod, input.data.len(), &input.want);
    let total: usize = l.sections.iter().map(|s| s.vertex_count as usize).sum::<usize>().min(len / 4);
    let tris: usize = l.sections.iter().map(|s| s.primitive_count as usize * 3).sum::<usize>().min(len / 2);
    out.positions.reserve(total * 3);
    out.indices.reserve(tris);
    if w.normals {
        out.normals.reserve(total * 3);
    }
    if w.tangents {
        out.tangents.reserve(total * 4);
    }
    out.uvs = (0..w.uv_sets).map(|_| Vec::with_capacity(total * 2)).collect();
}

/// The measures of the section placed `at` (from its first vertex and index to the arrays' end).
fn measure(out: &mesh::Lod, s: &Section, at: Placed) -> Measured {
    let v0 = at.first_vertex;
    let uv = |u: usize| out.uvs.get(u).and_then(|a| a.get(v0 * 2..)).filter(|a| !a.is_empty());
    let pos = out.positions.get(v0 * 3..).unwrap_or(&[]);
    let st = &s.stored;
    let uvs = [uv(0).filter(|_| st.has_usage(33)), uv(1).filter(|_| st.has_usage(34))];
    // The section's indices hold LOD vertex numbers; the measures count them from v0.
    let idx = out.indices.get(at.first_index..).unwrap_or(&[]);
    measure_from(pos, uvs, idx, v0 as u32)
}

/// The mesh section's place in the LOD's arrays (up to `index_end`) and in the file.
fn place(out: &mut mesh::Section, sec: &SectionInput, at: Placed, index_end: usize) {
    let (l, s, data) = (sec.lod.lod, sec.records(), sec.lod.data);
    let file = sec.lod.file;
    out.index_start = at.first_index as u32;
    out.index_count = (index_end - at.first_index) as u32;
    out.vertex_start = at.first_vertex as u32;
    out.vertex_count = at.vertex_count as u32;
    out.vertex_source =
        Some(Source { file, offset: data.base() + s.vertex_offset as u64, stride: s.stored.stride(0) as u64 });
    if let Some(isz) = l.index_size() {
        out.index_source = Some(Source {
            file,
            offset: data.base() + l.vertex_bytes as u64 + s.start_index as u64 * isz as u64,
            stride: isz as u64,
        });
    }
}

/// Streams of different sections must not share bytes: an error for each that starts inside
/// the one before it.
fn overlaps(mut streams: Vec<StreamBytes>, errors: &mut Vec<Error>) {
    streams.sort();
    for w in streams.windows(2) {
        if w[1].start < w[0].end {
            errors.push(Error::bad_value(
                w[1].start,
                w[1].path.clone(),
                format!("overlaps {} (ends at 0x{:x})", w[0].path, w[0].end),
            ));
        }
    }
}

/// The resource's path of a record decoded from a chunk (`lod[0].section[1]`) or from the
/// trailing data (`trailing.lod[0].section[1]`).
fn resource_path(path: &str) -> &str {
    path.strip_prefix("trailing.").unwrap_or(path)
}

/// Gives each error that names a field of the resource (spans `resource` over bytes `file`)
/// that field's offset there, and splits them from the errors in the chunk's own bytes:
/// (resource's, chunk's).
pub fn in_resource(errors: Vec<Error>, resource: &[crate::span::Span], file: &[u8]) -> (Vec<Error>, Vec<Error>) {
    let mut res = Vec::new();
    let mut own = Vec::new();
    for mut e in errors {
        match crate::laid::field_start(resource, &e.path, file) {
            Some(start) => {
                e.offset = start;
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

/// How an array takes its usage's element: the components a vertex, the last component where
/// the element's format has fewer, and each component's value in a section without the usage.
#[derive(Clone, Copy)]
struct Array {
    usage: u8,
    components: usize,
    w: f32,
    missing: f32,
}

const POSITIONS: Array = Array { usage: 1, components: 3, w: 1.0, missing: 0.0 };
const NORMALS: Array = Array { usage: 6, components: 3, w: 0.0, missing: 0.0 };
const TANGENTS: Array = Array { usage: 7, components: 4, w: 1.0, missing: 0.0 };
const COLORS: Array = Array { usage: 30, components: 4, w: 1.0, missing: 1.0 };
const WEIGHTS: Array = Array { usage: 4, components: 4, w: 0.0, missing: 0.0 };
const JOINTS: Array = Array { usage: 2, components: 4, w: 0.0, missing: 0.0 };
/// Usage 52: the normal and the tangent (sign in w), packed in 4 bytes.
const PACKED_FRAME: u8 = 52;

fn uv_set(u: usize) -> Array {
    Array { usage: 33 + u as u8, components: 2, w: 0.0, missing: 0.0 }
}

/// A section's stored streams, as windows of the geometry (`None`: a stream of stride 0).
struct Streams<'a> {
    section: &'a Section,
    windows: Vec<Option<Reader<'a>>>,
}

impl<'a> Streams<'a> {
    /// The first element of `usage` in a stream with bytes, in a format we know.
    fn find(&self, usage: u8) -> Option<StreamElement<'a>> {
        let d = &self.section.stored;
        d.used().iter().find_map(|e| {
            let Some(Some(win)) = self.windows.get(e.stream as usize) else { return None };
            let (_, size, _) = element_format::info(e.format)?;
            (e.usage == usage).then(|| StreamElement {
                bytes: win.data(),
                stride: d.stride(e.stream as usize) as usize,
                offset: e.offset as usize,
                size: size as usize,
                format: e.format,
            })
        })
    }

    /// Appends every vertex's `array` to `dst`: the first element of its usage, or the
    /// missing value when the section has none.
    fn append(&self, dst: &mut Vec<f32>, array: Array) {
        match self.find(array.usage) {
            Some(e) => take(dst, &e, array.components, array.w),
            None => dst.resize(dst.len() + self.section.vertex_count as usize * array.components, array.missing),
        }
    }
}

/// Decodes one section into the LOD's arrays: its streams (regions, and their bytes in
/// `streams` for the overlap check), its vertex arrays, its indices. The vertex count on
/// success; on an error the caller truncates the arrays and the regions.
fn section(sec: &SectionInput, f: &mut Fields, streams: &mut Vec<StreamBytes>, out: &mut mesh::Lod) -> Result<usize> {
    let base = first_vertex(sec, out.positions.len() / 3)?;
    let windows = Streams { section: sec.records(), windows: stream_windows(sec, f, streams)? };
    vertex_arrays(&windows, &sec.lod.want, sec.lod.table, out);
    indices(sec, base, f, out)?;
    Ok(sec.vertex_count())
}

/// The section's first vertex in the LOD arrays (`v0`, what its stored indices are shifted
/// by), checked so that all its vertices are numbered in a u32.
fn first_vertex(sec: &SectionInput, v0: usize) -> Result<u32> {
    u32::try_from(v0).ok().filter(|b| b.checked_add(sec.records().vertex_count).is_some()).ok_or_else(|| {
        Error::limit(0, format!("{}.vertex_count", sec.resource_path()), "the LOD has more than 2^32 vertices")
    })
}

/// Each stored stream's window of the geometry, back to back from the section's vertex
/// offset, with its region.
fn stream_windows<'a>(
    sec: &SectionInput<'a>,
    f: &mut Fields,
    streams: &mut Vec<StreamBytes>,
) -> Result<Vec<Option<Reader<'a>>>> {
    let d = &sec.records().stored;
    let n = sec.vertex_count();
    let count = (d.stream_count as usize).min(16);
    // Vertices with no bytes at all would size the arrays from the count alone.
    if n > 0 && (0..count).all(|st| d.stride(st) == 0) {
        return Err(Error::bad_value(
            0,
            format!("{}.vertex_count", sec.resource_path()),
            format!("{n} vertices but the stored declaration has no stream with a stride"),
        ));
    }
    let mut start = sec.records().vertex_offset as usize;
    let mut windows = Vec::with_capacity(count);
    for st in 0..count {
        let win = stream_window(sec, st, start, f, streams)?;
        start += win.as_ref().map_or(0, |w| w.len());
        windows.push(win);
    }
    Ok(windows)
}

/// Stream `st`'s window, from `start` (`None` for a stride of 0), its bytes pushed to
/// `streams` and its region to `f`.
fn stream_window<'a>(
    sec: &SectionInput<'a>,
    st: usize,
    start: usize,
    f: &mut Fields,
    streams: &mut Vec<StreamBytes>,
) -> Result<Option<Reader<'a>>> {
    let d = &sec.records().stored;
    let (n, rp) = (sec.vertex_count(), sec.resource_path());
    let stride = d.stride(st) as usize;
    let sp = format!("{}.stream[{st}]", sec.path);
    let elems: Vec<(usize, &Element)> = d.used().iter().enumerate().filter(|(_, e)| e.stream as usize == st).collect();
    if stride == 0 {
        if !elems.is_empty() && n > 0 {
            return Err(Error::bad_value(
                0,
                format!("{rp}.stored_declaration.stream[{st}].stride"),
                "elements on a stream of stride 0",
            ));
        }
        return Ok(None);
    }
    let len =
        stride.checked_mul(n).ok_or_else(|| Error::limit(0, format!("{rp}.vertex_count"), "stream size overflows"))?;
    let win = sec.lod.data.window(start, len).map_err(|e| Error::new(e.offset, sp.clone(), e.kind))?;
    streams.push(StreamBytes { start: win.base(), end: win.base() + len as u64, path: sp.clone() });
    let mut region = Region { start: win.base(), stride: stride as u64, count: n as u64, path: sp, elems: Vec::new() };
    for &(ei, e) in &elems {
        region.elems.extend(stream_elem(rp, ei, e, stride)?);
    }
    region.elems.sort_by_key(|e| e.offset);
    f.add_region(region);
    Ok(Some(win))
}

/// The region element of declaration element `ei` (`None` for a format we do not know);
/// an error when it does not fit in the stride.
fn stream_elem(rp: &str, ei: usize, e: &Element, stride: usize) -> Result<Option<Elem>> {
    let Some((fname, size, _)) = element_format::info(e.format) else { return Ok(None) };
    if e.offset as usize + size as usize > stride {
        return Err(Error::bad_value(
            0,
            format!("{rp}.stored_declaration.element[{ei}].offset"),
            format!("element at offset {} of {size} bytes passes the stream stride {stride}", e.offset),
        ));
    }
    let (uname, conf) = usage(e.usage);
    Ok(Some(Elem {
        offset: e.offset as u64,
        len: size as u64,
        name: uname.into_owned(),
        ty: fname.into(),
        confidence: conf,
        note: "Stored streams occupy consecutive stride * vertex_count ranges from a section's vertex offset.".into(),
        format: element_format::shower(e.format),
    }))
}

/// Appends the section's vertices to each array the LOD fills: each takes the first element
/// of its usage, arrays the section lacks are filled.
fn vertex_arrays(streams: &Streams, w: &Want, table: &tangent::AngleTable, out: &mut mesh::Lod) {
    streams.append(&mut out.positions, POSITIONS);
    if let Some(e) = streams.find(PACKED_FRAME).filter(|x| x.size == 4) {
        packed_frames(&e, table, w.normals.then_some(&mut out.normals), w.tangents.then_some(&mut out.tangents));
    } else {
        if w.normals {
            streams.append(&mut out.normals, NORMALS);
        }
        if w.tangents {
            streams.append(&mut out.tangents, TANGENTS);
        }
    }
    if w.colors {
        streams.append(&mut out.colors, COLORS);
    }
    if w.weights {
        streams.append(&mut out.weights, WEIGHTS);
    }
    if w.joints {
        let mut tmp = Vec::with_capacity(streams.section.vertex_count as usize * 4);
        streams.append(&mut tmp, JOINTS);
        out.joints.extend(tmp.iter().map(|&v| v as u16));
    }
    for (u, dst) in out.uvs.iter_mut().enumerate().take(w.uv_sets) {
        streams.append(dst, uv_set(u));
    }
}

/// Appends the section's indices to the LOD's, shifted by `base` to LOD vertex numbers, and
/// adds their region; an error when one names no vertex of the section.
fn indices(sec: &SectionInput, base: u32, f: &mut Fields, out: &mut mesh::Lod) -> Result<()> {
    let (l, s, rp) = (sec.lod.lod, sec.records(), sec.resource_path());
    let n = sec.vertex_count();
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
    let ip = format!("{}.indices", sec.path);
    let len = count.checked_mul(isz as usize).ok_or_else(|| Error::limit(0, ip.clone(), "overflows"))?;
    let w = sec.lod.data.window(at, len).map_err(|e| Error::new(e.offset, ip.clone(), e.kind))?;
    let i0 = out.indices.len();
    let max = append_shifted(&mut out.indices, w.data(), isz, base);
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
    f.add_region(index_region(w.base(), isz, count, ip));
    Ok(())
}

/// Appends the stored indices (`isz` bytes each) to `dst` shifted by `base`, and gives the
/// largest stored one, to check once afterwards (the caller truncates `dst` on an error).
/// In pieces small enough to stay in cache: the largest of a piece first, then the piece
/// shifted, two loops the compiler vectorises where one with both did not.
fn append_shifted(dst: &mut Vec<u32>, bytes: &[u8], isz: u32, base: u32) -> u32 {
    let mut max = 0u32;
    for piece in bytes.chunks(16 * 1024) {
        if isz == 2 {
            let v = || piece.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as u32);
            max = max.max(v().max().unwrap_or(0));
            dst.extend(v().map(|i| i.wrapping_add(base)));
        } else {
            let v = || piece.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            max = max.max(v().max().unwrap_or(0));
            dst.extend(v().map(|i| i.wrapping_add(base)));
        }
    }
    max
}

/// The region of a section's `count` indices of `isz` bytes from `start`.
fn index_region(start: u64, isz: u32, count: usize, path: String) -> Region {
    Region {
        start,
        stride: isz as u64,
        count: count as u64,
        path,
        elems: vec![Elem {
            offset: 0,
            len: isz as u64,
            name: String::new(),
            ty: if isz == 2 { "u16".into() } else { "u32".into() },
            confidence: Confidence::Proven,
            note: "In the geometry chunk the index data starts at the vertex buffer byte count; indices are relative to their section.".into(),
            format: if isz == 2 { show_u16 } else { show_u32 },
        }],
    }
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
