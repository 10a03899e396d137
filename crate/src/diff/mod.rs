//! Two files compared by structure: fields matched by path (not by offset), arrays element by
//! element, records present on one side only, unexplained bytes by record and record-relative
//! offset, and the decoded geometry vertex by vertex. What is kept grows with the number of
//! differences: arrays are compared in place, and only the first few changed elements of each
//! are listed (their count is always exact). See docs/diff.md.

pub mod align;
mod fields;
pub mod geometry;
mod records;
mod regions;
mod unexplained;
pub mod value;

use crate::document::Document;
use crate::span::Confidence;
use records::Records;
use serde::Serialize;
use std::cmp::Ordering;

/// What kind of difference a `Difference` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A field present on both sides whose bytes differ.
    Changed,
    /// A record (or field) present in A only: an extra LOD, section, chunk.
    OnlyA,
    /// A record (or field) present in B only.
    OnlyB,
    /// An array (a region) compared element by element: `changed` elements differ, or the
    /// counts differ; its changed elements' fields follow as `Changed` differences.
    Elements,
    /// Bytes no field explains, at the same offset of the same record on both sides.
    Unexplained,
    /// A LOD's vertices moved further than the tolerance (the summary) or one vertex did.
    Moved,
    /// Triangles of a LOD present on one side only (the summary) or one such triangle.
    Triangles,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Changed => "changed",
            Kind::OnlyA => "only_a",
            Kind::OnlyB => "only_b",
            Kind::Elements => "elements",
            Kind::Unexplained => "unexplained",
            Kind::Moved => "moved",
            Kind::Triangles => "triangles",
        }
    }

    /// The same difference seen from the other side.
    fn mirrored(self) -> Kind {
        match self {
            Kind::OnlyA => Kind::OnlyB,
            Kind::OnlyB => Kind::OnlyA,
            k => k,
        }
    }
}

/// One side of a difference: where it is in that file and what it holds there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Byte offset in the file; `None` for what has no one place (a decoded vertex).
    pub offset: Option<u64>,
    pub len: u64,
    pub value: String,
}

/// One difference between A and B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// Field path (`lod[1].section[2].flags`), record path, array path, `record+0x1c` for
    /// unexplained bytes, `mesh.lod[0].vertex[5]` for geometry.
    pub path: String,
    pub kind: Kind,
    /// The field's type (A's, else B's); `record`, `bytes`, `vertex`, ... otherwise.
    #[serde(rename = "type")]
    pub ty: String,
    /// The field's confidence (the lower of the two sides'); `None` for bytes no field
    /// covers and for geometry.
    pub confidence: Option<Confidence>,
    pub a: Option<Side>,
    pub b: Option<Side>,
    /// B minus A, per component, where both values are numbers (not flags).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delta: Vec<f64>,
    /// Arrays and geometry summaries: how many elements differ; a record on one side
    /// only: how many fields it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<u64>,
    /// What holds for both sides (how far a vertex moved, how many of the vertices did).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Difference {
    /// The difference as `compare(b, a)` gives it.
    pub fn mirrored(&self) -> Difference {
        Difference {
            path: self.path.clone(),
            kind: self.kind.mirrored(),
            ty: self.ty.clone(),
            confidence: self.confidence,
            a: self.b.clone(),
            b: self.a.clone(),
            delta: self.delta.iter().map(|d| if *d == 0.0 { 0.0 } else { -d }).collect(),
            changed: self.changed,
            note: self.note.clone(),
        }
    }
}

/// How to compare.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Vertices closer than this (in the file's units) have not moved.
    pub tolerance: f32,
    /// How many changed elements of one array (or moved vertices, or triangles of a LOD)
    /// are listed one by one; all are counted.
    pub listed: usize,
    /// Whether the decoded meshes are compared too (a geometry chunk's mesh is its
    /// MeshSet's, compared there).
    pub geometry: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { tolerance: 1e-6, listed: 10, geometry: true }
    }
}

/// The differences between two documents, in path order.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub differences: Vec<Difference>,
}

impl Comparison {
    pub fn same(&self) -> bool {
        self.differences.is_empty()
    }

    /// The comparison as `compare(b, a)` gives it: sides swapped, deltas negated, same order.
    pub fn mirrored(&self) -> Comparison {
        let mut differences: Vec<Difference> = self.differences.iter().map(Difference::mirrored).collect();
        differences.sort_by(order);
        Comparison { a: self.b.clone(), b: self.a.clone(), differences }
    }
}

/// What every part of the comparison reads.
pub(crate) struct Ctx<'a> {
    pub a: &'a Document,
    pub b: &'a Document,
    pub ra: Records<'a>,
    pub rb: Records<'a>,
    pub opts: Options,
}

/// Compares two documents by structure.
pub fn compare(a: &Document, b: &Document, opts: &Options) -> Comparison {
    let ctx = Ctx { a, b, ra: Records::new(a), rb: Records::new(b), opts: *opts };
    let mut out = Vec::new();
    let mut only = fields::OnlyOneSide::default();
    fields::compare(&ctx, &mut only, &mut out);
    regions::compare(&ctx, &mut only, &mut out);
    unexplained::compare(&ctx, &mut out);
    if opts.geometry {
        geometry::compare(&ctx, &mut out);
    }
    out.sort_by(order);
    Comparison { a: a.name.clone(), b: b.name.clone(), differences: out }
}

/// Path order with indices compared as numbers (`v[2]` before `v[10]`), then kind: the order
/// of a comparison's mirror, sorted again, is the order of the comparison the other way round.
fn order(x: &Difference, y: &Difference) -> Ordering {
    natural(&x.path, &y.path).then_with(|| x.kind.cmp(&y.kind))
}

/// Compares texts with runs of digits as numbers.
pub fn natural(x: &str, y: &str) -> Ordering {
    let (mut a, mut b) = (x.as_bytes(), y.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let na = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let nb = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (da, db) = (trim_zeros(&a[..na]), trim_zeros(&b[..nb]));
                let o = da.len().cmp(&db.len()).then_with(|| da.cmp(db)).then(na.cmp(&nb));
                if o != Ordering::Equal {
                    return o;
                }
                a = &a[na..];
                b = &b[nb..];
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let n = d.iter().take_while(|&&c| c == b'0').count().min(d.len().saturating_sub(1));
    &d[n..]
}

/// The lower of two confidences (`Unknown` is the lowest).
pub(crate) fn lower(a: Confidence, b: Confidence) -> Confidence {
    a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_reads_indices_as_numbers() {
        let mut v = vec!["v[10].x", "v[2].x", "v[2]", "a", "v[02].y"];
        v.sort_by(|a, b| natural(a, b));
        assert_eq!(v, ["a", "v[2]", "v[2].x", "v[02].y", "v[10].x"]);
    }
}
