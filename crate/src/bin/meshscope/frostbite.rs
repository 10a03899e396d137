//! The `meshset` object of `inspect --json`, and the chunks found beside a MeshSet.

use meshscope::document::Document;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn inspect(_doc: &Document) -> Option<(&'static str, Value)> {
    None
}

/// Geometry chunks beside the resource, matched by GUID in their file names.
pub fn companions(_doc: &Document, _path: &Path) -> Vec<PathBuf> {
    Vec::new()
}
