//! Fixed fields matched by path: a field on both sides whose bytes differ is changed; a field
//! on one side only is reported once, as the outermost record the other side lacks.

use super::records::Rec;
use super::value::delta;
use super::{lower, Ctx, Difference, Kind, Side};
use crate::fx::FxMap;
use crate::span::{Confidence, Span};

fn by_path(spans: &[Span]) -> Vec<&Span> {
    let mut v: Vec<&Span> = spans.iter().collect();
    v.sort_by(|x, y| x.path.as_str().cmp(y.path.as_str()).then(x.start.cmp(&y.start)));
    v
}

fn bytes<'a>(all: &'a [u8], s: &Span) -> &'a [u8] {
    let start = (s.start as usize).min(all.len());
    let end = (s.end() as usize).min(all.len()).max(start);
    &all[start..end]
}

pub(super) fn compare(ctx: &Ctx, only: &mut OnlyOneSide, out: &mut Vec<Difference>) {
    let (a, b) = (by_path(ctx.a.spans.fixed()), by_path(ctx.b.spans.fixed()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let o = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.path.as_str().cmp(y.path.as_str()),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match o {
            std::cmp::Ordering::Equal => {
                changed(ctx, a[i], b[j], out);
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                only.add(ctx, &Item::of(a[i], &ctx.a.bytes), true, out);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                only.add(ctx, &Item::of(b[j], &ctx.b.bytes), false, out);
                j += 1;
            }
        }
    }
}

fn changed(ctx: &Ctx, x: &Span, y: &Span, out: &mut Vec<Difference>) {
    let (bx, by) = (bytes(&ctx.a.bytes, x), bytes(&ctx.b.bytes, y));
    if bx == by && x.ty == y.ty {
        return;
    }
    let (vx, vy) = (x.text(&ctx.a.bytes), y.text(&ctx.b.bytes));
    out.push(Difference {
        path: x.path.to_string(),
        kind: Kind::Changed,
        ty: both_types(&x.ty, &y.ty),
        confidence: Some(lower(x.confidence, y.confidence)),
        a: Some(Side { offset: Some(x.start), len: x.len, value: vx.to_string() }),
        b: Some(Side { offset: Some(y.start), len: y.len, value: vy.to_string() }),
        delta: delta(&x.ty, &vx, &vy),
        changed: None,
        note: String::new(),
    });
}

/// One type, or both when they differ (in the same order whichever file is A).
pub(super) fn both_types(x: &str, y: &str) -> String {
    match x.cmp(y) {
        std::cmp::Ordering::Equal => x.to_string(),
        std::cmp::Ordering::Less => format!("{x} / {y}"),
        std::cmp::Ordering::Greater => format!("{y} / {x}"),
    }
}

/// A field or array present on one side, as `OnlyOneSide` reads it.
pub(super) struct Item<'a> {
    pub path: &'a str,
    pub start: u64,
    pub len: u64,
    pub ty: &'a str,
    pub value: String,
    pub confidence: Confidence,
}

impl<'a> Item<'a> {
    /// The item of span `s` of `file`.
    fn of(s: &'a Span, file: &[u8]) -> Item<'a> {
        Item {
            path: &s.path,
            start: s.start,
            len: s.len,
            ty: &s.ty,
            value: s.text(file).into(),
            confidence: s.confidence,
        }
    }
}

/// Fields present on one side only, folded into the record the other side lacks: the spans
/// come in path order, so a record's fields come together.
#[derive(Default)]
pub(super) struct OnlyOneSide {
    /// The records reported, by path and side (A or not): where their difference is in `out`.
    seen: FxMap<(String, bool), usize>,
}

impl OnlyOneSide {
    pub fn add(&mut self, ctx: &Ctx, s: &Item, in_a: bool, out: &mut Vec<Difference>) {
        let (mine, other) = if in_a { (&ctx.ra, &ctx.rb) } else { (&ctx.rb, &ctx.ra) };
        let Some(rec) = mine.missing_in(s.path, other) else {
            // The other side has this path as something else (a record, an array, a field).
            if let Some(o) = other.get(s.path) {
                out.push(not_a_field(s, o, in_a));
            }
            return;
        };
        if let Some(&k) = self.seen.get(&(rec.path.to_string(), in_a)) {
            if let Some(c) = out[k].changed.as_mut() {
                *c += 1;
            }
            return;
        }
        let leaf = rec.path == s.path;
        let side = Side {
            offset: Some(rec.start),
            len: rec.end - rec.start,
            value: if leaf { s.value.to_string() } else { String::new() },
        };
        let (a, b) = if in_a { (Some(side), None) } else { (None, Some(side)) };
        out.push(Difference {
            path: rec.path.to_string(),
            kind: if in_a { Kind::OnlyA } else { Kind::OnlyB },
            ty: if leaf { s.ty.to_string() } else { "record".into() },
            confidence: Some(s.confidence),
            a,
            b,
            delta: Vec::new(),
            changed: if leaf { None } else { Some(1) },
            note: String::new(),
        });
        self.seen.insert((rec.path.to_string(), in_a), out.len() - 1);
    }
}

/// A field or array on one side whose path is something else on the other.
fn not_a_field(s: &Item, o: Rec, in_a: bool) -> Difference {
    let mine = Side { offset: Some(s.start), len: s.len, value: s.value.clone() };
    let what = if o.group { "(record)" } else { "(field or array)" };
    let theirs = Side { offset: Some(o.start), len: o.end - o.start, value: what.into() };
    let (a, b) = if in_a { (mine, theirs) } else { (theirs, mine) };
    Difference {
        path: s.path.to_string(),
        kind: Kind::Changed,
        ty: s.ty.to_string(),
        confidence: Some(s.confidence),
        a: Some(a),
        b: Some(b),
        delta: Vec::new(),
        changed: None,
        note: String::new(),
    }
}
