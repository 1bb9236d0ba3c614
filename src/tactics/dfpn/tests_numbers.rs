//! Tests of the aggregation and scans of `numbers` against plain
//! reference versions, on random frames. A child module of `numbers` (by
//! `#[path]`), so that it may reach the scalar scan.

use super::*;
use crate::go::playout::Rng;

/// The aggregation as it was written first, with a branch per
/// comparison: [`aggregate`] must agree with it on every field.
fn reference(children: &[Child], weak: bool, group: Members) -> Agg {
    let mut a = Agg {
        phi: INF,
        delta: 0,
        best: 0,
        delta2: INF,
        rest: 0,
    };
    // The sum of the finite φ, and whether some φ is ∞ (kept apart so
    // that finite values adding up to exactly ∞ are not taken for it).
    let mut sum: u64 = 0;
    let mut inf = false;
    let mut max: u32 = 0;
    let mut open: u64 = 0;
    let mut best_rank = u16::MAX;
    for (i, c) in children.iter().enumerate() {
        let is_inf = c.phi == INF;
        inf |= is_inf;
        sum += if is_inf { 0 } else { c.phi as u64 };
        open += (c.phi != 0) as u64;
        max = max.max(c.phi);
        // The least δ, and the second least.
        let d = c.delta();
        if d < a.phi || (d == a.phi && c.order() < best_rank) {
            a.delta2 = a.phi;
            a.phi = d;
            a.best = i;
            best_rank = c.order();
        } else {
            a.delta2 = a.delta2.min(d);
        }
    }
    if group.count > 0 {
        debug_assert!(group.phi > 0 && group.phi < INF && group.delta > 0 && group.delta < INF);
        let d = group.delta;
        if d < a.phi || (d == a.phi && group.rank < best_rank) {
            a.delta2 = if group.count > 1 { d } else { a.phi };
            a.phi = d;
            a.best = GROUP;
        } else {
            a.delta2 = a.delta2.min(d);
        }
        sum += group.phi as u64 * group.count as u64;
        open += group.count as u64;
        max = max.max(group.phi);
    }
    let max = max as u64;
    if inf {
        a.delta = INF;
    } else if weak {
        a.delta = if open == 0 {
            0
        } else {
            (max + open - 1).min(CAP as u64) as u32
        };
        a.rest = (open.saturating_sub(1)).min(CAP as u64) as u32;
    } else {
        a.delta = sum.min(CAP as u64) as u32;
        a.rest = u32::MAX;
    }
    a
}

/// A proof number, with the values that matter drawn often: 0, ∞, CAP
/// and its neighbour, small ties.
fn draw_value(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0 => 0,
        1 => INF,
        2 => CAP,
        3 => CAP - 1,
        _ => 1 + rng.below(6) as u32,
    }
}

/// The two-lane [`scan`] agrees with the scalar one on frames of every
/// length up to a hundred (odd and even), with equal keys and the
/// start key among them.
#[test]
fn scan_agrees_with_scalar() {
    let mut rng = Rng::new(0x5CA7);
    for round in 0..20_000 {
        let n = round % 101;
        let children: Vec<Child> = (0..n)
            .map(|_| {
                let order = match rng.below(4) {
                    0 => u16::MAX,
                    _ => rng.below(8) as u16,
                };
                let phi = draw_value(&mut rng);
                let delta = draw_value(&mut rng);
                Child::new(0, phi, delta, order)
            })
            .collect();
        assert_eq!(scan(&children), scan_scalar(&children), "{children:?}");
        // Joining the scans of blocks gives the scan of the whole,
        // whatever the blocks' lengths (the empty scan included).
        let mut joined = Scan::EMPTY;
        let mut start = 0;
        while start <= n {
            let end = (start + rng.below(5)).min(n);
            joined = joined.then(scan(&children[start..end]), start);
            if end == n {
                break;
            }
            start = end;
        }
        assert_eq!(joined, scan(&children), "{children:?}");
        // Extending the scan of a prefix gives the scan of the whole.
        let cut = round % (n + 1);
        let grown = scan(&children[..cut]).extend(cut, &children[cut..]);
        assert_eq!(grown, scan(&children), "{children:?} from {cut}");
    }
}

/// Random frames, with the values that matter drawn often: 0, ∞, CAP,
/// ties in δ and in `order` (the pass's rank too), a group or none.
#[test]
fn aggregate_agrees_with_the_reference() {
    let mut rng = Rng::new(0xA66);
    for _ in 0..200_000 {
        let n = rng.below(12);
        let mut children = Vec::new();
        for _ in 0..n {
            let order = match rng.below(4) {
                0 => u16::MAX,
                _ => rng.below(8) as u16,
            };
            let phi = draw_value(&mut rng);
            let delta = draw_value(&mut rng);
            children.push(Child::new(0, phi, delta, order));
        }
        let group = if rng.below(2) == 0 {
            Members::default()
        } else {
            Members {
                count: 1 + rng.below(3) as u32,
                phi: 1 + rng.below(5) as u32,
                delta: [1 + rng.below(5) as u32, CAP - 1][rng.below(2)],
                rank: rng.below(9) as u16,
            }
        };
        for weak in [false, true] {
            let a = aggregate(&children, weak, group);
            let b = reference(&children, weak, group);
            let got = (a.phi, a.delta, a.best, a.delta2, a.rest);
            let want = (b.phi, b.delta, b.best, b.delta2, b.rest);
            assert_eq!(got, want, "{children:?} {group:?} weak {weak}");
        }
    }
}
