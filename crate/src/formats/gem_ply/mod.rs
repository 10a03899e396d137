//! GEM engine `.ply` (Men of War, Assault Squad 2, Gates of Hell, GEM RTS), after
//! `shared/spec/gem-ply.md`: a FourCC, then chunks until the end of the file. No chunk
//! stores its size, so each chunk's reader works it out from the chunk's structure.
//!
//! `parse` is the cheap pass (fields, regions, the `Ply` the writer needs); `decode` adds
//! the vertex layout, the mesh and the checks (`vertex.rs`, `extract.rs`).

mod attributes;
pub mod builder;
mod chunks;
mod extract;
mod file_format;
pub mod fixtures;
mod format;
mod submesh;
mod subs;
mod values;
pub mod vertex;
mod writer;

pub use file_format::GemPly;
pub use writer::write;

use crate::error::Error;
use crate::model::Decode;
use crate::read::Reader;
use crate::span::{Confidence, Fields};

/// The note of every field taken as the vendor's description documents it.
pub const VENDOR: &str = "vendor description";

/// The file's starting FourCC (spec "File header").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Magic {
    /// `EPLY`: regular mesh with 16-bit indices.
    Eply,
    /// `BPLY`: landscape mesh with 32-bit indices.
    Bply,
    /// `PM01`: GEM3 mesh; its `SUBM` is the GEM3 form.
    Pm01,
}

impl Magic {
    pub fn fourcc(self) -> &'static [u8; 4] {
        match self {
            Magic::Eply => b"EPLY",
            Magic::Bply => b"BPLY",
            Magic::Pm01 => b"PM01",
        }
    }

    pub fn from_fourcc(b: &[u8]) -> Option<Magic> {
        match b {
            b"EPLY" => Some(Magic::Eply),
            b"BPLY" => Some(Magic::Bply),
            b"PM01" => Some(Magic::Pm01),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Magic::Eply => "EPLY",
            Magic::Bply => "BPLY",
            Magic::Pm01 => "PM01",
        }
    }
}

/// A name: a u8 length, then that many bytes (kept raw so any bytes write back).
pub type Name = Vec<u8>;

/// One vertex element of `SBM1` and of the Assault Squad 2 `SUBM` (spec "Element structure").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    /// Low nibble: type (FLOAT1..BYTE4N); high nibble: usage (POSITION..TANGENT).
    pub type_usage: u8,
    pub usage_index: u8,
    pub stream: u8,
}

/// `MESH`: the legacy submesh (spec "Chunk MESH").
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshChunk {
    pub fvf: u32,
    pub face_start: i32,
    pub face_count: i32,
    pub flags: u32,
    /// Present when `flags` has 0x200 (specular).
    pub specular: Option<[u8; 4]>,
    /// Present when `flags` has 0x400 (use material).
    pub material: Option<Name>,
    /// Texture names when there is no material, in file order.
    pub textures: Vec<Name>,
    /// Present when `flags` has 0x10 (skinned): values are SKIN index + 1, 0 = the mesh.
    pub bone_map: Option<Vec<u8>>,
}

/// One item of a submesh's tag list.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tag {
    /// The vertex element the tag is for.
    pub tag_index: u8,
    /// The tag's chunk id, four characters.
    pub tag_chunk: u32,
}

/// `SBM1`: the GEM RTS 1.1+ submesh (spec "Chunk SBM1").
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sbm1 {
    pub elements: Vec<Element>,
    pub tags: Vec<Tag>,
    pub face_start: i32,
    pub face_count: i32,
    pub flags: u32,
    pub material: Name,
}

/// `SUBM` in `PM01` files: the GEM3 / GEM RTS submesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubmGem3 {
    pub vertex_format: u16,
    pub face_start: u16,
    pub face_count: u16,
    pub vertex_start: u16,
    pub vertex_count: u16,
    pub flags: u16,
    /// Present when `flags` has 0x2 (skin).
    pub bone_map: Option<Vec<u8>>,
    pub material: Name,
}

/// `SUBM` in `EPLY`/`BPLY` files, as the landscape sample stores it (Observed): the `SBM1`
/// element and tag lists, then u32 face start/count, two u32 the description calls unknown
/// (the sample holds vertex start and vertex count there), flags and material.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubmAs2 {
    pub elements: Vec<Element>,
    pub tags: Vec<Tag>,
    pub face_start: u32,
    pub face_count: u32,
    pub unknown: [u32; 2],
    pub flags: u32,
    pub material: Name,
}

/// A large buffer (vertices, indices): a range of the file as decoded (the cheap pass and
/// the decode copy nothing), or values, which are what the writer encodes (a built file's,
/// or `Ply::with_values` for a rewrite).
#[derive(Debug, Clone, PartialEq)]
pub enum Buf<T> {
    File { start: usize, len: usize },
    Values(T),
}

impl<T> Buf<T> {
    /// The range's bytes out of `file` (`None` for values, or a range not in `file`).
    pub fn file_bytes<'a>(&self, file: &'a [u8]) -> Option<&'a [u8]> {
        match self {
            Buf::File { start, len } => file.get(*start..start.checked_add(*len)?),
            Buf::Values(_) => None,
        }
    }
}

/// One field of every vertex, as decoded values: `per` values per vertex, `offset` bytes
/// into it.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub offset: u32,
    pub per: usize,
    pub values: Values,
}

/// A column's values in the type they are stored as (bytes for every 8-bit kind and for
/// bytes no format explains).
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    F32(Vec<f32>),
    F16(Vec<half::f16>),
    I16(Vec<i16>),
    U8(Vec<u8>),
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::F32(v) => v.len(),
            Values::F16(v) => v.len(),
            Values::I16(v) => v.len(),
            Values::U8(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One chunk, with what its writer needs to put the same bytes back.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// `INDX` (u16) or `IND4` (u32, `wide`).
    Indices {
        wide: bool,
        data: Buf<Vec<u32>>,
    },
    /// `VERT`: `count` as stored; `data` holds the whole vertices there, field by field.
    Vert {
        count: u32,
        size: u16,
        flags: u16,
        data: Buf<Vec<Column>>,
    },
    /// `BAS2`: polygons center, axis x, axis y; texture center, axis x, axis y.
    Bas2 {
        polygons: [[f32; 2]; 3],
        texture: [[f32; 2]; 3],
    },
    /// `InfG`: grid start/end and one u16 per face (`submesh:15, invalid:1`).
    InfG {
        start: [i32; 2],
        end: [i32; 2],
        faces: Vec<u16>,
    },
    Bnds {
        min: [f32; 3],
        max: [f32; 3],
    },
    /// `ADJA`: three neighbour faces per face, 0xFFFF none.
    Adja(Vec<[u16; 3]>),
    /// `SHDW`: a u8 per face, 1 casts a shadow.
    Shdw(Vec<u8>),
    Mror,
    Mark(Vec<u8>),
    Skin(Vec<Name>),
    Mesh(MeshChunk),
    Sbm1(Sbm1),
    Subm(SubmGem3),
    SubmAs2(SubmAs2),
}

impl Chunk {
    pub fn id(&self) -> &'static str {
        match self {
            Chunk::Indices { wide: false, .. } => "INDX",
            Chunk::Indices { wide: true, .. } => "IND4",
            Chunk::Vert { .. } => "VERT",
            Chunk::Bas2 { .. } => "BAS2",
            Chunk::InfG { .. } => "InfG",
            Chunk::Bnds { .. } => "BNDS",
            Chunk::Adja(_) => "ADJA",
            Chunk::Shdw(_) => "SHDW",
            Chunk::Mror => "MROR",
            Chunk::Mark(_) => "MARK",
            Chunk::Skin(_) => "SKIN",
            Chunk::Mesh(_) => "MESH",
            Chunk::Sbm1(_) => "SBM1",
            Chunk::Subm(_) | Chunk::SubmAs2(_) => "SUBM",
        }
    }
}

/// The decoded file, as the writer needs it: the magic and every chunk in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Ply {
    pub magic: Magic,
    pub chunks: Vec<Chunk>,
    /// The first VERT's layout as the decode fitted it to `vertex_size`: how `with_values`
    /// reads its vertices into columns (`None` where nothing decoded it).
    pub vertex_layout: Option<vertex::Layout>,
}

impl Default for Ply {
    fn default() -> Self {
        Ply { magic: Magic::Eply, chunks: Vec::new(), vertex_layout: None }
    }
}

impl Ply {
    pub fn chunk_ids(&self) -> Vec<&'static str> {
        self.chunks.iter().map(Chunk::id).collect()
    }

    /// The first `VERT` while its vertices are a range of `file`: (count, size, flags, bytes).
    pub fn vert<'a>(&self, file: &'a [u8]) -> Option<(u32, u16, u16, &'a [u8])> {
        self.chunks.iter().find_map(|c| match c {
            Chunk::Vert { count, size, flags, data } => {
                Some((*count, *size, *flags, data.file_bytes(file).unwrap_or(&[])))
            }
            _ => None,
        })
    }

    /// The first `VERT`'s count, vertex size and flags.
    pub fn vert_header(&self) -> Option<(u32, u16, u16)> {
        self.vert(&[]).map(|(c, s, f, _)| (c, s, f))
    }

    /// The first index chunk while its indices are a range of `file`: (wide, bytes).
    pub fn indices<'a>(&self, file: &'a [u8]) -> Option<(bool, &'a [u8])> {
        self.chunks.iter().find_map(|c| match c {
            Chunk::Indices { wide, data } => Some((*wide, data.file_bytes(file).unwrap_or(&[]))),
            _ => None,
        })
    }

    pub fn index_count(&self) -> usize {
        self.chunks
            .iter()
            .find_map(|c| match c {
                Chunk::Indices { data: Buf::Values(v), .. } => Some(v.len()),
                Chunk::Indices { wide, data: Buf::File { len, .. } } => Some(len / if *wide { 4 } else { 2 }),
                _ => None,
            })
            .unwrap_or(0)
    }

    pub fn skin(&self) -> Option<&[Name]> {
        self.chunks.iter().find_map(|c| match c {
            Chunk::Skin(n) => Some(&n[..]),
            _ => None,
        })
    }

    pub fn mirrored(&self) -> bool {
        self.chunks.iter().any(|c| matches!(c, Chunk::Mror))
    }
}

pub fn detect(bytes: &[u8]) -> bool {
    bytes.get(..4).and_then(Magic::from_fourcc).is_some()
}

/// Places of fields the later passes check or point at.
#[derive(Debug, Default, Clone)]
pub struct Places {
    /// Offset of the first VERT's vertex data and its path.
    pub vert_data: Option<u64>,
    /// Offset of the first index chunk's indices, and that chunk's path.
    pub index_data: Option<(u64, String)>,
    /// Per submesh chunk, in file order.
    pub subs: Vec<SubPlace>,
    /// Offsets of per-face counts (SHDW, ADJA, InfG) with their paths.
    pub face_counts: Vec<(String, u64, u64)>,
    pub bnds: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct SubPlace {
    pub path: String,
    pub face_count_at: u64,
}

/// The cheap pass: every chunk's fields and arrays as spans and regions, and the `Ply`.
pub struct Parsed {
    pub ply: Ply,
    pub fields: Fields,
    pub errors: Vec<Error>,
    pub places: Places,
    /// True when the chunk loop stopped early (the `Ply` is then not the whole file).
    pub stopped: bool,
}

pub fn parse(bytes: &[u8]) -> Parsed {
    let mut p = Parsed {
        ply: Ply::default(),
        fields: Fields::over(bytes),
        errors: Vec::new(),
        places: Places::default(),
        stopped: false,
    };
    let mut r = Reader::new(bytes);
    let magic = match p.fields.fourcc(&mut r, "magic", Confidence::Proven, VENDOR) {
        Ok(m) => m,
        Err(e) => {
            p.errors.push(e);
            p.stopped = true;
            return p;
        }
    };
    match Magic::from_fourcc(&magic) {
        Some(m) => p.ply.magic = m,
        None => {
            p.errors.push(Error::bad_value(0, "magic", "not EPLY, BPLY or PM01"));
            p.stopped = true;
            return p;
        }
    }
    let mut seen: Vec<(&'static str, usize)> = Vec::new();
    while !r.at_end() {
        let n = p.ply.chunks.len();
        let at = r.offset();
        let id = match r.peek(4) {
            Ok(b) => chunks::known_id(b, p.ply.magic),
            Err(e) => {
                p.errors.push(e.at_path(&format!("chunk[{n}].id")));
                p.stopped = true;
                break;
            }
        };
        let Some(id) = id else {
            let shown = r.peek(4).map(crate::field::show_text).unwrap_or_default();
            p.errors.push(Error::bad_value(
                at,
                format!("chunk[{n}].id"),
                format!("unknown chunk id \"{shown}\": a chunk stores no size, so decoding stops here"),
            ));
            p.stopped = true;
            break;
        };
        let k = match seen.iter_mut().find(|(i, _)| *i == id) {
            Some((_, c)) => {
                *c += 1;
                *c - 1
            }
            None => {
                seen.push((id, 1));
                0
            }
        };
        let repeated = matches!(id, "MESH" | "SBM1" | "SUBM");
        let path = if repeated || k > 0 { format!("{id}[{k}]") } else { id.to_string() };
        match chunks::read_chunk(&mut p, &mut r, id, &path) {
            Ok(c) => {
                // A chunk is a record from its id to its last byte (annotations anchor on it).
                p.fields.record(path.clone(), at, r.offset() - at);
                p.ply.chunks.push(c)
            }
            Err(e) => {
                p.errors.push(e);
                p.stopped = true;
                break;
            }
        }
    }
    p
}

/// The file written again from its decoded `Ply` and the bytes it was read from: the buffers'
/// values are made from them here, not by the decode.
pub fn rewrite(ply: &Ply, file: &[u8]) -> Result<Vec<u8>, Error> {
    write(&ply.with_values(file))
}

/// Decodes a whole file: the cheap pass, then the vertex layout, mesh and checks.
pub fn decode(bytes: &[u8]) -> Decode {
    decode_with(bytes, true)
}

/// The decode without the mesh (see `extract::finish`).
pub fn decode_structure(bytes: &[u8]) -> Decode {
    decode_with(bytes, false)
}

fn decode_with(bytes: &[u8], mesh: bool) -> Decode {
    let p = parse(bytes);
    let mut d = extract::finish(p, bytes, mesh);
    if let Some(ply) = d.details.get::<Ply>() {
        d.facts.insert(0, ("chunks".into(), ply.chunk_ids().join(" ").into()));
        d.facts.insert(0, ("magic".into(), ply.magic.name().into()));
    }
    d
}
