//! Records laid out statically: a record whose fields follow from its own bytes alone (a
//! MeshSet's vertex declaration) can be recorded as one placeholder span, `Value::Laid`, and
//! its fields made only when asked. The census walks such a record's parts without a span or
//! a shape node being made for each field; `expand` makes the spans its decoder would have
//! recorded, in the same order.

use crate::short::{PathText, Short};
use crate::show::Kind;
use crate::span::{Confidence, Span, Text, Value};

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

/// The spans of the record laid out at `start` under `path`, with parts `parts` made of its
/// bytes `own`, appended to `out`: `path.group.name` for a field in a group, `path.name` for
/// one directly in it, and a sub-record's under `path.name`.
pub fn expand(path: &PathText, start: u64, own: &[u8], parts: &[Part], out: &mut Vec<Span>) {
    for p in parts {
        if let PartValue::Laid(l) = p.value {
            let sub = PathText::concat(&[path.as_str(), ".", p.name]);
            let Some(sub_own) = own_bytes(own, p.start as u64, p.len as u64) else { continue };
            let mut sub_parts = Vec::new();
            l.0.parts(sub_own, &mut sub_parts);
            expand(&sub, start + p.start as u64, sub_own, &sub_parts, out);
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
