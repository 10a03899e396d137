//! The chunk loop's readers for everything but the submeshes (spec "Chunk ID loading loop").
//! Each reads exactly its chunk's bytes, recording fields as it goes, so a failure keeps
//! every span before it.

use super::format as fmt;
use super::{submesh, Buf, Chunk, Magic, Parsed, VENDOR};
use crate::error::{Error, Result};
use crate::field::{show_hex_cut, show_text};
use crate::read::Reader;
use crate::short::PathText;
use crate::span::{Confidence, Elem, Fields, Kind, Region};

const P: Confidence = Confidence::Proven;

/// The chunk ids of the spec's loop, as static names.
pub fn known_id(b: &[u8], _magic: Magic) -> Option<&'static str> {
    const IDS: [&str; 14] = [
        "INDX", "IND4", "VERT", "BAS2", "InfG", "BNDS", "ADJA", "SHDW", "MROR", "MARK", "SKIN", "MESH", "SBM1", "SUBM",
    ];
    IDS.iter().copied().find(|id| id.as_bytes() == b)
}

/// A name: u8 length, then that many bytes (spec "string8"; every sample agrees).
pub fn name(f: &mut Fields, r: &mut Reader, path: &str, conf: Confidence, note: &'static str) -> Result<Vec<u8>> {
    let n: u8 = f.read(r, PathText::concat(&[path, ".length"]), conf, note)?;
    let text_path = PathText::concat(&[path, ".text"]);
    let start = r.offset();
    let b = r.bytes(n as usize).map_err(|e| e.at_path(&text_path))?;
    if n > 0 {
        let value = f.value_of(r, n as u64, Kind::Text, || show_text(b));
        f.add(start, n as u64, text_path, "char[]", value, conf, note);
    }
    Ok(b.to_vec())
}

/// A signed count that must not be negative, recorded as the field `path`.
pub fn count_i32(f: &mut Fields, r: &mut Reader, path: &str, conf: Confidence, note: &'static str) -> Result<u32> {
    let at = r.offset();
    let v: i32 = f.read(r, path, conf, note)?;
    u32::try_from(v).map_err(|_| Error::bad_value(at, path, format!("negative count {v}")))
}

fn elem(len: u64, name: &str, ty: &'static str, note: &'static str, format: fn(&[u8]) -> String) -> Elem {
    Elem { offset: 0, len, name: name.into(), ty: ty.into(), confidence: P, note: note.into(), format }
}

/// Reads `count` elements of `stride` bytes as one region at `path` (as far as whole
/// elements go: a cut is recorded in `p`); returns the whole elements' bytes.
fn array<'a>(p: &mut Parsed, r: &mut Reader<'a>, count: u32, stride: u64, path: &str, e: Elem) -> &'a [u8] {
    let start = r.offset();
    let t = p.fields.elements(r, count as u64, stride, path);
    if t.count > 0 {
        p.fields.add_region(Region { start, stride, count: t.count, path: path.into(), elems: vec![e] });
    }
    cut(p, t.cut);
    t.bytes
}

/// A cut region ends the chunk loop: the file has no bytes after it.
fn cut(p: &mut Parsed, e: Option<Error>) {
    if let Some(e) = e {
        p.errors.push(e);
        p.stopped = true;
    }
}

/// Reads one chunk whose id `id` is at the cursor; `path` names it.
pub fn read_chunk(p: &mut Parsed, r: &mut Reader, id: &'static str, path: &str) -> Result<Chunk> {
    let chunk_at = r.offset();
    p.fields.fourcc(r, PathText::concat(&[path, ".id"]), P, VENDOR)?;
    Ok(match id {
        "INDX" | "IND4" => read_indices(p, r, id == "IND4", path)?,
        "VERT" => read_vert(p, r, path)?,
        "BAS2" => read_bas2(&mut p.fields, r, path)?,
        "InfG" => read_infg(p, r, path)?,
        "BNDS" => {
            p.places.bnds.get_or_insert(r.offset());
            let f = &mut p.fields;
            Chunk::Bnds {
                min: f.read(r, PathText::concat(&[path, ".min"]), P, VENDOR)?,
                max: f.read(r, PathText::concat(&[path, ".max"]), P, VENDOR)?,
            }
        }
        "ADJA" => read_adja(p, r, path)?,
        "SHDW" => {
            let n = face_count(&mut p.fields, &mut p.places.face_counts, r, path)?;
            let e = elem(1, "", "u8", "vendor description: 1 casts shadows, 0 does not", fmt::shadow);
            Chunk::Shdw(array(p, r, n, 1, &PathText::concat(&[path, ".shadow_infos"]), e).to_vec())
        }
        "MROR" => Chunk::Mror,
        "MARK" => read_mark(p, r, path)?,
        "SKIN" => read_skin(&mut p.fields, r, path)?,
        "MESH" => Chunk::Mesh(submesh::read_mesh(p, r, path)?),
        "SBM1" => Chunk::Sbm1(submesh::read_sbm1(p, r, path)?),
        "SUBM" if p.ply.magic == Magic::Pm01 => Chunk::Subm(submesh::read_subm_gem3(p, r, path)?),
        "SUBM" => Chunk::SubmAs2(submesh::read_subm_as2(p, r, path)?),
        other => return Err(Error::unsupported(chunk_at, path, format!("no reader for chunk {other}"))),
    })
}

/// `INDX` (u16) or `IND4` (u32): a count, then the indices.
fn read_indices(p: &mut Parsed, r: &mut Reader, wide: bool, path: &str) -> Result<Chunk> {
    let n = count_i32(&mut p.fields, r, &PathText::concat(&[path, ".index_count"]), P, VENDOR)?;
    let (w, ty) = if wide { (4, "u32") } else { (2, "u16") };
    let at = r.offset();
    let ip = PathText::concat(&[path, ".indices"]);
    let b = array(p, r, n, w, &ip, elem(w, "", ty, VENDOR, fmt::uint));
    if p.places.index_data.is_none() {
        p.places.index_data = Some((at, ip.into()));
    }
    Ok(Chunk::Indices { wide, data: Buf::File { start: at as usize, len: b.len() } })
}

/// `VERT`: count, vertex size, flags, then the vertices, whose layout the submeshes give
/// (the region is recorded after the chunk loop, `extract`).
fn read_vert(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<Chunk> {
    let f = &mut p.fields;
    let count = count_i32(f, r, &PathText::concat(&[path, ".vertex_count"]), P, VENDOR)?;
    let size: u16 = f.read(r, PathText::concat(&[path, ".vertex_size"]), P, VENDOR)?;
    const NAMES: [(u64, &str); 3] = [(1, "full color"), (2, "optimized order"), (4, "color verified")];
    let note = "vendor description: without full color, colors are doubled after loading";
    let flags: u16 = f.flags(r, PathText::concat(&[path, ".vertex_flags"]), &NAMES, P, note)?;
    let at = r.offset();
    let t = f.elements(r, count as u64, size as u64, &PathText::concat(&[path, ".vertices"]));
    let len = t.bytes.len();
    cut(p, t.cut);
    if p.places.vert_data.is_none() {
        p.places.vert_data = Some(at);
    }
    Ok(Chunk::Vert { count, size, flags, data: Buf::File { start: at as usize, len } })
}

/// `BAS2`: the polygon and texture bases, center and two axes each.
fn read_bas2(f: &mut Fields, r: &mut Reader, path: &str) -> Result<Chunk> {
    let mut v = [[[0f32; 2]; 3]; 2];
    for (g, group) in ["polygons", "texture"].iter().enumerate() {
        for (k, field) in ["center", "axis_x", "axis_y"].iter().enumerate() {
            v[g][k] = f.read(r, format!("{path}.{group}.{field}"), P, VENDOR)?;
        }
    }
    Ok(Chunk::Bas2 { polygons: v[0], texture: v[1] })
}

/// `InfG`: grid start and end, then a u16 per face.
fn read_infg(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<Chunk> {
    let f = &mut p.fields;
    let mut xy = [[0i32; 2]; 2];
    for (pair, field) in xy.iter_mut().zip(["grid_start_xy", "grid_end_xy"]) {
        for (i, v) in pair.iter_mut().enumerate() {
            *v = f.read(r, format!("{path}.{field}[{i}]"), P, VENDOR)?;
        }
    }
    let cp = PathText::concat(&[path, ".face_count"]);
    let at = r.offset();
    let n: u32 = f.read(r, cp.clone(), P, VENDOR)?;
    p.places.face_counts.push((cp.into(), at, n as u64));
    let e = elem(2, "", "u16 submesh:15 invalid:1", VENDOR, fmt::grid_face);
    let b = array(p, r, n, 2, &PathText::concat(&[path, ".faces"]), e);
    let faces = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    Ok(Chunk::InfG { start: xy[0], end: xy[1], faces })
}

/// `ADJA`: three neighbour faces per face.
fn read_adja(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<Chunk> {
    let n = face_count(&mut p.fields, &mut p.places.face_counts, r, path)?;
    let e = elem(6, "neighbours", "u16[3]", "vendor description: 0xFFFF = no neighbour", fmt::neighbours);
    let b = array(p, r, n, 6, &PathText::concat(&[path, ".adjacencies"]), e);
    let u16_at = |c: &[u8], k: usize| u16::from_le_bytes([c[2 * k], c[2 * k + 1]]);
    Ok(Chunk::Adja(b.chunks_exact(6).map(|c| [u16_at(c, 0), u16_at(c, 1), u16_at(c, 2)]).collect()))
}

/// `MARK`: a byte count, then that many bytes.
fn read_mark(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<Chunk> {
    let n: u32 = p.fields.read(r, PathText::concat(&[path, ".mark_size"]), P, VENDOR)?;
    let mp = PathText::concat(&[path, ".marks"]);
    let at = r.offset();
    let t = p.fields.elements(r, n as u64, 1, &mp);
    if !t.bytes.is_empty() {
        let b = t.bytes;
        let value = p.fields.value_of(r, t.count, Kind::Hex, || show_hex_cut(b));
        p.fields.add(at, t.count, mp, format!("u8[{}]", t.count), value, P, VENDOR);
    }
    let b = t.bytes.to_vec();
    cut(p, t.cut);
    Ok(Chunk::Mark(b))
}

/// `SKIN`: a bone count, then the bone names.
fn read_skin(f: &mut Fields, r: &mut Reader, path: &str) -> Result<Chunk> {
    let cp = PathText::concat(&[path, ".bone_count"]);
    let n: u32 = f.read(r, cp.clone(), P, VENDOR)?;
    // Each name takes at least its length byte.
    r.check_count(n as u64, 1, &cp)?;
    let mut names = Vec::with_capacity(n as usize);
    for i in 0..n {
        names.push(name(f, r, &format!("{path}.bone_names[{i}]"), P, VENDOR)?);
    }
    Ok(Chunk::Skin(names))
}
/// A per-face chunk's face count (ADJA, SHDW), kept for the check that it equals the triangles.
fn face_count(f: &mut Fields, counts: &mut Vec<(String, u64, u64)>, r: &mut Reader, path: &str) -> Result<u32> {
    let cp = PathText::concat(&[path, ".face_count"]);
    let at = r.offset();
    let n = count_i32(f, r, &cp, P, VENDOR)?;
    counts.push((cp.into(), at, n as u64));
    Ok(n)
}
