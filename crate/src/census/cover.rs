//! Which bytes of a file its spans and array regions cover, and so which no field explains.

use crate::span::{Region, Span};

/// The bytes fixed spans cover, as merged, sorted, disjoint intervals. Made where the file is
/// decoded (`CensusFile`): the counting thread then reads this short list, not every span again.
pub fn merge_spans(spans: &[Span]) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = spans.iter().map(|s| (s.start, s.end())).collect();
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

    fn in_region(&self, x: u64) -> bool {
        self.regions.iter().any(|r| {
            x >= r.start
                && x < r.end()
                && r.stride > 0
                && r.elems.iter().any(|e| {
                    let o = (x - r.start) % r.stride;
                    o >= e.offset && o < e.offset + e.len
                })
        })
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
        for (s, e) in gaps {
            if !self.regions.iter().any(|r| r.start < e && r.end() > s) {
                out.push((s, e));
                continue;
            }
            let mut run: Option<u64> = None;
            for x in s..e {
                match (self.in_region(x), run) {
                    (false, None) => run = Some(x),
                    (true, Some(r0)) => {
                        out.push((r0, x));
                        run = None;
                    }
                    _ => {}
                }
            }
            if let Some(r0) = run {
                out.push((r0, e));
            }
        }
    }
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
}
