//! Every node of a document's tree by path: which records a file has, where they are, and
//! the record that holds a byte (for unexplained bytes).

use crate::document::Document;
use crate::fx::FxMap;
use crate::tree::Node;

/// A node of the tree: a record, a field or an array.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rec<'a> {
    pub path: &'a str,
    pub start: u64,
    pub end: u64,
    /// A group (record) node: neither a field nor an array.
    pub group: bool,
}

pub(crate) struct Records<'a> {
    by_path: FxMap<&'a str, Rec<'a>>,
    /// Group nodes, by start then by depth, for the innermost record holding a byte.
    tree: &'a [Node],
}

impl<'a> Records<'a> {
    pub fn new(doc: &'a Document) -> Records<'a> {
        let mut by_path = FxMap::default();
        fn walk<'a>(nodes: &'a [Node], out: &mut FxMap<&'a str, Rec<'a>>) {
            for n in nodes {
                let group = n.region.is_none() && n.value.is_none();
                out.entry(n.path.as_str()).or_insert(Rec { path: &n.path, start: n.start, end: n.end, group });
                walk(&n.children, out);
            }
        }
        walk(doc.tree(), &mut by_path);
        Records { by_path, tree: doc.tree() }
    }

    pub fn get(&self, path: &str) -> Option<Rec<'a>> {
        self.by_path.get(path).copied()
    }

    /// The innermost record holding byte `at` (`None` at file level) and where the bytes it
    /// holds from `at` end: at its end or where a record inside it starts.
    pub fn holding(&self, at: u64) -> (Option<Rec<'a>>, u64) {
        let is_record = |n: &Node| n.region.is_none() && n.value.is_none();
        let mut found = None;
        let mut level = self.tree;
        let mut end = u64::MAX;
        loop {
            // Children are sorted by start: the ones starting after `at` bound this record's part.
            let after = level.partition_point(|n| n.start <= at);
            if let Some(n) = level[after..].iter().find(|n| is_record(n)) {
                end = end.min(n.start);
            }
            let Some(n) = level[..after].iter().rev().find(|n| at < n.end && is_record(n)) else {
                return (found, end);
            };
            found = Some(Rec { path: &n.path, start: n.start, end: n.end, group: true });
            end = end.min(n.end);
            level = &n.children;
        }
    }

    /// The last top-level node that ends at or before `at`: what a byte outside every
    /// record follows.
    pub fn before(&self, at: u64) -> Option<Rec<'a>> {
        let after = self.tree.partition_point(|n| n.start < at);
        let n = self.tree[..after].iter().filter(|n| n.end <= at).max_by_key(|n| (n.end, n.start))?;
        Some(Rec { path: &n.path, start: n.start, end: n.end, group: n.region.is_none() && n.value.is_none() })
    }

    /// The outermost record of `path` (or `path` itself) that `other` lacks, for a field or
    /// array present on this side only; `None` when `other` has the path.
    pub fn missing_in(&self, path: &str, other: &Records) -> Option<Rec<'a>> {
        let cuts = path.match_indices('.').map(|(i, _)| i).chain(std::iter::once(path.len()));
        for end in cuts {
            let prefix = &path[..end];
            if other.get(prefix).is_none() {
                return self.get(prefix).or_else(|| self.get(path));
            }
        }
        None
    }
}
