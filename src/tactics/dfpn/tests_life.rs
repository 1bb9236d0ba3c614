//! Unconditional life (see `tactics::life`) in the solvers: a target that
//! is alive by Benson's criterion is a defender win at once, and a move that
//! makes the second eye is found as the defender's winning move. (The
//! proof check compares the rule with the exhaustive reference on generated
//! life problems: `tests/tactics_proof_check.rs`.)

use super::tests::{pos, pt};
use super::*;

const ALGOS: [Algo; 5] = [
    Algo::Dfpn,
    Algo::LambdaDfpn,
    Algo::DualLambda,
    Algo::FixpointDfpn,
    Algo::Auto,
];

fn solve(b: &Board, v: &str, attacker_first: bool, algo: Algo) -> SolveResult {
    solve_under(b, v, attacker_first, None, algo)
}

/// Solves the block on `v` under the ko model favouring `favoured`, with
/// 200,000 nodes and the escape out of reach.
pub(super) fn solve_under(
    b: &Board,
    v: &str,
    attacker_first: bool,
    favoured: Option<Color>,
    algo: Algo,
) -> SolveResult {
    let mut problem = Problem::new(b, pt(b, v)).expect("a stone");
    // Out of reach: only capture or life decide.
    problem.escape_libs = 8;
    let to_move = if attacker_first {
        problem.attacker
    } else {
        problem.defender()
    };
    let q = Question {
        board: b,
        problem,
        model: KoModel { favoured },
        to_move,
    };
    let opts = Options {
        algo,
        ..Options::default()
    };
    let limits = Limits {
        nodes: 200_000,
        time: None,
    };
    Solver::new(4).solve(q, opts, limits, &AtomicBool::new(false))
}

/// Black's group in the lower left has two one-point eyes and nothing else
/// on the board can touch it: the defender wins at once, on a board far too
/// open for any search to prove it by reading the attacker's moves out.
#[test]
fn benson_alive_target_is_a_defender_win_at_once() {
    let b = pos(&[
        ".........", //
        ".........",
        ".........",
        ".........",
        ".........",
        "...O.....",
        "XXXX.....",
        "X.XX.....",
        "XX.X.....",
    ]);
    for algo in ALGOS {
        for attacker_first in [true, false] {
            let r = solve(&b, "A3", attacker_first, algo);
            assert_eq!(
                r.winner,
                Some(Winner::Defender),
                "{algo:?} {attacker_first}"
            );
            assert!(r.nodes <= 2, "{algo:?}: {} nodes", r.nodes);
        }
    }
}

/// Straight three on the edge: black to move makes two eyes at C1 (and
/// then lives unconditionally); white to move kills there.
const STRAIGHT_THREE: &[&str] = &[
    ".....", //
    "OOOOO", "OOOOO", "XXXXX", "X...X",
];

#[test]
fn eye_making_move_is_the_defence() {
    let b = pos(STRAIGHT_THREE);
    let c1 = pt(&b, "C1");
    for algo in ALGOS {
        let d = solve(&b, "A2", false, algo);
        assert_eq!(
            (d.winner, d.best),
            (Some(Winner::Defender), Some(c1)),
            "{algo:?} defends"
        );
        // Dual-λ finds no attacker's proof within its orders: it may say
        // nothing, but never anything else.
        let a = solve(&b, "A2", true, algo);
        if !(algo == Algo::DualLambda && a.winner.is_none()) {
            assert_eq!(
                (a.winner, a.best),
                (Some(Winner::Attacker), Some(c1)),
                "{algo:?} attacks"
            );
        }
    }
}

/// White's corner group is alive with the eyes F6 and G7, so every
/// harmless move defends it, as the pass would. The move shown
/// (`avoid_root_pass`) is one next to the fight, a liberty of the black
/// wall around it, not the first empty point in board order far away.
#[test]
fn defence_shown_for_a_safe_block_is_near_it() {
    let b = pos(&[
        "...XOO.", //
        "...XO.O", "...XOOO", "...XXXX", ".......", ".......", ".......",
    ]);
    let wall = ["C7", "C6", "C5", "C4", "D3", "E3", "F3", "G3"].map(|v| pt(&b, v));
    for algo in ALGOS {
        let problem = Problem::new(&b, pt(&b, "E5")).expect("a stone");
        let q = Question {
            board: &b,
            problem,
            model: KoModel { favoured: None },
            to_move: problem.defender(),
        };
        let opts = Options {
            algo,
            avoid_root_pass: true,
            ..Options::default()
        };
        let limits = Limits {
            nodes: 200_000,
            time: None,
        };
        let r = Solver::new(4).solve(q, opts, limits, &AtomicBool::new(false));
        // Dual-λ ends here with no proof up to its highest threat order
        // (`solve escape` says `unknown reason=orders`, as before this
        // ordering): it may say nothing, but never anything else.
        if algo == Algo::DualLambda && r.winner.is_none() {
            continue;
        }
        assert_eq!(r.winner, Some(Winner::Defender), "{algo:?}");
        let best = r.best.expect("a move");
        assert!(wall.contains(&best), "{algo:?}: {}", Board::vertex(best));
    }
}
