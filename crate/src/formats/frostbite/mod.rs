//! Frostbite MeshSet resources (0x49b156d4) and their geometry chunks, after
//! `shared/spec/frostbite-meshset.txt`. One module per part of the description.

pub mod builder;
pub mod checks;
pub mod chunk;
pub mod declaration;
pub mod decode;
pub mod element_format;
pub mod guid;
pub mod header;
pub mod lod;
pub mod lodgroup;
pub mod measures;
pub mod pool;
pub mod relocation;
pub mod section;
pub mod stored;
pub mod tangent;
pub mod writer;

use crate::document::{Decode, Document};
use crate::error::{Error, Result};
use crate::formats::{Details, Format};
use crate::read::Reader;
use crate::span::{Confidence, Fields};

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
    /// Where each LOD record and each of its section records was read (absolute offsets).
    pub lod_at: Vec<u64>,
    pub section_at: Vec<Vec<u64>>,
    /// Per LOD: its geometry was decoded (inline or from an attached chunk).
    pub chunk_found: Vec<bool>,
    /// Per LOD, per section: values measured from the decoded geometry.
    pub measures: Vec<Vec<measures::Measured>>,
}

/// The header's own shape: header bytes minus 16 is 0xc0 or 0xd0, LOD record bytes 0xb0, 0xb8
/// or 0xbc, section record bytes 384, and a LOD count of at most seven.
pub fn detect_meshset(_name: &str, bytes: &[u8]) -> bool {
    let mut r = Reader::new(bytes);
    let (Ok(a), Ok(b), Ok(c)) = (r.u32(), r.u32(), r.u32()) else { return false };
    let count = Reader::new(bytes).window(0xB4, 2).and_then(|mut w| w.u16());
    (a == 0xc0 || a == 0xd0) && [0xb0, 0xb8, 0xbc].contains(&b) && c == 384 && matches!(count, Ok(1..=7))
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
        d.facts.push(("chunk GUID".into(), guid::text(&g)));
    }
    d.facts.push(("bytes".into(), bytes.len().to_string()));
    d.facts.push(("layout".into(), "attach it to its MeshSet to decode its streams".into()));
    d
}

pub fn facts(out: &mut Vec<(String, String)>, m: &MeshSetDetails) {
    let h = &m.header;
    out.push(("name".into(), h.name.clone()));
    out.push(("mesh type".into(), header::MESH_TYPES.get(h.mesh_type as usize).unwrap_or(&"?").to_string()));
    out.push(("LODs".into(), m.lods.len().to_string()));
    for (i, l) in m.lods.iter().enumerate() {
        let chunk = if l.inline() { "inline".to_string() } else { guid::text(&l.chunk) };
        out.push((format!("lod[{i}]"), format!("{} sections, chunk {chunk}", l.sections.len())));
    }
    let r = m.resmeta_computed;
    out.push(("resource metadata (computed)".into(), format!("{{{}, {}, {}, {}}}", r[0], r[1], r[2], r[3])));
    let presets: Vec<String> = lodgroup::PRESETS.iter().map(|g| format!("{} {:?} m", g.name, g.distances)).collect();
    out.push(("LOD groups (stock presets)".into(), presets.join("; ")));
}

fn details(doc: &mut Document) -> Result<&mut MeshSetDetails> {
    match &mut doc.details {
        Details::MeshSet(m) => Ok(m),
        _ => Err(Error::unsupported(0, "", "not a decoded MeshSet")),
    }
}

/// Attaches a companion file: `NAME.resmeta` (the bundle's metadata) or a geometry chunk
/// matched to its LOD by the GUID in its name.
pub fn attach(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document> {
    if name.ends_with(".resmeta") {
        return attach_resmeta(doc, name, bytes);
    }
    let g =
        guid::from_name(name).ok_or_else(|| Error::bad_value(0, "", format!("{name}: no chunk GUID in the name")))?;
    let m = details(doc)?;
    let li = m
        .lods
        .iter()
        .position(|l| l.chunk == g)
        .ok_or_else(|| Error::bad_value(0, "", format!("{name}: no LOD names chunk {}", guid::text(&g))))?;
    attach_to(doc, li, name, bytes)
}

/// Attaches `bytes` as LOD `li`'s geometry chunk, whatever its name says. The MeshSet
/// document's mesh takes the LOD's geometry; the chunk document holds the spans.
pub fn attach_to(doc: &mut Document, li: usize, name: &str, bytes: Vec<u8>) -> Result<Document> {
    let file = doc.attached.len() as u32 + 1;
    let m = details(doc)?;
    let l = m.lods.get(li).ok_or_else(|| Error::bad_value(0, "", format!("no LOD {li}")))?;
    let mut d = Decode::default();
    let data = Reader::new(&bytes);
    let (mut lod, measured) =
        chunk::decode_lod(&mut d.fields, &mut d.errors, l, li, &data, &format!("lod[{li}]"), file);
    stored::fill(&mut lod, &m.header, l, li);
    d.facts.push(("LOD".into(), li.to_string()));
    d.facts.push(("chunk GUID".into(), guid::text(&l.chunk)));
    if let Some(x) = m.measures.get_mut(li) {
        *x = measured;
    }
    if let Some(x) = m.chunk_found.get_mut(li) {
        *x = true;
    }
    if let Some(x) = doc.mesh.lods.get_mut(li) {
        *x = lod;
    }
    if let Details::MeshSet(m) = &doc.details {
        checks::measures(&mut doc.checks, m, &doc.mesh);
    }
    doc.attached.push(name.to_string());
    // A resource field that stops the chunk's decode (an index format, a declaration) is the
    // resource's error, at that field; the chunk keeps the errors in its own bytes.
    let (theirs, own) = chunk::in_resource(std::mem::take(&mut d.errors), doc.spans.fixed());
    d.errors = own;
    for e in theirs {
        if !doc.errors.contains(&e) {
            doc.errors.push(e);
        }
    }
    Ok(Document::from_decode(name, Format::FrostbiteChunk, bytes, d))
}

fn attach_resmeta(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document> {
    let m = details(doc)?;
    let v = relocation::read_meta(&bytes)
        .ok_or_else(|| Error::bad_value(0, "", format!("{name}: {} bytes, not 16", bytes.len())))?;
    m.resmeta_stored = Some(v);
    let c = m.resmeta_computed;
    doc.checks.push(crate::document::Check {
        name: "resource metadata {table offset, table bytes, trailing bytes, 0}".into(),
        passed: v == c,
        stored: format!("{v:?}"),
        measured: format!("{c:?}"),
        offset: None,
        path: "relocation".into(),
        basis: crate::document::Basis::Description,
        tolerance: String::new(),
    });
    let mut f = Fields::default();
    let mut r = Reader::new(&bytes);
    for (k, n) in ["table_offset", "table_bytes", "trailing_bytes", "zero"].iter().enumerate() {
        let _ = k;
        let _: Result<u32> = f.read(
            &mut r,
            format!("resmeta.{n}"),
            Confidence::Proven,
            "The bundle's resource metadata is {table offset, table bytes, trailing bytes, 0}.",
        );
    }
    let d = Decode { fields: f, ..Default::default() };
    Ok(Document::from_decode(name, Format::Unknown, bytes, d))
}

pub fn write_meshset(m: &MeshSetDetails) -> Result<Vec<u8>> {
    writer::write(m)
}
