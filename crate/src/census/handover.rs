//! Plans handed from one wasm instance to another. The page has no threads: its planner
//! workers decode and plan files in instances of their own and send the plans, as bytes,
//! to the census worker, which counts them in file order (web/census-worker.js), as the
//! native census counts the plans of its threads (`parallel`). A plan is written as
//! little-endian numbers and length-prefixed texts; reading one back checks every count
//! against the bytes left and every text for UTF-8, and gives the same plan.

use super::plan::{Ends, FieldDef, FieldOp, KindStride, NewName, NumOp, Plan, PlanRecord, NO_PARENT, VALUE_TEXT};
use super::{Census, CensusFile, Planner};
use crate::error::{Error, Result};
use crate::formats::{Format, FORMATS};
use crate::read::Reader;
use crate::show::Kind;
use crate::span::Confidence;
use std::collections::VecDeque;

/// Bytes of a record, a field, a count and a hole as written (the readers check counts
/// against these before they reserve).
const RECORD_BYTES: u64 = 4 + 4 + 6 * 4 + 3 * 8;
const FIELD_BYTES: u64 = 4 + 4 + 8 + 1 + 1;
const NUM_BYTES: u64 = 4 + 1 + 3 * 8;
const HOLE_BYTES: u64 = 16;
const STRIDE_BYTES: u64 = 12;

/// How a `NewName` is tagged.
const KIND: u8 = 0;
const FIELD: u8 = 1;
const SLOT: u8 = 2;

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// A list's length as written; a plan's lists are far below 4 G items (a file's fields).
fn put_len(out: &mut Vec<u8>, n: usize) {
    put_u32(out, u32::try_from(n).unwrap_or(u32::MAX));
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Appends `plan` to `out`.
pub fn write_plan(plan: &Plan, out: &mut Vec<u8>) {
    let Plan { name, format, len, errors, new_names, paths, records, fields, values, nums, holes, strides } = plan;
    put_str(out, name);
    put_str(out, format.name());
    put_u64(out, *len);
    out.push(*errors as u8);
    put_len(out, new_names.len());
    for n in new_names {
        match n {
            NewName::Kind { format, path } => {
                out.push(KIND);
                put_str(out, format);
                put_str(out, path);
            }
            NewName::Field(FieldDef { name, ty, width, confidence, indexed }) => {
                out.push(FIELD);
                put_str(out, name);
                put_str(out, ty);
                put_u64(out, *width);
                out.push(Confidence::ALL.iter().position(|c| c == confidence).unwrap_or(0) as u8);
                out.push(*indexed as u8);
            }
            NewName::Slot { folded } => {
                out.push(SLOT);
                put_str(out, folded);
            }
        }
    }
    put_str(out, paths);
    put_len(out, records.len());
    for PlanRecord { kind, parent, ends, lo, hi, reach } in records {
        let Ends { path, fields, nums, holes, ext, unknown } = *ends;
        for v in [*kind, *parent, path, fields, nums, holes, ext, unknown] {
            put_u32(out, v);
        }
        for v in [*lo, *hi, *reach] {
            put_u64(out, v);
        }
    }
    put_len(out, fields.len());
    for FieldOp { id, value_len, at, flags, shown } in fields {
        put_u32(out, *id);
        put_u32(out, *value_len);
        put_u64(out, *at);
        out.push(*flags as u8);
        out.push(*shown);
    }
    put_str(out, values);
    put_len(out, nums.len());
    for NumOp { slot, region, n, stride, at } in nums {
        put_u32(out, *slot);
        out.push(*region as u8);
        for v in [*n, *stride, *at] {
            put_u64(out, v);
        }
    }
    put_len(out, holes.len());
    for &(a, b) in holes {
        put_u64(out, a);
        put_u64(out, b);
    }
    put_len(out, strides.len());
    for KindStride { kind, stride } in strides {
        put_u32(out, *kind);
        put_u64(out, *stride);
    }
}

/// A count of items of `size` bytes each, checked against the bytes left.
fn count(r: &mut Reader, size: u64, path: &str) -> Result<usize> {
    let n = r.u32()?;
    r.check_count(n as u64, size, path)?;
    Ok(n as usize)
}

/// A list of items of `size` bytes each, its count first: each item's bytes.
fn items<'a>(r: &mut Reader<'a>, size: u64, path: &str) -> Result<std::slice::ChunksExact<'a, u8>> {
    let n = count(r, size, path)?;
    Ok(r.bytes(n * size as usize)?.chunks_exact(size as usize))
}

/// The little-endian numbers at `at` in an item (0 past its end, which the item sizes rule out).
fn u32_at(c: &[u8], at: usize) -> u32 {
    c.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes)
}

fn u64_at(c: &[u8], at: usize) -> u64 {
    c.get(at..at + 8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes)
}

fn text<'a>(r: &mut Reader<'a>, path: &str) -> Result<&'a str> {
    let at = r.offset();
    let n = count(r, 1, path)?;
    std::str::from_utf8(r.bytes(n)?).map_err(|_| Error::bad_value(at, path, "not UTF-8"))
}

fn flag(r: &mut Reader, path: &str) -> Result<bool> {
    let at = r.offset();
    match r.u8()? {
        0 => Ok(false),
        1 => Ok(true),
        b => Err(Error::bad_value(at, path, format!("{b} is no flag"))),
    }
}

/// The format named `name`, as a format of this build knows itself.
fn format_named(r: &Reader, name: &str) -> Result<Format> {
    if name == Format::Unknown.name() {
        return Ok(Format::Unknown);
    }
    FORMATS
        .iter()
        .map(|f| f.format())
        .find(|f| f.name() == name)
        .ok_or_else(|| Error::bad_value(r.offset(), "format", format!("no format {name}")))
}

fn read_name(r: &mut Reader) -> Result<NewName> {
    let at = r.offset();
    Ok(match r.u8()? {
        KIND => {
            let format = text(r, "new_names.kind.format")?;
            let format = format_named(r, format)?.name();
            NewName::Kind { format, path: text(r, "new_names.kind.path")?.to_string() }
        }
        FIELD => {
            let name = text(r, "new_names.field.name")?.to_string();
            let ty = text(r, "new_names.field.ty")?.to_string();
            let width = r.u64()?;
            let c = r.u8()?;
            let confidence = *Confidence::ALL
                .get(c as usize)
                .ok_or_else(|| Error::bad_value(at, "new_names.field.confidence", format!("no confidence {c}")))?;
            let indexed = flag(r, "new_names.field.indexed")?;
            NewName::Field(FieldDef { name, ty, width, confidence, indexed })
        }
        SLOT => NewName::Slot { folded: text(r, "new_names.slot")?.to_string() },
        t => return Err(Error::bad_value(at, "new_names", format!("no name tag {t}"))),
    })
}

/// Reads a plan `write_plan` wrote into `plan` (emptied first, its lists' room kept).
pub fn read_plan(r: &mut Reader, plan: &mut Plan) -> Result<()> {
    plan.clear();
    plan.name.push_str(text(r, "name")?);
    let format = text(r, "format")?;
    plan.format = format_named(r, format)?;
    plan.len = r.u64()?;
    plan.errors = flag(r, "errors")?;
    // A name takes at least 5 bytes (its tag and a text's length).
    let n = count(r, 5, "new_names")?;
    for _ in 0..n {
        plan.new_names.push(read_name(r)?);
    }
    plan.paths.push_str(text(r, "paths")?);
    for c in items(r, RECORD_BYTES, "records")? {
        let [kind, parent, path, fields, nums, holes, ext, unknown] =
            [0, 4, 8, 12, 16, 20, 24, 28].map(|at| u32_at(c, at));
        let ends = Ends { path, fields, nums, holes, ext, unknown };
        plan.records.push(PlanRecord {
            kind,
            parent,
            ends,
            lo: u64_at(c, 32),
            hi: u64_at(c, 40),
            reach: u64_at(c, 48),
        });
    }
    // The fields' items start past their count.
    let fields_at = r.offset() + 4;
    plan.fields.extend(items(r, FIELD_BYTES, "fields")?.map(|c| FieldOp {
        id: u32_at(c, 0),
        value_len: u32_at(c, 4),
        at: u64_at(c, 8),
        flags: c.get(16).is_some_and(|&b| b != 0),
        shown: c.get(17).copied().unwrap_or(VALUE_TEXT),
    }));
    if let Some(i) = plan.fields.iter().position(|f| f.shown != VALUE_TEXT && Kind::from_code(f.shown).is_none()) {
        let at = fields_at + i as u64 * FIELD_BYTES + 17;
        return Err(Error::bad_value(at, "fields.shown", format!("no value kind {}", plan.fields[i].shown)));
    }
    plan.values.push_str(text(r, "values")?);
    plan.nums.extend(items(r, NUM_BYTES, "nums")?.map(|c| NumOp {
        slot: u32_at(c, 0),
        region: c.get(4).is_some_and(|&b| b != 0),
        n: u64_at(c, 5),
        stride: u64_at(c, 13),
        at: u64_at(c, 21),
    }));
    plan.holes.extend(items(r, HOLE_BYTES, "holes")?.map(|c| (u64_at(c, 0), u64_at(c, 8))));
    plan.strides
        .extend(items(r, STRIDE_BYTES, "strides")?.map(|c| KindStride { kind: u32_at(c, 0), stride: u64_at(c, 4) }));
    let values: u64 = plan.fields.iter().map(|f| f.text_len() as u64).sum();
    if values != plan.values.len() as u64 {
        let m = format!("the fields' values take {values} bytes of {}", plan.values.len());
        return Err(Error::bad_value(r.offset(), "values", m));
    }
    Ok(())
}

/// Checks that every record of `plan` comes after its parent and is of a kind its planner
/// has defined (`kinds` before this plan): counting walks records up to the file by their
/// parents and indexes kinds by id.
fn check_records(plan: &Plan, kinds: &mut usize) -> Result<()> {
    *kinds += plan.new_names.iter().filter(|n| matches!(n, NewName::Kind { .. })).count();
    let known = |k: u32| (k as usize) < *kinds;
    for (i, r) in plan.records.iter().enumerate() {
        if !known(r.kind) || (r.parent != NO_PARENT && r.parent as usize >= i) {
            let m = format!("record {i} of kind {} in {} kinds, parent {}", r.kind, kinds, r.parent);
            return Err(Error::bad_value(0, "records", m));
        }
    }
    match plan.strides.iter().find(|s| !known(s.kind)) {
        Some(s) => Err(Error::bad_value(0, "strides", format!("a stride of kind {} in {kinds} kinds", s.kind))),
        None => Ok(()),
    }
}

/// Files laid one after the other in `bytes`, `sizes[i]` bytes each, named `names[i]`.
pub struct Batch<'a> {
    pub bytes: &'a [u8],
    pub sizes: &'a [u32],
    pub names: &'a [String],
}

impl<'a> Batch<'a> {
    /// Each file's name and bytes, in order; an error if the sizes and names do not match
    /// the bytes.
    pub fn files(&self) -> Result<Vec<(&'a str, &'a [u8])>> {
        if self.sizes.len() != self.names.len() {
            let m = format!("{} sizes for {} names", self.sizes.len(), self.names.len());
            return Err(Error::bad_value(0, "batch", m));
        }
        let mut r = Reader::new(self.bytes);
        let files = self.sizes.iter().zip(self.names).map(|(&n, name)| Ok((name.as_str(), r.bytes(n as usize)?)));
        let files = files.collect::<Result<Vec<_>>>()?;
        if !r.at_end() {
            return Err(Error::bad_value(r.offset(), "batch", format!("{} bytes past the files", r.remaining())));
        }
        Ok(files)
    }
}

/// Decodes and plans one file into `plan`; gives back its bytes. Not inlined: the decoders
/// behind it are most of the module, and its two callers would each take a copy.
#[inline(never)]
fn plan_file(planner: &mut Planner, name: &str, bytes: &[u8], plan: &mut Plan) -> Vec<u8> {
    let file = CensusFile::new(name, bytes.to_vec());
    planner.plan(&file, plan);
    file.bytes
}

/// Decodes and plans every file of `batch` with `planner`, appending the plans to `out`
/// (for `Held::hold_plans`, with the same bytes).
pub fn plan_batch(planner: &mut Planner, batch: &Batch, plan: &mut Plan, out: &mut Vec<u8>) -> Result<()> {
    for (name, bytes) in batch.files()? {
        plan_file(planner, name, bytes, plan);
        write_plan(plan, out);
    }
    Ok(())
}

/// How far past the next file to count a file may be held.
const MAX_AHEAD: usize = 1 << 16;

/// A file planned before its turn: its plan, its bytes and its planner's number.
struct Planned {
    plan: Plan,
    bytes: Vec<u8>,
    planner: usize,
}

/// A census counting plans made anywhere, in file order: its own (planner 0) and those of
/// other instances (planners 1 and on), each kept until every file before it is counted.
#[derive(Default)]
pub struct Held {
    pub census: Census,
    /// The files from the next one to count on, those not yet planned `None`.
    held: VecDeque<Option<Planned>>,
    /// The next file to count.
    next: usize,
    /// Counted plans, to be filled again.
    spare: Vec<Plan>,
    /// How many record kinds each planner (by number) has defined in the plans held so far.
    kinds: Vec<usize>,
}

impl Held {
    pub fn new() -> Held {
        Held::default()
    }

    /// How many files are counted.
    pub fn counted(&self) -> usize {
        self.next
    }

    /// Holds file `i` for its turn: one not counted yet, nor held, nor past `MAX_AHEAD`.
    fn put(&mut self, i: usize, p: Planned) -> Result<()> {
        let Some(k) = i.checked_sub(self.next).filter(|&k| k < MAX_AHEAD) else {
            return Err(Error::bad_value(0, "held", format!("file {i} held with file {} next", self.next)));
        };
        if self.held.len() <= k {
            self.held.resize_with(k + 1, || None);
        }
        match &mut self.held[k] {
            Some(_) => Err(Error::bad_value(0, "held", format!("file {i} held twice"))),
            slot => {
                *slot = Some(p);
                Ok(())
            }
        }
    }

    fn spare_plan(&mut self) -> Plan {
        self.spare.pop().unwrap_or_default()
    }

    /// Plans the files of `batch`, the first being file number `first`, with the census's own
    /// planner, and keeps them for their turn.
    pub fn plan_own(&mut self, first: usize, batch: &Batch) -> Result<()> {
        for (i, (name, bytes)) in batch.files()?.into_iter().enumerate() {
            let mut plan = self.spare_plan();
            let bytes = plan_file(&mut self.census.planner, name, bytes, &mut plan);
            self.put(first + i, Planned { plan, bytes, planner: 0 })?;
        }
        Ok(())
    }

    /// Keeps the plans `plans` holds (`plan_batch` wrote them, from `bytes`, the first being
    /// file number `first`) for their turn; planner number `planner` made them, and its plans
    /// are held in the order it made them. Returns how many files they are.
    pub fn hold_plans(&mut self, first: usize, plans: &[u8], bytes: &[u8], planner: usize) -> Result<usize> {
        let (mut r, mut files) = (Reader::new(plans), Reader::new(bytes));
        if self.kinds.len() <= planner {
            self.kinds.resize(planner + 1, 0);
        }
        let mut i = first;
        while !r.at_end() {
            let mut plan = self.spare_plan();
            read_plan(&mut r, &mut plan)?;
            check_records(&plan, &mut self.kinds[planner])?;
            let at = files.offset();
            let len = usize::try_from(plan.len).map_err(|_| Error::limit(at, "bytes", "a file past memory"))?;
            let bytes = files.bytes(len)?.to_vec();
            self.put(i, Planned { plan, bytes, planner })?;
            i += 1;
        }
        Ok(i - first)
    }

    /// Counts the files held from the next one on, in order, up to file `limit` (excluded);
    /// returns how many files are counted in all.
    pub fn count_ready(&mut self, limit: usize) -> usize {
        while self.next < limit {
            let Some(p) = self.held.front_mut().and_then(Option::take) else { break };
            self.held.pop_front();
            self.census.apply(&p.plan, &p.bytes, p.planner);
            self.spare.push(p.plan);
            self.next += 1;
        }
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = (0..12)
            .map(|i| {
                let mut b = crate::sample::sample_ply();
                let k = b.len() - 1 - (i % 5);
                b[k] = b[k].wrapping_add(i as u8);
                (format!("f{i}.ply"), b)
            })
            .collect();
        out.insert(3, ("junk.bin".into(), vec![7; 40]));
        out
    }

    fn batch_of(files: &[(String, Vec<u8>)]) -> (Vec<u8>, Vec<u32>, Vec<String>) {
        let bytes = files.iter().flat_map(|f| f.1.iter().copied()).collect();
        (bytes, files.iter().map(|f| f.1.len() as u32).collect(), files.iter().map(|f| f.0.clone()).collect())
    }

    /// The report of `files` counted by `Held`: runs of three files planned in turn by the
    /// census itself and by planners 1 and 2, the planners' handed over as bytes, planner 2's
    /// held first (each planner's in the order it made them).
    fn handed_over(files: &[(String, Vec<u8>)]) -> String {
        let mut held = Held::new();
        let mut planners = [Planner::new(), Planner::new()];
        let mut plan = Plan::default();
        let mut sent = Vec::new();
        let mut own = Vec::new();
        for (k, run) in files.chunks(3).enumerate() {
            let (bytes, sizes, names) = batch_of(run);
            let batch = Batch { bytes: &bytes, sizes: &sizes, names: &names };
            match k % 3 {
                0 => {
                    held.plan_own(k * 3, &batch).unwrap();
                    own.push(k);
                }
                p => {
                    let mut out = Vec::new();
                    plan_batch(&mut planners[p - 1], &batch, &mut plan, &mut out).unwrap();
                    sent.push((k, out, bytes, p, run.len()));
                }
            }
        }
        assert_eq!(held.count_ready(2), 2, "up to the limit");
        assert_eq!(held.count_ready(files.len()), 3, "run 0 is the census's own, run 1 is not here");
        sent.sort_by_key(|s| std::cmp::Reverse(s.3));
        let mut runs_held = own;
        for (k, out, bytes, p, n) in sent {
            assert_eq!(held.hold_plans(k * 3, &out, &bytes, p).unwrap(), n);
            runs_held.push(k);
            let first_missing = (0..).find(|r| !runs_held.contains(r)).unwrap();
            assert_eq!(held.count_ready(files.len()), (first_missing * 3).min(files.len()), "after run {k}");
        }
        serde_json::to_string(&held.census.report(1000)).unwrap()
    }

    #[test]
    fn plans_handed_over_give_the_one_census() {
        let files = files();
        let mut one = Census::new();
        for (n, b) in &files {
            one.add_file(n, b.clone());
        }
        let one = serde_json::to_string(&one.report(1000)).unwrap();
        assert!(one.contains("\"files\":12") && one.contains("\"skipped\":1"), "{}", &one[..200]);
        assert_eq!(handed_over(&files), one);
    }

    #[test]
    fn a_plan_reads_back_as_written_and_cut_short_is_an_error() {
        let (name, bytes) = &files()[1];
        let mut plan = Plan::default();
        Planner::new().plan(&CensusFile::new(name, bytes.clone()), &mut plan);
        let mut out = Vec::new();
        write_plan(&plan, &mut out);
        let mut back = Plan::default();
        read_plan(&mut Reader::new(&out), &mut back).unwrap();
        let mut again = Vec::new();
        write_plan(&back, &mut again);
        assert_eq!(again, out);
        assert!(back.fields.len() > 10 && back.new_names.len() > 10);
        for cut in [0, 1, out.len() / 3, out.len() / 2, out.len() - 1] {
            assert!(read_plan(&mut Reader::new(&out[..cut]), &mut back).is_err(), "cut at {cut}");
        }
        // A count past the bytes left is refused before anything is reserved.
        let mut huge = out.clone();
        let at = 4 + name.len();
        huge[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_plan(&mut Reader::new(&huge), &mut back).is_err());
        // Any one byte of it changed, holding and counting it panics not (an error or a plan).
        for k in (0..out.len()).step_by(3) {
            for flip in [0x01, 0x80, 0xff] {
                let mut bad = out.clone();
                bad[k] ^= flip;
                let mut held = Held::new();
                if held.hold_plans(0, &bad, bytes, 1).is_ok() {
                    assert_eq!(held.count_ready(1), 1);
                }
            }
        }
        // A file held twice, or once counted, or too far ahead, is an error.
        let mut held = Held::new();
        assert_eq!(held.hold_plans(1, &out, bytes, 1).unwrap(), 1);
        assert!(held.hold_plans(1, &out, bytes, 1).is_err());
        assert!(held.hold_plans(MAX_AHEAD, &out, bytes, 1).is_err());
        held.plan_own(0, &Batch { bytes, sizes: &[bytes.len() as u32], names: std::slice::from_ref(name) }).unwrap();
        assert_eq!(held.count_ready(10), 2);
        assert!(held.hold_plans(1, &out, bytes, 1).is_err());
        // Sizes that do not tile the bytes are an error, not a panic.
        let sizes = [bytes.len() as u32 + 1];
        let names = [name.clone()];
        assert!(Batch { bytes, sizes: &sizes, names: &names }.files().is_err());
        assert!(Batch { bytes, sizes: &sizes[..0], names: &names }.files().is_err());
    }
}
