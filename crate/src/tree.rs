//! The structure tree as the page and the command line show it, built from the shape
//! (`shape.rs`) with the text of each node. Regions become array nodes whose elements are
//! expanded on demand, so a buffer of 100,000 vertices is one node until opened.

use crate::shape::{Shape, Texts};
use crate::span::{Confidence, Record, Region, Span, SpanText};
use serde::Serialize;

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

    /// The node of span `s`, whose value's text is `value`.
    fn leaf<V>(name: &str, s: &Span<V>, value: String) -> Node {
        Node {
            confidence: Some(s.confidence),
            ty: Some(s.ty.clone()),
            value: Some(value),
            ..Node::group(name, &s.path, s.start, s.end())
        }
    }

    /// Depth-first count of nodes, for tests and summaries.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Node::size).sum::<usize>()
    }
}

/// Builds the tree from spans in the order they were decoded, the regions, and the records
/// whose extent the decoder declared (`Fields::record`); `bytes` is the whole file.
pub fn build(spans: &[Span], regions: &[Region], records: &[Record], bytes: &[u8]) -> Vec<Node> {
    let shape = Shape::new(spans, regions, records);
    let texts = Texts { spans, regions };
    fn assemble(shape: &Shape, texts: &Texts, bytes: &[u8], i: u32) -> Node {
        let n = shape.node(i);
        let (name, path) = (texts.name(n), texts.path(n));
        let mut node = match (texts.span(n), n.region().and_then(|r| texts.regions.get(r as usize))) {
            (Some(s), _) => Node::leaf(name, s, s.text(bytes).into()),
            (None, Some(r)) => Node {
                region: n.region(),
                count: Some(r.count),
                ty: Some(format!("[{}; {} bytes]", r.count, r.stride).into()),
                ..Node::group(name, path, n.start, n.end)
            },
            (None, None) => Node::group(name, path, n.start, n.end),
        };
        node.start = n.start;
        node.end = n.end;
        node.children = shape.children(n).iter().map(|&k| assemble(shape, texts, bytes, k)).collect();
        node
    }
    shape.roots.iter().map(|&r| assemble(&shape, &texts, bytes, r)).collect()
}

/// Nodes for elements `first..first+count` of a region, each with one child per field.
pub fn region_items(r: &Region, first: u64, count: u64, bytes: &[u8]) -> Vec<Node> {
    let last = first.saturating_add(count).min(r.count);
    (first.min(last)..last)
        .map(|i| {
            let start = r.start + i * r.stride;
            let fields: Vec<SpanText> = r.elems.iter().map(|e| r.expand(i, e, bytes)).collect();
            let name = format!("[{i}]");
            let path = format!("{}[{}]", r.path, i);
            if fields.len() == 1 && r.elems[0].name.is_empty() {
                return Node::leaf(&name, &fields[0], fields[0].value.to_string());
            }
            let mut n = Node::group(&name, &path, start, start + r.stride);
            n.children =
                r.elems.iter().zip(&fields).map(|(e, s)| Node::leaf(&e.name, s, s.value.to_string())).collect();
            n
        })
        .collect()
}

/// The nodes as JSON text, exactly as `serde_json` writes them (fields in order, absent ones
/// left out): the wasm API hands the page the tree as one string for `JSON.parse`, which
/// makes its objects far faster than building them one property at a time from wasm.
pub fn to_json(nodes: &[Node]) -> String {
    let mut out = String::with_capacity(nodes.len() * 128);
    write_nodes(nodes, &mut out);
    out
}

fn write_nodes(nodes: &[Node], out: &mut String) {
    out.push('[');
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_node(n, out);
    }
    out.push(']');
}

fn write_node(n: &Node, out: &mut String) {
    let mut num = [0u8; 20];
    out.push_str("{\"name\":");
    json_string(&n.name, out);
    out.push_str(",\"path\":");
    json_string(&n.path, out);
    out.push_str(",\"start\":");
    out.push_str(crate::show::decimal(n.start, &mut num));
    out.push_str(",\"end\":");
    out.push_str(crate::show::decimal(n.end, &mut num));
    if let Some(c) = n.confidence {
        out.push_str(",\"confidence\":\"");
        out.push_str(c.name());
        out.push('"');
    }
    if let Some(t) = &n.ty {
        out.push_str(",\"type\":");
        json_string(t, out);
    }
    if let Some(v) = &n.value {
        out.push_str(",\"value\":");
        json_string(v, out);
    }
    if let Some(r) = n.region {
        out.push_str(",\"region\":");
        out.push_str(crate::show::decimal(r as u64, &mut num));
    }
    if let Some(c) = n.count {
        out.push_str(",\"count\":");
        out.push_str(crate::show::decimal(c, &mut num));
    }
    if !n.children.is_empty() {
        out.push_str(",\"children\":");
        write_nodes(&n.children, out);
    }
    out.push('}');
}

/// A JSON string, escaped as `serde_json` escapes it: quote, backslash and control bytes.
fn json_string(s: &str, out: &mut String) {
    out.push('"');
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        if esc.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(b"0123456789abcdef"[(b >> 4) as usize]));
            out.push(char::from(b"0123456789abcdef"[(b & 15) as usize]));
        } else {
            out.push_str(esc);
        }
        from = i + 1;
    }
    out.push_str(&s[from..]);
    out.push('"');
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
        let t = build(&f.spans, &[], &f.records, &[]);
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
        let t = build(&f.spans, &[], &f.records, &[]);
        let names = |n: &Node| n.children.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        assert_eq!(t.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["a", "x"]);
        assert_eq!(names(&t[0]), ["b", "bb"], "`a.bb` is not `a.b` although its text starts so");
        assert_eq!(names(&t[0].children[0]), ["c", "e"], "a.b gathers c and e across x");
        assert_eq!((t[0].start, t[0].end), (0, 6));
        assert_eq!(t[0].children[0].children[0].children[0].name, "f");
    }
}
