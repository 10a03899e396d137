//! Relations between entries: a field whose value, in every record that has it, equals
//! another value in scope (a field of the same record or of an enclosing one, a field of a
//! record the file has once, a count of children, a record's size, a region's count).
//!
//! Streaming: the first record a field is seen in proposes every value in scope equal to it;
//! each later record keeps only the candidates that are present and still equal. The lists
//! only shrink, so after a few files almost no work is left.

/// One numeric value of a record: its entry and the number, and whether the entry is a
/// field's (only fields are observed; counts and sizes are only looked up). Kept here so that
/// relating a file reads no entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntryValue {
    pub entry: usize,
    pub value: f64,
    pub field: bool,
}

/// A value put in a `Scope`, stamped with the scope's fill it belongs to.
#[derive(Debug, Clone, Copy, Default)]
struct Stamped {
    stamp: u32,
    value: f64,
}

/// The values in scope of one record: one per entry, the first one put in winning (own and
/// enclosing records go in before file-wide values). Stamped slots indexed by entry id, so
/// filling it costs no sort and no allocation once it has grown to the number of entries.
#[derive(Debug, Default)]
pub struct Scope {
    stamp: u32,
    /// By entry id; a slot whose stamp is not the scope's is empty.
    slots: Vec<Stamped>,
    /// The entries put in since the last clear.
    ids: Vec<usize>,
}

impl Scope {
    /// Empties the scope.
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 clears the stamps could collide: start the slots afresh.
            self.slots.iter_mut().for_each(|s| s.stamp = 0);
            self.stamp = 1;
        }
        self.ids.clear();
    }

    /// Puts entry `id`'s value in scope unless it has one already.
    pub fn put(&mut self, id: usize, v: f64) {
        if self.slots.len() <= id {
            self.slots.resize(id + 1, Stamped::default());
        }
        if self.slots[id].stamp != self.stamp {
            self.slots[id] = Stamped { stamp: self.stamp, value: v };
            self.ids.push(id);
        }
    }

    pub fn get(&self, id: usize) -> Option<f64> {
        self.slots.get(id).filter(|s| s.stamp == self.stamp).map(|s| s.value)
    }

    fn iter(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.ids.iter().map(|&id| (id, self.slots[id].value))
    }
}

/// The values of a record and of the records enclosing it, the nearest record's winning:
/// records are entered in walk order (each after its parent); entering one leaves the records
/// that do not enclose it, undoing what they put.
#[derive(Debug, Default)]
pub struct Chain {
    /// Per entry: the value in scope and whose it is.
    slots: Vec<Held>,
    /// Records entered and not left, innermost last.
    open: Vec<OpenRecord>,
    /// What entering records overwrote, to be put back when they are left.
    undo: Vec<Overwritten>,
}

/// An entry's value in a `Chain` and the record (its index + 1) that put it; 0 for none.
#[derive(Debug, Clone, Copy, Default)]
struct Held {
    record: u32,
    value: f64,
}

/// A record entered in a `Chain`, and where its undo entries start.
#[derive(Debug, Clone, Copy)]
struct OpenRecord {
    record: usize,
    undo_from: usize,
}

/// A slot a record overwrote, and what it held before.
#[derive(Debug, Clone, Copy)]
struct Overwritten {
    entry: usize,
    was: Held,
}

impl Chain {
    /// Makes room for entries up to `n`, so that entering records does not grow the list.
    pub fn grow(&mut self, n: usize) {
        self.slots.resize(n.max(self.slots.len()), Held::default());
    }

    /// Enters record `n` whose enclosing record is `parent` (`None`: a top record).
    pub fn enter(&mut self, n: usize, parent: Option<usize>, values: &[EntryValue]) {
        self.leave_to(parent);
        let me = n as u32 + 1;
        self.open.push(OpenRecord { record: n, undo_from: self.undo.len() });
        for &EntryValue { entry, value, .. } in values {
            if self.slots.len() <= entry {
                self.slots.resize(entry + 1, Held::default());
            }
            // The first value a record puts for an entry is its own.
            if self.slots[entry].record != me {
                self.undo.push(Overwritten { entry, was: self.slots[entry] });
                self.slots[entry] = Held { record: me, value };
            }
        }
    }

    /// Leaves every record, restoring every slot.
    pub fn leave_all(&mut self) {
        self.leave_to(None);
    }

    /// Leaves the open records down to `parent`, undoing what they put.
    fn leave_to(&mut self, parent: Option<usize>) {
        while let Some(&OpenRecord { record, undo_from }) = self.open.last() {
            if Some(record) == parent {
                break;
            }
            for o in self.undo.drain(undo_from..).rev() {
                self.slots[o.entry] = o.was;
            }
            self.open.pop();
        }
    }

    pub fn get(&self, id: usize) -> Option<f64> {
        self.slots.get(id).filter(|s| s.record != 0).map(|s| s.value)
    }
}

/// A record's scope over the file-wide one: a value in `top` wins over `base`'s. The file's
/// scope is filled once per file, not once per record.
#[derive(Clone, Copy)]
pub struct Layered<'a> {
    pub top: &'a Scope,
    pub base: &'a Scope,
}

impl Layered<'_> {
    pub fn get(&self, id: usize) -> Option<f64> {
        self.top.get(id).or_else(|| self.base.get(id))
    }

    fn iter(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.top.iter().chain(self.base.iter().filter(|&(id, _)| self.top.get(id).is_none()))
    }
}

#[derive(Debug, Default)]
pub struct Relations {
    /// Field entry -> entries it has equaled in every record so far.
    alive: Vec<Option<Vec<usize>>>,
}

impl Relations {
    /// Whether observing `a` can still change anything (never seen, or candidates left).
    pub fn wants(&self, a: usize) -> bool {
        self.alive.get(a).and_then(|x| x.as_ref()).is_none_or(|l| !l.is_empty())
    }

    /// Whether field `a` has been observed (its candidates proposed).
    pub fn seen(&self, a: usize) -> bool {
        self.alive.get(a).is_some_and(|x| x.is_some())
    }

    /// A later record's value `va` of field `a`: keeps the candidates whose value there
    /// (`get`) is still equal. False, and nothing done, when `a` was never observed.
    pub fn narrow(&mut self, a: usize, va: f64, get: impl Fn(usize) -> Option<f64>) -> bool {
        match self.alive.get_mut(a) {
            Some(Some(list)) => {
                list.retain(|&b| get(b) == Some(va));
                true
            }
            _ => false,
        }
    }

    /// One record's value `va` of field `a`, against the values in `scope`.
    pub fn observe(&mut self, a: usize, va: f64, scope: Layered) {
        if self.alive.len() <= a {
            self.alive.resize(a + 1, None);
        }
        match &mut self.alive[a] {
            None => {
                let list = scope.iter().filter(|&(b, vb)| b != a && vb == va).map(|(b, _)| b).collect();
                self.alive[a] = Some(list);
            }
            Some(list) => list.retain(|&b| scope.get(b) == Some(va)),
        }
    }

    /// Every (a, b) that held in every record `a` was seen in.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = self
            .alive
            .iter()
            .enumerate()
            .filter_map(|(a, l)| l.as_ref().map(|l| (a, l)))
            .flat_map(|(a, l)| l.iter().map(move |&b| (a, b)))
            .collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_holds_the_nearest_enclosing_value() {
        let v = |entry, value| EntryValue { entry, value, field: true };
        let mut c = Chain::default();
        c.enter(0, None, &[v(1, 10.0), v(2, 20.0)]);
        c.enter(1, Some(0), &[v(1, 11.0), v(1, 99.0)]);
        assert_eq!((c.get(1), c.get(2)), (Some(11.0), Some(20.0)), "own first, then enclosing; first put wins");
        c.enter(2, Some(1), &[v(3, 30.0)]);
        c.enter(3, Some(0), &[]);
        assert_eq!((c.get(1), c.get(3)), (Some(10.0), None), "records left are undone");
        c.enter(4, None, &[]);
        assert_eq!(c.get(1), None);
        c.leave_all();
        assert!(c.slots.iter().all(|s| s.record == 0), "leaving all restores every slot");
    }

    #[test]
    fn candidates_only_shrink() {
        let mut r = Relations::default();
        let mut s = Scope::default();
        let mut scope = |vals: &[(usize, f64)]| {
            s.clear();
            vals.iter().for_each(|&(id, v)| s.put(id, v));
            std::mem::take(&mut s)
        };
        let file = scope(&[(4, 5.0), (1, 1.0)]);
        let on = |top| Layered { top, base: &file };
        let (first, second) =
            (scope(&[(0, 5.0), (1, 5.0), (2, 5.0), (3, 1.0)]), scope(&[(0, 6.0), (1, 6.0), (2, 7.0), (3, 6.0)]));
        r.observe(0, 5.0, on(&first));
        r.observe(0, 6.0, on(&second));
        assert_eq!(r.pairs(), vec![(0, 1)], "3 was unequal first, 2 later; the record's 1 wins over the file's");
        let mut r4 = Relations::default();
        let own = scope(&[(0, 5.0)]);
        r4.observe(0, 5.0, on(&own));
        assert_eq!(r4.pairs(), vec![(0, 4)], "a file-wide value is in scope");
        let once = scope(&[(0, 8.0), (0, 9.0)]);
        assert_eq!(once.get(0), Some(8.0), "the first value put in wins");
        assert_eq!(once.get(1), None);
        r.observe(0, 8.0, on(&once));
        assert!(r.narrow(0, 8.0, |b| (b == 1).then_some(8.0)), "a seen field narrows");
        assert!(!r.narrow(5, 1.0, |_| Some(1.0)) && !r.seen(5), "an unseen one does not");
        assert!(r.pairs().is_empty(), "a missing candidate ends the relation");
        assert!(!r.wants(0));
        assert!(r.wants(9));
    }
}
