//! Read-and-record: each call reads one field through the cursor, records its span with
//! the field's path and confidence, and returns the value. A failed read names the field.

use crate::error::{Error, ErrorKind, Result};
use crate::read::Reader;
use crate::short::{PathText, Short};
use crate::show::flag_names;
use crate::show::Kind;
/// The value formatters, where the formats have always found them.
pub use crate::show::{decimal, hex2, show_floats, show_hex, show_hex_cut, show_text, Digits};
use crate::span::{Confidence, Fields, Text, Value};

/// A value type a field can have: how to read it, what to call it, how to show it.
pub trait FieldType: Sized {
    const NAME: &'static str;
    /// How the value's bytes show, when that is exactly as `show` shows the value: then a
    /// span read from the file keeps the kind and makes the text only when it is shown.
    const KIND: Option<Kind> = None;
    fn read(r: &mut Reader) -> Result<Self>;
    fn show(&self) -> Short;
}

/// `show` is how the value becomes text: unsigned integers go through `decimal`, the rest
/// through `Display`; neither allocates.
macro_rules! scalar {
    ($t:ty, $m:ident, $name:expr, $kind:expr, $show:expr) => {
        impl FieldType for $t {
            const NAME: &'static str = $name;
            const KIND: Option<Kind> = Some($kind);
            fn read(r: &mut Reader) -> Result<Self> {
                r.$m()
            }
            fn show(&self) -> Short {
                $show(self)
            }
        }
    };
}
fn show_unsigned(v: impl Into<u64>) -> Short {
    Short::concat(&[decimal(v.into(), &mut Digits::new())])
}
scalar!(u8, u8, "u8", Kind::Unsigned, |v: &u8| show_unsigned(*v));
scalar!(i8, i8, "i8", Kind::Signed, Short::display);
scalar!(u16, u16, "u16", Kind::Unsigned, |v: &u16| show_unsigned(*v));
scalar!(i16, i16, "i16", Kind::Signed, Short::display);
scalar!(u32, u32, "u32", Kind::Unsigned, |v: &u32| show_unsigned(*v));
scalar!(i32, i32, "i32", Kind::Signed, Short::display);
scalar!(u64, u64, "u64", Kind::Unsigned, |v: &u64| show_unsigned(*v));
scalar!(f32, f32, "f32", Kind::Float, Short::display);
scalar!(f64, f64, "f64", Kind::Float, Short::display);

macro_rules! float_array {
    ($n:expr, $name:expr) => {
        impl FieldType for [f32; $n] {
            const NAME: &'static str = $name;
            const KIND: Option<Kind> = Some(Kind::Floats);
            fn read(r: &mut Reader) -> Result<Self> {
                r.f32x::<$n>()
            }
            fn show(&self) -> Short {
                show_floats(self).into()
            }
        }
    };
}
float_array!(2, "f32[2]");
float_array!(3, "f32[3]");
float_array!(4, "f32[4]");

macro_rules! byte_array {
    ($n:expr, $name:expr) => {
        impl FieldType for [u8; $n] {
            const NAME: &'static str = $name;
            const KIND: Option<Kind> = Some(Kind::List { width: 1 });
            fn read(r: &mut Reader) -> Result<Self> {
                r.array::<$n>()
            }
            fn show(&self) -> Short {
                format!("{:?}", self).into()
            }
        }
    };
}
byte_array!(2, "u8[2]");
byte_array!(3, "u8[3]");
byte_array!(4, "u8[4]");

/// The type of `n` bytes, `u8[n]`: a static text for the short arrays most fields are.
fn byte_array_type(n: usize) -> Text {
    const SHORT: [&str; 17] = [
        "u8[0]", "u8[1]", "u8[2]", "u8[3]", "u8[4]", "u8[5]", "u8[6]", "u8[7]", "u8[8]", "u8[9]", "u8[10]", "u8[11]",
        "u8[12]", "u8[13]", "u8[14]", "u8[15]", "u8[16]",
    ];
    SHORT.get(n).map_or_else(|| format!("u8[{n}]").into(), |&s| s.into())
}

/// An array read as far as whole elements go (`Fields::elements`).
#[derive(Debug)]
pub struct Taken<'a> {
    /// The whole elements' bytes.
    pub bytes: &'a [u8],
    /// Whole elements there: the stored count, or fewer when the bytes ran out.
    pub count: u64,
    /// When the bytes ran out: the error, at the first missing byte.
    pub cut: Option<Error>,
}

impl Fields {
    /// Reads a `T` at the cursor and records it as `path`.
    pub fn read<T: FieldType>(
        &mut self,
        r: &mut Reader,
        path: impl Into<PathText>,
        confidence: Confidence,
        note: &'static str,
    ) -> Result<T> {
        let start = r.offset();
        let path = path.into();
        let v = T::read(r).map_err(|e| e.at_path(&path))?;
        let len = r.offset() - start;
        let value = match T::KIND {
            Some(k) if self.of_file(r, len) => Value::Of(k),
            _ => v.show().into(),
        };
        self.add(start, len, path, T::NAME, value, confidence, note);
        Ok(v)
    }

    /// The value of the `len` bytes just read through `r`, to record (`add`) with them: their
    /// kind when they are the file's (`of_file`), else the text `show` makes of them.
    pub fn value_of(&mut self, r: &Reader, len: u64, kind: Kind, show: impl FnOnce() -> String) -> Value {
        if self.of_file(r, len) {
            Value::Of(kind)
        } else {
            show().into()
        }
    }

    /// Reads an integer bit mask and shows its bits by name.
    pub fn flags<T: FieldType + Copy + Into<u64>>(
        &mut self,
        r: &mut Reader,
        path: impl Into<PathText>,
        names: &'static [(u64, &'static str)],
        confidence: Confidence,
        note: &'static str,
    ) -> Result<T> {
        let start = r.offset();
        let path = path.into();
        let v = T::read(r).map_err(|e| e.at_path(&path))?;
        let len = r.offset() - start;
        let value = self.value_of(r, len, Kind::Flags(names), || flag_names(v.into(), names));
        // The common types' names are literals, so recording one allocates no type name.
        let ty: Text = match T::NAME {
            "u8" => "u8 flags".into(),
            "u16" => "u16 flags".into(),
            "u32" => "u32 flags".into(),
            name => format!("{name} flags").into(),
        };
        self.add(start, len, path, ty, value, confidence, note);
        Ok(v)
    }

    /// Reads `n` raw bytes and records them as one span shown in hex.
    pub fn bytes<'a>(
        &mut self,
        r: &mut Reader<'a>,
        n: usize,
        path: impl Into<PathText>,
        confidence: Confidence,
        note: &'static str,
    ) -> Result<&'a [u8]> {
        let start = r.offset();
        let path = path.into();
        let b = r.bytes(n).map_err(|e| e.at_path(&path))?;
        let value = self.value_of(r, n as u64, Kind::Hex, || show_hex_cut(b));
        self.add(start, n as u64, path, byte_array_type(n), value, confidence, note);
        Ok(b)
    }

    /// Reads a four-character code and records it as text.
    pub fn fourcc(
        &mut self,
        r: &mut Reader,
        path: impl Into<PathText>,
        confidence: Confidence,
        note: &'static str,
    ) -> Result<[u8; 4]> {
        let start = r.offset();
        let path = path.into();
        let v = r.array::<4>().map_err(|e| e.at_path(&path))?;
        let value = self.value_of(r, 4, Kind::Text, || show_text(&v));
        self.add(start, 4, path, "fourcc", value, confidence, note);
        Ok(v)
    }

    /// Reads a name stored as a u8 length and that many bytes: two spans, length and text.
    pub fn string8(
        &mut self,
        r: &mut Reader,
        path: &str,
        confidence: Confidence,
        note: &'static str,
    ) -> Result<String> {
        let len_path = format!("{path}.length");
        let n: u8 = self.read(r, &len_path, confidence, note)?;
        let start = r.offset();
        let b = r.bytes(n as usize).map_err(|e| e.at_path(path))?;
        let text = String::from_utf8_lossy(b).into_owned();
        let value = self.value_of(r, n as u64, Kind::Text, || show_text(b));
        self.add(start, n as u64, format!("{path}.text"), "char[]", value, confidence, note);
        Ok(text)
    }
    /// Takes `count` elements of `stride` bytes at `path`, or, when the reader holds fewer,
    /// every whole element there and the bytes after them: those (the last element, cut) are
    /// a span of their own, `path[i]` typed `u8[n] cut`, and `Taken::cut` is the error at the
    /// first missing byte. The caller records the whole elements (a region of `Taken::count`).
    pub fn elements<'a>(&mut self, r: &mut Reader<'a>, count: u64, stride: u64, path: &str) -> Taken<'a> {
        let left = r.remaining() as u64;
        let whole = left.checked_div(stride).map_or(count, |n| count.min(n));
        // `whole * stride <= left`, a usize, so neither step below can fail.
        let len = (whole * stride) as usize;
        let bytes = r.bytes(len).unwrap_or_default();
        if whole == count {
            return Taken { bytes, count, cut: None };
        }
        let at = r.offset();
        let rest = r.remaining();
        let tail = r.bytes(rest).unwrap_or_default();
        let item = format!("{path}[{whole}]");
        if rest > 0 {
            let note = format!("cut short: the file ends {rest} of {stride} bytes into element {whole} of {count}");
            self.add(
                at,
                rest as u64,
                item.clone(),
                format!("u8[{rest}] cut"),
                show_hex(tail),
                Confidence::Unknown,
                note,
            );
        }
        let needed = count.saturating_mul(stride).saturating_sub(len as u64);
        let kind = ErrorKind::Truncated { needed, available: rest as u64 };
        Taken { bytes, count: whole, cut: Some(Error::new(at + rest as u64, item, kind)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_records_the_span_and_names_errors() {
        let mut file = vec![0u8; 16];
        file.extend_from_slice(&[7u8, 0, 0, 0, 3, b'a', b'<', b'\n', 1]);
        let mut r = Reader::with_base(&file[16..], 16);
        let mut f = Fields::over(&file);
        let v: u32 = f.read(&mut r, "h.count", Confidence::Proven, "n").unwrap();
        assert_eq!(v, 7);
        let s = f.string8(&mut r, "h.name", Confidence::Observed, "").unwrap();
        assert_eq!(s, "a<\n");
        assert_eq!(f.spans[0].start, 16);
        let texts: Vec<_> = f.spans.iter().map(|s| s.text(&file).to_string()).collect();
        assert_eq!(texts, ["7", "3", "a<\\x0a"]);
        assert_eq!(f.spans[2].value, Value::Of(Kind::Text), "the text waits until it is shown");
        assert_eq!(f.spans[2].path, "h.name.text");
        let e = f.read::<u16>(&mut r, "h.tail", Confidence::Proven, "").unwrap_err();
        assert_eq!(e.path, "h.tail");
        assert_eq!(e.offset, 24);
    }

    /// Reads every kind of field from `file` twice: once as the file's (the span keeps the
    /// kind) and once into fields over no file (the span keeps the text `show` made).
    fn both_ways(file: &[u8]) -> (Fields, Fields) {
        fn read_all(f: &mut Fields, file: &[u8]) {
            const NAMES: [(u64, &str); 2] = [(1, "one"), (0x80, "top")];
            let mut r = Reader::new(file);
            let _ = f.read::<u8>(&mut r, "u8", Confidence::Proven, "");
            let _ = f.read::<i8>(&mut r, "i8", Confidence::Proven, "");
            let _ = f.read::<u16>(&mut r, "u16", Confidence::Proven, "");
            let _ = f.read::<i16>(&mut r, "i16", Confidence::Proven, "");
            let _ = f.read::<u32>(&mut r, "u32", Confidence::Proven, "");
            let _ = f.read::<i32>(&mut r, "i32", Confidence::Proven, "");
            let _ = f.read::<u64>(&mut r, "u64", Confidence::Proven, "");
            let _ = f.read::<f32>(&mut r, "f32", Confidence::Proven, "");
            let _ = f.read::<f64>(&mut r, "f64", Confidence::Proven, "");
            let _ = f.read::<[f32; 2]>(&mut r, "f32x2", Confidence::Proven, "");
            let _ = f.read::<[f32; 3]>(&mut r, "f32x3", Confidence::Proven, "");
            let _ = f.read::<[f32; 4]>(&mut r, "f32x4", Confidence::Proven, "");
            let _ = f.read::<[u8; 3]>(&mut r, "u8x3", Confidence::Proven, "");
            let _ = f.flags::<u8>(&mut r, "flags8", &NAMES, Confidence::Proven, "");
            let _ = f.flags::<u32>(&mut r, "flags32", &NAMES, Confidence::Proven, "");
            let _ = f.fourcc(&mut r, "fourcc", Confidence::Proven, "");
            let _ = f.bytes(&mut r, 3, "hex", Confidence::Proven, "");
            let _ = f.bytes(&mut r, 70, "long hex", Confidence::Proven, "");
            let _ = f.string8(&mut r, "name", Confidence::Proven, "");
        }
        let mut lazy = Fields::over(file);
        read_all(&mut lazy, file);
        let mut eager = Fields::default();
        read_all(&mut eager, file);
        (lazy, eager)
    }

    #[test]
    fn a_kind_shows_the_bytes_as_the_value_read_from_them_shows() {
        let patterns: [fn(usize) -> u8; 5] = [
            |i| i as u8,
            |i| 0xff - i as u8,
            |i| (i as u8).wrapping_mul(37).wrapping_add(0x80),
            |_| 0,
            |i| [0x00, 0x00, 0xc0, 0x7f, 0x01, 0x80, 0x80, 0xff][i % 8],
        ];
        for p in patterns {
            let mut file: Vec<u8> = (0..170).map(p).collect();
            file[155] = 5; // the name's length, so that its text is in the file
            let (lazy, eager) = both_ways(&file);
            assert_eq!(lazy.spans.len(), 20, "every field read");
            assert_eq!(lazy.spans.len(), eager.spans.len());
            for (l, e) in lazy.spans.iter().zip(&eager.spans) {
                assert!(matches!(e.value, Value::Text(_)), "{}: read over no file", e.path);
                let want = e.text(&[]);
                assert!(matches!(l.value, Value::Of(_)), "{}: read from the file", l.path);
                assert_eq!(l.text(&file), want, "{} of {:?}", l.path, &file[l.start as usize..l.end() as usize]);
            }
        }
        let (lazy, _) = both_ways(&[1, 0xfe, 0x34, 0x12]);
        let shown: Vec<_> = lazy.spans.iter().map(|s| s.text(&[1, 0xfe, 0x34, 0x12]).to_string()).collect();
        assert_eq!(shown, ["1", "-2", "4660"]);
    }

    #[test]
    fn fields_over_a_file_keep_text_for_other_bytes_read_first() {
        let file = [7u8, 0, 9, 0];
        let copy = [8u8, 0];
        let mut f = Fields::over(&file);
        let _ = f.read::<u16>(&mut Reader::new(&copy), "copy", Confidence::Proven, "");
        let mut r = Reader::new(&file);
        r.seek(2).unwrap();
        let _ = f.read::<u16>(&mut r, "file", Confidence::Proven, "");
        assert!(matches!(f.spans[0].value, Value::Text(_)), "a copy read first is not the file");
        assert_eq!(f.spans[0].text(&file), "8");
        assert!(matches!(f.spans[1].value, Value::Of(_)), "the file's bytes keep their kind");
        assert_eq!(f.spans[1].text(&file), "9");
    }

    #[test]
    fn fields_made_with_default_keep_every_value_as_text() {
        let file = [7u8, 0, 3, b'a', b'b', b'c'];
        let mut f = Fields::default();
        let mut r = Reader::new(&file);
        let _ = f.read::<u16>(&mut r, "n", Confidence::Proven, "");
        let _ = f.string8(&mut r, "name", Confidence::Proven, "");
        let _ = f.bytes(&mut r, 0, "none", Confidence::Proven, "");
        assert!(f.spans.iter().all(|s| matches!(s.value, Value::Text(_))), "{:?}", f.spans);
        let texts: Vec<_> = f.spans.iter().map(|s| s.text(&[]).to_string()).collect();
        assert_eq!(texts, ["7", "3", "abc", ""]);
    }
}
