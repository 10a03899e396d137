//! The JS API: documents live in a registry behind numeric handles. Results are
//! `Result<_, JsError>`; structured data goes through serde-wasm-bindgen and bulk data
//! (bytes, vertex arrays) as typed arrays. A bad or closed handle is an error, never a panic.

use crate::document::Document;
use js_sys::{Array, Float32Array, Float64Array, Object, Reflect, Uint16Array, Uint32Array, Uint8Array};
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

mod buffer;
mod census;
mod diff;
pub mod view;

#[derive(Default)]
struct Registry {
    next: u32,
    docs: HashMap<u32, Document>,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry { next: 1, docs: HashMap::new() });
}

fn insert(doc: Document) -> u32 {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let h = r.next;
        r.next = r.next.wrapping_add(1).max(1);
        r.docs.insert(h, doc);
        h
    })
}

fn with_doc<T>(handle: u32, f: impl FnOnce(&Document) -> Result<T, JsError>) -> Result<T, JsError> {
    REGISTRY.with(|r| {
        let r = r.borrow();
        let doc = r.docs.get(&handle).ok_or_else(|| JsError::new(&format!("no open document {handle}")))?;
        f(doc)
    })
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

fn offset(x: f64) -> u64 {
    if x.is_finite() && x > 0.0 {
        x as u64
    } else {
        0
    }
}

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Detects the format, decodes, and returns a handle. Never fails: unknown files open raw.
#[wasm_bindgen]
pub fn open(name: &str, bytes: Vec<u8>) -> u32 {
    insert(crate::open(name, bytes))
}

/// One stage of `open` on its own, for `scripts/bench-small-wasm.mjs` to time from JS: 0 only
/// takes the bytes (their copy into wasm memory, the floor), 1 `formats::decode`, 2
/// `formats::decode_fields`, 3 `open` without keeping the document. Returns the spans made
/// (a placeholder counting once), so that no stage can be left out.
#[wasm_bindgen]
pub fn bench_stage(stage: u32, name: &str, bytes: &[u8]) -> f64 {
    let format = crate::formats::detect(name, bytes);
    let spans = match stage {
        1 => crate::formats::decode(format, name, bytes).fields.spans.len(),
        2 => crate::formats::decode_fields(format, name, bytes).fields.spans.len(),
        3 => crate::open(name, bytes.to_vec()).spans.kept(),
        _ => bytes.len(),
    };
    spans as f64
}

/// Attaches a companion file (a geometry chunk) to a document; returns the chunk's own handle.
#[wasm_bindgen]
pub fn attach(handle: u32, name: &str, bytes: Vec<u8>) -> Result<u32, JsError> {
    let chunk = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let doc = r.docs.get_mut(&handle).ok_or_else(|| JsError::new(&format!("no open document {handle}")))?;
        doc.attach(name, bytes).map_err(|e| JsError::new(&e.to_string()))
    })?;
    Ok(insert(chunk))
}

/// Attaches a companion file to LOD `lod` of a document by hand; returns the chunk's handle.
#[wasm_bindgen]
pub fn attach_lod(handle: u32, lod: u32, name: &str, bytes: Vec<u8>) -> Result<u32, JsError> {
    let chunk = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let doc = r.docs.get_mut(&handle).ok_or_else(|| JsError::new(&format!("no open document {handle}")))?;
        doc.attach_to_lod(lod as usize, name, bytes).map_err(|e| JsError::new(&e.to_string()))
    })?;
    Ok(insert(chunk))
}

#[wasm_bindgen]
pub fn summary(handle: u32) -> Result<JsValue, JsError> {
    with_doc(handle, |d| to_js(&d.summary()))
}

/// The summary as JSON text, the very object `summary` makes once parsed: f32 values are
/// written widened to f64, as serde-wasm-bindgen gives them. `None` when it holds a value JSON
/// cannot (NaN or an infinity in a mesh's bounds): then `summary` is the way.
#[wasm_bindgen]
pub fn summary_json(handle: u32) -> Result<Option<String>, JsError> {
    with_doc(handle, |d| Ok(d.summary().json()))
}

/// `summary_json` of the summary as it is now (`Document::summary_first`): checks still to
/// come are left out and `checks_pending` is true; `summary` or `summary_json` makes them.
#[wasm_bindgen]
pub fn summary_first_json(handle: u32) -> Result<Option<String>, JsError> {
    with_doc(handle, |d| Ok(d.summary_first().json()))
}

/// Every span overlapping `[start, end)`, with path, type, value, confidence and note.
#[wasm_bindgen]
pub fn spans(handle: u32, start: f64, end: f64) -> Result<JsValue, JsError> {
    with_doc(handle, |d| to_js(&d.spans_in(offset(start), offset(end))))
}

/// The spans of a window as `[start, len, confidence code]` triples (0 uncovered, 1 proven,
/// 2 observed, 3 inferred, 4 unknown): what the hex view needs to color a screen.
#[wasm_bindgen]
pub fn span_bounds(handle: u32, start: f64, end: f64) -> Result<Float64Array, JsError> {
    with_doc(handle, |d| Ok(bounds_array(&d.span_bounds(offset(start), offset(end)))))
}

/// Bounds as `[start, len, confidence code]` triples.
fn bounds_array(bounds: &[crate::span::SpanBounds]) -> Float64Array {
    let mut out = Vec::with_capacity(bounds.len() * 3);
    for b in bounds {
        out.extend_from_slice(&[b.start as f64, b.len as f64, b.confidence.code() as f64]);
    }
    Float64Array::from(&out[..])
}

/// The innermost span at a byte, or `null`.
#[wasm_bindgen]
pub fn span_at(handle: u32, at: f64) -> Result<JsValue, JsError> {
    with_doc(handle, |d| match d.span_at(offset(at)) {
        Some(s) => to_js(&s),
        None => Ok(JsValue::NULL),
    })
}

#[wasm_bindgen]
pub fn tree(handle: u32) -> Result<JsValue, JsError> {
    with_doc(handle, |d| to_js(&d.tree()))
}

/// The tree as JSON text (`Document::tree_json`), for `JSON.parse`: the same objects as `tree`,
/// made several times faster.
#[wasm_bindgen]
pub fn tree_json(handle: u32) -> Result<String, JsError> {
    with_doc(handle, |d| Ok(d.tree_json()))
}

/// The tree's top `levels` levels as JSON (`Document::tree_json_top`): a node whose children
/// are left out carries `kids` (their count).
#[wasm_bindgen]
pub fn tree_json_top(handle: u32, levels: u32) -> Result<String, JsError> {
    with_doc(handle, |d| Ok(d.tree_json_top(levels as usize)))
}

/// The children of the tree node at `path` as JSON, `levels` levels deep.
#[wasm_bindgen]
pub fn tree_children_json(handle: u32, path: &str, levels: u32) -> Result<String, JsError> {
    with_doc(handle, |d| Ok(d.tree_children_json(path, levels as usize)))
}

/// Element nodes `first..first+count` of an array node (`node.region`).
#[wasm_bindgen]
pub fn region_items(handle: u32, region: u32, first: f64, count: f64) -> Result<JsValue, JsError> {
    with_doc(handle, |d| to_js(&d.region_items(region, offset(first), offset(count))))
}

#[wasm_bindgen]
pub fn errors(handle: u32) -> Result<JsValue, JsError> {
    with_doc(handle, |d| to_js(&d.summary().errors))
}

/// A copy of the file's bytes `[start, end)`, clamped to the file.
#[wasm_bindgen]
pub fn bytes(handle: u32, start: f64, end: f64) -> Result<Uint8Array, JsError> {
    with_doc(handle, |d| {
        let len = d.bytes.len();
        let s = (offset(start) as usize).min(len);
        let e = (offset(end) as usize).clamp(s, len);
        Ok(Uint8Array::from(&d.bytes[s..e]))
    })
}

fn set(o: &Object, k: &str, v: &JsValue) -> Result<(), JsError> {
    Reflect::set(o, &JsValue::from_str(k), v).map(|_| ()).map_err(|_| JsError::new("could not build the mesh object"))
}

/// One LOD as typed arrays: positions, normals, tangents, uvs (one array per set), colors,
/// joints, weights, indices; sections, bone names and the stored boxes (`storedBounds`,
/// `boneBounds`, each section's `stored_bounds`) as plain objects.
#[wasm_bindgen]
pub fn mesh(handle: u32, lod: u32) -> Result<JsValue, JsError> {
    with_doc(handle, |d| {
        let Some(l) = d.mesh.lods.get(lod as usize) else {
            return Ok(JsValue::NULL);
        };
        let o = Object::new();
        set(&o, "lodCount", &JsValue::from(d.mesh.lods.len() as u32))?;
        set(&o, "name", &JsValue::from_str(&l.name))?;
        set(&o, "positions", &Float32Array::from(&l.positions[..]))?;
        set(&o, "normals", &Float32Array::from(&l.normals[..]))?;
        set(&o, "tangents", &Float32Array::from(&l.tangents[..]))?;
        let uvs = Array::new();
        for u in &l.uvs {
            uvs.push(&Float32Array::from(&u[..]));
        }
        set(&o, "uvs", &uvs)?;
        set(&o, "colors", &Float32Array::from(&l.colors[..]))?;
        set(&o, "joints", &Uint16Array::from(&l.joints[..]))?;
        set(&o, "weights", &Float32Array::from(&l.weights[..]))?;
        set(&o, "indices", &Uint32Array::from(&l.indices[..]))?;
        set(&o, "shadow", &Uint8Array::from(&l.shadow[..]))?;
        set(&o, "adjacency", &Uint32Array::from(&l.adjacency[..]))?;
        set(&o, "grid", &to_js(&l.grid)?)?;
        set(&o, "sections", &to_js(&l.sections)?)?;
        set(&o, "boneNames", &to_js(&l.bone_names)?)?;
        set(&o, "storedBounds", &to_js(&l.stored_bounds)?)?;
        set(&o, "boneBounds", &to_js(&l.bone_bounds)?)?;
        Ok(o.into())
    })
}

#[wasm_bindgen]
pub fn close(handle: u32) -> bool {
    REGISTRY.with(|r| r.borrow_mut().docs.remove(&handle).is_some())
}

/// The built-in sample, made by the project's own writer.
#[wasm_bindgen]
pub fn sample_file() -> Vec<u8> {
    crate::sample::sample_ply()
}

/// The next offset at or after `from` (or, `backward`, the last before it) where `needle`
/// occurs, wrapping around once; -1 when it does not occur.
#[wasm_bindgen]
pub fn find(handle: u32, needle: &[u8], from: f64, backward: bool) -> Result<f64, JsError> {
    with_doc(handle, |d| {
        let from = offset(from) as usize;
        let hit = if backward {
            crate::search::find_back(&d.bytes, needle, from)
        } else {
            crate::search::find(&d.bytes, needle, from)
        };
        Ok(hit.map_or(-1.0, |i| i as f64))
    })
}

/// djb2-XOR of the document's bytes `[start, end)`, clamped to the file.
#[wasm_bindgen]
pub fn hash_range(handle: u32, start: f64, end: f64) -> Result<u32, JsError> {
    with_doc(handle, |d| {
        let len = d.bytes.len();
        let s = (offset(start) as usize).min(len);
        let e = (offset(end) as usize).clamp(s, len);
        Ok(d.bytes.get(s..e).map_or(5381, crate::djb2_xor))
    })
}

/// The built-in MeshSet sample: `[{name, bytes}]`, the resource first, then its chunk.
#[wasm_bindgen]
pub fn sample_meshset_files() -> Array {
    file_array(crate::sample::sample_meshset())
}

/// The built-in skinned MeshSet sample (stored bone bounds), as `sample_meshset_files`.
#[wasm_bindgen]
pub fn sample_skinned_meshset_files() -> Array {
    file_array(crate::sample::sample_meshset_skinned())
}

fn file_array(files: Vec<(String, Vec<u8>)>) -> Array {
    let out = Array::new();
    for (name, bytes) in files {
        let o = Object::new();
        let _ = Reflect::set(&o, &JsValue::from_str("name"), &JsValue::from_str(&name));
        let _ = Reflect::set(&o, &JsValue::from_str("bytes"), &Uint8Array::from(&bytes[..]));
        out.push(&o);
    }
    out
}

/// The chunk GUID a file name carries, in either text form (`frostbite::guid::from_name`), as
/// the 32 hex digits of its stored bytes; the page pairs companion files by it.
#[wasm_bindgen]
pub fn guid_of_name(name: &str) -> Option<String> {
    use crate::formats::frostbite::guid;
    guid::from_name(name).map(|g| guid::hex(&g))
}

/// djb2-XOR of bytes, for the value inspector.
#[wasm_bindgen]
pub fn djb2_xor(bytes: &[u8]) -> u32 {
    crate::djb2_xor(bytes)
}

/// Every decoded LOD of a document as a glTF 2.0 binary (`export::glb_of`: Z-up formats stood
/// upright), for "Download .glb".
#[wasm_bindgen]
pub fn export_glb(handle: u32) -> Result<Uint8Array, JsError> {
    with_doc(handle, |d| {
        if d.pending {
            return Err(JsError::new("the mesh is still being decoded; export it when it is shown"));
        }
        let glb = crate::export::glb_of(d).map_err(|e| JsError::new(&e))?;
        Ok(Uint8Array::from(&glb[..]))
    })
}
