//! Planning on several threads while one census counts: files are read, decoded and planned
//! by `threads` workers and their plans handed to the census in file order, so the result is
//! exactly the one-thread census's. What crosses from core to core is the plan (tens of KB),
//! not the decoded document: reading another core's 160 KB document for every file cost as
//! much as decoding it (docs/census.md, "How fast"). At most `AHEAD` plans wait at any time,
//! so memory stays bounded whatever the files' sizes. Native only: the page runs its census
//! in one worker.

use super::plan::Plan;
use super::{Census, Parsed, Planner};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// How far past the next file the census needs the workers may plan.
const AHEAD: usize = 16;
/// How many counted plans a worker keeps before filling the oldest again: written soon after
/// the counting core read it, a plan's memory must first be taken back from that core, which
/// in this machine's slow periods made planning 15 % slower (151 against 129 us a file).
const LINGER: usize = 32;
/// Plans larger than this are not kept (a file of very many fields), so that the kept ones
/// stay a few MB.
const KEEP_BYTES: usize = 1 << 20;
/// The "worker" of a plan the census thread made itself.
const MINE: usize = usize::MAX;

/// The next index a worker takes, and the next one the census needs.
struct Turns {
    taken: usize,
    needed: usize,
}

/// A planned file: its plan and its bytes (the census reads the unexplained ones).
type Planned = (Plan, Vec<u8>);

/// Plans file `i` with `planner` into `plan`, reused.
fn plan_file<F>(load: &F, i: usize, planner: &mut Planner, mut plan: Plan) -> Result<Planned, String>
where
    F: Fn(usize) -> Result<(String, Vec<u8>), String>,
{
    let (name, bytes) = load(i)?;
    let mut doc = Parsed::new(&name, bytes);
    planner.plan(&doc, &mut plan);
    Ok((plan, std::mem::take(&mut doc.bytes)))
}

impl Census {
    /// Censuses files `0..n` in that order; `load(i)` gives file i's name and bytes, or an
    /// error that stops the census (returned, with the files before it counted). `threads`
    /// counts the census's own: with more than one, `threads - 1` workers read, decode and
    /// plan while this thread counts, and plans too whenever the file it needs next is not
    /// ready (one more worker than that only makes the threads take turns on the cores:
    /// 2,349 against 3,365 files/s on two cores).
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
        self.names.truncate(1);
        let turns = Mutex::new(Turns { taken: 0, needed: 0 });
        let moved = Condvar::new();
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, usize, Result<Planned, String>)>();
        // Counted plans go back to the worker that made them, to be filled again there:
        // freeing from another thread than the allocating one contends for the allocator's
        // lock, and a plan's lists, once grown, need no allocation at all.
        let mut back = Vec::new();
        let mut own = std::mem::take(&mut self.planner);
        let result = std::thread::scope(|s| {
            for w in 0..threads - 1 {
                let tx = tx.clone();
                let (back_tx, back_rx) = mpsc::channel::<Planned>();
                back.push(back_tx);
                let (turns, moved, stop, load) = (&turns, &moved, &stop, &load);
                s.spawn(move || {
                    let mut planner = Planner::new();
                    let mut spare: VecDeque<Plan> = VecDeque::new();
                    loop {
                        while let Ok((plan, bytes)) = back_rx.try_recv() {
                            drop(bytes);
                            if plan.capacity_bytes() <= KEEP_BYTES {
                                spare.push_back(plan);
                            }
                        }
                        let i = {
                            let mut t = turns.lock().unwrap_or_else(|e| e.into_inner());
                            while t.taken < n && t.taken >= t.needed + AHEAD && !stop.load(Ordering::Relaxed) {
                                t = moved.wait(t).unwrap_or_else(|e| e.into_inner());
                            }
                            if t.taken >= n || stop.load(Ordering::Relaxed) {
                                return;
                            }
                            t.taken += 1;
                            t.taken - 1
                        };
                        let reuse = if spare.len() > LINGER { spare.pop_front() } else { None };
                        let planned = plan_file(load, i, &mut planner, reuse.unwrap_or_default());
                        if tx.send((i, w, planned)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            // Plans that came early wait here for their turn.
            let mut early: BTreeMap<usize, (usize, Result<Planned, String>)> = BTreeMap::new();
            let mut mine: Option<Plan> = None;
            let mut result = Ok(());
            for next in 0..n {
                let planned = loop {
                    if let Some(d) = early.remove(&next) {
                        break Some(d);
                    }
                    match rx.try_recv() {
                        Ok((i, w, d)) => {
                            early.insert(i, (w, d));
                            continue;
                        }
                        Err(mpsc::TryRecvError::Empty) => {}
                        Err(mpsc::TryRecvError::Disconnected) => break None,
                    }
                    // Nothing to count yet: rather than wait, this thread plans the next file
                    // no worker has taken, so both cores stay busy whichever side is slower.
                    let take = {
                        let mut t = turns.lock().unwrap_or_else(|e| e.into_inner());
                        (t.taken < n && t.taken < t.needed + AHEAD).then(|| {
                            t.taken += 1;
                            t.taken - 1
                        })
                    };
                    match take {
                        Some(i) => {
                            let planned = plan_file(&load, i, &mut own, mine.take().unwrap_or_default());
                            early.insert(i, (MINE, planned));
                        }
                        None => match rx.recv() {
                            Ok((i, w, d)) => {
                                early.insert(i, (w, d));
                            }
                            Err(_) => break None,
                        },
                    }
                };
                match planned {
                    Some((w, Ok((plan, bytes)))) => {
                        self.apply(&plan, &bytes, if w == MINE { 0 } else { w + 1 });
                        match back.get(w) {
                            Some(b) => {
                                let _ = b.send((plan, bytes));
                            }
                            // The census's own plans are reused here; a worker that has ended
                            // takes nothing back.
                            None if w == MINE => mine = Some(plan),
                            None => {}
                        }
                    }
                    Some((_, Err(e))) => {
                        result = Err(e);
                        break;
                    }
                    None => break,
                }
                let mut t = turns.lock().unwrap_or_else(|e| e.into_inner());
                t.needed = next + 1;
                moved.notify_all();
            }
            if result.is_err() {
                stop.store(true, Ordering::Relaxed);
                moved.notify_all();
            }
            result
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
