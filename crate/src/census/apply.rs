//! Counting one file's plan: each record's fields, counts, regions, size and unexplained
//! bytes go to their entries, in the order the plan lists them (which is the order entries
//! are made in, and so the report's). The planner's ids are resolved to entries on first use.

use super::accumulate::{parse_number, EntryKind, Place};
use super::fold::{fold, join};
use super::plan::{Def, Plan, Rec, NO_PARENT};
use super::walk::{may_own, record_name};
use super::{Census, KindCache, NO_ENTRY};

/// One record as relations see it: its numeric values (a run of `Bufs::values`) and its
/// enclosing record.
#[derive(Debug)]
pub struct Inst {
    /// The census's id of the record kind.
    pub kind: usize,
    pub parent: Option<usize>,
    pub values: std::ops::Range<usize>,
}

/// Lists the counting fills, kept by the census from file to file so that it allocates
/// nothing once they have grown.
#[derive(Debug, Default)]
pub struct Bufs {
    pub insts: Vec<Inst>,
    pub values: Vec<(usize, f64)>,
    holes: Vec<(u64, u64)>,
}

/// A planner's field as counting reads it for every record: its entry (`NO_ENTRY` until
/// first counted) and whether it is indexed. Its definition is kept apart (`Names::defs`).
#[derive(Debug)]
struct Field {
    entry: u32,
    indexed: bool,
}

/// A planner's folded child name: its count entry (`NO_ENTRY` until first counted), and
/// its region's count and stride entries.
#[derive(Debug)]
struct Slot {
    folded: String,
    count: u32,
    region: Option<(u32, u32)>,
}

/// One planner's ids as the census knows them: kinds resolved when defined (their numbering
/// shows nowhere), fields and slots when first counted (that order is the entries' order).
#[derive(Debug, Default)]
pub(crate) struct Names {
    kinds: Vec<usize>,
    fields: Vec<Field>,
    /// The fields' definitions, read once each.
    defs: Vec<Def>,
    slots: Vec<Slot>,
}

impl Census {
    /// Counts one file's plan, made by planner `by` (`Census::names` keeps its ids); `bytes`
    /// are the file's, for the unexplained ones.
    pub(crate) fn apply(&mut self, plan: &Plan, bytes: &[u8], by: usize) {
        if plan.format == crate::formats::Format::Unknown {
            self.skipped += 1;
            return;
        }
        let file = self.files.len() as u32;
        self.files.push(plan.name.clone());
        *self.formats.entry(plan.format.name()).or_default() += 1;
        self.bytes += plan.len;
        if plan.errors {
            self.files_with_errors += 1;
        }
        if self.names.len() <= by {
            self.names.resize_with(by + 1, Names::default);
        }
        let mut names = std::mem::take(&mut self.names[by]);
        for d in &plan.defs {
            match d {
                Def::Kind { format, path } => {
                    let k = self.kind_id(format, path);
                    names.kinds.push(k);
                }
                Def::Field { indexed, .. } => {
                    names.fields.push(Field { entry: NO_ENTRY, indexed: *indexed });
                    names.defs.push(d.clone());
                }
                Def::Slot { folded, .. } => {
                    names.slots.push(Slot { folded: folded.clone(), count: NO_ENTRY, region: None })
                }
            }
        }
        let mut bufs = std::mem::take(&mut self.bufs);
        bufs.insts.clear();
        bufs.values.clear();
        let format = plan.format.name();
        // The fields' values are taken from `plan.values` in order.
        let mut value_at = 0;
        for (i, r) in plan.records.iter().enumerate() {
            let kid = names.kinds.get(r.kind as usize).copied().unwrap_or(0);
            self.count_record(plan, i, r, kid, &mut names, &mut bufs, (bytes, file, format), &mut value_at);
        }
        for &(k, stride) in &plan.strides {
            if let Some(Some(c)) = names.kinds.get(k as usize).and_then(|&k| self.caches.get_mut(k)) {
                c.stride = Some(stride);
            }
        }
        self.names[by] = names;
        self.relate(&bufs.insts, &bufs.values);
        self.bufs = bufs;
    }

    #[allow(clippy::too_many_arguments)]
    fn count_record(
        &mut self,
        plan: &Plan,
        i: usize,
        r: &Rec,
        kid: usize,
        names: &mut Names,
        bufs: &mut Bufs,
        (bytes, file, format): (&[u8], u32, &'static str),
        value_at: &mut usize,
    ) {
        let v0 = bufs.values.len();
        let inst = bufs.insts.len();
        let parent = (r.parent != NO_PARENT).then_some(r.parent as usize);
        bufs.insts.push(Inst { kind: kid, parent, values: v0..v0 });
        // The kind's cache is taken out while the record is counted, and put back after.
        let Some(mut cache) = self.caches.get_mut(kid).and_then(Option::take) else {
            // Not met (records are counted one after the other), but the values stay in step.
            *value_at += plan.parts(i).fields.iter().map(|f| f.value_len()).sum::<usize>();
            return;
        };
        let kind_name = std::mem::take(&mut cache.kind);
        let kind = kind_name.as_str();
        let parts = plan.parts(i);
        let place = |offset: u64| move || Place { file, record: plan.path(i), offset };
        let (lo, mut hi) = (r.lo, r.hi);
        // A lone element of an array owns the uncovered bytes up to where the stride of its
        // kind's elements in earlier files says the next one would start.
        let mut ext = false;
        if let (true, Some(d)) = (r.reach > 0, cache.stride) {
            let n = lo.saturating_add(d);
            if may_own(lo, hi, n) && n <= r.reach {
                hi = n;
                ext = true;
            }
        }

        for f in parts.fields {
            let value = plan.values.get(*value_at..*value_at + f.value_len()).unwrap_or("");
            *value_at += f.value_len();
            let Some(field) = names.fields.get_mut(f.id as usize) else { continue };
            let id = match field.entry {
                NO_ENTRY => {
                    let Some(Def::Field { name, ty, width, confidence, .. }) = names.defs.get(f.id as usize) else {
                        continue;
                    };
                    let id = match cache.names.get(name.as_str()) {
                        Some(&id) => id,
                        None => {
                            let id = self.intern(format, EntryKind::Field, join(kind, &fold(name)), kind, ty);
                            cache.names.insert(name.clone(), id);
                            id
                        }
                    };
                    field.entry = id as u32;
                    let e = &mut self.entries[id];
                    if e.records == 0 {
                        e.width = *width;
                        e.confidence = Some(*confidence);
                    }
                    id
                }
                id => id as usize,
            };
            let rel = f.at.saturating_sub(lo);
            let num = self.entries[id].add(value, || parse_number(f.flags(), value), Some(rel), place(f.at), file);
            if let (Some(n), false) = (num, field.indexed) {
                bufs.values.push((id, n));
            }
        }

        for n in parts.nums {
            let Some(slot) = names.slots.get_mut(n.slot as usize) else { continue };
            let spath = || join(kind, &slot.folded);
            if !n.region {
                if slot.count == NO_ENTRY {
                    slot.count = self.intern(format, EntryKind::Count, spath(), kind, "count") as u32;
                }
                let id = slot.count as usize;
                self.entries[id].add_number(n.n, None, place(n.at), file);
                bufs.values.push((id, n.n as f64));
                continue;
            }
            let ids = match slot.region {
                Some(ids) => ids,
                None => {
                    let count = self.intern(format, EntryKind::RegionCount, spath(), kind, "count") as u32;
                    let stride = self.intern(format, EntryKind::RegionStride, spath(), kind, "stride") as u32;
                    *slot.region.insert((count, stride))
                }
            };
            for (id, x) in [(ids.0 as usize, n.n), (ids.1 as usize, n.stride)] {
                self.entries[id].add_number(x, None, place(n.at), file);
                bufs.values.push((id, x as f64));
            }
        }

        let root = parent.is_none();
        let size = if root { plan.len } else { hi.saturating_sub(lo) };
        if root || hi > lo {
            let id = match cache.size {
                Some(id) => id,
                None => *cache.size.insert(self.intern(
                    format,
                    EntryKind::Size,
                    record_name(kind).to_string(),
                    kind,
                    "size",
                )),
            };
            self.entries[id].add_number(size, None, place(lo), file);
            bufs.values.push((id, size as f64));
        }

        if hi > lo {
            let mut holes = std::mem::take(&mut bufs.holes);
            holes.clear();
            holes.extend_from_slice(parts.holes);
            if ext {
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
            for &(s, e) in &holes {
                self.unexplained(&mut cache, EntryKind::Uncovered, kind, (plan, i), lo, s, e, bytes, file, format);
            }
            bufs.holes = holes;
            for &(s, e) in parts.unknown {
                self.unexplained(&mut cache, EntryKind::Unknown, kind, (plan, i), lo, s, e, bytes, file, format);
            }
        }
        bufs.insts[inst].values = v0..bufs.values.len();
        cache.kind = kind_name;
        self.caches[kid] = Some(cache);
    }

    /// Counts bytes `[s, e)` of a record starting at `lo`: as u32 words where a whole word
    /// at a record-relative multiple of 4 is inside the range, else byte by byte.
    #[allow(clippy::too_many_arguments)]
    fn unexplained(
        &mut self,
        cache: &mut KindCache,
        ek: EntryKind,
        kind: &str,
        (plan, i): (&Plan, usize),
        lo: u64,
        s: u64,
        e: u64,
        bytes: &[u8],
        file: u32,
        format: &'static str,
    ) {
        let mut o = s.saturating_sub(lo);
        let r1 = e.saturating_sub(lo);
        while o < r1 {
            let width = if o.is_multiple_of(4) && o + 4 <= r1 { 4 } else { 1 };
            let abs = lo + o;
            let Some(b) = usize::try_from(abs).ok().and_then(|a| bytes.get(a..a.checked_add(width)?)) else { break };
            let v = b.iter().rev().fold(0u64, |acc, &x| acc << 8 | x as u64);
            // Offsets stay below MAX_RECORD_BYTES: the slots are a short dense list.
            let slot = super::byte_slot(o, ek == EntryKind::Unknown, width == 4);
            if cache.bytes.len() <= slot {
                cache.bytes.resize(slot + 1, NO_ENTRY);
            }
            let id = match cache.bytes[slot] {
                NO_ENTRY => {
                    let ty = if width == 4 { "u32" } else { "u8" };
                    let id = self.intern(format, ek, format!("{}+0x{:02x}", record_name(kind), o), kind, ty);
                    cache.bytes[slot] = id as u32;
                    id
                }
                id => id as usize,
            };
            let en = &mut self.entries[id];
            en.width = width as u64;
            en.add_number(v, Some(o), || Place { file, record: plan.path(i), offset: abs }, file);
            o += width as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::census::plan::Plan;
    use crate::census::{Census, Parsed, Planner};
    use crate::formats::frostbite::builder::{build, cube, BuildLod, BuildMesh};

    /// MeshSets of 1, 3, 1, 2, 1, ... LODs: a lone LOD's record ends where the stride of an
    /// earlier file's LODs says, and that file was planned by another planner.
    fn meshsets() -> Vec<Parsed> {
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
                Parsed::new(&format!("m{i}.MeshSet"), build(&b).resource)
            })
            .collect()
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
