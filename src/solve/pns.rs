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

use super::bestfirst::{solve_with, Rule};
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
    /// (min δ, Σ φ).
    type Acc = (u32, u32);

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
    fn start(&self) -> (u32, u32) {
        (INF, 0)
    }

    #[inline]
    fn add(&self, (min_delta, sum_phi): (u32, u32), [phi, delta]: [u32; 2]) -> (u32, u32) {
        (
            min_delta.min(delta),
            sum_phi.saturating_add(phi).min(INF - 1),
        )
    }

    type Memo = ();

    fn memo(&self) {}

    #[inline]
    fn finish(&self, (min_delta, sum_phi): (u32, u32), _: &()) -> [u32; 2] {
        [min_delta, sum_phi]
    }

    #[inline]
    fn better(&self, a: &[u32; 2], b: &[u32; 2]) -> bool {
        a[1] < b[1]
    }
}

/// Solves `game` by PNS with transpositions (node count: expansions).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PnRule, game, limits, true, false).report
}
