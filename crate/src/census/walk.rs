//! One document's way into the census: its tree walked record by record into a `Plan`,
//! where the file was decoded. The census then counts the plan (`apply`).

use super::accumulate::is_flags;
use super::cover::{subtract, Cover};
use super::fold::{fold, join};
use super::plan::{Ends, FieldDef, KindStride, NewName, NumOp, Plan, PlanRecord, NO_PARENT};
use super::replay::{self, Marks, Replays, Walked};
use super::{key_into, CensusFile, FxMap};
use crate::formats::Format;
use crate::laid::{self, LayoutRef, Part, PartValue, IN_RECORD};
use crate::shape::{ShapeNode, Texts};
use crate::short::Short;
use crate::show::Kind;
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

/// Where a sub-record's children are.
#[derive(Debug, Clone, Copy)]
enum SubSrc {
    /// A group node of the shape: its children there.
    Node(u32),
    /// A record laid out statically, the placeholder node `node` (`Value::Laid`): its parts.
    Laid { node: u32 },
    /// Group part `i` of the record laid out that is being walked.
    Part(u32),
    /// Part `i` of the record laid out that is being walked, a record laid out of its own.
    LaidPart(u32),
}

/// A sub-record waiting for its walk, and where the elements of the same array before and
/// after it start.
#[derive(Debug, Clone, Copy)]
struct SubRecord {
    src: SubSrc,
    start: u64,
    end: u64,
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
    /// Lists for the parts of records laid out being walked (`Kids::Parts`), one a level of
    /// nesting, kept for the next records.
    parts: Vec<Vec<Part>>,
    /// Replay keys of records laid out being walked, one a level of nesting, kept likewise.
    keys: Vec<Vec<u8>>,
    /// Plans of records laid out, by their kind and bytes, and the strides this file's walks
    /// set (kind, stride), which a replay sets again.
    replays: Replays,
    stride_log: Vec<(u32, u64)>,
    stride_scratch: Vec<(u32, u64)>,
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

/// One direct field to plan: the `n`th field of a record of kind `kind`, at `[start, end)`.
struct FieldAt<'a> {
    kind: usize,
    n: usize,
    start: u64,
    end: u64,
    name: &'a str,
    field: FieldOf<'a>,
}

/// What planning a field reads of it.
#[derive(Clone, Copy)]
struct FieldOf<'a> {
    ty: &'a str,
    confidence: Confidence,
    shown: Shown<'a>,
}

/// How a field's value goes into the plan: as text, or as its place. Nothing here owns
/// memory, so that a child costs no drop.
#[derive(Clone, Copy)]
enum Shown<'a> {
    Text(&'a str),
    /// Its `len` bytes in the file from its start, shown as the kind of code `code`.
    Bytes {
        code: u8,
        len: u32,
    },
    /// As the text of this span (`Span::text`).
    Span(&'a Span),
    /// As its bytes `[start, start + len)` shown as `kind`, a kind of no code.
    Kind {
        kind: Kind,
        start: u64,
        len: u64,
    },
}

/// One child of a record as its walk sees it, a node of the shape or a part of a record
/// laid out statically: a field, a sub-record, an array region, or a field and a sub-record.
#[derive(Clone, Copy)]
struct Child<'a> {
    start: u64,
    end: u64,
    /// `ShapeNode::content_end`.
    content_end: u64,
    name: &'a str,
    field: Option<FieldOf<'a>>,
    sub: Option<SubSrc>,
    /// The region node, for an array.
    region: Option<u32>,
}

/// The parts of one file a walk reads.
struct WalkedFile<'d> {
    file: &'d CensusFile,
    texts: Texts<'d>,
    cover: Cover<'d>,
    format: &'static str,
}

/// A record's children: nodes of the shape, or the parts of a record laid out at `base`
/// that are in group `group`, among `parts[from..to]`.
#[derive(Clone, Copy)]
enum Kids<'a> {
    Nodes(&'a [u32]),
    Parts { parts: &'a [Part], from: usize, to: usize, group: u16, base: u64 },
}

/// One record to walk: its kind, its path, its children, its parent, where the next element
/// of its array starts, and the extent its node has (`None` for the file).
struct RecordToWalk<'a> {
    kind: u32,
    /// Its path past its parent's, in pieces, and the length of its whole path.
    own_path: [&'a str; 2],
    path_len: usize,
    kids: Kids<'a>,
    /// The parent's index in `Plan::records` (`NO_PARENT` for the file).
    parent: u32,
    next: Next,
    extent: Option<(u64, u64)>,
}

/// What `Planner::scan` keeps from child to child.
struct Scanning {
    scan: ChildScan,
    /// Whether the children's run from the record's start has ended.
    gap: bool,
    /// Direct fields and named children (indexed ones, sub-records) so far.
    fields: usize,
    named: usize,
    counts: Vec<ChildCount>,
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
        self.stride_log.clear();
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
            own_path: ["", ""],
            path_len: 0,
            kids: Kids::Nodes(&doc.shape.roots),
            parent: NO_PARENT,
            next: Next::None,
            extent: None,
        };
        self.record(&d, plan, file);
        for kind in self.strided.drain(..) {
            plan.strides.push(KindStride { kind, stride: self.kinds[kind as usize].stride.stride });
        }
    }

    /// How many records laid out this planner planned from a kept plan.
    pub fn replay_hits(&self) -> super::ReplayHits {
        self.replays.hits
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
        at.own_path.iter().for_each(|p| plan.paths.push_str(p));
        let first_sub = self.sub_records.len();
        let scan = self.scan(d, plan, &at);
        let extent = self.extent(d, &at, &scan);
        let holes = self.holes(d, plan, first_sub, extent, &scan);
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
        self.sub_records(d, plan, first_sub, this, &at);
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
        // Indexed children are counted by folded name, in the order they first appear (one
        // slot look-up a child serves the count and the sub-record both).
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        let scan = ChildScan { tiled: at.extent.map_or(0, |e| e.0), ..ChildScan::default() };
        let mut s = Scanning { scan, gap: false, fields: 0, named: 0, counts };
        self.regions.clear();
        self.unknown.clear();
        match at.kids {
            Kids::Nodes(nodes) => nodes.iter().for_each(|&k| self.scan_child(d, plan, at, &mut s, node_child(d, k))),
            Kids::Parts { parts, from, to, group, base } => {
                for (i, p) in parts.iter().enumerate().take(to).skip(from).filter(|(_, p)| p.group == group) {
                    let after = parts.get(i + 1..).unwrap_or(&[]);
                    self.scan_child(d, plan, at, &mut s, part_child(p, i, after, base));
                }
            }
        }
        for c in &s.counts {
            let slot = self.kinds[kind].slots[c.slot].id;
            plan.nums.push(NumOp { slot, region: false, n: c.count, stride: 0, at: c.at });
        }
        self.counts = s.counts;
        let regions = std::mem::take(&mut self.regions);
        for c in regions.iter().map(|&k| shape.node(k)) {
            let Some(r) = c.region().and_then(|i| d.file.decode.fields.regions.get(i as usize)) else { continue };
            let ChildName { slot, .. } = self.slot(at.kind, d.texts.name(c), plan);
            let slot = self.kinds[kind].slots[slot].id;
            plan.nums.push(NumOp { slot, region: true, n: r.count, stride: r.stride, at: r.start });
        }
        self.regions = regions;
        s.scan
    }

    /// `scan` of one child, in start order.
    #[inline(always)]
    fn scan_child(&mut self, d: &WalkedFile, plan: &mut Plan, at: &RecordToWalk, s: &mut Scanning, c: Child) {
        let kind = at.kind as usize;
        let scan = &mut s.scan;
        scan.content_end = scan.content_end.max(Some(c.content_end));
        if c.region.is_none() && !s.gap {
            // Children come sorted by start: the first gap ends the run from the start.
            s.gap = c.start > scan.tiled;
            if !s.gap {
                scan.tiled = scan.tiled.max(c.end);
            }
        }
        let name = c.name;
        if let Some(field) = c.field {
            scan.fields_end = scan.fields_end.max(Some(c.end));
            if field.confidence == Confidence::Unknown {
                self.unknown.push((c.start, c.end));
            }
            self.field(d, plan, FieldAt { kind, n: s.fields, start: c.start, end: c.end, name, field });
            s.fields += 1;
        }
        if c.sub.is_some() || name.ends_with(']') {
            let ChildName { slot, indexed } = self.slot_at(at.kind, s.named, name, plan);
            s.named += 1;
            if indexed {
                match s.counts.iter_mut().find(|x| x.slot == slot) {
                    Some(x) => x.count += 1,
                    None => s.counts.push(ChildCount { slot, count: 1, at: c.start }),
                }
            }
            if let Some(src) = c.sub {
                let sub_kind = self.sub_kind(d, plan, kind, slot);
                let (start, end) = (c.start, c.end);
                self.sub_records.push(SubRecord { src, start, end, kind: sub_kind, indexed, prev: None, after: None });
            }
        }
        if let Some(k) = c.region {
            self.regions.push(k);
        }
    }

    /// Plans one direct field of a record: the `n`th of its kind's record.
    #[inline(always)]
    fn field(&mut self, d: &WalkedFile, plan: &mut Plan, f: FieldAt) {
        let FieldAt { kind, n, start, end, name, field } = f;
        let k = &mut self.kinds[kind];
        // A kind's fields come in the same order record after record: the field at this
        // place last time is checked first, by its name, before any hashing.
        let guess =
            k.seq.get(n).copied().filter(|&id| self.field_names.get(id as usize).is_some_and(|s| same(s, name)));
        let known = match guess {
            Some(id) => Some(id),
            None => k.names.get(name).copied(),
        };
        let id = match known {
            Some(id) => id,
            None => {
                let id = self.field_names.len() as u32;
                self.field_names.push(name.to_string());
                k.names.insert(name.to_string(), id);
                plan.new_names.push(NewName::Field(FieldDef {
                    name: name.to_string(),
                    ty: field.ty.to_string(),
                    width: end - start,
                    confidence: field.confidence,
                    indexed: name.ends_with(']'),
                }));
                id
            }
        };
        match k.seq.get_mut(n) {
            Some(x) => *x = id,
            None => k.seq.push(id),
        }
        let flags = is_flags(field.ty);
        match field.shown {
            Shown::Text(t) => plan.push(id, t, flags, start),
            Shown::Bytes { code, len } => plan.push_bytes(id, code, len, flags, start),
            Shown::Span(s) => plan.push(id, &s.text(&d.file.bytes), flags, start),
            Shown::Kind { kind, start, len } => {
                let own = laid::own_bytes(&d.file.bytes, start, len).unwrap_or(&[]);
                plan.push(id, &kind.show(own), flags, start)
            }
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
    /// (`PlanRecord::reach`), and those of Unknown fields; returns where each run ends. Its
    /// sub-records are `sub_records[first_sub..]`.
    fn holes(
        &mut self,
        d: &WalkedFile,
        plan: &mut Plan,
        first_sub: usize,
        extent: Extent,
        scan: &ChildScan,
    ) -> HoleEnds {
        let Extent { lo, hi, reach } = extent;
        let h0 = plan.holes.len() as u32;
        if hi <= lo {
            return HoleEnds { uncovered: h0, ext: h0, unknown: h0 };
        }
        let end = hi.min(lo.saturating_add(MAX_RECORD_BYTES));
        let (holes, subs) = (&mut self.holes, self.sub_records.get(first_sub..).unwrap_or(&[]));
        let subtract_subs = |holes: &mut Vec<(u64, u64)>| subs.iter().for_each(|g| subtract(holes, (g.start, g.end)));
        // Most records are tiled by their fields and sub-records from their start (`scan`):
        // then no byte is unexplained and the spans need not be asked.
        holes.clear();
        if scan.tiled < end {
            d.cover.holes_into(lo, end, holes);
            subtract_subs(holes);
        }
        plan.holes.extend_from_slice(holes);
        let uncovered = plan.holes.len() as u32;
        if reach > hi {
            holes.clear();
            holes.push((hi, reach));
            subtract_subs(holes);
            plan.holes.extend_from_slice(holes);
        }
        let ext = plan.holes.len() as u32;
        plan.holes.extend(self.unknown.iter().map(|&(s, e)| (s, e.min(end))));
        HoleEnds { uncovered, ext, unknown: plan.holes.len() as u32 }
    }

    /// Walks the sub-records `record` listed from `first` on, each knowing where the next
    /// element of its array starts; `this` is its index in the plan.
    fn sub_records(&mut self, d: &WalkedFile, plan: &mut Plan, first: usize, this: u32, record: &RecordToWalk) {
        // Where the elements of the same array before and after each start: mostly the
        // neighbours, so the searches stop at once.
        let subs = first..self.sub_records.len();
        for k in subs.clone() {
            let (kd, start) = (self.sub_records[k].kind, self.sub_records[k].start);
            if let Some(j) = (first..k).rev().find(|&j| self.sub_records[j].kind == kd) {
                self.sub_records[k].prev = Some(self.sub_records[j].start);
                self.sub_records[j].after = Some(start);
            }
        }
        for k in subs {
            let g = self.sub_records[k];
            let next = if g.indexed { self.next_element(g, g.start) } else { Next::None };
            let sub = |own_path, path_len, kids| RecordToWalk {
                kind: g.kind,
                own_path,
                path_len,
                kids,
                parent: this,
                next,
                extent: Some((g.start, g.end)),
            };
            let parent_len = record.path_len;
            match g.src {
                SubSrc::Node(node) => {
                    let (c, path) = (d.file.shape.node(node), d.texts.path(d.file.shape.node(node)));
                    let kids = Kids::Nodes(d.file.shape.children(c));
                    self.record(d, plan, sub([from_parent(path, parent_len), ""], path.len(), kids));
                }
                SubSrc::Laid { node } => {
                    let c = d.file.shape.node(node);
                    let path = d.texts.path(c);
                    let layout = d.texts.span(c).and_then(|s| match s.value {
                        Value::Laid(l) => laid::own_bytes(&d.file.bytes, s.start, s.len).map(|own| (l, own)),
                        _ => None,
                    });
                    let at = LaidAt { layout, own_path: [from_parent(path, parent_len), ""], path_len: path.len() };
                    self.laid_record(d, plan, g, at, Up { parent: this, next })
                }
                SubSrc::LaidPart(i) => {
                    let Kids::Parts { parts, .. } = record.kids else { continue };
                    let Some(p) = parts.get(i as usize) else { continue };
                    let PartValue::Laid(l) = p.value else { continue };
                    let own = laid::own_bytes(&d.file.bytes, g.start, g.end.saturating_sub(g.start));
                    let path_len = record.path_len + 1 + p.name.len();
                    let at = LaidAt { layout: own.map(|own| (l, own)), own_path: [".", p.name], path_len };
                    self.laid_record(d, plan, g, at, Up { parent: this, next })
                }
                SubSrc::Part(i) => {
                    let Kids::Parts { parts, base, .. } = record.kids else { continue };
                    let Some(p) = parts.get(i as usize) else { continue };
                    let (from, to) = (i as usize + 1, (i as usize + 1 + p.kids as usize).min(parts.len()));
                    let kids = Kids::Parts { parts, from, to, group: i as u16, base };
                    self.record(d, plan, sub([".", p.name], record.path_len + 1 + p.name.len(), kids));
                }
            }
        }
        self.sub_records.truncate(first);
    }

    /// Walks sub-record `g`, a record laid out statically (`at`): from the plan kept for its
    /// kind and bytes, else over its parts, keeping that plan.
    fn laid_record(&mut self, d: &WalkedFile, plan: &mut Plan, g: SubRecord, at: LaidAt, up: Up) {
        let layout = at.layout;
        let fixed = layout.is_some_and(|(l, _)| l.0.fixed());
        // Its parts and key, in lists of the planner's (one a level of records laid out in
        // others). A fixed layout's parts are needed for its key; another's only for a walk.
        let mut parts = self.parts.pop().unwrap_or_default();
        let mut key = self.keys.pop().unwrap_or_default();
        parts.clear();
        if let (true, Some((l, own))) = (fixed, layout) {
            l.0.parts(own, &mut parts);
        }
        let keyed = replay_key(layout, &parts, g, &mut key);
        let kept = Keyed { key: &key, fixed, parts: &parts };
        if !(keyed && self.replayed(d, plan, kept, g, &at, &up)) {
            if let (false, Some((l, own))) = (fixed, layout) {
                l.0.parts(own, &mut parts);
            }
            let marks = Marks::of(plan, self.stride_log.len());
            let walk = RecordToWalk {
                kind: g.kind,
                own_path: at.own_path,
                path_len: at.path_len,
                kids: Kids::Parts { parts: &parts, from: 0, to: parts.len(), group: IN_RECORD, base: g.start },
                parent: up.parent,
                next: up.next,
                extent: Some((g.start, g.end)),
            };
            self.record(d, plan, walk);
            if keyed {
                let own_path = at.own_path.iter().map(|p| p.len()).sum();
                let (start, end) = (g.start, g.end);
                let walked = Walked { key: &key, start, end, since: marks, own_path, holes_checked: fixed };
                self.replays.keep(plan, walked, &self.stride_log);
            }
        }
        self.parts.push(parts);
        self.keys.push(key);
    }

    /// Array elements of kind `kind` are `stride` bytes apart in this file.
    fn set_stride(&mut self, kind: u32, stride: u64) {
        let (file, pk) = (self.file, &mut self.kinds[kind as usize]);
        if pk.stride.file != file {
            self.strided.push(kind);
        }
        pk.stride = StrideSeen { file, stride };
        self.stride_log.push((kind, stride));
    }

    /// Plans record laid out `g` from the plan kept under its key, if there is one and the
    /// file gives the record what it gave the kept one: no bytes after its end to own, and
    /// (for a fixed layout) the same uncovered bytes.
    fn replayed(&mut self, d: &WalkedFile, plan: &mut Plan, r: Keyed, g: SubRecord, at: &LaidAt, up: &Up) -> bool {
        let Some(kept) = self.replays.find(r.key) else { return false };
        let hi = kept.hi_at(g.start);
        let owns_more = match up.next {
            Next::None => false,
            Next::At(n) => n > hi,
            Next::Borrowed => true,
        };
        if owns_more {
            return false;
        }
        if r.fixed {
            // As `holes` finds them: the cover's gaps less the sub-records.
            let holes = &mut self.holes;
            d.cover.holes_into(g.start, hi.min(g.start.saturating_add(MAX_RECORD_BYTES)), holes);
            for p in r.parts.iter().filter(|p| p.group == IN_RECORD && p.is_record()) {
                let s = g.start.saturating_add(p.start as u64);
                subtract(holes, (s, s.saturating_add(p.len as u64)));
            }
            if !kept.same_holes(g.start, holes) {
                return false;
            }
        }
        kept.replay(plan, up.parent, g.start, at.own_path);
        let mut strides = std::mem::take(&mut self.stride_scratch);
        strides.clear();
        strides.extend_from_slice(&kept.strides);
        strides.iter().for_each(|&(k, s)| self.set_stride(k, s));
        self.stride_scratch = strides;
        self.replays.hits.records += 1;
        self.replays.hits.fixed += r.fixed as u64;
        true
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
            self.set_stride(g.kind, a.saturating_sub(start));
        }
        match (g.after, stride) {
            (Some(a), _) => Next::At(a),
            (None, Some(s)) => Next::At(start.saturating_add(s)),
            (None, None) => Next::Borrowed,
        }
    }
}

/// A record laid out, as a replay checks it: its key (`replay_key`), whether its layout is
/// fixed, and its parts (those of a fixed layout; else none yet).
#[derive(Clone, Copy)]
struct Keyed<'k> {
    key: &'k [u8],
    fixed: bool,
    parts: &'k [Part],
}

/// The replay key of record laid out `g` in `key`: its kind, its layout and, for a fixed
/// layout (whose `parts` are given), its length and the bytes of its sub-records and of its
/// values of no kind code, else its bytes (up to `replay::MAX_BYTES`). `false` where it has
/// none (a record the file cuts short, or a long one).
fn replay_key(layout: Option<(LayoutRef, &[u8])>, parts: &[Part], g: SubRecord, key: &mut Vec<u8>) -> bool {
    let Some((l, own)) = layout else { return false };
    replay::start_key(key, g.kind, l);
    if !l.0.fixed() {
        key.extend_from_slice(own);
        return (1..=replay::MAX_BYTES).contains(&own.len());
    }
    key.extend_from_slice(&(own.len() as u64).to_le_bytes());
    for p in parts.iter().filter(|p| p.planned_from_bytes()) {
        let Some(b) = laid::own_bytes(own, p.start as u64, p.len as u64) else { return false };
        key.extend_from_slice(b);
    }
    true
}

/// A record laid out statically, as its walk takes it: its layout and bytes (`None` where the
/// file cuts it short), its path past its parent's in pieces, and its whole path's length.
#[derive(Clone, Copy)]
struct LaidAt<'d> {
    layout: Option<(LayoutRef, &'d [u8])>,
    own_path: [&'d str; 2],
    path_len: usize,
}

/// A sub-record's parent, its index in the plan; and where the next element of the
/// sub-record's array starts.
struct Up {
    parent: u32,
    next: Next,
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

/// A record's path past its parent's, whose path is `parent_len` bytes long.
fn from_parent(path: &str, parent_len: usize) -> &str {
    path.get(parent_len..).unwrap_or(path)
}

/// A child node as its record's walk sees it. A placeholder of a record laid out statically
/// is a sub-record, walked over its parts.
#[inline(always)]
fn node_child<'d>(d: &WalkedFile<'d>, k: u32) -> Child<'d> {
    let c = d.file.shape.node(k);
    let mut child = Child {
        start: c.start,
        end: c.end,
        content_end: c.content_end,
        name: d.texts.name(c),
        field: None,
        sub: is_sub_record(c).then_some(SubSrc::Node(k)),
        region: c.region().map(|_| k),
    };
    match d.texts.span(c) {
        Some(s) if matches!(s.value, Value::Laid(_)) => child.sub = Some(SubSrc::Laid { node: k }),
        Some(s) => {
            // A value kept as its kind goes as its place, its bytes being the file's: where
            // the node starts elsewhere (two spans of one path), as its text.
            let len = u32::try_from(s.len).ok().filter(|_| s.start == c.start);
            let code = match &s.value {
                Value::Of(kind) => kind.code().zip(len),
                _ => None,
            };
            let shown = match (&s.value, code) {
                (Value::Text(t), _) => Shown::Text(t.as_str()),
                (_, Some((code, len))) => Shown::Bytes { code, len },
                _ => Shown::Span(s),
            };
            child.field = Some(FieldOf { ty: &s.ty, confidence: s.confidence, shown });
        }
        None => {}
    }
    child
}

/// Part `p`, the `i`th of a record laid out at `base`, as its record's walk sees it; `after`
/// are the parts after it.
#[inline(always)]
fn part_child<'d>(p: &Part, i: usize, after: &[Part], base: u64) -> Child<'d> {
    let at = |q: &Part| base.saturating_add(q.start as u64);
    let (start, end) = (at(p), at(p).saturating_add(p.len as u64));
    let shown = match p.value {
        PartValue::Group | PartValue::Laid(_) => None,
        PartValue::Text(t) => Some(Shown::Text(t.as_str())),
        PartValue::Of(kind) => Some(match kind.code() {
            Some(code) => Shown::Bytes { code, len: p.len },
            None => Shown::Kind { kind, start, len: p.len as u64 },
        }),
    };
    // A group's content ends where its last part does, a sub-record's where its layout says.
    let in_group = after.iter().take(p.kids as usize);
    let content_end = match p.value {
        PartValue::Group => in_group.map(|q| at(q).saturating_add(q.len as u64)).fold(end, u64::max),
        PartValue::Laid(l) => start.saturating_add(laid::content_len(l, p.len as u64)),
        _ => end,
    };
    let sub = match p.value {
        PartValue::Group => Some(SubSrc::Part(i as u32)),
        PartValue::Laid(_) => Some(SubSrc::LaidPart(i as u32)),
        _ => None,
    };
    Child {
        start,
        end,
        content_end,
        name: p.name,
        field: shown.map(|shown| FieldOf { ty: p.ty, confidence: p.confidence, shown }),
        sub,
        region: None,
    }
}
