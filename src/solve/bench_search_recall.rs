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
//! re-search: each stored bound carries a stamp, each running re-search
//! the span of stamps of its TEST, and a bound is used only when its stamp
//! lies in the span of a TEST whose re-search is running. A position met
//! again elsewhere in the tree (a transposition, which α-β would also
//! profit from if its table cut) finds nothing. α-β has no TESTs, so it
//! never stores or reads here.
//!
//! Values stay exact: a bound is used only at exactly the depth it was
//! found for, and the games' keys hold everything the rules look at, so a
//! position's depth-limited value does not depend on the path to it (the
//! argument of `--cutoffs`). The seed's line-11 shortcut (no re-search
//! with fewer than three plies left) stays exact too: a fail-low bound
//! found one ply above the horizon is the node's exact value, since such a
//! node searched every child, all exact leaves. Proven scores are stored
//! counted from the node, as in the table.

//!
//! # The store
//!
//! Search loops never touch the heap, so the bounds live in a fixed array
//! made once with the benchmark's other tables ([`Recall::new`]:
//! [`ENTRIES`] entries of 32 bytes, 2 MiB) and reused by every search:
//! buckets of [`WAYS`] entries chosen by a hash of key and depth, each
//! entry holding key, depth, the two bounds and the stamp.
//!
//! The stamp is a clock that only a TEST's stores advance: the n-th bound
//! stored in the store's life has stamp n (an empty entry has 0). A TEST
//! that began at clock s and ended at clock e stored exactly the stamps of
//! its span (s, e]: stores happen only while a TEST runs, TESTs do not
//! nest inside TESTs (only inside re-searches), and the clock never goes
//! back. Hence nothing needs clearing, neither between TESTs nor between
//! searches: a span is pushed only for the TEST that has just ended, so
//! every span pushed later starts at or above every stamp already stored;
//! an entry whose stamp lies in no running span (its TEST had no
//! re-search, or the re-search has ended, or it is empty) therefore never
//! lies in one again and is dead for good. A store overwrites the entry of
//! the same key and depth, else a dead entry or an empty one, else the
//! bucket's oldest entry. A bound is read only when key and depth match
//! exactly (as the hash map of session 24's first version did; 64-bit keys
//! as in the tables) and its stamp is live, so a bound that was lost or
//! overwritten only means "no bound": the re-search searches that position
//! and the values stay exact. On the default set (counted with the hash
//! map of the first version, which was emptied whenever a TEST began with
//! no re-search running) a TEST stored at most 4,366 bounds, and at most
//! 5,080 positions were held at once (7,685 stores) between two such
//! outermost TESTs, with the TESTs nested in the first one's re-search:
//! under 8% of [`ENTRIES`]. The node counts of `tesuji bench search` are
//! the hash map's to the node under all its options tried (default,
//! `--seed 100`, `--seed 200`, `--aspiration`, `--ordering history`,
//! `--cutoffs --aspiration`, `--fresh --depth 5`). Smaller stores, tried
//! once and not kept: 2^12 entries lose a few bounds (3,643,875 NegaScout
//! nodes), 2^10 many (3,692,127, 10.1% saved).

use super::depth_first::MAX_PLY;
use arrayvec::ArrayVec;

/// Entries of the store: a power of two.
pub const ENTRIES: usize = 1 << 16;
/// Entries per bucket.
pub const WAYS: usize = 4;

/// Bounds of one position found by a TEST, and when they were stored.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    key: u64,
    /// Remaining depth the bounds hold for.
    depth: u32,
    lo: i32,
    hi: i32,
    /// The clock when stored; 0: empty.
    stamp: u64,
}

/// NegaScout's memory of its TESTs for `tesuji bench search` (see the
/// module docs): made once, then reused by every search without
/// allocating.
pub struct Recall {
    marks: Box<[Mark]>,
    /// Bits of the bucket index.
    bits: u32,
    /// Stamp of the last bound stored.
    clock: u64,
    /// The clock when the running TEST began.
    test_start: u64,
    /// Stamp span `(start, end]` of the TEST that ended last.
    last_test: (u64, u64),
    /// Stamp spans of the TESTs whose re-searches are running, outermost
    /// first.
    spans: ArrayVec<(u64, u64), MAX_PLY>,
    /// Whether a TEST is running (its nodes' bounds are stored).
    testing: bool,
}

impl Default for Recall {
    fn default() -> Recall {
        Recall::new()
    }
}

impl Recall {
    /// A store of `ENTRIES` (2^16) entries, 2 MiB.
    pub fn new() -> Recall {
        Recall::with_entries(ENTRIES)
    }

    /// A store of `entries` (a power of two, at least [`WAYS`]) entries.
    fn with_entries(entries: usize) -> Recall {
        assert!(entries.is_power_of_two() && entries >= WAYS);
        Recall {
            marks: vec![Mark::default(); entries].into_boxed_slice(),
            bits: (entries / WAYS).trailing_zeros(),
            clock: 0,
            test_start: 0,
            last_test: (0, 0),
            spans: ArrayVec::new(),
            testing: false,
        }
    }

    /// A search starts: no TEST or re-search is running. What earlier
    /// searches stored is dead already (see the module docs).
    pub fn begin_search(&mut self) {
        self.spans.clear();
        self.testing = false;
    }

    pub fn begin_test(&mut self) {
        debug_assert!(!self.testing, "a TEST inside a TEST has no re-search");
        self.testing = true;
        self.test_start = self.clock;
    }

    pub fn end_test(&mut self) {
        self.testing = false;
        self.last_test = (self.test_start, self.clock);
    }

    /// The re-search of the TEST that ended last starts.
    pub fn begin_research(&mut self) {
        self.spans.push(self.last_test);
    }

    pub fn end_research(&mut self) {
        self.spans.pop();
    }

    /// The entries `(key, depth)` may be in.
    fn bucket(&self, key: u64, depth: u32) -> std::ops::Range<usize> {
        const MIX: u64 = 0x9e37_79b9_7f4a_7c15;
        let h = (key ^ u64::from(depth).wrapping_mul(MIX)).wrapping_mul(MIX);
        // The high bits of a Fibonacci hash; `bits` may be 0.
        let b = h.checked_shr(64 - self.bits).unwrap_or(0) as usize;
        b * WAYS..(b + 1) * WAYS
    }

    /// Whether a bound with `stamp` belongs to a TEST whose re-search is
    /// running.
    fn live(&self, stamp: u64) -> bool {
        self.spans
            .iter()
            .any(|&(start, end)| start < stamp && stamp <= end)
    }

    /// Stores a node's fail-soft bounds `lo ≤ value ≤ hi` at `depth`, if a
    /// TEST is running.
    pub fn store(&mut self, key: u64, depth: u32, lo: i32, hi: i32) {
        if !self.testing {
            return;
        }
        let bucket = self.bucket(key, depth);
        // The same position, else a dead entry (the running TEST's own are
        // live too), else the oldest.
        let marks = &self.marks[bucket.clone()];
        let keep = |m: &Mark| m.stamp > self.test_start || self.live(m.stamp);
        let way = marks
            .iter()
            .position(|m| m.key == key && m.depth == depth)
            .or_else(|| marks.iter().position(|m| !keep(m)))
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&w| marks[w].stamp).expect("WAYS > 0"));
        self.clock += 1;
        self.marks[bucket.start + way] = Mark {
            key,
            depth,
            lo,
            hi,
            stamp: self.clock,
        };
    }

    /// The bounds a TEST whose re-search is running found for the position
    /// `key` at `depth`.
    pub fn bounds(&self, key: u64, depth: u32) -> Option<(i32, i32)> {
        if self.spans.is_empty() {
            return None;
        }
        self.marks[self.bucket(key, depth)]
            .iter()
            .find(|m| m.key == key && m.depth == depth && self.live(m.stamp))
            .map(|m| (m.lo, m.hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a running re-search reads, only its own TEST's bounds, only at
    /// their depth; nothing is cleared, so a bound from outside the
    /// running spans must be refused by its stamp alone.
    #[test]
    fn bounds_only_from_the_running_researchs_test() {
        let mut r = Recall::new();
        r.begin_search();
        r.begin_test();
        r.store(1, 3, 5, 9);
        r.end_test();
        r.store(2, 3, 0, 0); // not during a TEST: not stored
        assert_eq!(r.bounds(1, 3), None, "no re-search running");
        r.begin_research();
        assert_eq!(r.bounds(1, 3), Some((5, 9)));
        assert_eq!(r.bounds(1, 2), None, "other depth");
        assert_eq!(r.bounds(2, 3), None);
        // A nested TEST inside the re-search.
        r.begin_test();
        r.store(3, 1, -4, -4);
        r.end_test();
        assert_eq!(r.bounds(3, 1), None, "its re-search is not running");
        r.begin_research();
        assert_eq!(r.bounds(3, 1), Some((-4, -4)));
        assert_eq!(r.bounds(1, 3), Some((5, 9)), "the outer TEST's too");
        r.end_research();
        assert_eq!(r.bounds(3, 1), None, "its re-search has ended");
        // A second nested TEST, which stores nothing: its re-search must
        // not read the first nested TEST's bound, still in the store.
        r.begin_test();
        r.end_test();
        r.begin_research();
        assert_eq!(r.bounds(3, 1), None, "an earlier TEST's bound");
        assert_eq!(r.bounds(1, 3), Some((5, 9)));
        r.end_research();
        r.end_research();
        assert_eq!(r.bounds(1, 3), None);
        // A later TEST, also in a later search, does not see the bounds
        // of earlier ones, which were never cleared.
        r.begin_search();
        r.begin_test();
        r.store(4, 3, 1, 1);
        r.end_test();
        r.begin_research();
        assert_eq!(r.bounds(1, 3), None);
        assert_eq!(r.bounds(3, 1), None);
        assert_eq!(r.bounds(4, 3), Some((1, 1)));
    }

    /// A full bucket loses bounds but never answers with another
    /// position's: key and depth must match.
    #[test]
    fn a_full_store_forgets_but_never_confuses() {
        let mut r = Recall::with_entries(WAYS);
        r.begin_search();
        r.begin_test();
        for k in 0..2 * WAYS as u64 {
            r.store(k, 2, k as i32, k as i32);
        }
        r.end_test();
        r.begin_research();
        for k in 0..WAYS as u64 {
            assert_eq!(r.bounds(k, 2), None, "overwritten by a newer one");
        }
        for k in WAYS as u64..2 * WAYS as u64 {
            assert_eq!(r.bounds(k, 2), Some((k as i32, k as i32)));
            assert_eq!(r.bounds(k, 1), None);
        }
        // Dead entries are replaced before the outer TEST's live ones.
        r.begin_test();
        r.store(100, 1, 7, 7);
        r.end_test();
        r.begin_test();
        r.store(101, 1, 8, 8);
        r.end_test();
        r.begin_research();
        assert_eq!(r.bounds(101, 1), Some((8, 8)));
        let outer = (WAYS as u64..2 * WAYS as u64).filter(|&k| r.bounds(k, 2).is_some());
        assert_eq!(r.bounds(100, 1), None);
        // The first nested store took the oldest outer entry; the second
        // took the first's, dead once its TEST ended without a re-search.
        assert_eq!(outer.count(), WAYS - 1);
    }

    /// The module docs give the store's size.
    #[test]
    fn entries_take_32_bytes() {
        assert_eq!(std::mem::size_of::<Mark>(), 32);
        assert_eq!(ENTRIES * 32, 2 << 20);
    }
}
