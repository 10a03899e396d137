//! The structure tree as the page and the command line show it, built from the shape
//! (`shape.rs`) with the text of each node. Regions become array nodes whose elements are
//! expanded on demand, so a buffer of 100,000 vertices is one node until opened.

use crate::json::json_chars;
use crate::shape::{Shape, ShapeNode, Texts};
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
    nodes(&Shape::new(spans, regions, records), &Texts { spans, regions }, bytes)
}

/// The nodes of a shape whose texts are `texts`; `bytes` is the whole file.
pub fn nodes(shape: &Shape, texts: &Texts, bytes: &[u8]) -> Vec<Node> {
    fn assemble(shape: &Shape, texts: &Texts, bytes: &[u8], i: u32) -> Node {
        let n = shape.node(i);
        let (name, path) = (texts.name(n), texts.path(n));
        let mut node = match (texts.span(n), n.region().and_then(|r| texts.regions.get(r as usize))) {
            (Some(s), _) => Node::leaf(name, s, s.text(bytes).into()),
            (None, Some(r)) => Node {
                region: n.region(),
                count: Some(r.count),
                ty: Some(region_type(r).into()),
                ..Node::group(name, path, n.start, n.end)
            },
            (None, None) => Node::group(name, path, n.start, n.end),
        };
        node.start = n.start;
        node.end = n.end;
        node.children = shape.children(n).iter().map(|&k| assemble(shape, texts, bytes, k)).collect();
        node
    }
    shape.roots.iter().map(|&r| assemble(shape, texts, bytes, r)).collect()
}

/// The type an array node shows: its element count and stride.
fn region_type(r: &Region) -> String {
    format!("[{}; {} bytes]", r.count, r.stride)
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

/// The JSON of the whole tree of a shape, byte for byte `to_json(&nodes(shape, texts, bytes))`,
/// written straight from the shape: names and paths are slices of the spans' paths and no
/// `Node` is made.
pub fn json(shape: &Shape, texts: &Texts, bytes: &[u8]) -> String {
    json_levels(shape, texts, bytes, &shape.roots, usize::MAX)
}

/// The JSON of the nodes `top` (the roots, or one node's children) with their descendants,
/// `levels` levels in all (at least one). A node of the last level whose children are left
/// out carries `kids`, their count (ask for them by its path: `find`); every other field is
/// as in `json`.
pub fn json_levels(shape: &Shape, texts: &Texts, bytes: &[u8], top: &[u32], levels: usize) -> String {
    json_levels_laid(shape, texts, bytes, top, levels, &|_| None)
}

/// `json_levels` of a shape made over placeholders (`laid`), none of them above the last
/// level: `laid_kids` gives a placeholder node's number of fields and sub-records, and it
/// is written as the group its fields would make.
pub fn json_levels_laid(
    shape: &Shape,
    texts: &Texts,
    bytes: &[u8],
    top: &[u32],
    levels: usize,
    laid_kids: &dyn Fn(&ShapeNode) -> Option<usize>,
) -> String {
    // About 150 bytes of JSON a node (builder MeshSets); a part's size is not known ahead,
    // and is never more than the whole tree's.
    let nodes = if levels == usize::MAX { shape.nodes.len() } else { (top.len() * 8).min(shape.nodes.len()) };
    let mut out = String::with_capacity(nodes * 160 + 2);
    out.push('[');
    // The nodes left to write at each open level; a level is one node's children (or `top`).
    let mut open = vec![top.iter()];
    let mut first = true;
    while let Some(level) = open.last_mut() {
        let Some(&i) = level.next() else {
            open.pop();
            out.push(']');
            if !open.is_empty() {
                out.push('}');
            }
            first = false;
            continue;
        };
        if !first {
            out.push(',');
        }
        let n = shape.node(i);
        let laid = laid_kids(n);
        write_shape_head(n, texts, bytes, laid.is_some(), &mut out);
        let kids = shape.children(n);
        let count = kids.len() + laid.unwrap_or(0);
        first = false;
        if count == 0 {
            out.push('}');
        } else if open.len() >= levels || laid.is_some() {
            let mut num = crate::show::Digits::new();
            out.push_str(",\"kids\":");
            out.push_str(crate::show::decimal(count as u64, &mut num));
            out.push('}');
        } else {
            out.push_str(",\"children\":[");
            open.push(kids.iter());
            first = true;
        }
    }
    out
}

/// A shape node's object up to its children, as `write_head` writes a `Node`'s; `as_group`
/// for a placeholder, written as the group its fields make.
fn write_shape_head(n: &ShapeNode, texts: &Texts, bytes: &[u8], as_group: bool, out: &mut String) {
    let (name, path, start, end) = (texts.name(n), texts.path(n), n.start, n.end);
    let group = Head { name, path, start, end, confidence: None, ty: None, value: None, region: None, count: None };
    if as_group {
        return write_head(&group, out);
    }
    match (texts.span(n), n.region().and_then(|r| texts.regions.get(r as usize))) {
        (Some(s), _) => {
            // Text the decoder made is borrowed; a value of the file's bytes is shown into `out`.
            let shown;
            let value = match (s.value.as_text(), s.shown_from(bytes)) {
                (Some(t), _) => HeadValue::Text(t),
                (None, Some((kind, b))) => HeadValue::Of(kind, b),
                (None, None) => {
                    shown = s.text(bytes);
                    HeadValue::Text(&shown)
                }
            };
            write_head(&Head { confidence: Some(s.confidence), ty: Some(&s.ty), value: Some(value), ..group }, out)
        }
        (None, Some(r)) => {
            let ty = region_type(r);
            write_head(&Head { ty: Some(&ty), region: n.region(), count: Some(r.count), ..group }, out)
        }
        (None, None) => write_head(&group, out),
    }
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

/// A node's fields but its children, borrowed from a `Node` or from a shape and its texts.
#[derive(Clone, Copy)]
struct Head<'a> {
    name: &'a str,
    path: &'a str,
    start: u64,
    end: u64,
    confidence: Option<Confidence>,
    ty: Option<&'a str>,
    value: Option<HeadValue<'a>>,
    region: Option<u32>,
    count: Option<u64>,
}

/// A node's value: text, or a kind and the bytes it shows.
#[derive(Clone, Copy)]
enum HeadValue<'a> {
    Text(&'a str),
    Of(crate::show::Kind, &'a [u8]),
}

fn write_node(n: &Node, out: &mut String) {
    let head = Head {
        name: &n.name,
        path: &n.path,
        start: n.start,
        end: n.end,
        confidence: n.confidence,
        ty: n.ty.as_deref(),
        value: n.value.as_deref().map(HeadValue::Text),
        region: n.region,
        count: n.count,
    };
    write_head(&head, out);
    if !n.children.is_empty() {
        out.push_str(",\"children\":");
        write_nodes(&n.children, out);
    }
    out.push('}');
}

/// A node's object up to its children: `{"name":..` with every field present, unclosed.
/// Keys are written with the quotes around them, so that a node takes few copies.
fn write_head(n: &Head, out: &mut String) {
    let mut num = crate::show::Digits::new();
    out.push_str("{\"name\":\"");
    json_chars(n.name, out);
    out.push_str("\",\"path\":\"");
    json_chars(n.path, out);
    out.push_str("\",\"start\":");
    out.push_str(crate::show::decimal(n.start, &mut num));
    out.push_str(",\"end\":");
    out.push_str(crate::show::decimal(n.end, &mut num));
    if let Some(c) = n.confidence {
        out.push_str(",\"confidence\":\"");
        out.push_str(c.name());
        out.push('"');
    }
    if let Some(t) = n.ty {
        out.push_str(",\"type\":\"");
        json_chars(t, out);
        out.push('"');
    }
    match n.value {
        Some(HeadValue::Text(v)) => {
            out.push_str(",\"value\":\"");
            json_chars(v, out);
            out.push('"');
        }
        Some(HeadValue::Of(kind, b)) => {
            out.push_str(",\"value\":\"");
            if kind.write_plain(b, out).is_none() {
                json_chars(&kind.show(b), out);
            }
            out.push('"');
        }
        None => {}
    }
    if let Some(r) = n.region {
        out.push_str(",\"region\":");
        out.push_str(crate::show::decimal(r as u64, &mut num));
    }
    if let Some(c) = n.count {
        out.push_str(",\"count\":");
        out.push_str(crate::show::decimal(c, &mut num));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{Elem, Fields, Kind, Value};

    /// `json` against `to_json` of the nodes, for the fields `f` over `bytes`.
    fn json_matches_nodes(f: &Fields, bytes: &[u8]) {
        let shape = Shape::new(&f.spans, &f.regions, &f.records);
        let texts = Texts { spans: &f.spans, regions: &f.regions };
        let nodes = nodes(&shape, &texts, bytes);
        assert_eq!(json(&shape, &texts, bytes), to_json(&nodes));
        assert_eq!(json(&shape, &texts, bytes), serde_json::to_string(&nodes).unwrap());
    }

    #[test]
    fn json_from_the_shape_is_the_json_of_the_nodes() {
        json_matches_nodes(&Fields::default(), &[]);
        let mut f = Fields::default();
        // Texts that need escaping, a value made from the file's bytes, nesting, a repeated
        // path, a path that is a group already, a declared record, regions with and without
        // element names, and one of no elements.
        f.add(0, 2, "head.with a long \"q\\\u{1}\n\t", "u8[2]", "é\u{7f}\u{1f}\"", Confidence::Proven, "");
        f.spans.push(Span {
            start: 2,
            len: 2,
            path: "head.n".into(),
            ty: "u16".into(),
            value: Value::Of(Kind::Unsigned),
            confidence: Confidence::Unknown,
            note: "".into(),
        });
        for (at, p) in [(4, "a.b.c"), (5, "a.bb"), (6, "a.b"), (7, "a.b.c"), (8, "z")] {
            f.add(at, 1, p, "u8", "0", Confidence::Inferred, "");
        }
        f.record("a", 3, 20);
        let elem = |name: &str| Elem {
            offset: 0,
            len: 2,
            name: name.into(),
            ty: "u16".into(),
            confidence: Confidence::Observed,
            note: "".into(),
            format: |b| format!("{b:?}"),
        };
        f.add_region(Region { start: 10, stride: 2, count: 3, path: "a.items".into(), elems: vec![elem("id")] });
        f.add_region(Region { start: 16, stride: 2, count: 2, path: "index".into(), elems: vec![elem("")] });
        f.add_region(Region { start: 20, stride: 4, count: 0, path: "none".into(), elems: vec![] });
        f.add(12, 2, "a.items[1].extra", "u16", "7", Confidence::Proven, "");
        let bytes: Vec<u8> = (0..24).collect();
        json_matches_nodes(&f, &bytes);
        json_matches_nodes(&f, &bytes[..3]);
    }

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

    #[test]
    fn the_top_of_a_shape_shows_as_the_whole_shape_does() {
        let mut f = Fields::default();
        // Fields deeper than each depth, out of order and across other records; a repeated
        // path; a field at one depth that a later path nests under; a deep declared record
        // (its extent does not widen its parents) and a shallow one; a deep region.
        let paths = [
            (9, "a.b.c.d.e"),
            (1, "a.b.c.d.f"),
            (30, "x.y"),
            (3, "a.b.g"),
            (40, "a.b.c.d.e"),
            (12, "a.h.i.j"),
            (2, "a.h"),
            (50, "a.h.i.k.l"),
            (5, "z"),
        ];
        for (at, p) in paths {
            f.add(at, 1, p, "u8", "0", Confidence::Proven, "");
        }
        f.record("a.b.c", 0, 100);
        f.record("a.h", 1, 7);
        let elem = Elem {
            offset: 0,
            len: 2,
            name: "id".into(),
            ty: "u16".into(),
            confidence: Confidence::Observed,
            note: "".into(),
            format: |b| format!("{b:?}"),
        };
        f.add_region(Region { start: 60, stride: 2, count: 4, path: "x.q.r.items".into(), elems: vec![elem] });
        let bytes: Vec<u8> = (0..80).collect();
        let texts = Texts { spans: &f.spans, regions: &f.regions };
        let whole = Shape::new(&f.spans, &f.regions, &f.records);
        for levels in 1..7 {
            let top = Shape::top(&f.spans, &f.regions, &f.records, levels + 1);
            assert!(levels >= 4 || top.nodes.len() < whole.nodes.len(), "{levels}: the top leaves nodes out");
            assert_eq!(
                json_levels(&top, &texts, &bytes, &top.roots, levels),
                json_levels(&whole, &texts, &bytes, &whole.roots, levels),
                "{levels} levels"
            );
        }
    }
}
