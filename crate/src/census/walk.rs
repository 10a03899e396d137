//! One document's way into the census: its tree walked record by record into a `Plan`,
//! where the file was decoded. The census then counts the plan (`apply`).

use super::accumulate::is_flags;
use super::cover::{subtract, Cover};
use super::fold::{fold, join};
use super::plan::{Ends, FieldDef, KindStride, NewName, NumOp, Plan, PlanRecord, NO_PARENT};
use super::{key_into, CensusFile, FxMap};
use crate::formats::Format;
use crate::shape::{ShapeNode, Texts};
use crate::short::Short;
use crate::span::{Confidence, Span, Value};
use crate::words::same;

/// Unexplained bytes are counted only in a record's first this many bytes, so a record
/// that happens to straddle a large array costs little.
pub const MAX_RECORD_BYTES: u64 = 4096;

/// Whether a record `[lo, hi)` of an array may own the bytes up to `next`, where its next
/// element starts (if no span covers them): its walk and the census, for a stride borrowed
/// from an earlier file, ask the same.
pub(crate) fn may_own(lo: u64, hi: u64, next: u64) -> bool {
    next > hi && hi > lo && next - lo <= MAX_RECORD_BYTES
}

/// How a record kind is named in entries: the file itself is `(file)`.
pub fn record_name(kind: &str) -> &str {
    if kind.is_empty() {
        "(file)"
    } else {
        kind
    }
}

/// A sub-record waiting for its walk, and where the elements of the same array before and
/// after it start.
#[derive(Debug, Clone, Copy)]
struct SubRecord {
    /// Its node in the shape.
    node: u32,
    /// The planner's kind id.
    kind: u32,
    /// Whether its name is indexed (an element of an array of records).
    indexed: bool,
    prev: Option<u64>,
    after: Option<u64>,
}

/// A child name of a record kind: its place in `PlanKind::slots`, and whether it is indexed.
#[derive(Debug, Clone, Copy)]
struct ChildName {
    slot: usize,
    indexed: bool,
}

/// How many indexed children of one slot a record has, and where the first starts.
#[derive(Debug, Clone, Copy)]
struct ChildCount {
    slot: usize,
    count: u64,
    at: u64,
}

/// The stride a kind's array elements last had, and in which of the planner's files.
#[derive(Debug, Clone, Copy, Default)]
struct StrideSeen {
    file: u32,
    stride: u64,
}

/// Where a record's array says the next element starts.
#[derive(Debug, Clone, Copy)]
enum Next {
    None,
    At(u64),
    /// A lone element: wherever the stride an earlier file's elements had says.
    Borrowed,
}

/// What a planner knows of one record kind.
#[derive(Debug, Default)]
struct PlanKind {
    /// Folded path: `lod[*].section[*]`; empty for the file itself.
    path: String,
    /// Field ids by unfolded leaf name.
    names: FxMap<String, u32>,
    /// The field ids of the last record of the kind, in order.
    seq: Vec<u32>,
    /// Child names, unfolded.
    children: FxMap<String, ChildName>,
    /// The named children (`slot`'s) of the last record of the kind, in order, with what
    /// they were: records of a kind mostly name the same children, checked before hashing.
    child_seq: Vec<(Short, ChildName)>,
    slots: Vec<PlanSlot>,
    /// The stride this kind's array elements last had.
    stride: StrideSeen,
}

/// A folded child name of a record kind.
#[derive(Debug)]
struct PlanSlot {
    folded: String,
    /// The planner's slot id.
    id: u32,
    /// The record kind of a sub-record of this name.
    kind: Option<u32>,
}

/// Walks decoded files into plans: a record is a group node of the tree (a path prefix); its
/// kind is its path with indices folded. For each record the walk lists its direct fields,
/// its indexed children's counts, its regions, its extent and its unexplained bytes
/// (uncovered or Unknown). Region elements are not expanded: vertex data is data, not
/// structure. A planner keeps its names from file to file; each thread has its own.
#[derive(Debug, Default)]
pub struct Planner {
    /// Record kinds by `format|path`.
    ids: FxMap<String, u32>,
    kinds: Vec<PlanKind>,
    /// Each field id's leaf name.
    field_names: Vec<String>,
    slots: u32,
    /// The files planned so far, which stamps `PlanKind::stride`.
    file: u32,
    /// Kinds whose stride was set in this file.
    strided: Vec<u32>,
    /// Lists reused from record to record, so a warm planner allocates nothing.
    sub_records: Vec<SubRecord>,
    holes: Vec<(u64, u64)>,
    counts: Vec<ChildCount>,
    /// A record's region children and its Unknown fields' extents (`scan`).
    regions: Vec<u32>,
    unknown: Vec<(u64, u64)>,
    scratch: String,
}

/// What `Planner::scan` finds of a record's children for its extent and its unexplained bytes.
#[derive(Debug, Default)]
struct ChildScan {
    /// The largest end among its fields.
    fields_end: Option<u64>,
    /// The largest `ShapeNode::content_end` among all its children.
    content_end: Option<u64>,
    /// How far its children other than regions cover it without a gap from its start.
    tiled: u64,
}

/// One direct field to plan: the `n`th field of a record of kind `kind`.
struct FieldAt<'a> {
    kind: usize,
    n: usize,
    node: &'a ShapeNode,
    span: &'a Span,
    name: &'a str,
}

/// The parts of one file a walk reads.
struct WalkedFile<'d> {
    file: &'d CensusFile,
    texts: Texts<'d>,
    cover: Cover<'d>,
    format: &'static str,
}

/// One record to walk: its kind, its path and children in the shape, its parent, where the
/// next element of its array starts, and the extent its node has (`None` for the file).
struct RecordToWalk<'a> {
    kind: u32,
    path: &'a str,
    children: &'a [u32],
    /// The parent's index in `Plan::records` (`NO_PARENT` for the file) and its path's length.
    parent: u32,
    parent_path: usize,
    next: Next,
    extent: Option<(u64, u64)>,
}

impl Planner {
    pub fn new() -> Planner {
        Planner::default()
    }

    /// Plans one decoded file into `plan` (emptied first). A file of no known format gives a
    /// plan with no records.
    pub fn plan(&mut self, doc: &CensusFile, plan: &mut Plan) {
        plan.clear();
        plan.name.push_str(&doc.name);
        plan.format = doc.format;
        plan.len = doc.bytes.len() as u64;
        plan.errors = !doc.decode.errors.is_empty();
        if doc.format == Format::Unknown {
            return;
        }
        self.file = self.file.wrapping_add(1);
        let f = &doc.decode.fields;
        let d = WalkedFile {
            file: doc,
            texts: Texts { spans: &f.spans, regions: &f.regions },
            cover: Cover::new(&doc.cover, &f.regions),
            format: doc.format.name(),
        };
        let root = self.kind(d.format, "", plan);
        let file = RecordToWalk {
            kind: root,
            path: "",
            children: &doc.shape.roots,
            parent: NO_PARENT,
            parent_path: 0,
            next: Next::None,
            extent: None,
        };
        self.record(&d, plan, file);
        for kind in self.strided.drain(..) {
            plan.strides.push(KindStride { kind, stride: self.kinds[kind as usize].stride.stride });
        }
    }

    /// The id of a record kind, made (and defined in `plan`) on first use.
    fn kind(&mut self, format: &'static str, path: &str, plan: &mut Plan) -> u32 {
        key_into(&mut self.scratch, &[format, "|", path]);
        if let Some(&k) = self.ids.get(self.scratch.as_str()) {
            return k;
        }
        let k = self.kinds.len() as u32;
        self.ids.insert(self.scratch.clone(), k);
        self.kinds.push(PlanKind { path: path.to_string(), ..PlanKind::default() });
        plan.new_names.push(NewName::Kind { format, path: path.to_string() });
        k
    }

    /// `slot` for the `n`th named child of a record: the `n`th of the kind's last record is
    /// checked first, by its name.
    fn slot_at(&mut self, kind: u32, n: usize, name: &str, plan: &mut Plan) -> ChildName {
        let last = self.kinds[kind as usize].child_seq.get(n);
        if let Some((_, x)) = last.filter(|(s, _)| same(s.as_str(), name)) {
            return *x;
        }
        let x = self.slot(kind, name, plan);
        let seq = &mut self.kinds[kind as usize].child_seq;
        match seq.get_mut(n) {
            Some(at) => *at = (Short::from(name), x),
            None => seq.push((Short::from(name), x)),
        }
        x
    }

    /// The slot of child `name` of record kind `kind`, and whether the name is indexed.
    fn slot(&mut self, kind: u32, name: &str, plan: &mut Plan) -> ChildName {
        let k = &mut self.kinds[kind as usize];
        if let Some(&x) = k.children.get(name) {
            return x;
        }
        let folded = fold(name);
        let indexed = folded.ends_with("[*]");
        let slot = match k.slots.iter().position(|s| s.folded == folded) {
            Some(s) => s,
            None => {
                plan.new_names.push(NewName::Slot { folded: folded.clone() });
                k.slots.push(PlanSlot { folded, id: self.slots, kind: None });
                self.slots += 1;
                k.slots.len() - 1
            }
        };
        let child = ChildName { slot, indexed };
        k.children.insert(name.to_string(), child);
        child
    }

    /// Plans one record, then its sub-records.
    fn record(&mut self, d: &WalkedFile, plan: &mut Plan, at: RecordToWalk) {
        let this = plan.records.len() as u32;
        // The path past the parent's: the census joins them again only for the places it
        // keeps.
        plan.paths.push_str(at.path.get(at.parent_path..).unwrap_or(at.path));
        let first_sub = self.sub_records.len();
        let scan = self.scan(d, plan, &at);
        let extent = self.extent(d, &at, &scan);
        let holes = self.holes(d, plan, &at, extent, &scan);
        let ends = Ends {
            path: plan.paths.len() as u32,
            fields: plan.fields.len() as u32,
            nums: plan.nums.len() as u32,
            holes: holes.uncovered,
            ext: holes.ext,
            unknown: holes.unknown,
        };
        let Extent { lo, hi, reach } = extent;
        plan.records.push(PlanRecord { kind: at.kind, parent: at.parent, ends, lo, hi, reach });
        self.sub_records(d, plan, first_sub, this, at.path.len());
    }

    /// Where a record starts and ends, and how far a lone array element's uncovered bytes
    /// reach.
    fn extent(&mut self, d: &WalkedFile, at: &RecordToWalk, scan: &ChildScan) -> Extent {
        // A record starts at its node's start (the first byte annotations count from,
        // web/anchor.js) and ends where its decoder declared (`Fields::record`), else at the
        // end of its last field. An undeclared node ends exactly where its content does, so
        // one that ends elsewhere was declared (a record with a tail).
        let (lo, mut hi) = match at.extent {
            None => (0, scan.fields_end.unwrap_or(0)),
            Some((start, end)) => {
                let content = scan.content_end.unwrap_or(start);
                let fields_end = scan.fields_end.unwrap_or(start);
                (start, if end != content { end } else { fields_end })
            }
        };
        // An element of an array of records owns the bytes up to the next element when no
        // span covers them: a section record's undescribed tail is the section's. A lone
        // element's next one is where an earlier file's stride says: how far the uncovered
        // bytes reach is noted for the census to decide.
        let mut reach = 0;
        match at.next {
            Next::At(n) if may_own(lo, hi, n) => {
                d.cover.holes_into(hi, n, &mut self.holes);
                if self.holes == [(hi, n)] {
                    hi = n;
                }
            }
            Next::Borrowed if hi > lo && hi - lo < MAX_RECORD_BYTES => {
                d.cover.holes_into(hi, lo + MAX_RECORD_BYTES, &mut self.holes);
                reach = self.holes.first().filter(|h| h.0 == hi).map_or(0, |h| h.1);
            }
            _ => {}
        }
        Extent { lo, hi, reach }
    }

    /// Plans a record's children in one pass: its direct fields, its indexed children's
    /// counts and its regions, and lists its sub-records (each a record of its own kind,
    /// walked after this one) in `sub_records`; returns what its extent and its unexplained
    /// bytes need of them.
    fn scan(&mut self, d: &WalkedFile, plan: &mut Plan, at: &RecordToWalk) -> ChildScan {
        let (shape, kind) = (&d.file.shape, at.kind as usize);
        let mut scan = ChildScan { tiled: at.extent.map_or(0, |e| e.0), ..ChildScan::default() };
        let mut gap = false;
        // Indexed children are counted by folded name, in the order they first appear (one
        // slot look-up a child serves the count and the sub-record both).
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        self.regions.clear();
        self.unknown.clear();
        let (mut n, mut named) = (0, 0);
        for &k in at.children {
            let c = shape.node(k);
            let region = c.region().is_some();
            scan.content_end = scan.content_end.max(Some(c.content_end));
            if !region && !gap {
                // Children come sorted by start: the first gap ends the run from the start.
                gap = c.start > scan.tiled;
                if !gap {
                    scan.tiled = scan.tiled.max(c.end);
                }
            }
            let name = d.texts.name(c);
            if let Some(span) = d.texts.span(c) {
                scan.fields_end = scan.fields_end.max(Some(c.end));
                if span.confidence == Confidence::Unknown {
                    self.unknown.push((c.start, c.end));
                }
                self.field(d, plan, FieldAt { kind, n, node: c, span, name });
                n += 1;
            }
            let sub_record = is_sub_record(c);
            if sub_record || name.ends_with(']') {
                let ChildName { slot, indexed } = self.slot_at(at.kind, named, name, plan);
                named += 1;
                if indexed {
                    match counts.iter_mut().find(|x| x.slot == slot) {
                        Some(x) => x.count += 1,
                        None => counts.push(ChildCount { slot, count: 1, at: c.start }),
                    }
                }
                if sub_record {
                    let sub_kind = self.sub_kind(d, plan, kind, slot);
                    self.sub_records.push(SubRecord { node: k, kind: sub_kind, indexed, prev: None, after: None });
                }
            }
            if region {
                self.regions.push(k);
            }
        }
        for c in &counts {
            let slot = self.kinds[kind].slots[c.slot].id;
            plan.nums.push(NumOp { slot, region: false, n: c.count, stride: 0, at: c.at });
        }
        self.counts = counts;
        let regions = std::mem::take(&mut self.regions);
        for c in regions.iter().map(|&k| shape.node(k)) {
            let Some(r) = c.region().and_then(|i| d.file.decode.fields.regions.get(i as usize)) else { continue };
            let ChildName { slot, .. } = self.slot(at.kind, d.texts.name(c), plan);
            let slot = self.kinds[kind].slots[slot].id;
            plan.nums.push(NumOp { slot, region: true, n: r.count, stride: r.stride, at: r.start });
        }
        self.regions = regions;
        scan
    }

    /// Plans one direct field of a record: the `n`th of its kind's record.
    fn field(&mut self, d: &WalkedFile, plan: &mut Plan, f: FieldAt) {
        let FieldAt { kind, n, node: c, span, name } = f;
        let k = &mut self.kinds[kind];
        // A kind's fields come in the same order record after record: the field at this
        // place last time is checked first, by its name, before any hashing.
        let guess =
            k.seq.get(n).copied().filter(|&id| self.field_names.get(id as usize).is_some_and(|s| same(s, name)));
        let id = match guess.or_else(|| k.names.get(name).copied()) {
            Some(id) => id,
            None => {
                let id = self.field_names.len() as u32;
                self.field_names.push(name.to_string());
                k.names.insert(name.to_string(), id);
                plan.new_names.push(NewName::Field(FieldDef {
                    name: name.to_string(),
                    ty: span.ty.to_string(),
                    width: c.end - c.start,
                    confidence: span.confidence,
                    indexed: name.ends_with(']'),
                }));
                id
            }
        };
        match k.seq.get_mut(n) {
            Some(x) => *x = id,
            None => k.seq.push(id),
        }
        let flags = is_flags(&span.ty);
        // A value kept as its kind goes as its place, its bytes being the file's: where
        // the node starts elsewhere (two spans of one path), as its text.
        let len = u32::try_from(span.len).ok().filter(|_| span.start == c.start);
        let code = match &span.value {
            Value::Of(kind) => kind.code().zip(len),
            Value::Text(_) => None,
        };
        match (&span.value, code) {
            (Value::Text(t), _) => plan.push(id, t.as_str(), flags, c.start),
            (_, Some((code, len))) => plan.push_bytes(id, code, len, flags, c.start),
            _ => plan.push(id, &span.text(&d.file.bytes), flags, c.start),
        }
    }

    /// The record kind of the sub-records in slot `slot` of kind `kind`, made on first use.
    fn sub_kind(&mut self, d: &WalkedFile, plan: &mut Plan, kind: usize, slot: usize) -> u32 {
        if let Some(sk) = self.kinds[kind].slots[slot].kind {
            return sk;
        }
        let k = &self.kinds[kind];
        let sub_path = join(&k.path, &k.slots[slot].folded);
        let sk = self.kind(d.format, &sub_path, plan);
        self.kinds[kind].slots[slot].kind = Some(sk);
        sk
    }

    /// Plans a record's unexplained bytes: the uncovered ones, those a lone element may own
    /// (`PlanRecord::reach`), and those of Unknown fields; returns where each run ends.
    fn holes(
        &mut self,
        d: &WalkedFile,
        plan: &mut Plan,
        at: &RecordToWalk,
        extent: Extent,
        scan: &ChildScan,
    ) -> HoleEnds {
        let Extent { lo, hi, reach } = extent;
        let h0 = plan.holes.len() as u32;
        if hi <= lo {
            return HoleEnds { uncovered: h0, ext: h0, unknown: h0 };
        }
        let shape = &d.file.shape;
        let end = hi.min(lo.saturating_add(MAX_RECORD_BYTES));
        let sub_records = || at.children.iter().map(|&k| shape.node(k)).filter(|c| is_sub_record(c));
        // Most records are tiled by their fields and sub-records from their start (`scan`):
        // then no byte is unexplained and the spans need not be asked.
        let holes = &mut self.holes;
        holes.clear();
        if scan.tiled < end {
            d.cover.holes_into(lo, end, holes);
            sub_records().for_each(|c| subtract(holes, (c.start, c.end)));
        }
        plan.holes.extend_from_slice(holes);
        let uncovered = plan.holes.len() as u32;
        if reach > hi {
            holes.clear();
            holes.push((hi, reach));
            sub_records().for_each(|c| subtract(holes, (c.start, c.end)));
            plan.holes.extend_from_slice(holes);
        }
        let ext = plan.holes.len() as u32;
        plan.holes.extend(self.unknown.iter().map(|&(s, e)| (s, e.min(end))));
        HoleEnds { uncovered, ext, unknown: plan.holes.len() as u32 }
    }

    /// Walks the sub-records a record listed from `first` on, each knowing where the next
    /// element of its array starts.
    fn sub_records(&mut self, d: &WalkedFile, plan: &mut Plan, first: usize, parent: u32, parent_path: usize) {
        let (shape, texts) = (&d.file.shape, d.texts);
        // Where the elements of the same array before and after each start: mostly the
        // neighbours, so the searches stop at once.
        let subs = first..self.sub_records.len();
        for k in subs.clone() {
            let (kd, start) = (self.sub_records[k].kind, shape.node(self.sub_records[k].node).start);
            if let Some(j) = (first..k).rev().find(|&j| self.sub_records[j].kind == kd) {
                self.sub_records[k].prev = Some(shape.node(self.sub_records[j].node).start);
                self.sub_records[j].after = Some(start);
            }
        }
        for k in subs {
            let g = self.sub_records[k];
            let c = shape.node(g.node);
            let next = if g.indexed { self.next_element(g, c.start) } else { Next::None };
            let sub = RecordToWalk {
                kind: g.kind,
                path: texts.path(c),
                children: shape.children(c),
                parent,
                parent_path,
                next,
                extent: Some((c.start, c.end)),
            };
            self.record(d, plan, sub);
        }
        self.sub_records.truncate(first);
    }

    /// Where the element after array element `g` (starting at `start`) starts: the next one
    /// if there is one; for the last, the stride of the one before it; for a lone one, the
    /// stride last seen for its kind, in this file if it had one, else the census's.
    fn next_element(&mut self, g: SubRecord, start: u64) -> Next {
        let file = self.file;
        let pk = &mut self.kinds[g.kind as usize];
        let here = (pk.stride.file == file).then_some(pk.stride.stride);
        let stride = g.prev.map(|b| start.saturating_sub(b)).or(here);
        if let Some(a) = g.after {
            if pk.stride.file != file {
                self.strided.push(g.kind);
            }
            pk.stride = StrideSeen { file, stride: a.saturating_sub(start) };
        }
        match (g.after, stride) {
            (Some(a), _) => Next::At(a),
            (None, Some(s)) => Next::At(start.saturating_add(s)),
            (None, None) => Next::Borrowed,
        }
    }
}

/// Where a record starts and ends (`PlanRecord::lo`, `hi`, `reach`).
#[derive(Debug, Clone, Copy)]
struct Extent {
    lo: u64,
    hi: u64,
    reach: u64,
}

/// Where a record's runs of unexplained bytes end in `Plan::holes` (`Ends`).
struct HoleEnds {
    uncovered: u32,
    ext: u32,
    unknown: u32,
}

/// A child node that is a record of its own: it has children and is no array.
fn is_sub_record(c: &ShapeNode) -> bool {
    c.has_children() && c.region().is_none()
}
