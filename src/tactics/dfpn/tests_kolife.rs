//! Life through kos the favoured defender always retakes (see
//! `tactics::kolife`): the shape, and the solvers' use of it, under the
//! defender-favoured model only. (The proof check compares the rule with
//! the exhaustive reference on generated problems:
//! `tests/tactics_proof_check.rs`, `ko_life_rule_agrees_with_exhaustive_search`.)

use super::tests::{pos, pt};
use super::tests_life::solve_under;
use super::*;
use crate::tactics::kolife::target_ko_lives;
use crate::tactics::reference::solve_exhaustive;
use crate::tactics::zone::Zone;

/// Black's block (B3 to D3, A2 to C2, B1) has two liberties: the eye A1,
/// and C1, where white's stone would capture the black stone D1 (in atari)
/// as a ko. The shape of capture test 8 (`Handtalk980824-1`, K5), small.
const EYE_AND_KO: &[&str] = &[
    "..OOO", //
    "OOOOO", "OXXXO", "XXXOO", ".X.XO",
];

#[test]
fn eye_and_ko_point_is_the_shape() {
    let b = pos(EYE_AND_KO);
    let mut z = Zone::new();
    assert!(target_ko_lives(&b, pt(&b, "B2"), Some(&mut z)));
    // The zone: B with its liberties, the stone D1 with its liberty.
    for v in ["A1", "C1", "D1", "B2", "A2", "D3"] {
        assert!(z.contains(pt(&b, v)), "{v}");
    }
    for v in ["E1", "D2", "A5"] {
        assert!(!z.contains(pt(&b, v)), "{v}");
    }
    // The lone stone has one liberty: no.
    assert!(!target_ko_lives(&b, pt(&b, "D1"), None));
}

#[test]
fn other_neighbours_of_a_liberty_are_not_the_shape() {
    for rows in [
        // C1 next to an empty point (D1).
        ["..OOO", "OOOOO", "OXXXO", "XXXOO", ".X..O"],
        // C1 next to a white stone.
        ["..OOO", "OOOOO", "OXXXO", "XXXOO", ".X.OO"],
        // One liberty only (A1 filled).
        ["..OOO", "OOOOO", "OXXXO", "XXXOO", "XX.XO"],
    ] {
        let b = pos(&rows);
        assert!(!target_ko_lives(&b, pt(&b, "B2"), None), "{rows:?}");
    }
    // D4 touches two black stones outside B (D5 and E4); C2 one (C1).
    let mut rows = ["..OOOO", "OOOXOO", "OXX.XO", "OXXXOO", "OX.XOO", "OOXOOO"];
    let b = pos(&rows);
    assert!(!target_ko_lives(&b, pt(&b, "B3"), None));
    // With E3 black, E4 joins B, and D4 has one stone outside B left.
    rows[3] = "OXXXXO";
    let b = pos(&rows);
    assert!(target_ko_lives(&b, pt(&b, "B3"), None));
}

fn solve(b: &Board, attacker_first: bool, favoured: Option<Color>, algo: Algo) -> SolveResult {
    solve_under(b, "B2", attacker_first, favoured, algo)
}

/// With black (the defender) favoured, white to move: a defender win at
/// once, flagged as resting on the model; the exhaustive reference agrees.
/// Under the other models white takes the ko at C1 and captures at A1.
#[test]
fn the_favoured_defender_lives_by_the_ko_and_no_one_else_does() {
    let b = pos(EYE_AND_KO);
    let (black, white) = (Color::Black, Color::White);
    for algo in [Algo::Dfpn, Algo::FixpointDfpn, Algo::ZoneDfpn, Algo::Auto] {
        let r = solve(&b, true, Some(black), algo);
        assert_eq!(r.winner, Some(Winner::Defender), "{algo:?}");
        assert!(!r.ko_free, "{algo:?}: the win rests on the model");
        if algo == Algo::Dfpn {
            assert!(r.nodes <= 2, "{} nodes", r.nodes);
        }
        for favoured in [None, Some(white)] {
            let r = solve(&b, true, favoured, algo);
            assert_eq!(r.winner, Some(Winner::Attacker), "{algo:?} {favoured:?}");
            assert_eq!(r.best, Some(pt(&b, "C1")), "{algo:?} {favoured:?}");
        }
    }
    for (favoured, winner) in [
        (Some(black), Winner::Defender),
        (None, Winner::Attacker),
        (Some(white), Winner::Attacker),
    ] {
        let mut problem = Problem::new(&b, pt(&b, "B2")).expect("a stone");
        problem.escape_libs = 8;
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured }, white);
        let (w, _) = solve_exhaustive(&mut g, 10_000_000).expect("solved");
        assert_eq!(w, winner, "{favoured:?}");
    }
}

/// GNU Go's code for black, to move, defending: 3 (it lives only when it
/// may retake at once), not 0 as in capture test 8's expected answer
/// (where black can never end the ko in a real game).
#[test]
fn the_ko_code_of_the_shape_is_three() {
    let b = pos(EYE_AND_KO);
    let mut problem = Problem::new(&b, pt(&b, "B2")).expect("a stone");
    problem.escape_libs = 8;
    let limits = Limits {
        nodes: 200_000,
        time: None,
    };
    let r = Solver::new(4).solve_with_ko(
        &b,
        problem,
        Color::Black,
        Options::default(),
        limits,
        &AtomicBool::new(false),
    );
    assert_eq!(r.code, Some(3));
}
