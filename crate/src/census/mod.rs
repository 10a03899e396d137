//! The census: what every field, count, size and unexplained byte holds across a set of
//! files of one format. Files are added one at a time (`add` takes a decoded document, which
//! the caller then drops), so memory depends on the number of distinct entries and values,
//! never on the number or size of files. See docs/census.md.

pub mod accumulate;
pub mod fold;
pub mod relations;
pub mod report;
pub mod walk;

use crate::document::Document;
use crate::formats::Format;
use accumulate::{Entry, EntryKind};
use relations::Relations;
use std::collections::{BTreeMap, HashMap};
use walk::{Cover, Walk};

pub use report::{EntryReport, Report};

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
    index: HashMap<String, usize>,
    relations: Relations,
    /// Per array-of-records kind, the element stride last seen: a lone element (or the last)
    /// owns that many bytes when they are uncovered.
    strides: HashMap<String, u64>,
}

impl Census {
    pub fn new() -> Census {
        Census::default()
    }

    /// The entry for (format, kind, path, type), created on first use.
    fn intern(&mut self, format: &'static str, kind: EntryKind, path: String, record: &str, ty: &str) -> usize {
        let key = format!("{format}|{}|{path}|{ty}", kind.name());
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let mut e = Entry::new(kind, path, record.to_string(), ty.to_string());
        e.format = format;
        self.entries.push(e);
        self.index.insert(key, self.entries.len() - 1);
        self.entries.len() - 1
    }

    /// Decodes a file, counts it and drops it. Returns its format and error count.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> (Format, usize) {
        let doc = crate::open(name, bytes);
        self.add(&doc);
        (doc.format, doc.errors.len())
    }

    /// Counts one decoded document.
    pub fn add(&mut self, doc: &Document) {
        if doc.format == Format::Unknown {
            self.skipped += 1;
            return;
        }
        let file = self.files.len() as u32;
        self.files.push(doc.name.clone());
        *self.formats.entry(doc.format.name()).or_default() += 1;
        self.bytes += doc.bytes.len() as u64;
        if !doc.errors.is_empty() {
            self.files_with_errors += 1;
        }
        let mut w = Walk { doc, cover: Cover::new(&doc.spans), file, format: doc.format.name(), insts: Vec::new() };
        self.walk_record(&mut w, "", "", &doc.tree, None, None, None);
        self.relate(&w.insts);
    }

    /// Feeds one document's records to the relations: each numeric field against the values
    /// of its record, of its enclosing records, and the file-wide values: any value that is
    /// the same in every record of its kind in this file (all of a singleton record's values;
    /// a LOD record size when every LOD of the file has that size).
    fn relate(&mut self, insts: &[walk::Inst]) {
        let mut per_kind: HashMap<&str, u32> = HashMap::new();
        for i in insts {
            *per_kind.entry(i.kind.as_str()).or_default() += 1;
        }
        // entry -> (value, records holding it, same value in all of them)
        let mut uniform: HashMap<usize, (f64, u32, bool)> = HashMap::new();
        for i in insts {
            for &(id, v) in &i.values {
                let u = uniform.entry(id).or_insert((v, 0, true));
                u.1 += 1;
                u.2 &= u.0 == v;
            }
        }
        let file_scope: Vec<(usize, f64)> = uniform
            .iter()
            .filter(|(&id, u)| u.2 && per_kind.get(self.entries[id].record.as_str()) == Some(&u.1))
            .map(|(&id, u)| (id, u.0))
            .collect();
        for (n, inst) in insts.iter().enumerate() {
            let wanted = inst
                .values
                .iter()
                .any(|&(a, _)| self.entries[a].kind == EntryKind::Field && self.relations.wants(a));
            if !wanted {
                continue;
            }
            // Own and enclosing records first, so their value wins over a file-wide duplicate.
            let mut scope = Vec::with_capacity(file_scope.len() + inst.values.len() * 2);
            let mut p = Some(n);
            while let Some(k) = p {
                scope.extend_from_slice(&insts[k].values);
                p = insts[k].parent;
            }
            scope.extend_from_slice(&file_scope);
            scope.sort_by_key(|x| x.0);
            scope.dedup_by_key(|x| x.0);
            for &(a, va) in &inst.values {
                if self.entries[a].kind == EntryKind::Field && self.relations.wants(a) {
                    self.relations.observe(a, va, &scope);
                }
            }
        }
    }
}
