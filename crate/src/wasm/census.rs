//! The census in JS: one census per wasm instance. The page runs it in workers
//! (web/census-worker.js counts, web/census-planner.js plans): a planner instance decodes and
//! plans batches of files (`census_plan`) and sends the plans to the census instance, which
//! holds them and plans batches of its own (`census_hold`, `census_plan_own`) and counts them
//! in file order (`census_count`). `census_add` decodes, counts and drops one file at once.

use super::{offset, to_js};
use crate::census::handover::{self, Batch, Held};
use crate::census::plan::Plan;
use crate::census::Planner;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// A planner instance's planner and the plan it refills.
#[derive(Default)]
struct PlannerState {
    planner: Planner,
    plan: Plan,
}

thread_local! {
    static CENSUS: RefCell<Held> = RefCell::new(Held::new());
    static PLANNER: RefCell<PlannerState> = RefCell::new(PlannerState::default());
}

fn js_error(e: crate::error::Error) -> JsError {
    JsError::new(&format!("census hand-over: {} at {} ({})", e.message(), e.offset, e.path))
}

/// Starts a new, empty census, and a new planner.
#[wasm_bindgen]
pub fn census_new() {
    CENSUS.with(|c| *c.borrow_mut() = Held::new());
    PLANNER.with(|p| *p.borrow_mut() = PlannerState::default());
}

#[derive(Serialize)]
struct Added {
    format: crate::formats::Format,
    errors: usize,
}

/// Decodes one file, counts it and drops it: `{format, errors}`. Not to be mixed with the
/// held plans of `census_hold` and `census_plan_own`.
#[wasm_bindgen]
pub fn census_add(bytes: Vec<u8>, name: &str) -> Result<JsValue, JsError> {
    let (format, errors) = CENSUS.with(|c| c.borrow_mut().census.add_file(name, bytes));
    to_js(&Added { format, errors })
}

/// Decodes and plans files laid one after the other in `bytes` (`sizes[i]` bytes each, named
/// `names[i]`) with this instance's planner: their plans, for `census_hold` in the census's
/// instance with the same bytes.
#[wasm_bindgen]
pub fn census_plan(bytes: &[u8], sizes: &[u32], names: Vec<String>) -> Result<Vec<u8>, JsError> {
    PLANNER.with(|p| {
        let PlannerState { planner, plan } = &mut *p.borrow_mut();
        let mut out = Vec::new();
        handover::plan_batch(planner, &Batch { bytes, sizes, names: &names }, plan, &mut out).map_err(js_error)?;
        Ok(out)
    })
}

/// Plans files as `census_plan` does, with the census's own planner, the first being file
/// number `first`, and holds them until `census_count` reaches them.
#[wasm_bindgen]
pub fn census_plan_own(first: u32, bytes: &[u8], sizes: &[u32], names: Vec<String>) -> Result<(), JsError> {
    let batch = Batch { bytes, sizes, names: &names };
    CENSUS.with(|c| c.borrow_mut().plan_own(first as usize, &batch)).map_err(js_error)
}

/// Holds the plans planner number `planner` (1 and on) made of the files in `bytes` with
/// `census_plan`, the first being file number `first`; returns how many files they are.
#[wasm_bindgen]
pub fn census_hold(first: u32, plans: &[u8], bytes: &[u8], planner: u32) -> Result<u32, JsError> {
    let n = CENSUS.with(|c| c.borrow_mut().hold_plans(first as usize, plans, bytes, planner.max(1) as usize));
    Ok(n.map_err(js_error)? as u32)
}

/// Counts the files held, in order, up to file number `limit` (excluded): how many files
/// are counted now, every one before it included.
#[wasm_bindgen]
pub fn census_count(limit: u32) -> u32 {
    CENSUS.with(|c| c.borrow_mut().count_ready(limit as usize) as u32)
}

/// How many of the files counted were of no known format.
#[wasm_bindgen]
pub fn census_skipped() -> f64 {
    CENSUS.with(|c| c.borrow().census.skipped as f64)
}

/// The census so far: files, entries (values most frequent first, at most `max_values`
/// listed each), relations. See `census::report::Report`.
#[wasm_bindgen]
pub fn census_report(max_values: u32) -> Result<JsValue, JsError> {
    CENSUS.with(|c| to_js(&c.borrow().census.report(max_values as usize)))
}

/// The entries of a record kind (`lod[*].section[*]`, `(file)`) that hold `offset` inside
/// the record: what an annotation anchored there shows beside it.
#[wasm_bindgen]
pub fn census_lookup(record: &str, at: f64, max_values: u32) -> Result<JsValue, JsError> {
    CENSUS.with(|c| to_js(&c.borrow().census.lookup(record, offset(at), max_values as usize)))
}
