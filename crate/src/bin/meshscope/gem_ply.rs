//! The `gem_ply` object of `inspect --json`: magic, chunk ids in file order and the counts.

use meshscope::document::Document;
use meshscope::formats::gem_ply::Ply;
use serde_json::{json, Value};

pub fn inspect(doc: &Document) -> Option<(&'static str, Value)> {
    let p = doc.details.get::<Ply>()?;
    let (vertex_count, vertex_size) = p.vert_header().map(|(c, s, _)| (c, s)).unwrap_or((0, 0));
    Some((
        "gem_ply",
        json!({
            "magic": p.magic.name(),
            "chunks": p.chunk_ids(),
            "vertex_count": vertex_count,
            "vertex_size": vertex_size,
            "index_count": p.index_count(),
        }),
    ))
}
