//! The structure tree, derived from the spans' paths: `lod[0].section[2].vertex_count`
//! nests under `lod[0]` and `section[2]`. Regions become array nodes whose elements are
//! expanded on demand, so a buffer of 100,000 vertices is one node until opened.

use crate::span::{Confidence, Region, Span};
use serde::Serialize;
use crate::fx::FxMap;

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
    pub ty: Option<crate::span::Text>,
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

/// The tree under construction: nodes in an arena, each path prefix found by a borrowed key.
struct Builder<'a> {
    arena: Vec<Node>,
    kids: Vec<Vec<usize>>,
    roots: Vec<usize>,
    by_path: FxMap<&'a str, usize>,
    /// The previous path's segment ends and nodes: decoders emit the fields of a record
    /// together, so most paths share their parents with the one before and skip the map.
    last: Vec<(usize, usize)>,
    last_path: &'a str,
}

impl<'a> Builder<'a> {
    fn insert(&mut self, path: &'a str, start: u64, end: u64, make_leaf: &dyn Fn(&str) -> Node) {
        // Parents shared with the previous path: whole segments equal up to a dot.
        let same = path.bytes().zip(self.last_path.bytes()).take_while(|(a, b)| a == b).count();
        let keep = self.last.iter().take_while(|&&(e, _)| e < same && path.as_bytes().get(e) == Some(&b'.')
            && self.last_path.as_bytes().get(e) == Some(&b'.')).count();
        self.last.truncate(keep);
        for &(_, i) in &self.last {
            let n = &mut self.arena[i];
            n.start = n.start.min(start);
            n.end = n.end.max(end);
        }
        let mut from = self.last.last().map_or(0, |&(e, _)| e + 1);
        let mut parent = self.last.last().map(|&(_, i)| i);
        while from <= path.len() {
            let end_at = path[from..].find('.').map_or(path.len(), |d| from + d);
            let (prefix, seg) = (&path[..end_at], &path[from..end_at]);
            let last = end_at == path.len();
            let idx = match self.by_path.get(prefix) {
                Some(&i) => {
                    let n = &mut self.arena[i];
                    n.start = n.start.min(start);
                    n.end = n.end.max(end);
                    i
                }
                None => {
                    let node = if last { make_leaf(seg) } else { Node::group(seg, prefix, start, end) };
                    self.arena.push(node);
                    self.kids.push(Vec::new());
                    let i = self.arena.len() - 1;
                    self.by_path.insert(prefix, i);
                    match parent {
                        Some(p) => self.kids[p].push(i),
                        None => self.roots.push(i),
                    }
                    i
                }
            };
            if !last {
                self.last.push((end_at, idx));
            }
            parent = Some(idx);
            from = end_at + 1;
        }
        self.last_path = path;
    }
}

/// Builds the tree from spans in the order they were decoded, the regions, and the records
/// whose extent the decoder declared (`Fields::record`).
pub fn build(spans: &[Span], regions: &[Region], records: &[(String, u64, u64)]) -> Vec<Node> {
    let mut b = Builder {
        arena: Vec::with_capacity(spans.len() + spans.len() / 4),
        kids: Vec::with_capacity(spans.len() + spans.len() / 4),
        roots: Vec::new(),
        by_path: FxMap::default(),
        last: Vec::new(),
        last_path: "",
    };
    b.by_path.reserve(spans.len() + spans.len() / 4);
    for s in spans {
        b.insert(&s.path, s.start, s.end(), &|name| Node::leaf(name, s));
    }
    for (ri, r) in regions.iter().enumerate() {
        b.insert(&r.path, r.start, r.end(), &|name| Node {
            region: Some(ri as u32),
            count: Some(r.count),
            ty: Some(format!("[{}; {} bytes]", r.count, r.stride).into()),
            ..Node::group(name, &r.path, r.start, r.end())
        });
    }
    let Builder { mut arena, kids, roots, by_path, .. } = b;

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
        // Decoders mostly emit in offset order already; a stable sort of sorted input is linear.
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

    #[test]
    fn a_path_joins_its_parent_whatever_came_before() {
        let mut f = Fields::default();
        for (at, p) in [(0, "a.b.c"), (1, "a.bb.d"), (2, "x"), (3, "a.b.e"), (4, "a.b"), (5, "a.b.c.f")] {
            f.add(at, 1, p, "u8", "0", Confidence::Proven, "");
        }
        let t = build(&f.spans, &[], &f.records);
        let names = |n: &Node| n.children.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        assert_eq!(t.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["a", "x"]);
        assert_eq!(names(&t[0]), ["b", "bb"], "`a.bb` is not `a.b` although its text starts so");
        assert_eq!(names(&t[0].children[0]), ["c", "e"], "a.b gathers c and e across x");
        assert_eq!((t[0].start, t[0].end), (0, 6));
        assert_eq!(t[0].children[0].children[0].children[0].name, "f");
    }
}
