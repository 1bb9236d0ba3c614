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

use super::kolife::target_ko_lives;
use super::life::target_lives;
use super::race::race_won;
use super::reference::solve_exhaustive;
use super::rules::{CaptureGame, KoModel, Problem, Winner};
use crate::go::board::{Board, Point, PointList, PASS};
use crate::go::playout::{is_true_eye, Rng};
use crate::go::Color;

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

/// `count` ko-life problems, the same for the same `seed`: like
/// [`generate_life`], but the target lives by the ko eyes of
/// [`crate::tactics::kolife`] and not by Benson's criterion: with the
/// defender favoured by the ko model and the attacker to move, the rule
/// says the defender wins. Mostly the attacker is to move, so that the
/// reference (which knows nothing of the rule) checks the rule itself at
/// the start; the boards are dense, so that it can read every line out.
/// With the reference's solutions.
pub fn generate_ko_life(seed: u64, count: usize) -> Vec<(GeneratedProblem, Solutions)> {
    generate_kind(seed, count, ko_life_candidate)
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
    let target = random_stone(rng, &board, block);
    Some(GeneratedProblem {
        board,
        target,
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
    let target = random_stone(rng, &board, block);
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
    let target = random_stone(rng, &board, block);
    Some(GeneratedProblem {
        board,
        target,
        to_move,
        escape_libs: 8,
    })
}

/// One random ko-life problem (see [`generate_ko_life`]), not yet checked
/// for solvability.
fn ko_life_candidate(rng: &mut Rng) -> Option<GeneratedProblem> {
    let size = 5 + rng.below(2);
    let (board, _) = random_position_filled(rng, size, false, (70, 90))?;
    let defender = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    let blocks: Vec<Point> = blocks_of(&board, defender, 2..=4)
        .into_iter()
        .filter(|&h| target_ko_lives(&board, h, None) && !target_lives(&board, h, None))
        .collect();
    if blocks.is_empty() {
        return None;
    }
    let block = blocks[rng.below(blocks.len())];
    let to_move = if rng.below(4) == 0 {
        defender
    } else {
        defender.opp()
    };
    let target = random_stone(rng, &board, block);
    Some(GeneratedProblem {
        board,
        target,
        to_move,
        escape_libs: 8,
    })
}

/// One of the stones of the block on `block`, at random.
fn random_stone(rng: &mut Rng, board: &Board, block: Point) -> Point {
    let mut stones = Vec::new();
    board.for_each_stone(block, |q| stones.push(q));
    stones[rng.below(stones.len())]
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
    let target = random_stone(rng, &board, block);
    Some(GeneratedProblem {
        board,
        target,
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

mod check;
#[cfg(test)]
mod tests;

pub use check::{check_solver, CheckReport, Failure, FailureKind, SolverAnswer};
