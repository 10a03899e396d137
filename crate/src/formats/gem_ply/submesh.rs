//! The submesh chunks: `MESH` (legacy), `SBM1`, `SUBM` of `PM01` files (GEM3) and `SUBM`
//! of the other magics (Assault Squad 2 form, as the landscape sample stores it).

use super::chunks::name;
use super::{Element, MeshChunk, Parsed, Sbm1, SubPlace, SubmAs2, SubmGem3, Tag, VENDOR};
use crate::error::Result;
use crate::field::{show_text, FieldType};
use crate::read::Reader;
use crate::short::PathText;
use crate::show::{decimal, Digits};
use crate::span::{Confidence, Fields};

const P: Confidence = Confidence::Proven;
const O: Confidence = Confidence::Observed;

/// `mesh_flags` of MESH, SBM1 and the AS2 SUBM (spec "Bit mask for mesh_flags").
pub const MESH_FLAGS: [(u64, &str); 15] = [
    (0x0001, "two-sided"),
    (0x0002, "use alpha"),
    (0x0004, "realtime lighting"),
    (0x0008, "player color lighting"),
    (0x0010, "skinned"),
    (0x0020, "shadow volume"),
    (0x0040, "mirrored"),
    (0x0080, "blend by second texture alpha"),
    (0x0100, "bump"),
    (0x0200, "specular"),
    (0x0400, "use material"),
    (0x0800, "sub-skin"),
    (0x1000, "two textures one texcoord"),
    (0x2000, "VD"),
    (0x4000, "lightmap"),
];

/// `mesh_flags` of the GEM3 SUBM.
pub const GEM3_FLAGS: [(u64, &str); 2] = [(0x1, "double-sided"), (0x2, "skin")];

/// The GEM3 `vertex_format` bits by name; the two skin bits name the bone count together.
pub fn vertex_format_names(v: u16) -> String {
    const NAMES: [(u16, &str); 10] = [
        (0x1, "position"),
        (0x2, "normal"),
        (0x4, "color0"),
        (0x8, "color1"),
        (0x10, "uv0"),
        (0x20, "uv1"),
        (0x40, "uv2"),
        (0x80, "uv3"),
        (0x100, "tangent"),
        (0x800, "wind"),
    ];
    let mut parts: Vec<String> = NAMES.iter().filter(|(b, _)| v & b != 0).map(|(_, n)| n.to_string()).collect();
    match v & 0x600 {
        0x200 => parts.push("skin 2 bones".into()),
        0x400 => parts.push("skin 3 bones".into()),
        0x600 => parts.push("skin 4 bones".into()),
        _ => {}
    }
    if v & 0xf000 != 0 {
        parts.push(format!("0x{:x}", v & 0xf000));
    }
    if parts.is_empty() {
        format!("0x{v:x} (none)")
    } else {
        format!("0x{v:x} ({})", parts.join(" | "))
    }
}

/// The MESH `fvf` by name: Direct3D FVF bits as the description lists them.
pub fn fvf_names(v: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    let pos = v & 0xe;
    match pos {
        0 => {}
        0x2 => parts.push("position".into()),
        0x4 => parts.push("position rhw".into()),
        p => parts.push(format!("position + {} blend values", (p - 4) / 2)),
    }
    if v & 0x10 != 0 {
        parts.push("normal".into());
    }
    if v & 0x40 != 0 {
        parts.push("diffuse".into());
    }
    if v & 0x80 != 0 {
        parts.push("specular".into());
    }
    let tex = (v >> 8) & 0xf;
    if tex > 0 {
        parts.push(format!("{tex} texcoord set{}", if tex > 1 { "s" } else { "" }));
    }
    if v & 0x1000 != 0 {
        parts.push("last blend value is u8[4] indices".into());
    }
    if v & 0x8000_e000 == 0x8000_e000 {
        parts.push("tangent".into());
    }
    let rest = v & !(0xe | 0x10 | 0x40 | 0x80 | 0xf00 | 0x1000 | 0x8000_e000);
    if rest != 0 {
        parts.push(format!("0x{rest:x}"));
    }
    if v & 0x8000_e000 != 0 && v & 0x8000_e000 != 0x8000_e000 {
        parts.push(format!("partial tangent bits 0x{:x}", v & 0x8000_e000));
    }
    if parts.is_empty() {
        format!("0x{v:x} (none)")
    } else {
        format!("0x{v:x} ({})", parts.join(" | "))
    }
}

pub const TYPE_NAMES: [&str; 9] =
    ["FLOAT1", "FLOAT2", "FLOAT3", "FLOAT4", "SHORT2", "BYTE4", "COLOR", "HALF4", "BYTE4N"];
pub const USAGE_NAMES: [&str; 7] =
    ["POSITION", "NORMAL", "COLOR", "TEXCOORD", "BLEND WEIGHT", "BLEND INDICES", "TANGENT"];

pub fn type_usage_name(v: u8) -> String {
    let t = TYPE_NAMES.get((v & 0xf) as usize).copied().unwrap_or("type?");
    let u = USAGE_NAMES.get((v >> 4) as usize).copied().unwrap_or("usage?");
    format!("0x{v:02x} ({t} {u})")
}

fn bone_map(f: &mut Fields, r: &mut Reader, path: &str, size_name: &str) -> Result<Vec<u8>> {
    let n: u8 = f.read(r, format!("{path}.{size_name}"), P, VENDOR)?;
    let mp = PathText::concat(&[path, ".bone_map"]);
    let start = r.offset();
    let b = r.bytes(n as usize).map_err(|e| e.at_path(&mp))?;
    if n > 0 {
        f.add(
            start,
            n as u64,
            mp,
            format!("u8[{n}]"),
            format!("{b:?} (0 = the mesh's transform, N = SKIN bone N-1)"),
            P,
            VENDOR,
        );
    }
    Ok(b.to_vec())
}

pub fn read_mesh(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<MeshChunk> {
    let f = &mut p.fields;
    let mut m = MeshChunk { fvf: f.read(r, PathText::concat(&[path, ".fvf"]), P, VENDOR)?, ..Default::default() };
    if let Some(s) = f.spans.last_mut() {
        s.ty = "u32 flags".into();
        s.value = fvf_names(m.fvf).into();
        s.note = "vendor description (0x1000: Direct3D last-blend-value-is-u8[4]-indices, observed in gun2.ply)".into();
    }
    (m.face_start, m.face_count) = faces(f, &mut p.places.subs, r, path)?;
    m.flags = f.flags(r, PathText::concat(&[path, ".mesh_flags"]), &MESH_FLAGS, P, VENDOR)?;
    if m.flags & 0x200 != 0 {
        m.specular = Some(f.read(r, PathText::concat(&[path, ".specular_color"]), P, VENDOR)?);
    }
    if m.flags & 0x400 != 0 {
        m.material = Some(name(f, r, &PathText::concat(&[path, ".material_name"]), P, VENDOR)?);
    } else {
        let uv_sets = (m.fvf >> 8) & 0xf;
        let names: &[&str] = if m.flags & 0x300 != 0 {
            match (m.flags & 0x200 != 0, m.flags & 0x100 != 0) {
                (true, true) => &["diffuse", "specular_texture", "bump_texture"],
                (true, false) => &["diffuse", "specular_texture"],
                _ => &["diffuse", "bump_texture"],
            }
        } else if uv_sets == 2 || m.flags & 0x1000 != 0 {
            &["diffuse_0", "diffuse_1"]
        } else {
            &["diffuse"]
        };
        for n in names {
            m.textures.push(name(f, r, &format!("{path}.{n}"), P, VENDOR)?);
        }
    }
    if m.flags & 0x10 != 0 {
        m.bone_map = Some(bone_map(f, r, path, "bone_map_size")?);
    }
    Ok(m)
}

/// A list of a submesh ended by 0xFF, each item led by one byte.
struct List<'a> {
    /// The submesh's path.
    path: &'a str,
    /// The list's name, e.g. `tags`.
    list: &'static str,
    /// The name of an item's first byte, e.g. `tag_index`.
    field: &'static str,
    /// How that byte is shown.
    show: fn(u8) -> String,
    confidence: Confidence,
    note: &'static str,
}

/// One item's path and its first byte.
struct Lead {
    path: PathText,
    byte: u8,
}

/// The first byte of item `i` of the list: `None` at the 0xFF that ends it (recorded as
/// `{path}.{list}_end`), else the item's path and the byte, recorded as its `field`.
fn list_lead(f: &mut Fields, r: &mut Reader, l: &List, i: usize) -> Result<Option<Lead>> {
    let (path, list, field) = (l.path, l.list, l.field);
    let item = PathText::concat(&[path, ".", list, "[", decimal(i as u64, &mut Digits::new()), "]"]);
    let field_path = PathText::concat(&[&item, ".", field]);
    let at = r.offset();
    let b = r.u8().map_err(|e| e.at_path(&field_path))?;
    if b == 0xff {
        f.add(at, 1, PathText::concat(&[path, ".", list, "_end"]), "u8", "0xff (end of list)", l.confidence, l.note);
        return Ok(None);
    }
    f.add(at, 1, field_path, "u8", (l.show)(b), l.confidence, l.note);
    Ok(Some(Lead { path: item, byte: b }))
}

/// A submesh's face_start and face_count; where the count is is kept for the check that the
/// submeshes cover the triangles.
fn faces<T: FieldType>(f: &mut Fields, subs: &mut Vec<SubPlace>, r: &mut Reader, path: &str) -> Result<(T, T)> {
    let start = f.read(r, PathText::concat(&[path, ".face_start"]), P, VENDOR)?;
    let at = r.offset();
    let count = f.read(r, PathText::concat(&[path, ".face_count"]), P, VENDOR)?;
    subs.push(SubPlace { path: path.into(), face_count_at: at });
    Ok((start, count))
}

/// A submesh's vertex elements and its tags.
struct ElementsAndTags {
    elements: Vec<Element>,
    tags: Vec<Tag>,
}

/// The SBM1 element and tag lists, each ended by 0xFF; the AS2 SUBM stores the same.
fn elements_and_tags(
    f: &mut Fields,
    r: &mut Reader,
    path: &str,
    conf: Confidence,
    note: &'static str,
) -> Result<ElementsAndTags> {
    let list = |list, field, show| List { path, list, field, show, confidence: conf, note };
    let element_list = list("vertex_elements", "type_usage", type_usage_name);
    let mut elements = Vec::new();
    while let Some(Lead { path: ep, byte: tu }) = list_lead(f, r, &element_list, elements.len())? {
        let usage_index = f.read(r, PathText::concat(&[ep.as_str(), ".usage_index"]), conf, note)?;
        let stream = f.read(r, PathText::concat(&[ep.as_str(), ".stream_index"]), conf, note)?;
        elements.push(Element { type_usage: tu, usage_index, stream });
    }
    let mut tags = Vec::new();
    let tag_list = list("tags", "tag_index", |t| t.to_string());
    while let Some(Lead { path: tp, byte: tag_index }) = list_lead(f, r, &tag_list, tags.len())? {
        let at = r.offset();
        let id: u32 = r.u32().map_err(|e| e.at_path(&PathText::concat(&[tp.as_str(), ".tag_chunk"])))?;
        let shown = format!("0x{id:08x} (\"{}\")", show_text(&id.to_le_bytes()));
        f.add(at, 4, PathText::concat(&[tp.as_str(), ".tag_chunk"]), "u32", shown, conf, note);
        tags.push(Tag { tag_index, tag_chunk: id });
    }
    Ok(ElementsAndTags { elements, tags })
}

pub fn read_sbm1(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<Sbm1> {
    let f = &mut p.fields;
    let ElementsAndTags { elements, tags } = elements_and_tags(f, r, path, P, VENDOR)?;
    let (face_start, face_count) = faces(f, &mut p.places.subs, r, path)?;
    let flags = f.flags(r, PathText::concat(&[path, ".mesh_flags"]), &MESH_FLAGS, P, VENDOR)?;
    let material = name(f, r, &PathText::concat(&[path, ".material_name"]), P, VENDOR)?;
    Ok(Sbm1 { elements, tags, face_start, face_count, flags, material })
}

pub fn read_subm_gem3(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<SubmGem3> {
    let f = &mut p.fields;
    let mut s = SubmGem3 {
        vertex_format: f.read(r, PathText::concat(&[path, ".vertex_format"]), P, VENDOR)?,
        ..Default::default()
    };
    if let Some(sp) = f.spans.last_mut() {
        sp.ty = "u16 flags".into();
        sp.value = vertex_format_names(s.vertex_format).into();
    }
    (s.face_start, s.face_count) = faces(f, &mut p.places.subs, r, path)?;
    s.vertex_start = f.read(r, PathText::concat(&[path, ".vertex_start"]), P, VENDOR)?;
    s.vertex_count = f.read(r, PathText::concat(&[path, ".vertex_count"]), P, VENDOR)?;
    s.flags = f.flags(r, PathText::concat(&[path, ".mesh_flags"]), &GEM3_FLAGS, P, VENDOR)?;
    if s.flags & 0x2 != 0 {
        s.bone_map = Some(bone_map(f, r, path, "bone_count")?);
    }
    s.material = name(f, r, &PathText::concat(&[path, ".material_name"]), P, VENDOR)?;
    Ok(s)
}

const AS2_LISTS: &str = "observed: map_4v4_long.ply stores 3-byte elements (type_usage, usage_index, \
stream) ended by 0xFF and then an empty 0xFF-ended tag list, as SBM1 does; the vendor description \
says one type_usage byte per element and no tags";

pub fn read_subm_as2(p: &mut Parsed, r: &mut Reader, path: &str) -> Result<SubmAs2> {
    let f = &mut p.fields;
    let ElementsAndTags { elements, tags } = elements_and_tags(f, r, path, O, AS2_LISTS)?;
    let (face_start, face_count) = faces(f, &mut p.places.subs, r, path)?;
    let note = "the vendor description calls these unknown; map_4v4_long.ply holds 0 and the VERT \
vertex count here (vertex start and count?)";
    let u0 = f.read(r, format!("{path}.unknown[0]"), Confidence::Unknown, note)?;
    let u1 = f.read(r, format!("{path}.unknown[1]"), Confidence::Unknown, note)?;
    let flags = f.flags(r, PathText::concat(&[path, ".mesh_flags"]), &MESH_FLAGS, P, VENDOR)?;
    let material = name(f, r, &PathText::concat(&[path, ".material_name"]), P, VENDOR)?;
    Ok(SubmAs2 { elements, tags, face_start, face_count, unknown: [u0, u1], flags, material })
}
