//! The proof-check harness: runs a capture solver on generated problems
//! under each ko model and compares every answer it gives as proven with
//! the exhaustive [`reference`](crate::tactics::reference).

use super::{GeneratedProblem, BEST_MOVE_BUDGET, MAX_FAILURES, SOLVE_BUDGET};
use crate::go::board::{Board, Point, BORDER, NUM_POINTS, PASS};
use crate::tactics::reference::{solve_exhaustive, solve_exhaustive_with_move};
use crate::tactics::rules::{CaptureGame, KoModel, Winner};
use std::fmt;

/// What a solver says about one capture game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverAnswer {
    /// The proven winner; `None` when the solver does not know.
    pub winner: Option<Winner>,
    /// The mover's winning move, when the mover wins.
    pub best: Option<Point>,
    /// Whether the solver ran out of its budget (an excuse for `None`).
    pub limit_hit: bool,
}

/// The kinds of solver bug the harness catches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// A proven winner the reference contradicts: the worst bug.
    Disagreement,
    /// The mover wins, but the solver's move does not win (or is illegal,
    /// or missing).
    WrongBest,
    /// No answer, and no limit hit to excuse it.
    UnknownWithoutLimit,
    /// The solver left the game changed.
    GameNotRestored,
}

/// One caught bug, with what it takes to replay it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub kind: FailureKind,
    /// Index into the problems checked.
    pub problem: usize,
    pub model: KoModel,
    /// The problem (diagram, target, mover, model, escape_libs, ko ban)
    /// and what went wrong.
    pub description: String,
}

/// Counts over every (problem, ko model) pair checked.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Pairs the reference solved, so the solver could be checked.
    pub checked: usize,
    /// Pairs the reference could not solve within [`SOLVE_BUDGET`].
    pub reference_unknown: usize,
    /// The solver proved the reference's winner.
    pub agreements: usize,
    /// The solver proved the other winner.
    pub disagreements: usize,
    /// Agreed that the mover wins, but named a move that does not win.
    pub wrong_best: usize,
    /// A named winning move the reference could not check within
    /// [`BEST_MOVE_BUDGET`] (not counted as wrong).
    pub best_unverified: usize,
    /// No answer, limit hit: allowed.
    pub unknown_limit: usize,
    /// No answer without a limit hit: a bug.
    pub unknown_without_limit: usize,
    /// The solver did not hand the game back as it got it: a bug.
    pub not_restored: usize,
    /// The first [`MAX_FAILURES`] bugs.
    pub failures: Vec<Failure>,
}

impl CheckReport {
    /// No bug of any kind was caught.
    pub fn is_clean(&self) -> bool {
        self.disagreements == 0
            && self.wrong_best == 0
            && self.unknown_without_limit == 0
            && self.not_restored == 0
    }

    fn fail(&mut self, kind: FailureKind, problem: usize, model: KoModel, description: String) {
        match kind {
            FailureKind::Disagreement => self.disagreements += 1,
            FailureKind::WrongBest => self.wrong_best += 1,
            FailureKind::UnknownWithoutLimit => self.unknown_without_limit += 1,
            FailureKind::GameNotRestored => self.not_restored += 1,
        }
        if self.failures.len() < MAX_FAILURES {
            self.failures.push(Failure {
                kind,
                problem,
                model,
                description,
            });
        }
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "checked {} (reference unknown {}): agree {}, DISAGREE {}, wrong best {} \
             (unverified {}), unknown with limit {}, UNKNOWN WITHOUT LIMIT {}, \
             NOT RESTORED {}",
            self.checked,
            self.reference_unknown,
            self.agreements,
            self.disagreements,
            self.wrong_best,
            self.best_unverified,
            self.unknown_limit,
            self.unknown_without_limit,
            self.not_restored,
        )?;
        for failure in &self.failures {
            writeln!(
                f,
                "{:?} on problem {}: {}",
                failure.kind, failure.problem, failure.description
            )?;
        }
        Ok(())
    }
}

/// Runs `solver` on every problem under each of the three ko models and
/// checks it against the exhaustive reference. The solver gets the game at
/// its start and must hand it back unchanged.
pub fn check_solver(
    problems: &[GeneratedProblem],
    solver: &mut dyn FnMut(&mut CaptureGame) -> SolverAnswer,
) -> CheckReport {
    let mut report = CheckReport::default();
    for (index, problem) in problems.iter().enumerate() {
        for model in problem.ko_models() {
            let reference = solve_exhaustive_with_move(&mut problem.game(model), SOLVE_BUDGET);
            let Some((truth, reference_best, _)) = reference else {
                report.reference_unknown += 1;
                continue;
            };
            report.checked += 1;
            let describe = |what: String| format!("{}\n{what}", problem.describe(model));

            let mut game = problem.game(model);
            let key = game.key();
            let answer = solver(&mut game);
            if game.depth() != 0 || game.key() != key {
                let d = describe(format!("solver left the game at depth {}", game.depth()));
                report.fail(FailureKind::GameNotRestored, index, model, d);
                continue;
            }
            let Some(claimed) = answer.winner else {
                if answer.limit_hit {
                    report.unknown_limit += 1;
                } else {
                    let d = describe(format!("solver: unknown, no limit hit; truth {truth:?}"));
                    report.fail(FailureKind::UnknownWithoutLimit, index, model, d);
                }
                continue;
            };
            if claimed != truth {
                let d = describe(format!("solver proved {claimed:?}, reference {truth:?}"));
                report.fail(FailureKind::Disagreement, index, model, d);
                continue;
            }
            report.agreements += 1;
            if claimed != problem.mover() {
                continue;
            }
            let verdict = match answer.best {
                None => Err("no move named".to_string()),
                Some(p) if !game.is_legal(p) => {
                    Err(format!("illegal move {}", show(&problem.board, p)))
                }
                Some(p) => {
                    game.play(p);
                    let after = solve_exhaustive(&mut game, BEST_MOVE_BUDGET);
                    game.undo();
                    match after {
                        Some((w, _)) if w == truth => Ok(()),
                        Some((w, _)) => Err(format!(
                            "{} loses: {w:?} wins after it",
                            show(&problem.board, p)
                        )),
                        None => {
                            report.best_unverified += 1;
                            Ok(())
                        }
                    }
                }
            };
            if let Err(why) = verdict {
                let right = show(&problem.board, reference_best.unwrap_or(PASS));
                let d = describe(format!(
                    "mover wins (e.g. with {right}), but the solver's best move: {why}"
                ));
                report.fail(FailureKind::WrongBest, index, model, d);
            }
        }
    }
    report
}

/// A move as GTP writes it (or as a raw index, if it is off the board).
fn show(board: &Board, p: Point) -> String {
    if p == PASS {
        "pass".to_string()
    } else if p < NUM_POINTS && board.cell(p) != BORDER {
        Board::vertex(p).to_string()
    } else {
        format!("point {p}")
    }
}
