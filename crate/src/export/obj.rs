//! Wavefront OBJ: positions, normals, UV0, one group per section with its material.
//! Values are written exactly as decoded: no change of axes or handedness.

use crate::mesh::Lod;
use std::fmt::Write;

/// A name safe for an OBJ statement: OBJ splits on white space, so it is replaced.
fn obj_name(s: &str) -> String {
    let t: String = s.chars().map(|c| if c.is_whitespace() || c.is_control() { '_' } else { c }).collect();
    if t.is_empty() {
        "unnamed".into()
    } else {
        t
    }
}

pub fn write_obj(lod: &Lod, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# meshscope export of {}", obj_name(source));
    let n = lod.vertex_count();
    let has_n = lod.normals.len() == n * 3 && n > 0;
    let uv0 = lod.uvs.first().filter(|u| u.len() == n * 2);
    for p in lod.positions.chunks_exact(3) {
        let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
    }
    if let Some(uv) = uv0 {
        for t in uv.chunks_exact(2) {
            let _ = writeln!(out, "vt {} {}", t[0], t[1]);
        }
    }
    if has_n {
        for v in lod.normals.chunks_exact(3) {
            let _ = writeln!(out, "vn {} {} {}", v[0], v[1], v[2]);
        }
    }
    let face = |out: &mut String, tri: &[u32]| {
        let _ = write!(out, "f");
        for &i in tri {
            let i = i as usize + 1;
            let _ = match (uv0.is_some(), has_n) {
                (true, true) => write!(out, " {i}/{i}/{i}"),
                (true, false) => write!(out, " {i}/{i}"),
                (false, true) => write!(out, " {i}//{i}"),
                (false, false) => write!(out, " {i}"),
            };
        }
        let _ = writeln!(out);
    };
    let valid = |tri: &[u32]| tri.iter().all(|&i| (i as usize) < n);
    if lod.sections.is_empty() {
        for tri in lod.indices.chunks_exact(3).filter(|t| valid(t)) {
            face(&mut out, tri);
        }
    }
    for (k, s) in lod.sections.iter().enumerate() {
        let name = obj_name(&s.name);
        let _ = writeln!(out, "g section{k}_{name}");
        let _ = writeln!(out, "usemtl {name}");
        let start = s.index_start as usize;
        let end = start.saturating_add(s.index_count as usize).min(lod.indices.len());
        if let Some(idx) = lod.indices.get(start.min(end)..end) {
            for tri in idx.chunks_exact(3).filter(|t| valid(t)) {
                face(&mut out, tri);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::Section;

    #[test]
    fn groups_faces_by_section() {
        let lod = Lod {
            positions: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            normals: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            uvs: vec![vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0]],
            indices: vec![0, 1, 2, 2, 1, 0],
            sections: vec![
                Section { name: "metal plate".into(), index_start: 0, index_count: 3, ..Default::default() },
                Section { name: "b".into(), index_start: 3, index_count: 3, ..Default::default() },
            ],
            ..Default::default()
        };
        let obj = write_obj(&lod, "x");
        assert!(obj.contains("usemtl metal_plate\nf 1/1/1 2/2/2 3/3/3\n"));
        assert!(obj.contains("g section1_b\nusemtl b\nf 3/3/3 2/2/2 1/1/1\n"));
        assert_eq!(obj.matches("\nv ").count(), 3);
    }
}
