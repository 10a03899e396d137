//! Text kept inline when it fits, else on the heap, so that decoding a file of many fields
//! does not allocate a string for each path and value. `Short` holds a value (a number, a
//! short name: up to 22 bytes inline), `PathText` a field path (up to 62 bytes:
//! `lod[0].section[3].stored_declaration.element[12].usage` fits).

use serde::{Serialize, Serializer};
use std::fmt;

/// Only this module builds one, and only from whole `str`s, so the inline bytes are always
/// UTF-8: that is what lets `as_str` skip checking them again on every read.
#[derive(Clone)]
pub struct Inline<const N: usize>(Repr<N>);

#[derive(Clone)]
enum Repr<const N: usize> {
    Inline {
        len: u8,
        bytes: [u8; N],
    },
    Heap(String),
    /// A text longer than `N` that lives as long as the program (a table made once), so
    /// that a copy allocates nothing.
    Static(&'static str),
}

pub type Short = Inline<22>;
pub type PathText = Inline<62>;

impl<const N: usize> Inline<N> {
    /// The most bytes a text has and is inline: `N`, and no more than its length byte counts.
    /// Every constructor keeps to it, which is what `same` relies on.
    const ROOM: usize = if N < u8::MAX as usize { N } else { u8::MAX as usize };

    /// The parts joined, written in place when they fit.
    // Kept out of line: inlined at every call site it made the wasm 17 KB larger for under 2 %
    // fewer instructions natively.
    #[inline(never)]
    pub fn concat(parts: &[&str]) -> Self {
        let n: usize = parts.iter().map(|p| p.len()).sum();
        if n > Self::ROOM {
            return Inline(Repr::Heap(parts.concat()));
        }
        let mut bytes = [0; N];
        let mut at = 0;
        for p in parts {
            bytes[at..at + p.len()].copy_from_slice(p.as_bytes());
            at += p.len();
        }
        Inline(Repr::Inline { len: n as u8, bytes })
    }

    /// `self` and `tail` joined: a copy of the inline bytes with `tail` written after them.
    pub fn join(&self, tail: &str) -> Self {
        match &self.0 {
            Repr::Inline { len, bytes } if *len as usize + tail.len() <= Self::ROOM => {
                let (at, mut bytes) = (*len as usize, *bytes);
                bytes[at..at + tail.len()].copy_from_slice(tail.as_bytes());
                Inline(Repr::Inline { len: (at + tail.len()) as u8, bytes })
            }
            _ => Self::concat(&[self.as_str(), tail]),
        }
    }

    /// `self[i]`, an item's path from its list's: the index written after a copy of the
    /// inline bytes, without joining parts (a pooled list records one span an item).
    pub fn item(&self, i: u64) -> Self {
        let mut buf = itoa::Buffer::new();
        let digits = buf.format(i).as_bytes();
        match &self.0 {
            Repr::Inline { len, bytes } if *len as usize + digits.len() + 2 <= Self::ROOM => {
                let (at, mut bytes) = (*len as usize, *bytes);
                let end = at + 1 + digits.len();
                bytes[at] = b'[';
                bytes[at + 1..end].copy_from_slice(digits);
                bytes[end] = b']';
                Inline(Repr::Inline { len: (end + 1) as u8, bytes })
            }
            _ => Self::concat(&[self.as_str(), "[", buf.format(i), "]"]),
        }
    }

    /// A text of a table made once, kept by reference when it is too long to be inline.
    pub fn from_static(s: &'static str) -> Self {
        if s.len() <= Self::ROOM {
            Self::from(s)
        } else {
            Inline(Repr::Static(s))
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let b = bytes.get(..*len as usize).unwrap_or(&[]);
                // SAFETY: every writer of `bytes` (the constructors here and `Writer`) copies
                // whole `str`s end to end, so `bytes[..len]` is UTF-8 (the type's invariant).
                unsafe { std::str::from_utf8_unchecked(b) }
            }
            Repr::Heap(s) => s,
            Repr::Static(s) => s,
        }
    }
}

impl<const N: usize> Inline<N> {
    /// Equality without a call to `memcmp`: a text fits inline exactly when it is at most
    /// `ROOM` bytes (every constructor keeps to that), and inline bytes past the length are
    /// zero, so two inline texts are equal when their whole arrays are.
    #[inline]
    pub fn same(&self, o: &Self) -> bool {
        match (&self.0, &o.0) {
            (Repr::Inline { len: a, bytes: x }, Repr::Inline { len: b, bytes: y }) => a == b && x == y,
            (Repr::Inline { .. }, _) | (_, Repr::Inline { .. }) => false,
            _ => self.as_str() == o.as_str(),
        }
    }

    /// A copy, when the text is inline (copying it allocates nothing).
    pub fn inline(&self) -> Option<Self> {
        matches!(self.0, Repr::Inline { .. }).then(|| self.clone())
    }

    /// `format_args!` written in place when it fits: `format!` without a `String` for a short
    /// text. Out of line, so that its call sites stay small.
    #[inline(never)]
    pub fn format(args: fmt::Arguments) -> Self {
        Self::display(&args)
    }

    /// `v` as text, written in place when it fits.
    pub fn display(v: &impl fmt::Display) -> Self {
        Self::written(|w| fmt::write(w, format_args!("{v}")))
    }

    /// The text `write` writes, in place when it fits. Called with the writer itself, not
    /// through a `Formatter`, so each piece is a direct call (the tree's value texts).
    pub fn written(write: impl FnOnce(&mut Writer<N>) -> fmt::Result) -> Self {
        let mut w = Writer { bytes: [0; N], len: 0, spill: None };
        if write(&mut w).is_err() {
            return Inline::default();
        }
        match w.spill {
            Some(s) => Inline(Repr::Heap(s)),
            None => Inline(Repr::Inline { len: w.len as u8, bytes: w.bytes }),
        }
    }
}

/// Formats into the inline bytes, moving to a heap string once they are full.
pub struct Writer<const N: usize> {
    bytes: [u8; N],
    len: usize,
    spill: Option<String>,
}

impl<const N: usize> fmt::Write for Writer<N> {
    // Inline: most pieces are a separator or a number's digits, a copy of a few bytes.
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.bytes.get_mut(self.len..self.len + s.len()) {
            Some(room) if self.spill.is_none() && self.len + s.len() <= Inline::<N>::ROOM => {
                room.copy_from_slice(s.as_bytes());
                self.len += s.len();
            }
            _ => self.spill(s),
        }
        Ok(())
    }
}

impl<const N: usize> Writer<N> {
    /// `s` written after the text on the heap, where the text goes once it outgrows `N`.
    #[inline(never)]
    fn spill(&mut self, s: &str) {
        match &mut self.spill {
            Some(h) => h.push_str(s),
            None => {
                // Room for twice the text so far, so that a long text (a check's coordinates)
                // grows once or not at all.
                let mut h = String::with_capacity(2 * (self.len + s.len()));
                h.push_str(std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default());
                h.push_str(s);
                self.spill = Some(h);
            }
        }
    }
}

impl<const N: usize> Default for Inline<N> {
    fn default() -> Self {
        Inline(Repr::Inline { len: 0, bytes: [0; N] })
    }
}

impl<const N: usize> From<&str> for Inline<N> {
    /// The text inline when it fits (`ROOM`), as `concat` keeps it: the one piece copied,
    /// with no list of parts to walk.
    fn from(s: &str) -> Self {
        let mut bytes = [0; N];
        match bytes.get_mut(..s.len()) {
            Some(room) if s.len() <= Self::ROOM => {
                room.copy_from_slice(s.as_bytes());
                Inline(Repr::Inline { len: s.len() as u8, bytes })
            }
            _ => Inline(Repr::Heap(s.to_string())),
        }
    }
}

impl<const N: usize> From<String> for Inline<N> {
    // Out of line, as `concat`: the checks convert dozens of `format!`s each.
    #[inline(never)]
    fn from(s: String) -> Self {
        if s.len() <= Self::ROOM {
            Self::from(s.as_str())
        } else {
            Inline(Repr::Heap(s))
        }
    }
}

impl<const N: usize> From<&String> for Inline<N> {
    fn from(s: &String) -> Self {
        Self::from(s.as_str())
    }
}

impl<const N: usize> From<Inline<N>> for String {
    fn from(t: Inline<N>) -> String {
        match t.0 {
            Repr::Heap(s) => s,
            _ => t.as_str().to_string(),
        }
    }
}

impl<const N: usize> std::ops::Deref for Inline<N> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> AsRef<str> for Inline<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> PartialEq for Inline<N> {
    fn eq(&self, o: &Self) -> bool {
        self.same(o)
    }
}

impl<const N: usize> Eq for Inline<N> {}

/// A map keyed by texts is asked with a `str`: hashing and equality are the text's.
impl<const N: usize> std::borrow::Borrow<str> for Inline<N> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// Hashes as its text does, so a map keyed by inline texts finds them by `same`.
impl<const N: usize> std::hash::Hash for Inline<N> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl<const N: usize> PartialEq<str> for Inline<N> {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}

impl<const N: usize> PartialEq<&str> for Inline<N> {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}

impl<const N: usize> PartialEq<String> for Inline<N> {
    fn eq(&self, o: &String) -> bool {
        self.as_str() == o
    }
}

impl<const N: usize> fmt::Display for Inline<N> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> fmt::Debug for Inline<N> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> Serialize for Inline<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_stays_inline_and_long_text_goes_to_the_heap() {
        for s in ["", "7", "0x0a (Float3)", "ééé multi-byte ✓", "exactly twenty-two b.."] {
            let t = Short::from(s);
            assert!(matches!(t.0, Repr::Inline { .. }), "{s}");
            assert_eq!(t, s);
            assert_eq!(t.to_string(), s);
        }
        assert_eq!(
            PathText::concat(&["lod[0].section[3]", ".stored_declaration", ".element[12].usage"]),
            "lod[0].section[3].stored_declaration.element[12].usage"
        );
        assert!(matches!(PathText::concat(&["a"; 63]).0, Repr::Heap(_)));
        // One piece, as the other constructors: inline up to N bytes, on the heap past them.
        assert!(matches!(PathText::from("a".repeat(62).as_str()).0, Repr::Inline { len: 62, .. }));
        assert!(matches!(PathText::from("a".repeat(63).as_str()).0, Repr::Heap(_)));
        assert_eq!(PathText::concat(&["a"; 63]).len(), 63);
        for x in [0.5f32, -1.25e-7, f32::MAX, 3.0] {
            let d = Short::display(&x);
            assert_eq!(d, x.to_string().as_str());
        }
        assert!(matches!(Short::display(&f32::MIN).0, Repr::Heap(_)), "{} is long", f32::MIN);
        assert_eq!(Short::display(&f32::MIN), f32::MIN.to_string().as_str());
        let long = "a value of more than twenty-two bytes";
        assert!(matches!(Short::from(long.to_string()).0, Repr::Heap(_)));
        assert_eq!(Short::from(long).as_str(), long);
        assert_eq!(serde_json::to_string(&Short::from("a\"b")).unwrap(), r#""a\"b""#);
        assert!(matches!(Short::from_static(long).0, Repr::Static(_)));
        assert!(matches!(Short::from_static("short").0, Repr::Inline { .. }));
        let prefix = PathText::from("lod[0].section[3].stored_declaration.element[12].");
        assert!(matches!(prefix.join("usage").0, Repr::Inline { .. }));
        assert_eq!(prefix.join("usage"), "lod[0].section[3].stored_declaration.element[12].usage");
        assert!(matches!(prefix.join("a name past the inline bytes").0, Repr::Heap(_)));
        assert_eq!(prefix.join("a name past the inline bytes").len(), prefix.len() + 28);
    }

    #[test]
    fn written_text_is_the_pieces_joined_wherever_it_outgrows_the_inline_bytes() {
        use std::fmt::Write;
        let pieces = ["ab", "", "cdefghij", "é", "klmnopqrstu", "vwxyz", "0123456789"];
        for k in 0..=pieces.len() {
            let t = Short::written(|w| pieces[..k].iter().try_for_each(|p| w.write_str(p)));
            let want = pieces[..k].concat();
            assert_eq!(t.as_str(), want, "{k} pieces");
            assert_eq!(t.inline().is_some(), want.len() <= 22, "{want}: inline exactly when it fits");
        }
        assert_eq!(Short::written(|_| Err(std::fmt::Error)).as_str(), "", "a failed write gives no text");
    }

    #[test]
    fn an_item_is_its_lists_path_and_index_whether_it_fits_or_not() {
        for head in ["", "pool.bone_bounds", &"x".repeat(58), &"x".repeat(59), &"y".repeat(70)] {
            for i in [0, 7, 10, 99, 12345, u64::MAX] {
                let item = PathText::from(head).item(i);
                assert_eq!(item, format!("{head}[{i}]"), "{head} {i}");
                assert!(item.same(&PathText::from(format!("{head}[{i}]"))), "{head} {i}: inline as `from` makes it");
            }
        }
    }

    #[test]
    fn same_is_text_equality_whatever_the_constructor() {
        let texts = [
            "",
            "7",
            "70",
            "0x0a (Float3)",
            "exactly twenty-two b..",
            "exactly twenty-two b...",
            "a value of more than twenty-two bytes",
        ];
        let made = |s: &'static str| {
            [
                Short::from(s),
                Short::from(s.to_string()),
                Short::concat(&[s]),
                Short::display(&s),
                Short::concat(&[s.get(..1).unwrap_or(""), s.get(1..).unwrap_or("")]),
                Short::from_static(s),
                Short::from(s.get(..1).unwrap_or("")).join(s.get(1..).unwrap_or("")),
                Short::from(s.get(..s.len() / 2).unwrap_or("")).join(s.get(s.len() / 2..).unwrap_or("")),
            ]
        };
        for a in texts {
            for b in texts {
                for x in made(a) {
                    for y in made(b) {
                        assert_eq!(x.same(&y), a == b, "{a:?} {b:?}");
                    }
                }
            }
        }
    }
}
