//! The span index against plain reference computations: its order is a stable sort by
//! (start, len), and its coverage is, per confidence level, the count of bytes of the file
//! that some span of that level covers (marked byte by byte here) plus every region element's
//! fields times the count; the bounds of a window are those of every span and region element
//! field over it, in the window's order. Checked on spans made here (overlapping, nested, tied, past the
//! end of the file), on the builders' files, and on the real samples.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::formats::{self, frostbite::guid};
use meshscope::span::{Elem, Fields, Region, Span, SpanBounds, SpanMap};
use meshscope::Confidence;

/// `spans` in the order of a sort by (start, len, place in `spans`): a stable sort by
/// (start, len), made without relying on any sort's stability.
fn reference_order(spans: &[Span]) -> Vec<Span> {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_unstable_by_key(|&i| (spans[i].start, spans[i].len, i));
    order.into_iter().map(|i| spans[i].clone()).collect()
}

/// Coverage counted byte by byte: a byte of `[0, file_len)` counts once for each level that
/// has a span over it; regions count each element field once per element.
fn reference_coverage(spans: &[Span], regions: &[Region], file_len: u64) -> [u64; 4] {
    let mut totals = [0u64; 4];
    for c in Confidence::ALL {
        let mut marked = vec![false; file_len as usize];
        for s in spans.iter().filter(|s| s.confidence == c) {
            for b in s.start..(s.start + s.len).min(file_len) {
                marked[b as usize] = true;
            }
        }
        totals[c as usize] = marked.iter().filter(|&&m| m).count() as u64;
    }
    for r in regions {
        for e in &r.elems {
            totals[e.confidence as usize] += e.len * r.count;
        }
    }
    totals
}

/// The bounds of every span and every region element's field over `[start, end)`, found by
/// looking at each one: fixed spans first, then region elements, stably sorted by (start, len).
fn reference_bounds(spans: &[Span], regions: &[Region], start: u64, end: u64) -> Vec<SpanBounds> {
    let over = |at: u64, len: u64| at < end && at + len > start;
    let mut out: Vec<SpanBounds> = spans
        .iter()
        .filter(|s| over(s.start, s.len))
        .map(|s| SpanBounds { start: s.start, len: s.len, confidence: s.confidence })
        .collect();
    for r in regions {
        for i in 0..r.count {
            for e in &r.elems {
                let at = r.start + i * r.stride + e.offset;
                if over(at, e.len) {
                    out.push(SpanBounds { start: at, len: e.len, confidence: e.confidence });
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_unstable_by_key(|&i| (out[i].start, out[i].len, i));
    order.into_iter().map(|i| out[i]).collect()
}

/// `map.bounds` of windows over a file of `file_len` bytes against the reference, and against
/// the bounds of `map.window`'s spans.
fn check_bounds(what: &str, map: &SpanMap, file_len: u64) {
    let step = (file_len / 7).max(1);
    let windows = [(0, file_len), (0, 1024), (file_len / 2, file_len / 2 + 1), (file_len / 3, file_len / 3 + 64)];
    let more = (0..file_len).step_by(step as usize).map(|a| (a, a + step / 2 + 1));
    for (start, end) in windows.into_iter().chain(more) {
        let got = map.bounds(start, end);
        let want = reference_bounds(map.fixed(), map.regions(), start, end);
        assert!(got == want, "{what}: bounds of [{start}, {end}): {} spans, want {}", got.len(), want.len());
        let shown: Vec<SpanBounds> = map
            .window(start, end, &[])
            .iter()
            .map(|s| SpanBounds { start: s.start, len: s.len, confidence: s.confidence })
            .collect();
        assert!(got == shown, "{what}: bounds of [{start}, {end}) differ from the window's spans");
        // The innermost span at the window's first byte: the first shortest of the one-byte
        // window, whole.
        let at = map.at(start, &[]);
        let want = map.window(start, start + 1, &[]).into_iter().min_by_key(|s| s.len);
        assert!(at == want, "{what}: span at {start}: {:?}, want {:?}", at.map(|s| s.path), want.map(|s| s.path));
        let innermost =
            reference_bounds(map.fixed(), map.regions(), start, start + 1).into_iter().min_by_key(|b| b.len);
        assert_eq!(at.map(|s| (s.start, s.len, s.confidence)), innermost.map(|b| (b.start, b.len, b.confidence)));
    }
}

/// Indexes `spans` and `regions` and checks order and coverage against the references, for
/// the file's length and for lengths that cut spans off, and the bounds of windows.
fn check(what: &str, spans: Vec<Span>, regions: Vec<Region>, file_len: u64) {
    let want_order = reference_order(&spans);
    let map = SpanMap::new(spans, regions.clone());
    assert!(map.fixed() == want_order.as_slice(), "{what}: order differs from a stable sort by (start, len)");
    for len in [file_len, file_len / 2, file_len / 3 + 1, 0] {
        assert_eq!(
            map.coverage(len),
            reference_coverage(map.fixed(), &regions, len),
            "{what}: coverage of the first {len} bytes"
        );
    }
    check_bounds(what, &map, file_len);
}

fn level(k: u32) -> Confidence {
    Confidence::ALL[k as usize % 4]
}

fn fmt_u8(b: &[u8]) -> String {
    b[0].to_string()
}

#[test]
fn overlapping_nested_and_tied_spans() {
    let mut f = Fields::default();
    // A record and its fields, nested; two fields tied on (start, len) with other paths.
    f.add(16, 32, "rec", "group", "", Confidence::Proven, "");
    f.add(16, 4, "rec.a", "u32", "1", Confidence::Proven, "");
    f.add(20, 8, "rec.b", "u64", "2", Confidence::Observed, "");
    f.add(16, 4, "rec.a_again", "u32", "1", Confidence::Proven, "");
    f.add(20, 8, "rec.b_as_f64", "f64", "2.0", Confidence::Inferred, "");
    // Overlapping, not nested, recorded out of order; one past the file's end.
    f.add(40, 20, "tail", "u8[20]", "", Confidence::Unknown, "");
    f.add(2, 10, "head", "u8[10]", "", Confidence::Observed, "");
    f.add(0, 6, "magic", "u8[6]", "", Confidence::Observed, "");
    f.add(0, 0, "empty", "u8[0]", "", Confidence::Proven, "");
    f.add(70, 4, "beyond", "u32", "", Confidence::Proven, "");
    let region = Region {
        start: 48,
        stride: 3,
        count: 4,
        path: "items".into(),
        elems: vec![Elem {
            offset: 1,
            len: 1,
            name: "v".into(),
            ty: "u8".into(),
            confidence: Confidence::Inferred,
            note: "".into(),
            format: fmt_u8,
        }],
    };
    let (spans, regions) = (f.spans, vec![region]);
    let map = SpanMap::new(spans.clone(), regions.clone());
    let paths: Vec<&str> = map.fixed().iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        ["empty", "magic", "head", "rec.a", "rec.a_again", "rec", "rec.b", "rec.b_as_f64", "tail", "beyond"]
    );
    // Counted by hand for a 64-byte file: proven 16..48 and nothing of 70..74; observed
    // 0..12 and 20..28; inferred 20..28 plus the region's 4 bytes; unknown 40..60.
    assert_eq!(map.coverage(64), [32, 12 + 8, 8 + 4, 20]);
    check("hand-made spans", spans, regions, 64);
}

#[test]
fn random_spans_shuffled() {
    let mut rng = sets::Rng(sets::SEED);
    for round in 0..50 {
        let mut f = Fields::default();
        let n = 1 + rng.next() % 400;
        for i in 0..n {
            // Few distinct starts and lengths, so that ties and overlaps are common.
            let start = u64::from(rng.next() % 300);
            let len = u64::from(rng.next() % 40);
            f.add(start, len, format!("s[{i}]"), "u8", "", level(rng.next()), "");
        }
        check(&format!("round {round}"), f.spans, Vec::new(), 256);
    }
}

#[test]
fn builder_files() {
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..60 {
        let b = sets::meshset_built(i, &mut rng);
        let name = format!("mesh{i:05}.MeshSet");
        let d = formats::decode(formats::detect(&name, &b.resource), &name, &b.resource);
        check(&name, d.fields.spans, d.fields.regions, b.resource.len() as u64);
        let mut doc = meshscope::open(&name, b.resource.clone());
        for (g, c) in &b.chunks {
            let chunk = doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches");
            let want = reference_coverage(chunk.spans.fixed(), chunk.spans.regions(), c.len() as u64);
            assert_eq!(chunk.spans.coverage(c.len() as u64), want, "{name}: chunk");
        }
    }
    for (name, bytes) in sets::plys(12) {
        let d = formats::decode(formats::detect(&name, &bytes), &name, &bytes);
        check(&name, d.fields.spans, d.fields.regions, bytes.len() as u64);
    }
}

#[test]
fn real_samples() {
    let Some(samples) = common::gem_ply_samples() else { return };
    assert!(!samples.is_empty(), "the samples folder holds .ply files");
    for (name, bytes) in samples {
        let d = formats::decode(formats::detect(&name, &bytes), &name, &bytes);
        check(&name, d.fields.spans, d.fields.regions, bytes.len() as u64);
    }
}
