//! Bytes no field explains, compared by the record that holds them and their offset in it:
//! a record that moved (a longer name before it) is still compared with itself.

use super::records::Records;
use super::value::hex;
use super::{Ctx, Difference, Kind, Side};
use crate::census::cover::merge_spans;
use crate::document::Document;
use std::collections::BTreeMap;

/// How a record is named in the paths of its unexplained bytes when it is the file itself.
const FILE: &str = "(file)";

/// The bytes neither a fixed span nor an array covers, as sorted disjoint ranges.
fn holes(doc: &Document) -> Vec<(u64, u64)> {
    let mut covered = merge_spans(doc.spans.fixed());
    covered.extend(doc.spans.regions().iter().map(|r| (r.start, r.end())));
    covered.sort_by_key(|c| c.0);
    let mut out = Vec::new();
    let mut pos = 0;
    for (s, e) in covered {
        if s > pos {
            out.push((pos, s));
        }
        pos = pos.max(e);
    }
    let len = doc.bytes.len() as u64;
    if pos < len {
        out.push((pos, len));
    }
    out
}

/// Where unexplained bytes are counted from: a record's start, or, outside every record,
/// the end of the node before them (so padding after a record that moved still faces the
/// padding after it on the other side).
#[derive(Debug, Clone, Copy)]
struct Anchor {
    base: u64,
    /// Where the bytes counted from `base` end on this side (the record's end).
    end: u64,
}

/// The holes of one side, split by the records holding them, as anchor-relative ranges by
/// anchor name (`lod[0].section[1]`, `(after pool)`, `(file)`).
fn by_record(doc: &Document, recs: &Records) -> BTreeMap<String, (Anchor, Vec<(u64, u64)>)> {
    let mut into: BTreeMap<String, (Anchor, Vec<(u64, u64)>)> = BTreeMap::new();
    let len = doc.bytes.len() as u64;
    for (s, e) in holes(doc) {
        let mut pos = s;
        while pos < e {
            let (rec, end) = recs.holding(pos);
            let end = end.min(e).max(pos + 1);
            let (name, anchor) = match (rec, recs.before(pos)) {
                (Some(r), _) => (r.path.to_string(), Anchor { base: r.start, end: r.end }),
                (None, Some(p)) => (format!("(after {})", p.path), Anchor { base: p.end, end: len }),
                (None, None) => (FILE.to_string(), Anchor { base: 0, end: len }),
            };
            let entry = into.entry(name).or_insert((anchor, Vec::new()));
            entry.1.push((pos - entry.0.base, end - entry.0.base));
            pos = end;
        }
    }
    into
}

/// The parts of two sorted disjoint range lists that both cover.
fn intersect(x: &[(u64, u64)], y: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < x.len() && j < y.len() {
        let (s, e) = (x[i].0.max(y[j].0), x[i].1.min(y[j].1));
        if s < e {
            out.push((s, e));
        }
        if x[i].1 < y[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Bytes no field explains on either side, at the same place of the same record, that
/// differ. Bytes a field explains on one side are that field's (compared by path).
pub(super) fn compare(ctx: &Ctx, out: &mut Vec<Difference>) {
    let (ha, hb) = (by_record(ctx.a, &ctx.ra), by_record(ctx.b, &ctx.rb));
    for (name, (aa, ra)) in &ha {
        let Some((ab, rb)) = hb.get(name) else { continue };
        for (s, e) in intersect(ra, rb) {
            runs(ctx, name, (*aa, *ab), (s, e), out);
        }
    }
}

/// The runs of differing bytes in anchor-relative `[s, e)`.
fn runs(ctx: &Ctx, name: &str, (aa, ab): (Anchor, Anchor), (s, e): (u64, u64), out: &mut Vec<Difference>) {
    fn slice(doc: &Document, a: Anchor, (s, e): (u64, u64)) -> &[u8] {
        let (from, to) = ((a.base + s).min(a.end), (a.base + e).min(a.end));
        doc.bytes.get(from as usize..to as usize).unwrap_or_default()
    }
    let (pa, pb) = (slice(ctx.a, aa, (s, e)), slice(ctx.b, ab, (s, e)));
    let n = pa.len().min(pb.len());
    let mut k = 0;
    while k < n {
        if pa[k] == pb[k] {
            k += 1;
            continue;
        }
        let run = pa[k..n].iter().zip(&pb[k..n]).take_while(|(p, q)| p != q).count();
        let side = |base: u64, b: &[u8]| Side { offset: Some(base + s + k as u64), len: run as u64, value: hex(b, 16) };
        out.push(Difference {
            path: format!("{name}+0x{:x}", s + k as u64),
            kind: Kind::Unexplained,
            ty: "bytes".into(),
            confidence: None,
            a: Some(side(aa.base, &pa[k..k + run])),
            b: Some(side(ab.base, &pb[k..k + run])),
            delta: Vec::new(),
            changed: None,
            note: String::new(),
        });
        k += run;
    }
}
