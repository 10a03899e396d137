//! Planning on several threads while one census counts: files are read, decoded and planned
//! by worker threads and their plans handed to the census in file order, so the result is
//! exactly the one-thread census's. What crosses from core to core is the plan, not the much
//! larger decoded file (docs/performance.md). At most `AHEAD` plans wait at any time, so
//! memory stays bounded whatever the files' sizes. Native only: the page's workers, which
//! share no memory, hand their plans over as bytes instead (`handover`).

use super::plan::Plan;
use super::{Census, CensusFile, Planner};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// How far past the next file the census needs the workers may plan.
const AHEAD: usize = 16;
/// How many counted plans a worker keeps before it refills the oldest: a plan the counting
/// core has just read is slower to write again than one it read a while ago.
const KEPT_PLANS: usize = 32;
/// Plans larger than this are not kept (a file of very many fields), so that the kept ones
/// stay a few MB.
const KEEP_BYTES: usize = 1 << 20;

/// The next index a worker takes, and the next one the census needs.
struct Turns {
    taken: usize,
    needed: usize,
}

/// Which file each thread plans next, shared by the census thread and the workers.
struct Schedule {
    /// How many files there are.
    n: usize,
    turns: Mutex<Turns>,
    /// Signalled when `needed` moves or the census stops.
    moved: Condvar,
    stop: AtomicBool,
}

impl Schedule {
    fn lock(&self) -> std::sync::MutexGuard<'_, Turns> {
        self.turns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next file for a worker, waiting while it would be more than `AHEAD` past the one
    /// the census needs; `None` once every file is taken or the census stopped.
    fn worker_turn(&self) -> Option<usize> {
        let mut t = self.lock();
        while t.taken < self.n && t.taken >= t.needed + AHEAD && !self.stop.load(Ordering::Relaxed) {
            t = self.moved.wait(t).unwrap_or_else(|e| e.into_inner());
        }
        if t.taken >= self.n || self.stop.load(Ordering::Relaxed) {
            return None;
        }
        t.taken += 1;
        Some(t.taken - 1)
    }

    /// The next file for the census thread, if one is free now.
    fn census_turn(&self) -> Option<usize> {
        let mut t = self.lock();
        (t.taken < self.n && t.taken < t.needed + AHEAD).then(|| {
            t.taken += 1;
            t.taken - 1
        })
    }

    /// The census has counted the files before `next`.
    fn counted(&self, next: usize) {
        self.lock().needed = next;
        self.moved.notify_all();
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.moved.notify_all();
    }
}

/// A planned file: its plan and its bytes (the census reads the unexplained ones).
struct Planned {
    plan: Plan,
    bytes: Vec<u8>,
}

/// Which thread planned a file.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PlannedBy {
    /// The counting thread itself, with the census's own planner (planner number 0).
    Census,
    /// Worker `w` (planner number `w + 1`).
    Worker(usize),
}

/// File `index`, planned by `by`, or the error loading it gave.
struct Done {
    index: usize,
    by: PlannedBy,
    planned: Result<Planned, String>,
}

/// Plans file `i` with `planner` into `plan`, reused.
fn plan_file<F>(load: &F, i: usize, planner: &mut Planner, mut plan: Plan) -> Result<Planned, String>
where
    F: Fn(usize) -> Result<(String, Vec<u8>), String>,
{
    let (name, bytes) = load(i)?;
    let file = CensusFile::new(&name, bytes);
    planner.plan(&file, &mut plan);
    Ok(Planned { plan, bytes: file.bytes })
}

/// A worker: plans the files `schedule` gives it with a planner of its own, refilling the
/// plans the census sends back.
fn worker<F>(w: usize, schedule: &Schedule, load: &F, done: mpsc::Sender<Done>, back: mpsc::Receiver<Planned>)
where
    F: Fn(usize) -> Result<(String, Vec<u8>), String>,
{
    let mut planner = Planner::new();
    let mut spare: VecDeque<Plan> = VecDeque::new();
    loop {
        // The file's bytes are dropped here, on the thread that allocated them.
        while let Ok(Planned { plan, .. }) = back.try_recv() {
            if plan.capacity_bytes() <= KEEP_BYTES {
                spare.push_back(plan);
            }
        }
        let Some(i) = schedule.worker_turn() else { return };
        let reuse = if spare.len() > KEPT_PLANS { spare.pop_front() } else { None };
        let planned = plan_file(load, i, &mut planner, reuse.unwrap_or_default());
        if done.send(Done { index: i, by: PlannedBy::Worker(w), planned }).is_err() {
            return;
        }
    }
}

impl Census {
    /// Censuses files `0..n` in that order; `load(i)` gives file i's name and bytes, or an
    /// error that stops the census (returned, with the files before it counted). `threads`
    /// counts the census's own: with more than one, `threads - 1` workers read, decode and
    /// plan while this thread counts, and plans too whenever the file it needs next is not
    /// ready (one more worker than that only makes the threads take turns on the cores).
    pub fn add_files<F>(&mut self, n: usize, threads: usize, load: F) -> Result<(), String>
    where
        F: Fn(usize) -> Result<(String, Vec<u8>), String> + Sync,
    {
        let threads = threads.clamp(1, n.max(1));
        if threads == 1 {
            for i in 0..n {
                let (name, bytes) = load(i)?;
                self.add_file(&name, bytes);
            }
            return Ok(());
        }
        // Planner 0 is the census's own; the workers' planners, 1 and on, start afresh.
        self.planner_ids.truncate(1);
        let schedule = Schedule {
            n,
            turns: Mutex::new(Turns { taken: 0, needed: 0 }),
            moved: Condvar::new(),
            stop: AtomicBool::new(false),
        };
        let (tx, rx) = mpsc::channel::<Done>();
        // Counted plans go back to the worker that made them, to be filled again there:
        // freeing from another thread than the allocating one contends for the allocator's
        // lock, and a plan's lists, once grown, need no allocation at all.
        let mut back = Vec::new();
        // `apply` borrows the whole census, so its own planner is lent out of it meanwhile.
        let mut own = std::mem::take(&mut self.planner);
        let result = std::thread::scope(|s| {
            for w in 0..threads - 1 {
                let done = tx.clone();
                let (back_tx, back_rx) = mpsc::channel::<Planned>();
                back.push(back_tx);
                let (schedule, load) = (&schedule, &load);
                s.spawn(move || worker(w, schedule, load, done, back_rx));
            }
            drop(tx);
            // Plans that came early wait here for their turn.
            let mut early: BTreeMap<usize, Done> = BTreeMap::new();
            let mut census_spare: Option<Plan> = None;
            for next in 0..n {
                let planned = loop {
                    if let Some(d) = early.remove(&next) {
                        break Some(d);
                    }
                    match rx.try_recv() {
                        Ok(d) => {
                            early.insert(d.index, d);
                            continue;
                        }
                        Err(mpsc::TryRecvError::Empty) => {}
                        Err(mpsc::TryRecvError::Disconnected) => break None,
                    }
                    // Nothing to count yet: rather than wait, this thread plans the next file
                    // no worker has taken, so both cores stay busy whichever side is slower.
                    match schedule.census_turn() {
                        Some(i) => {
                            let planned = plan_file(&load, i, &mut own, census_spare.take().unwrap_or_default());
                            early.insert(i, Done { index: i, by: PlannedBy::Census, planned });
                        }
                        None => match rx.recv() {
                            Ok(d) => {
                                early.insert(d.index, d);
                            }
                            Err(_) => break None,
                        },
                    }
                };
                match planned {
                    Some(Done { by: PlannedBy::Census, planned: Ok(p), .. }) => {
                        self.apply(&p.plan, &p.bytes, 0);
                        census_spare = Some(p.plan);
                    }
                    Some(Done { by: PlannedBy::Worker(w), planned: Ok(p), .. }) => {
                        self.apply(&p.plan, &p.bytes, w + 1);
                        // A worker that has ended takes nothing back.
                        if let Some(b) = back.get(w) {
                            let _ = b.send(p);
                        }
                    }
                    Some(Done { planned: Err(e), .. }) => {
                        schedule.stop();
                        return Err(e);
                    }
                    None => break,
                }
                schedule.counted(next + 1);
            }
            Ok(())
        });
        self.planner = own;
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::census::Census;

    #[test]
    fn several_threads_give_the_one_thread_census() {
        let files: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| {
                let mut b = crate::sample::sample_ply();
                // Vary a few bytes past the header so values differ between files.
                let k = b.len() - 1 - (i % 7);
                b[k] = b[k].wrapping_add(i as u8);
                (format!("f{i}.ply"), b)
            })
            .collect();
        let run = |threads| {
            let mut c = Census::new();
            c.add_files(files.len(), threads, |i| Ok(files[i].clone())).unwrap();
            serde_json::to_string(&c.report(1000)).unwrap()
        };
        let one = run(1);
        assert!(one.contains("\"files\":40"));
        assert_eq!(run(3), one);
        assert_eq!(run(8), one);
        // An error stops the census and is returned.
        let mut c = Census::new();
        let e = c.add_files(10, 3, |i| if i == 4 { Err("no file 4".into()) } else { Ok(files[i].clone()) });
        assert_eq!(e, Err("no file 4".to_string()));
        assert_eq!(c.files.len(), 4, "the files before it are counted");
    }
}
