//! One census entry: the streaming distribution of what one field (or one unexplained byte
//! range, count or size) holds across a set of files. Memory is bounded per entry: at most
//! `VALUE_CAP` distinct values are kept with exact counts, each with at most `EXAMPLES`
//! places; records whose value arrives after the cap is full are counted in the tail.

use super::FxMap;
pub use crate::field::decimal;
use crate::short::Short;
use crate::show::{Digits, Kind};
use crate::span::Confidence;
use crate::words::same;

/// Distinct values kept per entry (exact counts); later new values go to the tail.
pub const VALUE_CAP: usize = 1024;
/// Places (file, record, offset) kept per value, for "which files hold this value".
pub const EXAMPLES: usize = 5;

/// What an entry counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryKind {
    /// A decoded field (a span), by its folded path.
    Field,
    /// How many indexed children of one name a record has: `lod[*].section[*]` per LOD.
    Count,
    /// A record's own size: from its first to the end of its last direct field.
    Size,
    /// The element count of an array region.
    RegionCount,
    /// The element stride of an array region.
    RegionStride,
    /// Bytes inside a record that no span covers, per record-relative offset.
    Uncovered,
    /// Bytes of a span whose confidence is Unknown, per record-relative offset.
    Unknown,
}

impl EntryKind {
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Field => "field",
            EntryKind::Count => "count",
            EntryKind::Size => "size",
            EntryKind::RegionCount => "region.count",
            EntryKind::RegionStride => "region.stride",
            EntryKind::Uncovered => "uncovered",
            EntryKind::Unknown => "unknown",
        }
    }

    /// Entries whose values are numbers the census produced (not a decoder's text).
    pub fn numeric(self) -> bool {
        self != EntryKind::Field
    }

    pub fn is_bytes(self) -> bool {
        matches!(self, EntryKind::Uncovered | EntryKind::Unknown)
    }
}

/// Where a value was seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub file: u32,
    /// The record's unfolded path, e.g. `lod[1].section[3]`; empty for the file itself.
    pub record: String,
    /// Absolute offset of the value in the file.
    pub offset: u64,
}

/// Counting a kept value reads its first 40 bytes, declared first (`repr(C)`).
#[derive(Debug, Clone)]
#[repr(C)]
pub struct ValueStats {
    pub count: u64,
    pub files: u64,
    last_file: u32,
    pub num: Option<f64>,
    pub places: Vec<Place>,
}

impl ValueStats {
    /// Counts the value once more, in `file`.
    #[inline(always)]
    fn count_again(&mut self, file: u32) {
        self.count += 1;
        if self.last_file != file {
            self.last_file = file;
            self.files += 1;
        }
    }
}

/// A field's value as its bytes and the kind they are shown as (`Entry::add_bytes`).
#[derive(Clone, Copy)]
pub struct BytesValue<'b> {
    /// The code in plans of the kind they are shown as (`show::Kind::code`), which also
    /// keys the bytes: the kind is made only to show a value not seen before. A code no kind
    /// has shows as empty text.
    pub code: u8,
    pub bytes: &'b [u8],
    /// Whether the field's type is a flags type (`parse_number`).
    pub flags: bool,
}

/// Up to this many bytes of a value are a key to its kept text inline (`RawKey`).
const RAW_KEY_BYTES: usize = 22;
/// Up to this many are a key on the heap (`Entry::raw_long`): runs of unused declaration
/// slots, a bone's bounds. Longer values are found by their text.
const LONG_KEY_BYTES: usize = 96;

/// A value's kind code and bytes, inline: what finds its kept text without making it. Three
/// little-endian words of the bytes, zero past their length, with the code and the length in
/// the last word's top two bytes; made in registers, since a key copied into memory byte by
/// byte and read back as words stalls every comparison and hash after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RawKey([u64; 3]);

impl RawKey {
    fn new(code: u8, b: &[u8]) -> Option<RawKey> {
        if b.len() > RAW_KEY_BYTES {
            return None;
        }
        let word = |at: usize| match b.get(at..at + 8) {
            Some(w) => u64::from_le_bytes(w.try_into().unwrap_or_default()),
            None => crate::fx::tail_word(b.get(at..).unwrap_or_default()),
        };
        let top = u64::from(code) << 48 | (b.len() as u64) << 56;
        Some(RawKey([word(0), word(8), word(16) | top]))
    }
}

impl std::hash::Hash for RawKey {
    /// The three words: keys are hashed on every value that is not its entry's last.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.iter().for_each(|&w| h.write_u64(w));
    }
}

/// The key of a value too long for a `RawKey` (`Entry::raw_long`), written into `buf`: its
/// code, then its bytes; `None` past `LONG_KEY_BYTES`.
fn long_key<'k>(value: BytesValue, buf: &'k mut [u8; 1 + LONG_KEY_BYTES]) -> Option<&'k [u8]> {
    let key = buf.get_mut(..1 + value.bytes.len())?;
    key[0] = value.code;
    key[1..].copy_from_slice(value.bytes);
    Some(key)
}

/// What counting a value by its text did: its number, and its index if it is kept.
struct Counted {
    num: Option<f64>,
    kept: Option<usize>,
}

/// The fields counting reads for every value come first, in declaration order (`repr(C)`),
/// and an entry starts on a cache line: a number counted again touches the entry's first
/// line alone (and its second once a file), a value given as bytes or text its second or
/// third too, where the same fields spread over six lines before.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub struct Entry {
    pub records: u64,
    /// The index of the value the last record held: most entries hold runs of one value,
    /// which then cost a comparison instead of a hash. Its text and number are kept here
    /// too, beside the counters, so that comparing touches no other memory.
    last: u32,
    last_file: u32,
    /// Record-relative offset: always for byte entries; for fields while it is the same in
    /// every record (`offset_varies` says when it was not).
    pub offset: Option<u64>,
    /// The last value's number; NaN where it has none (a value's number is finite).
    last_num: f64,
    /// The kept values in the order they first came, found by `index`; inline text, like
    /// the spans' values they come from.
    pub values: Vec<(Short, ValueStats)>,
    pub files: u64,
    /// A kind code and bytes whose text is the last value's, when it came as bytes.
    last_raw: Option<RawKey>,
    pub offset_varies: bool,
    /// `min` and `max` are over every value that is a number, tail included.
    pub min: f64,
    pub max: f64,
    /// Bytes per value: 1 or 4 for byte entries, the span length for fields.
    pub width: u64,
    /// `None` when the last value's text is long (on the heap): it is compared with the
    /// kept value then, not copied at every change.
    last_text: Option<Short>,
    /// Records whose value was new after `VALUE_CAP` distinct values were kept.
    pub tail_records: u64,
    /// The tail's records whose value is a number (`numbers` counts the kept values' from
    /// their counts).
    tail_numbers: u64,
    index: FxMap<Short, u32>,
    /// Kept values by kind code and bytes, for values given as bytes (`add_bytes`): at most
    /// `VALUE_CAP` of them, each naming the value its text is.
    raw: FxMap<RawKey, u32>,
    /// The same for values too long for a `RawKey`: the key is the code, then the bytes.
    raw_long: FxMap<Box<[u8]>, u32>,
    /// The format's name: files of different formats never share an entry.
    pub format: &'static str,
    pub kind: EntryKind,
    /// The census's id of `(format, record)`.
    pub kind_id: usize,
    /// Folded path; for byte entries the record kind and offset, `header+0x0c`.
    pub path: String,
    /// The folded kind of record this entry lives in; empty for the file itself.
    pub record: String,
    pub ty: String,
    pub confidence: Option<Confidence>,
}

impl Entry {
    pub fn new(kind: EntryKind, path: String, record: String, ty: String) -> Entry {
        Entry {
            format: "",
            kind,
            kind_id: 0,
            path,
            record,
            offset: None,
            offset_varies: false,
            width: 0,
            ty,
            confidence: None,
            files: 0,
            last_file: u32::MAX,
            records: 0,
            values: Vec::new(),
            index: FxMap::default(),
            raw: FxMap::default(),
            raw_long: FxMap::default(),
            last: 0,
            last_text: None,
            last_num: f64::NAN,
            last_raw: None,
            tail_records: 0,
            tail_numbers: 0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }

    /// Counts one record's value and returns it as a number, if it is one. `num` parses
    /// the value; it runs only for a value not seen before. `rel` is the value's offset
    /// inside its record, for entries that have one.
    pub fn add(
        &mut self,
        value: &str,
        num: impl FnOnce() -> Option<f64>,
        rel: Option<u64>,
        place: impl FnOnce() -> Place,
        file: u32,
    ) -> Option<f64> {
        self.count_record(rel, file);
        self.count_text(value, num, place, file).num
    }

    /// `add` for a value given as bytes shown as `kind` (`show::Kind::show`, its code
    /// `code`): a value whose bytes were seen before is found by them, its text not made
    /// again. Values are told apart by text all the same, so this counts as `add` of the
    /// text would.
    pub fn add_bytes(
        &mut self,
        value: BytesValue,
        rel: Option<u64>,
        place: impl FnOnce() -> Place,
        file: u32,
    ) -> Option<f64> {
        self.count_record(rel, file);
        let key = RawKey::new(value.code, value.bytes);
        if let Some(k) = key {
            let last = self.last_raw.as_ref().is_some_and(|l| *l == k).then_some(self.last_index());
            if let Some(i) = last.or_else(|| self.raw.get(&k).map(|&i| i as usize)).filter(|&i| i < self.values.len()) {
                let num = self.count_kept(i, place, file);
                self.last_raw = Some(k);
                return num;
            }
        }
        let mut buf = [0u8; 1 + LONG_KEY_BYTES];
        let long_key = if key.is_none() { long_key(value, &mut buf) } else { None };
        if let Some(&i) = long_key.and_then(|k| self.raw_long.get(k)).filter(|&&i| (i as usize) < self.values.len()) {
            return self.count_kept(i as usize, place, file);
        }
        let text = Kind::from_code(value.code).map_or_else(|| Short::from(""), |k| k.show(value.bytes));
        let counted = self.count_text(&text, || parse_number(value.flags, &text), place, file);
        let Some(i) = counted.kept else { return counted.num };
        if let Some(k) = key {
            // `last` is the value just counted.
            if self.raw.len() < VALUE_CAP {
                self.raw.insert(k, i as u32);
            }
            self.last_raw = Some(k);
        } else if let Some(k) = long_key.filter(|_| self.raw_long.len() < VALUE_CAP) {
            self.raw_long.insert(k.into(), i as u32);
        }
        counted.num
    }

    /// Counts a record in the entry: its offset, the record and its file.
    #[inline(always)]
    fn count_record(&mut self, rel: Option<u64>, file: u32) {
        if self.records == 0 {
            self.offset = rel;
        } else if self.offset != rel {
            self.offset_varies = true;
        }
        self.records += 1;
        if self.last_file != file {
            self.last_file = file;
            self.files += 1;
        }
    }

    /// Counts a value of a record `count_record` counted, by its text.
    fn count_text(
        &mut self,
        value: &str,
        num: impl FnOnce() -> Option<f64>,
        place: impl FnOnce() -> Place,
        file: u32,
    ) -> Counted {
        let last_is = |e: &Entry| match &e.last_text {
            Some(t) => same(t.as_str(), value),
            None => e.values.get(e.last_index()).is_some_and(|(k, _)| same(k.as_str(), value)),
        };
        let at = if self.last_index() < self.values.len() && last_is(self) {
            Some(self.last_index())
        } else {
            self.index.get(value).map(|&i| i as usize)
        };
        if let Some(i) = at.filter(|&i| i < self.values.len()) {
            return Counted { num: self.count_kept(i, place, file), kept: Some(i) };
        }
        let num = num();
        self.bound(num);
        if self.values.len() >= VALUE_CAP {
            self.tail_records += 1;
            self.tail_numbers += u64::from(num.is_some_and(f64::is_finite));
            return Counted { num, kept: None };
        }
        let mut places = Vec::with_capacity(EXAMPLES);
        places.push(place());
        let stats = ValueStats { count: 1, files: 1, last_file: file, num, places };
        let value = Short::from(value);
        self.index.insert(value.clone(), self.values.len() as u32);
        self.last = self.values.len() as u32;
        self.last_text = value.inline();
        self.last_num = num.unwrap_or(f64::NAN);
        self.last_raw = None;
        self.values.push((value, stats));
        Counted { num, kept: Some(self.last_index()) }
    }

    /// Counts kept value `i` (a valid index) once more; returns its number.
    #[inline(always)]
    fn count_kept(&mut self, i: usize, place: impl FnOnce() -> Place, file: u32) -> Option<f64> {
        let (k, v) = self.values.get_mut(i)?;
        if self.last as usize != i {
            // `i` is below `VALUE_CAP`.
            self.last = i as u32;
            self.last_text = k.inline();
            self.last_num = v.num.unwrap_or(f64::NAN);
            self.last_raw = None;
        }
        // `places` holds the first `EXAMPLES` records' places: its length is the count's.
        if v.count < EXAMPLES as u64 {
            v.places.push(place());
        }
        v.count_again(file);
        // The value's number was bounded when it was first kept.
        v.num
    }

    /// Widens `min` and `max` to a new value's number, where it is one.
    #[inline(always)]
    fn bound(&mut self, num: Option<f64>) {
        if let Some(n) = num.filter(|n| n.is_finite()) {
            self.min = self.min.min(n);
            self.max = self.max.max(n);
        }
    }

    /// `add` for the census's own numbers (counts, sizes, unexplained bytes), whose text is
    /// their decimal: a run of one number is counted without writing or comparing its text.
    #[inline]
    pub fn add_number(&mut self, n: u64, rel: Option<u64>, place: impl FnOnce() -> Place, file: u32) {
        // Inline, the common case: the last value again, in a record at the same offset,
        // its places listed already. `count_record` and `count_kept` would do just this.
        if self.records > 0 && self.offset == rel && self.last_num == n as f64 {
            let last = self.last_index();
            if let Some((_, v)) = self.values.get_mut(last).filter(|(_, v)| v.count >= EXAMPLES as u64) {
                v.count_again(file);
                self.count_record(rel, file);
                return;
            }
        }
        self.add_number_again(n, rel, place, file);
    }

    /// `add_number` out of line, for every other case.
    #[inline(never)]
    fn add_number_again(&mut self, n: u64, rel: Option<u64>, place: impl FnOnce() -> Place, file: u32) {
        let x = n as f64;
        let same =
            self.records > 0 && self.offset == rel && self.last_index() < self.values.len() && self.last_num == x;
        if !same {
            self.add(decimal(n, &mut Digits::new()), || Some(x), rel, place, file);
            return;
        }
        // The last value's number is `x`: counting it again counts `x`.
        self.count_record(rel, file);
        self.count_kept(self.last_index(), place, file);
    }

    /// `last` as an index into `values`.
    #[inline(always)]
    fn last_index(&self) -> usize {
        self.last as usize
    }

    /// Records whose value is a number, tail included: a kept value's records all hold its
    /// number, so they are summed here rather than counted one by one.
    pub fn numbers(&self) -> u64 {
        let kept: u64 =
            self.values.iter().filter(|(_, v)| v.num.is_some_and(f64::is_finite)).map(|(_, v)| v.count).sum();
        kept + self.tail_numbers
    }

    /// Whether every record held the same value (and at least one record was seen).
    pub fn constant(&self) -> bool {
        self.values.len() == 1 && self.tail_records == 0
    }

    /// The kept values, most frequent first; ties put numbers first, in numeric order, then
    /// the rest, and equal numbers (`16`, `0x10`) by text. Each step is a total order and
    /// the texts are distinct, so the whole is one (a mixed "numbers, else text" is not).
    pub fn sorted_values(&self) -> Vec<(&Short, &ValueStats)> {
        let mut v: Vec<_> = self.values.iter().map(|(k, v)| (k, v)).collect();
        v.sort_by(|a, b| {
            b.1.count
                .cmp(&a.1.count)
                .then_with(|| match (a.1.num, b.1.num) {
                    (Some(x), Some(y)) => x.total_cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                })
                .then_with(|| a.0.as_str().cmp(b.0.as_str()))
        });
        v
    }
}

/// Whether a field's type is a flags type (`u8 flags`), whose `0x5 (a | c)` text is a
/// number. A plain scan: types are a few bytes, too short for a substring searcher to pay.
pub fn is_flags(ty: &str) -> bool {
    ty.as_bytes().windows(5).any(|w| w == b"flags")
}

/// A field's value as a number, where its text is one: `12`, `-3.5`, `0x1f`, or, for a
/// field of a flags type, flags shown as `0x5 (a | c)`. Vectors, strings and hex dumps are
/// not numbers.
pub fn parse_number(flags: bool, value: &str) -> Option<f64> {
    let head = value.split(' ').next().unwrap_or("");
    if let Some(h) = head.strip_prefix("0x") {
        if flags || value.len() == head.len() {
            return u64::from_str_radix(h, 16).ok().map(|n| n as f64);
        }
        return None;
    }
    if head.len() != value.len() {
        return None;
    }
    value.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(file: u32) -> Place {
        Place { file, record: String::new(), offset: 0 }
    }

    #[test]
    fn counts_files_records_and_caps_distinct_values() {
        let mut e = Entry::new(EntryKind::Field, "a".into(), String::new(), "u32".into());
        for file in 0..3u32 {
            for _ in 0..2 {
                e.add("7", || Some(7.0), Some(4), || place(file), file);
            }
        }
        assert_eq!((e.files, e.records), (3, 6));
        assert!(e.constant());
        assert_eq!(e.values[0].0, "7");
        assert_eq!(e.values[0].1.files, 3);
        assert_eq!(e.values[0].1.places.len(), EXAMPLES);
        for i in 0..(VALUE_CAP as u64 + 10) {
            e.add(&i.to_string(), || Some(i as f64), Some(8), || place(9), 9);
        }
        assert_eq!(e.values.len(), VALUE_CAP);
        // "7" is kept already: 1033 new values arrive, 1023 fit.
        assert_eq!(e.tail_records, 10);
        assert_eq!((e.min, e.max), (0.0, (VALUE_CAP + 9) as f64));
        assert!(e.offset_varies);
        assert!(!e.constant());
        // Kept and tail records that are numbers, and none of those that are not.
        for (i, text) in ["x", "7", "y", "x", "1e999"].into_iter().enumerate() {
            e.add(text, || parse_number(false, text), Some(8), || place(10), 10 + i as u32);
        }
        assert_eq!(e.numbers(), 6 + VALUE_CAP as u64 + 10 + 1);
        assert_eq!(e.records, 6 + VALUE_CAP as u64 + 10 + 5);
    }

    #[test]
    fn long_values_are_told_apart_and_found_again() {
        // Texts past the inline size are compared with the kept value, not a copy.
        let (a, b) = ("00 ".repeat(20), "00 ".repeat(19) + "01 ");
        let mut e = Entry::new(EntryKind::Field, "u".into(), String::new(), "u8[]".into());
        for (k, v) in [a.as_str(), &a, &b, &a, "7", &b, &b].into_iter().enumerate() {
            e.add(v, || None, Some(0), || place(k as u32), k as u32);
        }
        let got: Vec<(&str, u64, u64)> = e.values.iter().map(|(t, v)| (t.as_str(), v.count, v.files)).collect();
        assert_eq!(got, [(a.as_str(), 3, 3), (b.as_str(), 3, 3), ("7", 1, 1)]);
        assert_eq!(e.records, 7);
    }

    #[test]
    fn a_number_counted_by_value_is_counted_as_its_text() {
        let (mut a, mut b) = (
            Entry::new(EntryKind::Size, "s".into(), String::new(), "size".into()),
            Entry::new(EntryKind::Size, "s".into(), String::new(), "size".into()),
        );
        for (i, n) in [4u64, 4, 4, 7, 4, 4, 12, 12, 0].into_iter().enumerate() {
            let file = i as u32 / 3;
            a.add_number(n, Some(8), || place(file), file);
            b.add(&n.to_string(), || Some(n as f64), Some(8), || place(file), file);
        }
        a.add_number(4, Some(9), || place(5), 5);
        b.add("4", || Some(4.0), Some(9), || place(5), 5);
        let show = |e: &Entry| {
            format!("{:?}", (e.records, e.files, e.numbers(), e.min, e.max, e.offset, e.offset_varies, &e.values))
        };
        assert_eq!(show(&a), show(&b));
        assert_eq!(a.values[0].1.count, 6);
        // Long runs of one number (counted inline once its places are listed), the file
        // changing inside a run, and the offset now and then.
        let mut x = 7u32;
        for i in 0..2_000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let n = u64::from(i / 40 % 3) * 16;
            let (file, rel) = (6 + i / 7, Some(if x.is_multiple_of(50) { 12 } else { 8 }));
            a.add_number(n, rel, || place(file), file);
            b.add(&n.to_string(), || Some(n as f64), rel, || place(file), file);
        }
        assert_eq!(show(&a), show(&b));
        let runs: Vec<u64> =
            a.values.iter().filter(|(t, _)| ["0", "16", "32"].contains(&t.as_str())).map(|(_, v)| v.count).collect();
        assert!(runs.len() == 3 && runs.iter().all(|&c| c > 600), "{runs:?}");
    }

    #[test]
    fn values_given_as_bytes_count_as_their_text() {
        // Distinct bytes of one text (two NaNs; hex past its shown 64 bytes; a text past the
        // key's bytes), bytes and text of one value mixed, and runs: all as `add` of the text.
        let nan = |bits: u32| bits.to_le_bytes().to_vec();
        let long = |last: u8| [vec![7; 70], vec![last]].concat();
        let values: Vec<(Kind, Vec<u8>)> = vec![
            (Kind::Float, nan(0x7fc0_0000)),
            (Kind::Float, nan(0x7fc0_0001)),
            (Kind::Float, 1.5f32.to_le_bytes().to_vec()),
            (Kind::Float, nan(0x7fc0_0001)),
            (Kind::Float, nan(0x7fc0_0001)),
            (Kind::Hex, long(1)),
            (Kind::Hex, long(2)),
            (Kind::Text, b"a name longer than twenty-two bytes".to_vec()),
            (Kind::Text, b"a name longer than twenty-two bytes".to_vec()),
            (Kind::Unsigned, vec![9, 0, 0, 0]),
            (Kind::Float, nan(0x7fc0_0000)),
            // One run of bytes as two kinds, and bytes past what a key holds.
            (Kind::Hex, b"a name longer than twenty-two bytes".to_vec()),
            (Kind::Hex, b"a name longer than twenty-two bytes".to_vec()),
            (Kind::Hex, vec![7; 100]),
            (Kind::Hex, vec![7; 100]),
            (Kind::Hex, long(1)),
        ];
        let (mut a, mut b) = (
            Entry::new(EntryKind::Field, "v".into(), String::new(), "f32".into()),
            Entry::new(EntryKind::Field, "v".into(), String::new(), "f32".into()),
        );
        for (i, (kind, bytes)) in values.iter().enumerate() {
            let file = i as u32 / 2;
            let text = kind.show(bytes);
            // Every third value comes as text on the bytes side too.
            if i % 3 == 2 {
                a.add(&text, || parse_number(false, &text), Some(0), || place(file), file);
            } else {
                let code = kind.code().unwrap();
                let v = BytesValue { code, bytes, flags: false };
                a.add_bytes(v, Some(0), || place(file), file);
            }
            b.add(&text, || parse_number(false, &text), Some(0), || place(file), file);
        }
        let show = |e: &Entry| {
            format!("{:?}", (e.records, e.files, e.numbers(), e.min, e.max, e.offset, e.tail_records, &e.values))
        };
        assert_eq!(show(&a), show(&b));
        let got: Vec<(&str, u64)> = a.values.iter().map(|(t, v)| (t.as_str(), v.count)).collect();
        let hex = crate::show::Kind::Hex.show(&long(1));
        let name = "a name longer than twenty-two bytes";
        let (name_hex, cut) = (Kind::Hex.show(name.as_bytes()), Kind::Hex.show(&[7; 100]));
        let want = [("NaN", 5), ("1.5", 1), (hex.as_str(), 3), (name, 2), ("9", 1), (&name_hex, 2), (&cut, 2)];
        assert_eq!(got, want);
        // The long values that came as bytes are keyed by them: the name as text and as hex,
        // and both hex runs of 71 bytes; not the 100 bytes, past what a key holds.
        assert_eq!(a.raw_long.len(), 4);
    }

    #[test]
    fn a_raw_key_is_its_code_length_and_bytes_at_every_length() {
        let bytes: Vec<u8> = (1..=23).collect();
        for n in 0..=RAW_KEY_BYTES {
            let b = &bytes[..n];
            let k = RawKey::new(3, b).unwrap();
            // The words are the bytes in order, zero past them, then the code and length.
            let mut want = [0u8; 24];
            want[..n].copy_from_slice(b);
            (want[22], want[23]) = (3, n as u8);
            let got: Vec<u8> = k.0.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(got, want, "{n} bytes");
            // The same bytes elsewhere in memory make the same key.
            let copy = b.to_vec();
            assert_eq!(k, RawKey::new(3, &copy).unwrap());
            assert_ne!(k, RawKey::new(4, b).unwrap(), "the code counts");
            // A trailing zero byte is part of the value: "ab" and "ab\0" differ.
            let padded = [b, &[0]].concat();
            if padded.len() <= RAW_KEY_BYTES {
                assert_ne!(k, RawKey::new(3, &padded).unwrap(), "{n} bytes and a zero");
            }
        }
        assert!(RawKey::new(3, &bytes).is_none(), "23 bytes are past a key");
    }

    #[test]
    fn values_of_mixed_kinds_sort_in_one_total_order() {
        // Numbers, texts and equal numbers in another spelling, all counted once: the old
        // "numerically if both are numbers, else as text" order had 3 < "a" < 20 < 3 cycles.
        let mut e = Entry::new(EntryKind::Field, "v".into(), String::new(), "u32 flags".into());
        let texts = ["20", "a", "3", "0x10", "16", "b", "-1", "0x3", "1e1", "nope"];
        for (i, t) in texts.into_iter().enumerate() {
            e.add(t, || parse_number(true, t), Some(0), || place(i as u32), i as u32);
        }
        e.add("b", || None, Some(0), || place(20), 20);
        let got: Vec<&str> = e.sorted_values().iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(got, ["b", "-1", "0x3", "3", "1e1", "0x10", "16", "20", "a", "nope"]);
    }

    #[test]
    fn numbers_are_parsed_only_where_the_text_is_one() {
        assert_eq!(parse_number(false, "12"), Some(12.0));
        assert_eq!(parse_number(false, "-3.5"), Some(-3.5));
        assert_eq!(parse_number(true, "0x5 (a | c)"), Some(5.0));
        assert_eq!(parse_number(false, "0x5 (a | c)"), None, "only a flags type's text");
        assert!(is_flags("u8 flags") && is_flags("flags") && is_flags("u32 flags (bits)"));
        assert!(!is_flags("u32") && !is_flags("flag") && !is_flags(""));
        assert_eq!(parse_number(false, "0x1f"), Some(31.0));
        assert_eq!(parse_number(false, "[1, 2, 3]"), None);
        assert_eq!(parse_number(false, "EPLY"), None);
        assert_eq!(parse_number(false, "00 01"), None);
        assert_eq!(parse_number(false, "NaN"), None);
        let mut buf = Digits::new();
        for n in [0, 7, 10, 4096, u64::MAX] {
            assert_eq!(decimal(n, &mut buf), n.to_string());
        }
    }
}
