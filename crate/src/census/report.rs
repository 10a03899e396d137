//! The census as data: entries with their values most frequent first, relations, and the
//! lookup by record kind and offset that annotations will use.

use super::accumulate::{Entry, EntryKind};
use super::walk::record_name;
use super::Census;
use crate::span::Confidence;
use serde::Serialize;
use std::collections::BTreeMap;

/// Values listed per entry; the rest are summarized in `tail`.
pub const REPORT_VALUES: usize = 1000;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub files: u64,
    pub bytes: u64,
    pub formats: BTreeMap<&'static str, u64>,
    pub files_with_errors: u64,
    pub skipped: u64,
    pub entries: Vec<EntryReport>,
    pub relations: Vec<Relation>,
}

/// A value as shown: the decoder's text for fields, a number for what the census counts.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Shown {
    Number(u64),
    Text(String),
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Shown::Number(n) => write!(f, "{n}"),
            Shown::Text(t) => f.write_str(t),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PlaceReport {
    pub file: String,
    /// Unfolded record path, e.g. `lod[1].section[3]`; empty for the file itself.
    pub record: String,
    pub offset: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ValueReport {
    pub value: Shown,
    pub count: u64,
    pub files: u64,
    /// The first places this value was seen (at most `accumulate::EXAMPLES`).
    pub at: Vec<PlaceReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Tail {
    /// Distinct values not listed: those kept but past the listed ones, plus at least one
    /// more when values arrived after the distinct-value cap (`capped`).
    pub values: u64,
    pub records: u64,
    pub capped: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct EntryReport {
    pub id: usize,
    pub format: &'static str,
    pub kind: &'static str,
    pub path: String,
    /// Folded record kind; `(file)` for the file itself.
    pub record: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offset_varies: bool,
    pub width: u64,
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    pub files: u64,
    pub records: u64,
    /// Distinct values kept (exact unless `tail.capped`).
    pub distinct: u64,
    pub constant: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    pub values: Vec<ValueReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tail: Option<Tail>,
    /// What this field always equals (see `relations`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub equals: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Relation {
    pub path: String,
    pub record: String,
    /// What `path` always equals, named as in `EntryReport::equals`.
    pub equals: String,
    pub other_kind: &'static str,
    /// Records in which it held (every record that has the field).
    pub records: u64,
}

/// Names an entry as the other side of a relation.
fn describe(e: &Entry) -> String {
    match e.kind {
        EntryKind::Field => e.path.clone(),
        EntryKind::Count => format!("count of {}", e.path),
        EntryKind::Size => format!("size of {}", e.path),
        EntryKind::RegionCount => format!("element count of {}", e.path),
        EntryKind::RegionStride => format!("stride of {}", e.path),
        EntryKind::Uncovered | EntryKind::Unknown => format!("{} ({})", e.path, e.ty),
    }
}

impl Census {
    fn relations_list(&self) -> Vec<(usize, usize)> {
        let pairs = self.relations.pairs();
        pairs
            .iter()
            .copied()
            .filter(|&(a, b)| {
                let (ea, eb) = (&self.entries[a], &self.entries[b]);
                // A constant field equals every other constant: that is constancy, not a relation.
                if ea.constant() || ea.values.is_empty() {
                    return false;
                }
                // Two fields equal to each other are one relation, listed once.
                !(eb.kind == EntryKind::Field && b < a && pairs.binary_search(&(b, a)).is_ok())
            })
            .collect()
    }

    fn entry_report(&self, id: usize, max_values: usize, equals: Vec<String>) -> EntryReport {
        let e = &self.entries[id];
        let sorted = e.sorted_values();
        let listed = sorted.len().min(max_values);
        let values = sorted[..listed]
            .iter()
            .map(|(v, s)| ValueReport {
                value: match (e.kind.numeric(), v.parse::<u64>()) {
                    (true, Ok(n)) => Shown::Number(n),
                    _ => Shown::Text(v.to_string()),
                },
                count: s.count,
                files: s.files,
                at: s
                    .places
                    .iter()
                    .map(|p| PlaceReport {
                        file: self.files.get(p.file as usize).cloned().unwrap_or_default(),
                        record: p.record.clone(),
                        offset: p.offset,
                    })
                    .collect(),
            })
            .collect();
        let omitted: u64 = sorted[listed..].iter().map(|(_, s)| s.count).sum();
        let capped = e.tail_records > 0;
        let tail = (listed < sorted.len() || capped).then(|| Tail {
            values: (sorted.len() - listed) as u64 + capped as u64,
            records: omitted + e.tail_records,
            capped,
        });
        let has_numbers = e.numbers() > 0;
        EntryReport {
            id,
            format: e.format,
            kind: e.kind.name(),
            path: e.path.clone(),
            record: record_name(&e.record).to_string(),
            offset: e.offset,
            offset_varies: e.offset_varies,
            width: e.width,
            ty: e.ty.clone(),
            confidence: e.confidence,
            files: e.files,
            records: e.records,
            distinct: e.values.len() as u64,
            constant: e.constant(),
            min: has_numbers.then_some(e.min),
            max: has_numbers.then_some(e.max),
            values,
            tail,
            equals,
        }
    }

    /// The whole census, entries ordered by format, record kind, then offset.
    pub fn report(&self, max_values: usize) -> Report {
        let rels = self.relations_list();
        let mut equals: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for &(a, b) in &rels {
            equals.entry(a).or_default().push(describe(&self.entries[b]));
        }
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&x, &y| {
            let (a, b) = (&self.entries[x], &self.entries[y]);
            (a.format, &a.record, a.offset.is_none(), a.offset, a.kind, &a.path).cmp(&(
                b.format,
                &b.record,
                b.offset.is_none(),
                b.offset,
                b.kind,
                &b.path,
            ))
        });
        let entries = order
            .into_iter()
            .map(|i| self.entry_report(i, max_values, equals.remove(&i).unwrap_or_default()))
            .collect();
        let relations = rels
            .iter()
            .map(|&(a, b)| {
                let (ea, eb) = (&self.entries[a], &self.entries[b]);
                Relation {
                    path: ea.path.clone(),
                    record: record_name(&ea.record).to_string(),
                    equals: describe(eb),
                    other_kind: eb.kind.name(),
                    records: ea.records,
                }
            })
            .collect();
        Report {
            files: self.files.len() as u64,
            bytes: self.bytes,
            formats: self.formats.clone(),
            files_with_errors: self.files_with_errors,
            skipped: self.skipped,
            entries,
            relations,
        }
    }

    /// Entries of a record kind (folded, `(file)` for the file) whose bytes hold `offset`
    /// inside the record: what an annotation anchored at (record kind, offset) shows beside it.
    pub fn lookup(&self, record: &str, offset: u64, max_values: usize) -> Vec<EntryReport> {
        let rels = self.relations_list();
        (0..self.entries.len())
            .filter(|&i| {
                let e = &self.entries[i];
                record_name(&e.record) == record
                    && !e.offset_varies
                    && e.offset.is_some_and(|o| o <= offset && offset < o + e.width.max(1))
            })
            .map(|i| {
                let eq = rels.iter().filter(|r| r.0 == i).map(|r| describe(&self.entries[r.1])).collect();
                self.entry_report(i, max_values, eq)
            })
            .collect()
    }
}
