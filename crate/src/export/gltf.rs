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
use crate::mesh::{Lod, Mesh, Section};
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

/// What an accessor says of the values in a view: their component type, their count and
/// element type, and (for positions) their bounds.
struct Accessor<'a> {
    view: usize,
    component_type: u32,
    count: usize,
    ty: &'a str,
    bounds: Option<([f32; 3], [f32; 3])>,
}

impl Builder {
    /// Pads the buffer to a multiple of 4 bytes, as every view's start and the GLB's chunks must be.
    fn pad(&mut self) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
    }

    fn view(&mut self, bytes: &[u8], target: u32) -> usize {
        self.pad();
        let off = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views
            .push(format!("{{\"buffer\":0,\"byteOffset\":{off},\"byteLength\":{},\"target\":{target}}}", bytes.len()));
        self.views.len() - 1
    }

    fn accessor(&mut self, a: Accessor) -> usize {
        let Accessor { view, component_type, count, ty, bounds } = a;
        let mut s =
            format!("{{\"bufferView\":{view},\"componentType\":{component_type},\"count\":{count},\"type\":\"{ty}\"");
        if let Some((min, max)) = bounds {
            let _ = write!(s, ",\"min\":{},\"max\":{}", floats(&min), floats(&max));
        }
        s.push('}');
        self.accessors.push(s);
        self.accessors.len() - 1
    }

    fn floats(&mut self, v: &[f32], count: usize, ty: &str, minmax: bool) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, ARRAY_BUFFER);
        let bounds = if minmax { bounds(v) } else { None };
        self.accessor(Accessor { view, component_type: FLOAT, count, ty, bounds })
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
    let mut g = Gltf::default();
    for (li, lod) in mesh.lods.iter().enumerate() {
        g.lod(li, lod, source, axes);
    }
    if g.meshes.is_empty() {
        return Err(NOTHING_DRAWABLE.into());
    }
    g.buffer.pad();
    glb(g.json(), &g.buffer.bin)
}

/// The glTF being written: the buffer with its views and accessors, the materials, and the
/// JSON of each other top-level array.
#[derive(Default)]
struct Gltf {
    buffer: Builder,
    materials: Materials,
    meshes: Vec<String>,
    nodes: Vec<String>,
    skins: Vec<String>,
    scenes: Vec<String>,
}

/// A LOD's skin: the joint names, and the joints and weights as glTF wants them.
struct Skin {
    bones: Vec<String>,
    joints: Vec<u16>,
    weights: Vec<f32>,
}

/// The skin of a LOD whose every vertex has four joints and weights, and that has bones.
fn skin_of(lod: &Lod, n: usize) -> Option<Skin> {
    let bones = bone_names(lod);
    if bones.is_empty() || lod.joints.len() != n * 4 || lod.weights.len() != n * 4 {
        return None;
    }
    let (joints, weights) = skin_arrays(&lod.joints, &lod.weights, bones.len());
    Some(Skin { bones, joints, weights })
}

impl Gltf {
    /// LOD `li` as a mesh and a scene of its own; nothing when it has no vertices or no
    /// triangle naming real vertices.
    fn lod(&mut self, li: usize, lod: &Lod, source: &str, axes: Axes) {
        let n = lod.vertex_count();
        if n == 0 {
            return;
        }
        let sections = sections_of(lod);
        let tris: Vec<(&Section, Vec<u32>)> = sections
            .iter()
            .map(|s| (s, section_triangles(lod, s, axes.clockwise)))
            .filter(|(_, t)| !t.is_empty())
            .collect();
        if tris.is_empty() {
            return;
        }
        let skin = skin_of(lod, n);
        let attrs = self.attributes(lod, n, skin.as_ref());
        let prims = self.primitives(&tris, &attrs);
        let lod_name = if lod.name.is_empty() { format!("lod{li}") } else { lod.name.clone() };
        self.meshes.push(format!("{{\"name\":{},\"primitives\":[{}]}}", json_string(&lod_name), prims.join(",")));
        let mesh_index = self.meshes.len() - 1;
        let mut scene_nodes = self.mesh_nodes(&lod_name, source, mesh_index, skin.as_ref());
        if axes.up == Up::Z {
            scene_nodes = self.stand_up(&lod_name, scene_nodes, skin.is_some());
        }
        let nodes_list: Vec<String> = scene_nodes.iter().map(|i| i.to_string()).collect();
        self.scenes.push(format!("{{\"name\":{},\"nodes\":[{}]}}", json_string(&lod_name), nodes_list.join(",")));
    }

    /// The vertex arrays of a LOD of `n` vertices written to the buffer: the primitives'
    /// `attributes` object's members.
    fn attributes(&mut self, lod: &Lod, n: usize, skin: Option<&Skin>) -> String {
        let b = &mut self.buffer;
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
        if let Some(skin) = skin {
            let jb: Vec<u8> = skin.joints.iter().flat_map(|x| x.to_le_bytes()).collect();
            let view = b.view(&jb, ARRAY_BUFFER);
            let joints = b.accessor(Accessor { view, component_type: USHORT, count: n, ty: "VEC4", bounds: None });
            attrs.push(format!("\"JOINTS_0\":{joints}"));
            attrs.push(format!("\"WEIGHTS_0\":{}", b.floats(&skin.weights, n, "VEC4", false)));
        }
        attrs.join(",")
    }

    /// One primitive per section with triangles: its indices written to the buffer, the
    /// shared `attrs`, and the material of its name and sidedness.
    fn primitives(&mut self, tris: &[(&Section, Vec<u32>)], attrs: &str) -> Vec<String> {
        let mut prims = Vec::new();
        for (s, t) in tris {
            let ib: Vec<u8> = t.iter().flat_map(|x| x.to_le_bytes()).collect();
            let view = self.buffer.view(&ib, ELEMENT_ARRAY_BUFFER);
            let a = Accessor { view, component_type: UINT, count: t.len(), ty: "SCALAR", bounds: None };
            let ia = self.buffer.accessor(a);
            let m = self.materials.get(&s.name, s.two_sided);
            prims.push(format!("{{\"attributes\":{{{attrs}}},\"indices\":{ia},\"material\":{m},\"mode\":4}}"));
        }
        prims
    }

    /// The mesh's node and, for a skinned mesh, its skin, the skeleton's root and a node per
    /// bone. The nodes a scene lists: the mesh's, then the skeleton's.
    fn mesh_nodes(&mut self, lod_name: &str, source: &str, mesh_index: usize, skin: Option<&Skin>) -> Vec<usize> {
        let mut node = format!("{{\"name\":{},\"mesh\":{mesh_index}", json_string(&format!("{lod_name} ({source})")));
        let Some(skin) = skin else {
            node.push('}');
            self.nodes.push(node);
            return vec![self.nodes.len() - 1];
        };
        // The bones as nodes under one root (glTF wants a common root); their transforms are
        // identity and no inverse bind matrices are written, so the mesh stays in the pose it
        // was stored in.
        let first = self.nodes.len() + 2;
        let joints: Vec<String> = (first..first + skin.bones.len()).map(|i| i.to_string()).collect();
        let _ = write!(node, ",\"skin\":{}", self.skins.len());
        self.skins.push(format!(
            "{{\"name\":{},\"skeleton\":{},\"joints\":[{}]}}",
            json_string(&format!("{lod_name} skin")),
            self.nodes.len() + 1,
            joints.join(",")
        ));
        node.push('}');
        let scene_nodes = vec![self.nodes.len(), self.nodes.len() + 1];
        self.nodes.push(node);
        self.nodes.push(format!(
            "{{\"name\":{},\"children\":[{}]}}",
            json_string(&format!("{lod_name} skeleton")),
            joints.join(",")
        ));
        for bone in &skin.bones {
            self.nodes.push(format!("{{\"name\":{}}}", json_string(bone)));
        }
        scene_nodes
    }

    /// A node turning +Z up over the scene's nodes: over the skeleton alone for a skinned
    /// mesh, which follows its joints. The nodes the scene lists then.
    fn stand_up(&mut self, lod_name: &str, scene_nodes: Vec<usize>, skinned: bool) -> Vec<usize> {
        let (children, mut kept): (Vec<usize>, Vec<usize>) =
            scene_nodes.iter().partition(|&&i| !(skinned && i == scene_nodes[0]));
        let list: Vec<String> = children.iter().map(|i| i.to_string()).collect();
        let q: Vec<String> = Z_UP_TO_Y_UP.iter().map(|x| x.to_string()).collect();
        self.nodes.push(format!(
            "{{\"name\":{},\"rotation\":[{}],\"children\":[{}]}}",
            json_string(&format!("{lod_name} Z-up to Y-up")),
            q.join(","),
            list.join(",")
        ));
        kept.push(self.nodes.len() - 1);
        kept
    }

    /// The glTF JSON of everything written.
    fn json(&self) -> String {
        let mut json = String::from("{\"asset\":{\"version\":\"2.0\",\"generator\":\"meshscope\"},\"scene\":0");
        let _ = write!(json, ",\"scenes\":[{}]", self.scenes.join(","));
        let _ = write!(json, ",\"nodes\":[{}]", self.nodes.join(","));
        let _ = write!(json, ",\"meshes\":[{}]", self.meshes.join(","));
        let _ = write!(json, ",\"materials\":[{}]", self.materials.json().join(","));
        if !self.skins.is_empty() {
            let _ = write!(json, ",\"skins\":[{}]", self.skins.join(","));
        }
        let _ = write!(json, ",\"accessors\":[{}]", self.buffer.accessors.join(","));
        let _ = write!(json, ",\"bufferViews\":[{}]", self.buffer.views.join(","));
        let _ = write!(json, ",\"buffers\":[{{\"byteLength\":{}}}]}}", self.buffer.bin.len());
        json
    }
}

/// The GLB container: header, the JSON chunk (padded with spaces) and the binary chunk
/// (`bin`, already padded to 4 bytes).
fn glb(json: String, bin: &[u8]) -> Result<Vec<u8>, String> {
    let mut jb = json.into_bytes();
    while !jb.len().is_multiple_of(4) {
        jb.push(b' ');
    }
    let total = 12 + 8 + jb.len() + 8 + bin.len();
    let total = u32::try_from(total).map_err(|_| "mesh too large for a .glb (over 4 GiB)".to_string())?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(jb.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&jb);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    Ok(out)
}

#[cfg(test)]
#[path = "gltf_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "gltf_meshset_tests.rs"]
mod meshset_tests;
