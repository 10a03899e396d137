//! Synthetic files for everything the real samples lack, built with the builder: the tests
//! decode each back and compare with what was built; the fuzzer and the bench start from them.

use super::builder::{torus, Builder, Vertex};
use super::vertex::Layout;
use super::{Chunk, Element, Magic, MeshChunk, Sbm1, SubmAs2, SubmGem3, Tag};
use crate::span::Confidence;

/// A built file and what went into it.
#[derive(Debug, Clone)]
pub struct Fixture {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    pub verts: Vec<Vertex>,
    pub indices: Vec<u32>,
    /// UV sets stored, and per set how exactly it comes back (0: exact).
    pub uv_tolerance: Vec<f32>,
    /// Colors stored (set 0), and whether the file says to double them.
    pub colors: Option<bool>,
    /// Weights stored per vertex before the implicit last one, and their quantum.
    pub weights: Option<(usize, f32)>,
    /// Bone map per submesh, and SKIN names.
    pub bone_maps: Vec<Vec<u8>>,
    pub skin: Vec<String>,
    pub tangents: bool,
    /// The vertices store bone indices (GEM3 skins store weights only).
    pub joints: bool,
}

fn el(type_usage: u8, usage_index: u8) -> Element {
    Element { type_usage, usage_index, stream: 0 }
}

fn small() -> (Vec<Vertex>, Vec<u32>) {
    let (mut v, i) = torus(6, 4, 1.0, 0.4);
    for (k, x) in v.iter_mut().enumerate() {
        // Values halves and shorts hold exactly.
        x.uvs[1] = [(k % 8) as f32 / 8.0, (k % 5) as f32 / 4.0];
        x.uvs[2] = [(k % 7) as f32, -((k % 3) as f32)];
        x.uvs[3] = [k as f32 * 0.5, 0.0];
        x.weights = [0.5, 0.25, 0.125, 0.125];
        x.joints = [(k % 3) as u8, ((k + 1) % 3) as u8, 0, 1];
        x.wind = k as f32 * 0.25;
    }
    (v, i)
}

fn fitted(mut l: Layout, stride: u32, bump: bool) -> Layout {
    l.fit(stride, bump);
    l
}

fn mesh(fvf: u32, start: i32, count: i32, flags: u32) -> MeshChunk {
    MeshChunk { fvf, face_start: start, face_count: count, flags, ..Default::default() }
}

fn name(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn base(name: &'static str, verts: Vec<Vertex>, indices: Vec<u32>) -> Fixture {
    Fixture {
        name,
        bytes: Vec::new(),
        verts,
        indices,
        uv_tolerance: vec![0.0],
        colors: None,
        weights: None,
        bone_maps: Vec::new(),
        skin: Vec::new(),
        tangents: false,
        joints: false,
    }
}

pub fn all() -> Vec<Fixture> {
    let (v, i) = small();
    let i16: Vec<u16> = i.iter().map(|&x| x as u16).collect();
    let faces = (i.len() / 3) as i32;
    let half = faces / 2;
    let mut out = Vec::new();

    // MESH: two UV sets (so two diffuse textures), colors, specular without material, MROR.
    let fvf = 0x252;
    let l = Layout::from_fvf(fvf);
    let s = l.size();
    let mut m = mesh(fvf, 0, faces, 0x200);
    m.specular = Some([1, 2, 3, 4]);
    m.textures = vec![name("a_diffuse.dds"), name("a_specular.dds")];
    let b = Builder::new(Magic::Eply)
        .bnds(&v)
        .chunk(Chunk::Mesh(m))
        .vert(&fitted(l, s, false), s as u16, 0x7, &v)
        .indx(&i16)
        .chunk(Chunk::Mror);
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        uv_tolerance: vec![0.0, 0.0],
        colors: Some(false),
        ..base("mesh_uv2_specular_mirror", v.clone(), i.clone())
    });

    // MESH: bump only (diffuse + bump texture), 16 tail bytes of tangent; and 0x1000.
    let fvf = 0x112;
    let l = fitted(Layout::from_fvf(fvf), 48, true);
    let mut m0 = mesh(fvf, 0, half, 0x100);
    m0.textures = vec![name("b_diffuse.dds"), name("b_bump.dds")];
    let mut m1 = mesh(fvf, half, faces - half, 0x1100);
    m1.textures = vec![name("b2_diffuse.dds"), name("b2_bump.dds")];
    let b = Builder::new(Magic::Eply).chunk(Chunk::Mesh(m0)).chunk(Chunk::Mesh(m1)).vert(&l, 48, 0x3, &v).indx(&i16);
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        tangents: true,
        ..base("mesh_bump_tangent", v.clone(), i.clone())
    });

    // MESH: tangent from the fvf bits, two textures sharing one texcoord set.
    let fvf = 0x8000_e112;
    let l = Layout::from_fvf(fvf);
    let s = l.size();
    let mut m = mesh(fvf, 0, faces, 0x1000);
    m.textures = vec![name("c0.dds"), name("c1.dds")];
    let b = Builder::new(Magic::Eply).chunk(Chunk::Mesh(m)).vert(&fitted(l, s, false), s as u16, 0x3, &v).indx(&i16);
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        tangents: true,
        ..base("mesh_fvf_tangent", v.clone(), i.clone())
    });

    // MESH skinned, 3 bones (two f32 weights + indices) and 4 bones (three), two bone maps.
    for (fx, fvf, nw) in [("mesh_skin3", 0x111a_u32, 2usize), ("mesh_skin4", 0x111c, 3)] {
        let l = Layout::from_fvf(fvf);
        let s = l.size();
        let mut m0 = mesh(fvf, 0, half, 0x410);
        m0.material = Some(name("skin_a.mtl"));
        m0.bone_map = Some(vec![0, 1, 2]);
        let mut m1 = mesh(fvf, half, faces - half, 0x1010);
        m1.textures = vec![name("d0.dds"), name("d1.dds")];
        m1.bone_map = Some(vec![3, 2, 1]);
        let skin = vec!["root".to_string(), "arm".into(), "hand".into()];
        let b = Builder::new(Magic::Eply)
            .bnds(&v)
            .chunk(Chunk::Skin(skin.iter().map(|x| name(x)).collect()))
            .chunk(Chunk::Mesh(m0))
            .chunk(Chunk::Mesh(m1))
            .vert(&fitted(l, s, false), s as u16, 0x7, &v)
            .indx(&i16);
        out.push(Fixture {
            bytes: b.build().unwrap_or_default(),
            weights: Some((nw, 0.0)),
            joints: true,
            bone_maps: vec![vec![0, 1, 2], vec![3, 2, 1]],
            skin,
            ..base(fx, v.clone(), i.clone())
        });
    }

    // SBM1 with every element type and tags; ADJA, SHDW, MARK.
    let elements = vec![
        el(0x02, 0), // FLOAT3 POSITION
        el(0x12, 0), // FLOAT3 NORMAL
        el(0x31, 0), // FLOAT2 TEXCOORD 0
        el(0x37, 1), // HALF4 TEXCOORD 1
        el(0x34, 2), // SHORT2 TEXCOORD 2
        el(0x30, 3), // FLOAT1 TEXCOORD 3
        el(0x26, 0), // COLOR COLOR 0
        el(0x48, 0), // BYTE4N BLEND WEIGHT
        el(0x55, 0), // BYTE4 BLEND INDICES
        el(0x63, 0), // FLOAT4 TANGENT
    ];
    let (l, _) = Layout::from_elements(&elements, Confidence::Proven, "");
    let s = l.size();
    let sb = |start, count, flags, mat: &str, tags: Vec<Tag>| {
        Chunk::Sbm1(Sbm1 {
            elements: elements.clone(),
            tags,
            face_start: start,
            face_count: count,
            flags,
            material: name(mat),
        })
    };
    let adja: Vec<[u16; 3]> =
        (0..faces as u16).map(|f| [f.wrapping_add(1).min(faces as u16 - 1), 0xffff, f / 2]).collect();
    let shdw: Vec<u8> = (0..faces).map(|f| (f % 3 != 0) as u8).collect();
    let b = Builder::new(Magic::Eply)
        .chunk(sb(
            0,
            half,
            0x401,
            "e0.mtl",
            vec![Tag { tag_index: 0, tag_chunk: u32::from_le_bytes(*b"WIND") }, Tag { tag_index: 6, tag_chunk: 7 }],
        ))
        .chunk(sb(half, faces - half, 0x440, "e1.mtl", vec![]))
        .vert(&fitted(l, s, false), s as u16, 0x1, &v)
        .indx(&i16)
        .chunk(Chunk::Adja(adja))
        .chunk(Chunk::Shdw(shdw))
        .chunk(Chunk::Mark(vec![9, 8, 7, 6, 5]));
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        uv_tolerance: vec![0.0, 0.0, 0.0, 0.0],
        colors: Some(false),
        weights: Some((4, 1.0 / 255.0)),
        tangents: true,
        joints: true,
        ..base("sbm1_all_types", v.clone(), i.clone())
    });

    // PM01 SUBM: every attribute bit, two submeshes with vertex ranges.
    let vf = 0x1ff;
    let l = Layout::from_gem3(vf);
    let s = l.size();
    let vmid = i.iter().take(half as usize * 3).copied().max().unwrap_or(0) as u16 + 1;
    let sub = |fs: i32, fc: i32, vs: u16, vc: u16, flags: u16, mat: &str, bm: Option<Vec<u8>>, vf: u16| {
        Chunk::Subm(SubmGem3 {
            vertex_format: vf,
            face_start: fs as u16,
            face_count: fc as u16,
            vertex_start: vs,
            vertex_count: vc,
            flags,
            bone_map: bm,
            material: name(mat),
        })
    };
    let nv = v.len() as u16;
    let b = Builder::new(Magic::Pm01)
        .bnds(&v)
        .chunk(sub(0, half, 0, vmid, 0x1, "f0.mtl", None, vf))
        .chunk(sub(half, faces - half, 0, nv, 0x0, "f1.mtl", None, vf))
        .vert(&fitted(l, s, false), s as u16, 0x2, &v)
        .indx(&i16);
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        uv_tolerance: vec![0.0, 0.0, 0.0, 0.0],
        colors: Some(true),
        tangents: true,
        ..base("pm01_subm", v.clone(), i.clone())
    });

    // PM01 skinned, 3 and 4 bones (u8 weights), wind.
    for (fx, vf, nw) in [("pm01_skin3", 0xc13_u16, 2usize), ("pm01_skin4", 0xe13, 3)] {
        let l = Layout::from_gem3(vf);
        let s = l.size();
        let skin = vec!["hip".to_string(), "knee".into()];
        let b = Builder::new(Magic::Pm01)
            .chunk(Chunk::Skin(skin.iter().map(|x| name(x)).collect()))
            .chunk(sub(0, faces, 0, nv, 0x3, "g.mtl", Some(vec![2, 0, 1]), vf))
            .vert(&fitted(l, s, false), s as u16, 0x7, &v)
            .indx(&i16);
        out.push(Fixture {
            bytes: b.build().unwrap_or_default(),
            weights: Some((nw, 1.0 / 255.0)),
            bone_maps: vec![vec![2, 0, 1]],
            skin,
            ..base(fx, v.clone(), i.clone())
        });
    }

    // PM01 as the description's table lays it out: the skin bits give 1-3 weight bytes and
    // no bone indices, so 0x31f is 57 bytes; and 0x213 (33 bytes) in 36-byte vertices, the
    // last 3 bytes explained by nothing.
    for (fx, vf, stride) in [("pm01_skin2_57", 0x31f_u16, 57u16), ("pm01_skin2_padded", 0x213, 36)] {
        let l = Layout::from_gem3(vf);
        let b = Builder::new(Magic::Pm01)
            .chunk(Chunk::Skin(vec![name("root")]))
            .chunk(sub(0, faces, 0, nv, 0x2, "h.mtl", Some(vec![1, 0]), vf))
            .vert(&fitted(l, stride as u32, false), stride, 0x7, &v)
            .indx(&i16);
        out.push(Fixture {
            bytes: b.build().unwrap_or_default(),
            weights: Some((1, 1.0 / 255.0)),
            colors: (vf & 0x4 != 0).then_some(false),
            tangents: vf & 0x100 != 0,
            bone_maps: vec![vec![1, 0]],
            skin: vec!["root".into()],
            ..base(fx, v.clone(), i.clone())
        });
    }

    // BPLY landscape: AS2 SUBM with a tag, BAS2, InfG, IND4, ADJA, SHDW, MARK, doubled colors.
    let elements = vec![el(0x02, 0), el(0x12, 0), el(0x26, 0), el(0x31, 0)];
    let (l, _) = Layout::from_elements(&elements, Confidence::Observed, "");
    let grid: Vec<u16> = (0..faces as u16).map(|f| (f % 2) | if f % 5 == 0 { 0x8000 } else { 0 }).collect();
    let b = Builder::new(Magic::Bply)
        .bnds(&v)
        .chunk(Chunk::SubmAs2(SubmAs2 {
            elements: elements.clone(),
            tags: vec![Tag { tag_index: 3, tag_chunk: u32::from_le_bytes(*b"GRID") }],
            face_start: 0,
            face_count: faces as u32,
            unknown: [0, v.len() as u32],
            flags: 0x1404,
            material: name("land.mtl"),
        }))
        .chunk(Chunk::Bas2 {
            polygons: [[0.0, 0.0], [100.0, 0.0], [0.0, 100.0]],
            texture: [[0.5, 0.5], [0.01, 0.0], [0.0, 0.01]],
        })
        .chunk(Chunk::InfG { start: [-2, -3], end: [4, 5], faces: grid })
        .vert(&fitted(l, 44, false), 44, 0x0, &v)
        .ind4(&i)
        .chunk(Chunk::Adja((0..faces as u16).map(|f| [0xffff, f, 0xffff]).collect()))
        .chunk(Chunk::Shdw(vec![1; faces as usize]))
        .chunk(Chunk::Mark(Vec::new()));
    out.push(Fixture {
        bytes: b.build().unwrap_or_default(),
        colors: Some(true),
        ..base("bply_grid", v.clone(), i.clone())
    });
    out
}
