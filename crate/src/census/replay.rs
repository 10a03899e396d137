//! Plans of records laid out statically, kept by their bytes. Such a record's walk depends
//! only on its kind, its bytes and where it starts: its parts tile it, so none of its bytes
//! is uncovered, and what a group's extent or a lone element's reach could borrow from the
//! file never reaches past the record. A planner walks each distinct one once and replays its
//! plan after, moved to where the record starts.

use super::plan::{Ends, FieldOp, NumOp, Plan, PlanRecord};
use super::FxMap;

/// How many plans a planner keeps at most.
const KEPT: usize = 4096;
/// Records longer than this are walked every time (the key is their bytes).
pub(crate) const MAX_BYTES: usize = 256;

/// How long a plan's lists were before a record's walk, and the planner's stride log.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Marks {
    paths: usize,
    records: usize,
    fields: usize,
    values: usize,
    nums: usize,
    holes: usize,
    strides: usize,
}

impl Marks {
    pub(crate) fn of(plan: &Plan, strides: usize) -> Marks {
        Marks {
            paths: plan.paths.len(),
            records: plan.records.len(),
            fields: plan.fields.len(),
            values: plan.values.len(),
            nums: plan.nums.len(),
            holes: plan.holes.len(),
            strides,
        }
    }
}

/// The walk of a record laid out: its kind, its bytes, where it starts, and how long the
/// plan's lists were before it.
pub(crate) struct Walked<'a> {
    pub kind: u32,
    pub own: &'a [u8],
    pub start: u64,
    pub since: Marks,
}

/// One record's plan as walked: the lists' parts it added, where it started, and the
/// element strides it set (kind, stride).
#[derive(Debug)]
pub(crate) struct Kept {
    start: u64,
    marks: Marks,
    paths: String,
    records: Vec<PlanRecord>,
    fields: Vec<FieldOp>,
    values: String,
    nums: Vec<NumOp>,
    holes: Vec<(u64, u64)>,
    pub strides: Vec<(u32, u64)>,
}

/// A planner's kept plans, by the record's kind and bytes.
#[derive(Debug, Default)]
pub(crate) struct Replays {
    kept: FxMap<Vec<u8>, Kept>,
    /// The key last looked up, reused.
    key: Vec<u8>,
}

impl Replays {
    /// The plan kept for a record of kind `kind` whose bytes are `own`.
    pub(crate) fn find(&mut self, kind: u32, own: &[u8]) -> Option<&Kept> {
        self.set_key(kind, own);
        self.kept.get(self.key.as_slice())
    }

    fn set_key(&mut self, kind: u32, own: &[u8]) {
        self.key.clear();
        self.key.extend_from_slice(&kind.to_le_bytes());
        self.key.extend_from_slice(own);
    }

    /// Keeps what the walk `w` added to `plan` (`strides` is the planner's stride log), when
    /// it can be replayed: no record of it has bytes it does not explain or a reach, and only
    /// the record itself reaches its end.
    pub(crate) fn keep(&mut self, plan: &Plan, w: Walked, strides: &[(u32, u64)]) {
        let Walked { kind, own, start, since } = w;
        let records = plan.records.get(since.records..).unwrap_or(&[]);
        let Some(end) = records.first().map(|r| r.hi) else { return };
        let mut prev_unknown = since.holes as u32;
        let explained = records.iter().enumerate().all(|(i, r)| {
            let ok =
                r.ends.holes == prev_unknown && r.ends.ext == r.ends.holes && r.reach == 0 && (i == 0 || r.hi < end);
            prev_unknown = r.ends.unknown;
            ok
        });
        if !explained || self.kept.len() >= KEPT {
            return;
        }
        self.set_key(kind, own);
        let kept = Kept {
            start,
            marks: since,
            paths: plan.paths.get(since.paths..).unwrap_or("").to_string(),
            records: records.to_vec(),
            fields: plan.fields.get(since.fields..).unwrap_or(&[]).to_vec(),
            values: plan.values.get(since.values..).unwrap_or("").to_string(),
            nums: plan.nums.get(since.nums..).unwrap_or(&[]).to_vec(),
            holes: plan.holes.get(since.holes..).unwrap_or(&[]).to_vec(),
            strides: strides.get(since.strides..).unwrap_or(&[]).to_vec(),
        };
        self.kept.insert(self.key.clone(), kept);
    }
}

impl Kept {
    /// Appends the kept plan to `plan`, for the record starting at `start` whose parent is
    /// record `parent`.
    pub(crate) fn replay(&self, plan: &mut Plan, parent: u32, start: u64) {
        let now = Marks::of(plan, 0);
        let at = |x: u64| x.wrapping_sub(self.start).wrapping_add(start);
        let moved = |x: u32, was: usize, is: usize| (x as usize).wrapping_sub(was).wrapping_add(is) as u32;
        let was = self.marks;
        plan.paths.push_str(&self.paths);
        // The first record is the one laid out, whose parent is outside it.
        plan.records.extend(self.records.iter().enumerate().map(|(i, r)| PlanRecord {
            kind: r.kind,
            parent: if i == 0 { parent } else { moved(r.parent, was.records, now.records) },
            ends: Ends {
                path: moved(r.ends.path, was.paths, now.paths),
                fields: moved(r.ends.fields, was.fields, now.fields),
                nums: moved(r.ends.nums, was.nums, now.nums),
                holes: moved(r.ends.holes, was.holes, now.holes),
                ext: moved(r.ends.ext, was.holes, now.holes),
                unknown: moved(r.ends.unknown, was.holes, now.holes),
            },
            lo: at(r.lo),
            hi: at(r.hi),
            reach: 0,
        }));
        plan.fields.extend(self.fields.iter().map(|f| FieldOp { at: at(f.at), ..f.clone() }));
        plan.values.push_str(&self.values);
        plan.nums.extend(self.nums.iter().map(|n| NumOp { at: at(n.at), ..*n }));
        plan.holes.extend(self.holes.iter().map(|&(s, e)| (at(s), at(e))));
    }
}
