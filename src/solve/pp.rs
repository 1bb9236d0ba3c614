//! Product Propagation (seed 001: Saffidine & Cazenave, "Developments on
//! Product Propagation", CG 2013, §3; after Stern, Herbrich & Graepel,
//! ICML 2007) in the generic best-first framework of
//! [`bestfirst`](super::bestfirst), on a tree.
//!
//! Each node carries a probability propagation number: the likelihood
//! that the player to move there wins. In negamax form the paper's two
//! product rules (Table 1) are one: the mover loses exactly when every
//! child is a win for the opponent, so `1 − p(n) = Π p(c)`. `select-child`
//! (Table 2) descends into the child most likely lost for its mover. The
//! mobility initialisation (§3.2) gives a leaf whose mover has c moves
//! `p = 1 − 1/2^c` (the paper's `1 − 1/2^c` at Max, `1/2^c` at Min).
//!
//! Products of many probabilities leave the range of floating point
//! numbers in both directions (`1/2^30` per leaf, thirty leaves), and
//! `1 − p` rounds to zero near 1. So a node stores both `ln p` and
//! `ln(1 − p)` as `f32`: the product rule is a sum of logarithms,
//! `ln(1 − p(n)) = Σ ln p(c)`, and `ln p(n) = ln(1 − e^{ln(1 − p(n))})`
//! (one `log1mexp` per update). Selection compares `ln(1 − p(c))`, which
//! is exact where `p(c)` is near 0 or near 1. Proofs never depend on these
//! numbers: solved status lives in the node flags.

use super::bestfirst::{solve_with, Rule};
use super::{Limits, Report};
use crate::games::Game;
use std::f64::consts::LN_2;

/// `ln(1 − e^x)` for `x ≤ 0`, accurate at both ends (Mächler, 2012).
#[inline]
pub fn log1mexp(x: f64) -> f64 {
    if x > -LN_2 {
        (-x.exp_m1()).ln()
    } else {
        (-x.exp()).ln_1p()
    }
}

/// [`log1mexp`] in `f32`.
#[inline]
pub fn log1mexp_f32(x: f32) -> f32 {
    if x > -std::f32::consts::LN_2 {
        (-x.exp_m1()).ln()
    } else {
        (-x.exp()).ln_1p()
    }
}

/// Product propagation numbers as `[ln p, ln(1 − p)]` for the mover.
#[derive(Clone, Copy, Debug, Default)]
pub struct PpRule;

impl Rule for PpRule {
    type V = [f32; 2];
    /// Σ ln p(c): the new `ln(1 − p)`.
    type Acc = f64;

    #[inline]
    fn leaf(&self, mobility: usize) -> [f32; 2] {
        let c = mobility as f64;
        [(-(-c * LN_2).exp()).ln_1p() as f32, (-c * LN_2) as f32]
    }

    fn won(&self) -> [f32; 2] {
        [0.0, f32::NEG_INFINITY]
    }

    fn lost(&self) -> [f32; 2] {
        [f32::NEG_INFINITY, 0.0]
    }

    #[inline]
    fn start(&self) -> f64 {
        0.0
    }

    #[inline]
    fn add(&self, acc: f64, [ln_p, _]: [f32; 2]) -> f64 {
        acc + ln_p as f64
    }

    /// The stored values are `f32`, so the logarithm is taken in `f32`:
    /// the same precision, at a third of the cost of the `f64` one.
    #[inline]
    fn finish(&self, ln_q: f64) -> [f32; 2] {
        let q = ln_q as f32;
        [log1mexp_f32(q), q]
    }

    #[inline]
    fn better(&self, a: &[f32; 2], b: &[f32; 2]) -> bool {
        a[1] > b[1]
    }
}

/// Solves `game` by PP on a tree (node count: expansions).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PpRule, game, limits, false, false).report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobility_initialisation_and_product_rule() {
        let r = PpRule;
        let [a, b] = r.leaf(1);
        assert!((a.exp() - 0.5).abs() < 1e-6 && (b.exp() - 0.5).abs() < 1e-6);
        let [a, b] = r.leaf(3);
        assert!((a.exp() - 0.875).abs() < 1e-6 && (b.exp() - 0.125).abs() < 1e-6);
        // Two children each won by their mover with p = 0.875: the mover
        // here loses with probability 0.875².
        let acc = r.add(r.add(r.start(), r.leaf(3)), r.leaf(3));
        let [a, b] = r.finish(acc);
        assert!((b.exp() - 0.765625).abs() < 1e-6);
        assert!((a.exp() - 0.234375).abs() < 1e-6);
        // Far beyond f32's range of probabilities the logarithms stay
        // finite and ordered.
        let many = (0..40).fold(r.start(), |acc, _| r.add(acc, r.leaf(2)));
        let deep = r.finish(many);
        assert!(deep[0].is_finite() && deep[1].is_finite() && deep[1] < -10.0);
        assert!(r.better(&r.leaf(1), &r.leaf(2)));
    }
}
