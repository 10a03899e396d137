//! The census: what every field, count, size and unexplained byte holds across a set of
//! files of one format. Files are added one at a time (`add` takes a decoded file, which the
//! caller then drops), so memory depends on the number of distinct entries and values, never
//! on the number or size of files. See docs/census.md.
//!
//! Each file goes through two steps. *Planning* (`walk`) reads the decoded file's tree and
//! writes a `Plan`: its records in walk order, and for each the values to count and the byte
//! ranges no field explains, with names as the planner's own small ids. *Counting* (`apply`)
//! adds a plan to the entries, in file order. They are split so that planning, which needs the
//! whole decoded file, runs on the thread that decoded it, and only the much smaller plan goes
//! to the one thread that counts (`parallel`): the report is the same on any number of threads.

pub mod accumulate;
mod apply;
pub mod cover;
pub mod fold;
pub mod handover;
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;
pub mod plan;
pub mod relations;
mod replay;
pub use replay::ReplayHits;
pub mod report;
pub mod walk;

use crate::formats::Format;
use crate::model::Decode;
use crate::shape::Shape;
use accumulate::{Entry, EntryKind};
use plan::Plan;
use relations::{EntryValue, Relations};
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
    /// uncovered (`plan::PlanRecord::reach`).
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
pub struct CensusFile {
    pub name: String,
    pub format: Format,
    pub bytes: Vec<u8>,
    pub decode: Decode,
    pub shape: Shape,
    /// The bytes the fixed spans cover (`cover::merge_spans`).
    pub cover: Vec<(u64, u64)>,
}

impl CensusFile {
    /// Detects the format and decodes what a census reads (`formats::decode_fields`).
    pub fn new(name: &str, bytes: Vec<u8>) -> CensusFile {
        let format = crate::formats::detect(name, &bytes);
        let decode = crate::formats::decode_fields(format, name, &bytes);
        CensusFile::from_decode(name, format, bytes, decode)
    }

    /// A file decoded some other way (a test's own decoder, the fuzz target's).
    pub fn from_decode(name: &str, format: Format, bytes: Vec<u8>, decode: Decode) -> CensusFile {
        let f = &decode.fields;
        let shape = Shape::new(&f.spans, &f.regions, &f.records);
        let cover = cover::merge_spans(&f.spans);
        CensusFile { name: name.to_string(), format, bytes, decode, shape, cover }
    }
}

/// Finds an entry by its key, `format|kind|path|type`.
#[derive(Debug, Default)]
pub(crate) struct EntryIndex {
    by_key: FxMap<String, usize>,
    /// Reused for keys, so that a look-up that finds its entry allocates nothing.
    key: String,
}

/// A record kind as the census knows it: its id (in `Kinds`) and its folded path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecordKind<'a> {
    pub id: usize,
    pub path: &'a str,
}

/// What names an entry.
pub(crate) struct NewEntry<'a> {
    pub format: &'static str,
    pub kind: EntryKind,
    /// The folded path, or for bytes the record kind and offset (`header+0x0c`).
    pub path: String,
    pub record: RecordKind<'a>,
    pub ty: &'a str,
}

impl EntryIndex {
    /// The entry `new` names in `entries`, made on first use.
    pub(crate) fn intern(&mut self, entries: &mut Vec<Entry>, new: NewEntry) -> usize {
        key_into(&mut self.key, &[new.format, "|", new.kind.name(), "|", &new.path, "|", new.ty]);
        if let Some(&i) = self.by_key.get(self.key.as_str()) {
            return i;
        }
        let mut e = Entry::new(new.kind, new.path, new.record.path.to_string(), new.ty.to_string());
        e.format = new.format;
        e.kind_id = new.record.id;
        entries.push(e);
        self.by_key.insert(self.key.clone(), entries.len() - 1);
        entries.len() - 1
    }
}

/// The record kinds met so far, each with what the census keeps of it.
#[derive(Debug, Default)]
pub(crate) struct Kinds {
    /// `format|path` -> index in `caches`.
    ids: FxMap<String, usize>,
    pub caches: Vec<KindCache>,
    /// Reused for keys.
    key: String,
}

impl Kinds {
    /// The id of record kind `path` of a format, made on first use.
    pub(crate) fn id(&mut self, format: &str, path: &str) -> usize {
        key_into(&mut self.key, &[format, "|", path]);
        if let Some(&i) = self.ids.get(self.key.as_str()) {
            return i;
        }
        self.caches.push(KindCache { kind: path.to_string(), ..KindCache::default() });
        self.ids.insert(self.key.clone(), self.caches.len() - 1);
        self.caches.len() - 1
    }
}

/// How many records of a kind the file being related has (`file` stamps the count).
#[derive(Debug, Clone, Copy)]
struct KindRecords {
    file: u32,
    records: u32,
}

/// An entry's values in the file being related (`file` stamps them): the first, how many
/// records hold one, and whether they all equal the first.
#[derive(Debug, Clone, Copy)]
struct EntryInFile {
    file: u32,
    /// The entry's record kind.
    kind: u32,
    first: f64,
    records: u32,
    uniform: bool,
}

/// Lists `relate` fills for each file, kept from file to file so that it allocates nothing
/// once they have grown. The per-kind and per-entry lists are indexed by id and stamped with
/// the file, so they need no clearing.
#[derive(Debug, Default)]
struct RelateLists {
    per_kind: Vec<KindRecords>,
    per_entry: Vec<EntryInFile>,
    /// The entries with a value in the file.
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
    entry_index: EntryIndex,
    relations: Relations,
    kinds: Kinds,
    relate_lists: RelateLists,
    count_lists: apply::CountLists,
    /// What `add` plans with (planner number 0), and the plan it refills.
    planner: Planner,
    plan: Plan,
    /// Each planner's ids as resolved to entries, by the planner's number.
    planner_ids: Vec<apply::PlannerIds>,
}

impl Census {
    pub fn new() -> Census {
        Census::default()
    }

    /// Decodes a file, counts it and drops it. Returns its format and error count.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> (Format, usize) {
        let file = CensusFile::new(name, bytes);
        self.add(&file);
        (file.format, file.decode.errors.len())
    }

    /// Counts one decoded file.
    pub fn add(&mut self, file: &CensusFile) {
        // `apply` borrows the whole census, so the plan it reads is lent out of it meanwhile.
        let mut plan = std::mem::take(&mut self.plan);
        self.planner.plan(file, &mut plan);
        self.apply(&plan, &file.bytes, 0);
        self.plan = plan;
    }

    /// Feeds the records just counted (`count_lists`) to the relations: each numeric field
    /// against the values of its record, of its enclosing records, and the file-wide values:
    /// any value that is the same in every record of its kind in this file (all of a
    /// singleton record's values; a LOD record size when every LOD of the file has that size).
    fn relate(&mut self) {
        let stamp = self.files.len() as u32;
        let RelateLists { per_kind, per_entry, seen, file_scope, live, chain, scope } = &mut self.relate_lists;
        let (records, values) = (&self.count_lists.records, &self.count_lists.values);
        let (entries, relations) = (&self.entries, &mut self.relations);
        per_kind.resize(self.kinds.caches.len(), KindRecords { file: u32::MAX, records: 0 });
        for r in records {
            let k = &mut per_kind[r.kind];
            *k = KindRecords { file: stamp, records: if k.file == stamp { k.records + 1 } else { 1 } };
        }
        let unseen = EntryInFile { file: u32::MAX, kind: 0, first: 0.0, records: 0, uniform: false };
        per_entry.resize(entries.len(), unseen);
        seen.clear();
        // An entry's values are all in records of its kind.
        for r in records {
            for v in &values[r.values.clone()] {
                let e = &mut per_entry[v.entry];
                if e.file != stamp {
                    *e = EntryInFile { file: stamp, kind: r.kind as u32, first: v.value, records: 0, uniform: true };
                    seen.push(v.entry);
                }
                e.records += 1;
                e.uniform &= e.first == v.value;
            }
        }
        file_scope.clear();
        for &id in seen.iter() {
            let e = per_entry[id];
            let k = per_kind[e.kind as usize];
            if e.uniform && k.file == stamp && k.records == e.records {
                file_scope.put(id, e.first);
            }
        }
        // The values of a record and its enclosing ones, the nearest winning: records come
        // each after its parent, so a stack with an undo list keeps them. Only records with a
        // field still worth observing, and those enclosing them, take part.
        let observed = |v: &EntryValue| v.field;
        live.clear();
        live.extend(
            records.iter().map(|r| values[r.values.clone()].iter().any(|v| observed(v) && relations.wants(v.entry))),
        );
        for n in (0..records.len()).rev() {
            if let (true, Some(p)) = (live[n], records[n].parent) {
                live[p] = true;
            }
        }
        chain.grow(entries.len());
        for (n, record) in records.iter().enumerate() {
            if !live[n] {
                continue;
            }
            let own = &values[record.values.clone()];
            chain.enter(n, record.parent, own);
            // A field seen before only narrows its candidates, each looked up in the chain,
            // then in the file-wide values. Only a field's first record needs its whole scope.
            let lookup = |b: usize| chain.get(b).or_else(|| file_scope.get(b));
            let mut first_seen = false;
            for v in own {
                if observed(v) && relations.wants(v.entry) && !relations.narrow(v.entry, v.value, lookup) {
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
                values[records[k].values.clone()].iter().for_each(|v| scope.put(v.entry, v.value));
                p = records[k].parent;
            }
            for v in own {
                if observed(v) && !relations.seen(v.entry) {
                    relations.observe(v.entry, v.value, relations::Layered { top: scope, base: file_scope });
                }
            }
        }
        chain.leave_all();
    }
}
