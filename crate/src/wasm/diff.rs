//! Two open documents compared by structure (crate/src/diff/), for the page's comparison view.

use super::{set, to_js, REGISTRY};
use crate::diff::{align::align, compare, geometry, Options};
use crate::document::Document;
use js_sys::{Float32Array, Float64Array, Object, Uint32Array};
use wasm_bindgen::prelude::*;

fn with_two<T>(a: u32, b: u32, f: impl FnOnce(&Document, &Document) -> Result<T, JsError>) -> Result<T, JsError> {
    REGISTRY.with(|r| {
        let r = r.borrow();
        let get = |h: u32| r.docs.get(&h).ok_or_else(|| JsError::new(&format!("no open document {h}")));
        f(get(a)?, get(b)?)
    })
}

/// The differences between documents `a` and `b` (`diff::Comparison`): vertices closer than
/// `tolerance` have not moved; the first `listed` changed elements of each array are listed.
#[wasm_bindgen]
pub fn diff(a: u32, b: u32, tolerance: f32, listed: u32) -> Result<JsValue, JsError> {
    let opts = Options { tolerance: tolerance.max(0.0), listed: listed as usize, geometry: true };
    with_two(a, b, |x, y| to_js(&compare(x, y, &opts)))
}

/// Where the same nodes sit in both documents, as flat `[a, b, len, stride_a, stride_b, ...]`
/// by A's offset (`diff::align::Anchor`): what the two hex views scroll in step by.
#[wasm_bindgen]
pub fn diff_align(a: u32, b: u32) -> Result<Float64Array, JsError> {
    with_two(a, b, |x, y| {
        let flat: Vec<f64> =
            align(x, y).iter().flat_map(|t| [t.a, t.b, t.len, t.stride_a, t.stride_b].map(|x| x as f64)).collect();
        Ok(Float64Array::from(flat.as_slice()))
    })
}

/// LOD `lod` of both documents' meshes compared for the 3D view: `distances` (how far each
/// vertex both have moved, matched by index), `onlyA` and `onlyB` (the triangle numbers found
/// on one side only, in that side's triangle list); null when either has no such LOD.
#[wasm_bindgen]
pub fn diff_geometry(a: u32, b: u32, lod: u32) -> Result<JsValue, JsError> {
    with_two(a, b, |x, y| {
        let (Some(la), Some(lb)) = (x.mesh.lods.get(lod as usize), y.mesh.lods.get(lod as usize)) else {
            return Ok(JsValue::NULL);
        };
        let odd = geometry::one_side(la, lb);
        let places =
            |v: &[geometry::TriangleAt]| Uint32Array::from(v.iter().map(|t| t.place).collect::<Vec<_>>().as_slice());
        let o = Object::new();
        set(&o, "distances", &Float32Array::from(geometry::distances(la, lb).as_slice()))?;
        set(&o, "onlyA", &places(&odd.only_a))?;
        set(&o, "onlyB", &places(&odd.only_b))?;
        Ok(o.into())
    })
}
