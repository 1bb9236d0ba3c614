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

/// Entries of a [`Log1mexpMemo`]: 64 KiB. With 2¹⁶ entries (512 KiB) a
/// third of PP²'s `update` time was the miss on the memo's slot, on a
/// shared, loaded machine; 2¹³ entries find nearly as many arguments (PP²
/// on Domineering 5×6 runs 0.2% more instructions) and stay cached (its
/// CPU time 5% lower, 6×6 7%).
const MEMO_BITS: u32 = 13;

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

    const RANKED: bool = true;

    /// `better` compares the `f32` keys `ln(1 − p)`, which are at most 0
    /// (or NaN, unranked): their bits, the sign flipped into order, with
    /// `−0` made `+0` first (equal keys, equal ranks).
    #[inline]
    fn rank(&self, v: &[f32; 2]) -> Option<u32> {
        let x = v[1] + 0.0;
        let bits = x.to_bits();
        let rank = if bits >> 31 == 1 {
            !bits
        } else {
            bits | 0x8000_0000
        };
        (!x.is_nan()).then_some(rank)
    }

    const INCREMENTAL: bool = true;

    /// The sum is kept in `f64`, so taking away the selected child's term
    /// (usually the largest) leaves the others' sum to `f64` rounding.
    #[inline]
    fn remove(&self, acc: f64, [ln_p, _]: [f32; 2]) -> f64 {
        acc - ln_p as f64
    }

    const LAZY: bool = true;

    #[inline]
    fn key(&self, v: &[f32; 2]) -> f64 {
        v[1] as f64
    }

    /// `finish` rounds the sum to `f32` before its logarithm: the key is
    /// that rounding.
    #[inline]
    fn parent_key(&self, rest: f64, &[ln_p, _]: &[f32; 2]) -> f64 {
        (rest + ln_p as f64) as f32 as f64
    }

    /// The parent's key is `y = rest + ln p(c)` rounded to `f32`, and
    /// `ln p(c) = L(x)` for the child's key `x = ln(1 − p(c))`, with
    /// `L(x) = ln(1 − eˣ)` ([`log1mexp`]): decreasing, and its own inverse.
    /// So `y ∈ [lo, hi]` when `x ∈ [L(hi − rest), L(lo − rest)]`. The
    /// search computes `L` in `f32` (a few units in the last place) and
    /// rounds `y` to `f32`; the window is narrowed by 2⁻¹⁶ of the
    /// magnitudes involved (hundreds of such errors, and far more than the
    /// `f64` error of this computation), so that every key in it gives a
    /// `y` strictly inside `[lo, hi]`.
    fn window(&self, rest: f64, lo: f64, hi: f64) -> (f64, f64) {
        let margin = |y: f64| (y.abs() + (y - rest).abs()) * (1.0 / 65536.0) + 1e-30;
        // L(x) ≤ hi − margin − rest: no bound when that is not negative.
        let top = hi - margin(hi) - rest;
        let x_lo = if top >= 0.0 || top.is_nan() {
            f64::NEG_INFINITY
        } else {
            log1mexp(top)
        };
        // L(x) ≥ lo + margin − rest: never when that is not negative.
        if lo == f64::NEG_INFINITY {
            return (x_lo, f64::INFINITY);
        }
        let bottom = lo + margin(lo) - rest;
        if bottom.is_nan() || bottom >= 0.0 {
            return (f64::INFINITY, f64::NEG_INFINITY);
        }
        (x_lo, log1mexp(bottom))
    }
}

/// Solves `game` by PP on a tree (node count: expansions).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PpRule, game, limits, false, false).report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::playout::Rng;

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

    /// Every key in a window gives a parent key inside the target, as the
    /// search computes it (`log1mexp` in `f32`, the sum rounded to `f32`),
    /// down to the window's last `f32` values; and windows are not empty
    /// where the target leaves room.
    #[test]
    fn windows_keep_the_parent_key_inside_its_target() {
        let (r, memo) = (PpRule, Log1mexpMemo::new());
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut checked, mut nonempty) = (0, 0);
        for _ in 0..20_000 {
            // Logarithms of probabilities over many orders of magnitude.
            let mut ln = |scale: f64| -(unit() * scale).exp2() * unit();
            let (r0, a0, b0) = (ln(12.0), ln(8.0), ln(8.0));
            let rest = if unit() < 0.1 { 0.0 } else { r0 };
            let (a, b) = (rest + a0, rest + b0);
            let (lo, hi) = match unit() {
                u if u < 0.2 => (f64::NEG_INFINITY, a.max(b)),
                u if u < 0.4 => (a.min(b), f64::INFINITY),
                _ => (a.min(b), a.max(b)),
            };
            let (x_lo, x_hi) = r.window(rest, lo, hi);
            if x_lo > x_hi {
                continue;
            }
            nonempty += 1;
            // The window's extreme f32 keys, and some inside.
            let first = (x_lo as f32).max(-f32::MAX);
            let first = if (first as f64) < x_lo {
                first.next_up()
            } else {
                first
            };
            let last = (x_hi.min(-1e-38) as f32).min(-f32::MIN_POSITIVE);
            let last = if (last as f64) > x_hi {
                last.next_down()
            } else {
                last
            };
            for x in [first, last, first * 0.5 + last * 0.5] {
                if !(x as f64 >= x_lo && x as f64 <= x_hi) {
                    continue;
                }
                let child = [memo.log1mexp_f32(x), x];
                let y = r.parent_key(rest, &child);
                assert_eq!(y, r.key(&r.finish(r.add(rest, child), &memo)));
                // An infinite end is no bound (a key may reach −∞).
                let above = lo == f64::NEG_INFINITY || lo < y;
                let below = hi == f64::INFINITY || y < hi;
                assert!(
                    above && below,
                    "rest {rest} window {x_lo}..{x_hi} x {x} y {y} target {lo}..{hi}"
                );
                checked += 1;
            }
        }
        assert!(nonempty > 5_000 && checked > 10_000, "{nonempty} {checked}");
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
