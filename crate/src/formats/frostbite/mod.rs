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
pub mod placement;
pub mod pool;
pub mod relocation;
pub mod section;
pub mod stored;
pub mod tangent;
pub mod writer;

use crate::document::Document;
use crate::error::{Error, Result};
use crate::formats::{Details, Format};
use crate::model::Decode;
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
        _ => Err(Error::unsupported(0, "header", format!("{} is not a decoded MeshSet", doc.name))),
    }
}

/// Where LOD `li`'s chunk GUID is stored, and its path.
fn guid_field(m: &MeshSetDetails, li: usize) -> (u64, String) {
    (m.lod_at.get(li).map_or(0x30, |a| a + 0x74), format!("lod[{li}].geometry_chunk"))
}

/// Attaches a companion file: `NAME.resmeta` (the bundle's metadata) or a geometry chunk
/// matched to its LOD by the GUID in its name.
pub fn attach(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document> {
    if name.ends_with(".resmeta") {
        return attach_resmeta(doc, name, bytes);
    }
    let m = details(doc)?;
    let g = guid::from_name(name).ok_or_else(|| {
        Error::bad_value(
            0,
            "chunk file name",
            format!("{name}: no chunk GUID in the name (attach it to a LOD by hand)"),
        )
    })?;
    let li = m.lods.iter().position(|l| l.chunk == g).ok_or_else(|| {
        let (at, path) = guid_field(m, 0);
        let path = if m.lods.len() > 1 { path.replace("lod[0]", "lod[*]") } else { path };
        Error::bad_value(at, path, format!("{name}: no LOD names chunk {}", guid::text(&g)))
    })?;
    attach_to(doc, li, name, bytes)
}

/// The check an attached chunk gets when its file name carries a GUID: the LOD's own.
fn guid_check(m: &MeshSetDetails, li: usize, name: &str, lod_guid: &[u8; 16]) -> Option<crate::model::Check> {
    let g = guid::from_name(name)?;
    let (at, path) = guid_field(m, li);
    Some(crate::model::Check {
        name: format!("attached chunk's GUID is lod[{li}]'s"),
        passed: &g == lod_guid,
        stored: format!("lod[{li}] names chunk {}", guid::text(lod_guid)),
        measured: format!("{name} is chunk {}", guid::text(&g)),
        offset: Some(at),
        path,
        basis: crate::model::Basis::Description,
        tolerance: String::new(),
    })
}

/// Attaches `bytes` as LOD `li`'s geometry chunk, whatever its name says. The MeshSet
/// document's mesh takes the LOD's geometry; the chunk document holds the spans. A file name
/// carrying another GUID than the LOD's gets a failed check first, in both documents.
pub fn attach_to(doc: &mut Document, li: usize, name: &str, bytes: Vec<u8>) -> Result<Document> {
    let file = doc.attached.len() as u32 + 1;
    let m = details(doc)?;
    let n = m.lods.len();
    let l = m
        .lods
        .get(li)
        .ok_or_else(|| Error::bad_value(0xB4, "header.lod_count", format!("no LOD {li}: the MeshSet has {n}")))?;
    let guid_check = guid_check(m, li, name, &l.chunk);
    let mut d = Decode::default();
    d.checks.extend(guid_check.clone());
    let data = Reader::new(&bytes);
    let (mut lod, measured) = chunk::decode_lod(&mut d.fields, &mut d.errors, l, &data, &format!("lod[{li}]"), file);
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
        checks::measures(&mut doc.checks, m);
    }
    if let Some(c) = guid_check {
        doc.checks.retain(|x| x.name != c.name);
        doc.checks.insert(0, c);
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

/// The bundle's metadata says where the relocation table is and how long: when that is not
/// where the decode found it, the resource is decoded again with it (keeping the LODs whose
/// chunks are attached).
fn attach_resmeta(doc: &mut Document, name: &str, bytes: Vec<u8>) -> Result<Document> {
    let m = details(doc)?;
    let v = relocation::read_meta(&bytes).ok_or_else(|| {
        Error::bad_value(bytes.len().min(16) as u64, "resmeta", format!("{name}: {} bytes, not 16", bytes.len()))
    })?;
    let found = m.placement.as_ref().map(|p| (p.table_at as u32, 4 * m.relocation.len() as u32));
    if found != Some((v[0], v[1])) || !m.table_found {
        redecode(doc, v);
    }
    let m = details(doc)?;
    m.resmeta_stored = Some(v);
    let c = m.resmeta_computed;
    doc.checks.retain(|x| !x.name.starts_with("resource metadata"));
    doc.checks.push(crate::model::Check {
        name: "resource metadata {table offset, table bytes, trailing bytes, 0}".into(),
        passed: v == c,
        stored: format!("{v:?}"),
        measured: format!("{c:?}"),
        offset: None,
        path: "relocation".into(),
        basis: crate::model::Basis::Description,
        tolerance: String::new(),
    });
    let mut f = Fields::default();
    let mut r = Reader::new(&bytes);
    for n in ["table_offset", "table_bytes", "trailing_bytes", "zero"] {
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

/// Decodes the resource again with the table the metadata names; LODs whose chunks were
/// attached keep their geometry.
fn redecode(doc: &mut Document, meta: [u32; 4]) {
    let d = decode::decode_meta(&doc.bytes, true, Some(meta));
    let bytes = std::mem::take(&mut doc.bytes);
    let old = std::mem::replace(doc, Document::from_decode(&doc.name.clone(), doc.format, bytes, d));
    doc.attached = old.attached;
    let kept = old.checks.iter().filter(|c| c.name.starts_with("attached chunk's GUID")).cloned();
    doc.checks.splice(0..0, kept);
    let (Details::MeshSet(was), Details::MeshSet(now)) = (&old.details, &mut doc.details) else { return };
    for (li, found) in was.chunk_found.iter().enumerate() {
        let attached = *found && was.lods.get(li).is_some_and(|l| !l.inline());
        if let (true, Some(lod), Some(x)) = (attached, old.mesh.lods.get(li), doc.mesh.lods.get_mut(li)) {
            *x = lod.clone();
            now.chunk_found[li] = true;
            now.measures[li] = was.measures[li].clone();
        }
    }
    if let Details::MeshSet(m) = &doc.details {
        checks::measures(&mut doc.checks, m);
    }
}

pub fn write_meshset(m: &MeshSetDetails) -> Result<Vec<u8>> {
    writer::write(m)
}
