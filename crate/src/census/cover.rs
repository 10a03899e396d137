//! Which bytes of a file its spans and array regions cover, and so which no field explains.

use crate::laid;
use crate::span::{Region, Span, Value};

/// The bytes fixed spans cover, as merged, sorted, disjoint intervals. Made where the file is
/// decoded (`CensusFile`): the counting thread then reads this short list, not every span again.
pub fn merge_spans(spans: &[Span]) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
    for s in spans {
        match s.value {
            // A placeholder covers its record less the bytes no field of it describes.
            Value::Laid(l) => laid::covered(l, s.start, s.end(), &mut all),
            _ => all.push((s.start, s.end())),
        }
    }
    // Decoders emit mostly in offset order: a run-adaptive sort, by start only (merging
    // takes the larger end whatever the order of equal starts).
    all.sort_by_key(|iv| iv.0);
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// Which bytes some span or region element covers.
pub struct Cover<'a> {
    /// Fixed spans as `merge_spans` gives them.
    merged: &'a [(u64, u64)],
    regions: &'a [Region],
}

impl<'a> Cover<'a> {
    pub fn new(merged: &'a [(u64, u64)], regions: &'a [Region]) -> Cover<'a> {
        Cover { merged, regions }
    }

    /// The bytes of `[s, e)` that region elements cover, as sorted disjoint intervals, into
    /// `out` (cleared first). A byte is covered when it is inside a region of some stride and
    /// its offset in its stride is inside an element (`[offset, offset + len)`).
    fn region_cover(&self, s: u64, e: u64, out: &mut Vec<(u64, u64)>) {
        out.clear();
        for r in self.regions.iter().filter(|r| r.stride > 0 && r.start < e && r.end() > s) {
            let (lo, hi) = (s.max(r.start), e.min(r.end()));
            // The elements' bytes within one stride (an offset in a stride is below it).
            let mut pattern: Vec<(u64, u64)> =
                r.elems.iter().map(|el| (el.offset, el.offset.saturating_add(el.len).min(r.stride))).collect();
            pattern.retain(|p| p.0 < p.1);
            merge(&mut pattern);
            if pattern == [(0, r.stride)] {
                out.push((lo, hi));
                continue;
            }
            let mut base = r.start + (lo - r.start) / r.stride * r.stride;
            while base < hi {
                for &(a, b) in &pattern {
                    let (x, y) = (base.saturating_add(a).max(lo), base.saturating_add(b).min(hi));
                    if x < y {
                        out.push((x, y));
                    }
                }
                base = base.saturating_add(r.stride);
            }
        }
        merge(out);
    }

    /// The sub-ranges of `[a, b)` that no span and no region element covers.
    #[cfg(test)]
    pub fn holes(&self, a: u64, b: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        self.holes_into(a, b, &mut out);
        out
    }

    /// The sub-ranges of `[a, b)` that no span and no region element covers, into `out`
    /// (cleared first): the walk reuses one list for every record.
    pub fn holes_into(&self, a: u64, b: u64, out: &mut Vec<(u64, u64)>) {
        out.clear();
        let mut pos = a;
        let first = self.merged.partition_point(|iv| iv.1 <= a);
        for &(s, e) in &self.merged[first..] {
            if s >= b {
                break;
            }
            if s > pos {
                out.push((pos, s));
            }
            pos = pos.max(e);
        }
        if pos < b {
            out.push((pos, b));
        }
        if !self.regions.iter().any(|r| r.start < b && r.end() > a) {
            return;
        }
        // Gaps that meet a region: split around its elements' bytes.
        let gaps = std::mem::take(out);
        let mut covered = Vec::new();
        for (s, e) in gaps {
            self.region_cover(s, e, &mut covered);
            let mut pos = s;
            for &(x, y) in &covered {
                if x > pos {
                    out.push((pos, x));
                }
                pos = pos.max(y);
            }
            if pos < e {
                out.push((pos, e));
            }
        }
    }
}

/// Sorts intervals and merges those that overlap or touch, in place.
fn merge(ranges: &mut Vec<(u64, u64)>) {
    ranges.sort_unstable();
    let mut n: usize = 0;
    for k in 0..ranges.len() {
        let (s, e) = ranges[k];
        match n.checked_sub(1).map(|m| &mut ranges[m]) {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => {
                ranges[n] = (s, e);
                n += 1;
            }
        }
    }
    ranges.truncate(n);
}

/// Removes `cut` from sorted disjoint `ranges`, in place.
pub(crate) fn subtract(ranges: &mut Vec<(u64, u64)>, cut: (u64, u64)) {
    let mut k = 0;
    while k < ranges.len() {
        let (s, e) = ranges[k];
        if cut.1 <= s || cut.0 >= e {
            k += 1;
            continue;
        }
        match (cut.0 > s, cut.1 < e) {
            (true, true) => {
                ranges[k] = (s, cut.0);
                ranges.insert(k + 1, (cut.1, e));
                k += 2;
            }
            (true, false) => {
                ranges[k] = (s, cut.0);
                k += 1;
            }
            (false, true) => {
                ranges[k] = (cut.1, e);
                k += 1;
            }
            (false, false) => {
                ranges.remove(k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Confidence;
    use crate::span::{Elem, Fields};

    fn fmt(_: &[u8]) -> String {
        String::new()
    }

    #[test]
    fn holes_skip_spans_and_region_elements() {
        let mut f = Fields::default();
        // Out of offset order, as decoders may emit them.
        f.add(10, 2, "c", "u16", "0", Confidence::Proven, "");
        f.add(0, 4, "a", "u32", "0", Confidence::Proven, "");
        f.add(2, 4, "b", "u32", "0", Confidence::Proven, "");
        f.add_region(Region {
            start: 16,
            stride: 4,
            count: 2,
            path: "r".into(),
            elems: vec![Elem {
                offset: 0,
                len: 2,
                name: String::new(),
                ty: "u16".into(),
                confidence: Confidence::Proven,
                note: "".into(),
                format: fmt,
            }],
        });
        let merged = merge_spans(&f.spans);
        let c = Cover::new(&merged, &f.regions);
        assert_eq!(c.holes(0, 30), vec![(6, 10), (12, 16), (18, 20), (22, 30)]);
        assert_eq!(c.holes(3, 11), vec![(6, 10)]);
        let mut r = vec![(0, 10), (20, 30)];
        subtract(&mut r, (5, 25));
        assert_eq!(r, vec![(0, 5), (25, 30)]);
        subtract(&mut r, (1, 3));
        assert_eq!(r, vec![(0, 1), (3, 5), (25, 30)]);
        subtract(&mut r, (0, 26));
        assert_eq!(r, vec![(26, 30)]);
    }

    /// Byte by byte: whether some region element covers `x`, from the definition.
    fn covered(regions: &[Region], x: u64) -> bool {
        regions.iter().any(|r| {
            x >= r.start
                && x < r.end()
                && r.stride > 0
                && r.elems
                    .iter()
                    .any(|e| (x - r.start) % r.stride >= e.offset && (x - r.start) % r.stride < e.offset + e.len)
        })
    }

    #[test]
    fn holes_in_regions_are_the_bytes_no_element_covers() {
        let elem = |offset: u64, len: u64| Elem {
            offset,
            len,
            name: String::new(),
            ty: "u8".into(),
            confidence: Confidence::Proven,
            note: "".into(),
            format: fmt,
        };
        let region = |start: u64, stride: u64, count: u64, elems: Vec<Elem>| Region {
            start,
            stride,
            count,
            path: "r".into(),
            elems,
        };
        // Elements with gaps, overlapping, past the stride, empty, tiling; a zero stride;
        // two regions side by side.
        let sets = vec![
            vec![region(5, 12, 9, vec![elem(0, 4), elem(6, 2), elem(7, 3)])],
            vec![region(0, 8, 6, vec![elem(5, 10), elem(1, 0)]), region(48, 6, 5, vec![elem(0, 6)])],
            vec![region(3, 4, 10, vec![elem(2, 2), elem(0, 2)]), region(60, 0, 4, vec![elem(0, 1)])],
            vec![region(10, 7, 3, vec![])],
        ];
        let spans = [(0u64, 2u64), (20, 23), (70, 71)];
        for regions in &sets {
            let c = Cover::new(&spans, regions);
            for (a, b) in [(0, 90), (1, 17), (6, 7), (13, 50), (49, 80), (30, 30)] {
                let mut want: Vec<(u64, u64)> = Vec::new();
                for x in a..b {
                    if covered(regions, x) || spans.iter().any(|s| s.0 <= x && x < s.1) {
                        continue;
                    }
                    match want.last_mut() {
                        Some(last) if last.1 == x => last.1 = x + 1,
                        _ => want.push((x, x + 1)),
                    }
                }
                assert_eq!(c.holes(a, b), want, "[{a}, {b}) in {regions:?}");
            }
        }
    }
}
