//! The structure tree, derived from the spans' paths: `lod[0].section[2].vertex_count`
//! nests under `lod[0]` and `section[2]`. Regions become array nodes whose elements are
//! expanded on demand, so a buffer of 100,000 vertices is one node until opened.

use crate::span::{Confidence, Region, Span};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Node {
    /// Last path segment, e.g. `section[2]`.
    pub name: String,
    pub path: String,
    pub start: u64,
    pub end: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Index of the region this node stands for; its elements come from `region_items`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

impl Node {
    fn group(name: &str, path: &str, start: u64, end: u64) -> Node {
        Node {
            name: name.to_string(),
            path: path.to_string(),
            start,
            end,
            confidence: None,
            ty: None,
            value: None,
            region: None,
            count: None,
            children: Vec::new(),
        }
    }

    fn leaf(name: &str, s: &Span) -> Node {
        Node {
            confidence: Some(s.confidence),
            ty: Some(s.ty.clone()),
            value: Some(s.value.clone()),
            ..Node::group(name, &s.path, s.start, s.end())
        }
    }

    /// Depth-first count of nodes, for tests and summaries.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Node::size).sum::<usize>()
    }
}

/// Splits a path at the dots that separate segments.
fn segments(path: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut ends: Vec<usize> = path.match_indices('.').map(|(i, _)| i).collect();
    ends.push(path.len());
    let mut from = 0;
    ends.into_iter().map(move |end| {
        let seg = (end, &path[from..end]);
        from = end + 1;
        seg
    })
}

/// Builds the tree from spans in the order they were decoded, the regions, and the records
/// whose extent the decoder declared (`Fields::record`).
pub fn build(spans: &[Span], regions: &[Region], records: &[(String, u64, u64)]) -> Vec<Node> {
    let mut arena: Vec<Node> = Vec::new();
    let mut kids: Vec<Vec<usize>> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    let mut by_path: HashMap<String, usize> = HashMap::new();

    let mut insert = |path: &str, start: u64, end: u64, make_leaf: &dyn Fn(&str) -> Node| {
        let mut parent: Option<usize> = None;
        let segs: Vec<_> = segments(path).collect();
        for (k, (end_at, seg)) in segs.iter().enumerate() {
            let prefix = &path[..*end_at];
            let last = k + 1 == segs.len();
            let idx = match by_path.get(prefix) {
                Some(&i) => {
                    let n = &mut arena[i];
                    n.start = n.start.min(start);
                    n.end = n.end.max(end);
                    i
                }
                None => {
                    let node =
                        if last { make_leaf(seg) } else { Node::group(seg, prefix, start, end) };
                    arena.push(node);
                    kids.push(Vec::new());
                    let i = arena.len() - 1;
                    by_path.insert(prefix.to_string(), i);
                    match parent {
                        Some(p) => kids[p].push(i),
                        None => roots.push(i),
                    }
                    i
                }
            };
            parent = Some(idx);
        }
    };

    for s in spans {
        insert(&s.path, s.start, s.end(), &|name| Node::leaf(name, s));
    }
    for (ri, r) in regions.iter().enumerate() {
        insert(&r.path, r.start, r.end(), &|name| Node {
            region: Some(ri as u32),
            count: Some(r.count),
            ty: Some(format!("[{}; {} bytes]", r.count, r.stride)),
            ..Node::group(name, &r.path, r.start, r.end())
        });
    }

    for (path, start, len) in records {
        if let Some(&i) = by_path.get(path.as_str()) {
            if arena[i].region.is_none() && arena[i].confidence.is_none() {
                arena[i].start = *start;
                arena[i].end = start + len;
            }
        }
    }

    fn assemble(i: usize, arena: &mut Vec<Node>, kids: &[Vec<usize>]) -> Node {
        let mut n = std::mem::replace(&mut arena[i], Node::group("", "", 0, 0));
        let mut children: Vec<Node> = kids[i].iter().map(|&k| assemble(k, arena, kids)).collect();
        children.sort_by_key(|c| c.start);
        n.children = children;
        n
    }
    let mut out: Vec<Node> = roots.iter().map(|&r| assemble(r, &mut arena, &kids)).collect();
    out.sort_by_key(|c| c.start);
    out
}

/// Nodes for elements `first..first+count` of a region, each with one child per field.
pub fn region_items(r: &Region, first: u64, count: u64, bytes: &[u8]) -> Vec<Node> {
    let last = first.saturating_add(count).min(r.count);
    (first.min(last)..last)
        .map(|i| {
            let start = r.start + i * r.stride;
            let fields: Vec<Span> = r.elems.iter().map(|e| r.expand(i, e, bytes)).collect();
            let name = format!("[{i}]");
            let path = format!("{}[{}]", r.path, i);
            if fields.len() == 1 && r.elems[0].name.is_empty() {
                return Node::leaf(&name, &fields[0]);
            }
            let mut n = Node::group(&name, &path, start, start + r.stride);
            n.children = r.elems.iter().zip(&fields).map(|(e, s)| Node::leaf(&e.name, s)).collect();
            n
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Fields;

    #[test]
    fn paths_nest_and_groups_cover_their_children() {
        let mut f = Fields::default();
        f.add(0, 4, "header.magic", "fourcc", "EPLY", Confidence::Proven, "");
        f.add(8, 4, "lod[0].section[1].count", "u32", "1", Confidence::Proven, "");
        f.add(4, 4, "lod[0].flags", "u32", "0", Confidence::Observed, "");
        f.record("lod[0]", 2, 12);
        let t = build(&f.spans, &[], &f.records);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].name, "lod[0]");
        assert_eq!((t[1].start, t[1].end), (2, 14), "a declared record keeps its own extent");
        assert_eq!((t[1].children[1].start, t[1].children[1].end), (8, 12));
        assert_eq!(t[1].children[0].name, "flags", "children sorted by offset");
        assert_eq!(t[1].children[1].children[0].value.as_deref(), Some("1"));
        assert_eq!(t[0].size() + t[1].size(), 6);
    }
}
