//! Builds a MeshSet and its chunks from triangle meshes: rigid, skinned or composite, 16- or
//! 32-bit indices, several LODs, any of them inline. The tests' fixtures come from here.

use super::declaration::{Declaration, Element};
use super::element_format::f32_to_half;
use super::header::Header;
use super::lod::Lod;
use super::measures::measure;
use super::section::Section;
use super::tangent::{encode, Frame};
use super::{writer, MeshSetDetails};
use crate::djb2_xor;

/// One section to build: a triangle mesh and the passes (section lists 0-4) that draw it.
#[derive(Debug, Clone, Default)]
pub struct TriMesh {
    pub material: String,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    /// x, y, z and the bitangent sign.
    pub tangents: Vec<[f32; 4]>,
    pub uv0: Vec<[f32; 2]>,
    pub uv1: Option<Vec<[f32; 2]>>,
    /// Skinned and composite meshes: four bone indices and weights per vertex.
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    pub lists: Vec<usize>,
    pub bones: Vec<u16>,
    /// The section flags byte (0x1B); `None` takes the flags the description's table gives
    /// the section's lists (`PASS_COMBINATIONS`).
    pub flags: Option<u8>,
    /// Positions stored as Half4 (usage 1, format 0x08) instead of Float3.
    pub half_positions: bool,
}

/// The description's table of list membership and section flags (its eight largest
/// combinations, largest first).
pub const PASS_COMBINATIONS: [(&[usize], u8); 8] = [
    (&[0], 0x0a),
    (&[3, 4], 0x04),
    (&[0, 3, 4], 0x0e),
    (&[2], 0x0a),
    (&[0, 3], 0x0a),
    (&[4], 0x04),
    (&[3], 0x00),
    (&[3, 4], 0x0c),
];

/// The flags of the first row of the table that holds exactly these lists; 0x0a otherwise.
pub fn pass_flags(lists: &[usize]) -> u8 {
    let mut l = lists.to_vec();
    l.sort_unstable();
    l.dedup();
    PASS_COMBINATIONS.iter().find(|(c, _)| *c == l.as_slice()).map_or(0x0a, |x| x.1)
}

#[derive(Debug, Clone, Default)]
pub struct BuildLod {
    pub sections: Vec<TriMesh>,
    pub index_32: bool,
    /// Geometry inside the resource (all-zero chunk GUID) instead of in a chunk.
    pub inline: bool,
}

#[derive(Debug, Clone, Default)]
pub struct BuildMesh {
    pub name: String,
    /// 0 rigid, 1 skinned, 2 composite.
    pub mesh_type: u8,
    pub bone_count: u16,
    pub lods: Vec<BuildLod>,
}

pub struct Built {
    pub details: MeshSetDetails,
    pub resource: Vec<u8>,
    pub resmeta: [u8; 16],
    /// (GUID, chunk bytes) per LOD with a chunk.
    pub chunks: Vec<([u8; 16], Vec<u8>)>,
}

fn decl(skinned: bool, uv1: bool, half_positions: bool) -> Declaration {
    let mut d = Declaration::default();
    let (format, mut s0) = if half_positions { (0x08, 8) } else { (0x03, 12) };
    let mut e = vec![Element { usage: 1, format, offset: 0, stream: 0 }];
    if skinned {
        e.push(Element { usage: 2, format: 0x17, offset: s0, stream: 0 });
        e.push(Element { usage: 4, format: 0x0D, offset: s0 + 8, stream: 0 });
        s0 += 12;
    }
    e.push(Element { usage: 52, format: 0x0D, offset: 0, stream: 1 });
    e.push(Element { usage: 33, format: 0x06, offset: 4, stream: 1 });
    let mut s1 = 8;
    if uv1 {
        e.push(Element { usage: 34, format: 0x06, offset: 8, stream: 1 });
        s1 = 12;
    }
    for (k, x) in e.iter().enumerate() {
        d.elements[k] = *x;
    }
    d.element_count = e.len() as u8;
    d.stream_count = 2;
    d.streams[0] = [s0, 0];
    d.streams[1] = [s1, 0];
    d
}

/// The chunk GUID of LOD `i`: derived from the name so builds are reproducible.
pub fn chunk_guid(name: &str, i: usize) -> [u8; 16] {
    let mut g = [0u8; 16];
    for k in 0..4 {
        let h = djb2_xor(format!("{name}#{i}#{k}").as_bytes());
        g[k * 4..k * 4 + 4].copy_from_slice(&h.to_le_bytes());
    }
    g
}

/// Vertex and index buffers of one LOD, laid out as the description says.
fn geometry(l: &BuildLod, skinned: bool, sections: &mut [Section]) -> (Vec<u8>, Vec<u8>) {
    let mut vb = Vec::new();
    let mut ib = Vec::new();
    let mut start_index = 0u32;
    for (t, s) in l.sections.iter().zip(sections.iter_mut()) {
        let n = t.positions.len();
        s.vertex_offset = vb.len() as u32;
        s.vertex_offset_again = s.vertex_offset;
        s.start_index = start_index;
        s.start_index_again = start_index;
        for v in 0..n {
            let p = t.positions[v];
            if t.half_positions {
                [p[0], p[1], p[2], 1.0].iter().for_each(|c| vb.extend_from_slice(&f32_to_half(*c).to_le_bytes()));
            } else {
                p.iter().for_each(|c| vb.extend_from_slice(&c.to_le_bytes()));
            }
            if skinned {
                let j = t.joints.get(v).copied().unwrap_or([0; 4]);
                j.iter().for_each(|c| vb.extend_from_slice(&c.to_le_bytes()));
                let w = t.weights.get(v).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
                vb.extend(w.iter().map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
            }
        }
        for v in 0..n {
            let nn = t.normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0]);
            let tt = t.tangents.get(v).copied().unwrap_or([1.0, 0.0, 0.0, 1.0]);
            vb.extend_from_slice(&encode(&Frame { normal: nn, tangent: [tt[0], tt[1], tt[2]], sign: tt[3] }));
            let uv = t.uv0.get(v).copied().unwrap_or([0.0; 2]);
            uv.iter().for_each(|c| vb.extend_from_slice(&f32_to_half(*c).to_le_bytes()));
            if let Some(u1) = &t.uv1 {
                let uv = u1.get(v).copied().unwrap_or([0.0; 2]);
                uv.iter().for_each(|c| vb.extend_from_slice(&f32_to_half(*c).to_le_bytes()));
            }
        }
        for &i in &t.indices {
            if l.index_32 {
                ib.extend_from_slice(&i.to_le_bytes())
            } else {
                ib.extend_from_slice(&(i as u16).to_le_bytes())
            }
        }
        start_index += t.indices.len() as u32;
    }
    vb.resize(vb.len().div_ceil(16) * 16, 0);
    (vb, ib)
}

/// Stored values: the bounds of the positions as given (before they are quantised, as the
/// game's are); the area and texel density of what the decoder will measure (UVs, and half
/// positions, through half floats first).
fn section_record(t: &TriMesh, skinned: bool) -> Section {
    let d = decl(skinned, t.uv1.is_some(), t.half_positions);
    let q = |c: f32| super::element_format::half_to_f32(f32_to_half(c));
    let exact: Vec<f32> = t.positions.iter().flatten().copied().collect();
    let pos: Vec<f32> = if t.half_positions { exact.iter().map(|&c| q(c)).collect() } else { exact.clone() };
    let half = |uv: &[[f32; 2]]| -> Vec<f32> { uv.iter().flatten().map(|&c| q(c)).collect() };
    let uv0 = half(&t.uv0);
    let uv1 = t.uv1.as_deref().map(half);
    let me = measure(&pos, [Some(&uv0), uv1.as_deref()], &t.indices);
    let (lo, hi) = measure(&exact, [None, None], &t.indices).bounds.unwrap_or(([0.0; 3], [0.0; 3]));
    let lower = t.material.to_lowercase();
    Section {
        material: t.material.clone(),
        bones: t.bones.clone(),
        flags: t.flags.unwrap_or_else(|| pass_flags(&t.lists)),
        material_slot: 0,
        stride: d.stride(0) as u8 + d.stride(1) as u8,
        primitive_type: 3,
        primitive_count: (t.indices.len() / 3) as u32,
        vertex_count: t.positions.len() as u32,
        uv_density: [me.uv_density[0].unwrap_or(1.0) as f32, me.uv_density[1].unwrap_or(1.0) as f32],
        stored: d.clone(),
        draw: d,
        material_key: (djb2_xor(lower.as_bytes()) as u64) << 32 | 0x5eed,
        material_hash: djb2_xor(lower.as_bytes()),
        area: me.area as f32,
        bounds_min: [lo[0], lo[1], lo[2], 0.0],
        bounds_max: [hi[0], hi[1], hi[2], 0.0],
        ..Default::default()
    }
}

/// Bone bounds as the builder stores them (one per bone, bone ids 0..bone_count): the box of
/// the vertices, over every LOD, whose largest weight is on that bone, taking a vertex's joint
/// as the bone id (the builder's own reading; the description does not say what the boxes
/// hold). A bone no vertex follows gets an all-zero box. This is what the view measures, so a
/// built mesh shows its stored and measured bone boxes on top of each other.
pub fn bone_bounds(b: &BuildMesh) -> Vec<[f32; 8]> {
    let mut out: Vec<Option<([f32; 3], [f32; 3])>> = vec![None; b.bone_count as usize];
    for t in b.lods.iter().flat_map(|l| &l.sections) {
        for (v, p) in t.positions.iter().enumerate() {
            let (Some(j), Some(w)) = (t.joints.get(v), t.weights.get(v)) else { continue };
            // The first of equal largest weights as stored (UByte4N), as the view picks it.
            let mut best = None;
            let mut bw = 0.0;
            for k in 0..4 {
                let q = (w[k].clamp(0.0, 1.0) * 255.0).round();
                if q > bw {
                    bw = q;
                    best = Some(j[k] as usize);
                }
            }
            let Some(slot) = best.and_then(|j| out.get_mut(j)) else { continue };
            *slot = Some(match *slot {
                None => (*p, *p),
                Some((lo, hi)) => ([0, 1, 2].map(|k| lo[k].min(p[k])), [0, 1, 2].map(|k| hi[k].max(p[k]))),
            });
        }
    }
    out.into_iter()
        .map(|x| x.map_or([0.0; 8], |(lo, hi)| [lo[0], lo[1], lo[2], 0.0, hi[0], hi[1], hi[2], 0.0]))
        .collect()
}

pub fn build(b: &BuildMesh) -> Built {
    let skinned = b.mesh_type != 0;
    let (hsize, lod_bytes) = match b.mesh_type {
        1 => (0xe0, 0xbc),
        2 => (0xe0, 0xb8),
        _ => (0xd0, 0xb0),
    };
    let any_inline = b.lods.iter().any(|l| l.inline);
    let last = b.name.rfind('/').map_or(0, |p| p + 1) as u32;
    let mut h = Header {
        raw: vec![0; hsize],
        size_minus_16: hsize as u32 - 16,
        lod_bytes,
        section_bytes: 384,
        name: b.name.clone(),
        name_last: last,
        name_hash: djb2_xor(b.name.as_bytes()),
        mesh_type: b.mesh_type,
        unknown_7d: 3,
        layout_flags: if any_inline { 0 } else { 1 },
        lod_count: b.lods.len() as u16,
        ..Default::default()
    };
    let lod0_hash = djb2_xor(format!("{}_lod0", b.name).as_bytes());
    let mut lods = Vec::new();
    let mut chunks = Vec::new();
    let mut trailing = Vec::new();
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for (i, bl) in b.lods.iter().enumerate() {
        let mut sections: Vec<Section> = bl.sections.iter().map(|t| section_record(t, skinned)).collect();
        for s in &sections {
            for k in 0..3 {
                lo[k] = lo[k].min(s.bounds_min[k]);
                hi[k] = hi[k].max(s.bounds_max[k]);
            }
        }
        let (vb, ib) = geometry(bl, skinned, &mut sections);
        let name = format!("Mesh:{}_lod{i}", b.name);
        let mut lists: [Vec<u8>; 5] = Default::default();
        for (k, t) in bl.sections.iter().enumerate() {
            for &p in &t.lists {
                if p < 5 {
                    lists[p].push(k as u8);
                }
            }
        }
        let bone_masks = if b.mesh_type == 2 {
            bl.sections
                .iter()
                .map(|t| {
                    let mut m = [0u8; 24];
                    for &bone in &t.bones {
                        if (bone as usize) < 192 {
                            m[bone as usize / 8] |= 1 << (bone % 8);
                        }
                    }
                    m
                })
                .collect()
        } else {
            Vec::new()
        };
        let bone_map = if b.mesh_type == 1 { (0..b.bone_count as u32).collect() } else { Vec::new() };
        let guid = if bl.inline { [0; 16] } else { chunk_guid(&b.name, i) };
        let l = Lod {
            raw: vec![0; lod_bytes as usize],
            sections,
            lists,
            layout_flags: if bl.inline { 0 } else { 0x40 },
            index_format: if bl.index_32 { 0x2e } else { 0x21 },
            index_bytes: ib.len() as u32,
            vertex_bytes: vb.len() as u32,
            chunk: guid,
            name_part: 5,
            name_last: 5 + b.name.rfind('/').map_or(0, |p| p + 1) as u32,
            name,
            name_hash: lod0_hash,
            bone_masks,
            bone_map,
        };
        if bl.inline {
            trailing.extend_from_slice(&vb);
            trailing.extend_from_slice(&ib);
            trailing.extend_from_slice(&[0; 4]);
        } else {
            let mut c = vb;
            c.extend_from_slice(&ib);
            chunks.push((guid, c));
        }
        lods.push(l);
    }
    if lo[0] <= hi[0] {
        h.bounds_min = [lo[0], lo[1], lo[2], 0.0];
        h.bounds_max = [hi[0], hi[1], hi[2], 0.0];
    }
    if skinned {
        h.bone_count = b.bone_count;
        // Composite meshes bound every bone by id; skinned ones bound per bone (no ids).
        h.bounded_bone_count = if b.mesh_type == 2 { b.bone_count } else { 0 };
        if b.mesh_type == 2 {
            h.bone_ids = (0..b.bone_count).collect();
        }
        h.bone_bounds = bone_bounds(b);
    }
    let mut details = MeshSetDetails { header: h, lods, trailing, ..Default::default() };
    // Laid out as the game lays it out; the details then hold that placement, as a decode
    // of the resource would.
    let (place, table) = super::placement::game(&details);
    details.placement = Some(place);
    details.relocation = table;
    let resource = writer::write(&details).unwrap_or_default();
    details.resmeta_computed = writer::resmeta(&details);
    let resmeta = super::relocation::meta_bytes(details.resmeta_computed);
    Built { details, resource, resmeta, chunks }
}

/// A box of `size` metres per side centred on `centre`: 24 vertices (4 per face, with face
/// normals, tangents along +U and a 0..1 UV square per face) and 12 triangles.
pub fn cube(material: &str, size: f32, centre: [f32; 3]) -> TriMesh {
    let mut t = TriMesh { material: material.into(), lists: vec![0, 3, 4], ..Default::default() };
    let h = size / 2.0;
    // (normal, u axis, v axis)
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    for (n, u, v) in faces {
        let base = t.positions.len() as u32;
        for (a, bb) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [0, 1, 2].map(|k| centre[k] + h * (n[k] + a * u[k] + bb * v[k]));
            t.positions.push(p);
            t.normals.push(n);
            t.tangents.push([u[0], u[1], u[2], 1.0]);
            t.uv0.push([(a + 1.0) / 2.0, (bb + 1.0) / 2.0]);
        }
        t.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    t
}

/// A flat grid of `n` x `n` quads in the z = 0 plane, `cell` metres each, UV 0..1 overall.
pub fn grid(material: &str, n: u32, cell: f32) -> TriMesh {
    let mut t = TriMesh { material: material.into(), lists: vec![0, 3, 4], ..Default::default() };
    for y in 0..=n {
        for x in 0..=n {
            t.positions.push([x as f32 * cell, y as f32 * cell, 0.0]);
            t.normals.push([0.0, 0.0, 1.0]);
            t.tangents.push([1.0, 0.0, 0.0, 1.0]);
            t.uv0.push([x as f32 / n as f32, y as f32 / n as f32]);
        }
    }
    let w = n + 1;
    for y in 0..n {
        for x in 0..n {
            let a = y * w + x;
            t.indices.extend([a, a + 1, a + w + 1, a, a + w + 1, a + w]);
        }
    }
    t
}
