//! Counting one file's plan: each record's fields, counts, regions, size and unexplained
//! bytes go to their entries, in the order the plan lists them (which is the order entries
//! are made in, and so the report's). The planner's ids are resolved to entries on first use.

use super::accumulate::{parse_number, BytesValue, Entry, EntryKind, Place};
use super::fold::{fold, join};
use super::plan::{FieldDef, FieldOp, NewName, NumOp, Plan, PlanRecord, NO_PARENT, VALUE_TEXT};
use super::relations::EntryValue;
use super::walk::{may_own, record_name};
use super::{Census, EntryIndex, FxMap, KindCache, NewEntry, RecordKind, NO_ENTRY};

/// One record as relations see it: its numeric values (a run of `CountLists::values`) and
/// its enclosing record.
#[derive(Debug)]
pub(crate) struct RecordValues {
    /// The census's id of the record kind.
    pub kind: usize,
    /// The enclosing record's index in `CountLists::records`.
    pub parent: Option<usize>,
    pub values: std::ops::Range<usize>,
}

/// Lists counting fills, kept by the census from file to file so that it allocates nothing
/// once they have grown.
#[derive(Debug, Default)]
pub(crate) struct CountLists {
    /// The file's records, in the plan's order.
    pub records: Vec<RecordValues>,
    pub values: Vec<EntryValue>,
    /// One record's uncovered ranges, the bytes it owns up to its next element joined in.
    holes: Vec<(u64, u64)>,
}

/// A planner's field as counting reads it for every record: its entry (`NO_ENTRY` until
/// first counted) and whether it is indexed. Its definition is kept apart
/// (`PlannerIds::field_defs`), so that this list stays small.
#[derive(Debug)]
struct FieldEntry {
    entry: u32,
    indexed: bool,
}

/// A planner's folded child name and its entries (`NO_ENTRY` or `None` until first counted).
#[derive(Debug)]
struct SlotEntries {
    folded: String,
    /// As a count of indexed children.
    count: u32,
    /// As an array region.
    region: Option<RegionEntries>,
}

/// An array region's count and stride entries.
#[derive(Debug, Clone, Copy)]
struct RegionEntries {
    count: u32,
    stride: u32,
}

/// One planner's ids as the census knows them: kinds resolved when defined (their numbering
/// shows nowhere), fields and slots when first counted (that order is the entries' order).
#[derive(Debug, Default)]
pub(crate) struct PlannerIds {
    kinds: Vec<usize>,
    fields: Vec<FieldEntry>,
    field_defs: Vec<FieldDef>,
    slots: Vec<SlotEntries>,
}

/// The file being counted.
#[derive(Clone, Copy)]
struct CountedFile<'p> {
    plan: &'p Plan,
    /// The file's bytes, for the unexplained ones.
    bytes: &'p [u8],
    /// Its index in `Census::files`.
    number: u32,
    format: &'static str,
}

impl<'p> CountedFile<'p> {
    /// The bytes of a field given as bytes; empty where the file does not hold them (as a
    /// span's are).
    fn field_bytes(self, f: &FieldOp) -> &'p [u8] {
        let start = usize::try_from(f.at).ok();
        start.and_then(|s| self.bytes.get(s..s.checked_add(f.value_len as usize)?)).unwrap_or(&[])
    }

    /// Where record `record`'s value at `offset` is.
    fn place(self, record: usize, offset: u64) -> impl FnOnce() -> Place + 'p {
        move || Place { file: self.number, record: self.plan.path(record), offset }
    }
}

/// The entries and the file being counted: what counting a value needs.
struct Tally<'c> {
    entries: &'c mut Vec<Entry>,
    index: &'c mut EntryIndex,
    file: CountedFile<'c>,
}

/// What counting one plan borrows from the census, apart from the record kinds.
struct Counter<'c> {
    tally: Tally<'c>,
    ids: &'c mut PlannerIds,
    lists: &'c mut CountLists,
    /// Where the next field's value starts in `Plan::values`.
    value_at: usize,
}

/// Bytes `[start, end)` of record `record` (which starts at `lo`) to count as unexplained.
struct ByteRun {
    kind: EntryKind,
    record: usize,
    lo: u64,
    start: u64,
    end: u64,
}

impl Census {
    /// Counts one file's plan, made by planner number `planner` (`Census::planner_ids` keeps
    /// its ids); `bytes` are the file's, for the unexplained ones.
    pub(crate) fn apply(&mut self, plan: &Plan, bytes: &[u8], planner: usize) {
        if plan.format == crate::formats::Format::Unknown {
            self.skipped += 1;
            return;
        }
        let number = self.files.len() as u32;
        self.files.push(plan.name.clone());
        *self.formats.entry(plan.format.name()).or_default() += 1;
        self.bytes += plan.len;
        if plan.errors {
            self.files_with_errors += 1;
        }
        if self.planner_ids.len() <= planner {
            self.planner_ids.resize_with(planner + 1, PlannerIds::default);
        }
        let ids = &mut self.planner_ids[planner];
        for name in &plan.new_names {
            match name {
                NewName::Kind { format, path } => ids.kinds.push(self.kinds.id(format, path)),
                NewName::Field(def) => {
                    ids.fields.push(FieldEntry { entry: NO_ENTRY, indexed: def.indexed });
                    ids.field_defs.push(def.clone());
                }
                NewName::Slot { folded } => {
                    ids.slots.push(SlotEntries { folded: folded.clone(), count: NO_ENTRY, region: None })
                }
            }
        }
        self.count_lists.records.clear();
        self.count_lists.values.clear();
        let mut counter = Counter {
            tally: Tally {
                entries: &mut self.entries,
                index: &mut self.entry_index,
                file: CountedFile { plan, bytes, number, format: plan.format.name() },
            },
            ids,
            lists: &mut self.count_lists,
            value_at: 0,
        };
        let kinds = &mut self.kinds.caches;
        for (i, r) in plan.records.iter().enumerate() {
            let kind_id = counter.ids.kinds.get(r.kind as usize).copied().unwrap_or(0);
            match kinds.get_mut(kind_id) {
                Some(cache) => counter.count_record(i, r, kind_id, cache),
                // Not met (every kind is defined before its records), but the values stay in step.
                None => counter.skip_record(i, r, kind_id),
            }
        }
        let ids = counter.ids;
        for s in &plan.strides {
            if let Some(c) = ids.kinds.get(s.kind as usize).and_then(|&k| kinds.get_mut(k)) {
                c.stride = Some(s.stride);
            }
        }
        self.relate();
    }
}

impl Counter<'_> {
    /// Counts record `i` of the plan, of kind `kind_id`.
    fn count_record(&mut self, i: usize, r: &PlanRecord, kind_id: usize, cache: &mut KindCache) {
        let parts = self.tally.file.plan.parts(i);
        let values_from = self.lists.values.len();
        let kind = RecordKind { id: kind_id, path: cache.kind.as_str() };
        let (lo, mut hi) = (r.lo, r.hi);
        // A lone element of an array owns the uncovered bytes up to where the stride of its
        // kind's elements in earlier files says the next one would start.
        let mut owns_tail = false;
        if let (true, Some(d)) = (r.reach > 0, cache.stride) {
            let n = lo.saturating_add(d);
            if may_own(lo, hi, n) && n <= r.reach {
                hi = n;
                owns_tail = true;
            }
        }
        self.count_fields(i, parts.fields, lo, kind, &mut cache.names);
        self.count_nums(i, parts.nums, kind);
        let parent = (r.parent != NO_PARENT).then_some(r.parent as usize);
        if parent.is_none() || hi > lo {
            let size = if parent.is_none() { self.tally.file.plan.len } else { hi.saturating_sub(lo) };
            let id = match cache.size {
                Some(id) => id,
                None => *cache.size.insert(self.tally.intern(
                    EntryKind::Size,
                    record_name(kind.path).to_string(),
                    kind,
                    "size",
                )),
            };
            self.tally.count_number(id, size, i, lo, &mut self.lists.values);
        }
        if hi > lo {
            let holes = &mut self.lists.holes;
            holes.clear();
            holes.extend_from_slice(parts.holes);
            if owns_tail {
                // The owned bytes up to the next element, joined to a hole they continue.
                for &(s, e) in parts.ext {
                    let e = e.min(hi);
                    if s >= e {
                        continue;
                    }
                    match holes.last_mut() {
                        Some(last) if last.1 == s => last.1 = e,
                        _ => holes.push((s, e)),
                    }
                }
            }
            for &(start, end) in holes.iter() {
                let run = ByteRun { kind: EntryKind::Uncovered, record: i, lo, start, end };
                self.tally.count_bytes(&mut cache.bytes, kind, run);
            }
            for &(start, end) in parts.unknown {
                let run = ByteRun { kind: EntryKind::Unknown, record: i, lo, start, end };
                self.tally.count_bytes(&mut cache.bytes, kind, run);
            }
        }
        self.lists.records.push(RecordValues { kind: kind_id, parent, values: values_from..self.lists.values.len() });
    }

    /// A record whose kind the census does not know: nothing is counted, but the values stay
    /// in step.
    fn skip_record(&mut self, i: usize, r: &PlanRecord, kind_id: usize) {
        let fields = self.tally.file.plan.parts(i).fields;
        self.value_at += fields.iter().map(|f| f.text_len()).sum::<usize>();
        let parent = (r.parent != NO_PARENT).then_some(r.parent as usize);
        let at = self.lists.values.len();
        self.lists.records.push(RecordValues { kind: kind_id, parent, values: at..at });
    }

    /// Counts record `i`'s fields (the record starts at `lo`); `names` are its kind's field
    /// entries by leaf name.
    fn count_fields(
        &mut self,
        i: usize,
        fields: &[FieldOp],
        lo: u64,
        kind: RecordKind,
        names: &mut FxMap<String, usize>,
    ) {
        let file = self.tally.file;
        for f in fields {
            // Only a value given as text takes a run of `values`.
            let text = match f.text_len() {
                0 => "",
                len => {
                    let text = file.plan.values.get(self.value_at..self.value_at + len).unwrap_or("");
                    self.value_at += len;
                    text
                }
            };
            let Some(field) = self.ids.fields.get_mut(f.id as usize) else { continue };
            let id = match field.entry {
                NO_ENTRY => {
                    let Some(def) = self.ids.field_defs.get(f.id as usize) else { continue };
                    let id = match names.get(def.name.as_str()) {
                        Some(&id) => id,
                        None => {
                            let path = join(kind.path, &fold(&def.name));
                            let id = self.tally.intern(EntryKind::Field, path, kind, &def.ty);
                            names.insert(def.name.clone(), id);
                            id
                        }
                    };
                    field.entry = id as u32;
                    let e = &mut self.tally.entries[id];
                    if e.records == 0 {
                        e.width = def.width;
                        e.confidence = Some(def.confidence);
                    }
                    id
                }
                id => id as usize,
            };
            let (rel, place, e) = (f.at.saturating_sub(lo), file.place(i, f.at), &mut self.tally.entries[id]);
            let num = match f.shown {
                VALUE_TEXT => e.add(text, || parse_number(f.flags, text), Some(rel), place, file.number),
                code => {
                    let value = BytesValue { code, bytes: file.field_bytes(f), flags: f.flags };
                    e.add_bytes(value, Some(rel), place, file.number)
                }
            };
            if let (Some(n), false) = (num, field.indexed) {
                self.lists.values.push(EntryValue { entry: id, value: n, field: true });
            }
        }
    }

    /// Counts record `i`'s counts of indexed children and its regions' counts and strides.
    fn count_nums(&mut self, i: usize, nums: &[NumOp], kind: RecordKind) {
        for n in nums {
            let Some(slot) = self.ids.slots.get_mut(n.slot as usize) else { continue };
            let path = || join(kind.path, &slot.folded);
            if !n.region {
                if slot.count == NO_ENTRY {
                    slot.count = self.tally.intern(EntryKind::Count, path(), kind, "count") as u32;
                }
                self.tally.count_number(slot.count as usize, n.n, i, n.at, &mut self.lists.values);
                continue;
            }
            let ids = match slot.region {
                Some(ids) => ids,
                None => {
                    let count = self.tally.intern(EntryKind::RegionCount, path(), kind, "count") as u32;
                    let stride = self.tally.intern(EntryKind::RegionStride, path(), kind, "stride") as u32;
                    *slot.region.insert(RegionEntries { count, stride })
                }
            };
            self.tally.count_number(ids.count as usize, n.n, i, n.at, &mut self.lists.values);
            self.tally.count_number(ids.stride as usize, n.stride, i, n.at, &mut self.lists.values);
        }
    }
}

impl Tally<'_> {
    /// The entry of `kind`, `path` and `ty` in record kind `record`, made on first use.
    fn intern(&mut self, kind: EntryKind, path: String, record: RecordKind, ty: &str) -> usize {
        let format = self.file.format;
        self.index.intern(self.entries, NewEntry { format, kind, path, record, ty })
    }

    /// Counts one of the census's own numbers (a count, a size, a region's count or stride)
    /// of record `record`, and lists it for relations.
    fn count_number(&mut self, id: usize, n: u64, record: usize, at: u64, values: &mut Vec<EntryValue>) {
        let file = self.file;
        self.entries[id].add_number(n, None, file.place(record, at), file.number);
        values.push(EntryValue { entry: id, value: n as f64, field: false });
    }

    /// Counts a run of unexplained bytes: as u32 words where a whole word at a record-relative
    /// multiple of 4 is inside the run, else byte by byte; a word or byte past the file's end
    /// ends the run. `slots` are the record kind's entries by `byte_slot`.
    fn count_bytes(&mut self, slots: &mut Vec<u32>, record: RecordKind, run: ByteRun) {
        let (mut o, r1) = (run.start.saturating_sub(run.lo), run.end.saturating_sub(run.lo));
        if o >= r1 {
            return;
        }
        // `lo + o` stays below `end`: the run's bytes the file holds, up to the run's end.
        let held = usize::try_from(run.lo + o).ok().and_then(|a| self.file.bytes.get(a..)).unwrap_or(&[]);
        let mut held = held.get(..usize::try_from(r1 - o).unwrap_or(usize::MAX)).unwrap_or(held);
        // Bytes up to the first offset that is a multiple of 4, then whole words, then the
        // bytes after the last whole word.
        while o < r1 && !o.is_multiple_of(4) {
            let Some((&b, rest)) = held.split_first() else { return };
            self.count_unit(slots, record, &run, Unit { o, word: false, v: b.into() });
            (held, o) = (rest, o + 1);
        }
        while r1 - o >= 4 {
            let Some((&w, rest)) = held.split_first_chunk::<4>() else { return };
            self.count_unit(slots, record, &run, Unit { o, word: true, v: u32::from_le_bytes(w).into() });
            (held, o) = (rest, o + 4);
        }
        for &b in held {
            self.count_unit(slots, record, &run, Unit { o, word: false, v: b.into() });
            o += 1;
        }
    }

    /// Counts one word or byte of a run of unexplained bytes (`count_bytes`).
    #[inline(always)]
    fn count_unit(&mut self, slots: &mut Vec<u32>, record: RecordKind, run: &ByteRun, u: Unit) {
        let file = self.file;
        // Offsets stay below MAX_RECORD_BYTES: the slots are a short dense list.
        let slot = super::byte_slot(u.o, run.kind == EntryKind::Unknown, u.word);
        if slots.len() <= slot {
            slots.resize(slot + 1, NO_ENTRY);
        }
        let id = match slots[slot] {
            NO_ENTRY => {
                let ty = if u.word { "u32" } else { "u8" };
                let path = format!("{}+0x{:02x}", record_name(record.path), u.o);
                let id = self.intern(run.kind, path, record, ty);
                slots[slot] = id as u32;
                // A slot is a width's: its entry's width is set once.
                self.entries[id].width = if u.word { 4 } else { 1 };
                id
            }
            id => id as usize,
        };
        let abs = run.lo + u.o;
        self.entries[id].add_number(u.v, Some(u.o), file.place(run.record, abs), file.number);
    }
}

/// One word or byte of a run of unexplained bytes: its record-relative offset and value.
struct Unit {
    o: u64,
    word: bool,
    v: u64,
}

#[cfg(test)]
mod tests {
    use crate::census::accumulate::EntryKind;
    use crate::census::plan::Plan;
    use crate::census::{Census, CensusFile, Planner};
    use crate::formats::frostbite::builder::{build, cube, BuildLod, BuildMesh};

    /// MeshSets of 1, 3, 1, 2, 1, ... LODs: a lone LOD's record ends where the stride of an
    /// earlier file's LODs says, and that file was planned by another planner.
    fn meshsets() -> Vec<CensusFile> {
        (0..24u32)
            .map(|i| {
                let lods = [1, 3, 1, 2][i as usize % 4];
                let lod = |l: u32| BuildLod {
                    sections: (0..1 + (i + l) % 3)
                        .map(|k| cube(&format!("M{}", k + i % 5), 1.0 + (i % 4) as f32, [0.0; 3]))
                        .collect(),
                    index_32: i % 5 == 0,
                    inline: false,
                };
                let b = BuildMesh {
                    name: format!("m/{i}"),
                    mesh_type: (i % 3) as u8,
                    bone_count: if i % 3 == 0 { 0 } else { 2 },
                    lods: (0..lods).map(lod).collect(),
                };
                CensusFile::new(&format!("m{i}.MeshSet"), build(&b).resource)
            })
            .collect()
    }

    #[test]
    fn a_run_of_bytes_counts_bytes_then_words_then_bytes_up_to_the_files_end() {
        use crate::census::{EntryIndex, RecordKind};
        use crate::formats::Format;
        let bytes: Vec<u8> = (0..40u8).map(|b| b.wrapping_mul(37)).collect();
        let plan = Plan { format: Format::FrostbiteMeshSet, ..Plan::default() };
        // Offsets are from `lo` = 3: run 8..18 is bytes 5, 6 and 7, a word at 8, bytes 12, 13
        // and 14; run 1..9 starts at the record. Runs past the file's 40 bytes end there, in a
        // word (10..50) or among the bytes after the last one (39..42).
        let runs = [(8, 18), (3, 15), (7, 19), (1, 9), (3, 40), (10, 50), (40, 44), (9, 9), (38, 60), (39, 42)];
        for (start, end) in runs {
            let (mut entries, mut index, mut slots) = (Vec::new(), EntryIndex::default(), Vec::new());
            let file = super::CountedFile { plan: &plan, bytes: &bytes, number: 0, format: "m" };
            let mut tally = super::Tally { entries: &mut entries, index: &mut index, file };
            let run = super::ByteRun { kind: EntryKind::Uncovered, record: 0, lo: 3, start, end };
            tally.count_bytes(&mut slots, RecordKind { id: 0, path: "r" }, run);
            let got: Vec<(String, u64, u64)> =
                entries.iter().map(|e| (e.path.clone(), e.width, e.max as u64)).collect();
            // The model: a word where a whole one starts at a multiple of 4 inside the run and
            // the file, else a byte; nothing from the first unit the file does not hold on.
            let (mut want, mut o) = (Vec::new(), start.saturating_sub(3));
            while o < end - 3 {
                let width = if o % 4 == 0 && o + 4 <= end - 3 { 4 } else { 1 };
                let Some(b) = bytes.get((3 + o) as usize..(3 + o + width) as usize) else { break };
                let v = b.iter().rev().fold(0u64, |a, &x| a << 8 | x as u64);
                want.push((format!("r+0x{o:02x}"), width, v));
                o += width;
            }
            assert_eq!(got, want, "run {start}..{end}");
        }
    }

    #[test]
    fn a_files_values_are_in_records_of_their_entries_kind() {
        // What `relate` takes on trust: an entry's values come from records of its kind, and
        // a value says whether its entry is a field's.
        let mut census = Census::new();
        let (mut fields, mut numbers) = (0, 0);
        for d in &meshsets() {
            census.add(d);
            let lists = &census.count_lists;
            for r in &lists.records {
                for v in &lists.values[r.values.clone()] {
                    let e = &census.entries[v.entry];
                    assert_eq!(e.kind_id, r.kind, "{}", e.path);
                    assert_eq!(v.field, e.kind == EntryKind::Field, "{}", e.path);
                    *(if v.field { &mut fields } else { &mut numbers }) += 1;
                }
            }
        }
        assert!(fields > 0 && numbers > 0, "{fields} field values, {numbers} counts and sizes");
    }

    #[test]
    fn plans_from_several_planners_count_as_one_planners() {
        let docs = meshsets();
        let mut one = Census::new();
        docs.iter().for_each(|d| one.add(d));
        // Two planners taking turns, as two worker threads would.
        let mut planners = [Planner::new(), Planner::new()];
        let mut two = Census::new();
        let (mut plan, mut lone) = (Plan::default(), 0);
        for (i, d) in docs.iter().enumerate() {
            planners[i % 2].plan(d, &mut plan);
            lone += plan.records.iter().filter(|r| r.reach > 0).count();
            two.apply(&plan, &d.bytes, 1 + i % 2);
        }
        assert!(lone > 0, "some records take an earlier file's stride");
        let show = |c: &Census| serde_json::to_string(&c.report(1000)).unwrap();
        assert_eq!(show(&two), show(&one));
        // m2's lone LOD took the stride of m1's LODs, planned by the other planner.
        let mut lods = |i: usize| {
            planners[0].plan(&docs[i], &mut plan);
            let lod = |k: usize| plan.path(k).starts_with("lod[") && !plan.path(k).contains('.');
            plan.records.iter().enumerate().filter(|&(k, _)| lod(k)).map(|(_, r)| (r.lo, r.hi)).collect::<Vec<_>>()
        };
        let (m1, m2) = (lods(1), lods(2));
        assert_eq!((m1.len(), m2.len()), (3, 1));
        let stride = m1[1].0 - m1[0].0;
        assert!(m2[0].1 - m2[0].0 < stride, "m2's LOD record alone is shorter than the stride");
        let r = one.report(1000);
        let size = r.entries.iter().find(|e| e.kind == "size" && e.path == "lod[*]").unwrap();
        let m2_size = size.values.iter().find(|v| v.at.iter().any(|p| p.file == "m2.MeshSet")).unwrap();
        assert_eq!(m2_size.value, crate::census::report::Shown::Number(stride));
    }
}
