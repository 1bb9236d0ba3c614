//! Solving in two rounds: a short one, then, when it leaves the question
//! open, a long one.
//!
//! The plan (`plan`) and the ko codes (`ko_codes`) split the limits into
//! shares, so the budget of every search in them grows with the node
//! limit, and what a search finds depends on its budget and on what the
//! table holds from the searches before it. A larger node limit therefore
//! does not keep the answers of a smaller one: on the regression suite
//! (`../shared/regression`), tactics test 1 (`defend C2`) is proven at
//! 3M nodes (2.38M used, by the last df-pn, from the table left by the
//! searches before it) and stays open at 10M, where the shares before it
//! are larger. Yet 10M answers 4 more of GNU Go's `reading.tst` than 3M
//! (tests 13, 43, 123 and 164, at 4.8M to 7.7M nodes), and loses none.
//!
//! So the ko-code solve runs first with [`FIRST_ROUND_SHARE`] of the node
//! limit, and only when that leaves the answer open (no code, or a code
//! that is only a lower bound) because the node limit stopped it, a
//! second round runs the whole solve again from an empty table with the
//! nodes left (the time limit is shared: the second round gets what the
//! first left). The first round answers as a solve with its limit would;
//! the second, as a solve with the nodes left would from an empty table.
//! The cost is the first round's nodes, spent again on the questions that
//! need the second.
//!
//! The table is emptied between the rounds (its entries are sound either
//! way) so that the second round is the same search as a solve with its
//! limit alone. Measured on the 52 questions of `reading.tst` that 3M
//! leaves open: with the first round's table kept, a 10M second round
//! answered 3 of the first 45 (tests 43, 123, 164), the empty table all 4
//! (13 too).
//!
//! The rounds are an anytime restart in the manner of iterative deepening:
//! the cheap search first, the expensive one only where it is needed.

use super::{KoResult, Limit, Limits, Solver};
use std::time::Instant;

/// The first round's share of the node limit, as a fraction: 3M of the
/// default 13M (so the first round is the single solve of the default
/// limit before the rounds, 3M), the second 10M.
pub const FIRST_ROUND_SHARE: (u64, u64) = (3, 13);

/// The least node limit solved in rounds; below it, one solve. The
/// second round starts by clearing the table (64 MB by default, some
/// milliseconds, the time of thousands of nodes), which small solves,
/// such as the player's or a fuzzer's hundreds of nodes, would pay again
/// and again; and the rounds' gain was measured on limits of millions.
pub const MIN_ROUNDS_NODES: u64 = 1_000_000;

/// What a round answers, as far as the rounds need to know.
pub trait RoundAnswer {
    /// The ko-code result inside the answer.
    fn ko(&self) -> &KoResult;
    /// The same, to add the first round's nodes and time to.
    fn ko_mut(&mut self) -> &mut KoResult;
    /// Whether the answer is settled: a second round could not improve it.
    fn settled(&self) -> bool {
        let r = self.ko();
        // A bound names the limit that stopped a better code.
        let stop = if r.code.is_some() {
            r.bound
        } else {
            r.stopped_by
        };
        stop != Some(Limit::Nodes)
    }
    /// Whether the answer says anything (a code, exact or a bound).
    fn known(&self) -> bool {
        self.ko().code.is_some()
    }
}

impl RoundAnswer for KoResult {
    fn ko(&self) -> &KoResult {
        self
    }
    fn ko_mut(&mut self) -> &mut KoResult {
        self
    }
}

impl Solver {
    /// Runs `solve` (which answers one question under the limits it is
    /// given) in the two rounds of the module documentation, or once
    /// when `on` is false ([`super::Options::rounds`]). The answer's nodes
    /// and time are those of both rounds.
    pub fn in_rounds<R: RoundAnswer>(
        &mut self,
        limits: Limits,
        on: bool,
        mut solve: impl FnMut(&mut Solver, Limits) -> R,
    ) -> R {
        let start = Instant::now();
        let (num, den) = FIRST_ROUND_SHARE;
        // In u128: no product of a u64 limit by 3 overflows there.
        let first_nodes = (u128::from(limits.nodes) * u128::from(num) / u128::from(den)) as u64;
        if !on || limits.nodes < MIN_ROUNDS_NODES || first_nodes == 0 {
            return solve(self, limits);
        }
        let first = solve(
            self,
            Limits {
                nodes: first_nodes,
                time: limits.time,
            },
        );
        if first.settled() {
            return first;
        }
        let used = first.ko().nodes;
        let rest = Limits {
            nodes: limits.nodes.saturating_sub(used),
            time: limits.time.map(|t| t.saturating_sub(start.elapsed())),
        };
        self.forget();
        let second = solve(self, rest);
        let nodes = used + second.ko().nodes;
        // A bound of the first round is a proof too, kept unless the
        // second proves more: an exact code (never below a proven bound),
        // or a better bound (a lower code number is better for the mover,
        // 2 over 3). An equal bound keeps the first round's answer.
        let keep_first = first.known()
            && (!second.known()
                || (second.ko().bound.is_some() && first.ko().code <= second.ko().code));
        let mut out = if keep_first { first } else { second };
        let r = out.ko_mut();
        r.nodes = nodes;
        r.elapsed = start.elapsed();
        out
    }
}

impl RoundAnswer for super::ModelResult {
    fn ko(&self) -> &KoResult {
        &self.result
    }
    fn ko_mut(&mut self) -> &mut KoResult {
        &mut self.result
    }
    /// One model's answer is who wins there, with or without a ko code.
    fn settled(&self) -> bool {
        self.mover_wins.is_some() || self.result.stopped_by != Some(Limit::Nodes)
    }
    fn known(&self) -> bool {
        self.mover_wins.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrayvec::ArrayVec;
    use std::time::Duration;

    fn answer(code: Option<u8>, bound: Option<Limit>, stop: Option<Limit>, nodes: u64) -> KoResult {
        KoResult {
            code,
            bound,
            best: None,
            nodes,
            elapsed: Duration::ZERO,
            pv: ArrayVec::new(),
            stopped_by: stop,
            order: 0,
        }
    }

    const LIMITS: Limits = Limits {
        nodes: 1_000_000,
        time: None,
    };

    /// Runs the rounds over canned answers; returns the answer and the
    /// node limits each round was given.
    fn run(answers: [KoResult; 2]) -> (KoResult, Vec<u64>) {
        let mut s = Solver::new(1);
        let mut asked = Vec::new();
        let r = s.in_rounds(LIMITS, true, |_, l| {
            asked.push(l.nodes);
            answers[asked.len() - 1].clone()
        });
        (r, asked)
    }

    const FIRST: u64 = 1_000_000 * FIRST_ROUND_SHARE.0 / FIRST_ROUND_SHARE.1;

    #[test]
    fn a_settled_first_round_is_the_answer() {
        let exact = answer(Some(1), None, None, 5);
        let (r, asked) = run([exact.clone(), exact]);
        assert_eq!((r.code, r.nodes), (Some(1), 5));
        assert_eq!(asked, [FIRST]);
        // Stopped by the clock or an interrupt: no round would do better.
        for stop in [Limit::Time, Limit::Interrupted, Limit::Orders] {
            let open = answer(None, None, Some(stop), FIRST);
            let (r, asked) = run([open.clone(), open]);
            assert_eq!((r.code, r.stopped_by, asked.len()), (None, Some(stop), 1));
        }
    }

    #[test]
    fn the_second_round_gets_the_nodes_left() {
        let open = answer(None, None, Some(Limit::Nodes), FIRST);
        let (r, asked) = run([open, answer(Some(0), None, None, 70)]);
        assert_eq!(asked, [FIRST, 1_000_000 - FIRST]);
        assert_eq!((r.code, r.nodes, r.stopped_by), (Some(0), FIRST + 70, None));
        let open = answer(None, None, Some(Limit::Nodes), FIRST);
        let (r, _) = run([open.clone(), open]);
        assert_eq!((r.code, r.nodes), (None, 2 * FIRST));
    }

    #[test]
    fn a_bound_is_kept_unless_the_second_round_proves_more() {
        // As `ko_codes` answers a bound: the limit in `bound`, no stop.
        let b3 = answer(Some(3), Some(Limit::Nodes), None, FIRST);
        let b2 = answer(Some(2), Some(Limit::Nodes), None, 9);
        let open = answer(None, None, Some(Limit::Nodes), 9);
        // Nothing better: the first round's bound.
        let (r, asked) = run([b3.clone(), open]);
        assert_eq!(
            (r.code, r.bound, r.nodes, asked.len()),
            (Some(3), Some(Limit::Nodes), FIRST + 9, 2)
        );
        // A better bound, then an exact code.
        assert_eq!(run([b3.clone(), b2.clone()]).0.code, Some(2));
        assert_eq!(run([b2.clone(), b3.clone()]).0.code, Some(2));
        let mut other = b3.clone();
        other.order = 7;
        let (r, _) = run([b3.clone(), other]);
        assert_eq!(r.order, 0, "the first of equal bounds");
        let exact = answer(Some(3), None, None, 9);
        let (r, _) = run([b3, exact]);
        assert_eq!((r.code, r.bound), (Some(3), None));
        // A bound the clock stopped is the answer.
        let timed = answer(Some(3), Some(Limit::Time), None, 9);
        assert_eq!(run([timed.clone(), timed]).1.len(), 1);
    }

    #[test]
    fn no_rounds_below_the_least_limit() {
        let mut s = Solver::new(1);
        for nodes in [1, MIN_ROUNDS_NODES - 1] {
            let mut asked = Vec::new();
            let small = Limits { nodes, time: None };
            s.in_rounds(small, true, |_, l| {
                asked.push(l.nodes);
                answer(None, None, Some(Limit::Nodes), 1)
            });
            assert_eq!(asked, [nodes]);
        }
        // Turned off: one solve with the whole limit.
        let mut asked = Vec::new();
        s.in_rounds(LIMITS, false, |_, l| {
            asked.push(l.nodes);
            answer(None, None, Some(Limit::Nodes), 1)
        });
        assert_eq!(asked, [LIMITS.nodes]);
    }
}
