//! The CPU side of the view: one LOD's arrays, its sections, and what is built from them
//! (a three-d mesh per section, overlays, line sets, picking). Indices naming a vertex that
//! does not exist are skipped everywhere, so a bad file draws what it can.

use three_d::*;

pub struct Part {
    pub mesh: three_d::Mesh,
    pub visible: bool,
    pub two_sided: bool,
}

pub struct Sec {
    pub start: usize,
    pub count: usize,
    pub mirrored: bool,
    pub two_sided: bool,
    pub color: [f32; 3],
}

pub struct Geometry {
    pub positions: Vec<f32>,
    pub normals: Vec<f32>,
    pub tangents: Vec<f32>,
    pub uvs: Vec<f32>,
    pub indices: Vec<u32>,
    pub sections: Vec<Sec>,
    pub vertex_colors: Option<Vec<f32>>,
    pub bounds: Option<([f32; 3], [f32; 3])>,
}

fn v3(a: &[f32], i: usize) -> Vec3 {
    match a.get(i * 3..i * 3 + 3) {
        Some(p) => vec3(p[0], p[1], p[2]),
        None => vec3(0.0, 0.0, 0.0),
    }
}

fn finite(v: Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

impl Geometry {
    pub fn new(positions: Vec<f32>, normals: Vec<f32>, tangents: Vec<f32>, uvs: Vec<f32>, indices: Vec<u32>) -> Self {
        let n = positions.len() / 3;
        let finite_pos: Vec<f32> =
            positions.chunks_exact(3).filter(|p| p.iter().all(|x| x.is_finite())).flatten().copied().collect();
        let mut g = Geometry {
            bounds: crate::mesh::bounds_of(&finite_pos),
            normals: if normals.len() == n * 3 { normals } else { Vec::new() },
            tangents: if tangents.len() == n * 4 { tangents } else { Vec::new() },
            uvs: if uvs.len() == n * 2 { uvs } else { vec![0.0; n * 2] },
            positions,
            indices,
            sections: Vec::new(),
            vertex_colors: None,
        };
        if g.normals.is_empty() {
            g.normals = g.face_normals();
        }
        g.sections =
            vec![Sec { start: 0, count: g.indices.len(), mirrored: false, two_sided: false, color: [0.7, 0.72, 0.75] }];
        g
    }

    pub fn vertex_count(&self) -> usize {
        self.positions.len() / 3
    }

    /// Area-weighted vertex normals, for files that store none.
    fn face_normals(&self) -> Vec<f32> {
        let n = self.vertex_count();
        let mut out = vec![0.0f32; n * 3];
        for t in self.valid_triangles(0, self.indices.len()) {
            let [a, b, c] = t.map(|i| v3(&self.positions, i as usize));
            let f = (b - a).cross(c - a);
            for i in t {
                for k in 0..3 {
                    out[i as usize * 3 + k] += f[k];
                }
            }
        }
        out
    }

    fn valid_triangles(&self, start: usize, count: usize) -> impl Iterator<Item = [u32; 3]> + '_ {
        let n = self.vertex_count() as u32;
        let s = start.min(self.indices.len());
        let e = s.saturating_add(count).min(self.indices.len());
        self.indices[s..e].chunks_exact(3).map(|t| [t[0], t[1], t[2]]).filter(move |t| t.iter().all(|&i| i < n))
    }

    pub fn set_sections(&mut self, starts: &[u32], counts: &[u32], flags: &[u8], colors: &[f32]) {
        self.sections = starts
            .iter()
            .zip(counts)
            .enumerate()
            .map(|(k, (&s, &c))| {
                let f = flags.get(k).copied().unwrap_or(0);
                let col = colors.get(k * 3..k * 3 + 3).map_or([0.7, 0.72, 0.75], |c| [c[0], c[1], c[2]]);
                Sec { start: s as usize, count: c as usize, mirrored: f & 1 != 0, two_sided: f & 2 != 0, color: col }
            })
            .collect();
    }

    /// A three-d mesh of the given triangles with only the vertices they use; `color` per
    /// vertex comes from the vertex colors when set, else `fallback`.
    fn sub_mesh(
        &self,
        tris: impl Iterator<Item = [u32; 3]>,
        fallback: [f32; 3],
        use_vertex_colors: bool,
    ) -> Option<CpuMesh> {
        // Old index -> new index; u32::MAX is "not used yet". A flat table, not a hash map:
        // a million-vertex LOD is remapped in one pass.
        let mut map = vec![u32::MAX; self.vertex_count()];
        let (mut pos, mut nor, mut uv, mut col, mut idx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for t in tris {
            for i in t {
                let next = pos.len() as u32;
                let slot = &mut map[i as usize];
                if *slot == u32::MAX {
                    *slot = next;
                    let i = i as usize;
                    let p = v3(&self.positions, i);
                    pos.push(if finite(p) { p } else { vec3(0.0, 0.0, 0.0) });
                    let n = v3(&self.normals, i);
                    nor.push(if finite(n) && n.magnitude2() > 1e-20 { n.normalize() } else { vec3(0.0, 0.0, 1.0) });
                    uv.push(vec2(
                        self.uvs.get(i * 2).copied().unwrap_or(0.0),
                        self.uvs.get(i * 2 + 1).copied().unwrap_or(0.0),
                    ));
                    let c = match (&self.vertex_colors, use_vertex_colors) {
                        (Some(vc), true) => [vc[i * 3], vc[i * 3 + 1], vc[i * 3 + 2]],
                        _ => fallback,
                    };
                    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
                    col.push(Srgba::new(b(c[0]), b(c[1]), b(c[2]), 255));
                }
                idx.push(*slot);
            }
        }
        if idx.is_empty() {
            return None;
        }
        Some(CpuMesh {
            positions: Positions::F32(pos),
            indices: Indices::U32(idx),
            normals: Some(nor),
            uvs: Some(uv),
            colors: Some(col),
            ..Default::default()
        })
    }

    /// One mesh per section (an empty section gets a degenerate stand-in so indices line up),
    /// mirrored sections with their winding flipped.
    pub fn part_meshes(&self) -> Vec<(CpuMesh, bool)> {
        self.sections
            .iter()
            .map(|s| {
                let tris =
                    self.valid_triangles(s.start, s.count).map(|t| if s.mirrored { [t[0], t[2], t[1]] } else { t });
                let m = self.sub_mesh(tris, s.color, true).unwrap_or_else(|| CpuMesh {
                    positions: Positions::F32(vec![vec3(0.0, 0.0, 0.0); 3]),
                    normals: Some(vec![vec3(0.0, 0.0, 1.0); 3]),
                    uvs: Some(vec![vec2(0.0, 0.0); 3]),
                    colors: Some(vec![Srgba::WHITE; 3]),
                    ..Default::default()
                });
                (m, s.two_sided)
            })
            .collect()
    }

    pub fn overlay_mesh(&self, triangles: &[u32], color: [f32; 3]) -> Option<CpuMesh> {
        let n = self.vertex_count() as u32;
        let tris = triangles.iter().filter_map(|&t| {
            let t = t as usize;
            let s = self.indices.get(t * 3..t * 3 + 3)?;
            s.iter().all(|&i| i < n).then(|| [s[0], s[1], s[2]])
        });
        self.sub_mesh(tris, color, false)
    }

    pub fn marks(&self, vertices: &[u32], size: f32) -> Vec<f32> {
        let mut out = Vec::new();
        for &v in vertices.iter().filter(|&&v| (v as usize) < self.vertex_count()) {
            let p = v3(&self.positions, v as usize);
            for axis in [vec3(size, 0.0, 0.0), vec3(0.0, size, 0.0), vec3(0.0, 0.0, size)] {
                out.extend_from_slice(&[
                    p.x - axis.x,
                    p.y - axis.y,
                    p.z - axis.z,
                    p.x + axis.x,
                    p.y + axis.y,
                    p.z + axis.z,
                ]);
            }
        }
        out
    }

    /// The three edges of every triangle of every section.
    pub fn wireframe(&self) -> Vec<f32> {
        self.edges(0, self.indices.len())
    }

    /// The three edges of every triangle of the index range `start..start + count`.
    pub fn edges(&self, start: usize, count: usize) -> Vec<f32> {
        let mut out = Vec::new();
        for t in self.valid_triangles(start, count) {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                out.extend_from_slice(&self.positions[a as usize * 3..a as usize * 3 + 3]);
                out.extend_from_slice(&self.positions[b as usize * 3..b as usize * 3 + 3]);
            }
        }
        out
    }

    pub fn normal_lines(&self, len: f32) -> Vec<f32> {
        let mut out = Vec::new();
        for i in 0..self.vertex_count() {
            let (p, n) = (v3(&self.positions, i), v3(&self.normals, i));
            if finite(p) && finite(n) && n.magnitude2() > 1e-20 {
                let q = p + n.normalize() * len;
                out.extend_from_slice(&[p.x, p.y, p.z, q.x, q.y, q.z]);
            }
        }
        out
    }

    /// Tangents, and bitangents as cross(normal, tangent) times the stored sign.
    pub fn tangent_lines(&self, len: f32) -> (Vec<f32>, Vec<f32>) {
        let (mut t_out, mut b_out) = (Vec::new(), Vec::new());
        for (i, t) in self.tangents.chunks_exact(4).enumerate() {
            let (p, n, tv) = (v3(&self.positions, i), v3(&self.normals, i), vec3(t[0], t[1], t[2]));
            if !(finite(p) && finite(n) && finite(tv)) || tv.magnitude2() < 1e-20 {
                continue;
            }
            let q = p + tv.normalize() * len;
            t_out.extend_from_slice(&[p.x, p.y, p.z, q.x, q.y, q.z]);
            let b = n.cross(tv) * if t[3] < 0.0 { -1.0 } else { 1.0 };
            if b.magnitude2() > 1e-20 {
                let q = p + b.normalize() * len;
                b_out.extend_from_slice(&[p.x, p.y, p.z, q.x, q.y, q.z]);
            }
        }
        (t_out, b_out)
    }

    /// The nearest triangle on the ray among visible sections (index into the LOD's triangles).
    pub fn pick(&self, o: Vec3, d: Vec3, visible: &[bool]) -> Option<u32> {
        let mut best: Option<(f32, u32)> = None;
        for (k, s) in self.sections.iter().enumerate() {
            if !visible.get(k).copied().unwrap_or(true) {
                continue;
            }
            let first = s.start.min(self.indices.len()) / 3;
            for (j, t) in self
                .indices
                .get(s.start.min(self.indices.len())..s.start.saturating_add(s.count).min(self.indices.len()))
                .unwrap_or(&[])
                .chunks_exact(3)
                .enumerate()
            {
                if t.iter().any(|&i| i as usize >= self.vertex_count()) {
                    continue;
                }
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| v3(&self.positions, i as usize));
                if let Some(dist) = super::orbit::hit(o, d, a, b, c) {
                    if best.is_none_or(|(bd, _)| dist < bd) {
                        best = Some((dist, (first + j) as u32));
                    }
                }
            }
        }
        best.map(|(_, t)| t)
    }
}
