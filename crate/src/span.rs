//! Spans with confidence, and the span map that answers "what covers these bytes".
//!
//! Fixed fields are stored one span each. Large regular regions (vertex and index
//! buffers) are stored once as a `Region` (base, stride, count, element layout) and
//! expanded into spans only for the window asked for, so the cost of a window does not
//! depend on the file's size.

use crate::laid::{LayoutRef, Placed, Scratch};
use crate::read::Reader;
use crate::short::{PathText, Short};
pub use crate::show::Kind;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::OnceLock;

/// Text that is usually a literal of the decoder (a type name, a note from the
/// description): borrowed then, so recording a field does not copy it.
pub type Text = Cow<'static, str>;

/// How sure we are of a field's meaning: the levels of the format descriptions.
/// Bytes no span covers are "uncovered", which is not a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Proven,
    Observed,
    Inferred,
    Unknown,
}

impl Confidence {
    pub const ALL: [Confidence; 4] =
        [Confidence::Proven, Confidence::Observed, Confidence::Inferred, Confidence::Unknown];

    pub fn name(self) -> &'static str {
        match self {
            Confidence::Proven => "proven",
            Confidence::Observed => "observed",
            Confidence::Inferred => "inferred",
            Confidence::Unknown => "unknown",
        }
    }

    /// Small code used in compact typed-array results; 0 is reserved for uncovered. The
    /// page's `LEVELS` (web/hexview.js) are indexed by it (crate/tests/confidence_codes.rs).
    pub fn code(self) -> u8 {
        self as u8 + 1
    }
}

/// What a recorded span holds: text the decoder made, or the kind of value its own bytes
/// are (`bytes[start..start + len]` of the file), made into text only when asked for; or, as
/// a placeholder, a record laid out statically (`laid`), whose own fields are its parts.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(Short),
    Of(Kind),
    Laid(LayoutRef),
}

impl Value {
    /// The text, when the decoder made it.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(t) => Some(t),
            Value::Of(_) | Value::Laid(_) => None,
        }
    }
}

/// A value's text as `Fields::add` takes it: whatever a `Short` is made from.
macro_rules! text_value {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(t: $t) -> Self {
                Value::Text(t.into())
            }
        }
    )*};
}
text_value!(Short, &str, String, &String);

/// One decoded field: where it is, what it is called, what it holds, how sure we are. As
/// recorded its value is a `Value`; as shown (`SpanText`: a window's spans, the page's) it
/// is text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span<V = Value> {
    pub start: u64,
    pub len: u64,
    /// Structural path, e.g. `lod[0].section[2].vertex_count`.
    pub path: PathText,
    #[serde(rename = "type")]
    pub ty: Text,
    pub value: V,
    pub confidence: Confidence,
    pub note: Text,
}

/// A span with its value as text, as the page, the command line and the diff show it.
pub type SpanText = Span<Short>;

impl<V> Span<V> {
    pub fn end(&self) -> u64 {
        self.start + self.len
    }
}

impl Span {
    /// The value's text; `file` is the whole file the span was decoded from.
    pub fn text(&self, file: &[u8]) -> Short {
        match &self.value {
            Value::Text(t) => t.clone(),
            Value::Of(k) => k.show(self.bytes(file)),
            // Only the census's decode lays records out, and it shows no value.
            Value::Laid(_) => Kind::Hex.show(self.bytes(file)),
        }
    }

    /// The kind and bytes of a value shown from the file (`Value::Of`); `None` for text.
    pub fn shown_from<'f>(&self, file: &'f [u8]) -> Option<(Kind, &'f [u8])> {
        match self.value {
            Value::Of(k) => Some((k, self.bytes(file))),
            _ => None,
        }
    }

    /// The span's bytes in `file`, empty where the file does not hold them.
    fn bytes<'f>(&self, file: &'f [u8]) -> &'f [u8] {
        usize::try_from(self.start)
            .ok()
            .zip(usize::try_from(self.len).ok())
            .and_then(|(s, n)| file.get(s..s.checked_add(n)?))
            .unwrap_or(&[])
    }

    /// The span as shown, its value made text.
    pub fn shown(&self, file: &[u8]) -> SpanText {
        Span {
            start: self.start,
            len: self.len,
            path: self.path.clone(),
            ty: self.ty.clone(),
            value: self.text(file),
            confidence: self.confidence,
            note: self.note.clone(),
        }
    }
}

/// Formats one element's bytes as text; the bytes are exactly `Elem::len` long.
pub type ElemFormat = fn(&[u8]) -> String;

/// One field inside every element of a region.
#[derive(Debug, Clone)]
pub struct Elem {
    pub offset: u64,
    pub len: u64,
    /// Field name inside the element; empty when the element is the field (an index).
    pub name: String,
    pub ty: Text,
    pub confidence: Confidence,
    pub note: Text,
    pub format: ElemFormat,
}

/// A regular array: `count` elements of `stride` bytes from `start`, each laid out as `elems`.
#[derive(Debug, Clone)]
pub struct Region {
    pub start: u64,
    pub stride: u64,
    pub count: u64,
    /// Path of the array, e.g. `chunk[3].vertices`; element i is `path[i]`.
    pub path: String,
    pub elems: Vec<Elem>,
}

impl Region {
    pub fn end(&self) -> u64 {
        self.start + self.stride.saturating_mul(self.count)
    }

    /// The span of field `e` of element `i`; `bytes` is the whole file.
    pub fn expand(&self, i: u64, e: &Elem, bytes: &[u8]) -> SpanText {
        let start = self.elem_start(i, e);
        let value = usize::try_from(start)
            .ok()
            .and_then(|s| bytes.get(s..s.checked_add(e.len as usize)?))
            .map(|b| (e.format)(b))
            .unwrap_or_default();
        let mut num = crate::show::Digits::new();
        let index = crate::show::decimal(i, &mut num);
        let path = if e.name.is_empty() {
            PathText::concat(&[&self.path, "[", index, "]"])
        } else {
            PathText::concat(&[&self.path, "[", index, "].", &e.name])
        };
        Span {
            start,
            len: e.len,
            path,
            ty: e.ty.clone(),
            value: value.into(),
            confidence: e.confidence,
            note: e.note.clone(),
        }
    }

    /// Where field `e` of element `i` starts.
    pub fn elem_start(&self, i: u64, e: &Elem) -> u64 {
        self.start + i * self.stride + e.offset
    }

    /// Element indices whose stride overlaps `[start, end)`.
    pub fn elements_in(&self, start: u64, end: u64) -> std::ops::Range<u64> {
        if self.stride == 0 || self.count == 0 || end <= self.start || start >= self.end() {
            return 0..0;
        }
        let first = start.saturating_sub(self.start) / self.stride;
        let last = ((end - self.start).div_ceil(self.stride)).min(self.count);
        first..last
    }
}

/// Where a span is and how sure we are of it, without its path or value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanBounds {
    pub start: u64,
    pub len: u64,
    pub confidence: Confidence,
}

/// A window of the file, `[start, end)`.
#[derive(Debug, Clone, Copy)]
struct Within {
    start: u64,
    end: u64,
}

impl Within {
    /// Whether `[start, start + len)` reaches into the window.
    fn overlaps(self, start: u64, len: u64) -> bool {
        start < self.end && start.saturating_add(len) > self.start
    }
}

/// What `SpanMap::gather` makes of a span, of a placeholder (its fields that reach into the
/// window, appended), and of a region's element.
struct Gather<F, L, E> {
    fixed: F,
    laid: L,
    elem: E,
}

/// Every span and region of one file, indexed for window queries.
#[derive(Debug, Clone, Default)]
pub struct SpanMap {
    /// Sorted by (start, len), stably (`new`).
    spans: Vec<Span>,
    /// `max_end[i]` is the largest end among `spans[..=i]`: monotone, so a binary search
    /// finds the first span that can reach into a window even when spans overlap.
    max_end: Vec<u64>,
    regions: Vec<Region>,
    /// Bytes the spans of each level cover, unclipped (`level_unions`): the spans never
    /// change after `new`, so this is their coverage for any file that holds them all.
    levels: [u64; 4],
    /// The placeholders among `spans` (records laid out statically, `laid`) whose bytes the
    /// file holds, by index, with where their bytes are in `laid_bytes`: their fields are
    /// made from those when asked for, without the file.
    laid: Vec<Placeholder>,
    laid_bytes: Vec<u8>,
    /// `spans` with each placeholder replaced by its fields and sorted as `spans` are, made
    /// on first use (`fixed`).
    expanded: OnceLock<Vec<Span>>,
    /// Where each of `spans` was recorded, when some are placeholders (empty otherwise):
    /// a placeholder's fields sort among spans of the same extent by it (`Order`).
    recorded: Vec<usize>,
}

/// Where a field sorts among those of the same (start, len): by where it was recorded, and
/// then by its place among its placeholder's fields, as a stable sort of every field would.
type Order = (u64, u64, usize, usize);

/// A placeholder of `SpanMap::spans` and where its record's bytes are in `laid_bytes`.
#[derive(Debug, Clone, Copy)]
struct Placeholder {
    index: usize,
    at: usize,
}

/// The bytes below `limit` that the spans of each level cover, each byte counted once per
/// level; `spans` are sorted by start, so each level's union is one sweep with the end
/// covered so far.
fn level_unions(spans: &[Span], limit: u64) -> [u64; 4] {
    let mut u = Unions::default();
    spans.iter().for_each(|s| u.add(s.start, s.len, s.confidence, limit));
    u.totals
}

thread_local! {
    /// Parts lists and memos of placeholders' records, kept from one document to the next:
    /// a game's files share their vertex formats.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// Runs `f` with the thread's scratch (`SCRATCH`), or with a new one while that is in use.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|kept| match kept.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The sweep of `level_unions`, a span at a time.
#[derive(Debug, Default, Clone, Copy)]
struct Unions {
    totals: [u64; 4],
    covered_to: [u64; 4],
}

impl Unions {
    fn add(&mut self, start: u64, len: u64, confidence: Confidence, limit: u64) {
        let c = confidence as usize;
        let end = start.saturating_add(len).min(limit);
        let start = start.max(self.covered_to[c]);
        if end > start {
            self.totals[c] += end - start;
            self.covered_to[c] = end;
        }
    }
}

/// The sweep of `level_unions` over bounds that come by start (a record's fields, or a
/// file's spans): it refuses a bound that starts before the last one.
#[derive(Debug, Default, Clone, Copy)]
pub struct Swept {
    unions: Unions,
    /// Where the first and the last bound swept start; `None` before the first.
    starts: Option<(u64, u64)>,
}

impl Swept {
    /// The bytes swept at each level, as `level_unions` counts them.
    pub fn totals(&self) -> [u64; 4] {
        self.unions.totals
    }

    /// Sweeps one bound; false, sweeping nothing, when it starts before the last one.
    #[must_use]
    pub fn add(&mut self, start: u64, len: u64, confidence: Confidence) -> bool {
        let first = match self.starts {
            Some((_, last)) if start < last => return false,
            Some((first, _)) => first,
            None => start,
        };
        self.starts = Some((first, start));
        self.unions.add(start, len, confidence, u64::MAX);
        true
    }

    /// Sweeps `t`, bounds swept from nothing with their starts taken from `at`, as sweeping
    /// them one by one here would: exactly so when none starts before the last bound or
    /// before a byte already covered. False, sweeping nothing, when one would.
    #[must_use]
    pub fn add_swept(&mut self, at: u64, t: &Swept) -> bool {
        let Some((first, last)) = t.starts else { return true };
        let (first, last) = (at.saturating_add(first), at.saturating_add(last));
        let covered = self.unions.covered_to.iter().max().copied().unwrap_or(0);
        if self.starts.is_some_and(|(_, l)| first < l) || first < covered {
            return false;
        }
        for c in 0..4 {
            // A level with nothing covered in `t` keeps what it had.
            if t.unions.covered_to[c] > 0 {
                self.unions.totals[c] += t.unions.totals[c];
                self.unions.covered_to[c] = at.saturating_add(t.unions.covered_to[c]);
            }
        }
        self.starts = Some((self.starts.map_or(first, |s| s.0), last));
        true
    }
}

/// `spans` sorted stably by (start, len) and, when some are placeholders (`laid`), where each
/// was recorded (`SpanMap::recorded`; empty when they were recorded in order).
fn sorted(mut spans: Vec<Span>) -> (Vec<Span>, Vec<usize>) {
    let mut order = Vec::new();
    let track = spans.iter().any(|s| matches!(s.value, Value::Laid(_)));
    sort_spans_with(&mut spans, track.then_some(&mut order));
    (spans, order)
}

/// Sorts `spans` stably by (start, len), exactly as `sort_by_key` would, but sorts only from
/// the first span the out-of-order ones reach back to: the decoders record their spans in
/// order but for a tail (a MeshSet's pool), and a sort of the whole list allocated scratch
/// room for all of it (docs/performance.md). `order`, when given, moves with the spans: it is
/// filled with each span's place before the sort, unless the spans were in order already.
fn sort_spans_with(spans: &mut [Span], mut order: Option<&mut Vec<usize>>) {
    let key = |s: &Span| (s.start, s.len);
    let Some(first) = spans.windows(2).position(|w| key(&w[1]) < key(&w[0])) else { return };
    if let Some(o) = order.as_deref_mut() {
        o.extend(0..spans.len());
    }
    let (sorted, rest) = spans.split_at(first + 1);
    let Some(low) = rest.iter().map(key).min() else { return };
    // Spans up to `low` are in place: no later span sorts before them, and a later one equal
    // to `low` stays after them, as a stable sort keeps it.
    let from = sorted.partition_point(|s| key(s) <= low);
    let tail = &mut spans[from..];
    let mut tail_order = order.map(|o| &mut o[from..]);
    // A few spans a short way out of place (a MeshSet's bone lists after the strings they
    // precede) are put back one by one; past a budget of moves the stable sort finishes.
    // Moving a span only past greater keys keeps equal ones in order, as the sort does.
    let mut budget = 4 * tail.len();
    for i in 1..tail.len() {
        let k = key(&tail[i]);
        let mut j = i;
        while j > 0 && k < key(&tail[j - 1]) {
            j -= 1;
        }
        if i - j > budget {
            match tail_order {
                Some(o) => sort_both(tail, o),
                None => tail.sort_by_key(key),
            }
            return;
        }
        budget -= i - j;
        if j < i {
            tail[j..=i].rotate_right(1);
            if let Some(o) = tail_order.as_deref_mut() {
                o[j..=i].rotate_right(1);
            }
        }
    }
}

/// Sorts `spans` stably by (start, len) and `order` with them.
fn sort_both(spans: &mut [Span], order: &mut [usize]) {
    let mut to: Vec<usize> = (0..spans.len()).collect();
    to.sort_by_key(|&i| (spans[i].start, spans[i].len));
    // Place k takes what was at `to[k]`: each cycle of the permutation by swaps along it.
    let mut done = vec![false; spans.len()];
    for first in 0..spans.len() {
        let mut k = first;
        while !done[k] {
            done[k] = true;
            let from = to[k];
            if from == first {
                break;
            }
            spans.swap(k, from);
            order.swap(k, from);
            k = from;
        }
    }
}

impl SpanMap {
    /// Indexes `spans` in the order of a stable sort by (start, len); placeholders stay as
    /// they are (`over` makes their fields).
    pub fn new(spans: Vec<Span>, regions: Vec<Region>) -> Self {
        SpanMap::over(spans, regions, &[])
    }

    /// `new` for the spans of a decode of `file`: a placeholder whose bytes `file` holds
    /// answers as its fields would (`laid::expand`), which are made only when asked for.
    pub fn over(spans: Vec<Span>, regions: Vec<Region>, file: &[u8]) -> Self {
        let (spans, recorded) = sorted(spans);
        let mut laid = Vec::new();
        let mut at = 0;
        for (index, s) in spans.iter().enumerate() {
            if let (Value::Laid(_), Some(own)) = (&s.value, crate::laid::own_bytes(file, s.start, s.len)) {
                laid.push(Placeholder { index, at });
                at += own.len();
            }
        }
        // Sized first and filled after: growing it record by record cost more than the
        // second look at each record's bytes.
        let mut laid_bytes = Vec::with_capacity(at);
        for p in &laid {
            let s = &spans[p.index];
            laid_bytes.extend_from_slice(crate::laid::own_bytes(file, s.start, s.len).unwrap_or(&[]));
        }
        let mut m = 0;
        let max_end = spans
            .iter()
            .map(|s| {
                m = m.max(s.end());
                m
            })
            .collect();
        let expanded = OnceLock::new();
        let mut map = SpanMap { spans, max_end, regions, levels: [0; 4], laid, laid_bytes, expanded, recorded };
        map.levels = map.level_totals();
        map
    }

    /// `level_unions(self.fixed(), u64::MAX)`, a placeholder's fields swept as one
    /// (`laid::swept`) when they come by start.
    fn level_totals(&self) -> [u64; 4] {
        if self.laid.is_empty() {
            return level_unions(&self.spans, u64::MAX);
        }
        let mut all = Swept::default();
        let in_order = with_scratch(|scratch| {
            self.spans.iter().enumerate().all(|(i, s)| match self.placeholder(i, s) {
                Some((l, own)) => crate::laid::swept(l, own, scratch).is_some_and(|t| all.add_swept(s.start, &t)),
                None => all.add(s.start, s.len, s.confidence),
            })
        });
        // The sweep needs its bounds by start: fields a record lays out out of order (or in a
        // span's way) are summed from all the bounds, sorted.
        if in_order {
            all.totals()
        } else {
            self.level_totals_sorted()
        }
    }

    /// `level_totals` from every span's and placeholder field's bounds, sorted by start.
    fn level_totals_sorted(&self) -> [u64; 4] {
        let mut all = Vec::new();
        with_scratch(|scratch| {
            for (i, s) in self.spans.iter().enumerate() {
                self.push_bounds(i, s, &mut all, scratch);
            }
        });
        // A union is the same whatever the order of equal starts.
        all.sort_unstable_by_key(|b| b.start);
        let mut u = Unions::default();
        all.iter().for_each(|b| u.add(b.start, b.len, b.confidence, u64::MAX));
        u.totals
    }

    /// The bounds of `s`, `spans[i]`, appended to `out`: its fields' when it is a placeholder.
    fn push_bounds(&self, i: usize, s: &Span, out: &mut Vec<SpanBounds>, scratch: &mut Scratch) {
        match self.placeholder(i, s) {
            Some((l, own)) => crate::laid::expand_bounds(l, s.start, own, out, scratch),
            None => out.push(SpanBounds { start: s.start, len: s.len, confidence: s.confidence }),
        }
    }

    /// The layout and bytes of `s`, `spans[i]`, when it is a placeholder whose bytes are kept.
    fn placeholder(&self, i: usize, s: &Span) -> Option<(LayoutRef, &[u8])> {
        let Value::Laid(l) = s.value else { return None };
        let k = self.laid.binary_search_by_key(&i, |p| p.index).ok()?;
        let at = self.laid[k].at;
        Some((l, self.laid_bytes.get(at..at.checked_add(usize::try_from(s.len).ok()?)?)?))
    }

    /// The spans with their placeholders, when some are kept (`over`), and how many path
    /// segments the shallowest placeholder has: a tree of no more levels than that can be made
    /// from these, the placeholders counting their fields (`laid_children`).
    pub fn laid(&self) -> Option<(&[Span], usize)> {
        let depth = self.laid.iter().map(|p| self.spans[p.index].path.split('.').count()).min()?;
        Some((&self.spans, depth))
    }

    /// For `laid()[i]` a placeholder, the number of its record's children as the fields it
    /// stands for make them: its fields, groups and sub-records that hold a field.
    pub fn laid_children(&self, i: usize) -> Option<usize> {
        let s = self.spans.get(i)?;
        let (l, own) = self.placeholder(i, s)?;
        Some(with_scratch(|scratch| crate::laid::children(l, own, scratch)))
    }

    /// How many spans are kept, a placeholder counting once (`fixed` makes its fields).
    pub fn kept(&self) -> usize {
        self.spans.len()
    }

    /// Every span, each placeholder's fields in its place.
    pub fn fixed(&self) -> &[Span] {
        if self.laid.is_empty() {
            return &self.spans;
        }
        self.expanded.get_or_init(|| {
            let (mut out, mut fields) = (Vec::new(), Vec::new());
            with_scratch(|scratch| {
                for (i, s) in self.spans.iter().enumerate() {
                    let at = self.recorded_at(i);
                    match self.placeholder(i, s) {
                        Some((layout, own)) => {
                            let r = Placed { path: &s.path, layout, start: s.start, own };
                            crate::laid::expand_record(r, None, &mut fields, scratch);
                            out.extend(fields.drain(..).enumerate().map(|(j, f)| ((f.start, f.len, at, j), f)));
                        }
                        None => out.push(((s.start, s.len, at, 0), s.clone())),
                    }
                }
            });
            // No two fields have the same order.
            out.sort_unstable_by_key(|(order, _)| *order);
            out.into_iter().map(|(_, s)| s).collect()
        })
    }

    /// Where `spans[i]` was recorded.
    fn recorded_at(&self, i: usize) -> usize {
        self.recorded.get(i).copied().unwrap_or(i)
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// Every span (fixed or expanded from a region) that overlaps `[start, end)`, by start,
    /// with its value's text; `bytes` is the whole file.
    pub fn window(&self, start: u64, end: u64, bytes: &[u8]) -> Vec<SpanText> {
        let w = Within { start, end };
        let fixed = |s: &Span| s.shown(bytes);
        // A scratch of its own: the window took more instructions through the thread's
        // (`with_scratch`; docs/performance.md), and it keeps no memo.
        let (mut fields, mut scratch) = (Vec::new(), Scratch::default());
        let laid = |s: &Span, layout: LayoutRef, own: &[u8], out: &mut Vec<SpanText>| {
            fields.clear();
            let r = Placed { path: &s.path, layout, start: s.start, own };
            crate::laid::expand_record(r, Some(start..end), &mut fields, &mut scratch);
            out.extend(fields.iter().map(|f| f.shown(bytes)));
        };
        let elem = |r: &Region, i: u64, e: &Elem| r.expand(i, e, bytes);
        self.gather(w, Gather { fixed, laid, elem }, |s| (s.start, s.len))
    }

    /// Where `window`'s spans are and how sure, in the same order, with no text made: what
    /// the hex view colors a screen with.
    pub fn bounds(&self, start: u64, end: u64) -> Vec<SpanBounds> {
        let w = Within { start, end };
        let fixed = |s: &Span| SpanBounds { start: s.start, len: s.len, confidence: s.confidence };
        let elem = |r: &Region, i: u64, e: &Elem| SpanBounds {
            start: r.elem_start(i, e),
            len: e.len,
            confidence: e.confidence,
        };
        with_scratch(|scratch| {
            let mut all = Vec::new();
            let laid = |s: &Span, l: LayoutRef, own: &[u8], out: &mut Vec<SpanBounds>| {
                all.clear();
                crate::laid::expand_bounds(l, s.start, own, &mut all, scratch);
                out.extend(all.iter().filter(|b| w.overlaps(b.start, b.len)));
            };
            self.gather(w, Gather { fixed, laid, elem }, |b| (b.start, b.len))
        })
    }

    /// One `T` for each span overlapping the window (fixed spans, a placeholder's fields in
    /// its place, then region elements), stably sorted by `key`.
    fn gather<T, F, L, E>(&self, w: Within, mut g: Gather<F, L, E>, key: impl Fn(&T) -> (u64, u64)) -> Vec<T>
    where
        F: FnMut(&Span) -> T,
        L: FnMut(&Span, LayoutRef, &[u8], &mut Vec<T>),
        E: FnMut(&Region, u64, &Elem) -> T,
    {
        let (mut out, mut fields) = (Vec::new(), Vec::new());
        let first = self.max_end.partition_point(|&e| e <= w.start);
        for (i, s) in self.spans.iter().enumerate().skip(first) {
            if s.start >= w.end {
                break;
            }
            if s.end() > w.start {
                let at = self.recorded_at(i);
                let keyed = |(j, t): (usize, T)| -> (Order, T) {
                    let (start, len) = key(&t);
                    ((start, len, at, j), t)
                };
                match self.placeholder(i, s) {
                    Some((l, own)) => {
                        (g.laid)(s, l, own, &mut fields);
                        out.extend(fields.drain(..).enumerate().map(keyed));
                    }
                    None => out.push(keyed((0, (g.fixed)(s)))),
                }
            }
        }
        // Region elements after the spans of the same extent, in the order they come.
        let mut n = 0;
        for r in &self.regions {
            for i in r.elements_in(w.start, w.end) {
                for e in &r.elems {
                    let at = r.elem_start(i, e);
                    if at < w.end && at + e.len > w.start {
                        let t = (g.elem)(r, i, e);
                        let (start, len) = key(&t);
                        out.push(((start, len, usize::MAX, n), t));
                        n += 1;
                    }
                }
            }
        }
        // No two have the same order.
        out.sort_unstable_by_key(|(order, _)| *order);
        out.into_iter().map(|(_, t)| t).collect()
    }

    /// The innermost span covering `offset`.
    pub fn at(&self, offset: u64, bytes: &[u8]) -> Option<SpanText> {
        self.window(offset, offset + 1, bytes).into_iter().min_by_key(|s| s.len)
    }

    /// Bytes covered per confidence, in `Confidence::ALL` order: for each level, the bytes of
    /// `[0, file_len)` that its spans cover, each counted once however many of them cover it,
    /// plus each region element's fields times the count. A byte covered by spans of two
    /// levels counts for both.
    pub fn coverage(&self, file_len: u64) -> [u64; 4] {
        let reach = self.max_end.last().copied().unwrap_or(0);
        let mut totals = if reach <= file_len { self.levels } else { level_unions(self.fixed(), file_len) };
        for r in &self.regions {
            // Region elements repeat regularly: count one element's layout times the count
            // rather than expanding millions of intervals.
            for e in &r.elems {
                totals[e.confidence as usize] += e.len * r.count;
            }
        }
        totals
    }
}

/// A record whose extent is known (a fixed-size record, a chunk). The tree gives its group
/// node this extent instead of the extent of its fields, so offsets inside a record count
/// from its real first byte.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub path: PathText,
    pub start: u64,
    pub len: u64,
}

/// The spans and regions a decoder records as it reads.
#[derive(Debug, Default)]
pub struct Fields {
    pub spans: Vec<Span>,
    pub regions: Vec<Region>,
    /// Records whose extent is known (`Fields::record`).
    pub records: Vec<Record>,
    /// The address of file byte 0, for a `Fields` made `over` a file; `None` for one made
    /// with `default`, whose values all keep their text.
    origin: Option<usize>,
    /// Whether records laid out statically are recorded as one placeholder each (`laid`).
    laying: bool,
}

impl Fields {
    /// The fields of a decode of `file`: values read through readers over `file` keep their
    /// kind, those read over other bytes their text. This is the only way to a `Fields`
    /// that keeps kinds.
    pub fn over(file: &[u8]) -> Fields {
        Fields { origin: Some(file.as_ptr() as usize), ..Default::default() }
    }

    /// `over`, recording each record laid out statically as one placeholder span
    /// (`Value::Laid`) instead of its fields: what the census reads (`laid::expand_all` makes
    /// the fields).
    pub fn laying_over(file: &[u8]) -> Fields {
        Fields { laying: true, ..Fields::over(file) }
    }

    /// Whether records laid out statically are recorded as placeholders (`laying_over`).
    pub fn laying(&self) -> bool {
        self.laying
    }

    /// Whether a record laid out statically, read through `r` (`len` bytes from its start),
    /// is to be recorded as a placeholder: the fields lay out records, and its values would
    /// keep their kinds.
    pub fn lays_out(&self, r: &Reader, len: u64) -> bool {
        self.laying && self.of_file(r, len)
    }

    /// Records the placeholder of a record laid out statically as `layout`.
    pub fn add_laid(&mut self, start: u64, len: u64, path: impl Into<PathText>, layout: LayoutRef) {
        self.add(start, len, path, "", Value::Laid(layout), Confidence::Proven, "");
    }

    /// Whether the `len` bytes just read through `r` are the file's, at the offsets the span
    /// records: then the span can keep the kind of its value (`Value::Of`) and leave the text
    /// for when it is shown. A reader over the file implies the address of file byte 0 (its
    /// data's address less its base) that `over` recorded: a reader over other bytes (a
    /// copy, a buffer made by the decoder) implies another, and its values keep their text.
    pub fn of_file(&self, r: &Reader, len: u64) -> bool {
        let at = (r.data().as_ptr() as usize).wrapping_sub(r.base() as usize);
        // An empty read's reader may sit anywhere (`Reader::new(&[])`): its no bytes are the file's.
        self.origin.is_some_and(|o| len == 0 || o == at)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        start: u64,
        len: u64,
        path: impl Into<PathText>,
        ty: impl Into<Text>,
        value: impl Into<Value>,
        confidence: Confidence,
        note: impl Into<Text>,
    ) {
        self.spans.push(Span {
            start,
            len,
            path: path.into(),
            ty: ty.into(),
            value: value.into(),
            confidence,
            note: note.into(),
        });
    }

    pub fn add_region(&mut self, region: Region) {
        self.regions.push(region);
    }

    /// Declares that the record at `path` occupies `[start, start + len)`.
    pub fn record(&mut self, path: impl Into<PathText>, start: u64, len: u64) {
        self.records.push(Record { path: path.into(), start, len });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt_u16(b: &[u8]) -> String {
        u16::from_le_bytes([b[0], b[1]]).to_string()
    }

    fn map() -> (SpanMap, Vec<u8>) {
        let mut f = Fields::default();
        f.add(0, 4, "magic", "u8[4]", "TEST", Confidence::Proven, "");
        f.add(4, 4, "count", "u32", "3", Confidence::Observed, "");
        f.add_region(Region {
            start: 8,
            stride: 4,
            count: 3,
            path: "items".into(),
            elems: vec![Elem {
                offset: 0,
                len: 2,
                name: "id".into(),
                ty: "u16".into(),
                confidence: Confidence::Inferred,
                note: "".into(),
                format: fmt_u16,
            }],
        });
        let bytes: Vec<u8> = (0..20).collect();
        (SpanMap::new(f.spans, f.regions), bytes)
    }

    #[test]
    fn windows_expand_only_the_elements_asked_for() {
        let (m, bytes) = map();
        let w = m.window(10, 14, &bytes);
        let paths: Vec<_> = w.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, ["items[1].id"]);
        assert_eq!(w[0].value, u16::from_le_bytes([12, 13]).to_string());
        let w = m.window(0, 9, &bytes);
        assert_eq!(w.len(), 3);
        assert!(m.at(10, &bytes).is_none(), "bytes 10..12 are a gap in the element");
    }

    #[test]
    fn spans_sort_as_a_stable_sort_of_the_whole_list_does() {
        // Lists in order but for a tail, with ties, as decoders record them, and shuffled ones.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for case in 0..400 {
            let n = next(60) as usize;
            let mut f = Fields::default();
            for i in 0..n {
                let start = if case % 2 == 0 && i < n / 2 { i as u64 * 4 } else { next(n as u64 * 4 + 1) };
                f.add(start, next(3), format!("s{i}"), "u8", "", Confidence::Proven, "");
            }
            let mut want = f.spans.clone();
            want.sort_by_key(|s| (s.start, s.len));
            let paths = |v: &[Span]| v.iter().map(|s| s.path.to_string()).collect::<Vec<_>>();
            // Without and with the places the spans had (placeholders' fields sort by them).
            let mut got = f.spans.clone();
            sort_spans_with(&mut got, None);
            assert_eq!(paths(&got), paths(&want), "case {case}");
            let (mut got, mut order) = (f.spans.clone(), Vec::new());
            sort_spans_with(&mut got, Some(&mut order));
            assert_eq!(paths(&got), paths(&want), "case {case}, tracked");
            let before: Vec<_> =
                (0..n).map(|k| order.get(k).map_or(k, |&o| o)).map(|o| f.spans[o].path.to_string()).collect();
            assert_eq!(before, paths(&got), "case {case}: the places moved with the spans");
        }
    }

    #[test]
    fn a_meshset_pool_tail_sorts_as_the_whole_list_does() {
        // Fields in order, then the pool as a MeshSet records it: each string (after the
        // lists), then the bone list it precedes; one list twice, as a tie.
        let mut f = Fields::default();
        for i in 0..40 {
            f.add(i * 4, 4, format!("field{i}"), "u32", "", Confidence::Proven, "");
        }
        for k in 0..6u64 {
            f.add(200 + 20 * k, 12, format!("string{k}"), "char[]", "", Confidence::Proven, "");
            f.add(160 + 6 * k, 6, format!("bones{k}"), "u16[3]", "", Confidence::Proven, "");
        }
        f.add(166, 6, "bones1 again", "u16[3]", "", Confidence::Proven, "");
        let mut want = f.spans.clone();
        want.sort_by_key(|s| (s.start, s.len));
        let mut got = f.spans;
        sort_spans_with(&mut got, None);
        let paths = |v: &[Span]| v.iter().map(|s| s.path.to_string()).collect::<Vec<_>>();
        assert_eq!(paths(&got), paths(&want));
    }

    #[test]
    fn coverage_counts_levels() {
        let (m, _) = map();
        assert_eq!(m.coverage(20), [4, 4, 6, 0]);
    }

    /// Bounds swept as a group from nothing, then added at an offset, count as the same bounds
    /// swept one by one; or the group is refused, sweeping nothing.
    #[test]
    fn a_swept_group_counts_as_its_bounds_or_is_refused() {
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut taken, mut refused) = (0, 0);
        for _ in 0..2000 {
            // Bounds by start, some overlapping, some of no length.
            let mut at = 0;
            let bounds: Vec<(u64, u64, Confidence)> = (0..2 + next(8))
                .map(|_| {
                    at += next(6);
                    (at, next(7), Confidence::ALL[next(4) as usize])
                })
                .collect();
            let split = 1 + next(bounds.len() as u64 - 1) as usize;
            let (head, group) = bounds.split_at(split);
            let (mut one_by_one, mut before) = (Swept::default(), Swept::default());
            for &(start, len, c) in &bounds {
                assert!(one_by_one.add(start, len, c));
            }
            head.iter().for_each(|&(start, len, c)| assert!(before.add(start, len, c)));
            let offset = group[0].0;
            let mut swept = Swept::default();
            group.iter().for_each(|&(start, len, c)| assert!(swept.add(start - offset, len, c)));
            let mut with_group = before;
            if with_group.add_swept(offset, &swept) {
                taken += 1;
                assert_eq!(with_group.totals(), one_by_one.totals(), "{bounds:?} split at {split}");
                // What follows the group sweeps on from it as from its bounds.
                assert_eq!(with_group.add(at, 3, Confidence::Proven), one_by_one.add(at, 3, Confidence::Proven));
                assert_eq!(with_group.totals(), one_by_one.totals());
            } else {
                refused += 1;
                assert_eq!(with_group.totals(), before.totals(), "a refused group sweeps nothing");
            }
        }
        assert!(taken > 500 && refused > 100, "{taken} groups taken, {refused} refused");
    }
}
