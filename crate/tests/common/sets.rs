//! Deterministic sets of builder-made files, shared by the benchmarks (`examples/`, through
//! `#[path]`) and the page-output test: the same files are timed and checked.
// Each includer uses only part of it.
#![allow(dead_code)]

use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, Built, TriMesh};
use meshscope::formats::gem_ply::builder::{torus, Builder, Vertex};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{Chunk, Element, Magic, MeshChunk, SubmAs2};
use meshscope::Confidence;

/// A xorshift generator: a set is the same on every run.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// The seed of the census's and the small-files benchmark's MeshSets.
pub const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// One MeshSet (resource and chunks): its mesh type, LOD and section counts, index size and
/// names vary with `rng`, so that fields take many values across the set.
pub fn meshset_built(i: u32, rng: &mut Rng) -> Built {
    let mesh_type = (rng.next() % 3) as u8;
    let lods = 1 + rng.next() % 4;
    let mut b =
        BuildMesh { name: format!("props/set{}/mesh{i:05}", i % 37), mesh_type, bone_count: 0, lods: Vec::new() };
    if mesh_type != 0 {
        b.bone_count = 1 + (rng.next() % 24) as u16;
    }
    for l in 0..lods {
        let n = 1 + rng.next() % 6;
        let sections = (0..n)
            .map(|k| {
                let material = format!("Materials/Set{}/Mat{}", rng.next() % 50, k);
                let mut t: TriMesh = if rng.next().is_multiple_of(4) {
                    grid(&material, 1 + rng.next() % 3, 0.5)
                } else {
                    cube(&material, 0.5 + (rng.next() % 8) as f32, [0.0, (rng.next() % 5) as f32, 0.0])
                };
                if mesh_type != 0 {
                    t.bones = (0..b.bone_count.min(4)).collect();
                    t.joints = vec![[0, 1, 0, 0]; t.positions.len()];
                    t.weights = vec![[0.75, 0.25, 0.0, 0.0]; t.positions.len()];
                }
                t
            })
            .collect();
        b.lods.push(BuildLod {
            sections,
            index_32: rng.next().is_multiple_of(5),
            inline: l > 0 && rng.next().is_multiple_of(10),
        });
    }
    build(&b)
}

/// The MeshSet resource alone, as the census reads a folder of them.
pub fn meshset(i: u32, rng: &mut Rng) -> Vec<u8> {
    meshset_built(i, rng).resource
}

/// `n` MeshSet resources named `meshNNNNN.MeshSet`, from `SEED`.
pub fn meshsets(n: u32) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(SEED);
    (0..n).map(|i| (format!("mesh{i:05}.MeshSet"), meshset(i, &mut rng))).collect()
}

/// `n` one-LOD MeshSet resources of 1.5 to 2.5 KB (the stock size issue #21 measures),
/// the first such of the files `meshsets` makes, named as there.
pub fn small_meshsets(n: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(SEED);
    (0..)
        .map(|i| (i, meshset_built(i, &mut rng)))
        .filter(|(_, b)| b.details.lods.len() == 1 && (1500..=2500).contains(&b.resource.len()))
        .map(|(i, b)| (format!("mesh{i:05}.MeshSet"), b.resource))
        .take(n)
        .collect()
}

/// A landscape-like `.ply` of about `target_bytes`: BPLY, AS2 `SUBM`, 44-byte vertices,
/// `IND4`; about 70% of the bytes in vertices, the rest in indices.
pub fn landscape(target_bytes: usize) -> Vec<u8> {
    let nv = target_bytes * 7 / 10 / 44;
    let side = ((nv as f64).sqrt() as usize).max(2);
    let nv = side * side;
    let verts: Vec<Vertex> = (0..nv)
        .map(|k| {
            let (x, y) = ((k % side) as f32 * 10.0, (k / side) as f32 * 10.0);
            Vertex {
                position: [x, y, (x * 0.01).sin() * 5.0],
                normal: [0.0, 0.0, 1.0],
                uvs: [[x / 100.0, y / 100.0], [0.0; 2], [0.0; 2], [0.0; 2]],
                colors: [[127, 127, 127, 255], [0; 4]],
                ..Default::default()
            }
        })
        .collect();
    let left = target_bytes.saturating_sub(nv * 44 + 200) / 4 / 3 * 3;
    let mut idx = Vec::with_capacity(left);
    'outer: for r in 0..side - 1 {
        for c in 0..side - 1 {
            let a = (r * side + c) as u32;
            let b = a + side as u32;
            for i in [a, a + 1, b, b, a + 1, b + 1] {
                if idx.len() == left {
                    break 'outer;
                }
                idx.push(i);
            }
        }
    }
    while idx.len() < left {
        idx.push(0);
    }
    let elements: Vec<Element> =
        [0x02, 0x12, 0x26, 0x31].iter().map(|&t| Element { type_usage: t, usage_index: 0, stream: 0 }).collect();
    let (mut l, _) = Layout::from_elements(&elements, Confidence::Observed, "");
    l.fit(44, false);
    Builder::new(Magic::Bply)
        .bnds(&verts)
        .chunk(Chunk::SubmAs2(SubmAs2 {
            elements,
            tags: vec![],
            face_start: 0,
            face_count: (idx.len() / 3) as u32,
            unknown: [0, nv as u32],
            flags: 0x1404,
            material: b"bench.mtl".to_vec(),
        }))
        .vert(&l, 44, 0, &verts)
        .ind4(&idx)
        .build()
        .expect("landscape file")
}

/// An EPLY torus in `parts` `MESH` submeshes with materials, FVF vertices (position, normal,
/// color, UV0), 16-bit indices and a `SHDW`, as the page's sample is, of about `target_bytes`.
pub fn torus_ply(target_bytes: usize, parts: u32) -> Vec<u8> {
    // 36-byte vertices, 12 bytes of indices and 2 of shadow a quad: about 50 bytes a quad.
    let quads = (target_bytes / 50).max(16);
    let sides = ((quads as f64).sqrt() as u32).clamp(4, 200);
    let rings = (quads as u32 / sides).clamp(4, 320);
    let (verts, idx) = torus(rings, sides, 1.0 + rings as f32 * 0.01, 0.35);
    let fvf = 0x152;
    let mut layout = Layout::from_fvf(fvf);
    let stride = layout.size() as u16;
    layout.fit(stride as u32, false);
    let faces = (idx.len() / 3) as i32;
    let each = faces / parts as i32;
    let mut b = Builder::new(Magic::Eply).bnds(&verts);
    for p in 0..parts as i32 {
        let count = if p + 1 == parts as i32 { faces - each * p } else { each };
        b = b.chunk(Chunk::Mesh(MeshChunk {
            fvf,
            face_start: each * p,
            face_count: count,
            flags: 0x404 | (p as u32 & 1),
            material: Some(format!("bench_part{p}.mtl").into_bytes()),
            ..Default::default()
        }));
    }
    let idx16: Vec<u16> = idx.iter().map(|&i| i as u16).collect();
    let shadow = (0..faces).map(|f| (f % 3 == 0) as u8).collect();
    b.vert(&layout, stride, 0x2, &verts).indx(&idx16).chunk(Chunk::Shdw(shadow)).build().expect("torus file")
}

/// `n` `.ply` files of 10 to 200 KB (sizes spread evenly on a log scale, from a fixed seed),
/// torus and landscape files in turn, named `plyNNNN.ply`.
pub fn plys(n: u32) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(SEED ^ 0x5151);
    (0..n)
        .map(|i| {
            let t = (rng.next() % 1000) as f64 / 1000.0;
            let size = (10_000.0 * 20f64.powf(t)) as usize;
            let bytes = if i % 2 == 0 { torus_ply(size, 1 + rng.next() % 4) } else { landscape(size) };
            (format!("ply{i:04}.ply"), bytes)
        })
        .collect()
}
