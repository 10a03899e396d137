//! Files read straight into wasm memory: the page streams a File into a buffer made here and
//! opens it in place, so its bytes are copied once (out of the File) instead of twice.

use super::{insert, REGISTRY};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

thread_local! {
    static BUFFERS: RefCell<(u32, HashMap<u32, Vec<u8>>)> = RefCell::new((1, HashMap::new()));
}

/// A zeroed buffer of `len` bytes; its token. Fails (instead of aborting) when memory is short.
#[wasm_bindgen]
pub fn buffer_new(len: f64) -> Result<u32, JsError> {
    if !(0.0..=u32::MAX as f64).contains(&len) || len.fract() != 0.0 {
        return Err(JsError::new(&format!("a buffer of {len} bytes cannot be made")));
    }
    let len = len as usize;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| JsError::new(&format!("not enough memory for {len} bytes")))?;
    // Most of this call's time is the first touch of fresh pages, which the copy into
    // them would pay anyway.
    v.resize(len, 0);
    Ok(BUFFERS.with(|b| {
        let mut b = b.borrow_mut();
        let t = b.0;
        b.0 = b.0.wrapping_add(1).max(1);
        b.1.insert(t, v);
        t
    }))
}

/// Where the buffer's bytes start in wasm memory, for a Uint8Array view over them. Valid
/// until the next call that may allocate.
#[wasm_bindgen]
pub fn buffer_ptr(token: u32) -> Result<u32, JsError> {
    BUFFERS.with(|b| {
        b.borrow().1.get(&token).map(|v| v.as_ptr() as u32).ok_or_else(|| JsError::new(&format!("no buffer {token}")))
    })
}

/// Frees a buffer that will not be opened (a read that failed or was cancelled).
#[wasm_bindgen]
pub fn buffer_drop(token: u32) {
    BUFFERS.with(|b| b.borrow_mut().1.remove(&token));
}

fn take(token: u32) -> Result<Vec<u8>, JsError> {
    BUFFERS.with(|b| b.borrow_mut().1.remove(&token)).ok_or_else(|| JsError::new(&format!("no buffer {token}")))
}

/// Opens a filled buffer as a document (the buffer is used up). With `structure_first`, a
/// format that can decodes only its structure now and the rest in `complete`.
#[wasm_bindgen]
pub fn open_buffer(name: &str, token: u32, structure_first: bool) -> Result<u32, JsError> {
    let bytes = take(token)?;
    Ok(insert(if structure_first { crate::open_structure(name, bytes) } else { crate::open(name, bytes) }))
}

/// Attaches a filled buffer (the buffer is used up) to a document as a companion file, by its
/// name's GUID, or to LOD `lod` by hand when `lod` is a number: the chunk's handle. As `attach`
/// and `attach_lod`, without copying the bytes out of JS again.
#[wasm_bindgen]
pub fn attach_buffer(handle: u32, name: &str, token: u32, lod: Option<u32>) -> Result<u32, JsError> {
    let bytes = take(token)?;
    let chunk = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let doc = r.docs.get_mut(&handle).ok_or_else(|| JsError::new(&format!("no open document {handle}")))?;
        match lod {
            Some(l) => doc.attach_to_lod(l as usize, name, bytes),
            None => doc.attach(name, bytes),
        }
        .map_err(|e| JsError::new(&e.to_string()))
    })?;
    Ok(insert(chunk))
}

/// Finishes a document opened structure first; false when there was nothing left to do.
#[wasm_bindgen]
pub fn complete(handle: u32) -> Result<bool, JsError> {
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let doc = r.docs.get_mut(&handle).ok_or_else(|| JsError::new(&format!("no open document {handle}")))?;
        let was = doc.pending;
        doc.complete();
        Ok(was)
    })
}

/// A first look at a buffer still being filled: its first `filled` bytes are the file's and
/// the rest are still zero. Where the format has a quick structure pass (or no structure to
/// find: raw bytes, a chunk alone), the structure is decoded over the whole buffer and the span triples of `[start, end)` (cut at `filled`) are
/// returned, as `span_bounds` returns them; `null` otherwise. The page colors the first rows
/// of a big file with them while the rest is read; the document proper replaces them.
#[wasm_bindgen]
pub fn buffer_preview(token: u32, name: &str, filled: f64, start: f64, end: f64) -> Result<JsValue, JsError> {
    BUFFERS.with(|b| {
        let b = b.borrow();
        let bytes = b.1.get(&token).ok_or_else(|| JsError::new(&format!("no buffer {token}")))?;
        let format = crate::formats::detect(name, bytes);
        use crate::formats::Format;
        let d = match crate::formats::decode_structure(format, bytes) {
            Some(d) => d,
            // Raw bytes and a chunk alone: their whole decode is quick and finds no spans, so
            // their first rows are known (uncovered) at once too.
            None if matches!(format, Format::Unknown | Format::FrostbiteChunk) => {
                crate::formats::decode(format, name, bytes)
            }
            None => return Ok(JsValue::NULL),
        };
        let map = crate::span::SpanMap::new(d.fields.spans, d.fields.regions);
        let end = super::offset(end).min(super::offset(filled));
        Ok(super::bounds_array(&map.bounds(super::offset(start), end)).into())
    })
}
