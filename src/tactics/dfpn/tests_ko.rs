//! Ko codes under node limits: [`Solver::solve_with_ko`] tries the ko
//! models one after another, each with what the earlier ones left, and
//! answers only from results it has. Whatever the limit, a code given must
//! be the one the unlimited solve gives: a limit may only turn an answer
//! into `None` (reported as `unknown`), never into another code; with
//! [`Options::ko_bound`] also into code 3 marked as a lower bound, and only
//! where the unlimited code is a win.

use super::tests::{name, pos, pt, KO};
use super::*;

/// Every node limit from 1 to a little past what the unlimited solve used.
fn codes_under_every_limit(b: &Board, v: &str, attacker_moves: bool, algo: Algo, want: (u8, &str)) {
    let bounds = codes_under_limits(b, v, attacker_moves, algo, false, want);
    assert_eq!(bounds, 0);
}

/// As [`codes_under_every_limit`], with or without `ko_bound`: how many
/// limits answered a lower bound.
fn codes_under_limits(
    b: &Board,
    v: &str,
    attacker_moves: bool,
    algo: Algo,
    ko_bound: bool,
    want: (u8, &str),
) -> usize {
    let problem = Problem::new(b, pt(b, v)).expect("a stone");
    let mover = if attacker_moves {
        problem.attacker
    } else {
        problem.defender()
    };
    let opts = Options {
        avoid_root_pass: !attacker_moves,
        algo,
        ko_bound,
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let solve = |nodes: u64| {
        let mut s = Solver::new(4);
        let limits = Limits { nodes, time: None };
        s.solve_with_ko(b, problem, mover, opts, limits, &stop)
    };
    let full = solve(2_000_000);
    assert_eq!(
        (full.code, full.best.map(name)),
        (Some(want.0), Some(want.1.into()))
    );
    let (mut answered, mut bounds) = (0, 0);
    for nodes in 1..=3 * full.nodes {
        let r = solve(nodes);
        if let (Some(c), Some(why)) = (r.code, r.bound) {
            // A lower bound: code 3 from a won mover-favoured model, or 2
            // from a won model where nobody is favoured, so only where the
            // mover wins with a code at least as good, and with the reason
            // given.
            assert!(
                (c == 2 || c == 3) && want.0 != 0 && want.0 <= c,
                "{nodes} nodes: bound {c}"
            );
            assert_eq!(why, Limit::Nodes, "{nodes} nodes");
            bounds += 1;
        } else if let Some(c) = r.code {
            assert_eq!(
                (c, r.best.map(name)),
                (want.0, Some(want.1.into())),
                "{nodes} nodes"
            );
            answered += 1;
        } else {
            assert_eq!(r.stopped_by, Some(Limit::Nodes), "{nodes} nodes");
        }
    }
    // Past some limit every solve answers, exactly.
    let last = solve(3 * full.nodes);
    assert!(answered > 0 && last.code.is_some() && last.bound.is_none());
    bounds
}

#[test]
fn ko_bounds_are_wins_no_better_than_the_code() {
    let b = pos(KO);
    let mut bounds = 0;
    for algo in [Algo::Dfpn, Algo::Auto] {
        bounds += codes_under_limits(&b, "B2", true, algo, true, (2, "C1"));
        bounds += codes_under_limits(&b, "B2", false, algo, true, (3, "PASS"));
    }
    // The attack's code 2 needs the model where nobody is favoured after
    // the mover-favoured win: some limits stop there.
    assert!(bounds > 0, "no limit gave a lower bound");
}

#[test]
fn ko_codes_never_change_with_the_limit() {
    let b = pos(KO);
    for algo in [Algo::Dfpn, Algo::Auto] {
        codes_under_every_limit(&b, "B2", true, algo, (2, "C1"));
        // The defender loses when the attacker is favoured, through the
        // ko: `Auto` then looks for a ko-free proof of that loss, which
        // does not exist, and must not answer 0.
        codes_under_every_limit(&b, "B2", false, algo, (3, "PASS"));
    }
}

/// The top edge of a real game (golois/Goemate990903-6, rows 15-19 kept,
/// the rest emptied): black's L18 has two liberties, K18 and L19. With
/// white favoured in ko, df-pn proves it lost through a line that passes a
/// ko ban (5,352 nodes), so that proof says nothing of the model where
/// black is favoured, which stays open at 300K nodes. Within 3M nodes
/// `Auto`'s df-pn finds a proof of the loss that meets no ko ban and no
/// ko capture of the lone stone, and a ko-free loss holds under every
/// model: `defend` is 0. (λ-df-pn's order-2 proof, which once settled it
/// in a few thousand nodes, ends some lines with white's ko capture of
/// L18, which holds only while black may not retake: it carries `KO`.)
const TOP_EDGE: &[&str] = &[
    "................X..",
    ".....OXO..XOXX.XO..",
    "..XXXXOOXXOOXOXXO..",
    "..XOOX.OOO.OOO.OXX.",
    ".XO.O.....O....OO..",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
];

#[test]
fn a_ko_free_proof_settles_every_model() {
    let b = pos(TOP_EDGE);
    let problem = Problem::new(&b, pt(&b, "L18")).expect("a stone");
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: 300_000,
        time: None,
    };
    let opts = Options {
        avoid_root_pass: true,
        algo: Algo::Auto,
        ..Options::default()
    };
    let black = problem.defender();
    let full = Limits {
        nodes: 3_000_000,
        time: None,
    };
    // As `defend` asks it.
    let gtp = Options {
        ko_bound: true,
        ..opts
    };
    let r = Solver::new(64).solve_with_ko(&b, problem, black, gtp, full, &stop);
    assert_eq!(r.code, Some(0));
    // Without the ko-free proof the answer would need the model where
    // black is favoured, which this budget does not settle.
    let q = Question {
        board: &b,
        problem,
        model: KoModel {
            favoured: Some(black),
        },
        to_move: black,
    };
    let m = Solver::new(4).solve_one_model(q, opts, limits, &stop);
    assert_eq!(m.mover_wins, None);
}

/// The node limit holds whatever stops the search: threat searches, model
/// changes and plan steps included, the nodes reported never exceed it.
/// (λ-df-pn's threat searches once counted a node for each question asked
/// after the limit had stopped them: 4,327 nodes under a limit of 4,321 on
/// a real game; here, 10 under a limit of 9.)
#[test]
fn the_node_limit_holds_for_every_algorithm() {
    let b = pos(TOP_EDGE);
    let problem = Problem::new(&b, pt(&b, "L18")).expect("a stone");
    let stop = AtomicBool::new(false);
    let limits = (1..=40).chain([97, 1000, 4321, 9999]);
    for algo in Algo::ALL {
        for nodes in limits.clone() {
            for mover in [problem.attacker, problem.defender()] {
                let opts = Options {
                    avoid_root_pass: mover == problem.defender(),
                    algo,
                    ko_bound: true,
                    ..Options::default()
                };
                let limits = Limits { nodes, time: None };
                let r = Solver::new(4).solve_with_ko(&b, problem, mover, opts, limits, &stop);
                assert!(
                    r.nodes <= nodes,
                    "{algo:?}, {mover:?} first: {} nodes under a limit of {nodes}",
                    r.nodes
                );
            }
        }
    }
}

/// White's lone B4 in atari, where black's capture at C4 is a ko capture:
/// GNU Go calls that a ko result (`attack` answers `2 C4`), since white
/// may retake; white, moving first, connects at C4 and escapes.
const LONE_KO: &[&str] = &[".XO..", "XO.O.", ".XO..", ".....", "....."];

#[test]
fn ko_capture_of_a_lone_stone_is_code_two() {
    let b = pos(LONE_KO);
    let attack = |b: &Board| {
        let problem = Problem::new(b, pt(b, "B4")).expect("a stone");
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: 1_000_000,
            time: None,
        };
        let r = Solver::new(4).solve_with_ko(
            b,
            problem,
            problem.attacker,
            Options::default(),
            limits,
            &stop,
        );
        (r.code, r.best.map(name))
    };
    assert_eq!(attack(&b), (Some(2), Some("C4".into())));
    // With white C3 gone the capture is no ko: unconditional.
    let mut open = b.clone();
    open.set_point(pt(&b, "C3"), None);
    assert_eq!(attack(&open), (Some(1), Some("C4".into())));
}
