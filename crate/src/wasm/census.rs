//! The census in JS: one census per wasm instance (the page runs it in its own worker).
//! Each file is decoded, counted and dropped inside `census_add`.

use super::to_js;
use crate::census::Census;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static CENSUS: RefCell<Census> = RefCell::new(Census::new());
}

/// Starts a new, empty census.
#[wasm_bindgen]
pub fn census_new() {
    CENSUS.with(|c| *c.borrow_mut() = Census::new());
}

#[derive(Serialize)]
struct Added {
    format: crate::formats::Format,
    errors: usize,
}

/// Decodes one file, counts it and drops it: `{format, errors}`.
#[wasm_bindgen]
pub fn census_add(bytes: Vec<u8>, name: &str) -> Result<JsValue, JsError> {
    let (format, errors) = CENSUS.with(|c| c.borrow_mut().add_file(name, bytes));
    to_js(&Added { format, errors })
}

/// The census so far: files, entries (values most frequent first, at most `max_values`
/// listed each), relations. See `census::report::Report`.
#[wasm_bindgen]
pub fn census_report(max_values: u32) -> Result<JsValue, JsError> {
    CENSUS.with(|c| to_js(&c.borrow().report(max_values as usize)))
}

/// The entries of a record kind (`lod[*].section[*]`, `(file)`) that hold `offset` inside
/// the record: what an annotation anchored there shows beside it.
#[wasm_bindgen]
pub fn census_lookup(record: &str, offset: f64, max_values: u32) -> Result<JsValue, JsError> {
    let off = if offset.is_finite() && offset > 0.0 { offset as u64 } else { 0 };
    CENSUS.with(|c| to_js(&c.borrow().lookup(record, off, max_values as usize)))
}
