//! Wavefront OBJ: positions, normals, UV0, one group per section with its material.
//! Values are written exactly as decoded: no change of axes or handedness, UVs as stored (the
//! glTF export writes them the same). A mirrored section's winding is flipped, as in the glTF
//! export. A vertex with a value OBJ cannot hold (NaN, infinity) is left out, and so are the
//! triangles that name it; `Obj` says how many.

use super::{Axes, NOTHING_DRAWABLE};
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

/// An OBJ export and what was left out of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Obj {
    pub text: String,
    /// Vertices not written because a value written for them (position, normal, UV0) is not
    /// finite: OBJ has no NaN or infinity.
    pub skipped_vertices: usize,
    /// Triangles not written because they name a skipped vertex.
    pub skipped_triangles: usize,
}

/// Whether every value written for vertex `v` is finite.
fn finite_vertex(lod: &Lod, v: usize, normals: bool, uv0: Option<&Vec<f32>>) -> bool {
    let all = |a: &[f32], k: usize| a.get(v * k..v * k + k).is_some_and(|x| x.iter().all(|c| c.is_finite()));
    all(&lod.positions, 3) && (!normals || all(&lod.normals, 3)) && uv0.is_none_or(|u| all(u, 2))
}

/// Writes one LOD, wound counter-clockwise as decoded, as OBJ (see `write_obj_axes`).
pub fn write_obj(lod: &Lod, source: &str) -> Result<Obj, String> {
    write_obj_axes(lod, source, Axes::GLTF)
}

/// Writes one LOD as OBJ, clockwise triangles wound counter-clockwise (OBJ has no axis
/// convention: no rotation). Refuses, with the message the glTF writer gives, a LOD with
/// nothing to draw (`super::drawable`).
pub fn write_obj_axes(lod: &Lod, source: &str, axes: Axes) -> Result<Obj, String> {
    if !super::drawable(lod) {
        return Err(NOTHING_DRAWABLE.into());
    }
    let mut out = String::new();
    let _ = writeln!(out, "# meshscope export of {}", obj_name(source));
    let n = lod.vertex_count();
    let has_n = lod.normals.len() == n * 3 && n > 0;
    let uv0 = lod.uvs.first().filter(|u| u.len() == n * 2);
    // OBJ numbers vertices from 1 in the order written; a skipped vertex takes no number.
    let mut number = vec![0u32; n];
    let mut next = 0u32;
    for (v, slot) in number.iter_mut().enumerate() {
        if finite_vertex(lod, v, has_n, uv0) {
            next += 1;
            *slot = next;
        }
    }
    let kept = |v: usize| number[v] != 0;
    for (_, p) in lod.positions.chunks_exact(3).enumerate().filter(|(v, _)| kept(*v)) {
        let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
    }
    if let Some(uv) = uv0 {
        for (_, t) in uv.chunks_exact(2).enumerate().filter(|(v, _)| kept(*v)) {
            let _ = writeln!(out, "vt {} {}", t[0], t[1]);
        }
    }
    if has_n {
        for (_, x) in lod.normals.chunks_exact(3).enumerate().filter(|(v, _)| kept(*v)) {
            let _ = writeln!(out, "vn {} {} {}", x[0], x[1], x[2]);
        }
    }
    let mut skipped_triangles = 0;
    let mut faces = |out: &mut String, tris: &[u32]| {
        for tri in tris.chunks_exact(3) {
            if !tri.iter().all(|&i| kept(i as usize)) {
                skipped_triangles += 1;
                continue;
            }
            let _ = write!(out, "f");
            for &i in tri {
                let i = number[i as usize];
                let _ = match (uv0.is_some(), has_n) {
                    (true, true) => write!(out, " {i}/{i}/{i}"),
                    (true, false) => write!(out, " {i}/{i}"),
                    (false, true) => write!(out, " {i}//{i}"),
                    (false, false) => write!(out, " {i}"),
                };
            }
            let _ = writeln!(out);
        }
    };
    let sections = super::sections_of(lod);
    for (k, s) in sections.iter().enumerate() {
        if !lod.sections.is_empty() {
            let name = obj_name(&s.name);
            let _ = writeln!(out, "g section{k}_{name}");
            let _ = writeln!(out, "usemtl {name}");
        }
        faces(&mut out, &super::section_triangles(lod, s, axes.clockwise));
    }
    Ok(Obj { text: out, skipped_vertices: number.iter().filter(|&&x| x == 0).count(), skipped_triangles })
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
        let obj = write_obj(&lod, "x").unwrap().text;
        assert!(obj.contains("usemtl metal_plate\nf 1/1/1 2/2/2 3/3/3\n"));
        assert!(obj.contains("g section1_b\nusemtl b\nf 3/3/3 2/2/2 1/1/1\n"));
        assert_eq!(obj.matches("\nv ").count(), 3);
    }

    #[test]
    fn mirrored_sections_are_flipped_as_in_the_gltf_export() {
        let mut lod = Lod {
            positions: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            indices: vec![0, 1, 2],
            sections: vec![Section { name: "m".into(), index_count: 3, mirrored: true, ..Default::default() }],
            ..Default::default()
        };
        assert!(write_obj(&lod, "x").unwrap().text.contains("\nf 1 3 2\n"));
        lod.sections[0].mirrored = false;
        assert!(write_obj(&lod, "x").unwrap().text.contains("\nf 1 2 3\n"));
    }

    #[test]
    fn vertices_obj_cannot_hold_are_left_out_and_counted() {
        // Vertex 1 has an infinite position and vertex 3 a NaN UV: both are left out, and the
        // triangles naming them; vertices 0, 2 and 4 are numbered 1, 2, 3.
        let lod = Lod {
            positions: vec![0.0, 0.0, 0.0, f32::INFINITY, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 0.0],
            uvs: vec![vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, f32::NAN, 1.0, 1.0, 0.0]],
            indices: vec![0, 1, 2, 0, 2, 4, 2, 3, 4],
            ..Default::default()
        };
        let obj = write_obj(&lod, "x").unwrap();
        assert_eq!((obj.skipped_vertices, obj.skipped_triangles), (2, 2));
        assert!(!obj.text.contains("NaN") && !obj.text.contains("inf"), "{}", obj.text);
        assert_eq!(obj.text.matches("\nv ").count(), 3);
        assert_eq!(obj.text.matches("\nf ").count(), 1);
        assert!(obj.text.contains("\nf 1/1 2/2 3/3\n"), "{}", obj.text);
        assert!(obj.text.contains("\nv 2 0 0\n"));
    }

    #[test]
    fn nothing_to_draw_is_refused_with_the_gltf_message() {
        let lod = Lod { positions: vec![0.0; 9], indices: vec![0, 1, 5], ..Default::default() };
        assert_eq!(write_obj(&lod, "x"), Err(NOTHING_DRAWABLE.to_string()));
        let mesh = crate::mesh::Mesh { lods: vec![lod] };
        assert_eq!(crate::export::gltf::write_glb(&mesh, "x"), Err(NOTHING_DRAWABLE.to_string()));
    }
}
