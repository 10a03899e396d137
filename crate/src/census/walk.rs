//! One document's way into the census: the tree is walked record by record. A record is a
//! group node of the tree (a path prefix); its kind is its path with indices folded. For
//! each record the walk counts its direct fields, its indexed children, its own size, its
//! regions' counts and strides, and its unexplained bytes (uncovered or Unknown) by offset
//! inside the record. Region elements are not expanded: vertex data is data, not structure.

use super::accumulate::{parse_number, EntryKind, Place};
use super::fold::{fold, join};
use super::Census;
use super::{KindCache, Parsed, Slot};
use crate::shape::Texts;
use crate::span::{Confidence, Region, Span};

/// Unexplained bytes are counted only in a record's first this many bytes, so a record
/// that happens to straddle a large array costs little.
pub const MAX_RECORD_BYTES: u64 = 4096;

/// The bytes fixed spans cover, as merged, sorted, disjoint intervals. Made where the file is
/// decoded (`Parsed`): the counting thread then reads this short list, not every span again.
pub fn merge_spans(spans: &[Span]) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = spans.iter().map(|s| (s.start, s.end())).collect();
    // Decoders emit mostly in offset order: a run-adaptive sort, by start only (merging
    // takes the larger end whatever the order of equal starts).
    all.sort_by_key(|iv| iv.0);
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// Which bytes some span or region element covers.
pub struct Cover<'a> {
    /// Fixed spans as `merge_spans` gives them.
    merged: &'a [(u64, u64)],
    regions: &'a [Region],
}

impl<'a> Cover<'a> {
    pub fn new(merged: &'a [(u64, u64)], regions: &'a [Region]) -> Cover<'a> {
        Cover { merged, regions }
    }

    fn in_region(&self, x: u64) -> bool {
        self.regions.iter().any(|r| {
            x >= r.start
                && x < r.end()
                && r.stride > 0
                && r.elems.iter().any(|e| {
                    let o = (x - r.start) % r.stride;
                    o >= e.offset && o < e.offset + e.len
                })
        })
    }

    /// The sub-ranges of `[a, b)` that no span and no region element covers.
    #[cfg(test)]
    pub fn holes(&self, a: u64, b: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        self.holes_into(a, b, &mut out);
        out
    }

    /// The sub-ranges of `[a, b)` that no span and no region element covers, into `out`
    /// (cleared first): the walk reuses one list for every record.
    pub fn holes_into(&self, a: u64, b: u64, out: &mut Vec<(u64, u64)>) {
        out.clear();
        let mut pos = a;
        let first = self.merged.partition_point(|iv| iv.1 <= a);
        for &(s, e) in &self.merged[first..] {
            if s >= b {
                break;
            }
            if s > pos {
                out.push((pos, s));
            }
            pos = pos.max(e);
        }
        if pos < b {
            out.push((pos, b));
        }
        if !self.regions.iter().any(|r| r.start < b && r.end() > a) {
            return;
        }
        // Gaps that meet a region: split around its elements' bytes.
        let gaps = std::mem::take(out);
        for (s, e) in gaps {
            if !self.regions.iter().any(|r| r.start < e && r.end() > s) {
                out.push((s, e));
                continue;
            }
            let mut run: Option<u64> = None;
            for x in s..e {
                match (self.in_region(x), run) {
                    (false, None) => run = Some(x),
                    (true, Some(r0)) => {
                        out.push((r0, x));
                        run = None;
                    }
                    _ => {}
                }
            }
            if let Some(r0) = run {
                out.push((r0, e));
            }
        }
    }
}

/// Removes `cut` from sorted disjoint `ranges`, in place.
fn subtract(ranges: &mut Vec<(u64, u64)>, cut: (u64, u64)) {
    let mut k = 0;
    while k < ranges.len() {
        let (s, e) = ranges[k];
        if cut.1 <= s || cut.0 >= e {
            k += 1;
            continue;
        }
        match (cut.0 > s, cut.1 < e) {
            (true, true) => {
                ranges[k] = (s, cut.0);
                ranges.insert(k + 1, (cut.1, e));
                k += 2;
            }
            (true, false) => {
                ranges[k] = (s, cut.0);
                k += 1;
            }
            (false, true) => {
                ranges[k] = (cut.1, e);
                k += 1;
            }
            (false, false) => {
                ranges.remove(k);
            }
        }
    }
}

/// One record as relations see it: its numeric values (a run of `Walk::values`) and its
/// enclosing record.
#[derive(Debug)]
pub struct Inst {
    /// The census's id of the record kind.
    pub kind: usize,
    pub parent: Option<usize>,
    pub values: std::ops::Range<usize>,
}

/// A group child waiting for its walk: node, record kind, indexed name, and where the
/// elements of the same array before and after it start.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    node: u32,
    kind: usize,
    indexed: bool,
    prev: Option<u64>,
    after: Option<u64>,
}

/// Lists a walk fills, kept by the census from file to file so that walking allocates
/// nothing once they have grown.
#[derive(Debug, Default)]
pub struct Bufs {
    pub insts: Vec<Inst>,
    pub values: Vec<(usize, f64)>,
    groups: Vec<Group>,
    holes: Vec<(u64, u64)>,
}

pub struct Walk<'d> {
    pub doc: &'d Parsed,
    pub texts: Texts<'d>,
    pub cover: Cover<'d>,
    pub file: u32,
    pub format: &'static str,
    pub bufs: Bufs,
}

/// How a record kind is named in entries: the file itself is `(file)`.
pub fn record_name(kind: &str) -> &str {
    if kind.is_empty() { "(file)" } else { kind }
}

impl Census {
    /// The slot of child `name` of record kind `cache`, and whether the name is indexed.
    fn slot(cache: &mut KindCache, name: &str) -> (usize, bool) {
        if let Some(&x) = cache.children.get(name) {
            return x;
        }
        let folded = fold(name);
        let indexed = folded.ends_with("[*]");
        let slot = match cache.slots.iter().position(|s| s.folded == folded) {
            Some(k) => k,
            None => {
                cache.slots.push(Slot { folded, ..Slot::default() });
                cache.slots.len() - 1
            }
        };
        cache.children.insert(name.to_string(), (slot, indexed));
        (slot, indexed)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk_record(
        &mut self,
        w: &mut Walk,
        kid: usize,
        path: &str,
        children: &[u32],
        parent: Option<usize>,
        next: Option<u64>,
        extent: Option<(u64, u64)>,
    ) {
        let inst = w.bufs.insts.len();
        let v0 = w.bufs.values.len();
        w.bufs.insts.push(Inst { kind: kid, parent, values: v0..v0 });
        // The kind's cache is taken out while the record is walked, and put back after.
        let Some(mut cache) = self.caches.get_mut(kid).and_then(Option::take) else { return };
        let kind_name = std::mem::take(&mut cache.kind);
        let kind = kind_name.as_str();
        let file = w.file;
        let root = parent.is_none();

        let doc = w.doc;
        let (shape, texts) = (&doc.shape, w.texts);
        let nodes = || children.iter().map(|&k| shape.node(k));
        let leaves = || nodes().filter(|c| c.span().is_some());
        // A record starts at its node's start: the extent a decoder declared
        // (`Fields::record`), else where its first field or sub-record starts, the same
        // first byte annotations count from (web/anchor.js). It ends where it was declared
        // to end, else at the end of its last field. An undeclared group node ends exactly
        // where its content does, so a node that ends elsewhere was declared (a MeshSet LOD
        // record whose sections lie after every LOD record, or a record with a tail).
        let (lo, mut hi) = match extent {
            None => (0, leaves().map(|c| c.end).max().unwrap_or(0)),
            Some((start, end)) => {
                let content = nodes().map(|c| c.content_end).max().unwrap_or(start);
                let own = leaves().map(|c| c.end).max().unwrap_or(start);
                (start, if end != content { end } else { own })
            }
        };
        // An element of an array of records owns the bytes up to the next element when no
        // span covers them: a section record's undescribed tail is the section's.
        if let Some(n) = next.filter(|&n| n > hi && hi > lo && n - lo <= MAX_RECORD_BYTES) {
            w.cover.holes_into(hi, n, &mut w.bufs.holes);
            if w.bufs.holes == [(hi, n)] {
                hi = n;
            }
        }
        let place = |offset: u64| move || Place { file, record: path.to_string(), offset };

        for c in leaves() {
            let Some(span) = texts.span(c) else { continue };
            let (ty, value, name) = (span.ty.as_ref(), span.value.as_str(), texts.name(c));
            let id = match cache.names.get(name) {
                Some(&id) => id,
                None => {
                    let id = self.intern(w.format, EntryKind::Field, join(kind, &fold(name)), kind, ty);
                    cache.names.insert(name.to_string(), id);
                    id
                }
            };
            let e = &mut self.entries[id];
            if e.records == 0 {
                e.width = c.end - c.start;
                e.confidence = Some(span.confidence);
            }
            let rel = c.start.saturating_sub(lo);
            let num = e.add(&span.value, || parse_number(ty, value), Some(rel), place(c.start), file);
            // An indexed leaf (`lod_ptr[3]`) has several values per record: not a relation.
            if let (Some(n), false) = (num, name.ends_with(']')) {
                w.bufs.values.push((id, n));
            }
        }

        // Indexed children by folded name, in the order they first appear; and the group
        // children, each a record of its own kind walked after this one's own bytes (one slot
        // look-up a child serves both).
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        let g0 = w.bufs.groups.len();
        for (k, c) in children.iter().map(|&k| (k, shape.node(k))) {
            let group = c.has_kids() && c.region().is_none();
            let name = texts.name(c);
            if !group && !name.ends_with(']') {
                continue;
            }
            let (slot, indexed) = Self::slot(&mut cache, name);
            if indexed {
                match counts.iter_mut().find(|x| x.0 == slot) {
                    Some(x) => x.1 += 1,
                    None => counts.push((slot, 1, c.start)),
                }
            }
            if group {
                let ckid = match cache.slots[slot].kind {
                    Some(k) => k,
                    None => {
                        let k = self.kind_id(w.format, &join(kind, &cache.slots[slot].folded));
                        cache.slots[slot].kind = Some(k);
                        k
                    }
                };
                w.bufs.groups.push(Group { node: k, kind: ckid, indexed, prev: None, after: None });
            }
        }
        for &(slot, n, at) in &counts {
            let id = match cache.slots[slot].count {
                Some(id) => id,
                None => {
                    let id = self.intern(w.format, EntryKind::Count, join(kind, &cache.slots[slot].folded), kind, "count");
                    cache.slots[slot].count = Some(id);
                    id
                }
            };
            self.entries[id].add_number(n, None, place(at), file);
            w.bufs.values.push((id, n as f64));
        }
        self.counts = counts;

        for c in nodes() {
            let Some(r) = c.region().and_then(|i| doc.decode.fields.regions.get(i as usize)) else { continue };
            let (slot, _) = Self::slot(&mut cache, texts.name(c));
            let ids = match cache.slots[slot].region {
                Some(ids) => ids,
                None => {
                    let rpath = join(kind, &cache.slots[slot].folded);
                    let count = self.intern(w.format, EntryKind::RegionCount, rpath.clone(), kind, "count");
                    let stride = self.intern(w.format, EntryKind::RegionStride, rpath, kind, "stride");
                    cache.slots[slot].region = Some((count, stride));
                    (count, stride)
                }
            };
            for (id, n) in [(ids.0, r.count), (ids.1, r.stride)] {
                self.entries[id].add_number(n, None, place(r.start), file);
                w.bufs.values.push((id, n as f64));
            }
        }

        let size = if root { doc.bytes.len() as u64 } else { hi.saturating_sub(lo) };
        if root || hi > lo {
            let id = match cache.size {
                Some(id) => id,
                None => *cache.size.insert(self.intern(w.format, EntryKind::Size, record_name(kind).to_string(), kind, "size")),
            };
            self.entries[id].add_number(size, None, place(lo), file);
            w.bufs.values.push((id, size as f64));
        }

        if hi > lo {
            let end = hi.min(lo.saturating_add(MAX_RECORD_BYTES));
            // Most records are tiled by their fields and sub-records (children come sorted by
            // start): then no byte is unexplained and the spans need not be asked.
            let mut tiled = lo;
            for c in nodes().filter(|c| c.region().is_none()) {
                if c.start > tiled {
                    break;
                }
                tiled = tiled.max(c.end);
            }
            let mut holes = std::mem::take(&mut w.bufs.holes);
            holes.clear();
            if tiled < end {
                w.cover.holes_into(lo, end, &mut holes);
                for c in nodes().filter(|c| c.has_kids() && c.region().is_none()) {
                    subtract(&mut holes, (c.start, c.end));
                }
            }
            for &(s, e) in &holes {
                self.unexplained(w, &mut cache, EntryKind::Uncovered, kind, path, lo, s, e);
            }
            w.bufs.holes = holes;
            for c in leaves().filter(|c| texts.span(c).is_some_and(|s| s.confidence == Confidence::Unknown)) {
                self.unexplained(w, &mut cache, EntryKind::Unknown, kind, path, lo, c.start, c.end.min(end));
            }
        }
        w.bufs.insts[inst].values = v0..w.bufs.values.len();

        cache.kind = kind_name;
        self.caches[kid] = Some(cache);
        // Where the elements of the same array before and after each start: mostly the
        // neighbours, so the searches stop at once.
        let g1 = w.bufs.groups.len();
        for k in g0..g1 {
            let (kd, start) = (w.bufs.groups[k].kind, shape.node(w.bufs.groups[k].node).start);
            if let Some(j) = (g0..k).rev().find(|&j| w.bufs.groups[j].kind == kd) {
                w.bufs.groups[k].prev = Some(shape.node(w.bufs.groups[j].node).start);
                w.bufs.groups[j].after = Some(start);
            }
        }
        for k in g0..g1 {
            let g = w.bufs.groups[k];
            let c = shape.node(g.node);
            // The last element takes the stride of the one before it, a lone one the stride
            // last seen for its kind.
            let next = if !g.indexed {
                None
            } else {
                let kc = self.caches.get_mut(g.kind).and_then(Option::as_mut);
                let stride = g.prev.map(|b| c.start - b).or(kc.as_ref().and_then(|k| k.stride));
                if let (Some(a), Some(k)) = (g.after, kc) {
                    k.stride = Some(a - c.start);
                }
                g.after.or_else(|| stride.map(|d| c.start + d))
            };
            self.walk_record(w, g.kind, texts.path(c), shape.kids(c), Some(inst), next, Some((c.start, c.end)));
        }
        w.bufs.groups.truncate(g0);
    }

    /// Counts bytes `[s, e)` of a record starting at `lo`: as u32 words where a whole word
    /// at a record-relative multiple of 4 is inside the range, else byte by byte.
    #[allow(clippy::too_many_arguments)]
    fn unexplained(&mut self, w: &Walk, cache: &mut KindCache, ek: EntryKind, kind: &str, path: &str, lo: u64, s: u64, e: u64) {
        let file = w.file;
        let mut o = s.saturating_sub(lo);
        let r1 = e.saturating_sub(lo);
        while o < r1 {
            let width = if o.is_multiple_of(4) && o + 4 <= r1 { 4 } else { 1 };
            let abs = lo + o;
            let Some(b) = usize::try_from(abs).ok().and_then(|a| w.doc.bytes.get(a..a.checked_add(width)?)) else { break };
            let v = b.iter().rev().fold(0u64, |acc, &x| acc << 8 | x as u64);
            // Offsets stay below MAX_RECORD_BYTES: the slots are a short dense list.
            let slot = super::byte_slot(o, ek == EntryKind::Unknown, width == 4);
            if cache.bytes.len() <= slot {
                cache.bytes.resize(slot + 1, super::NO_ENTRY);
            }
            let id = match cache.bytes[slot] {
                super::NO_ENTRY => {
                    let ty = if width == 4 { "u32" } else { "u8" };
                    let id = self.intern(w.format, ek, format!("{}+0x{:02x}", record_name(kind), o), kind, ty);
                    cache.bytes[slot] = id as u32;
                    id
                }
                id => id as usize,
            };
            let en = &mut self.entries[id];
            en.width = width as u64;
            en.add_number(v, Some(o), || Place { file, record: path.to_string(), offset: abs }, file);
            o += width as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{Elem, Fields};

    fn fmt(_: &[u8]) -> String {
        String::new()
    }

    #[test]
    fn holes_skip_spans_and_region_elements() {
        let mut f = Fields::default();
        // Out of offset order, as decoders may emit them.
        f.add(10, 2, "c", "u16", "0", Confidence::Proven, "");
        f.add(0, 4, "a", "u32", "0", Confidence::Proven, "");
        f.add(2, 4, "b", "u32", "0", Confidence::Proven, "");
        f.add_region(Region {
            start: 16,
            stride: 4,
            count: 2,
            path: "r".into(),
            elems: vec![Elem { offset: 0, len: 2, name: String::new(), ty: "u16".into(), confidence: Confidence::Proven, note: "".into(), format: fmt }],
        });
        let merged = merge_spans(&f.spans);
        let c = Cover::new(&merged, &f.regions);
        assert_eq!(c.holes(0, 30), vec![(6, 10), (12, 16), (18, 20), (22, 30)]);
        assert_eq!(c.holes(3, 11), vec![(6, 10)]);
        let mut r = vec![(0, 10), (20, 30)];
        subtract(&mut r, (5, 25));
        assert_eq!(r, vec![(0, 5), (25, 30)]);
        subtract(&mut r, (1, 3));
        assert_eq!(r, vec![(0, 1), (3, 5), (25, 30)]);
        subtract(&mut r, (0, 26));
        assert_eq!(r, vec![(26, 30)]);
    }
}
