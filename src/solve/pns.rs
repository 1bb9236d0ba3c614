//! Proof-number search with transpositions ("PNT" in seed 001's tables,
//! after Schijf, Allis & Uiterwijk, "Proof-number search and
//! transpositions", 1994), in the generic best-first framework of
//! [`bestfirst`](super::bestfirst).
//!
//! Values are seed 003's φ/δ (negamax) form of Allis' proof and disproof
//! numbers (seed 000): φ is the proof number of "the mover wins", δ its
//! disproof number; `φ(n) = min δ(c)`, `δ(n) = Σ φ(c)`, and the child to
//! expand has the smallest δ. Leaves start with seed 001's mobility
//! initialisation: a Max leaf with c legal moves gets pn = 1, dn = c, a
//! Min leaf pn = c, dn = 1 — in negamax form both are φ = 1, δ = c.
//! Sums saturate below ∞ so that only solved nodes are infinite.
//!
//! Positions reached by several paths share one node (a DAG): sums count
//! a shared subtree once per parent (seed 000's over-counting, accepted as
//! in the paper's PNT); see [`bestfirst`](super::bestfirst) for how nodes
//! with several parents are updated.
//!
//! The rule is [`Rule::INCREMENTAL`]: a node on the path whose selected
//! child changed is updated from that child and the record of its other
//! children kept at its last full update (see `bestfirst_lazy.rs`), which
//! on Domineering's DAG (every parent of a node at one depth) is exact and
//! spares most updates the cache misses of reading every child. For that
//! the accumulator keeps the sum of φ unsaturated (in `u64`, saturated by
//! `finish`) and the two smallest δ, so that the selected child (the one
//! with the smallest δ) can be taken out again.
//!
//! That record serves few of PNS's updates, though: on Domineering 5×6,
//! 147,000 of 1,422,000 (PNS switches subtrees at almost every expansion,
//! so the node on the path is rarely the last one fully updated at its
//! depth; keeping four or even sixteen more records per depth gave 2,000
//! and, unsoundly never voided, 23,000 more). So most updates read every
//! child, and [`PnRule::fold`] does so in one branch-free pass.

use super::bestfirst::{solve_with, Eval, Rule};
use super::store::{Node, EXPANDED, LOST, WON};
use super::{Limits, Report};
use crate::games::Game;

/// Proof numbers at or above this are infinite (solved).
pub const INF: u32 = u32::MAX;

/// φ/δ proof numbers with the mobility initialisation.
#[derive(Clone, Copy, Debug, Default)]
pub struct PnRule;

impl Rule for PnRule {
    /// (φ, δ) from the mover's view.
    type V = [u32; 2];
    type Acc = PnAcc;

    #[inline]
    fn leaf(&self, mobility: usize) -> [u32; 2] {
        [1, mobility.min(INF as usize - 1) as u32]
    }

    fn won(&self) -> [u32; 2] {
        [0, INF]
    }

    fn lost(&self) -> [u32; 2] {
        [INF, 0]
    }

    #[inline]
    fn start(&self) -> PnAcc {
        PnAcc {
            min: INF,
            min2: INF,
            sum: 0,
        }
    }

    #[inline]
    fn add(&self, acc: PnAcc, [phi, delta]: [u32; 2]) -> PnAcc {
        PnAcc {
            min: acc.min.min(delta),
            min2: acc.min2.min(acc.min.max(delta)),
            sum: acc.sum + phi as u64,
        }
    }

    type Memo = ();

    fn memo(&self) {}

    /// Saturating the sum once at the end is saturating every addition:
    /// the terms are not negative.
    #[inline]
    fn finish(&self, acc: PnAcc, _: &()) -> [u32; 2] {
        [acc.min, acc.sum.min(INF as u64 - 1) as u32]
    }

    #[inline]
    fn better(&self, a: &[u32; 2], b: &[u32; 2]) -> bool {
        a[1] < b[1]
    }

    const INCREMENTAL: bool = true;

    /// `child` is the selected child: its δ is the smallest (solved
    /// children won for their mover have δ = ∞, a lost one ends the
    /// update), so the others' smallest δ is the second smallest. The
    /// result is only ever given one more [`Rule::add`] and then
    /// [`Rule::finish`]ed, which reads neither its `min2` nor that of the
    /// sum; `min2` is left at ∞.
    #[inline]
    fn remove(&self, acc: PnAcc, [phi, delta]: [u32; 2]) -> PnAcc {
        debug_assert_eq!(delta, acc.min, "remove takes out the selected child");
        PnAcc {
            min: acc.min2,
            min2: INF,
            sum: acc.sum - phi as u64,
        }
    }

    /// Seed 000's update, branch-free: the generic fold compares each
    /// child with the best and the runner-up so far and stops at a lost
    /// child, and its unpredictable branches were most of PNS's time (a
    /// full update reads 14 children on Domineering 5×6, and 86% of the
    /// updates are full: a DAG's record by depth rarely belongs to the
    /// node on the path). Here every child is one key (see [`child_key`])
    /// and the node keeps the two smallest; the runner-up and the selected
    /// child are read again by index. The same result, value, flags,
    /// selection, runner-up and accumulator (checked against the generic
    /// fold by `bestfirst_fold.rs`'s tests).
    const OWN_FOLD: bool = true;

    #[inline(always)]
    fn fold<'n>(
        &self,
        len: usize,
        child: impl Fn(usize) -> &'n Node<[u32; 2]>,
        runner: bool,
    ) -> Eval<[u32; 2], PnAcc> {
        let mut sum = 0u64;
        let (mut k1, mut k2) = two_smallest((0..len).map(|i| {
            let node = child(i);
            sum += node.value[0] as u64;
            child_key(i, node)
        }));
        if delta(k1) == 0 {
            (k1, k2) = self.fold_with_zeros(len, &child);
            if k1 < ONE {
                // A lost child: the node is won (its accumulator is never
                // read).
                return (self.won(), EXPANDED | WON, index(k1), None, self.start());
            }
            // No child is lost: back to `child_key` (a missing second
            // child stays `u64::MAX`).
            k1 -= ONE;
            if k2 != u64::MAX {
                k2 -= ONE;
            }
        }
        if delta(k1) == INF {
            // Every child won for its mover (or none at all).
            return (self.lost(), EXPANDED | LOST, 0, None, self.start());
        }
        // No child is lost, so Σ φ is the generic fold's (a won child has
        // φ = 0), and so are the two smallest δ (a won child's δ is ∞, and
        // so is `delta(u64::MAX)` when there is no second child).
        let acc = PnAcc {
            min: delta(k1),
            min2: delta(k2),
            sum,
        };
        let second = (runner && delta(k2) < INF).then(|| {
            let i = index(k2);
            (i as u16, child(i).value)
        });
        let rest = if runner {
            self.remove(acc, child(index(k1)).value)
        } else {
            acc
        };
        (self.finish(acc, &()), EXPANDED, index(k1), second, rest)
    }
}

/// A child's place in [`PnRule::fold`]'s order: `δ << 16 | index` (the
/// index fits 16 bits: [`MAX_MOVES`](crate::games::MAX_MOVES) is 512).
/// A won child's δ is ∞ and an unsolved one's below, so when no child has
/// δ = 0 (a lost child, or an unsolved leaf without moves) the smallest
/// key is the child the node selects: the first unsolved one of smallest
/// δ.
#[inline(always)]
fn child_key(i: usize, node: &Node<[u32; 2]>) -> u64 {
    debug_assert!(match node.flags & (WON | LOST) {
        WON => node.value == [0, INF],
        LOST => node.value == [INF, 0],
        _ => node.value[1] < INF,
    });
    (node.value[1] as u64) << 16 | i as u64
}

/// One δ in a key.
const ONE: u64 = 1 << 16;

/// δ of a key (∞ for `u64::MAX`, no child).
#[inline(always)]
fn delta(key: u64) -> u32 {
    (key >> 16) as u32
}

/// The index of a key's child.
#[inline(always)]
fn index(key: u64) -> usize {
    (key & 0xFFFF) as usize
}

/// The two smallest of `keys`, in one pass of selects, not branches
/// (which child wins a comparison is unpredictable).
#[inline(always)]
fn two_smallest(keys: impl Iterator<Item = u64>) -> (u64, u64) {
    keys.fold((u64::MAX, u64::MAX), |(k1, k2), key| {
        (k1.min(key), k2.min(k1.max(key)))
    })
}

impl PnRule {
    /// The two smallest keys where some child has δ = 0, in the generic
    /// fold's order: lost children first (a lost child's key is its index),
    /// every other key one δ higher ([`ONE`] added), so that an unsolved
    /// child of δ = 0 comes after them. Rare: a node with a lost child is
    /// solved at once.
    #[cold]
    fn fold_with_zeros<'n>(
        &self,
        len: usize,
        child: impl Fn(usize) -> &'n Node<[u32; 2]>,
    ) -> (u64, u64) {
        two_smallest((0..len).map(|i| {
            let node = child(i);
            if node.flags & LOST != 0 {
                i as u64
            } else {
                child_key(i, node) + ONE
            }
        }))
    }
}

/// What an update accumulates over the children: the smallest and second
/// smallest δ (the second smallest counting equal values apart: `min2 ==
/// min` when two children share the smallest) and Σ φ, exact (at most
/// [`MAX_MOVES`](crate::games::MAX_MOVES) terms below 2³²).
#[derive(Clone, Copy, Debug)]
pub struct PnAcc {
    pub min: u32,
    pub min2: u32,
    pub sum: u64,
}

/// Solves `game` by PNS with transpositions (node count: expansions).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PnRule, game, limits, true, false).report
}
