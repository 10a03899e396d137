//! Frostbite MeshSet resources (0x49b156d4) and their geometry chunks, after
//! `shared/spec/frostbite-meshset.txt`. One module per part of the description.

pub mod attach;
pub mod builder;
pub mod checks;
pub mod chunk;
pub mod declaration;
pub mod decode;
pub mod element_format;
mod file_format;
pub mod guid;
pub mod header;
pub mod lod;
pub mod lodgroup;
pub mod measures;
pub mod placement;
pub mod pool;
pub mod relocation;
pub mod section;
pub mod stored;
pub mod tangent;
pub mod writer;

use crate::error::Result;
use crate::model::Decode;
use crate::read::Reader;
use crate::show::{decimal, Digits};
use crate::span::Text;

pub use file_format::{FrostbiteChunk, FrostbiteMeshSet};

/// The decoded resource, as the writer, the checks and the command line need it.
#[derive(Debug, Default, Clone)]
pub struct MeshSetDetails {
    pub header: header::Header,
    pub lods: Vec<lod::Lod>,
    /// Relocation table entries as stored (offset minus 16 of each pointer field).
    pub relocation: Vec<u32>,
    pub table_found: bool,
    /// Bytes after the relocation table (the inline LOD's geometry).
    pub trailing: Vec<u8>,
    /// {table offset, table bytes, trailing bytes, 0} from `NAME.resmeta`, when attached.
    pub resmeta_stored: Option<[u32; 4]>,
    /// The same, computed from the layout.
    pub resmeta_computed: [u32; 4],
    /// Where the pool starts and ends (the relocation table's offset).
    pub pool_range: (usize, usize),
    /// The end of the last record read (header, LOD records, section records).
    pub records_end: usize,
    /// Where every part lies as stored; `None` for a MeshSet not read from a file, which the
    /// writer lays out as the game does.
    pub placement: Option<placement::Placement>,
    /// Where each LOD record and each of its section records was read (absolute offsets).
    pub lod_at: Vec<u64>,
    pub section_at: Vec<Vec<u64>>,
    /// Per LOD: its geometry was decoded (inline or from an attached chunk).
    pub chunk_found: Vec<bool>,
    /// Per LOD, per section: values measured from the decoded geometry.
    pub measures: Vec<Vec<measures::Measured>>,
    /// Every pointer field read, for the checks made after the decode (empty in a decode
    /// without checks, and for a MeshSet not read from a file).
    pub pointers: decode::Pointers,
}

/// The header's own shape: header bytes minus 16 is 0xc0 or 0xd0, LOD record bytes 0xb0, 0xb8
/// or 0xbc, section record bytes 384, and a LOD count of at most seven. A file cut short
/// before the count (0xB4) is still a MeshSet when its first three words hold: it opens with
/// its truncation error.
pub fn detect_meshset(_name: &str, bytes: &[u8]) -> bool {
    let mut r = Reader::new(bytes);
    let (Ok(a), Ok(b), Ok(c)) = (r.u32(), r.u32(), r.u32()) else { return false };
    let count = Reader::new(bytes).window(0xB4, 2).and_then(|mut w| w.u16());
    let count_ok = match count {
        Ok(n) => (1..=7).contains(&n),
        Err(_) => bytes.len() < 0xB6,
    };
    (a == 0xc0 || a == 0xd0) && [0xb0, 0xb8, 0xbc].contains(&b) && c == 384 && count_ok
}

/// A geometry chunk is known by the GUID its file name carries.
pub fn detect_chunk(name: &str, _bytes: &[u8]) -> bool {
    guid::from_name(name).is_some()
}

pub fn decode_meshset(_name: &str, bytes: &[u8]) -> Decode {
    decode::decode(bytes)
}

/// A chunk opened alone: its GUID and size; its layout needs the MeshSet.
pub fn decode_chunk(name: &str, bytes: &[u8]) -> Decode {
    let mut d = Decode::default();
    if let Some(g) = guid::from_name(name) {
        d.facts.push(("chunk GUID".into(), guid::text(&g).into()));
    }
    d.facts.push(("bytes".into(), bytes.len().to_string().into()));
    d.facts.push(("layout".into(), "attach it to its MeshSet to decode its streams".into()));
    d
}

pub fn facts(out: &mut Vec<(Text, Text)>, m: &MeshSetDetails) {
    let h = &m.header;
    // Room for the facts below: five, and one a LOD.
    out.reserve(5 + m.lods.len());
    out.push(("name".into(), h.name.clone().into()));
    out.push(("mesh type".into(), header::MESH_TYPES.get(h.mesh_type as usize).copied().unwrap_or("?").into()));
    let (mut a, mut b) = (Digits::new(), Digits::new());
    out.push(("LODs".into(), decimal(m.lods.len() as u64, &mut a).to_string().into()));
    for (i, l) in m.lods.iter().enumerate() {
        let mut value = String::with_capacity(64);
        value.push_str(decimal(l.sections.len() as u64, &mut b));
        value.push_str(" sections, chunk ");
        match l.inline() {
            true => value.push_str("inline"),
            false => guid::push_text(&l.chunk, &mut value),
        }
        let label = ["lod[", decimal(i as u64, &mut a), "]"].concat();
        out.push((label.into(), value.into()));
    }
    let r = m.resmeta_computed.map(|v| v as u64);
    let mut n = [Digits::new(); 4];
    let [p, q, s, t] = &mut n;
    let parts = ["{", decimal(r[0], p), ", ", decimal(r[1], q), ", ", decimal(r[2], s), ", ", decimal(r[3], t), "}"];
    out.push(("resource metadata (computed)".into(), parts.concat().into()));
    out.push(("LOD groups (stock presets)".into(), presets().into()));
}

/// The stock LOD groups as the summary shows them: the same for every MeshSet, made once.
fn presets() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let presets: Vec<String> =
            lodgroup::PRESETS.iter().map(|g| format!("{} {:?} m", g.name, g.distances)).collect();
        presets.join("; ")
    })
}

pub fn write_meshset(m: &MeshSetDetails) -> Result<Vec<u8>> {
    writer::write(m)
}
