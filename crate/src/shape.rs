//! The shape of the structure tree, derived from the spans' paths: `lod[0].section[2].vertex_count`
//! nests under `lod[0]` and `section[2]`. Nodes name their text by index into the spans and
//! regions they come from, so a shape copies no string: the census walks it as it is, and
//! `tree::build` turns it into the page's `Node`s.

use crate::span::{Record, Region, Span, Value};
use crate::words::same;
use hashbrown::hash_table::{Entry, HashTable};

/// Where a node's path text lives: a prefix of this span's or region's path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Src {
    Span(u32),
    Region(u32),
}

#[derive(Debug, Clone)]
pub struct ShapeNode {
    pub start: u64,
    pub end: u64,
    /// Where the last field or array under this node ends, declared record extents
    /// ignored: the end an undeclared group node has.
    pub content_end: u64,
    src: Src,
    /// The node's path is `path(src)[..path_len]`, its name `path(src)[name_at..path_len]`.
    path_len: u32,
    name_at: u32,
    /// The parent's index + 1, 0 for a top-level node.
    parent: u32,
    /// Children: `Shape::children` from here, this many (sorted by start).
    children_at: u32,
    children_len: u32,
    /// Whether `src` is this node itself (a field or an array), not a path through it.
    is_field_or_array: bool,
}

impl ShapeNode {
    /// The span this node is (a field), if it is one.
    pub fn span(&self) -> Option<u32> {
        match (self.is_field_or_array, self.src) {
            (true, Src::Span(i)) => Some(i),
            _ => None,
        }
    }

    /// The region this node is (an array), if it is one.
    pub fn region(&self) -> Option<u32> {
        match (self.is_field_or_array, self.src) {
            (true, Src::Region(i)) => Some(i),
            _ => None,
        }
    }

    /// A group: neither a field nor an array (it may still have children either way).
    pub fn is_group(&self) -> bool {
        !self.is_field_or_array
    }

    pub fn has_children(&self) -> bool {
        self.children_len > 0
    }
}

/// The tree over one file's spans and regions, in an arena.
#[derive(Debug, Clone, Default)]
pub struct Shape {
    pub nodes: Vec<ShapeNode>,
    /// Top-level nodes, sorted by start.
    pub roots: Vec<u32>,
    /// Every node's children, one run per node.
    children: Vec<u32>,
    /// Node indices by `name_key(parent, name)`, told apart by the node's parent and name.
    index: HashTable<u32>,
}

/// The texts a shape's nodes point into.
#[derive(Clone, Copy)]
pub struct Texts<'a> {
    pub spans: &'a [Span],
    pub regions: &'a [Region],
}

impl<'a> Texts<'a> {
    fn full(&self, src: Src) -> &'a str {
        match src {
            Src::Span(i) => self.spans.get(i as usize).map_or("", |s| s.path.as_str()),
            Src::Region(i) => self.regions.get(i as usize).map_or("", |r| r.path.as_str()),
        }
    }

    pub fn path(&self, n: &ShapeNode) -> &'a str {
        self.full(n.src).get(..n.path_len as usize).unwrap_or("")
    }

    pub fn name(&self, n: &ShapeNode) -> &'a str {
        self.full(n.src).get(n.name_at as usize..n.path_len as usize).unwrap_or("")
    }

    pub fn span(&self, n: &ShapeNode) -> Option<&'a Span> {
        n.span().and_then(|i| self.spans.get(i as usize))
    }
}

/// The shape under construction: each node found by its parent and its name (a borrowed
/// segment, shorter to hash and compare than the whole path).
struct Builder<'a> {
    nodes: Vec<ShapeNode>,
    /// Each node's number of children (`Shape::top` lays their runs out from these).
    kids: Vec<u32>,
    roots: Vec<u32>,
    index: HashTable<u32>,
    texts: Texts<'a>,
    /// The previous path's segment ends and nodes: decoders emit the fields of a record
    /// together, so most paths share their parents with the one before and skip the map.
    last: Vec<(usize, u32)>,
    last_path: &'a str,
    /// Segments a path is nested to: deeper ones only widen the node of the last
    /// (`Shape::top`).
    depth: usize,
}

/// A 64-bit key of (parent, name), mixed enough to be a hash: the name eight bytes at a time.
fn name_key(parent: u32, name: &[u8]) -> u64 {
    // The library's own tests use a key that names of one length share, so that their trees
    // tell nodes apart by parent and name all the time.
    if cfg!(test) {
        return parent as u64 ^ (name.len() as u64) << 32;
    }
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(K);
    let mut h = (parent as u64).wrapping_add(1).wrapping_mul(K) ^ name.len() as u64;
    let mut words = name.chunks_exact(8);
    for c in &mut words {
        h = mix(h, u64::from_le_bytes(c.try_into().unwrap_or_default()));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        h = mix(h, crate::fx::tail_word(rest));
    }
    h ^ (h >> 29)
}

/// Where the path segment starting at `from` ends: at the next dot, or the path's end.
/// Eight bytes at a time: segments are a few bytes, shorter than a vector searcher's set-up.
fn segment_end(path: &[u8], from: usize) -> usize {
    let Some(rest) = path.get(from..) else { return path.len() };
    let mut words = rest.chunks_exact(8);
    let mut at = from;
    for w in &mut words {
        let dot = crate::words::equal(crate::words::word(w), b'.');
        if dot != 0 {
            return at + crate::words::first_marked(dot);
        }
        at += 8;
    }
    words.remainder().iter().position(|&b| b == b'.').map_or(path.len(), |d| at + d)
}

/// Whether node `i` is `name` under `pid` (the parent's index + 1).
fn is_node(nodes: &[ShapeNode], texts: &Texts, i: u32, pid: u32, name: &str) -> bool {
    nodes.get(i as usize).is_some_and(|n| n.parent == pid && same(texts.name(n), name))
}

/// Node `i`'s `name_key`, as it was entered with (the index's hash when it grows).
fn node_key(nodes: &[ShapeNode], texts: &Texts, i: u32) -> u64 {
    nodes.get(i as usize).map_or(0, |n| name_key(n.parent, texts.name(n).as_bytes()))
}

impl<'a> Builder<'a> {
    fn insert(&mut self, path: &'a str, src: Src, start: u64, end: u64) {
        // Parents shared with the previous path: its deepest segment end after which this
        // path has a dot and before which the same bytes. Shallower ones then match too, and
        // the fields of one record, which come together, match at the first try.
        let (p, q) = (path.as_bytes(), self.last_path.as_bytes());
        let keep = self.last.iter().rposition(|&(e, _)| {
            p.get(e) == Some(&b'.') && p.get(..e).zip(q.get(..e)).is_some_and(|(x, y)| same(x, y))
        });
        self.last.truncate(keep.map_or(0, |k| k + 1));
        self.last_path = path;
        if self.last.len() >= self.depth {
            // Past the depth, under the deepest node of the previous path: it covers this.
            if let Some(&(_, i)) = self.last.last() {
                self.widen(i, start, end);
            }
            return;
        }
        // Enclosing nodes take their extents from their children at the end (`Shape::new`).
        let mut from = self.last.last().map_or(0, |&(e, _)| e + 1);
        let mut parent = self.last.last().map(|&(_, i)| i);
        while from <= path.len() {
            let end_at = segment_end(p, from);
            let pid = parent.map_or(0, |p| p + 1);
            let name = &path[from..end_at];
            let last = end_at == path.len();
            // The deepest segment nested, with more of the path after it.
            let cut = !last && self.last.len() + 1 >= self.depth;
            let (nodes, texts) = (&self.nodes, &self.texts);
            let slot = match self.index.entry(
                name_key(pid, name.as_bytes()),
                |&i| is_node(nodes, texts, i, pid, name),
                |&i| node_key(nodes, texts, i),
            ) {
                Entry::Occupied(o) => Some(*o.get()),
                Entry::Vacant(v) => {
                    v.insert(nodes.len() as u32);
                    None
                }
            };
            let idx = match slot {
                Some(i) => {
                    // The same path again, or one under a node nested no deeper: the node
                    // covers both.
                    if last || cut {
                        self.widen(i, start, end);
                    }
                    i
                }
                None => {
                    self.nodes.push(ShapeNode {
                        start,
                        end,
                        content_end: 0,
                        src,
                        path_len: end_at as u32,
                        name_at: from as u32,
                        parent: pid,
                        children_at: 0,
                        children_len: 0,
                        is_field_or_array: last,
                    });
                    self.kids.push(0);
                    let i = (self.nodes.len() - 1) as u32;
                    match parent.and_then(|p| self.kids.get_mut(p as usize)) {
                        Some(k) => *k += 1,
                        None => self.roots.push(i),
                    }
                    i
                }
            };
            if !last {
                self.last.push((end_at, idx));
            }
            if cut {
                return;
            }
            parent = Some(idx);
            from = end_at + 1;
        }
    }

    fn widen(&mut self, i: u32, start: u64, end: u64) {
        if let Some(n) = self.nodes.get_mut(i as usize) {
            n.start = n.start.min(start);
            n.end = n.end.max(end);
        }
    }
}

impl Shape {
    /// The shape of spans in the order they were decoded, the regions, and the records whose
    /// extent the decoder declared (`Fields::record`): such a group node takes that extent.
    pub fn new(spans: &[Span], regions: &[Region], records: &[Record]) -> Shape {
        Shape::top(spans, regions, records, usize::MAX)
    }

    /// The shape's top `depth` levels: the same nodes, extents and children there as
    /// `Shape::new`'s, and none deeper (a node at the depth has no children). For a first
    /// view of the tree, where most of a file's paths are deeper.
    pub fn top(spans: &[Span], regions: &[Region], records: &[Record], depth: usize) -> Shape {
        let cap = spans.len() + spans.len() / 2 + regions.len();
        let mut b = Builder {
            // Room for every field and half as many again for records and regions, reserved
            // once, so that the arena is seldom copied to grow.
            nodes: Vec::with_capacity(cap),
            kids: Vec::with_capacity(cap),
            roots: Vec::new(),
            index: HashTable::with_capacity(cap),
            texts: Texts { spans, regions },
            last: Vec::new(),
            last_path: "",
            depth: depth.max(1),
        };
        // Paths longer than u32 offsets can name are not nested (no real path is that long).
        let fits = |p: &str| u32::try_from(p.len()).is_ok();
        for (i, s) in spans.iter().enumerate().filter(|(_, s)| fits(&s.path)) {
            b.insert(&s.path, Src::Span(i as u32), s.start, s.end());
        }
        for (i, r) in regions.iter().enumerate().filter(|(_, r)| fits(&r.path)) {
            b.insert(&r.path, Src::Region(i as u32), r.start, r.end());
        }
        let Builder { nodes, kids, roots, index, texts, .. } = b;
        let mut shape = Shape { nodes, roots, children: Vec::new(), index };
        let nodes = &mut shape.nodes;
        // A node covers its children, and its content ends where its last field or array
        // does (a field or an array ends where it ends). Children come after their parents in
        // the arena, so one pass from the end carries both up before the parent passes them on.
        for i in (0..nodes.len()).rev() {
            let n = &mut nodes[i];
            let (start, end, parent) = (n.start, n.end, n.parent);
            // Kept in a register: the node's ends read back as one wide load after a store
            // to one of them would wait on that store.
            let mut content_end = n.content_end;
            if kids[i] == 0 || n.region().is_some() {
                content_end = end;
            }
            // A placeholder's content ends where its record's last field does.
            if let Some(Value::Laid(l)) = texts.span(n).map(|s| &s.value) {
                content_end = start.saturating_add(crate::laid::content_len(*l, end.saturating_sub(start)));
            }
            n.content_end = content_end;
            if let Some(p) = (parent as usize).checked_sub(1).and_then(|p| nodes.get_mut(p)) {
                p.start = p.start.min(start);
                p.end = p.end.max(end);
                p.content_end = p.content_end.max(content_end);
            }
        }
        for r in records {
            if let Some(i) = shape.find(&texts, &r.path) {
                let n = &mut shape.nodes[i as usize];
                if n.is_group() {
                    n.start = r.start;
                    n.end = r.start.saturating_add(r.len);
                }
            }
        }
        // Each node's children in one run of `children`, in the order they were made (a
        // child is made after its parent); runs are laid out from the counts first.
        let Shape { nodes, roots, children, .. } = &mut shape;
        let mut at = 0u32;
        for (n, &k) in nodes.iter_mut().zip(&kids) {
            (n.children_at, n.children_len) = (at, 0);
            at += k;
        }
        children.resize(at as usize, 0);
        for i in 0..nodes.len() {
            let Some(p) = (nodes[i].parent as usize).checked_sub(1) else { continue };
            let run = &mut nodes[p];
            children[(run.children_at + run.children_len) as usize] = i as u32;
            run.children_len += 1;
        }
        // Decoders mostly emit in offset order already; a stable sort of sorted input is linear.
        for i in 0..nodes.len() {
            let run =
                &mut children[nodes[i].children_at as usize..(nodes[i].children_at + nodes[i].children_len) as usize];
            if !run.is_sorted_by_key(|&k| nodes[k as usize].start) {
                run.sort_by_key(|&k| nodes[k as usize].start);
            }
        }
        roots.sort_by_key(|&k| nodes[k as usize].start);
        shape
    }

    /// The node named `name` under `parent` (`None`: at the top).
    pub fn child(&self, texts: &Texts, parent: Option<u32>, name: &str) -> Option<u32> {
        let pid = parent.map_or(0, |p| p + 1);
        self.index.find(name_key(pid, name.as_bytes()), |&i| is_node(&self.nodes, texts, i, pid, name)).copied()
    }

    /// The node whose path is `path`, found segment by segment.
    pub fn find(&self, texts: &Texts, path: &str) -> Option<u32> {
        let (mut at, mut from) = (None, 0);
        loop {
            let end = segment_end(path.as_bytes(), from);
            at = Some(self.child(texts, at, path.get(from..end)?)?);
            if end == path.len() {
                return at;
            }
            from = end + 1;
        }
    }

    pub fn node(&self, i: u32) -> &ShapeNode {
        &self.nodes[i as usize]
    }

    /// A node's children, sorted by start.
    pub fn children(&self, n: &ShapeNode) -> &[u32] {
        self.children.get(n.children_at as usize..(n.children_at + n.children_len) as usize).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{Confidence, Fields};

    #[test]
    fn a_segment_ends_at_the_first_dot_from_its_start_or_at_the_end() {
        // Dots at every place in and across the eight-byte words, multi-byte characters
        // beside them, and starts past the end.
        let paths = [
            "",
            ".",
            "a",
            "abcdefgh",
            "abcdefg.",
            "abcdefgh.",
            "abcdefghi.j",
            "é.ü",
            "lod[0].section[12].vertex_count",
        ];
        let mut all: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        for n in 0..20 {
            for d in 0..n {
                let mut p: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
                p[d] = b'.';
                all.push(String::from_utf8(p).unwrap());
            }
        }
        for p in &all {
            let b = p.as_bytes();
            for from in 0..=b.len() + 2 {
                let naive = b.get(from..).and_then(|r| r.iter().position(|&c| c == b'.')).map_or(b.len(), |d| from + d);
                assert_eq!(segment_end(b, from), naive, "{p:?} from {from}");
            }
        }
    }

    #[test]
    fn names_that_share_a_key_are_told_apart() {
        let mut f = Fields::default();
        // bb, cc and dd share a key here (same length, same parent); cc is entered again
        // after x, and bb's path comes twice.
        for (at, p) in [(0, "a.bb"), (1, "a.cc.e"), (2, "a.dd"), (3, "x"), (4, "a.cc.f"), (5, "a.bb"), (6, "y.bb")] {
            f.add(at, 1, p, "u8", "0", Confidence::Proven, "");
        }
        f.record("a.cc", 1, 10);
        let shape = Shape::new(&f.spans, &f.regions, &f.records);
        let t = Texts { spans: &f.spans, regions: &f.regions };
        let names = |children: &[u32]| children.iter().map(|&k| t.name(shape.node(k))).collect::<Vec<_>>();
        assert_eq!(names(&shape.roots), ["a", "x", "y"]);
        let a = shape.node(shape.roots[0]);
        assert_eq!(names(shape.children(a)), ["bb", "cc", "dd"]);
        let cc = shape.node(shape.children(a)[1]);
        assert_eq!(names(shape.children(cc)), ["e", "f"]);
        assert_eq!((cc.start, cc.end), (1, 11), "the declared record found through its clashing key");
        assert_eq!(shape.node(shape.children(a)[0]).span(), Some(0), "the second a.bb joins the first");
        let y = shape.node(shape.roots[2]);
        assert_eq!(names(shape.children(y)), ["bb"]);
    }

    #[test]
    fn every_node_is_found_by_its_path_after_the_index_grows() {
        let mut f = Fields::default();
        // One span a path of many segments: far more nodes than the index is sized for.
        let paths: Vec<String> = (0..40).map(|i| format!("r{}.a.b{}.c.d{i}.e.f.g", i % 3, i % 7)).collect();
        for (at, p) in paths.iter().enumerate() {
            f.add(at as u64, 1, p, "u8", "0", Confidence::Proven, "");
        }
        let shape = Shape::new(&f.spans, &f.regions, &f.records);
        let t = Texts { spans: &f.spans, regions: &f.regions };
        // 208 nodes, where the index has room for 112 (60 asked): counted from the paths. prefixes.
        let mut prefixes: Vec<&str> = Vec::new();
        for p in &paths {
            prefixes.extend(p.match_indices('.').map(|(e, _)| &p[..e]).chain([p.as_str()]));
        }
        prefixes.sort_unstable();
        prefixes.dedup();
        assert_eq!(shape.nodes.len(), prefixes.len());
        for (i, n) in shape.nodes.iter().enumerate() {
            assert_eq!(shape.find(&t, t.path(n)), Some(i as u32), "{}", t.path(n));
        }
        for p in &paths {
            assert_eq!(
                shape.find(&t, p).and_then(|i| shape.node(i).span()),
                t.spans.iter().position(|s| &s.path == p).map(|k| k as u32)
            );
        }
        assert_eq!(shape.find(&t, "r0.a.b0.c.d99"), None);
        assert_eq!(shape.find(&t, "r0.x"), None);
        assert_eq!(shape.child(&t, None, "r3"), None);
        assert_eq!(shape.find(&Texts { spans: &[], regions: &[] }, "r0"), None, "no texts, no node");
    }
}
