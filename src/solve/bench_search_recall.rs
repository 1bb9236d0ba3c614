//! What `tesuji bench search`'s NegaScout remembers of its null-window
//! TESTs for the re-search that follows (seed 004, Hsu, "Scout and
//! NegaScout", refinements: "when a subtree is re-searched, it is best to
//! use information on the previous search to speed up the current
//! search"; comments: "the first search, though maybe unsuccessful, can
//! provide useful information in the second search. Information can be
//! stored and then reused").
//!
//! A TEST that fails high inside the window leaves the child's subtree
//! searched once with a null window, and the re-search walks the same
//! positions again with a wider one. The TEST's fail-soft results are true
//! bounds of those positions at the same depth: at the re-searched child
//! every move but the one that returned t failed high in the TEST with a
//! value of at least t, so once the re-search finds that move's value the
//! others' TEST bounds usually show that they cannot beat it, and each of
//! them is settled without a search. The games' players get this from
//! their transposition tables, which cut with any bound; the benchmark's
//! default table only orders moves (see [`super::bench_search`]), so
//! without this memory its NegaScout would re-search blind.
//!
//! To keep the comparison with α-β about the windows alone, the memory
//! holds only what a TEST stored and is read only inside that TEST's own
//! re-search: each stored bound carries the node count at which it was
//! stored (a stamp), each running re-search the span of node counts of its
//! TEST, and a bound is used only when its stamp lies in the span of a
//! TEST whose re-search is running. A position met again elsewhere in the
//! tree (a transposition, which α-β would also profit from if its table
//! cut) finds nothing. α-β has no TESTs, so it never stores or reads here.
//!
//! Values stay exact: a bound is used only at exactly the depth it was
//! found for, and the games' keys hold everything the rules look at, so a
//! position's depth-limited value does not depend on the path to it (the
//! argument of `--cutoffs`). The seed's line-11 shortcut (no re-search
//! with fewer than three plies left) stays exact too: a fail-low bound
//! found one ply above the horizon is the node's exact value, since such a
//! node searched every child, all exact leaves. Proven scores are stored
//! counted from the node, as in the table.

use super::depth_first::MAX_PLY;
use arrayvec::ArrayVec;
use std::collections::HashMap;

/// Bounds of one position found by a TEST, and when they were stored.
#[derive(Clone, Copy, Debug)]
struct Mark {
    lo: i32,
    hi: i32,
    stamp: u64,
}

/// NegaScout's memory of its TESTs (see the module docs).
#[derive(Default)]
pub(super) struct Recall {
    /// Bounds by position key and remaining depth.
    marks: HashMap<(u64, u32), Mark>,
    /// Node-count spans `(start, end]` of the TESTs whose re-searches are
    /// running, outermost first.
    spans: ArrayVec<(u64, u64), MAX_PLY>,
    /// Whether a TEST is running (its nodes' bounds are stored).
    testing: bool,
}

impl Recall {
    /// A TEST starts. Nothing stored before can be read once no
    /// re-search is running, so the memory is emptied then.
    pub fn begin_test(&mut self) {
        debug_assert!(!self.testing, "a TEST inside a TEST has no re-search");
        if self.spans.is_empty() {
            self.marks.clear();
        }
        self.testing = true;
    }

    pub fn end_test(&mut self) {
        self.testing = false;
    }

    /// Stores a node's fail-soft bounds `lo ≤ value ≤ hi` at `depth`, if a
    /// TEST is running; `stamp` is the node count when it finished.
    pub fn store(&mut self, key: u64, depth: u32, lo: i32, hi: i32, stamp: u64) {
        if self.testing {
            self.marks.insert((key, depth), Mark { lo, hi, stamp });
        }
    }

    /// The re-search of a TEST that searched the nodes counted in
    /// `(start, end]` starts.
    pub fn begin_research(&mut self, start: u64, end: u64) {
        self.spans.push((start, end));
    }

    pub fn end_research(&mut self) {
        self.spans.pop();
    }

    /// The bounds a TEST whose re-search is running found for the position
    /// `key` at `depth`.
    pub fn bounds(&self, key: u64, depth: u32) -> Option<(i32, i32)> {
        if self.spans.is_empty() {
            return None;
        }
        let m = self.marks.get(&(key, depth))?;
        let ours = self
            .spans
            .iter()
            .any(|&(start, end)| start < m.stamp && m.stamp <= end);
        ours.then_some((m.lo, m.hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a running re-search reads, only its own TEST's bounds, only at
    /// their depth.
    #[test]
    fn bounds_only_from_the_running_researchs_test() {
        let mut r = Recall::default();
        r.begin_test();
        r.store(1, 3, 5, 9, 10);
        r.end_test();
        r.store(2, 3, 0, 0, 11); // not during a TEST: not stored
        assert_eq!(r.bounds(1, 3), None, "no re-search running");
        r.begin_research(0, 10);
        assert_eq!(r.bounds(1, 3), Some((5, 9)));
        assert_eq!(r.bounds(1, 2), None, "other depth");
        assert_eq!(r.bounds(2, 3), None);
        // A nested TEST inside the re-search, stored at node 20.
        r.begin_test();
        r.store(3, 1, -4, -4, 20);
        r.end_test();
        assert_eq!(r.bounds(3, 1), None, "its re-search is not running");
        r.begin_research(12, 20);
        assert_eq!(r.bounds(3, 1), Some((-4, -4)));
        assert_eq!(r.bounds(1, 3), Some((5, 9)), "the outer TEST's too");
        r.end_research();
        assert_eq!(r.bounds(3, 1), None);
        r.end_research();
        assert_eq!(r.bounds(1, 3), None);
        // A TEST with no re-search running forgets everything.
        r.begin_test();
        r.end_test();
        r.begin_research(0, 10);
        assert_eq!(r.bounds(1, 3), None);
    }
}
