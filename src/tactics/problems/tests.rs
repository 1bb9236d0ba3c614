use super::*;
use crate::tactics::reference::{solve_exhaustive_with_move, winning_moves};
use std::time::Instant;

const B: Color = Color::Black;
const W: Color = Color::White;

fn at(col: usize, row: usize) -> Point {
    Board::point_at(col, row)
}

/// A board from a diagram, top row first: `X` black, `O` white.
fn board_from(rows: &[&str]) -> Board {
    let size = rows.len();
    let mut board = Board::new(size);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), size, "diagram row {i}");
        for (col, ch) in row.chars().enumerate() {
            let stone = match ch {
                'X' => Some(B),
                'O' => Some(W),
                _ => None,
            };
            if stone.is_some() {
                board.set_point(at(col, size - 1 - i), stone);
            }
        }
    }
    board
}

fn problem(board: Board, target: Point, to_move: Color, escape_libs: usize) -> GeneratedProblem {
    GeneratedProblem {
        board,
        target,
        to_move,
        escape_libs,
    }
}

/// The reference's winners under nobody / the attacker / the defender
/// favoured.
fn winners(p: &GeneratedProblem) -> [Winner; 3] {
    p.ko_models().map(|model| {
        solve_exhaustive(&mut p.game(model), 1_000_000)
            .unwrap_or_else(|| panic!("unsolved: {}", p.describe(model)))
            .0
    })
}

fn wins_for_mover(p: &GeneratedProblem) -> Vec<Point> {
    winning_moves(&mut p.game(KoModel { favoured: None }), 10_000_000).expect("solved")
}

const ALL_ATTACKER: [Winner; 3] = [Winner::Attacker; 3];
const ALL_DEFENDER: [Winner; 3] = [Winner::Defender; 3];

/// White C3 in atari runs out at C4 and is laddered to the left edge;
/// a white stone on the ladder's path (B5) breaks it, one beside the
/// path (E5) does not.
#[test]
fn ladder_works_unless_broken() {
    let ladder = |breaker: &str| {
        board_from(&[
            ".......", ".......", breaker, "...X...", ".XOX...", "..X....", ".......",
        ])
    };
    let works = problem(ladder("......."), at(2, 2), W, 3);
    assert_eq!(winners(&works), ALL_ATTACKER);
    assert_eq!(wins_for_mover(&works), vec![], "white has no escape");

    let broken = problem(ladder(".O....."), at(2, 2), W, 3);
    assert_eq!(winners(&broken), ALL_DEFENDER);
    assert_eq!(
        wins_for_mover(&broken),
        vec![at(2, 3)],
        "only running out saves"
    );

    let beside = problem(ladder("....O.."), at(2, 2), W, 3);
    assert_eq!(winners(&beside), ALL_ATTACKER);
}

/// White C3 has two liberties, C4 and D3, and white friends at C6, D6,
/// F3 and F4 to run to: either atari lets white connect out, but the
/// net at D4 leaves each way out a single further liberty.
#[test]
fn net_is_the_only_capture() {
    let board = board_from(&[
        ".......", "..OO...", ".......", ".X...O.", ".XO..O.", "..XX...", ".......",
    ]);
    let p = problem(board, at(2, 2), B, 3);
    assert_eq!(winners(&p), ALL_ATTACKER);
    assert_eq!(wins_for_mover(&p), vec![at(3, 3)]);
}

/// The snapback: black's throw-in at C1 can be captured, but the
/// capture leaves white's five stones with one liberty, at C1. (Black's
/// wall has three eyes, so it cannot be captured instead.)
#[test]
fn snapback() {
    let rows = |row1: &str| [".X.X.", "XXXXX", "XXXXX", "XOOOX", row1].map(str::to_string);
    let before = rows("XO..X");
    let before: Vec<&str> = before.iter().map(String::as_str).collect();
    let p = problem(board_from(&before), at(1, 1), B, 3);
    assert_eq!(winners(&p), ALL_ATTACKER);
    assert!(wins_for_mover(&p).contains(&at(2, 0)), "the throw-in wins");

    let after = rows("XOX.X");
    let after: Vec<&str> = after.iter().map(String::as_str).collect();
    let p = problem(board_from(&after), at(1, 1), W, 3);
    assert_eq!(winners(&p), ALL_ATTACKER);
    assert_eq!(wins_for_mover(&p), vec![], "capturing the throw-in fails");
    // The line itself: white takes one stone, black takes five.
    let mut game = p.game(KoModel { favoured: None });
    assert_eq!(game.play(at(3, 0)), crate::tactics::Step::Played);
    assert!(game.board().is_empty(at(2, 0)));
    assert_eq!(game.board().libs(at(1, 1)), 1);
    assert_eq!(game.play(at(2, 0)), crate::tactics::Step::Played);
    assert_eq!(game.winner(), Some(Winner::Attacker));
}

/// White's bottom group has two one-point eyes (A1, C1): black can
/// play in neither, so even with both liberties short of escaping it
/// is never captured. Black's own group above has three eyes.
#[test]
fn two_eyes_cannot_be_captured() {
    let board = board_from(&[".X.X.", "XXXXX", "XXXXX", "OOOOX", ".O.OX"]);
    let p = problem(board, at(0, 1), B, 3);
    assert_eq!(winners(&p), ALL_DEFENDER);
    assert_eq!(wins_for_mover(&p), vec![]);
}

/// Code 2: black takes the ko at C1 (capturing D1), which leaves white's
/// block with one liberty, A1, that white cannot fill. White must retake
/// at once to live, so black wins unless white is favoured. (White can
/// never end the ko by connecting at C1, which would leave his block the
/// single liberty A1, so black need not even hurry.)
#[test]
fn ko_won_unless_the_defender_is_favoured() {
    let board = board_from(&[".X.X.", "XXXXX", "XXXXX", "OOOXX", ".O.OX"]);
    let p = problem(board, at(0, 1), B, 3);
    assert_eq!(
        winners(&p),
        [Winner::Attacker, Winner::Attacker, Winner::Defender]
    );
    assert!(wins_for_mover(&p).contains(&at(2, 0)), "taking the ko");
}

/// Code 3: white has just taken the ko at B3 (capturing C3); the target
/// is that stone. Black may retake only if favoured; otherwise white
/// connects at C3 next and has escaped.
#[test]
fn ko_won_only_when_the_attacker_is_favoured() {
    let mut board = board_from(&[".....", ".XO..", "X.XO.", ".XO..", "....."]);
    board.play(W, at(1, 2));
    assert!(board.is_empty(at(2, 2)), "white captured the ko stone");
    assert_eq!(board.ko_point(B), Some(at(2, 2)));
    let p = problem(board, at(1, 2), B, 3);
    assert_eq!(
        winners(&p),
        [Winner::Defender, Winner::Attacker, Winner::Defender]
    );
}

// -----------------------------------------------------------------------
// The reference on generated problems
// -----------------------------------------------------------------------

/// The problem seen in a mirror (columns and rows swapped) and with the
/// colours swapped: the same question, whose moves the search meets in
/// another order. (Not for problems with a ko ban, which the diagram
/// does not carry.)
fn transformed(p: &GeneratedProblem) -> GeneratedProblem {
    let size = p.board.size();
    let mut board = Board::new(size);
    for q in p.board.points() {
        if let Some(c) = p.board.color_at(q) {
            let v = Board::vertex(q);
            board.set_point(at(v.row as usize, v.col as usize), Some(c.opp()));
        }
    }
    let v = Board::vertex(p.target);
    problem(
        board,
        at(v.row as usize, v.col as usize),
        p.to_move.opp(),
        p.escape_libs,
    )
}

/// Move order must not matter, nor colour: the transformed problems
/// have the same winners under every ko model (where the reference
/// solves them: another move order can need a much bigger tree).
#[test]
fn reference_ignores_symmetry() {
    let (mut compared, mut unsolved) = (0, 0);
    for (p, solutions) in generate_solved(21, 200) {
        if p.board.ko_point(p.to_move).is_some() {
            continue;
        }
        let t = transformed(&p);
        for (model, (winner, _)) in t.ko_models().into_iter().zip(solutions) {
            match solve_exhaustive(&mut t.game(model), 10 * SOLVE_BUDGET) {
                None => unsolved += 1,
                Some((w, _)) => {
                    assert_eq!(
                        w,
                        winner,
                        "{}\nvs\n{}",
                        p.describe(model),
                        t.describe(model)
                    );
                    compared += 1;
                }
            }
        }
    }
    println!("{compared} compared, {unsolved} unsolved");
    assert!(
        compared > 400 && unsolved < 20,
        "{compared} compared, {unsolved} unsolved"
    );
}

/// The winner, the move it names and all winning moves agree, and the
/// game comes back unchanged, even from a search that ran out of nodes.
#[test]
fn reference_is_consistent() {
    let mut checked = 0;
    for p in generate(22, 30) {
        for model in p.ko_models() {
            let mut game = p.game(model);
            let key = game.key();
            let (winner, best, nodes) =
                solve_exhaustive_with_move(&mut game, SOLVE_BUDGET).unwrap();
            assert_eq!((game.key(), game.depth()), (key, 0));
            // One node fewer than it took is not enough.
            assert_eq!(solve_exhaustive(&mut game, nodes - 1), None);
            assert_eq!((game.key(), game.depth()), (key, 0));

            let wins = winning_moves(&mut game, 10 * SOLVE_BUDGET);
            assert_eq!((game.key(), game.depth()), (key, 0));
            let Some(wins) = wins else {
                continue;
            };
            if winner == p.mover() {
                assert!(wins.contains(&best.unwrap()), "{}", p.describe(model));
            } else {
                assert_eq!((wins, best), (vec![], None), "{}", p.describe(model));
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} checked");
}

// -----------------------------------------------------------------------
// The harness
// -----------------------------------------------------------------------

/// The reference itself, as a solver.
fn reference_solver(game: &mut CaptureGame) -> SolverAnswer {
    match solve_exhaustive_with_move(game, SOLVE_BUDGET) {
        Some((winner, best, _)) => SolverAnswer {
            winner: Some(winner),
            best,
            limit_hit: false,
        },
        None => SolverAnswer {
            winner: None,
            best: None,
            limit_hit: true,
        },
    }
}

#[test]
fn harness_passes_the_reference() {
    let problems = generate(11, 40);
    let report = check_solver(&problems, &mut reference_solver);
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.checked, 3 * problems.len(), "{report}");
    assert_eq!(report.agreements, report.checked, "{report}");
    assert_eq!(report.best_unverified, 0, "{report}");
}

#[test]
fn harness_catches_a_solver_that_always_says_attacker() {
    let problems = generate(12, 60);
    let report = check_solver(&problems, &mut |_| SolverAnswer {
        winner: Some(Winner::Attacker),
        best: None,
        limit_hit: false,
    });
    let defender_wins: usize = problems
        .iter()
        .map(|p| {
            winners(p)
                .iter()
                .filter(|&&w| w == Winner::Defender)
                .count()
        })
        .sum();
    assert!(defender_wins > 0);
    assert_eq!(report.disagreements, defender_wins, "{report}");
    assert!(!report.is_clean());
    // Every failure described replays: its problem and model give what
    // its kind says, and its description carries the diagram.
    assert_eq!(report.failures.len(), MAX_FAILURES);
    for failure in &report.failures {
        let p = &problems[failure.problem];
        let truth = solve_exhaustive(&mut p.game(failure.model), SOLVE_BUDGET).unwrap();
        match failure.kind {
            FailureKind::Disagreement => assert_eq!(truth.0, Winner::Defender),
            FailureKind::WrongBest => {
                assert_eq!(truth.0, Winner::Attacker);
                assert_eq!(p.mover(), Winner::Attacker);
            }
            kind => panic!("unexpected {kind:?}"),
        }
        assert!(failure.description.contains(&format!("{:?}", p.board)));
        assert!(failure
            .description
            .contains(&Board::vertex(p.target).to_string()));
    }
    // Where the attacker moves and wins, the missing move is caught too.
    assert!(report.wrong_best > 0, "{report}");
}

/// A solver with the right winners but, whenever the mover wins, a move
/// that does not win: a losing one if there is one, else an occupied
/// point. Every one of them must be caught.
#[test]
fn harness_catches_every_wrong_best_move() {
    let problems = generate(13, 40);
    let mut given = 0;
    let report = check_solver(&problems, &mut |game| {
        let (winner, _, _) = solve_exhaustive_with_move(game, SOLVE_BUDGET).unwrap();
        let mover_wins =
            (winner == Winner::Attacker) == (game.to_move() == game.problem().attacker);
        let mut best = None;
        if mover_wins {
            given += 1;
            let mut moves = PointList::new();
            game.moves(&mut moves);
            for &p in &moves {
                game.play(p);
                let after = solve_exhaustive(game, SOLVE_BUDGET);
                game.undo();
                if after.is_some_and(|(w, _)| w != winner) {
                    best = Some(p);
                    break;
                }
            }
            best = best.or(Some(game.problem().target));
        }
        SolverAnswer {
            winner: Some(winner),
            best,
            limit_hit: false,
        }
    });
    assert!(given > 0);
    assert_eq!(report.disagreements, 0, "{report}");
    assert_eq!(report.wrong_best, given, "{report}");
    assert_eq!(report.failures[0].kind, FailureKind::WrongBest);
}

#[test]
fn harness_tells_allowed_unknowns_from_bugs() {
    let problems = generate(14, 20);
    for limit_hit in [true, false] {
        let report = check_solver(&problems, &mut |_| SolverAnswer {
            winner: None,
            best: None,
            limit_hit,
        });
        assert_eq!(report.is_clean(), limit_hit, "{report}");
        let (allowed, bugs) = (report.unknown_limit, report.unknown_without_limit);
        let expected = if limit_hit { (60, 0) } else { (0, 60) };
        assert_eq!((allowed, bugs), expected, "{report}");
    }
}

#[test]
fn harness_catches_a_solver_that_leaves_the_game_changed() {
    let problems = generate(15, 10);
    let report = check_solver(&problems, &mut |game| {
        let answer = reference_solver(game);
        game.play(PASS);
        answer
    });
    assert_eq!(report.not_restored, 30, "{report}");
    assert!(!report.is_clean());
}

// -----------------------------------------------------------------------
// The generator
// -----------------------------------------------------------------------

#[test]
fn generator_is_deterministic_and_keeps_its_promises() {
    let a = generate(3, 40);
    let b = generate(3, 40);
    let describe = |ps: &[GeneratedProblem]| -> Vec<String> {
        ps.iter()
            .map(|p| p.describe(KoModel { favoured: None }))
            .collect()
    };
    assert_eq!(describe(&a), describe(&b));
    assert_ne!(describe(&a), describe(&generate(4, 40)));
    for p in &a {
        let size = p.board.size();
        assert!((5..=7).contains(&size));
        let stones: usize = p.board.stone_counts().iter().sum();
        let area = size * size;
        assert!(
            100 * stones >= 55 * area && 100 * stones <= 80 * area,
            "{stones}/{area}"
        );
        let libs = p.board.libs(p.target);
        assert!((1..=3).contains(&libs));
        assert!(p.escape_libs > libs && p.escape_libs <= (libs + 2).min(4));
        for model in p.ko_models() {
            assert_eq!(p.game(model).winner(), None, "decided at the start");
        }
    }
}

#[test]
fn generator_yields_1000_solvable_problems() {
    let start = Instant::now();
    let solved = generate_solved(2024, 1000);
    let elapsed = start.elapsed();
    assert_eq!(solved.len(), 1000);

    let names = ["nobody favoured", "attacker favoured", "defender favoured"];
    let mut attacker_wins = [0; 3];
    let mut mover_wins = [0; 3];
    let mut models_disagree = 0;
    let mut codes = std::collections::BTreeMap::new();
    let mut banned = 0;
    let mut sizes = [0; 3];
    let mut attacker_moves = 0;
    let mut nodes_hist = [0; 7];
    let mut max_nodes = 0;
    let mut total_nodes = 0;
    for (p, solutions) in &solved {
        // The generator's answers are the reference's.
        assert_eq!(solutions.len(), 3);
        let ws = solutions.map(|(w, _)| w);
        for i in 0..3 {
            attacker_wins[i] += (ws[i] == Winner::Attacker) as usize;
            mover_wins[i] += (ws[i] == p.mover()) as usize;
        }
        if ws.iter().any(|&w| w != ws[0]) {
            models_disagree += 1;
        }
        *codes.entry(format!("{ws:?}")).or_insert(0) += 1;
        banned += p.board.ko_point(p.to_move).is_some() as usize;
        sizes[p.board.size() - 5] += 1;
        attacker_moves += (p.mover() == Winner::Attacker) as usize;
        for &(_, n) in solutions {
            nodes_hist[(n as f64).log10() as usize] += 1;
            max_nodes = max_nodes.max(n);
            total_nodes += n;
        }
    }
    println!("1000 problems in {elapsed:.2?} (solved under 3 ko models while generating)");
    println!("sizes 5/6/7: {sizes:?}; attacker to move in {attacker_moves}; ko ban in {banned}");
    for i in 0..3 {
        println!(
            "  {:18} attacker wins {:4}, defender wins {:4}; mover wins {:4}",
            names[i],
            attacker_wins[i],
            1000 - attacker_wins[i],
            mover_wins[i]
        );
    }
    println!("models disagree on {models_disagree}; winners (none, att, def): {codes:?}");
    println!(
        "nodes per solve: max {max_nodes}, mean {}, log10 histogram {nodes_hist:?}",
        total_nodes / 3000
    );
    // The harness on all of them, with the reference as the solver.
    let start = Instant::now();
    let problems: Vec<GeneratedProblem> = solved.into_iter().map(|(p, _)| p).collect();
    let report = check_solver(&problems, &mut reference_solver);
    println!(
        "harness, reference against itself, in {:.2?}: {report}",
        start.elapsed()
    );
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.agreements, 3000, "{report}");

    assert!(models_disagree > 0);
    assert!(banned > 0);
    assert!(sizes.iter().all(|&n| n > 0));
    assert!(attacker_wins.iter().all(|&n| n > 0 && n < 1000));
}
