//! Decoding a MeshSet resource from what it stores: records through their pointers, the pool
//! items they name, the relocation table where the metadata puts it (else after the last
//! pointed-to byte, 16-aligned), trailing data after the table's padding, inline geometry.

use super::header::{self, HeaderPtrs};
use super::lod::{self, LodPtrs};
use super::placement::{self, HeaderPlace, LodPlace, Placement};
use super::pool::{align, lod_prefix, Ptr, SectionId};
use super::section::{self, SectionPtrs};
use super::{checks, chunk, declaration, relocation, stored, MeshSetDetails};
use crate::error::{Error, Result};
use crate::field::{decimal, Digits, FieldType};
use crate::model::{Check, Decode};
use crate::read::Reader;
use crate::short::PathText;
use crate::show::{made_once, show_list, text_short_of};
use crate::span::{Confidence, Fields, Kind, Value};
use std::sync::OnceLock;

/// One pointer field as read, with the bytes of what it names (0 for an empty list).
#[derive(Debug, Clone)]
pub struct Pointed {
    pub ptr: Ptr,
    pub len: u64,
    /// It names a record (a LOD record or a section array), not a pooled item.
    pub record: bool,
}

/// Every pointer field the records hold, in the order read.
#[derive(Debug, Clone, Default)]
pub struct Pointers {
    pub all: Vec<Pointed>,
}

impl Pointers {
    fn push(&mut self, ptr: &Ptr, len: u64, record: bool) {
        self.all.push(Pointed { ptr: *ptr, len, record });
    }
    /// The sorted offsets of the pointer fields.
    pub fn fields(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.all.iter().map(|p| p.ptr.at).collect();
        v.sort_unstable();
        v
    }
}

fn target(p: &Ptr, file: &Reader) -> Result<usize> {
    match p.target() {
        Some(t) if t < file.len() as u64 => Ok(t as usize),
        _ => Err(Error::bad_value(
            p.at,
            p.path.to_string(),
            format!("pointer 0x{:x} lands outside the {}-byte resource", p.value, file.len()),
        )),
    }
}

/// What reading the pool collects besides the fields: where each part lies.
struct Pool<'a, 'b> {
    f: &'b mut Fields,
    file: &'b Reader<'a>,
    ptrs: &'b mut Pointers,
    place: &'b mut Placement,
    /// [start, end) of every record and pooled item read.
    covered: &'b mut Vec<(usize, usize)>,
    errors: Vec<Error>,
    strings: usize,
}

/// `pool.keep(r)` for a result of one of the pool's own reads.
macro_rules! keep {
    ($pool:expr, $e:expr) => {{
        let r = $e;
        $pool.keep(r)
    }};
}

/// How a pooled list of numbers is recorded: one span for the whole list.
struct NumberList {
    path: PathText,
    ty: &'static str,
    note: &'static str,
}

/// A pooled list of fixed-size items, and how each is recorded: item `j` as `{path}[{j}]`.
struct ItemList<T> {
    path: String,
    size: u64,
    ty: &'static str,
    note: &'static str,
    read: fn(&mut Reader) -> Result<T>,
    /// How an item's bytes show, exactly as `show` shows the item read from them.
    kind: Kind,
    show: fn(&T) -> String,
}

impl<'a> Pool<'a, '_> {
    fn keep<T>(&mut self, r: Result<T>) -> Option<T> {
        r.map_err(|e| self.errors.push(e)).ok()
    }

    /// The `n` items of `list` at `p`, each recorded as a span; those before a short read
    /// are kept (the pool's bounds check reports it).
    fn fixed_items<T>(&mut self, p: &Ptr, n: u64, list: &ItemList<T>) -> Vec<T> {
        let Some(mut r) = keep!(self, self.items(p, n, list.size)) else { return Vec::new() };
        // `items` checked the count against the bytes there.
        let mut out = Vec::with_capacity(n as usize);
        let head = PathText::from(&list.path);
        for j in 0..n {
            let at = r.offset();
            let Ok(v) = (list.read)(&mut r) else { break };
            let path = head.item(j);
            let value = self.f.value_of(&r, list.size, list.kind, || (list.show)(&v));
            self.f.add(at, list.size, path, list.ty, value, Confidence::Proven, list.note);
            out.push(v);
        }
        out
    }

    /// The `n` numbers of a pooled list at `p`, recorded as one span (none for an empty
    /// list); `None` when the pool does not hold them (the error is kept).
    fn numbers<T: FieldType + Copy + Into<u64>>(&mut self, p: &Ptr, n: u64, list: NumberList) -> Option<Vec<T>> {
        let width = std::mem::size_of::<T>() as u64;
        let mut r = keep!(self, self.items(p, n, width))?;
        let at = r.offset();
        // `items` checked the count against the bytes there.
        let mut v: Vec<T> = Vec::with_capacity(n as usize);
        v.extend((0..n).map_while(|_| T::read(&mut r).ok()));
        if n > 0 {
            let len = width * n;
            let value = self.f.value_of(&r, len, Kind::List { width: width as u8 }, || show_list(&v));
            self.f.add(at, len, list.path, list.ty, value, Confidence::Proven, list.note);
        }
        Some(v)
    }

    /// A NUL-terminated string at a pointer, recorded as `pool.strings[k]`; its bytes when
    /// they are not UTF-8 are kept for the writer.
    fn string(&mut self, p: &Ptr, note: &'static str) -> Result<(String, usize)> {
        let slot = self.ptrs.all.len();
        self.ptrs.push(p, 0, false);
        let at = target(p, self.file)?;
        let rest = self.file.from(at)?;
        let len = memchr::memchr(0, rest.data()).ok_or_else(|| {
            Error::new(
                self.file.len() as u64,
                p.path.to_string(),
                crate::error::ErrorKind::Truncated { needed: rest.len() as u64 + 1, available: rest.len() as u64 },
            )
        })?;
        let b = rest.peek(len)?;
        static STRING_PATHS: OnceLock<Vec<PathText>> = OnceLock::new();
        let k = self.strings;
        self.strings += 1;
        let utf8 = std::str::from_utf8(b);
        let shown = if self.f.of_file(&rest, len as u64 + 1) {
            Value::Of(Kind::CString)
        } else {
            Value::Text(text_short_of(b, utf8))
        };
        self.f.add(
            at as u64,
            len as u64 + 1,
            made_once(k, &STRING_PATHS, |k, d| PathText::concat(&["pool.strings[", decimal(k, d), "]"])),
            "char[] + NUL",
            shown,
            Confidence::Proven,
            note,
        );
        self.covered.push((at, at + len + 1));
        self.ptrs.all[slot].len = len as u64 + 1;
        let s = match utf8 {
            Ok(s) => s.to_string(),
            Err(_) => {
                self.place.raw_strings.push((at, rest.peek(len + 1)?.to_vec()));
                String::from_utf8_lossy(b).into_owned()
            }
        };
        Ok((s, at))
    }

    /// `count` items of `size` bytes at a pointer, checked before anything is allocated.
    fn items(&mut self, p: &Ptr, count: u64, size: u64) -> Result<Reader<'a>> {
        self.ptrs.push(p, count * size, false);
        if count == 0 {
            return Ok(Reader::new(&[]));
        }
        let at = target(p, self.file)?;
        let r = self.file.from(at)?;
        let n = r.check_count(count, size, "").map_err(|e| e.at_path(&p.path.text()))?;
        self.covered.push((at, at + n));
        r.window(0, n)
    }

    /// A name part: an offset inside `name` when it points into it (the game's habit), else a
    /// string of its own (community tools place copies right after the name).
    fn name_part(&mut self, p: &Ptr, base: &Ptr, name: &str) -> Result<u32> {
        let off = p.value.wrapping_sub(base.value);
        if p.is_null() || (p.value >= base.value && off <= name.len() as u64) {
            self.ptrs.push(p, 0, false);
            return Ok(if p.is_null() { 0 } else { off as u32 });
        }
        let (s, at) = self.string(p, "A name part stored as a string of its own, apart from its name.")?;
        let bytes = self.file.window(at, s.len() + 1).map(|r| r.data().to_vec()).unwrap_or_default();
        self.place.copies.push((at, bytes));
        Ok(name.rfind(s.as_str()).unwrap_or(name.len()) as u32)
    }
}

pub fn decode(bytes: &[u8]) -> Decode {
    decode_with(bytes, true)
}

/// `decode`, with `checks` false leaving out what only a person reads: the checks of stored
/// against recomputed values, the summary's facts, the stored bounds on the mesh and the
/// mesh's sections of LODs whose geometry is in a chunk, and recording each vertex
/// declaration as one placeholder (`laid`). Fields (their placeholders expanded), regions and
/// errors are the same (the census, which reads only those, decodes this way; the fuzz
/// target compares the two).
pub fn decode_with(bytes: &[u8], checks: bool) -> Decode {
    decode_meta(bytes, checks, None)
}

/// Where the relocation table is and how many entries it has.
struct Table {
    at: usize,
    count: usize,
    /// The file ended where the next entry would be.
    ended: bool,
}

/// The table from the stored metadata, or after the last pointed-to byte (16-aligned) with
/// as many entries as name pointer fields not yet listed.
fn find_table(file: &Reader, meta: Option<[u32; 4]>, last: usize, fields: &[u64]) -> Table {
    if let Some(v) = meta {
        return Table { at: v[0] as usize, count: v[1] as usize / 4, ended: false };
    }
    let at = align(last, 16);
    let mut seen = vec![false; fields.len()];
    let mut count = 0;
    let mut ended = false;
    while count < fields.len() {
        let Ok(mut r) = file.window(at + 4 * count, 4) else {
            ended = true;
            break;
        };
        let Ok(e) = r.u32() else { break };
        match fields.binary_search(&(e as u64 + 16)) {
            Ok(k) if !seen[k] => seen[k] = true,
            _ => break,
        }
        count += 1;
    }
    Table { at, count, ended }
}

/// Some non-null pointer field is not among `entries`.
fn unlisted(ptrs: &Pointers, entries: &[u32]) -> bool {
    let mut listed: Vec<u64> = entries.iter().map(|&e| e as u64 + 16).collect();
    listed.sort_unstable();
    ptrs.all.iter().any(|p| !p.ptr.is_null() && listed.binary_search(&p.ptr.at).is_err())
}

/// `decode` with the bundle's resource metadata, when there is one: it says where the
/// relocation table is and how long.
pub fn decode_meta(bytes: &[u8], checks: bool, meta: Option<[u32; 4]>) -> Decode {
    let mut d = first(bytes, Lean { checks, lay: !checks }, meta);
    if checks {
        let later = later_checks(&d.details);
        d.checks.extend(later);
    }
    d
}

/// The checks made from a decode's details alone (`checks::from_details`); none for details
/// of another kind.
pub fn later_checks(details: &crate::formats::Details) -> Vec<Check> {
    let mut c = Vec::new();
    if let Some(m) = details.get::<MeshSetDetails>() {
        checks::from_details(&mut c, m);
    }
    c
}

/// `decode` less the checks made from the details alone (`checks::from_details`), which
/// can wait until someone reads the checks; its section records and declarations are
/// placeholders (`laid`), whose fields the document makes when asked for.
pub fn decode_first(bytes: &[u8]) -> Decode {
    first(bytes, Lean { checks: true, lay: true }, None)
}

/// What a decode leaves out or lays out.
#[derive(Clone, Copy)]
struct Lean {
    /// Whether what only a person reads is made (`decode_with`).
    checks: bool,
    /// Whether records laid out statically are recorded as placeholders (`laid`).
    lay: bool,
}

/// `decode_meta` less the checks made from the details alone.
fn first(bytes: &[u8], lean: Lean, meta: Option<[u32; 4]>) -> Decode {
    let checks = lean.checks;
    // The census and `open` lay records out (`laid`): declarations are most fields.
    let fields = if lean.lay { Fields::laying_over(bytes) } else { Fields::over(bytes) };
    let mut d = Decode { fields, ..Default::default() };
    // The header's fields and record; `records` reserves for the LOD and section records.
    // Room for those too in most files (a span a 16 bytes), so that the header's spans are
    // seldom copied to grow.
    d.fields.spans.reserve((bytes.len() / 16).clamp(64, 1024));
    d.fields.records.reserve(1);
    let mut m = MeshSetDetails { resmeta_stored: meta, ..Default::default() };
    let mut ptrs = Pointers::default();
    let mut place = Placement { len: bytes.len(), ..Default::default() };
    let mut covered = Vec::new();
    let file = Reader::new(bytes);
    if let Err(e) = records(&mut d, &mut m, &mut ptrs, &mut place, &mut covered, &file) {
        d.errors.push(e);
    }
    let records_end = covered.iter().map(|c| c.1).max().unwrap_or(0);
    // The last pointed-to byte: pooled items and records, empty lists where they point.
    let last = ptrs
        .all
        .iter()
        .filter(|p| !p.ptr.is_null())
        .filter_map(|p| p.ptr.target().map(|t| t.saturating_add(p.len)))
        .filter(|&e| e <= bytes.len() as u64)
        .max()
        .unwrap_or(0)
        .max(records_end as u64) as usize;
    let fields = ptrs.fields();
    let t = find_table(&file, meta, last, &fields);
    m.pool_range = (m.records_end, t.at);
    place.table_at = t.at;
    match relocation::read(&mut d.fields, &file, t.at, t.count) {
        Ok(entries) if t.ended && unlisted(&ptrs, &entries) => {
            // The file ends inside the table: pointers are left that it does not list.
            let end = t.at + 4 * t.count;
            m.relocation = entries;
            place.trailing_at = bytes.len();
            covered.push((t.at, end));
            d.errors.push(Error::new(
                end as u64,
                format!("relocation[{}]", t.count),
                crate::error::ErrorKind::Truncated {
                    needed: 4,
                    available: (bytes.len() - end.min(bytes.len())) as u64,
                },
            ));
        }
        Ok(entries) => {
            m.relocation = entries;
            m.table_found = true;
            let end = t.at + 4 * t.count;
            covered.push((t.at, end));
            place.trailing_at = align(end, 16).min(bytes.len());
            if place.trailing_at > end {
                if let Ok(mut r) = file.window(end, place.trailing_at - end) {
                    let _ = d.fields.bytes(
                        &mut r,
                        place.trailing_at - end,
                        "relocation.padding",
                        Confidence::Proven,
                        "After the table: padding to 16 bytes, then the trailing data.",
                    );
                }
            }
            m.trailing = file.from(place.trailing_at).map(|r| r.data().to_vec()).unwrap_or_default();
            covered.push((place.trailing_at, bytes.len()));
        }
        Err(e) => {
            place.trailing_at = bytes.len();
            d.errors.push(e);
        }
    }
    place.gaps = placement::gaps(bytes, &mut covered);
    m.placement = Some(place);
    m.resmeta_computed = super::writer::resmeta(&m);
    checks::pointers_outside(&mut d.errors, &m, &ptrs);
    inline(&mut d, &mut m, &file, checks);
    if checks {
        super::facts(&mut d.facts, &m);
        m.pointers = ptrs;
    }
    d.details = crate::formats::Details::new(m);
    d
}

/// The mesh's LODs; a LOD with an all-zero chunk GUID reads the trailing data: its vertex
/// buffer, index buffer and four zero bytes (several such LODs follow each other).
fn inline(d: &mut Decode, m: &mut MeshSetDetails, file: &Reader, checks: bool) {
    let mut trailing_at = m.placement.as_ref().map_or(file.len(), |p| p.trailing_at);
    // Only what a person reads needs the records' LODs where the geometry is in a chunk.
    d.mesh.lods =
        if checks { m.lods.iter().map(chunk::skeleton).collect() } else { vec![Default::default(); m.lods.len()] };
    m.measures = vec![Vec::new(); m.lods.len()];
    m.chunk_found = vec![false; m.lods.len()];
    let errors_before = d.errors.len();
    for (i, l) in m.lods.iter().enumerate() {
        if l.inline() && m.table_found {
            let data = file.from(trailing_at.min(file.len())).unwrap_or(Reader::new(&[]));
            let data = if data.is_empty() { Reader::with_base(&[], file.len() as u64) } else { data };
            let (lod, measured) =
                chunk::decode_lod(&mut d.fields, &mut d.errors, l, &data, &format!("trailing.lod[{i}]"), 0);
            d.mesh.lods[i] = lod;
            m.measures[i] = measured;
            m.chunk_found[i] = true;
            let pad_at = trailing_at + l.vertex_bytes as usize + l.index_bytes as usize;
            let path = format!("trailing.lod[{i}].padding");
            match file.window(pad_at, 4) {
                Ok(mut r) => {
                    let note = "The trailing data is the vertex buffer, then the index buffer, then four zero bytes";
                    let _ = d.fields.bytes(&mut r, 4, path, Confidence::Observed, note);
                }
                Err(e) if errors_before == d.errors.len() => d.errors.push(e.at_path(&path)),
                Err(_) => {}
            }
            trailing_at = pad_at.saturating_add(4);
        }
    }
    if checks {
        for (i, (out, l)) in d.mesh.lods.iter_mut().zip(&m.lods).enumerate() {
            stored::fill(out, &m.header, l, i);
        }
    }
    // Inline geometry stopped by a resource field: the error goes to that field's offset.
    let inline_errors = d.errors.split_off(errors_before.min(d.errors.len()));
    let (theirs, own) = chunk::in_resource(inline_errors, &d.fields.spans, file.data());
    d.errors.extend(theirs.into_iter().chain(own));
}

/// Spans a LOD record makes, with its name, lists and bones in the pool (at most).
const SPANS_PER_LOD: usize = 34;
/// Spans a section's name, bone list and bone mask make in the pool.
const SPANS_PER_SECTION_POOL: usize = 3;
/// Spans a section record makes besides its declarations, with its pooled items.
const SPANS_PER_SECTION: usize = 20 + SPANS_PER_SECTION_POOL;
/// Spans the header's pooled items make besides its bone bounds, and the table's padding.
const SPANS_AFTER: usize = 8;

/// How much the records and the pool will record after the header, so that each list is
/// sized once.
#[derive(Debug, Clone, Copy, Default)]
struct Estimate {
    spans: usize,
    lods: usize,
    sections: usize,
}

impl Estimate {
    /// The declared records: the header, each LOD record, each section record and its two
    /// declarations.
    fn records(&self) -> usize {
        1 + self.lods + 3 * self.sections
    }

    /// The pointer fields: the header's four and one a LOD, a LOD's ten, a section's two.
    fn pointers(&self) -> usize {
        4 + 11 * self.lods + 2 * self.sections
    }
}

/// Room for the checks of `m`: a LOD's name hash, a section's material hash and its three
/// measures, and about twenty for the whole file.
pub(super) fn check_room(m: &MeshSetDetails) -> usize {
    20 + m.lods.len() + 4 * m.lods.iter().map(|l| l.sections.len()).sum::<usize>()
}

/// How many spans, LODs and sections the records and the pool will record after the header,
/// from the counts the file stores: the LOD records' section counts and each section's
/// declaration counts, for the sections that are there (`RecordReader::sections` reads no
/// more). An estimate only: a count it cannot read counts nothing.
fn estimate(file: &Reader, h: &header::Header, hp: &HeaderPtrs, laying: bool) -> Estimate {
    let byte_at = |at: usize| file.window(at, 1).ok().and_then(|mut r| r.u8().ok());
    let mut e = Estimate { spans: SPANS_AFTER + h.bone_bounds_count().min(file.len() / 32), ..Default::default() };
    for p in &hp.lods {
        let Ok(at) = target(p, file) else { continue };
        e.spans += SPANS_PER_LOD;
        e.lods += 1;
        let Ok(mut r) = file.window(at + lod::SECTION_COUNT_AT, 12) else { continue };
        let (Ok(count), Ok(ptr)) = (r.u32(), r.u64()) else { continue };
        let Some(sat) = ptr.checked_add(super::pool::BASE).and_then(|t| usize::try_from(t).ok()) else { continue };
        let whole = (count as usize).min(file.len().saturating_sub(sat) / section::SIZE);
        e.sections += whole;
        // Laid out, a section record is one placeholder (`laid`), its declarations in it.
        if laying {
            e.spans += whole * (1 + SPANS_PER_SECTION_POOL);
            continue;
        }
        for k in 0..whole {
            e.spans += SPANS_PER_SECTION;
            for d in section::DECLARATIONS_AT {
                let at = sat + k * section::SIZE + d + declaration::COUNTS_AT;
                let counts = [byte_at(at).unwrap_or(16), byte_at(at + 1).unwrap_or(16)];
                e.spans += declaration::span_count(counts);
            }
        }
    }
    e
}

/// The records: header, LOD records and section records through their pointers; then the pool.
fn records(
    d: &mut Decode,
    m: &mut MeshSetDetails,
    ptrs: &mut Pointers,
    place: &mut Placement,
    covered: &mut Vec<(usize, usize)>,
    file: &Reader,
) -> Result<()> {
    let f = &mut d.fields;
    let (h, hp) = header::read(f, file)?;
    let e = estimate(file, &h, &hp, f.laying());
    f.spans.reserve(e.spans);
    f.records.reserve(e.records());
    ptrs.all.reserve(e.pointers());
    covered.reserve(e.records() + e.pointers());
    covered.push((0, h.size()));
    m.header = h;
    // Every LOD record first, then every LOD's sections: a cut section keeps the records
    // before it.
    let mut lptrs: Vec<LodPtrs> = Vec::with_capacity(hp.lods.len());
    place.header.lods.reserve(hp.lods.len());
    place.lods.reserve(hp.lods.len());
    let mut result = Ok(());
    let mut rec = RecordReader { f, m, file, covered };
    for (i, p) in hp.lods.iter().enumerate() {
        match rec.lod_record(p, i) {
            Ok(lp) => {
                ptrs.push(p, rec.m.header.lod_bytes as u64, true);
                place.header.lods.push(p.value);
                place.lods.push(LodPlace { sections: lp.sections.value, ..Default::default() });
                lptrs.push(lp);
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    let mut sptrs: Vec<Vec<SectionPtrs>> = Vec::with_capacity(lptrs.len());
    for (i, lp) in lptrs.iter().enumerate() {
        let mut sp = Vec::new();
        let r = if result.is_ok() { rec.sections(lp, i, &mut sp) } else { Ok(()) };
        ptrs.push(&lp.sections, (sp.len() * section::SIZE) as u64, true);
        place.sections.push(sp.iter().map(|s| [s.material.value, s.bones.value]).collect());
        sptrs.push(sp);
        if let Err(e) = r {
            result = Err(e);
        }
    }
    let RecordReader { f, m, covered, .. } = rec;
    m.header.lod_count = m.lods.len() as u16;
    m.records_end = covered.iter().map(|c| c.1).max().unwrap_or(0);
    let mut pool = Pool { f, file, ptrs, place, covered, errors: Vec::new(), strings: 0 };
    read_pool(&mut pool, m, &hp, &lptrs, &sptrs);
    d.errors.extend(pool.errors);
    result
}

/// What the LOD and section record readers share: the fields they record, the details they
/// fill, the file, and the byte ranges the records cover.
struct RecordReader<'a, 'f> {
    f: &'a mut Fields,
    m: &'a mut MeshSetDetails,
    file: &'a Reader<'f>,
    covered: &'a mut Vec<(usize, usize)>,
}

impl RecordReader<'_, '_> {
    /// LOD record `i` at its pointer.
    fn lod_record(&mut self, p: &Ptr, i: usize) -> Result<LodPtrs> {
        let RecordReader { f, m, file, covered } = self;
        let at = target(p, file)?;
        if at < m.header.size() {
            return Err(Error::bad_value(p.at, p.path.to_string(), "LOD pointer lands inside the header"));
        }
        let (l, lp) = lod::read(f, file, at, m.header.lod_bytes, i)?;
        covered.push((at, at + m.header.lod_bytes as usize));
        m.lod_at.push(at as u64);
        m.section_at.push(Vec::new());
        m.lods.push(l);
        Ok(lp)
    }

    /// LOD `i`'s section records at its section-array pointer; those read before a failure stay.
    fn sections(&mut self, lp: &LodPtrs, i: usize, sp: &mut Vec<SectionPtrs>) -> Result<()> {
        let RecordReader { f, m, file, covered } = self;
        if lp.section_count == 0 {
            return Ok(());
        }
        let sat = target(&lp.sections, file)?;
        // The whole sections there are, then the count's error if more were promised.
        let rest = file.from(sat)?;
        let count_path = lod_prefix(i).join("section_count");
        let fits = rest.check_count(lp.section_count as u64, section::SIZE as u64, &count_path);
        let whole = (lp.section_count as usize).min(rest.len() / section::SIZE);
        m.lods[i].sections.reserve(whole);
        sp.reserve(whole);
        m.section_at[i].reserve(whole);
        for k in 0..whole {
            let sa = sat + k * section::SIZE;
            let id = SectionId { lod: i as u32, section: k as u32 };
            let p = section::read(f, file, sa, id, &mut m.lods[i].sections)?;
            covered.push((sa, sa + section::SIZE));
            m.section_at[i].push(sa as u64);
            sp.push(p);
        }
        fits.map(|_| ()).map_err(|e| Error { offset: lp.section_count_at, ..e })
    }
}

fn read_pool(pool: &mut Pool, m: &mut MeshSetDetails, hp: &HeaderPtrs, lptrs: &[LodPtrs], sptrs: &[Vec<SectionPtrs>]) {
    for (i, (l, sp)) in m.lods.iter_mut().zip(sptrs).enumerate() {
        for (j, (s, p)) in l.sections.iter_mut().zip(sp).enumerate() {
            let note =
                "The strings: per LOD its section names then its Mesh:<name>_lodN name, then the MeshSet's name.";
            if let Some((v, _)) = keep!(pool, pool.string(&p.material, note)) {
                s.material = v;
            }
            let (mut a, mut b) = (Digits::new(), Digits::new());
            let (li, sj) = (decimal(i as u64, &mut a), decimal(j as u64, &mut b));
            let list = NumberList {
                path: PathText::concat(&["pool.bone_lists.lod[", li, "].section[", sj, "]"]),
                ty: "u16[]",
                note: "The bone lists (then 16-aligned).",
            };
            if let Some(bones) = pool.numbers(&p.bones, p.bone_count as u64, list) {
                s.bones = bones;
            }
        }
        let lp = &lptrs[i];
        let place = &mut pool.place.lods[i];
        (place.name, place.name_part, place.name_last) = (lp.name.value, lp.name_part.value, lp.name_last.value);
        let note = "The strings: per LOD its section names then its Mesh:<name>_lodN name, then the MeshSet's name.";
        if let Some((v, _)) = keep!(pool, pool.string(&lp.name, note)) {
            l.name = v;
            l.name_part = keep!(pool, pool.name_part(&lp.name_part, &lp.name, &l.name)).unwrap_or(0);
            l.name_last = keep!(pool, pool.name_part(&lp.name_last, &lp.name, &l.name)).unwrap_or(0);
        } else {
            pool.ptrs.push(&lp.name_part, 0, false);
            pool.ptrs.push(&lp.name_last, 0, false);
        }
    }
    let h = &mut m.header;
    pool.place.header.name = hp.name.value;
    pool.place.header.name_last = hp.name_last.value;
    let note = "The MeshSet's name (16-aligned).";
    if let Some((v, _)) = keep!(pool, pool.string(&hp.name, note)) {
        h.name = v;
        h.name_last = keep!(pool, pool.name_part(&hp.name_last, &hp.name, &h.name)).unwrap_or(0);
    } else {
        pool.ptrs.push(&hp.name_last, 0, false);
    }
    for (i, l) in m.lods.iter_mut().enumerate() {
        lists(pool, l, &lptrs[i], i);
        bones(pool, l, &lptrs[i], i);
    }
    if let (Some(ids), Some(bb)) = (&hp.bone_ids, &hp.bone_bounds) {
        bone_tables(pool, &mut m.header, ids, bb);
    }
}

fn lists(pool: &mut Pool, l: &mut lod::Lod, lp: &LodPtrs, i: usize) {
    // Entry `5 i + j` of the table is LOD `i`'s list `j`.
    static PATHS: OnceLock<Vec<PathText>> = OnceLock::new();
    for (j, (c, p)) in lp.lists.iter().enumerate() {
        pool.place.lods[i].lists[j] = p.value;
        let sections = l.sections.len();
        let path = made_once(i * 5 + j, &PATHS, |n, d| {
            let mut e = Digits::new();
            PathText::concat(&["pool.section_lists.lod[", decimal(n / 5, d), "].list[", decimal(n % 5, &mut e), "]"])
        });
        let note = "Each LOD's five section-index lists, one LOD's after another (16-aligned after the last).";
        let list = NumberList { path: path.clone(), ty: "u8[]", note };
        let Some(v) = pool.numbers::<u8>(p, *c as u64, list) else { continue };
        if let Some(b) = v.iter().find(|&&x| x as usize >= sections) {
            let at = p.target().unwrap_or(0);
            pool.errors.push(Error::bad_value(at, path.to_string(), format!("section {b} of {sections}")));
        }
        l.lists[j] = v;
    }
}

fn bones(pool: &mut Pool, l: &mut lod::Lod, lp: &LodPtrs, i: usize) {
    if let Some(p) = &lp.bone_masks {
        pool.place.lods[i].bones = p.value;
        let n = if p.is_null() { 0 } else { l.sections.len() as u64 };
        let list = ItemList {
            path: format!("pool.bone_masks.lod[{i}].section"),
            size: 24,
            ty: "u8[24]",
            note: "0xb8 records: a 24-byte bone mask per section (16-aligned).",
            read: |r| r.array::<24>(),
            kind: Kind::Hex,
            show: |b| crate::field::show_hex(b),
        };
        l.bone_masks.extend(pool.fixed_items(p, n, &list));
    }
    if let Some((c, p)) = &lp.bone_map {
        pool.place.lods[i].bones = p.value;
        let list = NumberList {
            path: PathText::concat(&["pool.bone_map.lod[", decimal(i as u64, &mut Digits::new()), "]"]),
            ty: "u32[]",
            note: "0xbc records: u32 count, then pointer to u32 bone map (4-aligned).",
        };
        if let Some(map) = pool.numbers(p, *c as u64, list) {
            l.bone_map = map;
        }
    }
}

fn bone_tables(pool: &mut Pool, h: &mut header::Header, ids: &Ptr, bb: &Ptr) {
    pool.place.header = HeaderPlace { bone_ids: ids.value, bone_bounds: bb.value, ..pool.place.header.clone() };
    let n = h.bounded_bone_count as u64;
    let list = NumberList { path: "pool.bone_ids".into(), ty: "u16[]", note: "Bounded bone ids (16-aligned)." };
    if let Some(v) = pool.numbers(ids, n, list) {
        h.bone_ids = v;
    }
    let n = h.bone_bounds_count() as u64;
    let list = ItemList {
        path: "pool.bone_bounds".into(),
        size: 32,
        ty: "f32x4[2]",
        note: "f32x4 minimum and maximum per bounded bone, else per bone (16-aligned).",
        read: |r| r.f32x::<8>(),
        kind: Kind::Floats,
        show: |b| crate::field::show_floats(b),
    };
    h.bone_bounds.extend(pool.fixed_items(bb, n, &list));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh};
    use crate::span::Span;

    /// Meshes of every mesh type, one to four LODs, one to five sections, one LOD inline.
    fn meshes() -> Vec<BuildMesh> {
        let mut out = Vec::new();
        for mesh_type in 0..3u8 {
            for lods in 1..=4usize {
                let bone_count = if mesh_type == 0 { 0 } else { 3 + lods as u16 };
                let lods = (0..lods)
                    .map(|l| {
                        let sections = (0..=l + mesh_type as usize)
                            .map(|k| {
                                let mut t =
                                    if k % 2 == 0 { cube(&format!("M/{k}"), 1.0, [0.0; 3]) } else { grid("G", 2, 0.5) };
                                if mesh_type != 0 {
                                    t.bones = vec![0, 1, 2];
                                    t.joints = vec![[0, 1, 0, 0]; t.positions.len()];
                                    t.weights = vec![[0.5, 0.5, 0.0, 0.0]; t.positions.len()];
                                }
                                t
                            })
                            .collect();
                        BuildLod { sections, index_32: l == 1, inline: l == 2 }
                    })
                    .collect();
                out.push(BuildMesh { name: format!("props/m{mesh_type}"), mesh_type, bone_count, lods });
            }
        }
        out
    }

    #[test]
    fn the_span_estimate_holds_every_span_after_the_header() {
        for (b, laying) in meshes().into_iter().flat_map(|b| [(b.clone(), false), (b, true)]) {
            let file = build(&b).resource;
            // `open`'s decode lays the section records out.
            let d = if laying { decode_first(&file) } else { decode(&file) };
            assert!(d.errors.is_empty(), "{}: {:?}", b.name, d.errors);
            let mut scratch = Fields::default();
            let (h, hp) = header::read(&mut scratch, &Reader::new(&file)).unwrap();
            let after_header = d.fields.spans.len() - scratch.spans.len();
            let e = estimate(&Reader::new(&file), &h, &hp, laying);
            let estimate = e.spans;
            // The other lists are sized once too.
            assert_eq!(e.records(), d.fields.records.len(), "{}", b.name);
            let m = d.details.get::<MeshSetDetails>().unwrap();
            assert!(check_room(m) >= d.checks.len(), "{}: {} checks", b.name, d.checks.len());
            // Never fewer (the list would grow again), and over by the pool's spare room only.
            assert!(estimate >= after_header, "{}: {estimate} < {after_header}", b.name);
            let spare =
                SPANS_AFTER + hp.lods.len() * 10 + d.mesh.lods.iter().map(|l| l.sections.len()).sum::<usize>() * 2;
            assert!(estimate - after_header <= spare, "{}: {estimate} for {after_header}", b.name);
        }
    }

    #[test]
    fn a_pooled_string_keeps_its_kind_and_shows_as_the_model_has_it() {
        for b in meshes() {
            let file = build(&b).resource;
            let d = decode(&file);
            let m = d.details.get::<MeshSetDetails>().unwrap();
            let strings: Vec<&Span> = d.fields.spans.iter().filter(|s| s.path.starts_with("pool.strings[")).collect();
            assert!(strings.iter().all(|s| s.value == Value::Of(Kind::CString)), "{}", b.name);
            let texts: Vec<String> = strings.iter().map(|s| s.text(&file).to_string()).collect();
            let names =
                m.lods.iter().flat_map(|l| std::iter::once(&l.name).chain(l.sections.iter().map(|s| &s.material)));
            for name in names.chain([&m.header.name]) {
                assert!(texts.contains(name), "{}: {name} in {texts:?}", b.name);
            }
        }
    }

    #[test]
    fn a_kept_pointers_path_is_its_fields_path() {
        // The checks and errors name a pointer by the path its parts write: the span's.
        let (mut kinds, mut n) = (std::collections::HashSet::new(), 0);
        for b in meshes() {
            let file = build(&b).resource;
            let d = decode(&file);
            let m = d.details.get::<MeshSetDetails>().unwrap();
            for q in &m.pointers.all {
                let span = d.fields.spans.iter().find(|s| s.start == q.ptr.at && s.len == 8);
                let span = span.unwrap_or_else(|| panic!("{}: no field at 0x{:x}", b.name, q.ptr.at));
                assert_eq!(q.ptr.path.text().as_str(), span.path.as_str(), "{}", b.name);
                assert_eq!(q.ptr.path.to_string(), span.path.as_str());
                kinds.insert(std::mem::discriminant(&q.ptr.path));
                n += 1;
            }
        }
        assert_eq!(kinds.len(), 5, "every kind of pointer path is met, in {n} pointers");
    }
}
