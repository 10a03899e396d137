//! Where the same structure sits in both files: the pairs of offsets that let two hex views
//! scroll in step, a field's row in A facing the same field's row in B.

use super::records::Records;
use crate::document::Document;
use crate::tree::Node;
use serde::Serialize;

/// A node (record, field or array) present in both files: its start in each, and the bytes
/// both share from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Anchor {
    pub a: u64,
    pub b: u64,
    pub len: u64,
    /// An array's element stride in A and in B (0 for other nodes): element i faces element i
    /// even where the strides differ.
    pub stride_a: u64,
    pub stride_b: u64,
}

impl Anchor {
    /// Where A's byte `x` (inside this node) faces in B: the same element's same byte, or its
    /// last byte where B's elements are shorter.
    pub fn facing(&self, x: u64) -> u64 {
        let d = x.saturating_sub(self.a);
        if self.stride_a == 0 || self.stride_b == 0 {
            return self.b + d;
        }
        self.b + d / self.stride_a * self.stride_b + (d % self.stride_a).min(self.stride_b - 1)
    }
}

/// Every node of A's tree that B has at the same path, by A's offset (an array's elements are
/// not listed: its anchor maps them by stride).
pub fn align(a: &Document, b: &Document) -> Vec<Anchor> {
    let rb = Records::new(b);
    let mut out = Vec::new();
    let stride = |d: &Document, path: &str| d.spans.regions().iter().find(|r| r.path == path).map_or(0, |r| r.stride);
    let mut stack: Vec<&[Node]> = vec![a.tree()];
    while let Some(level) = stack.pop() {
        for n in level {
            if let Some(r) = rb.get(&n.path) {
                let (stride_a, stride_b) =
                    if n.region.is_some() { (stride(a, &n.path), stride(b, &n.path)) } else { (0, 0) };
                let len = (n.end - n.start).min(r.end - r.start);
                out.push(Anchor { a: n.start, b: r.start, len, stride_a, stride_b });
            }
            stack.push(&n.children);
        }
    }
    out.sort_by_key(|x| (x.a, x.b));
    out.dedup();
    out
}
