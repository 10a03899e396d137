//! One document's way into the census: its tree walked record by record into a `Plan`,
//! where the file was decoded. The census then counts the plan (`apply`).

use super::accumulate::is_flags;
use super::cover::{subtract, Cover};
use super::fold::{fold, join};
use super::plan::{Def, Ends, NumOp, Plan, Rec, NO_PARENT};
use super::{key_into, FxMap, Parsed};
use crate::formats::Format;
use crate::shape::Texts;
use crate::span::Confidence;

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

/// A group child waiting for its walk: node, record kind, indexed name, and where the
/// elements of the same array before and after it start.
#[derive(Debug, Clone, Copy)]
struct Group {
    node: u32,
    kind: u32,
    indexed: bool,
    prev: Option<u64>,
    after: Option<u64>,
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
    /// Child names: their slot here, and whether the name is indexed.
    children: FxMap<String, (usize, bool)>,
    slots: Vec<PlanSlot>,
    /// The stride this kind's array elements last had in the file being planned: (the
    /// planner's file number, stride).
    stride: (u32, u64),
}

/// A folded child name of a record kind.
#[derive(Debug)]
struct PlanSlot {
    folded: String,
    /// The planner's slot id.
    id: u32,
    /// The record kind of a group child of this name.
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
    groups: Vec<Group>,
    holes: Vec<(u64, u64)>,
    counts: Vec<(usize, u64, u64)>,
    scratch: String,
}

/// The parts of one document a walk reads.
struct Doc<'d> {
    parsed: &'d Parsed,
    texts: Texts<'d>,
    cover: Cover<'d>,
    format: &'static str,
}

impl Planner {
    pub fn new() -> Planner {
        Planner::default()
    }

    /// Plans one decoded file into `plan` (emptied first). A file of no known format gives a
    /// plan with no records.
    pub fn plan(&mut self, doc: &Parsed, plan: &mut Plan) {
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
        let d = Doc {
            parsed: doc,
            texts: Texts { spans: &f.spans, regions: &f.regions },
            cover: Cover::new(&doc.cover, &f.regions),
            format: doc.format.name(),
        };
        let root = self.kind(d.format, "", plan);
        self.record(&d, plan, root, "", &doc.shape.roots, (NO_PARENT, 0), Next::None, None);
        for k in self.strided.drain(..) {
            plan.strides.push((k, self.kinds[k as usize].stride.1));
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
        plan.defs.push(Def::Kind { format, path: path.to_string() });
        k
    }

    /// The slot of child `name` of record kind `kind`, and whether the name is indexed.
    fn slot(&mut self, kind: u32, name: &str, plan: &mut Plan) -> (usize, bool) {
        let k = &mut self.kinds[kind as usize];
        if let Some(&x) = k.children.get(name) {
            return x;
        }
        let folded = fold(name);
        let indexed = folded.ends_with("[*]");
        let slot = match k.slots.iter().position(|s| s.folded == folded) {
            Some(s) => s,
            None => {
                plan.defs.push(Def::Slot { folded: folded.clone() });
                k.slots.push(PlanSlot { folded, id: self.slots, kind: None });
                self.slots += 1;
                k.slots.len() - 1
            }
        };
        k.children.insert(name.to_string(), (slot, indexed));
        (slot, indexed)
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        d: &Doc,
        plan: &mut Plan,
        kind: u32,
        path: &str,
        children: &[u32],
        (parent, parent_path): (u32, usize),
        next: Next,
        extent: Option<(u64, u64)>,
    ) {
        let me = plan.records.len();
        // The path past the parent's: the census joins them again only for the places it
        // keeps.
        plan.paths.push_str(path.get(parent_path..).unwrap_or(path));
        let (shape, texts) = (&d.parsed.shape, d.texts);
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
        // span covers them: a section record's undescribed tail is the section's. A lone
        // element's next one is where an earlier file's stride says: how far the uncovered
        // bytes reach is noted for the census to decide.
        let mut reach = 0;
        match next {
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

        let mut n = 0;
        for c in leaves() {
            let Some(span) = texts.span(c) else { continue };
            let name = texts.name(c);
            let k = &mut self.kinds[kind as usize];
            // A kind's fields come in the same order record after record: the field at this
            // place last time is checked first, by its name, before any hashing.
            let guess =
                k.seq.get(n).copied().filter(|&id| self.field_names.get(id as usize).is_some_and(|s| s == name));
            let id = match guess.or_else(|| k.names.get(name).copied()) {
                Some(id) => id,
                None => {
                    let id = self.field_names.len() as u32;
                    self.field_names.push(name.to_string());
                    k.names.insert(name.to_string(), id);
                    let (ty, width, confidence, indexed) =
                        (span.ty.to_string(), c.end - c.start, span.confidence, name.ends_with(']'));
                    plan.defs.push(Def::Field { name: name.to_string(), ty, width, confidence, indexed });
                    id
                }
            };
            match k.seq.get_mut(n) {
                Some(x) => *x = id,
                None => k.seq.push(id),
            }
            n += 1;
            plan.push(id, &span.value, is_flags(&span.ty), c.start);
        }

        // Indexed children by folded name, in the order they first appear; and the group
        // children, each a record of its own kind walked after this one (one slot look-up a
        // child serves both).
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        let g0 = self.groups.len();
        for (k, c) in children.iter().map(|&k| (k, shape.node(k))) {
            let group = c.has_kids() && c.region().is_none();
            let name = texts.name(c);
            if !group && !name.ends_with(']') {
                continue;
            }
            let (slot, indexed) = self.slot(kind, name, plan);
            if indexed {
                match counts.iter_mut().find(|x| x.0 == slot) {
                    Some(x) => x.1 += 1,
                    None => counts.push((slot, 1, c.start)),
                }
            }
            if group {
                let ckind = match self.kinds[kind as usize].slots[slot].kind {
                    Some(ck) => ck,
                    None => {
                        let k = &self.kinds[kind as usize];
                        let cpath = join(&k.path, &k.slots[slot].folded);
                        let ck = self.kind(d.format, &cpath, plan);
                        self.kinds[kind as usize].slots[slot].kind = Some(ck);
                        ck
                    }
                };
                self.groups.push(Group { node: k, kind: ckind, indexed, prev: None, after: None });
            }
        }
        for &(slot, n, at) in &counts {
            let slot = self.kinds[kind as usize].slots[slot].id;
            plan.nums.push(NumOp { slot, region: false, n, stride: 0, at });
        }
        self.counts = counts;
        for c in nodes() {
            let Some(r) = c.region().and_then(|i| d.parsed.decode.fields.regions.get(i as usize)) else { continue };
            let (slot, _) = self.slot(kind, texts.name(c), plan);
            let slot = self.kinds[kind as usize].slots[slot].id;
            plan.nums.push(NumOp { slot, region: true, n: r.count, stride: r.stride, at: r.start });
        }

        let h0 = plan.holes.len() as u32;
        let (mut h1, mut e1, mut u1) = (h0, h0, h0);
        if hi > lo {
            let end = hi.min(lo.saturating_add(MAX_RECORD_BYTES));
            let subrecords = || nodes().filter(|c| c.has_kids() && c.region().is_none());
            // Most records are tiled by their fields and sub-records (children come sorted by
            // start): then no byte is unexplained and the spans need not be asked.
            let mut tiled = lo;
            for c in nodes().filter(|c| c.region().is_none()) {
                if c.start > tiled {
                    break;
                }
                tiled = tiled.max(c.end);
            }
            let mut holes = std::mem::take(&mut self.holes);
            holes.clear();
            if tiled < end {
                d.cover.holes_into(lo, end, &mut holes);
                subrecords().for_each(|c| subtract(&mut holes, (c.start, c.end)));
            }
            plan.holes.extend_from_slice(&holes);
            h1 = plan.holes.len() as u32;
            if reach > hi {
                holes.clear();
                holes.push((hi, reach));
                subrecords().for_each(|c| subtract(&mut holes, (c.start, c.end)));
                plan.holes.extend_from_slice(&holes);
            }
            e1 = plan.holes.len() as u32;
            self.holes = holes;
            for c in leaves().filter(|c| texts.span(c).is_some_and(|s| s.confidence == Confidence::Unknown)) {
                plan.holes.push((c.start, c.end.min(end)));
            }
            u1 = plan.holes.len() as u32;
        }
        let ends = Ends {
            path: plan.paths.len() as u32,
            fields: plan.fields.len() as u32,
            nums: plan.nums.len() as u32,
            holes: h1,
            ext: e1,
            unknown: u1,
        };
        plan.records.push(Rec { kind, parent, ends, lo, hi, reach });

        // Where the elements of the same array before and after each start: mostly the
        // neighbours, so the searches stop at once.
        let g1 = self.groups.len();
        for k in g0..g1 {
            let (kd, start) = (self.groups[k].kind, shape.node(self.groups[k].node).start);
            if let Some(j) = (g0..k).rev().find(|&j| self.groups[j].kind == kd) {
                self.groups[k].prev = Some(shape.node(self.groups[j].node).start);
                self.groups[j].after = Some(start);
            }
        }
        for k in g0..g1 {
            let g = self.groups[k];
            let c = shape.node(g.node);
            // The last element takes the stride of the one before it, a lone one the stride
            // last seen for its kind: in this file if it had one, else the census's.
            let next = if !g.indexed {
                Next::None
            } else {
                let file = self.file;
                let pk = &mut self.kinds[g.kind as usize];
                let here = (pk.stride.0 == file).then_some(pk.stride.1);
                let stride = g.prev.map(|b| c.start.saturating_sub(b)).or(here);
                if let Some(a) = g.after {
                    if pk.stride.0 != file {
                        self.strided.push(g.kind);
                    }
                    pk.stride = (file, a.saturating_sub(c.start));
                }
                match (g.after, stride) {
                    (Some(a), _) => Next::At(a),
                    (None, Some(s)) => Next::At(c.start.saturating_add(s)),
                    (None, None) => Next::Borrowed,
                }
            };
            self.record(
                d,
                plan,
                g.kind,
                texts.path(c),
                shape.kids(c),
                (me as u32, path.len()),
                next,
                Some((c.start, c.end)),
            );
        }
        self.groups.truncate(g0);
    }
}
