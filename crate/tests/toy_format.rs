//! A format of a few fields, written the way docs/adding-a-format.md says, built and decoded
//! through `FileFormat`: the walk-through of that page, done for real.
//!
//! The toy format: `TOY1`, a u32 item count, then per item a u16 id and a u16 value; the
//! value of an item whose id is 0 is Unknown to us.

use meshscope::document::Document;
use meshscope::error::Result;
use meshscope::formats::{Axes, Details, FileFormat, Format, Up};
use meshscope::model::{Basis, Check, Decode};
use meshscope::read::Reader;
use meshscope::span::Fields;
use meshscope::Confidence;

/// The format's one implementation (in a real format: `formats/toy/file_format.rs`).
struct Toy;

/// Its name, declared where the format is (in the crate: `impl Format { pub const Toy .. }`).
const TOY: Format = Format::new("toy");

/// What the toy keeps for its writer: the items as read. Any type of the format's own.
#[derive(Debug, PartialEq)]
struct ToyDetails {
    items: Vec<(u16, u16)>,
}

/// Reads the file after its description into `d`; stops at the first error, keeping what it
/// read.
fn read(d: &mut Decode, r: &mut Reader) -> Result<()> {
    let mut items = Vec::new();
    let f = &mut d.fields;
    f.fourcc(r, "header.magic", Confidence::Proven, "TOY1.")?;
    let count: u32 = f.read(r, "header.count", Confidence::Proven, "Items that follow.")?;
    // A count from the file sizes nothing before it is checked against the bytes left.
    let fit = r.check_count(count as u64, 4, "header.count");
    d.checks.push(Check {
        name: "items fit in the file".into(),
        passed: fit.is_ok(),
        stored: count.to_string().into(),
        measured: (r.remaining() / 4).to_string().into(),
        offset: Some(4),
        path: "header.count".into(),
        basis: Basis::Description,
        tolerance: String::new(),
    });
    for i in 0..count {
        let base = r.offset();
        let id: u16 = f.read(r, format!("item[{i}].id"), Confidence::Proven, "The item's id.")?;
        let level = if id == 0 { Confidence::Unknown } else { Confidence::Observed };
        let value: u16 = f.read(r, format!("item[{i}].value"), level, "Meaning not known for id 0.")?;
        f.record(format!("item[{i}]"), base, 4);
        items.push((id, value));
    }
    d.facts.push(("items".into(), count.to_string().into()));
    d.details = Details::new(ToyDetails { items });
    Ok(())
}

impl FileFormat for Toy {
    fn format(&self) -> Format {
        TOY
    }

    fn detect(&self, _name: &str, bytes: &[u8]) -> bool {
        bytes.starts_with(b"TOY1")
    }

    fn decode(&self, _name: &str, bytes: &[u8]) -> Decode {
        let mut d = Decode { fields: Fields::over(bytes), ..Decode::default() };
        let mut r = Reader::new(bytes);
        if let Err(e) = read(&mut d, &mut r) {
            d.errors.push(e);
        }
        d
    }

    fn rewrite(&self, details: &Details, _bytes: &[u8]) -> Option<Result<Vec<u8>>> {
        details.get::<ToyDetails>().map(|t| Ok(build(&t.items)))
    }
}

/// A toy file of `items` (id, value).
fn build(items: &[(u16, u16)]) -> Vec<u8> {
    let mut b = b"TOY1".to_vec();
    b.extend((items.len() as u32).to_le_bytes());
    for (id, v) in items {
        b.extend(id.to_le_bytes());
        b.extend(v.to_le_bytes());
    }
    b
}

#[test]
fn a_toy_format_decodes_through_the_trait() {
    let bytes = build(&[(7, 300), (0, 9)]);
    assert!(Toy.detect("a.toy", &bytes));
    assert!(!Toy.detect("a.toy", b"TOY2"));
    let d = Toy.decode("a.toy", &bytes);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let texts: Vec<_> = d.fields.spans.iter().map(|s| s.text(&bytes)).collect();
    let shown: Vec<(u64, &str, &str)> =
        d.fields.spans.iter().zip(&texts).map(|(s, t)| (s.start, s.path.as_str(), t.as_str())).collect();
    assert_eq!(
        shown,
        [
            (0, "header.magic", "TOY1"),
            (4, "header.count", "2"),
            (8, "item[0].id", "7"),
            (10, "item[0].value", "300"),
            (12, "item[1].id", "0"),
            (14, "item[1].value", "9"),
        ]
    );
    assert!(d.checks.iter().all(|c| c.passed));
    assert_eq!(d.details.get::<ToyDetails>(), Some(&ToyDetails { items: vec![(7, 300), (0, 9)] }));
    // The document indexes it like any format's decode: tree, span map, coverage.
    let doc = Document::from_decode("a.toy", Toy.format(), bytes.clone(), d);
    assert_eq!(serde_json::to_value(doc.summary()).unwrap()["format"], "toy");
    assert_eq!(Toy.rewrite(&doc.details, &doc.bytes).unwrap().unwrap(), bytes);
    let names: Vec<&str> = doc.tree().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["header", "item[0]", "item[1]"]);
    assert_eq!(doc.tree_json(), meshscope::tree::to_json(doc.tree()), "the page's tree JSON is the nodes'");
    let c = doc.coverage();
    assert_eq!((c.proven, c.observed, c.unknown, c.uncovered), (12, 2, 2, 0));
    assert_eq!(doc.span_at(15).map(|s| s.path.to_string()), Some("item[1].value".to_string()));
}

#[test]
fn a_short_toy_file_keeps_what_it_decoded_and_names_the_field() {
    let mut bytes = build(&[(1, 2), (3, 4)]);
    bytes.truncate(13);
    let d = Toy.decode("b.toy", &bytes);
    assert_eq!(d.errors.len(), 1);
    assert_eq!((d.errors[0].offset, d.errors[0].path.as_str()), (12, "item[1].id"));
    assert_eq!(d.fields.spans.len(), 4, "magic, count and item 0 are kept");
    assert!(!d.checks[0].passed, "2 items do not fit in the 5 bytes left");
    // The trait's defaults: no structure-only decode, no companions; no details, no rewrite;
    // a mesh oriented as glTF's.
    assert!(Toy.decode_structure(&bytes).is_none());
    assert_eq!(Toy.axes(), Axes { up: Up::Y, clockwise: false });
    assert!(d.details.is_none());
    assert!(Toy.rewrite(&d.details, &bytes).is_none());
    let doc = Document::from_decode("b.toy", TOY, bytes.clone(), Decode::default());
    assert!(Toy.attach(&doc.as_parent(), None, "c.toy", &[]).is_err());
    assert_eq!(Toy.decode_fields("b.toy", &bytes).fields.spans.len(), 4);
}
