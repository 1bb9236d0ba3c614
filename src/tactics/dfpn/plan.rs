//! The plan of a solve: which df-pn searches run one after another, and
//! what share of the node and time limits each gets.
//!
//! Plain df-pn (Nagai 2002, seed 000), λ-df-pn (Yoshizoe, Kishimoto &
//! Müller 2007) and dual λ-search (Soeda, Kaneko & Tanaka 2005), both
//! summarised in seed 002, are the same df-pn loop with different move
//! lists; a [`Shape`] says which. A search that uses its share up without
//! an answer hands over to the next (see `Solver::solve`). The shares were
//! measured on the regression suite (`../shared/regression`), whose numbers
//! the README gives.

use super::{Forced, Options};
use crate::tactics::rules::Winner;
use arrayvec::ArrayVec;

/// The search behind a solve.
///
/// * `Dfpn`: df-pn over every legal move (full width).
/// * `LambdaDfpn`: λ-df-pn (Yoshizoe, Kishimoto & Müller 2007; seed 002):
///   df-pn in which one player, the *prover*, plays only its threats of
///   order n, and the other answers only inside the zone of the threat
///   (`threats`). Orders n = 1, 2, … up to the maximum are tried in turn,
///   first with the player to move as prover, then with the other, until
///   one search proves its prover's win.
/// * `DualLambda`: dual λ-search (Soeda, Kaneko & Tanaka 2005; seed 002)
///   in df-pn form: both players' goals are followed at once. A player
///   whose opponent threatens (wins by a lower order after a null move)
///   must answer inside that threat's zone; otherwise it plays its own
///   threats of order n.
/// * `ZoneDfpn`: df-pn that keeps only the exact half of dual-λ. At every
///   node the opponent's threat after a null move (order below the
///   highest) is looked for; when there is one, the node's moves are cut
///   to its zone (the moves left out are proven losses); when there is
///   none, the node is a plain df-pn node with every move. No result
///   rests on a restriction of the loser's own moves, so nothing is ever
///   flagged `REL` and every result it finds is reported. Meant for
///   races and safety proofs, where a defender's win needs every attacker
///   move refuted: the far attacker moves fall outside the zone of the
///   defender's threat. Not part of `Auto`: on the regression suite its
///   threat searches cost more than the cut saves (see the README). They
///   take nearly all its nodes: on capture test 18 at 3M nodes, 2,995,715
///   are threat-search nodes and df-pn expands 4,136 positions; with a
///   threat budget of 50 to 1,000 nodes (instead of
///   [`THREAT_BUDGET`](super::THREAT_BUDGET)), highest order 2 to 4, or
///   30M nodes, it still solves none of the 12 problems `Auto` leaves
///   open (tacv10, session 10).
/// * `FixpointDfpn`: df-pn with the zone fixed point at attacker nodes
///   (see `fixpoint`): an attacker node lists the pass, the target's
///   liberties and the captures, then the moves of the zone the
///   defender's proofs read, until it closes; the moves outside are
///   proven losses. df-pn+ numbers only (a neutral search tries every
///   defender move in turn, each attacker node looking cheap), and no
///   forced-reply rule (its cut nodes keep no zone). On the regression
///   suite it solves none of the problems `Auto` leaves open at 3M nodes
///   (tacz11, session 11), but it proves some blocks safe that the other
///   searches cannot, such as one in seki (see `Auto`).
/// * `Auto` (what GNU Go's commands use): λ-df-pn at order 1 (ladders)
///   with 3% of the limits per prover, then df-pn with 25%, then a
///   neutral df-pn (no df-pn+ heuristic) with the forced-reply rule with
///   35%, then λ-df-pn through the higher orders with 3% per order and
///   prover (its nodes are cheap: most are threat-search nodes), then
///   dual-λ through the orders with 3% each, then the zone fixed point
///   (`FixpointDfpn`) with 5%, then df-pn again with what is left
///   (continuing from the first one's table entries).
///
///   The fixed point comes late, so that it decides only what the others
///   leave open. On the proxy questions (`tests/tools/proxy.py`, 2,530
///   questions, 300K nodes) it answers 3 more, among them a seki on the
///   edge (Handtalk980826-1, `defend O19`: every attacker move inside is
///   a self-atari, and df-pn alone must refute each move on the board in
///   turn; the fixed point proves it in 1,461 nodes); one answer found by
///   the last df-pn just under the limit becomes unknown. Placed after
///   the first df-pn instead, it answered 2 more and 1 fewer, and
///   changed 7 moves.
///
///   Order 1 comes first because its proofs are small and usually meet no
///   ko ban, and a ko-free proof under the first ko model decides the
///   answer at once (`Solver::solve_with_ko`), where a df-pn proof that
///   passed a ko ban leaves two more models to solve. A ladder capture
///   of a defender block next to a ko (`tests::ladder_is_read_before_the_ko`)
///   is proven by order 1 in 190 nodes; df-pn first proves it under the
///   first model with a ko ban in its tree, and the model where the
///   defender may retake kos then stays open at 3M nodes. When there is no
///   ladder, order 1 stops by itself in a few nodes or uses up its 3% at
///   most. Session 22's proxy suite (1,872 `attack`/`defend` questions on
///   every block with 1-3 liberties of the real-game SGFs under
///   `../shared/regression`, 300K nodes each): 179 unknown either way, in
///   66.4M nodes instead of 69.7M; the 31 regression problems at 3M: 18
///   pass either way (44.43M nodes instead of 44.42M). Reordering only
///   changes which sound search answers first: every result still comes
///   from one of the searches above, each with its own table entries.
///
///   Across ko models (`Solver::solve_with_ko`), a loss under the first
///   model whose proof met a ko ban is followed by λ-df-pn alone, with
///   10% of what is left, looking for a ko-free proof of the same loss
///   (`Solver::ko_free_loss`).
///
/// A result is reported only when it holds in the real game: a win that
/// rests on a node where the loser played only its own threats is a fact
/// of the restricted game (flag `REL`) and is never reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algo {
    #[default]
    Dfpn,
    LambdaDfpn,
    DualLambda,
    ZoneDfpn,
    FixpointDfpn,
    Auto,
}

impl Algo {
    /// Every algorithm, for tests and comparisons that run them all.
    pub const ALL: [Algo; 6] = [
        Algo::Dfpn,
        Algo::LambdaDfpn,
        Algo::DualLambda,
        Algo::ZoneDfpn,
        Algo::FixpointDfpn,
        Algo::Auto,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algo::Dfpn => "dfpn",
            Algo::LambdaDfpn => "lambda-dfpn",
            Algo::DualLambda => "dual-lambda",
            Algo::ZoneDfpn => "zone-dfpn",
            Algo::FixpointDfpn => "fixpoint-dfpn",
            Algo::Auto => "auto",
        }
    }

    pub fn parse(s: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.name() == s)
    }
}

/// One search of a solve's plan: whose threats shape the move lists, the
/// threat order, and whether a followed player plays only its own threats
/// (see [`Search::own`](super::search::Search)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) sides: [bool; 2],
    pub(super) order: u8,
    pub(super) own: bool,
    /// The forced-reply rule (see `forced`).
    pub(super) forced: bool,
    /// Every child starts at φ = δ = 1, without the df-pn+ heuristic.
    pub(super) neutral: bool,
    /// The zone fixed point at attacker nodes (see `fixpoint`).
    pub(super) fixpoint: bool,
}

impl Shape {
    /// Bits that keep each shape's table entries apart (mixed into the
    /// key salt). A neutral search keeps its own entries, as the parts of
    /// `Forced::Split` do: the heuristic's numbers would steer it.
    pub(super) fn salt(self) -> u64 {
        (self.sides[0] as u64)
            | (self.sides[1] as u64) << 1
            | (self.order as u64) << 2
            | (!self.own as u64) << 10
            | (self.forced as u64) << 11
            | (self.neutral as u64) << 12
            | (self.fixpoint as u64) << 13
    }
}

/// The most searches a plan holds: `Auto` at the highest order, 15, has
/// 2 ladder searches, 2 df-pn, 2 × 14 higher λ orders, 15 dual-λ orders,
/// the fixed point and the last df-pn: 49.
pub(super) const MAX_SEARCHES: usize = 49;

/// The searches of a solve in order, each with its share of the limits
/// in thousandths. `opts.max_order` is already resolved (not 0); `mover`
/// is the role of the player to move at the root.
pub(super) fn build(opts: &Options, mover: Winner) -> ArrayVec<(Shape, u64), MAX_SEARCHES> {
    let only = |w: Winner| match w {
        Winner::Attacker => [true, false],
        Winner::Defender => [false, true],
    };
    let other = match mover {
        Winner::Attacker => Winner::Defender,
        Winner::Defender => Winner::Attacker,
    };
    // Each search of the plan: its shape, and its share of the limits
    // in thousandths (a search that uses its share up without an
    // answer hands over to the next).
    // At most 15 orders: 2 + 3·15 searches, and one zone df-pn.
    let mut plan: ArrayVec<(Shape, u64), MAX_SEARCHES> = ArrayVec::new();
    let max_order = opts.max_order;
    let orders = 1..=max_order.min(15);
    // The forced-reply rule in the threat searches, unless off; in
    // plain df-pn see [`Forced`].
    let threat_forced = opts.forced != Forced::Off;
    let threats = |sides, order| Shape {
        sides,
        order,
        own: true,
        forced: threat_forced,
        neutral: false,
        fixpoint: false,
    };
    let plain = Shape {
        sides: [false, false],
        order: 0,
        own: true,
        forced: opts.forced == Forced::On,
        neutral: false,
        fixpoint: false,
    };
    // Neutral df-pn (see [`Shape::neutral`]), with the forced-reply
    // rule unless it is off.
    let neutral = Shape {
        forced: opts.forced != Forced::Off,
        neutral: true,
        ..plain
    };
    // Zone df-pn at the highest order: every opponent threat of lower
    // order found limits a node's moves to its zone.
    let zone = Shape {
        sides: [true, true],
        order: max_order,
        own: false,
        forced: threat_forced,
        neutral: false,
        fixpoint: false,
    };
    // df-pn with the zone fixed point at attacker nodes, without the
    // forced-reply rule (its cut nodes keep no zone).
    let fix = Shape {
        forced: false,
        fixpoint: true,
        ..plain
    };
    match opts.algo {
        Algo::Dfpn => {
            if opts.forced == Forced::Split {
                // 35% with the rule, 35% with the rule and neutral
                // numbers, then the rest without either. Each keeps
                // apart in the table: the numbers of one would steer
                // the next into its own order.
                plan.push((
                    Shape {
                        forced: true,
                        ..plain
                    },
                    350,
                ));
            }
            if !opts.heuristic_only {
                plan.push((neutral, 350));
            }
            plan.push((plain, 1000));
        }
        Algo::LambdaDfpn => {
            for n in orders {
                plan.push((threats(only(mover), n), 1000));
                plan.push((threats(only(other), n), 1000));
            }
        }
        Algo::DualLambda => {
            for n in orders {
                plan.push((threats([true, true], n), 1000));
            }
        }
        Algo::ZoneDfpn => plan.push((zone, 1000)),
        Algo::FixpointDfpn => plan.push((fix, 1000)),
        Algo::Auto => {
            // Without the rule unless it is on (`Forced`).
            let threats = |sides, order| Shape {
                forced: opts.forced == Forced::On,
                ..threats(sides, order)
            };
            // Ladders first (see the `Auto` doc): cheap when there is
            // none, and a ko-free proof when there is one.
            plan.push((threats(only(mover), 1), 30));
            plan.push((threats(only(other), 1), 30));
            // Then plain df-pn, before the higher orders: many blocks
            // are read out by it in a few thousand nodes, where a
            // threat search would first spend its share. Its table entries stay for the df-pn at
            // the end (same salt), but a df-pn resumed after the other
            // searches' entries have pushed some of its own out does
            // not find what one longer run finds: a quarter, not the
            // 5% of sessions 10-17, proves tactics test 1's
            // defender-favoured model (772,513 nodes in one run; at 3M
            // in all, 5% then the rest did not). Session 18, 3M nodes,
            // capture.tst + tactics.tst: 18 of 31 pass in 44.4M nodes
            // (5%: 17 in 44.7M; 15%: 17 in 45.8M; 40%: 18 in 45.7M);
            // 617 problems from real games at 1M: 517 agree with GNU
            // Go in 89.7M nodes (5%: 516 in 94.8M).
            plan.push((plain, 250));
            // Then neutral df-pn, which reads in a few hundred thousand
            // nodes blocks that the heuristic takes tens of millions
            // for, and the other way round.
            if !opts.heuristic_only {
                plan.push((neutral, 350));
            }
            for n in orders.clone().skip(1) {
                plan.push((threats(only(mover), n), 30));
                plan.push((threats(only(other), n), 30));
            }
            // Dual-λ answers threats with threats of the answerer's
            // own: it finds defences λ-df-pn's candidates miss (a
            // connection that makes the second eye, say).
            for n in orders {
                plan.push((threats([true, true], n), 30));
            }
            plan.push((fix, 50));
            plan.push((plain, 1000));
        }
    }
    plan
}
