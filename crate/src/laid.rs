//! Records laid out statically: a record whose fields follow from its own bytes alone (a
//! MeshSet's vertex declaration) can be recorded as one placeholder span, `Value::Laid`, and
//! its fields made only when asked. The census walks such a record's parts without a span or
//! a shape node being made for each field; `expand` makes the spans its decoder would have
//! recorded, in the same order.

use crate::short::{PathText, Short};
use crate::show::Kind;
use crate::span::{Confidence, Span, SpanBounds, Swept, Text, Value};

/// How the parts of a record laid out statically follow from its bytes.
pub trait Layout: Sync {
    /// Appends the parts of the record whose bytes are `own` (its whole extent) to `out`,
    /// in the order its decoder records its fields (by start), each group before its parts.
    fn parts(&self, own: &[u8], out: &mut Vec<Part>);

    /// The bytes of the record no part covers, whatever its bytes hold, sorted (offsets from
    /// its start). Most layouts tile their records.
    fn gaps(&self) -> &[(u32, u32)] {
        &[]
    }

    /// Whether `parts` gives the same parts whatever the record's bytes; then the census
    /// keys a record's plan by the bytes its sub-records and values of no kind code read.
    fn fixed(&self) -> bool {
        false
    }
}

/// A layout, compared by address: two placeholders are equal when they name one layout.
#[derive(Clone, Copy)]
pub struct LayoutRef(pub &'static dyn Layout);

impl LayoutRef {
    /// The layout's address, which names it.
    pub fn addr(self) -> usize {
        self.0 as *const dyn Layout as *const () as usize
    }
}

impl PartialEq for LayoutRef {
    fn eq(&self, other: &Self) -> bool {
        self.addr() == other.addr()
    }
}

impl std::fmt::Debug for LayoutRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Layout")
    }
}

/// `Part::group` of the parts directly in the record.
pub const IN_RECORD: u16 = u16::MAX;

/// One part of a record laid out statically: a field, or a group of fields (a sub-record).
#[derive(Debug, Clone, Copy)]
pub struct Part {
    /// The field's or group's name: `usage`, `element[3]`.
    pub name: &'static str,
    /// The index of the group it is in (`IN_RECORD` for none).
    pub group: u16,
    /// For a group, how many parts follow it that are in it.
    pub kids: u16,
    /// Where it starts, from the record's start.
    pub start: u32,
    pub len: u32,
    pub ty: &'static str,
    pub confidence: Confidence,
    pub value: PartValue,
    pub note: &'static str,
}

/// What a part holds: nothing of its own (a group), a sub-record laid out by another layout
/// (it has no group parts of its own), a text, or its bytes shown as a kind.
#[derive(Debug, Clone, Copy)]
pub enum PartValue {
    Group,
    Laid(LayoutRef),
    Text(&'static Short),
    Of(Kind),
}

impl Part {
    pub fn is_group(&self) -> bool {
        matches!(self.value, PartValue::Group)
    }

    /// Whether the part is a record of its own inside its record: a group, or a record laid
    /// out by another layout.
    pub fn is_record(&self) -> bool {
        matches!(self.value, PartValue::Group | PartValue::Laid(_))
    }

    /// Whether planning the part reads its bytes: a record laid out of its own, or a value of
    /// a kind with no code (its text is made then); other values are read when counted.
    pub fn planned_from_bytes(&self) -> bool {
        match self.value {
            PartValue::Laid(_) => true,
            PartValue::Of(kind) => kind.code().is_none(),
            PartValue::Group | PartValue::Text(_) => false,
        }
    }

    /// The field's value as a span records it; `None` for a group or a sub-record.
    pub fn value(&self) -> Option<Value> {
        match self.value {
            PartValue::Group | PartValue::Laid(_) => None,
            PartValue::Text(t) => Some(Value::Text(t.clone())),
            PartValue::Of(k) => Some(Value::Of(k)),
        }
    }
}

/// Where the last part of a record `len` bytes long laid out as `layout` ends: where a
/// trailing gap starts, else at its end.
pub fn content_len(layout: LayoutRef, len: u64) -> u64 {
    match layout.0.gaps().last() {
        Some(&(s, e)) if e as u64 == len => s as u64,
        _ => len,
    }
}

/// The bytes a placeholder at `[start, end)` laid out as `layout` covers, appended to `out`:
/// its extent less the layout's gaps.
pub fn covered(layout: LayoutRef, start: u64, end: u64, out: &mut Vec<(u64, u64)>) {
    let mut at = start;
    for &(s, e) in layout.0.gaps() {
        let (s, e) = (start.saturating_add(s as u64).min(end), start.saturating_add(e as u64).min(end));
        if s > at {
            out.push((at, s));
        }
        at = at.max(e);
    }
    if end > at {
        out.push((at, end));
    }
}

/// The bytes `[start, start + len)` of `file`, if it holds them all.
pub fn own_bytes(file: &[u8], start: u64, len: u64) -> Option<&[u8]> {
    let s = usize::try_from(start).ok()?;
    file.get(s..s.checked_add(usize::try_from(len).ok()?)?)
}

/// Lists of parts kept from one record to the next, one a level of sub-records, so that
/// expanding records one after another allocates only for the first; the bounds and the sweep
/// of the last two sub-records, which the next often repeat (a section's two declarations,
/// its neighbours' of the same vertex format); and fixed layouts' runs of fields, swept.
#[derive(Debug, Default)]
pub struct Scratch {
    parts: Vec<Vec<Part>>,
    bounds: [Memo<Vec<SpanBounds>>; 2],
    swept: [Memo<Option<Swept>>; 2],
    /// Fixed layouts' parts as a sweep takes them (`Layout::fixed`), by layout address.
    segments: Vec<(usize, Option<Vec<Segment>>)>,
}

/// A run of a fixed layout's parts as a sweep takes them: fields swept from nothing (from the
/// record's start), or a sub-record, whose fields follow from its bytes.
#[derive(Debug, Clone, Copy)]
enum Segment {
    Fields(Swept),
    Sub(Sub),
}

/// A sub-record's place in its record and its layout.
#[derive(Debug, Clone, Copy)]
struct Sub {
    start: u32,
    len: u32,
    layout: LayoutRef,
}

/// `parts` as segments: each run of fields swept, between the sub-records; `None` when a
/// run's fields do not come by start.
fn segments(parts: &[Part]) -> Option<Vec<Segment>> {
    let (mut out, mut run) = (Vec::new(), Swept::default());
    for p in parts {
        match p.value {
            PartValue::Laid(layout) => {
                out.push(Segment::Fields(std::mem::take(&mut run)));
                out.push(Segment::Sub(Sub { start: p.start, len: p.len, layout }));
            }
            PartValue::Group => {}
            PartValue::Text(_) | PartValue::Of(_) => {
                if !run.add(p.start as u64, p.len as u64, p.confidence) {
                    return None;
                }
            }
        }
    }
    out.push(Segment::Fields(run));
    Some(out)
}

/// A sub-record's layout (`LayoutRef::addr`) and bytes, and what its fields make from its
/// start: their bounds, or their sweep.
#[derive(Debug, Default)]
struct Memo<T> {
    layout: usize,
    own: Vec<u8>,
    made: T,
}

impl<T> Memo<T> {
    fn of(&self, r: &Laid) -> bool {
        self.layout == r.layout.addr() && self.own == r.own
    }

    /// Keeps `made` for `r` in place of the older of `memos`: a section's stored and draw
    /// declarations alternate.
    fn keep(memos: &mut [Memo<T>; 2], r: &Laid, made: T) {
        memos.swap(0, 1);
        let memo = &mut memos[0];
        memo.layout = r.layout.addr();
        memo.own.clear();
        memo.own.extend_from_slice(r.own);
        memo.made = made;
    }
}

impl Scratch {
    /// The parts of the record laid out as `layout` whose bytes are `own`, in the list of
    /// level `depth`, taken out while in use (a sub-record's fill the next): `keep` puts it back.
    fn parts(&mut self, depth: usize, layout: LayoutRef, own: &[u8]) -> Vec<Part> {
        if self.parts.len() <= depth {
            // Room for a record's parts at once (a declaration has up to 64).
            self.parts.resize_with(depth + 1, || Vec::with_capacity(64));
        }
        let mut parts = std::mem::take(&mut self.parts[depth]);
        layout.0.parts(own, &mut parts);
        parts
    }

    fn keep(&mut self, depth: usize, parts: Vec<Part>) {
        if let Some(slot) = self.parts.get_mut(depth) {
            *slot = parts;
        }
    }
}

/// How many children the record laid out as `layout` whose bytes are `own` has in the tree:
/// its fields, groups and sub-records that hold a field.
pub fn children(layout: LayoutRef, own: &[u8], scratch: &mut Scratch) -> usize {
    let parts = scratch.parts(0, layout, own);
    let holds = |p: &Part| match p.value {
        PartValue::Group => p.kids > 0,
        PartValue::Laid(_) => own_bytes(own, p.start as u64, p.len as u64).is_some(),
        _ => true,
    };
    let n = parts.iter().filter(|p| p.group == IN_RECORD && holds(p)).count();
    scratch.keep(0, parts);
    n
}

/// The spans of the record laid out at `start` under `path`, with parts `parts` made of its
/// bytes `own`, appended to `out`: `path.group.name` for a field in a group, `path.name` for
/// one directly in it, and a sub-record's under `path.name`.
pub fn expand(path: &PathText, start: u64, own: &[u8], parts: &[Part], out: &mut Vec<Span>) {
    let at = Within { path, start, own, keep: None };
    expand_parts(at, parts, out, &mut Scratch::default(), 0);
}

/// A placeholder's record: its path, layout, first byte and bytes.
#[derive(Clone, Copy)]
pub struct Placed<'a> {
    pub path: &'a PathText,
    pub layout: LayoutRef,
    pub start: u64,
    pub own: &'a [u8],
}

/// `expand` of a placeholder's record, its parts made in `scratch`; with `keep`, only the
/// fields that reach into those bytes (a window of the file).
pub fn expand_record(r: Placed, keep: Option<std::ops::Range<u64>>, out: &mut Vec<Span>, scratch: &mut Scratch) {
    let parts = scratch.parts(0, r.layout, r.own);
    let at = Within { path: r.path, start: r.start, own: r.own, keep: keep.map(|k| (k.start, k.end)) };
    expand_parts(at, &parts, out, scratch, 1);
    scratch.keep(0, parts);
}

/// A record being expanded: its path, where it starts, its bytes, and the bytes whose fields
/// are kept.
#[derive(Clone, Copy)]
struct Within<'a> {
    path: &'a PathText,
    start: u64,
    own: &'a [u8],
    keep: Option<(u64, u64)>,
}

impl Within<'_> {
    /// Whether bytes `[at, at + len)` reach into the kept ones, as a window's spans do.
    fn keeps(&self, at: u64, len: u64) -> bool {
        self.keep.is_none_or(|(start, end)| at < end && at.saturating_add(len) > start)
    }
}

/// `expand`, sub-records' parts made in `scratch` from level `depth`.
fn expand_parts(at: Within, parts: &[Part], out: &mut Vec<Span>, scratch: &mut Scratch, depth: usize) {
    let Within { path, start, own, .. } = at;
    for p in parts.iter().filter(|p| at.keeps(start + p.start as u64, p.len as u64)) {
        if let PartValue::Laid(l) = p.value {
            let sub = PathText::concat(&[path.as_str(), ".", p.name]);
            let Some(sub_own) = own_bytes(own, p.start as u64, p.len as u64) else { continue };
            let sub_parts = scratch.parts(depth, l, sub_own);
            let within = Within { path: &sub, start: start + p.start as u64, own: sub_own, ..at };
            expand_parts(within, &sub_parts, out, scratch, depth + 1);
            scratch.keep(depth, sub_parts);
            continue;
        }
        let Some(value) = p.value() else { continue };
        let group = parts.get(p.group as usize).map(|g| g.name);
        let path = match group {
            Some(g) => PathText::concat(&[path.as_str(), ".", g, ".", p.name]),
            None => PathText::concat(&[path.as_str(), ".", p.name]),
        };
        out.push(Span {
            start: start + p.start as u64,
            len: p.len as u64,
            path,
            ty: Text::Borrowed(p.ty),
            value,
            confidence: p.confidence,
            note: Text::Borrowed(p.note),
        });
    }
}

/// Where the spans `expand` makes of the record laid out as `layout` at `start` (its bytes
/// `own`) are and how sure, in the same order, appended to `out`: no path or value is made.
pub fn expand_bounds(layout: LayoutRef, start: u64, own: &[u8], out: &mut Vec<SpanBounds>, scratch: &mut Scratch) {
    bounds_at(Laid { layout, start, own }, out, scratch, 0);
}

/// A record laid out as `layout` at `start`, its bytes `own`.
#[derive(Clone, Copy)]
struct Laid<'a> {
    layout: LayoutRef,
    start: u64,
    own: &'a [u8],
}

/// `expand_bounds`, sub-records' parts made in `scratch` from level `depth`.
fn bounds_at(r: Laid, out: &mut Vec<SpanBounds>, scratch: &mut Scratch, depth: usize) {
    // A layout's parts follow from its bytes alone, so equal bytes give equal bounds.
    if let Some(m) = scratch.bounds.iter().find(|m| m.of(&r)).filter(|_| depth == 1) {
        out.extend(m.made.iter().map(|b| SpanBounds { start: r.start + b.start, ..*b }));
        return;
    }
    let from = out.len();
    let parts = scratch.parts(depth, r.layout, r.own);
    for p in &parts {
        let start = r.start + p.start as u64;
        match p.value {
            PartValue::Laid(layout) => {
                if let Some(own) = own_bytes(r.own, p.start as u64, p.len as u64) {
                    bounds_at(Laid { layout, start, own }, out, scratch, depth + 1);
                }
            }
            PartValue::Group => {}
            PartValue::Text(_) | PartValue::Of(_) => {
                out.push(SpanBounds { start, len: p.len as u64, confidence: p.confidence })
            }
        }
    }
    scratch.keep(depth, parts);
    if depth == 1 {
        let mut made = std::mem::take(&mut scratch.bounds[1].made);
        made.clear();
        made.extend(out[from..].iter().map(|b| SpanBounds { start: b.start - r.start, ..*b }));
        Memo::keep(&mut scratch.bounds, &r, made);
    }
}

/// The bounds `expand_bounds` gives for the record laid out as `layout` whose bytes are
/// `own`, swept from nothing from its start; `None` when they do not come by start, or a
/// sub-record's fields reach back among the ones before it.
pub fn swept(layout: LayoutRef, own: &[u8], scratch: &mut Scratch) -> Option<Swept> {
    swept_at(Laid { layout, start: 0, own }, scratch, 0)
}

/// `swept`, sub-records' parts made in `scratch` from level `depth`.
fn swept_at(r: Laid, scratch: &mut Scratch, depth: usize) -> Option<Swept> {
    if let Some(m) = scratch.swept.iter().find(|m| m.of(&r)).filter(|_| depth == 1) {
        return m.made;
    }
    if r.layout.0.fixed() {
        return swept_fixed(r, scratch, depth);
    }
    let parts = scratch.parts(depth, r.layout, r.own);
    let mut all = Swept::default();
    let in_order = parts.iter().all(|p| match p.value {
        PartValue::Laid(layout) => {
            sweep_sub(&mut all, Sub { start: p.start, len: p.len, layout }, r.own, scratch, depth)
        }
        PartValue::Group => true,
        PartValue::Text(_) | PartValue::Of(_) => all.add(p.start as u64, p.len as u64, p.confidence),
    });
    let all = in_order.then_some(all);
    scratch.keep(depth, parts);
    if depth == 1 {
        Memo::keep(&mut scratch.swept, &r, all);
    }
    all
}

/// Adds to `all` the sweep of sub-record `sub` of the record whose bytes are `own` (nothing
/// when `own` does not hold it); false when its fields do not come by start or reach back.
fn sweep_sub(all: &mut Swept, sub: Sub, own: &[u8], scratch: &mut Scratch, depth: usize) -> bool {
    let Some(own) = own_bytes(own, sub.start as u64, sub.len as u64) else { return true };
    swept_at(Laid { layout: sub.layout, start: 0, own }, scratch, depth + 1)
        .is_some_and(|t| all.add_swept(sub.start as u64, &t))
}

/// `swept_at` of a record whose layout is fixed: its runs of fields swept once a layout.
fn swept_fixed(r: Laid, scratch: &mut Scratch, depth: usize) -> Option<Swept> {
    let addr = r.layout.addr();
    let k = match scratch.segments.iter().position(|s| s.0 == addr) {
        Some(k) => k,
        None => {
            let parts = scratch.parts(depth, r.layout, r.own);
            let made = segments(&parts);
            scratch.keep(depth, parts);
            scratch.segments.push((addr, made));
            scratch.segments.len() - 1
        }
    };
    // Taken out while its sub-records are swept in `scratch`.
    let segs = std::mem::take(&mut scratch.segments[k].1)?;
    let mut all = Swept::default();
    let in_order = segs.iter().all(|seg| match *seg {
        Segment::Fields(run) => all.add_swept(0, &run),
        Segment::Sub(sub) => sweep_sub(&mut all, sub, r.own, scratch, depth),
    });
    scratch.segments[k].1 = Some(segs);
    in_order.then_some(all)
}

/// `spans` with every placeholder replaced, in its place, by the spans of its record
/// (`expand`); `file` is the whole file. A placeholder whose bytes the file does not hold
/// stays as it is.
pub fn expand_all(spans: Vec<Span>, file: &[u8]) -> Vec<Span> {
    if !spans.iter().any(|s| matches!(s.value, Value::Laid(_))) {
        return spans;
    }
    let mut out = Vec::with_capacity(spans.len());
    let mut parts = Vec::new();
    for s in spans {
        let laid = match s.value {
            Value::Laid(l) => own_bytes(file, s.start, s.len).map(|own| (l, own)),
            _ => None,
        };
        match laid {
            Some((l, own)) => {
                parts.clear();
                l.0.parts(own, &mut parts);
                expand(&s.path, s.start, own, &parts, &mut out);
            }
            None => out.push(s),
        }
    }
    out
}

/// Where field `path` starts: a span's, or a field of a record laid out in `spans` (`file`
/// is the whole file).
pub fn field_start(spans: &[Span], path: &str, file: &[u8]) -> Option<u64> {
    if let Some(s) = spans.iter().find(|s| s.path == path) {
        return Some(s.start);
    }
    let inside = |s: &Span| path.strip_prefix(s.path.as_str()).is_some_and(|rest| rest.starts_with('.'));
    let (mut parts, mut fields) = (Vec::new(), Vec::new());
    spans.iter().filter(|s| inside(s)).find_map(|s| {
        let Value::Laid(l) = s.value else { return None };
        let own = own_bytes(file, s.start, s.len)?;
        l.0.parts(own, &mut parts);
        fields.clear();
        expand(&s.path, s.start, own, &parts, &mut fields);
        fields.iter().find(|f| f.path == path).map(|f| f.start)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Fields;

    /// A toy record of two bytes: a group `pair` holding `a`, then a field `b`.
    struct Toy;
    static TOY: Toy = Toy;
    static TEXT: std::sync::LazyLock<Short> = std::sync::LazyLock::new(|| Short::from("x"));

    impl Layout for Toy {
        fn parts(&self, own: &[u8], out: &mut Vec<Part>) {
            out.clear();
            let field = |name, group, start, value| Part {
                name,
                group,
                kids: 0,
                start,
                len: 1,
                ty: "u8",
                confidence: Confidence::Proven,
                value,
                note: "n",
            };
            if own.len() == 2 {
                out.push(Part { kids: 1, value: PartValue::Group, ..field("pair", IN_RECORD, 0, PartValue::Group) });
                out.push(field("a", 0, 0, PartValue::Text(&TEXT)));
                out.push(field("b", IN_RECORD, 1, PartValue::Of(Kind::Unsigned)));
            }
        }
    }

    #[test]
    fn placeholders_expand_in_place_and_others_stay() {
        let file = [7u8, 9, 0, 0];
        let mut f = Fields::default();
        f.add(0, 1, "before", "u8", "7", Confidence::Observed, "");
        f.add_laid(1, 2, "rec", LayoutRef(&TOY));
        f.add_laid(3, 2, "cut", LayoutRef(&TOY)); // the file ends inside it
        let spans = expand_all(f.spans, &file);
        let paths: Vec<&str> = spans.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, ["before", "rec.pair.a", "rec.b", "cut"]);
        assert_eq!((spans[1].start, spans[2].start), (1, 2));
        assert_eq!(spans[1].value, Value::Text(Short::from("x")));
        assert_eq!(spans[2].text(&file), "0");
        assert_eq!(spans[3].value, Value::Laid(LayoutRef(&TOY)), "a placeholder the file cuts stays");
        assert_eq!(own_bytes(&file, 3, 2), None);
        let mut f = Fields::default();
        f.add(0, 1, "before", "u8", "7", Confidence::Observed, "");
        f.add_laid(1, 2, "rec", LayoutRef(&TOY));
        let at = |p| field_start(&f.spans, p, &file);
        assert_eq!((at("before"), at("rec.b"), at("rec.pair.a")), (Some(0), Some(2), Some(1)));
        assert_eq!((at("rec.c"), at("re"), at("rec")), (None, None, Some(1)));
        assert_eq!(own_bytes(&file, u64::MAX, 2), None);
    }

    /// A toy record of five bytes: a byte `c`, a gap, a `Toy` record `inner`, and a gap.
    struct Outer;
    static OUTER: Outer = Outer;

    impl Layout for Outer {
        fn parts(&self, _own: &[u8], out: &mut Vec<Part>) {
            out.clear();
            let part = |name, start, len, value| Part {
                name,
                group: IN_RECORD,
                kids: 0,
                start,
                len,
                ty: "u8",
                confidence: Confidence::Proven,
                value,
                note: "",
            };
            out.push(part("c", 0, 1, PartValue::Of(Kind::Unsigned)));
            out.push(part("inner", 2, 2, PartValue::Laid(LayoutRef(&TOY))));
        }

        fn gaps(&self) -> &[(u32, u32)] {
            &[(1, 2), (4, 5)]
        }
    }

    #[test]
    fn records_laid_out_in_records_expand_under_their_part() {
        let file = [5u8, 0, 7, 9, 0, 1];
        let mut f = Fields::default();
        f.add_laid(0, 5, "out", LayoutRef(&OUTER));
        f.add(5, 1, "after", "u8", "1", Confidence::Observed, "");
        let placeholders = f.spans.clone();
        let spans = expand_all(f.spans, &file);
        let paths: Vec<&str> = spans.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, ["out.c", "out.inner.pair.a", "out.inner.b", "after"]);
        assert_eq!(spans.iter().map(|s| s.start).collect::<Vec<_>>(), [0, 2, 3, 5]);
        assert_eq!(spans[2].text(&file), "9");
        let at = |p| field_start(&placeholders, p, &file);
        assert_eq!((at("out.inner.b"), at("out.c"), at("out.inner.c")), (Some(3), Some(0), None));
        // The gaps are not covered, and the content ends before the trailing one.
        let mut covered_bytes = Vec::new();
        covered(LayoutRef(&OUTER), 10, 15, &mut covered_bytes);
        assert_eq!(covered_bytes, [(10, 11), (12, 14)]);
        assert_eq!((content_len(LayoutRef(&OUTER), 5), content_len(LayoutRef(&TOY), 2)), (4, 2));
        covered_bytes.clear();
        covered(LayoutRef(&OUTER), 10, 13, &mut covered_bytes);
        assert_eq!(covered_bytes, [(10, 11), (12, 13)], "a placeholder cut short covers no more than it has");
    }
}
