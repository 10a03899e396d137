//! Read-and-record: each call reads one field through the cursor, records its span with
//! the field's path and confidence, and returns the value. A failed read names the field.

use crate::error::{Error, ErrorKind, Result};
use crate::read::Reader;
use crate::short::{PathText, Short};
use crate::show::flag_names;
/// The value formatters, where the formats have always found them.
pub use crate::show::{decimal, hex2, show_floats, show_hex, show_text};
use crate::span::{Confidence, Fields};

/// A value type a field can have: how to read it, what to call it, how to show it.
pub trait FieldType: Sized {
    const NAME: &'static str;
    fn read(r: &mut Reader) -> Result<Self>;
    fn show(&self) -> Short;
}

/// `show` is how the value becomes text: unsigned integers go through `decimal`, the rest
/// through `Display`; neither allocates.
macro_rules! scalar {
    ($t:ty, $m:ident, $name:expr, $show:expr) => {
        impl FieldType for $t {
            const NAME: &'static str = $name;
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
    Short::concat(&[decimal(v.into(), &mut [0; 20])])
}
scalar!(u8, u8, "u8", |v: &u8| show_unsigned(*v));
scalar!(i8, i8, "i8", Short::display);
scalar!(u16, u16, "u16", |v: &u16| show_unsigned(*v));
scalar!(i16, i16, "i16", Short::display);
scalar!(u32, u32, "u32", |v: &u32| show_unsigned(*v));
scalar!(i32, i32, "i32", Short::display);
scalar!(u64, u64, "u64", |v: &u64| show_unsigned(*v));
scalar!(f32, f32, "f32", Short::display);
scalar!(f64, f64, "f64", Short::display);

macro_rules! float_array {
    ($n:expr, $name:expr) => {
        impl FieldType for [f32; $n] {
            const NAME: &'static str = $name;
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
        self.add(start, r.offset() - start, path, T::NAME, v.show(), confidence, note);
        Ok(v)
    }

    /// Reads an integer bit mask and shows its bits by name.
    pub fn flags<T: FieldType + Copy + Into<u64>>(
        &mut self,
        r: &mut Reader,
        path: impl Into<PathText>,
        names: &[(u64, &str)],
        confidence: Confidence,
        note: &'static str,
    ) -> Result<T> {
        let start = r.offset();
        let path = path.into();
        let v = T::read(r).map_err(|e| e.at_path(&path))?;
        self.add(
            start,
            r.offset() - start,
            path,
            format!("{} flags", T::NAME),
            flag_names(v.into(), names),
            confidence,
            note,
        );
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
        let shown = if b.len() <= 64 { show_hex(b) } else { format!("{} … ({} bytes)", show_hex(&b[..64]), b.len()) };
        self.add(start, n as u64, path, format!("u8[{n}]"), shown, confidence, note);
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
        self.add(start, 4, path, "fourcc", show_text(&v), confidence, note);
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
        self.add(start, n as u64, format!("{path}.text"), "char[]", show_text(b), confidence, note);
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
        let data = [7u8, 0, 0, 0, 3, b'a', b'<', b'\n', 1];
        let mut r = Reader::with_base(&data, 16);
        let mut f = Fields::default();
        let v: u32 = f.read(&mut r, "h.count", Confidence::Proven, "n").unwrap();
        assert_eq!(v, 7);
        let s = f.string8(&mut r, "h.name", Confidence::Observed, "").unwrap();
        assert_eq!(s, "a<\n");
        assert_eq!(f.spans[0].start, 16);
        assert_eq!(f.spans[2].value, "a<\\x0a");
        assert_eq!(f.spans[2].path, "h.name.text");
        let e = f.read::<u16>(&mut r, "h.tail", Confidence::Proven, "").unwrap_err();
        assert_eq!(e.path, "h.tail");
        assert_eq!(e.offset, 24);
    }
}
