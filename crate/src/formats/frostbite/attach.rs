//! Companion files of a MeshSet: its geometry chunks and the bundle's `NAME.resmeta`. Each
//! attach reads the MeshSet's document through `Parent` and returns what it adds.

use super::{checks, chunk, decode, guid, relocation, stored, MeshSetDetails};
use crate::error::{Error, Result};
use crate::formats::{Details, Format};
use crate::model::{Attachment, Basis, Check, Decode, LodGeometry, Parent, ParentChanges};
use crate::read::Reader;
use crate::span::{Confidence, Fields};

fn details<'a>(parent: &Parent<'a>) -> Result<&'a MeshSetDetails> {
    parent.details.get::<MeshSetDetails>().ok_or_else(|| not_a_meshset(parent))
}

fn not_a_meshset(parent: &Parent) -> Error {
    Error::unsupported(0, "header", format!("{} is not a decoded MeshSet", parent.name))
}

/// A LOD record's chunk GUID field: what errors and checks about the chunk point at.
struct GuidField {
    /// Its offset in the resource.
    offset: u64,
    path: String,
}

/// LOD `li`'s chunk GUID field.
fn guid_field(m: &MeshSetDetails, li: usize) -> GuidField {
    GuidField { offset: m.lod_at.get(li).map_or(0x30, |a| a + 0x74), path: format!("lod[{li}].geometry_chunk") }
}

/// Attaches a companion file: `NAME.resmeta` (the bundle's metadata) or a geometry chunk
/// matched to its LOD by the GUID in its name.
pub fn attach(parent: &Parent, name: &str, bytes: &[u8]) -> Result<Attachment> {
    if name.ends_with(".resmeta") {
        return attach_resmeta(parent, name, bytes);
    }
    let m = details(parent)?;
    let g = guid::from_name(name).ok_or_else(|| {
        Error::bad_value(
            0,
            "chunk file name",
            format!("{name}: no chunk GUID in the name (attach it to a LOD by hand)"),
        )
    })?;
    let li = m.lods.iter().position(|l| l.chunk == g).ok_or_else(|| {
        let field = guid_field(m, 0);
        let path = if m.lods.len() > 1 { field.path.replace("lod[0]", "lod[*]") } else { field.path };
        Error::bad_value(field.offset, path, format!("{name}: no LOD names chunk {}", guid::text(&g)))
    })?;
    attach_to(parent, li, name, bytes)
}

/// The check an attached chunk gets when its file name carries a GUID: the LOD's own.
fn guid_check(m: &MeshSetDetails, li: usize, name: &str, lod_guid: &[u8; 16]) -> Option<Check> {
    let g = guid::from_name(name)?;
    let field = guid_field(m, li);
    Some(Check {
        name: format!("attached chunk's GUID is lod[{li}]'s").into(),
        passed: &g == lod_guid,
        stored: format!("lod[{li}] names chunk {}", guid::text(lod_guid)).into(),
        measured: format!("{name} is chunk {}", guid::text(&g)).into(),
        offset: Some(field.offset),
        path: field.path.into(),
        basis: Basis::Description,
        tolerance: String::new(),
    })
}

/// Attaches `bytes` as LOD `li`'s geometry chunk, whatever its name says. The MeshSet takes
/// the LOD's geometry, its measures and their checks; the chunk's decode holds the spans. A
/// file name carrying another GUID than the LOD's gets a failed check first, in both.
pub fn attach_to(parent: &Parent, li: usize, name: &str, bytes: &[u8]) -> Result<Attachment> {
    let m = details(parent)?;
    let n = m.lods.len();
    let l = m
        .lods
        .get(li)
        .ok_or_else(|| Error::bad_value(0xB4, "header.lod_count", format!("no LOD {li}: the MeshSet has {n}")))?;
    let guid_check = guid_check(m, li, name, &l.chunk);
    let mut d = Decode { fields: Fields::over(bytes), ..Default::default() };
    d.checks.extend(guid_check.clone());
    let data = Reader::new(bytes);
    let file = parent.attached as u32 + 1;
    let (mut lod, measured) = chunk::decode_lod(&mut d.fields, &mut d.errors, l, &data, &format!("lod[{li}]"), file);
    stored::fill(&mut lod, &m.header, l, li);
    d.facts.push(("LOD".into(), li.to_string().into()));
    d.facts.push(("chunk GUID".into(), guid::text(&l.chunk).into()));
    let mut now = m.clone();
    if let Some(x) = now.measures.get_mut(li) {
        *x = measured;
    }
    if let Some(x) = now.chunk_found.get_mut(li) {
        *x = true;
    }
    let mut checks = parent.checks.to_vec();
    checks::measures(&mut checks, &now);
    if let Some(c) = guid_check {
        checks.retain(|x| x.name != c.name);
        checks.insert(0, c);
    }
    // A resource field that stops the chunk's decode (an index format, a declaration) is the
    // resource's error, at that field; the chunk keeps the errors in its own bytes.
    let (theirs, own) = chunk::in_resource(std::mem::take(&mut d.errors), parent.spans, parent.bytes);
    d.errors = own;
    let lod = (li < parent.mesh.lods.len()).then_some(LodGeometry { index: li, lod });
    let changes = ParentChanges {
        details: Some(Details::new(now)),
        lod,
        checks: Some(checks),
        errors: theirs,
        listed: true,
        ..Default::default()
    };
    Ok(Attachment { format: Format::FrostbiteChunk, companion: d, parent: changes })
}

/// The bundle's metadata says where the relocation table is and how long: when that is not
/// where the decode found it, the resource is decoded again with it (keeping the LODs whose
/// chunks are attached).
fn attach_resmeta(parent: &Parent, name: &str, bytes: &[u8]) -> Result<Attachment> {
    let m = details(parent)?;
    let v = relocation::read_meta(bytes).ok_or_else(|| {
        Error::bad_value(bytes.len().min(16) as u64, "resmeta", format!("{name}: {} bytes, not 16", bytes.len()))
    })?;
    let found = m.placement.as_ref().map(|p| (p.table_at as u32, 4 * m.relocation.len() as u32));
    let mut changes = ParentChanges::default();
    let (mut now, mut checks) = if found != Some((v[0], v[1])) || !m.table_found {
        let Redecoded { mut decode, details } = redecode(parent, m, v)?;
        let checks = std::mem::take(&mut decode.checks);
        changes.redecode = Some(decode);
        (details, checks)
    } else {
        (m.clone(), parent.checks.to_vec())
    };
    now.resmeta_stored = Some(v);
    let c = now.resmeta_computed;
    checks.retain(|x| !x.name.starts_with("resource metadata"));
    checks.push(Check {
        name: "resource metadata {table offset, table bytes, trailing bytes, 0}".into(),
        passed: v == c,
        stored: format!("{v:?}").into(),
        measured: format!("{c:?}").into(),
        offset: None,
        path: "relocation".into(),
        basis: Basis::Description,
        tolerance: String::new(),
    });
    changes.details = Some(Details::new(now));
    changes.checks = Some(checks);
    let mut f = Fields::over(bytes);
    let mut r = Reader::new(bytes);
    for n in ["table_offset", "table_bytes", "trailing_bytes", "zero"] {
        let _: Result<u32> = f.read(
            &mut r,
            format!("resmeta.{n}"),
            Confidence::Proven,
            "The bundle's resource metadata is {table offset, table bytes, trailing bytes, 0}.",
        );
    }
    let companion = Decode { fields: f, ..Default::default() };
    Ok(Attachment { format: Format::Unknown, companion, parent: changes })
}

/// The resource decoded again, and the MeshSet's details taken out of the decode.
struct Redecoded {
    decode: Decode,
    details: MeshSetDetails,
}

/// The resource decoded again with the table the metadata names, and its details taken out;
/// LODs whose chunks were attached keep their geometry, and the chunks' GUID checks are kept.
fn redecode(parent: &Parent, was: &MeshSetDetails, meta: [u32; 4]) -> Result<Redecoded> {
    let mut d = decode::decode_meta(parent.bytes, true, Some(meta));
    let kept = parent.checks.iter().filter(|c| c.name.starts_with("attached chunk's GUID")).cloned();
    d.checks.splice(0..0, kept);
    let mut now = d.details.take::<MeshSetDetails>().ok_or_else(|| not_a_meshset(parent))?;
    for (li, found) in was.chunk_found.iter().enumerate() {
        let attached = *found && was.lods.get(li).is_some_and(|l| !l.inline());
        let (Some(lod), Some(measured)) = (parent.mesh.lods.get(li), was.measures.get(li)) else { continue };
        if let (true, Some(x), Some(found), Some(measures)) =
            (attached, d.mesh.lods.get_mut(li), now.chunk_found.get_mut(li), now.measures.get_mut(li))
        {
            *x = lod.clone();
            *found = true;
            measures.clone_from(measured);
        }
    }
    checks::measures(&mut d.checks, &now);
    Ok(Redecoded { decode: d, details: now })
}
