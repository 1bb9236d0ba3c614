//! Generated capture problems and the proof-check harness: the means of
//! catching a tactical solver that claims a wrong result.
//!
//! [`generate`] makes small, dense, deterministic capture problems (5×5 to
//! 7×7, some with an active ko ban or kos next to the target) that the
//! exhaustive [`reference`](super::reference) can solve under all three ko
//! models. [`check_solver`] runs a solver on each of them under each model
//! and compares it with the reference: a proven result the reference
//! contradicts, a "winning" move that does not win, or an unknown without a
//! limit to excuse it is a bug, reported with a diagram to replay it.

use super::life::target_lives;
use super::race::race_won;
use super::reference::{solve_exhaustive, solve_exhaustive_with_move};
use super::rules::{CaptureGame, KoModel, Problem, Winner};
use crate::go::board::{Board, Point, PointList, BORDER, NUM_POINTS, PASS};
use crate::go::playout::{is_true_eye, Rng};
use crate::go::Color;
use std::fmt;

/// Nodes the reference may spend on one (problem, ko model): a generated
/// problem needs no more under any model.
pub const SOLVE_BUDGET: u64 = 100_000;

/// Nodes the reference may spend checking a solver's winning move. A move
/// other than the one the reference found first can need a bigger tree.
pub const BEST_MOVE_BUDGET: u64 = 2_000_000;

/// How many failures a [`CheckReport`] describes in full.
pub const MAX_FAILURES: usize = 5;

/// A capture problem: the block on `target` is attacked by the other colour,
/// `to_move` plays first, and the block escapes at `escape_libs` liberties.
/// The board's ko ban, if any, applies to its first move.
#[derive(Clone, Debug)]
pub struct GeneratedProblem {
    pub board: Board,
    pub target: Point,
    pub to_move: Color,
    pub escape_libs: usize,
}

impl GeneratedProblem {
    /// The capture question about the target block.
    pub fn problem(&self) -> Problem {
        let defender = self
            .board
            .color_at(self.target)
            .expect("a generated problem's target holds a stone");
        Problem {
            target: self.target,
            attacker: defender.opp(),
            escape_libs: self.escape_libs,
        }
    }

    /// The problem's capture game under `model`, at its start.
    pub fn game(&self, model: KoModel) -> CaptureGame {
        CaptureGame::new(&self.board, self.problem(), model, self.to_move)
    }

    /// The three ko models every problem is checked under: nobody favoured,
    /// the attacker favoured, the defender favoured.
    pub fn ko_models(&self) -> [KoModel; 3] {
        let attacker = self.problem().attacker;
        [
            KoModel { favoured: None },
            KoModel {
                favoured: Some(attacker),
            },
            KoModel {
                favoured: Some(attacker.opp()),
            },
        ]
    }

    /// Which side the player to move is.
    pub fn mover(&self) -> Winner {
        if self.to_move == self.problem().attacker {
            Winner::Attacker
        } else {
            Winner::Defender
        }
    }

    /// Everything needed to set the problem up again by hand.
    pub fn describe(&self, model: KoModel) -> String {
        let problem = self.problem();
        let favoured = match model.favoured {
            None => "nobody favoured".to_string(),
            Some(c) if c == problem.attacker => format!("{c} (attacker) favoured"),
            Some(c) => format!("{c} (defender) favoured"),
        };
        let ban = match self.board.ko_point(self.to_move) {
            Some(p) => format!("{} may not play {} (ko)", self.to_move, Board::vertex(p)),
            None => "no ko ban".to_string(),
        };
        format!(
            "{size}x{size}, target {t} ({defender} block, {libs} libs), attacker {a}, \
             {m} ({mover:?}) to move, escape_libs {e}, {favoured}, {ban}\n{board:?}",
            size = self.board.size(),
            t = Board::vertex(self.target),
            defender = problem.defender(),
            libs = self.board.libs(self.target),
            a = problem.attacker,
            m = self.to_move,
            mover = self.mover(),
            e = self.escape_libs,
            board = self.board,
        )
    }
}

// ---------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------

/// SplitMix64's finaliser: turns consecutive seeds into unrelated states
/// (xorshift started from 1, 2, 3 gives similar first outputs).
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `count` capture problems, the same for the same `seed`. Each one is
/// undecided at the start, not decided by the mover's first move under all
/// three ko models, and solved by the reference within [`SOLVE_BUDGET`]
/// nodes under each of them.
pub fn generate(seed: u64, count: usize) -> Vec<GeneratedProblem> {
    generate_solved(seed, count)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// What the reference found for a problem under each of its
/// [`GeneratedProblem::ko_models`]: the winner and the nodes it took.
pub type Solutions = [(Winner, u64); 3];

/// [`generate`], with the reference's solutions found on the way.
pub fn generate_solved(seed: u64, count: usize) -> Vec<(GeneratedProblem, Solutions)> {
    generate_kind(seed, count, candidate)
}

/// `count` life problems, the same for the same `seed`: like [`generate`],
/// but the target (two to four liberties) is unconditionally alive (see
/// [`crate::tactics::life`]) now or after one move of the defender, and it
/// escapes only at 8 liberties, so that most lines end by life or death
/// rather than by escape. They check that the solvers' life rule never
/// claims a result the exhaustive search (which knows nothing of it)
/// contradicts.
pub fn generate_life(seed: u64, count: usize) -> Vec<GeneratedProblem> {
    generate_kind(seed, count, life_candidate)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// `count` race problems, the same for the same `seed`, with the
/// reference's solutions: like [`generate`], but the defender's race rule
/// (see [`crate::tactics::race`]) holds for the target now or after one
/// defender move (the attacker to move then), and the target escapes at 3
/// to 5 liberties. They check that the solvers' race rule never claims a
/// result the exhaustive search (which knows nothing of it) contradicts;
/// where the rule holds at the start with the attacker to move, the
/// reference's solutions check the rule itself.
pub fn generate_race(seed: u64, count: usize) -> Vec<(GeneratedProblem, Solutions)> {
    generate_kind(seed, count, race_candidate)
}

/// `count` forced-reply problems, the same for the same `seed`: like
/// [`generate`], but the attacker is to move and the defender has a
/// *winning point*, a move that would give the target `escape_libs`
/// liberties at once (`escape_libs` is one more than the target has, or
/// two), so df-pn's forced-reply rule (`dfpn::forced`) cuts the attacker's
/// moves at the root and at many nodes below. They check that the moves
/// it leaves out are losses, against the exhaustive search, which knows
/// nothing of the rule.
pub fn generate_forced(seed: u64, count: usize) -> Vec<GeneratedProblem> {
    generate_kind(seed, count, forced_candidate)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// One random forced-reply problem (see [`generate_forced`]), not yet
/// checked for solvability.
fn forced_candidate(rng: &mut Rng) -> Option<GeneratedProblem> {
    let size = 5 + rng.below(3);
    let fill = if rng.below(2) == 0 {
        (45, 60)
    } else {
        (55, 80)
    };
    let (mut board, _) = random_position_filled(rng, size, false, fill)?;
    let defender = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    let blocks = blocks_of(&board, defender, 2..=3);
    if blocks.is_empty() {
        return None;
    }
    let block = blocks[rng.below(blocks.len())];
    let escape_libs = board.libs(block) + 1 + rng.below(2);
    let winning = after_a_move(&mut board, defender, block, |b, h| b.libs(h) >= escape_libs);
    if !winning {
        return None;
    }
    let mut stones = Vec::new();
    board.for_each_stone(block, |q| stones.push(q));
    Some(GeneratedProblem {
        board,
        target: stones[rng.below(stones.len())],
        to_move: defender.opp(),
        escape_libs,
    })
}

/// Whether the race rule holds for the target of `p` with the attacker to
/// move (whoever is to move in `p`).
pub fn race_rule_holds(p: &GeneratedProblem) -> bool {
    race_won(&p.board, p.target, p.escape_libs)
}

fn generate_kind(
    seed: u64,
    count: usize,
    candidate: fn(&mut Rng) -> Option<GeneratedProblem>,
) -> Vec<(GeneratedProblem, Solutions)> {
    let mut rng = Rng::new(mix(seed));
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0u64;
    while out.len() < count {
        attempts += 1;
        assert!(
            attempts < 1000 * (count as u64 + 10),
            "the generator keeps failing"
        );
        if let Some(p) = candidate(&mut rng) {
            if let Some(solutions) = solve_all(&p) {
                out.push((p, solutions));
            }
        }
    }
    out
}

/// The reference's solutions of `p` under every ko model, if each takes at
/// most [`SOLVE_BUDGET`] nodes and at least one takes more than the mover's
/// first move (two nodes: the root and a first move that ended the game).
fn solve_all(p: &GeneratedProblem) -> Option<Solutions> {
    let mut solutions = [(Winner::Attacker, 0); 3];
    for (solution, model) in solutions.iter_mut().zip(p.ko_models()) {
        *solution = solve_exhaustive(&mut p.game(model), SOLVE_BUDGET)?;
    }
    solutions
        .iter()
        .any(|&(_, nodes)| nodes > 2)
        .then_some(solutions)
}

/// One random problem, not yet checked for solvability.
fn candidate(rng: &mut Rng) -> Option<GeneratedProblem> {
    let size = 5 + rng.below(3);
    // Two times in five, try to start under an active ko ban.
    let want_ban = rng.below(5) < 2;
    let (mut board, banned) = random_position(rng, size, want_ban)?;

    let (to_move, defender) = pick_sides(rng, &board, banned);

    // Target: a block of the defender with 1 to 3 liberties, half the time
    // one near a ko (where the ko models may disagree) when there is one.
    let blocks = blocks_of(&board, defender, 1..=3);
    if blocks.is_empty() {
        return None;
    }
    let mut spots = ko_captures(&mut board, Color::Black, true);
    spots.extend(ko_captures(&mut board, Color::White, true));
    let near: Vec<Point> = blocks
        .iter()
        .copied()
        .filter(|&b| spots.iter().any(|&s| near_block(&board, b, s)))
        .collect();
    let pool = if !near.is_empty() && rng.below(2) == 0 {
        &near
    } else {
        &blocks
    };
    let block = pool[rng.below(pool.len())];
    let mut stones = Vec::new();
    board.for_each_stone(block, |q| stones.push(q));
    let target = stones[rng.below(stones.len())];
    let libs = board.libs(target);
    let escape_libs = (libs + 1 + rng.below(2)).min(4);
    Some(GeneratedProblem {
        board,
        target,
        to_move,
        escape_libs,
    })
}

/// One random life problem (see [`generate_life`]), not yet checked for
/// solvability.
fn life_candidate(rng: &mut Rng) -> Option<GeneratedProblem> {
    let size = 5 + rng.below(2);
    let want_ban = rng.below(5) < 1;
    let (mut board, banned) = random_position(rng, size, want_ban)?;
    let (to_move, defender) = pick_sides(rng, &board, banned);
    let near_life = |board: &mut Board, head: Point| {
        target_lives(board, head, None)
            || after_a_move(board, defender, head, |b, h| target_lives(b, h, None))
    };
    let blocks: Vec<Point> = blocks_of(&board, defender, 2..=4)
        .into_iter()
        .filter(|&h| near_life(&mut board, h))
        .collect();
    if blocks.is_empty() {
        return None;
    }
    let block = blocks[rng.below(blocks.len())];
    let mut stones = Vec::new();
    board.for_each_stone(block, |q| stones.push(q));
    Some(GeneratedProblem {
        board,
        target: stones[rng.below(stones.len())],
        to_move,
        escape_libs: 8,
    })
}

/// One random race problem (see [`generate_race`]), not yet checked for
/// solvability.
fn race_candidate(rng: &mut Rng) -> Option<GeneratedProblem> {
    let size = 5 + rng.below(3);
    let want_ban = rng.below(5) < 1;
    // Half of them less dense than the other problems: longer races, with
    // blocks strong enough to wall them in, need room.
    let fill = if rng.below(2) == 0 {
        (55, 80)
    } else {
        (45, 60)
    };
    let (mut board, banned) = random_position_filled(rng, size, want_ban, fill)?;
    let (to_move, defender) = pick_sides(rng, &board, banned);
    let escape_libs = 3 + rng.below(3);
    let near_race = |board: &mut Board, head: Point| {
        race_won(board, head, escape_libs)
            || after_a_move(board, defender, head, |b, h| {
                b.libs(h) < escape_libs && race_won(b, h, escape_libs)
            })
    };
    let blocks: Vec<Point> = blocks_of(&board, defender, 2..=escape_libs - 1)
        .into_iter()
        .filter(|&h| near_race(&mut board, h))
        .collect();
    if blocks.is_empty() {
        return None;
    }
    let block = blocks[rng.below(blocks.len())];
    // Where the rule holds now, mostly let the attacker move, so that the
    // reference checks the rule itself at the start.
    let to_move = if !banned && race_won(&board, block, escape_libs) && rng.below(4) != 0 {
        defender.opp()
    } else {
        to_move
    };
    let mut stones = Vec::new();
    board.for_each_stone(block, |q| stones.push(q));
    Some(GeneratedProblem {
        board,
        target: stones[rng.below(stones.len())],
        to_move,
        escape_libs,
    })
}

/// The player to move and the defender of a new problem. With a ko ban
/// the mover is the banned side, or the ban would not matter.
fn pick_sides(rng: &mut Rng, board: &Board, banned: bool) -> (Color, Color) {
    let to_move = if banned || rng.below(2) == 0 {
        board.to_move()
    } else {
        board.to_move().opp()
    };
    let defender = if rng.below(2) == 0 {
        to_move
    } else {
        to_move.opp()
    };
    (to_move, defender)
}

/// Whether some legal move of `defender` keeps the block at `head` on the
/// board and makes `holds` true of it.
fn after_a_move(
    board: &mut Board,
    defender: Color,
    head: Point,
    holds: impl Fn(&mut Board, Point) -> bool,
) -> bool {
    let points: Vec<Point> = board.points().collect();
    points.into_iter().any(|m| {
        if !board.is_legal(defender, m) {
            return false;
        }
        let undo = board.play(defender, m);
        let ok = board.color_at(head) == Some(defender) && holds(board, head);
        board.undo(&undo);
        ok
    })
}

/// A board of side `size` filled by random legal moves (never filling a
/// player's own true eye) until 55 to 80% of the points hold stones; `None`
/// when the playout does not get there. With `want_ban`, the first ko
/// capture available once the board is dense enough (anywhere in that
/// range) is played as the last move, so the player to move starts under a
/// ko ban; the flag returned says whether that happened.
fn random_position(rng: &mut Rng, size: usize, want_ban: bool) -> Option<(Board, bool)> {
    random_position_filled(rng, size, want_ban, (55, 80))
}

/// [`random_position`] with the share of points holding stones in
/// `percent` (low, high) instead of 55 to 80%.
fn random_position_filled(
    rng: &mut Rng,
    size: usize,
    want_ban: bool,
    percent: (usize, usize),
) -> Option<(Board, bool)> {
    let area = size * size;
    // A stone count in [low%, high%] of the points; a move adds at most one
    // stone, so the playout stops on exactly this count. (A ko capture
    // adds one stone and removes one.)
    let (low, high) = ((area * percent.0).div_ceil(100), area * percent.1 / 100);
    let wanted = low + rng.below(high - low + 1);
    let mut board = Board::new(size);
    let mut legal = PointList::new();
    for _ in 0..4 * area {
        let [b, w] = board.stone_counts();
        let c = board.to_move();
        if want_ban && b + w >= low {
            let kos = ko_captures(&mut board, c, false);
            if !kos.is_empty() {
                board.play(c, kos[rng.below(kos.len())]);
                return Some((board, true));
            }
        }
        if b + w >= if want_ban { high } else { wanted } {
            return Some((board, false));
        }
        board.legal_moves(c, &mut legal);
        legal.retain(|p| !is_true_eye(&board, c, *p));
        let p = if legal.is_empty() {
            PASS
        } else {
            legal[rng.below(legal.len())]
        };
        board.play(c, p);
    }
    None
}

/// The points where `color` captures one stone and leaves a ko ban behind:
/// the ko captures `color` could make now (`ignoring_ban`: or could make
/// but for the current ban).
fn ko_captures(board: &mut Board, color: Color, ignoring_ban: bool) -> Vec<Point> {
    let points: Vec<Point> = board.points().collect();
    let mut out = Vec::new();
    for p in points {
        let ok = if ignoring_ban {
            board.check_ignoring_ko(color, p).is_ok()
        } else {
            board.check(color, p).is_ok()
        };
        if ok && board.is_empty(p) {
            let undo = board.play(color, p);
            if board.ko_point(color.opp()).is_some() {
                out.push(p);
            }
            board.undo(&undo);
        }
    }
    out
}

/// One stone of each block of `color` whose liberty count is in `libs`.
fn blocks_of(board: &Board, color: Color, libs: std::ops::RangeInclusive<usize>) -> Vec<Point> {
    let mut heads = Vec::new();
    for p in board.points() {
        if board.color_at(p) == Some(color)
            && libs.contains(&board.libs(p))
            && !heads.contains(&board.block(p))
        {
            heads.push(board.block(p));
        }
    }
    heads
}

/// Whether some stone of the block on `block` lies within two steps
/// (Manhattan distance) of `spot`.
fn near_block(board: &Board, block: Point, spot: Point) -> bool {
    let s = Board::vertex(spot);
    let mut near = false;
    board.for_each_stone(block, |q| {
        let v = Board::vertex(q);
        near |= v.col.abs_diff(s.col) + v.row.abs_diff(s.row) <= 2;
    });
    near
}

// ---------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::reference::winning_moves;
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

    fn problem(
        board: Board,
        target: Point,
        to_move: Color,
        escape_libs: usize,
    ) -> GeneratedProblem {
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
        println!(
            "sizes 5/6/7: {sizes:?}; attacker to move in {attacker_moves}; ko ban in {banned}"
        );
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
}
