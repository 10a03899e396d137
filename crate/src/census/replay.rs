//! Plans of records laid out statically, kept by their bytes. Such a record's walk depends
//! only on its kind, its bytes and where it starts: its parts tile it, so none of its bytes
//! is uncovered, and what a group's extent or a lone element's reach could borrow from the
//! file never reaches past the record. A planner walks each distinct one once and replays its
//! plan after, moved to where the record starts, under its own path.
//!
//! A layout whose parts are the same whatever its bytes (`Layout::fixed`) is keyed by the
//! bytes its plan reads alone (its sub-records', and values of no kind code), and may leave
//! bytes uncovered: the walker checks the file's cover gives the kept holes before a replay.

use super::plan::{Ends, FieldOp, NumOp, Plan, PlanRecord};
use super::FxMap;
use crate::laid::LayoutRef;

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

/// The walk of a record laid out: its key (`start_key`), where it starts, how long the
/// plan's lists were before it, how long its own path is, and whether its first record may
/// have uncovered bytes (checked again at each replay).
pub(crate) struct Walked<'a> {
    pub key: &'a [u8],
    pub start: u64,
    /// Where its node ends: a record whose walk took bytes past it (an array element's tail)
    /// is not kept.
    pub end: u64,
    pub since: Marks,
    pub own_path: usize,
    pub holes_checked: bool,
}

/// One record's plan as walked: the lists' parts it added, where it started, and the
/// element strides it set (kind, stride).
#[derive(Debug)]
pub(crate) struct Kept {
    start: u64,
    marks: Marks,
    /// The length of the record's own path, the first of `paths`, which a replay replaces.
    own_path: usize,
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
    /// How many records were planned from a kept plan, and how many of them were of a fixed
    /// layout.
    pub hits: ReplayHits,
}

/// How many records laid out a planner planned from a kept plan (`Planner::replay_hits`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReplayHits {
    pub records: u64,
    /// Those of a fixed layout (`Layout::fixed`): MeshSet section records.
    pub fixed: u64,
}

/// Starts the key of a record of kind `kind` laid out as `layout` in `key`; the caller
/// appends the bytes its plan depends on.
pub(crate) fn start_key(key: &mut Vec<u8>, kind: u32, layout: LayoutRef) {
    key.clear();
    key.extend_from_slice(&kind.to_le_bytes());
    key.extend_from_slice(&layout.addr().to_le_bytes());
}

impl Replays {
    /// The plan kept under `key` (`start_key`).
    pub(crate) fn find(&self, key: &[u8]) -> Option<&Kept> {
        self.kept.get(key)
    }

    /// Keeps what the walk `w` added to `plan` (`strides` is the planner's stride log), when
    /// it can be replayed: no record of it has bytes it does not explain (but the first, where
    /// `holes_checked`) or a reach, and only the record itself reaches its end.
    pub(crate) fn keep(&mut self, plan: &Plan, w: Walked, strides: &[(u32, u64)]) {
        let Walked { key, start, end: node_end, since, own_path, holes_checked } = w;
        let records = plan.records.get(since.records..).unwrap_or(&[]);
        let Some(end) = records.first().map(|r| r.hi).filter(|&hi| hi <= node_end) else { return };
        let mut prev_unknown = since.holes as u32;
        let explained = records.iter().enumerate().all(|(i, r)| {
            let covered = r.ends.holes == prev_unknown || (i == 0 && holes_checked);
            let ok = covered && r.ends.ext == r.ends.holes && r.reach == 0 && (i == 0 || r.hi < end);
            prev_unknown = r.ends.unknown;
            ok
        });
        if !explained || self.kept.len() >= KEPT {
            return;
        }
        let kept = Kept {
            start,
            marks: since,
            own_path,
            paths: plan.paths.get(since.paths..).unwrap_or("").to_string(),
            records: records.to_vec(),
            fields: plan.fields.get(since.fields..).unwrap_or(&[]).to_vec(),
            values: plan.values.get(since.values..).unwrap_or("").to_string(),
            nums: plan.nums.get(since.nums..).unwrap_or(&[]).to_vec(),
            holes: plan.holes.get(since.holes..).unwrap_or(&[]).to_vec(),
            strides: strides.get(since.strides..).unwrap_or(&[]).to_vec(),
        };
        self.kept.insert(key.to_vec(), kept);
    }
}

impl Kept {
    /// Where the record ends when it starts at `start`.
    pub(crate) fn hi_at(&self, start: u64) -> u64 {
        self.records.first().map_or(start, |r| r.hi.wrapping_sub(self.start).wrapping_add(start))
    }

    /// Whether `holes` are the first record's uncovered bytes, moved to `start`.
    pub(crate) fn same_holes(&self, start: u64, holes: &[(u64, u64)]) -> bool {
        let n = self.records.first().map_or(0, |r| (r.ends.holes as usize).wrapping_sub(self.marks.holes));
        let kept = self.holes.get(..n).unwrap_or(&[]);
        let at = |x: u64| x.wrapping_sub(self.start).wrapping_add(start);
        kept.len() == holes.len() && kept.iter().zip(holes).all(|(&(s, e), &h)| (at(s), at(e)) == h)
    }

    /// Appends the kept plan to `plan`, for the record starting at `start` whose parent is
    /// record `parent` and whose path past its parent's is `own_path` in pieces.
    pub(crate) fn replay(&self, plan: &mut Plan, parent: u32, start: u64, own_path: [&str; 2]) {
        let now = Marks::of(plan, 0);
        let at = |x: u64| x.wrapping_sub(self.start).wrapping_add(start);
        let moved = |x: u32, was: usize, is: usize| (x as usize).wrapping_sub(was).wrapping_add(is) as u32;
        let was = self.marks;
        own_path.iter().for_each(|p| plan.paths.push_str(p));
        plan.paths.push_str(self.paths.get(self.own_path..).unwrap_or(""));
        // Paths are moved past the own path, whose length may differ (`section[9]`, `[10]`).
        let path_was = was.paths + self.own_path;
        let path_is = now.paths + own_path.iter().map(|p| p.len()).sum::<usize>();
        // The first record is the one laid out, whose parent is outside it.
        plan.records.extend(self.records.iter().enumerate().map(|(i, r)| PlanRecord {
            kind: r.kind,
            parent: if i == 0 { parent } else { moved(r.parent, was.records, now.records) },
            ends: Ends {
                path: moved(r.ends.path, path_was, path_is),
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
