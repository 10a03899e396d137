//! Vertex declarations (description: the 100-byte declaration table) and element usages.

use super::element_format;
use crate::error::Result;
use crate::field::{decimal, hex2, Digits};
use crate::laid::{Layout, LayoutRef, Part, PartValue, IN_RECORD};
use crate::read::Reader;
use crate::short::{PathText, Short};
use crate::show::Kind;
use crate::span::{Confidence, Fields, Text, Value};

/// Bytes of one declaration.
pub const SIZE: usize = 100;
/// Where a declaration holds its element count and stream count (a byte each).
pub const COUNTS_AT: usize = 0x60;

/// How many spans `read` records for a declaration whose count bytes are `counts`: four a
/// used element slot, two a used stream slot, a run of unused slots of each kind, and the
/// two counts and the unknown bytes.
pub fn span_count(counts: [u8; 2]) -> usize {
    let (e, s) = ((counts[0] as usize).min(16), (counts[1] as usize).min(16));
    4 * e + 2 * s + usize::from(e < 16) + usize::from(s < 16) + 3
}

/// One element slot: four bytes in usage/format/offset/stream order (Proven).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Element {
    pub usage: u8,
    pub format: u8,
    pub offset: u8,
    pub stream: u8,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declaration {
    /// 0x0: all sixteen element slots, used or not, so the writer gives them back.
    pub elements: [Element; 16],
    /// 0x40: stream descriptors; byte 0 is the stride (Proven), byte 1 not established.
    pub streams: [[u8; 2]; 16],
    /// 0x60: element count (Proven).
    pub element_count: u8,
    /// 0x61: stream count (Proven).
    pub stream_count: u8,
    /// 0x62: two unknown bytes (Unknown).
    pub unknown: [u8; 2],
}

impl Declaration {
    /// The used elements (at most sixteen whatever the count says).
    pub fn used(&self) -> &[Element] {
        &self.elements[..(self.element_count as usize).min(16)]
    }

    pub fn stride(&self, stream: usize) -> u32 {
        self.streams.get(stream).map_or(0, |s| s[0] as u32)
    }

    pub fn has_usage(&self, usage: u8) -> bool {
        self.used().iter().any(|e| e.usage == usage)
    }
}

/// Name of a usage and whether the description's usage table lists it (its confidence).
/// 51, 52 and the description's rows are skate.'s; the rest follow Frostbite's
/// VertexElementUsage list as published for Battlefield 3 (Venice Unleashed docs), so they
/// are Inferred for skate.
pub fn usage(u: u8) -> (Text, Confidence) {
    let observed = |s: &'static str| (Text::Borrowed(s), Confidence::Observed);
    let inferred = |s: &'static str| (Text::Borrowed(s), Confidence::Inferred);
    // Numbered usages name themselves from tables (no string made per element).
    const COLOR: [&str; 2] = ["color0", "color1"];
    const TEXCOORD: [&str; 8] =
        ["texcoord0", "texcoord1", "texcoord2", "texcoord3", "texcoord4", "texcoord5", "texcoord6", "texcoord7"];
    let numbered = |s: &str, n: u8, c| {
        let known = match s {
            "color" => COLOR.get(n as usize),
            "texcoord" => TEXCOORD.get(n as usize),
            _ => None,
        };
        (known.map_or_else(|| Text::Owned(format!("{s}{n}")), |&k| Text::Borrowed(k)), c)
    };
    match u {
        1 => observed("position"),
        2 => observed("bone_indices"),
        3 => inferred("bone_indices2"),
        4 => observed("bone_weights"),
        5 => inferred("bone_weights2"),
        6 => inferred("normal"),
        7 => inferred("tangent"),
        8 => inferred("binormal"),
        9 => inferred("binormal_sign"),
        10..=12 => numbered("world_trans", u - 9, Confidence::Inferred),
        13 => inferred("instance_id"),
        14 | 15 => numbered("instance_user_data", u - 14, Confidence::Inferred),
        16 => inferred("xenon_index"),
        17 => inferred("xenon_barycentric"),
        18 => inferred("xenon_quad_id"),
        19 => inferred("index"),
        20 => inferred("view_index"),
        30 | 31 => numbered("color", u - 30, Confidence::Observed),
        33 | 34 => numbered("texcoord", u - 33, Confidence::Observed),
        35..=40 => numbered("texcoord", u - 33, Confidence::Inferred),
        41 => inferred("radiosity_texcoord"),
        42 => inferred("vis_info"),
        43 => inferred("sprite_size"),
        44..=47 => numbered("packed_texcoord", u - 44, Confidence::Inferred),
        48 | 49 => numbered("clip_distance", u - 48, Confidence::Inferred),
        51 => observed("sub_material_selector"),
        52 => observed("packed_tangent_space"),
        60 => inferred("branch_info"),
        61 => inferred("pos_and_scale"),
        62 => inferred("rotation"),
        63 => inferred("sprite_size_and_uv"),
        _ => numbered("unknown_usage_", u, Confidence::Unknown),
    }
}

/// The value texts of a declaration's bytes, made once: for each byte value its usage as
/// `N (name)` with the usage's confidence, and its format as `0xNN (name)`.
struct Texts {
    usage: [(Short, Confidence); 256],
    format: [Short; 256],
}

fn texts() -> &'static Texts {
    static TEXTS: std::sync::OnceLock<Texts> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let num = |b: usize| decimal(b as u64, &mut Digits::new()).to_string();
        // The table lives as long as the program: a text too long to be inline is kept by
        // reference, so that recording it copies no string.
        let keep = |s: String| Short::from_static(Box::leak(s.into_boxed_str()));
        Texts {
            usage: std::array::from_fn(|b| {
                let (name, c) = usage(b as u8);
                (keep([&num(b), " (", &name, ")"].concat()), c)
            }),
            format: std::array::from_fn(|b| {
                let name = element_format::info(b as u8).map_or("unknown format", |x| x.0);
                keep(["0x", hex2(b as u8, &mut [0; 2]), " (", name, ")"].concat())
            }),
        }
    })
}

/// Byte `b` of a declaration, just read from `r`, shown in decimal as the laid-out parts
/// show it (`Fields::value_of`).
fn byte(f: &mut Fields, r: &Reader, b: u8) -> Value {
    f.value_of(r, 1, Kind::Unsigned, || decimal(b.into(), &mut Digits::new()).to_string())
}

/// The rest of each of the 16 slots' path prefixes after `.element[` or `.stream[`: one join a
/// slot, where four parts were joined (a declaration is most of a MeshSet's fields).
const SLOTS: [&str; 16] = [
    "0].", "1].", "2].", "3].", "4].", "5].", "6].", "7].", "8].", "9].", "10].", "11].", "12].", "13].", "14].",
    "15].",
];

/// Reads a declaration at the cursor, recording its fields under `path`. Slots past the
/// element and stream counts are read by nothing (the chunk decoder stops at the counts
/// too): each run of them is one field, so a declaration of two streams is not shown, or
/// censused, as fourteen streams of stride 0.
pub fn read(f: &mut Fields, r: &mut Reader, path: &PathText) -> Result<Declaration> {
    let mut d = Declaration::default();
    let start = r.offset();
    // The declaration's bytes, for the runs of unused slots.
    let own = r.peek(SIZE).unwrap_or(&[]);
    f.record(path.clone(), start, SIZE as u64);
    if let (Ok(whole), true) = (<&[u8; SIZE]>::try_from(own), f.lays_out(r, SIZE as u64)) {
        f.add_laid(start, SIZE as u64, path.clone(), LayoutRef(&LAYOUT));
        r.skip(SIZE)?;
        return Ok(parse(whole));
    }
    // The counts come after the slots; peek them so unused slots are not named.
    let counts: [u8; 2] =
        r.window(r.position() + COUNTS_AT, 2).ok().and_then(|mut w| w.array().ok()).unwrap_or([16, 16]);
    let (count, stream_count) = ((counts[0] as usize).min(16), (counts[1] as usize).min(16));
    // Paths are joined by hand from a prefix per slot, and the value texts of a byte come
    // from `Texts`: a declaration is most of a MeshSet's fields.
    let t = texts();
    let note = ELEMENT_NOTE;
    let (elements, streams) = (path.join(".element["), path.join(".stream["));
    for (i, slot) in SLOTS.iter().enumerate() {
        let at = r.offset();
        let b: [u8; 4] = r.array().map_err(|e| e.at_path(&format!("{path}.element[{i}]")))?;
        d.elements[i] = Element { usage: b[0], format: b[1], offset: b[2], stream: b[3] };
        if i < count {
            let prefix = elements.join(slot);
            let field = |name: &str| prefix.join(name);
            let (usage_text, uconf) = &t.usage[b[0] as usize];
            f.add(at, 1, field("usage"), "u8", usage_text.clone(), *uconf, note);
            f.add(at + 1, 1, field("format"), "u8", t.format[b[1] as usize].clone(), Confidence::Proven, note);
            let (offset, stream) = (byte(f, r, b[2]), byte(f, r, b[3]));
            f.add(at + 2, 1, field("offset"), "u8", offset, Confidence::Proven, note);
            f.add(at + 3, 1, field("stream"), "u8", stream, Confidence::Proven, note);
        }
    }
    let whole = Own { bytes: own, start, path };
    let slots = Unused { name: ".unused_element_slots", from: 4 * count, to: 0x40, ty: "u8[4][]" };
    unused(f, r, &whole, slots, UNUSED_ELEMENTS_NOTE);
    for (i, slot) in SLOTS.iter().enumerate() {
        let at = r.offset();
        let b: [u8; 2] = r.array().map_err(|e| e.at_path(&format!("{path}.stream[{i}]")))?;
        d.streams[i] = b;
        if i < stream_count {
            let prefix = streams.join(slot);
            let field = |name: &str| prefix.join(name);
            let (stride, unknown) = (byte(f, r, b[0]), byte(f, r, b[1]));
            f.add(at, 1, field("stride"), "u8", stride, Confidence::Proven, STRIDE_NOTE);
            f.add(at + 1, 1, field("unknown"), "u8", unknown, Confidence::Unknown, STREAM_BYTE_NOTE);
        }
    }
    let slots = Unused { name: ".unused_stream_slots", from: 0x40 + 2 * stream_count, to: 0x60, ty: "u8[2][]" };
    unused(f, r, &whole, slots, UNUSED_STREAMS_NOTE);
    d.element_count = f.read(r, path.join(".element_count"), Confidence::Proven, "")?;
    d.stream_count = f.read(r, path.join(".stream_count"), Confidence::Proven, "")?;
    d.unknown = r.array().map_err(|e| e.at_path(&format!("{path}.unknown")))?;
    let value = f.value_of(r, 2, Kind::Hex, || crate::field::show_hex(&d.unknown));
    f.add(r.offset() - 2, 2, path.join(".unknown"), "u8[2]", value, Confidence::Unknown, "");
    debug_assert_eq!(r.offset() - start, SIZE as u64);
    Ok(d)
}

const ELEMENT_NOTE: &str = "Each element is four bytes in usage/format/offset/stream order.";
const STRIDE_NOTE: &str = "First byte of each pair is stride throughout the MeshSet census.";
const STREAM_BYTE_NOTE: &str = "Second byte's meaning is not established here.";
const UNUSED_ELEMENTS_NOTE: &str = "Element slots past the element count.";
const UNUSED_STREAMS_NOTE: &str = "Stream descriptors past the stream count.";

/// A declaration from its 100 bytes.
pub fn parse(b: &[u8; SIZE]) -> Declaration {
    let mut d = Declaration { element_count: b[COUNTS_AT], stream_count: b[COUNTS_AT + 1], ..Default::default() };
    for (i, e) in d.elements.iter_mut().enumerate() {
        *e = Element { usage: b[4 * i], format: b[4 * i + 1], offset: b[4 * i + 2], stream: b[4 * i + 3] };
    }
    for (i, s) in d.streams.iter_mut().enumerate() {
        *s = [b[0x40 + 2 * i], b[0x41 + 2 * i]];
    }
    d.unknown = [b[0x62], b[0x63]];
    d
}

/// A declaration laid out statically (`laid`): the census's decode records it as one
/// placeholder, and these parts are the fields `read` records otherwise, in its order.
pub struct DeclarationLayout;

pub static LAYOUT: DeclarationLayout = DeclarationLayout;

/// Group names, one a slot.
const ELEMENTS: [&str; 16] = [
    "element[0]",
    "element[1]",
    "element[2]",
    "element[3]",
    "element[4]",
    "element[5]",
    "element[6]",
    "element[7]",
    "element[8]",
    "element[9]",
    "element[10]",
    "element[11]",
    "element[12]",
    "element[13]",
    "element[14]",
    "element[15]",
];
const STREAMS: [&str; 16] = [
    "stream[0]",
    "stream[1]",
    "stream[2]",
    "stream[3]",
    "stream[4]",
    "stream[5]",
    "stream[6]",
    "stream[7]",
    "stream[8]",
    "stream[9]",
    "stream[10]",
    "stream[11]",
    "stream[12]",
    "stream[13]",
    "stream[14]",
    "stream[15]",
];

/// A part that is a field of a declaration.
struct PartOf {
    name: &'static str,
    group: u16,
    start: usize,
    len: usize,
    ty: &'static str,
    confidence: Confidence,
    value: PartValue,
    note: &'static str,
}

fn part(p: PartOf) -> Part {
    let PartOf { name, group, start, len, ty, confidence, value, note } = p;
    Part { name, group, kids: 0, start: start as u32, len: len as u32, ty, confidence, value, note }
}

/// A group of `kids` parts at `start`.
fn group(name: &'static str, start: usize, len: usize, kids: u16) -> Part {
    let (ty, value) = ("", PartValue::Group);
    Part {
        name,
        group: IN_RECORD,
        kids,
        start: start as u32,
        len: len as u32,
        ty,
        confidence: Confidence::Proven,
        value,
        note: "",
    }
}

impl Layout for DeclarationLayout {
    fn parts(&self, own: &[u8], out: &mut Vec<Part>) {
        out.clear();
        let Ok(b) = <&[u8; SIZE]>::try_from(own) else { return };
        let t = texts();
        let (count, stream_count) = ((b[COUNTS_AT] as usize).min(16), (b[COUNTS_AT + 1] as usize).min(16));
        let text = |s: &'static Short| PartValue::Text(s);
        for (i, name) in ELEMENTS.iter().enumerate().take(count) {
            let (g, at) = (out.len() as u16, 4 * i);
            out.push(group(name, at, 4, 4));
            let (usage, uconf) = &t.usage[b[at] as usize];
            let field = |name, k: usize, confidence, value| {
                part(PartOf { name, group: g, start: at + k, len: 1, ty: "u8", confidence, value, note: ELEMENT_NOTE })
            };
            out.push(field("usage", 0, *uconf, text(usage)));
            out.push(field("format", 1, Confidence::Proven, text(&t.format[b[at + 1] as usize])));
            out.push(field("offset", 2, Confidence::Proven, PartValue::Of(Kind::Unsigned)));
            out.push(field("stream", 3, Confidence::Proven, PartValue::Of(Kind::Unsigned)));
        }
        let unused = |name, start: usize, end: usize, ty, note| {
            let value = PartValue::Of(Kind::Hex);
            let p = PartOf {
                name,
                group: IN_RECORD,
                start,
                len: end - start,
                ty,
                confidence: Confidence::Inferred,
                value,
                note,
            };
            (start < end).then(|| part(p))
        };
        out.extend(unused("unused_element_slots", 4 * count, 0x40, "u8[4][]", UNUSED_ELEMENTS_NOTE));
        for (i, name) in STREAMS.iter().enumerate().take(stream_count) {
            let (g, at) = (out.len() as u16, 0x40 + 2 * i);
            out.push(group(name, at, 2, 2));
            let field = |name, k: usize, confidence, note| {
                let value = PartValue::Of(Kind::Unsigned);
                part(PartOf { name, group: g, start: at + k, len: 1, ty: "u8", confidence, value, note })
            };
            out.push(field("stride", 0, Confidence::Proven, STRIDE_NOTE));
            out.push(field("unknown", 1, Confidence::Unknown, STREAM_BYTE_NOTE));
        }
        out.extend(unused("unused_stream_slots", 0x40 + 2 * stream_count, COUNTS_AT, "u8[2][]", UNUSED_STREAMS_NOTE));
        let own = |name, start, len, ty, confidence, kind| {
            let value = PartValue::Of(kind);
            part(PartOf { name, group: IN_RECORD, start, len, ty, confidence, value, note: "" })
        };
        out.push(own("element_count", COUNTS_AT, 1, "u8", Confidence::Proven, Kind::Unsigned));
        out.push(own("stream_count", COUNTS_AT + 1, 1, "u8", Confidence::Proven, Kind::Unsigned));
        out.push(own("unknown", COUNTS_AT + 2, 2, "u8[2]", Confidence::Unknown, Kind::Hex));
    }
}

/// A declaration being read: its 100 bytes, where they start in the file, its path.
struct Own<'a> {
    bytes: &'a [u8],
    start: u64,
    path: &'a PathText,
}

/// A run of unused slots: bytes `[from, to)` of the declaration, recorded as field `name`.
struct Unused {
    name: &'static str,
    from: usize,
    to: usize,
    ty: &'static str,
}

/// Records a run of unused slots of `own` as one field, when there are any; `r` is the
/// reader over the file the declaration is in. Inferred: they are unused because of a count.
fn unused(f: &mut Fields, r: &Reader, own: &Own, u: Unused, note: &'static str) {
    if let Some(b) = own.bytes.get(u.from..u.to).filter(|b| !b.is_empty()) {
        let len = b.len() as u64;
        let value = f.value_of(r, len, Kind::Hex, || crate::field::show_hex(b));
        let path = own.path.join(u.name);
        f.add(own.start + u.from as u64, len, path, u.ty, value, Confidence::Inferred, note);
    }
}

/// Writes a declaration's 100 bytes.
pub fn write(d: &Declaration, out: &mut [u8; SIZE]) {
    for (i, e) in d.elements.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&[e.usage, e.format, e.offset, e.stream]);
    }
    for (i, s) in d.streams.iter().enumerate() {
        out[0x40 + i * 2..0x42 + i * 2].copy_from_slice(s);
    }
    out[0x60] = d.element_count;
    out[0x61] = d.stream_count;
    out[0x62..0x64].copy_from_slice(&d.unknown);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields of `d` read at offset 8 of a file, and the file.
    fn fields_of(d: &Declaration) -> (Fields, [u8; 8 + SIZE]) {
        let mut bytes = [0xAAu8; 8 + SIZE];
        let mut own = [0u8; SIZE];
        write(d, &mut own);
        bytes[8..].copy_from_slice(&own);
        let mut f = Fields::over(&bytes);
        let mut r = Reader::new(&bytes);
        r.seek(8).unwrap();
        assert_eq!(read(&mut f, &mut r, &"decl".into()).unwrap(), *d);
        (f, bytes)
    }

    #[test]
    fn laid_out_it_expands_to_the_fields_read_records() {
        // Every pair of counts to past sixteen, over bytes that differ from slot to slot.
        for (e, s) in (0..=18u8).flat_map(|e| (0..=18u8).map(move |s| (e, s))) {
            let mut own = [0u8; SIZE];
            own.iter_mut().enumerate().for_each(|(i, b)| *b = (i as u8).wrapping_mul(37) ^ e ^ (s << 3));
            (own[COUNTS_AT], own[COUNTS_AT + 1]) = (e, s);
            let mut bytes = vec![0x55u8; 8];
            bytes.extend_from_slice(&own);
            let read_with = |mut f: Fields| {
                let mut r = Reader::new(&bytes);
                r.seek(8).unwrap();
                let d = read(&mut f, &mut r, &"lod[0].section[1].draw_declaration".into()).unwrap();
                assert_eq!(r.offset(), 8 + SIZE as u64, "{e} {s}");
                (f, d)
            };
            let (fields, d) = read_with(Fields::over(&bytes));
            let (laid, d2) = read_with(Fields::laying_over(&bytes));
            assert_eq!(d2, d, "{e} {s}");
            assert_eq!(laid.spans.len(), 1, "one placeholder");
            assert_eq!((laid.spans[0].start, laid.spans[0].len), (8, SIZE as u64));
            assert_eq!(laid.records, fields.records);
            assert_eq!(crate::laid::expand_all(laid.spans, &bytes), fields.spans, "{e} {s}");
        }
    }

    #[test]
    fn a_declaration_the_file_cuts_short_is_read_field_by_field() {
        let bytes = [1u8; 8 + SIZE - 1];
        let mut f = Fields::laying_over(&bytes);
        let mut r = Reader::new(&bytes);
        r.seek(8).unwrap();
        assert!(read(&mut f, &mut r, &"decl".into()).is_err());
        assert!(!f.spans.is_empty() && f.spans.iter().all(|s| !matches!(s.value, crate::span::Value::Laid(_))));
        // Over bytes that are not the file's, values keep their text: nothing is laid out.
        let copy = [1u8; 8 + SIZE];
        let mut f = Fields::laying_over(&bytes);
        assert!(read(&mut f, &mut Reader::new(&copy), &"decl".into()).is_ok());
        assert_eq!(f.spans.len(), span_count([1, 1]));
    }

    #[test]
    fn slots_past_the_counts_are_one_field_each_and_every_byte_is_covered() {
        let mut d = Declaration { element_count: 3, stream_count: 2, ..Default::default() };
        for (i, e) in d.elements.iter_mut().enumerate().take(3) {
            *e = Element { usage: [1, 52, 33][i], format: [3, 0x0d, 6][i], offset: [0, 0, 4][i], stream: [0, 1, 1][i] };
        }
        d.streams[0] = [12, 0];
        d.streams[1] = [8, 0];
        d.streams[9] = [7, 7];
        let (f, file) = fields_of(&d);
        assert_eq!(f.spans.len(), span_count([3, 2]));
        let paths: Vec<&str> = f.spans.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths.iter().filter(|p| p.contains(".element[")).count(), 12);
        assert_eq!(paths.iter().filter(|p| p.contains(".stream[")).count(), 4);
        let unused = f.spans.iter().find(|s| s.path == "decl.unused_stream_slots").unwrap();
        assert_eq!((unused.start, unused.len, unused.confidence), (8 + 0x44, 28, Confidence::Inferred));
        // A byte in an unused slot is shown, not dropped.
        assert!(unused.text(&file).contains("07 07"), "{:?}", unused.value);
        let elems = f.spans.iter().find(|s| s.path == "decl.unused_element_slots").unwrap();
        assert_eq!((elems.start, elems.len), (8 + 12, 52));
        // The spans tile the declaration: each starts where the one before ends.
        let mut at = 8;
        for s in &f.spans {
            assert_eq!(s.start, at, "{}", s.path);
            at = s.end();
        }
        assert_eq!(at, 8 + SIZE as u64);
        // Full counts leave no unused slots; a count past sixteen reads sixteen.
        for n in [16, 200] {
            let (f, _) = fields_of(&Declaration { element_count: n, stream_count: n, ..Default::default() });
            assert_eq!(f.spans.len(), span_count([n, n]));
            assert!(f.spans.iter().all(|s| !s.path.contains("unused_")));
            assert_eq!(f.spans.iter().filter(|s| s.path.contains(".stream[")).count(), 32);
            assert_eq!(f.spans.iter().filter(|s| s.path.contains(".element[")).count(), 64);
        }
    }
}
