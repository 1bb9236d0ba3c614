//! The snapback rule of the capture game (`rules`): a one-stone target
//! taken where the defender at once takes the capturing stones back, with
//! two liberties or more, is not captured (GNU Go's "proper snapback").

use super::dfpn::{Algo, Limits, Options, Question, Solver};
use super::reference::solve_exhaustive;
use super::rules::{CaptureGame, KoModel, Problem, Step, Winner};
use crate::go::board::{Board, Point};
use crate::go::Color;
use std::sync::atomic::AtomicBool;

fn at(c: usize, r: usize) -> Point {
    Board::point_at(c, r)
}

/// 5×5, white's lone B1 (the target) with one liberty, C1. Black's
/// A1-A2-B2-C2 has C1 as its only liberty too; white's A3-B3-C3 and
/// D1-D2 keep theirs. Black's C1 takes B1 and is left with B1 as its only
/// liberty: white's B1 takes five stones back and has three liberties.
fn snapback() -> Board {
    let mut b = Board::new(5);
    let black = [(0, 0), (0, 1), (1, 1), (2, 1)];
    let white = [(1, 0), (0, 2), (1, 2), (2, 2), (3, 1), (3, 0)];
    for (c, r) in black {
        b.play(Color::Black, at(c, r));
    }
    for (c, r) in white {
        b.play(Color::White, at(c, r));
    }
    b
}

fn problem(b: &Board, escape_libs: usize) -> Problem {
    Problem {
        escape_libs,
        ..Problem::new(b, at(1, 0)).unwrap()
    }
}

#[test]
fn a_snapback_capture_is_not_final_under_any_model() {
    let b = snapback();
    let (c1, b1) = (at(2, 0), at(1, 0));
    assert_eq!(b.libs(b1), 1);
    assert_eq!(b.libs(at(0, 0)), 1, "black's chain is in atari too");
    for favoured in [None, Some(Color::Black), Some(Color::White)] {
        let mut g = CaptureGame::new(&b, problem(&b, 5), KoModel { favoured }, Color::Black);
        assert!(g.is_snapback_capture(c1));
        assert!(!g.capture_is_final(c1));
        assert_eq!(g.play(c1), Step::Played);
        assert!(g.board().is_empty(b1));
        assert!(g.snapback_pending() && g.retake_pending(), "{favoured:?}");
        assert_eq!(g.winner(), None);
        assert_eq!(g.play(b1), Step::Played, "the retake");
        assert_eq!(g.board().color_at(b1), Some(Color::White));
        assert_eq!(g.board().libs(b1), 3);
        assert_eq!(g.winner(), None);
        g.undo();
        // Any other white move leaves B1 captured.
        assert_eq!(g.play(at(4, 4)), Step::Played);
        assert!(!g.retake_pending());
        assert_eq!(g.winner(), Some(Winner::Attacker));
    }
}

#[test]
fn a_capture_that_keeps_a_liberty_is_final() {
    // Without white's D1-D2, black's C1 keeps D1 as a liberty.
    let mut b = Board::new(5);
    for (c, r) in [(0, 0), (0, 1), (1, 1), (2, 1)] {
        b.play(Color::Black, at(c, r));
    }
    for (c, r) in [(1, 0), (0, 2), (1, 2), (2, 2), (3, 1)] {
        b.play(Color::White, at(c, r));
    }
    let mut g = CaptureGame::new(&b, problem(&b, 5), KoModel { favoured: None }, Color::Black);
    let c1 = at(2, 0);
    assert!(!g.is_snapback_capture(c1));
    assert!(g.capture_is_final(c1));
    assert_eq!(g.play(c1), Step::Played);
    assert!(!g.snapback_pending());
    assert_eq!(g.winner(), Some(Winner::Attacker));
}

/// With three escape liberties, white's retake escapes: black cannot
/// capture B1, by the exhaustive reference and by the solvers, under every
/// ko model; white to move saves it too (its C1 takes black's chain).
#[test]
fn solvers_and_reference_read_the_snapback_alike() {
    let b = snapback();
    let stop = AtomicBool::new(false);
    for favoured in [None, Some(Color::Black), Some(Color::White)] {
        for to_move in [Color::Black, Color::White] {
            let model = KoModel { favoured };
            let mut g = CaptureGame::new(&b, problem(&b, 3), model, to_move);
            let (want, _) = solve_exhaustive(&mut g, 10_000_000).expect("small");
            assert_eq!(want, Winner::Defender, "{favoured:?} {to_move:?}");
            for algo in Algo::ALL {
                let mut solver = Solver::new(1);
                let q = Question {
                    board: &b,
                    problem: problem(&b, 3),
                    model,
                    to_move,
                };
                let opts = Options {
                    algo,
                    ..Options::default()
                };
                let limits = Limits {
                    nodes: 1_000_000,
                    time: None,
                };
                let r = solver.solve(q, opts, limits, &stop);
                // The threat searches may find no proof (no threat order
                // proves a defender win); a proof must be the right one.
                let must_answer = !matches!(algo, Algo::LambdaDfpn | Algo::DualLambda);
                if must_answer || r.winner.is_some() {
                    assert_eq!(r.winner, Some(want), "{algo:?} {favoured:?} {to_move:?}");
                }
            }
        }
    }
}
