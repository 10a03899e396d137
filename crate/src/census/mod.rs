//! The census: what every field, count, size and unexplained byte holds across a set of
//! files of one format. Files are added one at a time (`add` takes a decoded document, which
//! the caller then drops), so memory depends on the number of distinct entries and values,
//! never on the number or size of files. Each document is walked into a `Plan` (`walk`),
//! where it was decoded, and the plan is counted (`apply`): on several threads only the
//! plan goes from core to core. See docs/census.md.

pub mod accumulate;
mod apply;
pub mod cover;
pub mod fold;
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
pub mod plan;
pub mod relations;
pub mod report;
pub mod walk;

use crate::document::Decode;
use crate::formats::Format;
use crate::shape::Shape;
use accumulate::{Entry, EntryKind};
use plan::Plan;
use relations::Relations;
use std::collections::BTreeMap;
pub use walk::Planner;

pub use crate::fx::{Fx, FxMap};

/// What the census knows of one record kind, so that counting a record of a kind seen
/// before allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct KindCache {
    /// The kind's folded path, `lod[*].section[*]`; empty for the file itself.
    pub kind: String,
    /// Field entries by unfolded leaf name (each planner's field ids are resolved here once).
    pub names: FxMap<String, usize>,
    /// Unexplained-byte entries by record offset, entry kind (uncovered or Unknown) and
    /// width (byte or word): `byte_slot` gives the place; `NO_ENTRY` where none is yet.
    pub bytes: Vec<u32>,
    /// The record's size entry.
    pub size: Option<usize>,
    /// As an element of an array of records, the element stride last seen in the files
    /// counted so far: a lone element of a later file owns that many bytes when they are
    /// uncovered (`plan::Rec::reach`).
    pub stride: Option<u64>,
}

pub(crate) const NO_ENTRY: u32 = u32::MAX;

/// Writes a map key made of `parts` into `out` (a buffer kept for it), so that a look-up that
/// finds its key allocates nothing.
pub(crate) fn key_into(out: &mut String, parts: &[&str]) {
    out.clear();
    parts.iter().for_each(|p| out.push_str(p));
}

/// Where `KindCache::bytes` keeps the entry of (offset, Unknown or not, word or byte).
pub(crate) fn byte_slot(offset: u64, unknown: bool, word: bool) -> usize {
    (offset as usize) * 4 + (unknown as usize) * 2 + word as usize
}

pub use report::{EntryReport, Report};

/// One file as the census reads it: its decode and the shape of its tree. No `Document`
/// is made: the census needs neither the page's tree nor the span index.
pub struct Parsed {
    pub name: String,
    pub format: Format,
    pub bytes: Vec<u8>,
    pub decode: Decode,
    pub shape: Shape,
    /// The bytes the fixed spans cover (`cover::merge_spans`).
    pub cover: Vec<(u64, u64)>,
}

impl Parsed {
    /// Detects the format and decodes what a census reads (`formats::decode_fields`).
    pub fn new(name: &str, bytes: Vec<u8>) -> Parsed {
        let format = crate::formats::detect(name, &bytes);
        let decode = crate::formats::decode_fields(format, name, &bytes);
        Parsed::from_decode(name, format, bytes, decode)
    }

    /// A file decoded some other way (a test's own decoder, the fuzz target's).
    pub fn from_decode(name: &str, format: Format, bytes: Vec<u8>, decode: Decode) -> Parsed {
        let f = &decode.fields;
        let shape = Shape::new(&f.spans, &f.regions, &f.records);
        let cover = cover::merge_spans(&f.spans);
        Parsed { name: name.to_string(), format, bytes, decode, shape, cover }
    }
}

/// Lists `relate` fills for each file, kept from file to file so that it allocates nothing
/// once they have grown.
#[derive(Debug, Default)]
struct RelateBufs {
    /// Per record kind: (file stamp, records of the kind in the file).
    per_kind: Vec<(u32, u32)>,
    /// Per entry: (file stamp, its value, records holding it, the same value in all of them).
    uniform: Vec<(u32, f64, u32, bool)>,
    /// The entries seen in the file.
    seen: Vec<usize>,
    /// The file-wide values: the same in every record of their kind in the file.
    file_scope: relations::Scope,
    /// Which records take part (they or a record inside them have a field worth observing).
    live: Vec<bool>,
    /// The values in scope along the record being related.
    chain: relations::Chain,
    /// A field's first record's whole scope.
    scope: relations::Scope,
}

#[derive(Debug, Default)]
pub struct Census {
    /// File names, by the index places refer to.
    pub files: Vec<String>,
    pub formats: BTreeMap<&'static str, u64>,
    /// Files with at least one decode error (their decoded part is still counted).
    pub files_with_errors: u64,
    /// Files of no known format, not counted.
    pub skipped: u64,
    pub bytes: u64,
    pub entries: Vec<Entry>,
    index: FxMap<String, usize>,
    relations: Relations,
    /// Record kind (`format|kind`) -> its cache in `caches`.
    kind_ids: FxMap<String, usize>,
    /// Boxed, so that the walk takes a kind's cache out and puts it back by its pointer;
    /// `None` only while its kind's record is being walked.
    caches: Vec<Option<Box<KindCache>>>,
    /// Reused for map keys, so that a lookup that finds its entry allocates nothing.
    scratch: String,
    /// Reused by `relate` from file to file.
    relate_bufs: RelateBufs,
    /// Reused by every count.
    bufs: apply::Bufs,
    /// What `add` plans with (planner 0), and the plan it reuses.
    planner: Planner,
    plan: Plan,
    /// Each planner's names, by the planner's number.
    names: Vec<apply::Names>,
}

impl Census {
    pub fn new() -> Census {
        Census::default()
    }

    /// The entry for (format, kind, path, type), created on first use.
    fn intern(&mut self, format: &'static str, kind: EntryKind, path: String, record: &str, ty: &str) -> usize {
        key_into(&mut self.scratch, &[format, "|", kind.name(), "|", &path, "|", ty]);
        if let Some(&i) = self.index.get(self.scratch.as_str()) {
            return i;
        }
        let key = self.scratch.clone();
        let mut e = Entry::new(kind, path, record.to_string(), ty.to_string());
        e.format = format;
        e.kind_id = self.kind_id(format, record);
        self.entries.push(e);
        self.index.insert(key, self.entries.len() - 1);
        self.entries.len() - 1
    }

    /// The id of a record kind of a format.
    pub(crate) fn kind_id(&mut self, format: &str, kind: &str) -> usize {
        key_into(&mut self.scratch, &[format, "|", kind]);
        if let Some(&i) = self.kind_ids.get(self.scratch.as_str()) {
            return i;
        }
        let key = self.scratch.clone();
        self.caches.push(Some(Box::new(KindCache { kind: kind.to_string(), ..KindCache::default() })));
        self.kind_ids.insert(key, self.caches.len() - 1);
        self.caches.len() - 1
    }

    /// Decodes a file, counts it and drops it. Returns its format and error count.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> (Format, usize) {
        let doc = Parsed::new(name, bytes);
        self.add(&doc);
        (doc.format, doc.decode.errors.len())
    }

    /// Counts one decoded file.
    pub fn add(&mut self, doc: &Parsed) {
        let mut plan = std::mem::take(&mut self.plan);
        self.planner.plan(doc, &mut plan);
        self.apply(&plan, &doc.bytes, 0);
        self.plan = plan;
    }

    /// Feeds one document's records to the relations: each numeric field against the values
    /// of its record, of its enclosing records, and the file-wide values: any value that is
    /// the same in every record of its kind in this file (all of a singleton record's values;
    /// a LOD record size when every LOD of the file has that size).
    fn relate(&mut self, insts: &[apply::Inst], values: &[(usize, f64)]) {
        // Per file, indexed by id and stamped with the file, so nothing is allocated once
        // the lists have grown: records per kind; per entry (value, records holding it,
        // same value in all of them).
        let stamp = self.files.len() as u32;
        let RelateBufs { mut per_kind, mut uniform, mut seen, file_scope: mut base, mut live, mut chain, mut scope } =
            std::mem::take(&mut self.relate_bufs);
        per_kind.resize(self.caches.len(), (u32::MAX, 0));
        for i in insts {
            let k = &mut per_kind[i.kind];
            *k = if k.0 == stamp { (stamp, k.1 + 1) } else { (stamp, 1) };
        }
        uniform.resize(self.entries.len(), (u32::MAX, 0.0, 0, false));
        seen.clear();
        for &(id, v) in values {
            let u = &mut uniform[id];
            if u.0 != stamp {
                *u = (stamp, v, 0, true);
                seen.push(id);
            }
            u.2 += 1;
            u.3 &= u.1 == v;
        }
        base.clear();
        for &id in &seen {
            let u = uniform[id];
            let k = per_kind[self.entries[id].kind_id];
            if u.3 && k.0 == stamp && k.1 == u.2 {
                base.put(id, u.1);
            }
        }
        // The values of the record being related and of its enclosing records, the nearest
        // one's winning: records come in walk order (each after its parent), so a stack of
        // them with an undo list keeps this up to date at one put and one undo a value.
        // Only records with a field still worth observing, and the records enclosing them,
        // take part (after the first files, few fields have candidates left).
        live.clear();
        live.extend(insts.iter().map(|i| {
            values[i.values.clone()]
                .iter()
                .any(|&(a, _)| self.entries[a].kind == EntryKind::Field && self.relations.wants(a))
        }));
        for n in (0..insts.len()).rev() {
            if let (true, Some(p)) = (live[n], insts[n].parent) {
                live[p] = true;
            }
        }
        chain.slots.resize(self.entries.len(), (0, 0.0));
        for (n, inst) in insts.iter().enumerate() {
            if !live[n] {
                continue;
            }
            chain.enter(n, inst.parent, &values[inst.values.clone()]);
            // A field seen before only narrows its candidates, each looked up in the chain,
            // then in the file-wide values. Only a field's first record needs its whole scope.
            let lookup = |b: usize| chain.get(b).or_else(|| base.get(b));
            let mut first_seen = false;
            for &(a, va) in &values[inst.values.clone()] {
                if self.entries[a].kind == EntryKind::Field
                    && self.relations.wants(a)
                    && !self.relations.narrow(a, va, lookup)
                {
                    first_seen = true;
                }
            }
            if !first_seen {
                continue;
            }
            // Own and enclosing records, over the file-wide values.
            scope.clear();
            let mut p = Some(n);
            while let Some(k) = p {
                values[insts[k].values.clone()].iter().for_each(|&(id, v)| scope.put(id, v));
                p = insts[k].parent;
            }
            for &(a, va) in &values[inst.values.clone()] {
                if self.entries[a].kind == EntryKind::Field && !self.relations.seen(a) {
                    self.relations.observe(a, va, relations::Layered { top: &scope, base: &base });
                }
            }
        }
        chain.leave_all();
        self.relate_bufs = RelateBufs { per_kind, uniform, seen, file_scope: base, live, chain, scope };
    }
}
