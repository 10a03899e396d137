//! Value formatters: how a field's bytes or number become the text its span shows. A neutral
//! module: spans, the read-and-record helpers and the formats all use it, and it uses none
//! of them.

use crate::short::Short;
use std::sync::OnceLock;

/// How a field's bytes are shown, for a span that keeps its value's kind rather than its
/// text (`span::Value::Of`): the text is made from the bytes when the span is shown. Each
/// kind shows the bytes exactly as the read-and-record helper (`field.rs`) that records it
/// would have shown the value read from them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A little-endian unsigned integer of 1, 2, 4 or 8 bytes, in decimal.
    Unsigned,
    /// A little-endian signed integer of 1, 2, 4 or 8 bytes, in decimal.
    Signed,
    /// A little-endian f32 (4 bytes) or f64 (8 bytes), as `Display` writes it.
    Float,
    /// Little-endian f32s, as `show_floats` writes them.
    Floats,
    /// Little-endian unsigned numbers of `width` bytes each (1, 2, 4 or 8) as a list,
    /// `[1, 2, 3]` as `show_list` writes it.
    List { width: u8 },
    /// Bytes in hex, the first 64 of them when there are more (`show_hex_cut`).
    Hex,
    /// Bytes as escaped text (`show_text`).
    Text,
    /// A string and its closing NUL: the bytes before the NUL as escaped text (`show_text`).
    CString,
    /// A little-endian unsigned bit mask, its bits named from the table (`flag_names`).
    Flags(&'static [(u64, &'static str)]),
    /// A little-endian unsigned offset from byte `base` of the file, a pointer (`offset_text`).
    Offset { base: u8 },
}

impl Kind {
    /// `b` shown as this kind; `b` is the whole field.
    pub fn show(self, b: &[u8]) -> Short {
        match self {
            Kind::Hex => hex_short(b),
            Kind::Text => text_short(b),
            Kind::CString => text_short(b.strip_suffix(&[0]).unwrap_or(b)),
            Kind::Flags(names) => Short::written(|w| write_flags(w, unsigned(b), names)),
            Kind::Offset { base } => offset_text(unsigned(b), base.into()),
            _ => Short::written(|w| self.write_plain(b, w).unwrap_or(Ok(()))),
        }
    }

    /// Writes `b` as `show` shows it, for the kinds whose text is plain JSON string content
    /// whatever the bytes (digits, signs, points, brackets, `NaN`, `inf`): the tree writes
    /// them straight into its JSON. `None`, writing nothing, for the others.
    pub fn write_plain(self, b: &[u8], w: &mut impl std::fmt::Write) -> Option<std::fmt::Result> {
        Some(match self {
            Kind::Unsigned => w.write_str(decimal(unsigned(b), &mut Digits::new())),
            Kind::Signed => w.write_str(itoa::Buffer::new().format(signed(b))),
            Kind::Float if b.len() == 8 => write!(w, "{}", f64::from_bits(unsigned(b))),
            Kind::Float => push_float(w, f32::from_bits(unsigned(b) as u32)),
            Kind::Floats => write_floats(w, floats_le(b)),
            Kind::List { width } => write_list(w, numbers_le(b, width)),
            Kind::Hex | Kind::Text | Kind::CString | Kind::Flags(_) | Kind::Offset { .. } => return None,
        })
    }

    /// The kind's code, as the census's plans give a value kept as its kind: 1 to 7; for a
    /// list of numbers of `width` bytes (1 to 8), `LIST_CODES + width`; for an offset from
    /// `base` (up to 223), `OFFSET_CODES + base`. A flags kind, whose names table a byte
    /// cannot carry, has none.
    pub fn code(self) -> Option<u8> {
        Some(match self {
            Kind::Unsigned => 1,
            Kind::Signed => 2,
            Kind::Float => 3,
            Kind::Floats => 4,
            Kind::Hex => 5,
            Kind::Text => 6,
            Kind::CString => 7,
            Kind::List { width: width @ 1..=MAX_LIST_WIDTH } => LIST_CODES + width,
            Kind::Offset { base } => OFFSET_CODES.checked_add(base)?,
            Kind::List { .. } | Kind::Flags(_) => return None,
        })
    }

    /// The kind of code `code` (`Kind::code`); `None` for codes no kind has, 0 among them.
    pub fn from_code(code: u8) -> Option<Kind> {
        Some(match code {
            1 => Kind::Unsigned,
            2 => Kind::Signed,
            3 => Kind::Float,
            4 => Kind::Floats,
            5 => Kind::Hex,
            6 => Kind::Text,
            7 => Kind::CString,
            c @ OFFSET_CODES.. => Kind::Offset { base: c - OFFSET_CODES },
            c if (LIST_CODES + 1..=LIST_CODES + MAX_LIST_WIDTH).contains(&c) => Kind::List { width: c - LIST_CODES },
            _ => return None,
        })
    }
}

/// Where the codes of lists start (`Kind::code`).
const LIST_CODES: u8 = 16;
/// A list's numbers are at most this wide: a wider list is shown as one this wide.
const MAX_LIST_WIDTH: u8 = 8;
/// Where the codes of offsets start (`Kind::code`).
const OFFSET_CODES: u8 = 32;

/// Up to 8 little-endian bytes as an unsigned number.
fn unsigned(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let n = b.len().min(8);
    w[..n].copy_from_slice(&b[..n]);
    u64::from_le_bytes(w)
}

/// Up to 8 little-endian bytes as a signed number, its sign bit the last byte's top bit.
fn signed(b: &[u8]) -> i64 {
    let n = b.len().min(8) as u32;
    if n == 0 {
        return 0;
    }
    let shift = 64 - 8 * n;
    ((unsigned(b) << shift) as i64) >> shift
}

pub fn show_floats(v: &[f32]) -> String {
    let mut s = String::with_capacity(2 + v.len() * 8);
    let _ = write_floats(&mut s, v.iter().copied());
    s
}

/// Little-endian f32s (whole ones: a last partial one is left out).
fn floats_le(b: &[u8]) -> impl Iterator<Item = f32> + '_ {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `[a, b, c]`, each as `push_float` writes it.
fn write_floats(w: &mut impl std::fmt::Write, v: impl Iterator<Item = f32>) -> std::fmt::Result {
    w.write_char('[')?;
    for (i, x) in v.enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        push_float(w, x)?;
    }
    w.write_char(']')
}

/// `x` as `{}` shows it. A whole number below 2^24 (each is exact in an f32, and its digits
/// are the shortest text that reads back as it) is written without the float formatter.
fn push_float(w: &mut impl std::fmt::Write, x: f32) -> std::fmt::Result {
    // A round trip through i32, not `fract` (a call to `truncf`); NaN fails the first test.
    if x.abs() < 16_777_216.0 && (x as i32) as f32 == x {
        if x.is_sign_negative() {
            w.write_char('-')?;
        }
        w.write_str(decimal(x.abs() as u64, &mut Digits::new()))
    } else {
        crate::float_text::write_f32(w, x)
    }
}

/// Unsigned numbers as a list, `[1, 2, 3]` as `{:?}` shows them, without the formatter.
pub fn show_list<T: Copy + Into<u64>>(v: &[T]) -> String {
    let mut s = String::with_capacity(2 + v.len() * 4);
    let _ = write_list(&mut s, v.iter().map(|&x| x.into()));
    s
}

/// Little-endian unsigned numbers of `width` bytes each (whole ones; a wider list is read
/// `MAX_LIST_WIDTH` bytes a number).
fn numbers_le(b: &[u8], width: u8) -> impl Iterator<Item = u64> + '_ {
    b.chunks_exact(usize::from(width.clamp(1, MAX_LIST_WIDTH))).map(unsigned)
}

/// `[1, 2, 3]`.
fn write_list(w: &mut impl std::fmt::Write, v: impl Iterator<Item = u64>) -> std::fmt::Result {
    let mut num = Digits::new();
    w.write_char('[')?;
    for (i, x) in v.enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        w.write_str(decimal(x, &mut num))?;
    }
    w.write_char(']')
}

/// Bytes as text: printable ASCII kept, the rest escaped, so any name is safe to show.
pub fn show_text(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for &c in b {
        if (0x20..0x7f).contains(&c) {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    s
}

/// `show_text(b)` as a `Short`: printable ASCII (most names) goes in as it is, without a
/// `String` made first.
pub fn text_short(b: &[u8]) -> Short {
    text_short_of(b, std::str::from_utf8(b))
}

/// `text_short` of `b`, given `b` as checked UTF-8 (`utf8`) by a caller that needs it too.
pub fn text_short_of(b: &[u8], utf8: Result<&str, std::str::Utf8Error>) -> Short {
    match utf8 {
        Ok(s) if b.iter().all(|c| (0x20..0x7f).contains(c)) => Short::from(s),
        _ => show_text(b).into(),
    }
}

/// Room for a number's digits (`decimal`).
pub type Digits = itoa::Buffer;

/// `n` in decimal, written into `buf`: a number's text without an allocation, two digits a
/// step, and not checked again as UTF-8 (`itoa`).
pub fn decimal(n: u64, buf: &mut Digits) -> &str {
    buf.format(n)
}

/// `make(i)`, copied from `table`, whose first 256 entries are made once: texts that every
/// file of a format makes, as a MeshSet's `bone N` names and `header.lod_pointer[i]` paths.
pub fn made_once<T: Clone>(i: usize, table: &OnceLock<Vec<T>>, make: fn(u64, &mut Digits) -> T) -> T {
    let made = table.get_or_init(|| (0..256).map(|k| make(k, &mut Digits::new())).collect());
    made.get(i).cloned().unwrap_or_else(|| make(i as u64, &mut Digits::new()))
}

/// An offset from byte `base` as a pointer shows: `0 (null)`, else the offset and the byte it
/// names, `0x68e (-> 0x69e)`.
pub fn offset_text(v: u64, base: u64) -> Short {
    if v == 0 {
        return Short::from_static("0 (null)");
    }
    let (mut a, mut b) = ([0; 16], [0; 16]);
    Short::concat(&["0x", hex(v, &mut a), " (-> 0x", hex(v.wrapping_add(base), &mut b), ")"])
}

/// Lowercase hex digits, for `hex2`, `hex` and `show_hex`.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// `n` in lowercase hex without leading zeros (as `{:x}` shows it), written into `buf`.
pub fn hex(n: u64, buf: &mut [u8; 16]) -> &str {
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = HEX[(n & 15) as usize];
        n >>= 4;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("")
}

/// A byte as two lowercase hex digits, written into `buf`.
pub fn hex2(b: u8, buf: &mut [u8; 2]) -> &str {
    *buf = hex_pair(b);
    std::str::from_utf8(buf).unwrap_or("")
}

/// `b`'s two lowercase hex digits, as bytes: for texts gathered as bytes and checked once.
pub fn hex_pair(b: u8) -> [u8; 2] {
    [HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]
}

pub fn show_hex(b: &[u8]) -> String {
    // ASCII gathered as bytes and checked once, not a UTF-8 check per byte (hex dumps are
    // common: every unused declaration slot is one).
    let mut s = vec![b' '; (3 * b.len()).saturating_sub(1)];
    hex_into(b, &mut s);
    String::from_utf8(s).unwrap_or_default()
}

/// `b` as space-separated hex pairs written into `out`, which holds `3 * b.len() - 1` spaces
/// (pairs that do not fit are left out).
fn hex_into(b: &[u8], out: &mut [u8]) {
    for (i, &c) in b.iter().enumerate() {
        if let Some(pair) = out.get_mut(3 * i..3 * i + 2) {
            pair.copy_from_slice(&hex_pair(c));
        }
    }
}

/// Bytes in hex, cut after the first 64 with their count said.
pub fn show_hex_cut(b: &[u8]) -> String {
    match b.get(..64) {
        Some(head) if b.len() > 64 => format!("{} … ({} bytes)", show_hex(head), b.len()),
        _ => show_hex(b),
    }
}

/// `show_hex_cut(b)` as a `Short`: a few bytes (an unused slot, a short tail) are written in
/// place, without a `String` made first.
pub fn hex_short(b: &[u8]) -> Short {
    const MOST: usize = 7;
    if b.len() > MOST {
        return show_hex_cut(b).into();
    }
    let mut out = [b' '; 3 * MOST];
    let out = &mut out[..(3 * b.len()).saturating_sub(1)];
    hex_into(b, out);
    Short::concat(&[std::str::from_utf8(out).unwrap_or("")])
}

/// Names the set bits of `value` from `names` (bit, name); unnamed bits are shown in hex.
pub fn flag_names(value: u64, names: &[(u64, &str)]) -> String {
    let mut s = String::new();
    let _ = write_flags(&mut s, value, names);
    s
}

/// `flag_names`' text, written straight into where it goes: `0x5 (a | c)`, `0x0 (none)`.
fn write_flags(w: &mut impl std::fmt::Write, value: u64, names: &[(u64, &str)]) -> std::fmt::Result {
    let mut buf = [0; 16];
    w.write_str("0x")?;
    w.write_str(hex(value, &mut buf))?;
    w.write_str(" (")?;
    let mut rest = value;
    let mut first = true;
    for &(bit, name) in names {
        if bit != 0 && value & bit == bit {
            w.write_str(if std::mem::take(&mut first) { "" } else { " | " })?;
            w.write_str(name)?;
            rest &= !bit;
        }
    }
    if rest != 0 {
        w.write_str(if std::mem::take(&mut first) { "" } else { " | " })?;
        w.write_str("0x")?;
        w.write_str(hex(rest, &mut buf))?;
    }
    if first {
        w.write_str("none")?;
    }
    w.write_str(")")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_but_flags_round_trips_through_its_code() {
        let kinds = [Kind::Unsigned, Kind::Signed, Kind::Float, Kind::Floats, Kind::Hex, Kind::Text, Kind::CString];
        let lists = (1..=8).map(|width| Kind::List { width });
        let offsets = (0..=223).map(|base| Kind::Offset { base });
        let mut codes = Vec::new();
        for k in kinds.into_iter().chain(lists).chain(offsets) {
            let c = k.code().unwrap_or_else(|| panic!("{k:?} has a code"));
            assert_ne!(c, 0, "0 is no kind's code (the plans' VALUE_TEXT)");
            assert_eq!(Kind::from_code(c), Some(k));
            codes.push(c);
        }
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), 7 + 8 + 224, "codes are distinct");
        assert_eq!(Kind::Flags(&[(1, "a")]).code(), None);
        assert_eq!(Kind::Offset { base: 224 }.code(), None);
        assert_eq!(Kind::List { width: 0 }.code(), None);
        assert_eq!(Kind::List { width: 9 }.code(), None);
        // Every code that gives a kind is that kind's code.
        for c in 0..=u8::MAX {
            if let Some(k) = Kind::from_code(c) {
                assert_eq!(k.code(), Some(c), "code {c}");
            }
        }
        assert_eq!(Kind::from_code(0), None);
        assert_eq!(Kind::from_code(16), None);
        assert_eq!(Kind::from_code(8), None);
    }

    #[test]
    fn an_offset_shows_where_it_points_or_that_it_is_null() {
        let k = Kind::Offset { base: 16 };
        assert_eq!(k.show(&0x68eu64.to_le_bytes()), "0x68e (-> 0x69e)");
        assert_eq!(k.show(&[0; 8]), "0 (null)");
        assert_eq!(k.show(&u64::MAX.to_le_bytes()), "0xffffffffffffffff (-> 0xf)");
        assert_eq!(Kind::Offset { base: 0 }.show(&[1, 0, 0, 0]), "0x1 (-> 0x1)");
    }

    #[test]
    fn decimal_writes_every_size_of_number() {
        let mut buf = Digits::new();
        for n in [0, 1, 9, 10, 99, 100, 12345, u32::MAX as u64, u64::MAX] {
            assert_eq!(decimal(n, &mut buf), n.to_string());
        }
    }

    #[test]
    fn a_text_made_once_is_the_text_made_now_in_and_past_the_table() {
        static MADE: OnceLock<Vec<Short>> = OnceLock::new();
        let make = |n: u64, d: &mut Digits| Short::concat(&["bone ", decimal(n, d)]);
        for i in [0, 1, 9, 10, 255, 256, 257, 65535, usize::MAX] {
            assert_eq!(made_once(i, &MADE, make), format!("bone {i}"), "{i}");
        }
        assert_eq!(MADE.get().map(Vec::len), Some(256));
    }

    #[test]
    fn a_short_text_is_the_text_show_text_makes() {
        let long = b"Mesh:props/set12/mesh00042_lod3".to_vec();
        for b in [&b""[..], b"abc", b"a<\n", b"caf\xc3\xa9", b"\x7f~ ", &long, b"tab\there"] {
            assert_eq!(text_short(b), show_text(b).as_str(), "{b:?}");
        }
        assert_eq!(text_short(b"a\nb"), "a\\x0ab");
    }

    #[test]
    fn a_c_string_shows_the_text_before_its_nul() {
        let long = b"Mesh:props/set12/mesh00042_lod3".to_vec();
        for b in [&b""[..], b"abc", b"caf\xc3\xa9", &long, b"a\x00b", b"tab\there"] {
            let stored = [b, &[0][..]].concat();
            assert_eq!(Kind::CString.show(&stored), show_text(b).as_str(), "{b:?}");
        }
        // Only the closing NUL is left out, and bytes without one show whole.
        assert_eq!(Kind::CString.show(b"ab\0\0"), "ab\\x00");
        assert_eq!(Kind::CString.show(b"ab"), "ab");
    }

    #[test]
    fn floats_show_as_display_does() {
        let v = [0.0, -0.0, 1.0, -3.0, 0.5, 16_777_215.0, 16_777_216.0, -1e30, f32::NAN, f32::INFINITY, 1e-7];
        let want: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(show_floats(&v), format!("[{}]", want.join(", ")));
        assert_eq!(show_floats(&[-0.0, 7.0]), "[-0, 7]");
    }

    #[test]
    fn float_bytes_show_as_the_floats_read_from_them() {
        let lists: [&[f32]; 5] =
            [&[], &[1.0, 2.0], &[0.5, -0.25, 3.0], &[-0.70710677, 0.70710677, 1e-7, f32::MIN], &[7.0]];
        for v in lists {
            let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            let shown = Kind::Floats.show(&b);
            assert_eq!(shown, show_floats(v));
            assert_eq!(shown.inline().is_some(), shown.len() <= 22, "{shown}: inline exactly when it fits");
        }
        assert_eq!(Kind::Floats.show(&[0, 0, 0x80, 0x3f, 9]), "[1]", "a partial last float is left out");
    }

    #[test]
    fn signed_and_float_bytes_show_as_display_does() {
        for v in [0i64, -1, 1, i8::MIN as i64, i16::MIN as i64, i32::MIN as i64, i64::MIN, i64::MAX] {
            let w = v.to_le_bytes();
            for n in [1, 2, 4, 8] {
                let cut = ((v << (64 - 8 * n)) >> (64 - 8 * n)).to_string();
                assert_eq!(Kind::Signed.show(&w[..n]), cut.as_str(), "{v} in {n} bytes");
            }
        }
        let floats = [0.0f32, -0.0, 1.5, -3.0, 0.1, 1e-7, 3.4e38, 16_777_216.0, f32::NAN, f32::INFINITY];
        for x in floats {
            assert_eq!(Kind::Float.show(&x.to_le_bytes()), x.to_string().as_str(), "{x}");
        }
        assert_eq!(Kind::Float.show(&0.1f64.to_le_bytes()), "0.1");
    }

    #[test]
    fn flags_name_their_bits_and_show_the_rest_in_hex() {
        let names: &'static [(u64, &'static str)] = &[(1, "a"), (4, "c"), (0, "never")];
        let show = |v: u32| Kind::Flags(names).show(&v.to_le_bytes());
        assert_eq!(show(5), "0x5 (a | c)");
        assert_eq!(show(0), "0x0 (none)");
        assert_eq!(show(0x12), "0x12 (0x12)");
        assert_eq!(show(0x13), "0x13 (a | 0x12)");
        // Longer than a `Short` holds inline: the text moves to the heap whole.
        let long: &'static [(u64, &'static str)] = &[(1, "geometry in chunks"), (2, "skinned mesh")];
        assert_eq!(Kind::Flags(long).show(&[3]), "0x3 (geometry in chunks | skinned mesh)");
        assert_eq!(flag_names(7, long), "0x7 (geometry in chunks | skinned mesh | 0x4)");
    }

    #[test]
    fn plain_kinds_write_what_they_show_and_nothing_to_escape() {
        let plain =
            [Kind::Unsigned, Kind::Signed, Kind::Float, Kind::Floats, Kind::List { width: 2 }, Kind::List { width: 8 }];
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for n in 0..40 {
            let b: Vec<u8> = (0..n % 20)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s as u8
                })
                .collect();
            for (k, len) in plain.into_iter().flat_map(|k| [1, 2, 4, 8, b.len()].map(|len| (k, len))) {
                let b = &b[..len.min(b.len())];
                let mut out = String::from("x");
                assert!(k.write_plain(b, &mut out).is_some(), "{k:?}");
                assert_eq!(out[1..], *k.show(b).as_str(), "{k:?} of {b:?}");
                assert!(!out.bytes().any(|c| c < 0x20 || c == b'"' || c == b'\\'), "{out}");
            }
        }
        for k in [Kind::Hex, Kind::Text, Kind::Flags(&[(1, "a")]), Kind::Offset { base: 0 }] {
            let mut out = String::new();
            assert!(k.write_plain(b"\"q", &mut out).is_none() && out.is_empty(), "{k:?} is not plain");
        }
    }

    #[test]
    fn number_bytes_show_as_the_numbers_read_from_them() {
        let v: [u32; 6] = [0, 7, 10, 255, 65535, u32::MAX];
        let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(Kind::List { width: 4 }.show(&b), show_list(&v));
        let v16: Vec<u16> = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(Kind::List { width: 2 }.show(&b), show_list(&v16));
        assert_eq!(Kind::List { width: 1 }.show(&b), show_list(&b));
        assert_eq!(Kind::List { width: 1 }.show(&[3, 4]), "[3, 4]", "short enough to stay inline");
        assert_eq!(
            Kind::List { width: 8 }.show(&b[..12]),
            format!("[{}]", 7u64 << 32),
            "a partial last one is left out"
        );
        assert_eq!(Kind::List { width: 2 }.show(&[]), "[]");
    }

    #[test]
    fn lists_show_as_debug_does() {
        assert_eq!(show_list::<u8>(&[]), "[]");
        assert_eq!(show_list(&[7u8]), "[7]");
        assert_eq!(show_list(&[0u16, 10, 65535]), format!("{:?}", [0u16, 10, 65535]));
        assert_eq!(show_list(&[u32::MAX, 3]), format!("{:?}", [u32::MAX, 3]));
    }

    #[test]
    fn hex_numbers_are_lowercase_without_leading_zeros() {
        let mut buf = [0; 16];
        for n in [0, 9, 10, 0xff, 0x1000, u32::MAX as u64, u64::MAX] {
            assert_eq!(hex(n, &mut buf), format!("{n:x}"));
        }
    }

    #[test]
    fn hex_dumps_are_lowercase_pairs_between_spaces() {
        assert_eq!(show_hex(&[]), "");
        assert_eq!(show_hex(&[0x0a]), "0a");
        assert_eq!(show_hex(&[0x0a, 0xff, 0, 0x7c]), "0a ff 00 7c");
        let all: Vec<u8> = (0..=255).collect();
        let want: Vec<String> = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(show_hex(&all), want.join(" "));
    }

    #[test]
    fn flags_are_named() {
        assert_eq!(flag_names(0x5, &[(1, "a"), (4, "c")]), "0x5 (a | c)");
        assert_eq!(flag_names(0x12, &[(2, "b")]), "0x12 (b | 0x10)");
        assert_eq!(flag_names(0, &[(2, "b")]), "0x0 (none)");
        assert_eq!(flag_names(0x10, &[(2, "b")]), "0x10 (0x10)");
        assert_eq!(
            flag_names(3, &[(0, "zero"), (3, "ab"), (1, "a")]),
            "0x3 (ab | a)",
            "a bit named twice, bit 0 never"
        );
        let names: &[(u64, &str)] = &[(1, "a"), (2, "b"), (0x80, "high")];
        for v in [0u64, 1, 2, 3, 0x81, 0xff, u64::MAX] {
            assert_eq!(Kind::Flags(names).show(&v.to_le_bytes()), flag_names(v, names).as_str(), "{v:#x}");
        }
    }

    /// Hex as a `Vec` of three bytes a byte: the text `hex_short` must match.
    fn hex_plainly(b: &[u8]) -> String {
        let s: Vec<String> = b.iter().map(|c| format!("{c:02x}")).collect();
        s.join(" ")
    }

    #[test]
    fn hex_shows_every_length_as_the_plain_text() {
        let bytes: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
        for n in 0..=bytes.len() {
            let b = &bytes[..n];
            let want = match n {
                0..=64 => hex_plainly(b),
                _ => format!("{} … ({n} bytes)", hex_plainly(&b[..64])),
            };
            assert_eq!(Kind::Hex.show(b), want.as_str(), "{n} bytes");
            assert_eq!(show_hex_cut(b), want, "{n} bytes");
        }
    }
}
