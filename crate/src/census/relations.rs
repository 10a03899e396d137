//! Relations between entries: a field whose value, in every record that has it, equals
//! another value in scope (a field of the same record or of an enclosing one, a field of a
//! record the file has once, a count of children, a record's size, a region's count).
//!
//! Streaming: the first record a field is seen in proposes every value in scope equal to it;
//! each later record keeps only the candidates that are present and still equal. The lists
//! only shrink, so after a few files almost no work is left.

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

    /// One record's value `va` of field `a`, against `scope` (sorted by entry id, one value
    /// per entry).
    pub fn observe(&mut self, a: usize, va: f64, scope: &[(usize, f64)]) {
        let find = |b: usize| scope.binary_search_by_key(&b, |x| x.0).ok().map(|i| scope[i].1);
        if self.alive.len() <= a {
            self.alive.resize(a + 1, None);
        }
        match &mut self.alive[a] {
            None => {
                let list = scope.iter().filter(|&&(b, vb)| b != a && vb == va).map(|&(b, _)| b).collect();
                self.alive[a] = Some(list);
            }
            Some(list) => list.retain(|&b| find(b) == Some(va)),
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
    fn candidates_only_shrink() {
        let mut r = Relations::default();
        r.observe(0, 5.0, &[(0, 5.0), (1, 5.0), (2, 5.0), (3, 1.0)]);
        r.observe(0, 6.0, &[(0, 6.0), (1, 6.0), (2, 7.0), (3, 6.0)]);
        assert_eq!(r.pairs(), vec![(0, 1)], "3 was unequal first, 2 later");
        r.observe(0, 8.0, &[(0, 8.0)]);
        assert!(r.pairs().is_empty(), "a missing candidate ends the relation");
        assert!(!r.wants(0));
        assert!(r.wants(9));
    }
}
