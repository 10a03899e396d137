//! glTF 2.0 binary (`.glb`) of the neutral mesh: one mesh per LOD (each LOD its own scene,
//! scene 0 is LOD 0), one primitive per section with its material name, every attribute the
//! decoder filled, and a skin whose joints are nodes named after the bones (`joint N` when the
//! format stores no names).
//!
//! Axes and values (see docs/viewer.md): positions are written exactly as decoded, with no
//! change of axes or handedness in the vertex data; a Z-up mesh (GEM) gets a root node that
//! rotates +Z onto glTF's +Y, and clockwise triangles (GEM) are written counter-clockwise. What glTF requires and a decoder may not give is made valid
//! and is the only change: non-finite floats become 0, normals and tangents are normalized
//! (a zero vector becomes +Z / +X), the tangent's w becomes its sign (+1 or -1), colors are
//! clamped to 0..1, weights are normalized (a vertex without weight goes fully to joint 0),
//! triangles naming a vertex that does not exist are dropped, and mirrored sections have their
//! winding flipped (what the engine does when it draws them with negative scaling).

use super::{section_triangles, sections_of, Axes, Up, NOTHING_DRAWABLE};
use crate::mesh::{Lod, Mesh};
use std::fmt::Write;

const FLOAT: u32 = 5126;
const USHORT: u32 = 5123;
const UINT: u32 = 5125;
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The binary buffer and the JSON arrays that describe it, filled as the writer goes.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: u32) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let off = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views
            .push(format!("{{\"buffer\":0,\"byteOffset\":{off},\"byteLength\":{},\"target\":{target}}}", bytes.len()));
        self.views.len() - 1
    }

    fn accessor(&mut self, view: usize, ctype: u32, count: usize, ty: &str, minmax: Option<(&[f32], &[f32])>) -> usize {
        let mut s = format!("{{\"bufferView\":{view},\"componentType\":{ctype},\"count\":{count},\"type\":\"{ty}\"");
        if let Some((min, max)) = minmax {
            let _ = write!(s, ",\"min\":{},\"max\":{}", floats(min), floats(max));
        }
        s.push('}');
        self.accessors.push(s);
        self.accessors.len() - 1
    }

    fn floats(&mut self, v: &[f32], count: usize, ty: &str, minmax: bool) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, ARRAY_BUFFER);
        let mm = if minmax { bounds(v) } else { None };
        self.accessor(view, FLOAT, count, ty, mm.as_ref().map(|(a, b)| (&a[..], &b[..])))
    }
}

fn bounds(v: &[f32]) -> Option<([f32; 3], [f32; 3])> {
    crate::mesh::bounds_of(v)
}

/// JSON numbers: an f32 widened to f64 prints exactly the value stored in the buffer.
fn floats(v: &[f32]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{}", *x as f64)).collect();
    format!("[{}]", parts.join(","))
}

pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn finite(x: f32) -> f32 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Unit vectors of `n` components (the first three are normalized; a 4th, when there, becomes
/// its sign); `fallback` replaces a vector too short to normalize.
fn unit(v: &[f32], n: usize, fallback: [f32; 3]) -> Vec<f32> {
    let mut out = Vec::with_capacity(v.len());
    for c in v.chunks_exact(n) {
        let (x, y, z) = (finite(c[0]) as f64, finite(c[1]) as f64, finite(c[2]) as f64);
        let len = (x * x + y * y + z * z).sqrt();
        if len > 1e-12 && len.is_finite() {
            out.extend_from_slice(&[(x / len) as f32, (y / len) as f32, (z / len) as f32]);
        } else {
            out.extend_from_slice(&fallback);
        }
        if n == 4 {
            out.push(if c[3] < 0.0 { -1.0 } else { 1.0 });
        }
    }
    out
}

/// Joints and weights as glTF wants them: weights sum to 1, a joint index is a real joint,
/// and no joint appears twice with a weight.
fn skin_arrays(joints: &[u16], weights: &[f32], bones: usize) -> (Vec<u16>, Vec<f32>) {
    let mut j_out = Vec::with_capacity(joints.len());
    let mut w_out = Vec::with_capacity(weights.len());
    for (j, w) in joints.chunks_exact(4).zip(weights.chunks_exact(4)) {
        let mut jj = [0u16; 4];
        let mut ww = [0f32; 4];
        let mut k = 0;
        for (&ji, &wi) in j.iter().zip(w) {
            let wi = finite(wi).max(0.0);
            if wi == 0.0 || (ji as usize) >= bones {
                continue;
            }
            match jj[..k].iter().position(|&x| x == ji) {
                Some(p) => ww[p] += wi,
                None => {
                    jj[k] = ji;
                    ww[k] = wi;
                    k += 1;
                }
            }
        }
        let sum: f32 = ww.iter().sum();
        if k == 0 || sum <= 0.0 {
            jj = [0; 4];
            ww = [1.0, 0.0, 0.0, 0.0];
        } else {
            for x in &mut ww {
                *x /= sum;
            }
        }
        j_out.extend_from_slice(&jj);
        w_out.extend_from_slice(&ww);
    }
    (j_out, w_out)
}

/// The joint names: the decoded bone names, or `joint N` up to the largest joint index that
/// carries weight when the format stores none (MeshSets store bone ids, not names).
fn bone_names(lod: &Lod) -> Vec<String> {
    if !lod.bone_names.is_empty() {
        return lod.bone_names.clone();
    }
    let used = lod.joints.iter().zip(&lod.weights).filter(|(_, &w)| w > 0.0).map(|(&j, _)| j).max();
    match used {
        Some(max) if lod.joints.len() == lod.weights.len() => (0..=max).map(|k| format!("joint {k}")).collect(),
        _ => Vec::new(),
    }
}

/// Material index per section name and two-sidedness.
#[derive(Default)]
struct Materials {
    keys: Vec<(String, bool)>,
}

impl Materials {
    fn get(&mut self, name: &str, two_sided: bool) -> usize {
        let key = (name.to_string(), two_sided);
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return i;
        }
        self.keys.push(key);
        self.keys.len() - 1
    }

    fn json(&self) -> Vec<String> {
        self.keys
            .iter()
            .map(|(name, two)| {
                let name = if name.is_empty() { "unnamed" } else { name };
                format!(
                    "{{\"name\":{},\"doubleSided\":{two},\"pbrMetallicRoughness\":{{\"metallicFactor\":0,\"roughnessFactor\":0.8}}}}",
                    json_string(name)
                )
            })
            .collect()
    }
}

/// The root node's rotation that stands a Z-up mesh up in glTF's Y-up: -90 degrees about X
/// (x, y, z) -> (x, z, -y), as the quaternion (x, y, z, w).
const Z_UP_TO_Y_UP: [f64; 4] = [-std::f64::consts::FRAC_1_SQRT_2, 0.0, 0.0, std::f64::consts::FRAC_1_SQRT_2];

/// Writes every decoded LOD as a `.glb`, positions Y-up as decoded. Errors when nothing
/// drawable was decoded.
pub fn write_glb(mesh: &Mesh, source: &str) -> Result<Vec<u8>, String> {
    write_glb_axes(mesh, source, Axes::GLTF)
}

/// Writes every decoded LOD as a `.glb`. With `Up::Z` each scene's root is a node that turns
/// +Z up; clockwise triangles are written counter-clockwise; the vertex values are the same
/// either way.
pub fn write_glb_axes(mesh: &Mesh, source: &str, axes: Axes) -> Result<Vec<u8>, String> {
    let mut b = Builder::default();
    let mut mats = Materials::default();
    let mut meshes = Vec::new();
    let mut nodes: Vec<String> = Vec::new();
    let mut skins = Vec::new();
    let mut scenes = Vec::new();
    for (li, lod) in mesh.lods.iter().enumerate() {
        let n = lod.vertex_count();
        if n == 0 {
            continue;
        }
        let sections = sections_of(lod);
        let tris: Vec<(usize, Vec<u32>)> = sections
            .iter()
            .enumerate()
            .map(|(k, s)| (k, section_triangles(lod, s, axes.clockwise)))
            .filter(|(_, t)| !t.is_empty())
            .collect();
        if tris.is_empty() {
            continue;
        }
        let pos: Vec<f32> = lod.positions.iter().map(|&x| finite(x)).collect();
        let mut attrs = vec![format!("\"POSITION\":{}", b.floats(&pos, n, "VEC3", true))];
        if lod.normals.len() == n * 3 {
            attrs.push(format!("\"NORMAL\":{}", b.floats(&unit(&lod.normals, 3, [0.0, 0.0, 1.0]), n, "VEC3", false)));
        }
        if lod.tangents.len() == n * 4 {
            attrs.push(format!("\"TANGENT\":{}", b.floats(&unit(&lod.tangents, 4, [1.0, 0.0, 0.0]), n, "VEC4", false)));
        }
        for (k, uv) in lod.uvs.iter().filter(|u| u.len() == n * 2).enumerate() {
            let uv: Vec<f32> = uv.iter().map(|&x| finite(x)).collect();
            attrs.push(format!("\"TEXCOORD_{k}\":{}", b.floats(&uv, n, "VEC2", false)));
        }
        if lod.colors.len() == n * 4 {
            let c: Vec<f32> = lod.colors.iter().map(|&x| finite(x).clamp(0.0, 1.0)).collect();
            attrs.push(format!("\"COLOR_0\":{}", b.floats(&c, n, "VEC4", false)));
        }
        let bones = bone_names(lod);
        let skinned = !bones.is_empty() && lod.joints.len() == n * 4 && lod.weights.len() == n * 4;
        if skinned {
            let (j, w) = skin_arrays(&lod.joints, &lod.weights, bones.len());
            let jb: Vec<u8> = j.iter().flat_map(|x| x.to_le_bytes()).collect();
            let jv = b.view(&jb, ARRAY_BUFFER);
            attrs.push(format!("\"JOINTS_0\":{}", b.accessor(jv, USHORT, n, "VEC4", None)));
            attrs.push(format!("\"WEIGHTS_0\":{}", b.floats(&w, n, "VEC4", false)));
        }
        let attrs = attrs.join(",");
        let mut prims = Vec::new();
        for (k, t) in &tris {
            let s = &sections[*k];
            let ib: Vec<u8> = t.iter().flat_map(|x| x.to_le_bytes()).collect();
            let iv = b.view(&ib, ELEMENT_ARRAY_BUFFER);
            let ia = b.accessor(iv, UINT, t.len(), "SCALAR", None);
            let m = mats.get(&s.name, s.two_sided);
            prims.push(format!("{{\"attributes\":{{{attrs}}},\"indices\":{ia},\"material\":{m},\"mode\":4}}"));
        }
        let lod_name = if lod.name.is_empty() { format!("lod{li}") } else { lod.name.clone() };
        meshes.push(format!("{{\"name\":{},\"primitives\":[{}]}}", json_string(&lod_name), prims.join(",")));
        let mesh_index = meshes.len() - 1;
        let mut scene_nodes = Vec::new();
        let mut node = format!("{{\"name\":{},\"mesh\":{mesh_index}", json_string(&format!("{lod_name} ({source})")));
        if skinned {
            // The bones as nodes under one root (glTF wants a common root); their transforms
            // are identity and no inverse bind matrices are written, so the mesh stays in the
            // pose it was stored in.
            let first = nodes.len() + 2;
            let joints: Vec<String> = (first..first + bones.len()).map(|i| i.to_string()).collect();
            let _ = write!(node, ",\"skin\":{}", skins.len());
            skins.push(format!(
                "{{\"name\":{},\"skeleton\":{},\"joints\":[{}]}}",
                json_string(&format!("{lod_name} skin")),
                nodes.len() + 1,
                joints.join(",")
            ));
            node.push('}');
            scene_nodes.push(nodes.len());
            nodes.push(node);
            scene_nodes.push(nodes.len());
            nodes.push(format!(
                "{{\"name\":{},\"children\":[{}]}}",
                json_string(&format!("{lod_name} skeleton")),
                joints.join(",")
            ));
            for bone in &bones {
                nodes.push(format!("{{\"name\":{}}}", json_string(bone)));
            }
        } else {
            node.push('}');
            scene_nodes.push(nodes.len());
            nodes.push(node);
        }
        if axes.up == Up::Z {
            // The rotation goes on a parent of the mesh node and of the skeleton: a skinned
            // mesh follows its joints, which are under the skeleton.
            let (children, kept): (Vec<usize>, Vec<usize>) =
                scene_nodes.iter().partition(|&&i| !(skinned && i == scene_nodes[0]));
            let list: Vec<String> = children.iter().map(|i| i.to_string()).collect();
            let q: Vec<String> = Z_UP_TO_Y_UP.iter().map(|x| x.to_string()).collect();
            nodes.push(format!(
                "{{\"name\":{},\"rotation\":[{}],\"children\":[{}]}}",
                json_string(&format!("{lod_name} Z-up to Y-up")),
                q.join(","),
                list.join(",")
            ));
            scene_nodes = kept;
            scene_nodes.push(nodes.len() - 1);
        }
        let nodes_list: Vec<String> = scene_nodes.iter().map(|i| i.to_string()).collect();
        scenes.push(format!("{{\"name\":{},\"nodes\":[{}]}}", json_string(&lod_name), nodes_list.join(",")));
    }
    if meshes.is_empty() {
        return Err(NOTHING_DRAWABLE.into());
    }
    while !b.bin.len().is_multiple_of(4) {
        b.bin.push(0);
    }
    let mut json = String::from("{\"asset\":{\"version\":\"2.0\",\"generator\":\"meshscope\"},\"scene\":0");
    let _ = write!(json, ",\"scenes\":[{}]", scenes.join(","));
    let _ = write!(json, ",\"nodes\":[{}]", nodes.join(","));
    let _ = write!(json, ",\"meshes\":[{}]", meshes.join(","));
    let _ = write!(json, ",\"materials\":[{}]", mats.json().join(","));
    if !skins.is_empty() {
        let _ = write!(json, ",\"skins\":[{}]", skins.join(","));
    }
    let _ = write!(json, ",\"accessors\":[{}]", b.accessors.join(","));
    let _ = write!(json, ",\"bufferViews\":[{}]", b.views.join(","));
    let _ = write!(json, ",\"buffers\":[{{\"byteLength\":{}}}]}}", b.bin.len());
    let mut jb = json.into_bytes();
    while !jb.len().is_multiple_of(4) {
        jb.push(b' ');
    }
    let total = 12 + 8 + jb.len() + 8 + b.bin.len();
    let total = u32::try_from(total).map_err(|_| "mesh too large for a .glb (over 4 GiB)".to_string())?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(jb.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&jb);
    out.extend_from_slice(&(b.bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&b.bin);
    Ok(out)
}

#[cfg(test)]
#[path = "gltf_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "gltf_meshset_tests.rs"]
mod meshset_tests;
