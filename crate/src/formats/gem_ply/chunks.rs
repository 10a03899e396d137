//! The chunk loop's readers for everything but the submeshes (spec "Chunk ID loading loop").
//! Each reads exactly its chunk's bytes, recording fields as it goes, so a failure keeps
//! every span before it.

use super::format as fmt;
use super::{submesh, Buf, Chunk, Magic, Parsed, VENDOR};
use crate::error::{Error, Result};
use crate::field::show_text;
use crate::read::Reader;
use crate::span::{Confidence, Elem, Fields, Region};

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
    let n: u8 = f.read(r, format!("{path}.length"), conf, note)?;
    let text_path = format!("{path}.text");
    let start = r.offset();
    let b = r.bytes(n as usize).map_err(|e| e.at_path(&text_path))?;
    if n > 0 {
        f.add(start, n as u64, text_path, "char[]", show_text(b), conf, note);
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

/// Reads `count` elements of `stride` bytes as one region at `path`; returns the bytes.
fn array<'a>(f: &mut Fields, r: &mut Reader<'a>, count: u32, stride: u64, path: &str, e: Elem) -> Result<&'a [u8]> {
    let len = r.check_count(count as u64, stride, path)?;
    let start = r.offset();
    let b = r.bytes(len).map_err(|e| e.at_path(path))?;
    if count > 0 {
        f.add_region(Region { start, stride, count: count as u64, path: path.into(), elems: vec![e] });
    }
    Ok(b)
}

pub fn read_chunk(p: &mut Parsed, r: &mut Reader, id: &'static str, path: &str) -> Result<Chunk> {
    let f = &mut p.fields;
    let chunk_at = r.offset();
    f.fourcc(r, format!("{path}.id"), P, VENDOR)?;
    let c = match id {
        "INDX" | "IND4" => {
            let wide = id == "IND4";
            let n = count_i32(f, r, &format!("{path}.index_count"), P, VENDOR)?;
            let (w, ty) = if wide { (4, "u32") } else { (2, "u16") };
            let at = r.offset();
            let ip = format!("{path}.indices");
            let b = array(f, r, n, w, &ip, elem(w, "", ty, VENDOR, fmt::uint))?;
            if p.places.index_data.is_none() {
                p.places.index_data = Some((at, ip));
            }
            Chunk::Indices { wide, data: Buf::File { start: at as usize, len: b.len() } }
        }
        "VERT" => {
            let count = count_i32(f, r, &format!("{path}.vertex_count"), P, VENDOR)?;
            let size: u16 = f.read(r, format!("{path}.vertex_size"), P, VENDOR)?;
            let flags: u16 = f.flags(
                r,
                format!("{path}.vertex_flags"),
                &[(1, "full color"), (2, "optimized order"), (4, "color verified")],
                P,
                "vendor description: without full color, colors are doubled after loading",
            )?;
            let vp = format!("{path}.vertices");
            let len = r.check_count(count as u64, size as u64, &vp)?;
            let at = r.offset();
            let b = r.bytes(len).map_err(|e| e.at_path(&vp))?;
            if p.places.vert_data.is_none() {
                p.places.vert_data = Some(at);
            }
            Chunk::Vert { count, size, flags, data: Buf::File { start: at as usize, len: b.len() } }
        }
        "BAS2" => {
            let mut v = [[[0f32; 2]; 3]; 2];
            for (g, group) in ["polygons", "texture"].iter().enumerate() {
                for (k, field) in ["center", "axis_x", "axis_y"].iter().enumerate() {
                    v[g][k] = f.read(r, format!("{path}.{group}.{field}"), P, VENDOR)?;
                }
            }
            Chunk::Bas2 { polygons: v[0], texture: v[1] }
        }
        "InfG" => {
            let start: [i32; 2] = [
                f.read(r, format!("{path}.grid_start_xy[0]"), P, VENDOR)?,
                f.read(r, format!("{path}.grid_start_xy[1]"), P, VENDOR)?,
            ];
            let end: [i32; 2] = [
                f.read(r, format!("{path}.grid_end_xy[0]"), P, VENDOR)?,
                f.read(r, format!("{path}.grid_end_xy[1]"), P, VENDOR)?,
            ];
            let cp = format!("{path}.face_count");
            let at = r.offset();
            let n: u32 = f.read(r, &cp, P, VENDOR)?;
            p.places.face_counts.push((cp, at, n as u64));
            let fp = format!("{path}.faces");
            let b = array(f, r, n, 2, &fp, elem(2, "", "u16 submesh:15 invalid:1", VENDOR, fmt::grid_face))?;
            let faces = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
            Chunk::InfG { start, end, faces }
        }
        "BNDS" => {
            if p.places.bnds.is_none() {
                p.places.bnds = Some(r.offset());
            }
            let min = f.read(r, format!("{path}.min"), P, VENDOR)?;
            let max = f.read(r, format!("{path}.max"), P, VENDOR)?;
            Chunk::Bnds { min, max }
        }
        "ADJA" => {
            let n = face_count(f, &mut p.places.face_counts, r, path)?;
            let ap = format!("{path}.adjacencies");
            let e = elem(6, "neighbours", "u16[3]", "vendor description: 0xFFFF = no neighbour", fmt::neighbours);
            let b = array(f, r, n, 6, &ap, e)?;
            let faces = b
                .chunks_exact(6)
                .map(|c| {
                    [
                        u16::from_le_bytes([c[0], c[1]]),
                        u16::from_le_bytes([c[2], c[3]]),
                        u16::from_le_bytes([c[4], c[5]]),
                    ]
                })
                .collect();
            Chunk::Adja(faces)
        }
        "SHDW" => {
            let n = face_count(f, &mut p.places.face_counts, r, path)?;
            let sp = format!("{path}.shadow_infos");
            let e = elem(1, "", "u8", "vendor description: 1 casts shadows, 0 does not", fmt::shadow);
            Chunk::Shdw(array(f, r, n, 1, &sp, e)?.to_vec())
        }
        "MROR" => Chunk::Mror,
        "MARK" => {
            let n: u32 = f.read(r, format!("{path}.mark_size"), P, VENDOR)?;
            let mp = format!("{path}.marks");
            let len = r.check_count(n as u64, 1, &mp)?;
            let b = if len > 0 { f.bytes(r, len, &mp, P, VENDOR)? } else { &[][..] };
            Chunk::Mark(b.to_vec())
        }
        "SKIN" => {
            let cp = format!("{path}.bone_count");
            let n: u32 = f.read(r, &cp, P, VENDOR)?;
            // Each name takes at least its length byte.
            r.check_count(n as u64, 1, &cp)?;
            let mut names = Vec::with_capacity(n as usize);
            for i in 0..n {
                names.push(name(f, r, &format!("{path}.bone_names[{i}]"), P, VENDOR)?);
            }
            Chunk::Skin(names)
        }
        "MESH" => Chunk::Mesh(submesh::read_mesh(p, r, path)?),
        "SBM1" => Chunk::Sbm1(submesh::read_sbm1(p, r, path)?),
        "SUBM" if p.ply.magic == Magic::Pm01 => Chunk::Subm(submesh::read_subm_gem3(p, r, path)?),
        "SUBM" => Chunk::SubmAs2(submesh::read_subm_as2(p, r, path)?),
        other => return Err(Error::unsupported(chunk_at, path, format!("no reader for chunk {other}"))),
    };
    Ok(c)
}

/// A per-face chunk's face count (ADJA, SHDW), kept for the check that it equals the triangles.
fn face_count(f: &mut Fields, counts: &mut Vec<(String, u64, u64)>, r: &mut Reader, path: &str) -> Result<u32> {
    let cp = format!("{path}.face_count");
    let at = r.offset();
    let n = count_i32(f, r, &cp, P, VENDOR)?;
    counts.push((cp, at, n as u64));
    Ok(n)
}
