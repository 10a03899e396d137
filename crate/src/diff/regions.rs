//! Arrays (regions) matched by path and compared element by element in place: equal runs of
//! elements are skipped a block at a time, and only the first changed elements are listed.

use super::fields::{both_types, Item, OnlyOneSide};
use super::value::{delta, hex};
use super::{lower, Ctx, Difference, Kind, Side};
use crate::span::{Elem, Region};

/// Elements compared a block at a time before a block that differs is looked into.
const BLOCK: u64 = 256;

pub(super) fn compare(ctx: &Ctx, only: &mut OnlyOneSide, out: &mut Vec<Difference>) {
    let (ra, rb) = (ctx.a.spans.regions(), ctx.b.spans.regions());
    for x in ra {
        match rb.iter().find(|y| y.path == x.path) {
            Some(y) => Pair::new(ctx, x, y).compare(out),
            None => only.add(ctx, &item(x), true, out),
        }
    }
    for y in rb.iter().filter(|y| !ra.iter().any(|x| x.path == y.path)) {
        only.add(ctx, &item(y), false, out);
    }
}

fn item(r: &Region) -> Item<'_> {
    Item {
        path: &r.path,
        start: r.start,
        len: r.end() - r.start,
        ty: "array",
        value: format!("{} elements", r.count),
        confidence: r.elems.iter().map(|e| e.confidence).max().unwrap_or(crate::span::Confidence::Unknown),
    }
}

/// Two arrays of one path and the fields their elements share by name.
struct Pair<'a> {
    ctx: &'a Ctx<'a>,
    x: &'a Region,
    y: &'a Region,
    elems: Vec<(&'a Elem, &'a Elem)>,
    /// Same stride and the same fields at the same places: elements compare as whole bytes.
    same_layout: bool,
    /// Per element offset: whether some field covers it (same layout only).
    covered: Vec<bool>,
}

impl<'a> Pair<'a> {
    fn new(ctx: &'a Ctx<'a>, x: &'a Region, y: &'a Region) -> Pair<'a> {
        let elems: Vec<_> =
            x.elems.iter().filter_map(|e| y.elems.iter().find(|f| f.name == e.name).map(|f| (e, f))).collect();
        let same_layout = x.stride == y.stride
            && elems.len() == x.elems.len()
            && elems.len() == y.elems.len()
            && elems.iter().all(|(e, f)| e.offset == f.offset && e.len == f.len);
        let mut covered = vec![false; if same_layout { x.stride.min(1 << 16) as usize } else { 0 }];
        for e in x.elems.iter().filter(|_| same_layout) {
            for k in e.offset..(e.offset + e.len).min(covered.len() as u64) {
                covered[k as usize] = true;
            }
        }
        Pair { ctx, x, y, elems, same_layout, covered }
    }

    fn element<'b>(bytes: &'b [u8], r: &Region, i: u64, off: u64, len: u64) -> &'b [u8] {
        let at = r.start + i * r.stride + off;
        usize::try_from(at).ok().and_then(|s| bytes.get(s..s.checked_add(len as usize)?)).unwrap_or(&[])
    }

    fn compare(&self, out: &mut Vec<Difference>) {
        let (x, y) = (self.x, self.y);
        let n = x.count.min(y.count);
        let summary = out.len();
        let mut changed = 0u64;
        let mut i = 0;
        while i < n {
            let m = BLOCK.min(n - i);
            if self.same_layout {
                let (ba, bb) = (&self.ctx.a.bytes, &self.ctx.b.bytes);
                let len = m * x.stride;
                if Self::element(ba, x, i, 0, len) == Self::element(bb, y, i, 0, len) {
                    i += m;
                    continue;
                }
            }
            for k in i..i + m {
                if self.element_differs(k, changed < self.ctx.opts.listed as u64, out) {
                    changed += 1;
                }
            }
            i += m;
        }
        let missing = |r: &Region| r.elems.len() > self.elems.len();
        if changed == 0 && x.count == y.count && !missing(x) && !missing(y) {
            return;
        }
        let side = |r: &Region| Side {
            offset: Some(r.start),
            len: r.end() - r.start,
            value: format!("{} × {} bytes: {}", r.count, r.stride, names(&r.elems)),
        };
        let d = Difference {
            path: x.path.clone(),
            kind: Kind::Elements,
            ty: "array".into(),
            confidence: self.elems.iter().map(|(e, f)| lower(e.confidence, f.confidence)).max(),
            a: Some(side(x)),
            b: Some(side(y)),
            delta: if x.count == y.count { Vec::new() } else { vec![y.count as f64 - x.count as f64] },
            changed: Some(changed),
            note: String::new(),
        };
        out.insert(summary, d);
    }

    /// Compares element `i`; lists its changed fields when `list`. Whether it differs.
    fn element_differs(&self, i: u64, list: bool, out: &mut Vec<Difference>) -> bool {
        let (ba, bb) = (&self.ctx.a.bytes, &self.ctx.b.bytes);
        let (x, y) = (self.x, self.y);
        let mut differs = false;
        for (e, f) in &self.elems {
            let (p, q) = (Self::element(ba, x, i, e.offset, e.len), Self::element(bb, y, i, f.offset, f.len));
            if p == q && e.ty == f.ty {
                continue;
            }
            differs = true;
            if !list {
                return true;
            }
            let (va, vb) = (value(e, p), value(f, q));
            let path =
                if e.name.is_empty() { format!("{}[{i}]", x.path) } else { format!("{}[{i}].{}", x.path, e.name) };
            out.push(Difference {
                path,
                kind: Kind::Changed,
                ty: both_types(&e.ty, &f.ty),
                confidence: Some(lower(e.confidence, f.confidence)),
                delta: delta(&e.ty, &va, &vb),
                a: Some(Side { offset: Some(x.start + i * x.stride + e.offset), len: e.len, value: va }),
                b: Some(Side { offset: Some(y.start + i * y.stride + f.offset), len: f.len, value: vb }),
                changed: None,
                note: String::new(),
            });
        }
        // Bytes of the element no field covers, where both elements are laid out alike.
        let mut k = 0;
        while k < self.covered.len() {
            if self.covered[k] {
                k += 1;
                continue;
            }
            let run = self.covered[k..].iter().take_while(|c| !**c).count();
            let (p, q) = (Self::element(ba, x, i, k as u64, run as u64), Self::element(bb, y, i, k as u64, run as u64));
            if p != q {
                differs = true;
                if !list {
                    return true;
                }
                let at = |r: &Region| Some(r.start + i * r.stride + k as u64);
                out.push(Difference {
                    path: format!("{}[{i}]+0x{k:x}", x.path),
                    kind: Kind::Unexplained,
                    ty: "bytes".into(),
                    confidence: None,
                    a: Some(Side { offset: at(x), len: run as u64, value: hex(p, 16) }),
                    b: Some(Side { offset: at(y), len: run as u64, value: hex(q, 16) }),
                    delta: Vec::new(),
                    changed: None,
                    note: String::new(),
                });
            }
            k += run;
        }
        differs
    }
}

fn value(e: &Elem, b: &[u8]) -> String {
    if b.len() as u64 == e.len {
        (e.format)(b)
    } else {
        String::new()
    }
}

fn names(elems: &[Elem]) -> String {
    elems.iter().map(|e| if e.name.is_empty() { e.ty.as_ref() } else { e.name.as_str() }).collect::<Vec<_>>().join(", ")
}
