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
use std::cell::Cell;
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

/// Entries of a [`Log1mexpMemo`]: 512 KiB, which stays in the L2 cache.
const MEMO_BITS: u32 = 16;

/// A direct-mapped cache of [`log1mexp_f32`] by the exact bits of its
/// argument. Every update of a node on the path takes one `log1mexp`
/// (two `libm` calls, 40% of PP's and PP²'s time), and the same sums
/// recur: sibling subtrees of equal shape, and PP²'s second-level searches,
/// which re-expand the same positions at every first-level expansion (on
/// Domineering 5×6 and 6×6 a third of PP's calls and over half of PP²'s
/// find their argument here). A hit returns the bits the function returned
/// for that argument, so the values, and the node counts, are those of the
/// plain calls.
pub struct Log1mexpMemo {
    /// `(argument bits) << 32 | (result bits)`; [`Log1mexpMemo::EMPTY`]
    /// where nothing is stored.
    slots: Box<[Cell<u64>]>,
}

impl Log1mexpMemo {
    /// A NaN argument, which a sum of logarithms of probabilities never
    /// is, with a NaN result (what the function returns for a NaN anyway).
    const EMPTY: u64 = 0x7FC0_0001 << 32 | 0x7FC0_0000;

    pub fn new() -> Log1mexpMemo {
        Log1mexpMemo {
            slots: (0..1usize << MEMO_BITS)
                .map(|_| Cell::new(Self::EMPTY))
                .collect(),
        }
    }

    /// [`log1mexp_f32`]`(x)`, from the memo when `x` was its last
    /// argument in `x`'s slot.
    #[inline]
    pub fn log1mexp_f32(&self, x: f32) -> f32 {
        let bits = x.to_bits();
        // A multiplicative hash of the bits: sums differ in every part of
        // the mantissa.
        let i = (bits.wrapping_mul(0x9E37_79B9) >> (32 - MEMO_BITS)) as usize;
        let slot = &self.slots[i];
        let entry = slot.get();
        if (entry >> 32) as u32 == bits {
            return f32::from_bits(entry as u32);
        }
        let y = log1mexp_f32(x);
        slot.set((bits as u64) << 32 | y.to_bits() as u64);
        y
    }
}

impl Default for Log1mexpMemo {
    fn default() -> Self {
        Self::new()
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

    type Memo = Log1mexpMemo;

    fn memo(&self) -> Log1mexpMemo {
        Log1mexpMemo::new()
    }

    /// The stored values are `f32`, so the logarithm is taken in `f32`:
    /// the same precision, at a third of the cost of the `f64` one.
    #[inline]
    fn finish(&self, ln_q: f64, memo: &Log1mexpMemo) -> [f32; 2] {
        let q = ln_q as f32;
        [memo.log1mexp_f32(q), q]
    }

    #[inline]
    fn better(&self, a: &[f32; 2], b: &[f32; 2]) -> bool {
        a[1] > b[1]
    }

    const INCREMENTAL: bool = true;

    /// The sum is kept in `f64`, so taking away the selected child's term
    /// (usually the largest) leaves the others' sum to `f64` rounding.
    #[inline]
    fn remove(&self, acc: f64, [ln_p, _]: [f32; 2]) -> f64 {
        acc - ln_p as f64
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
        let memo = r.memo();
        let [a, b] = r.finish(acc, &memo);
        assert!((b.exp() - 0.765625).abs() < 1e-6);
        assert!((a.exp() - 0.234375).abs() < 1e-6);
        // Far beyond f32's range of probabilities the logarithms stay
        // finite and ordered.
        let many = (0..40).fold(r.start(), |acc, _| r.add(acc, r.leaf(2)));
        let deep = r.finish(many, &memo);
        assert!(deep[0].is_finite() && deep[1].is_finite() && deep[1] < -10.0);
        assert!(r.better(&r.leaf(1), &r.leaf(2)));
    }

    #[test]
    fn the_memo_returns_the_bits_of_the_function() {
        let memo = Log1mexpMemo::new();
        // Arguments on both sides of −ln 2, repeated, and some that share
        // a slot with others.
        let xs: Vec<f32> = (0..200_000u32)
            .map(|i| -((i % 70_000) as f32) * 1.7e-4 - f32::MIN_POSITIVE)
            .chain([0.0, -0.0, f32::NEG_INFINITY, -1e-30, -100.0])
            .collect();
        for _ in 0..2 {
            for &x in &xs {
                let (a, b) = (memo.log1mexp_f32(x), log1mexp_f32(x));
                assert_eq!(a.to_bits(), b.to_bits(), "x = {x:e}");
            }
        }
        assert!(memo.log1mexp_f32(f32::NAN).is_nan());
    }
}
