//! A Monte-Carlo estimate of the final area score, for the leaves of the
//! player's search: the mean score of a few random games played to the
//! end from the leaf (B. Brügmann, "Monte Carlo Go", 1993; B. Bouzy and
//! B. Helmstetter, "Monte-Carlo Go developments", ACG 10, 2003, who put
//! such an evaluation under a shallow minimax search).
//!
//! The static estimate of [`super::eval`] reads territory off the stones
//! near each point, and on an open 9×9 board it sees nothing in a wall
//! facing an empty side: it preferred crawling on the second line to
//! building one, and lost by 50 points a game to GNU Go level 0. Random
//! games to the end see the whole board: a side that the wall faces is won
//! by the wall's owner in most of them.
//!
//! The random games follow the policy of MoGo's (Gelly, Wang, Munos and
//! Teytaud, "Modification of UCT with patterns in Monte-Carlo Go", 2006):
//! capture a block in atari when there is one, else save an own block in
//! atari when its liberty gives it two or more, else answer the last move
//! with one of the 3×3 shapes next to it ([`pattern3`]: hane, cuts, edge
//! blocks), else a uniformly random legal move that does not fill the
//! mover's own eye and is not a self-atari of two stones or more (with
//! none left the mover passes); the game ends after two passes. A
//! playout's random generator is seeded with the leaf's hash and the
//! playout's number, so a leaf reached by the same last move always gets
//! the same value (the search's node counts stay reproducible).
//!
//! The games are not all started from the leaf: a small UCT tree under
//! the leaf ([`super::mc_tree`]) chooses their first moves, trying each
//! legal move and then favouring those that did best, and the estimate
//! is the mean score of all the games through the tree.
//! [`McEval::tree`] set to `None` gives the flat mean of games all played
//! from the leaf, which the tests compare with.
//!
//! The player averages this estimate with the static one (see
//! [`MC_SHARE`]); it is on by default on boards up to 9×9.
//!
//! Playouts run on a scratch copy of the board (no undo stack); nothing
//! allocates.

use super::eval::UNIT;
use super::mc_tree::Tree;
use crate::go::board::{Board, Point, BLACK, EMPTY, PASS, WHITE};
use crate::go::pattern3;
use crate::go::playout::{random_move, Rng};
use crate::go::Color;
use arrayvec::ArrayVec;

/// Percent of a leaf's value that the estimate makes up; the quiescence
/// search over the static evaluation makes the rest. The static side
/// knows what random games do not: Benson life, the solver's verdicts on
/// the blocks, blocks in atari at the leaf.
///
/// Tuning: games at 20 s sudden death on 9×9, komi 7, against GNU Go
/// level 0, scored by mean margin with GNU Go's own count of each finished
/// game (its `final_score`; a resignation counts 81). tesuji's own count
/// is kinder to itself where dead stones are disputed, so these are a few
/// points worse than margins counted by tesuji. Runs of 20 games unless
/// said; several runs of one setting are listed apart:
///
/// | leaf value | mean margins |
/// |---|---|
/// | static evaluation alone | −63.2 |
/// | 64 games, 50%, no shapes | −49.6, −35.0, −42.2 (10 games) |
/// | 64 games, 50%, shapes | −50.4 |
/// | 64 games, 75%, no shapes | −69.5 |
/// | 128 games, 35%, no shapes | −50.1 |
/// | 128 games, 50%, no shapes | −35.9, −40.9 |
/// | 128 flat games, 50%, shapes (the default before the tree) | −37.5, −37.8 |
/// | 128 games, 75%, shapes | −41.0 |
/// | 128 games alone (100%), shapes | −62.8 |
/// | 256 games, 50%, no shapes | −45.8 |
/// | depth 1 only (30 s clock), 300 flat games, 50%, shapes | −42.9 |
/// | **128 games through the tree** ([`super::mc_tree`]), 50%, shapes (the default) | −33.9, −27.8 (18 games) |
/// | depth 1 only (30 s clock), 300 games through the tree | −31.5 (19 games) |
/// | depth 1 only (60 s clock), 400 games through the tree | −27.3 |
/// | session 22, the default again | −26.1 (38 games) |
/// | 128 games through the tree with RAVE (see [`super::mc_tree`]) | −35.9, −29.7 (40 games) |
/// | 256 games through the tree with RAVE | −35.4 |
/// | 128 games through the tree, UCB1 exploration 0.4 / 1.0 (the default 0.7) | −38.3 / −38.4 |
/// | depth 1 only (60 s clock), 400 games through the tree, plain / RAVE | −35.5 / −33.4 |
/// | 128 games through the tree, 75%, plain / RAVE | −41.9 / −40.5 |
/// | 128 games through the tree, 25%, plain / RAVE | −49.9 / −54.5 |
///
/// The first four runs through the tree average −30.2 over 77 games,
/// against −38.1 over 79 for the flat 128; no flat run did as well as the tree's
/// worst. At depth 1 alone, with the same 300 games a leaf, the tree
/// gained 11 points over the flat mean.
///
/// The spread between runs of one setting is about ±7, so half and half
/// is only clearly better than the static evaluation alone, the random
/// games alone, 75% with 64 games and, with the tree, 25% and 75% (session
/// 22's runs, on a machine shared with a solver run; each pair ran at
/// the same time). The shapes of [`pattern3`] made no
/// difference that these runs can see; they stay as MoGo's policy.
pub(crate) const MC_SHARE: i32 = 50;

/// Random games per leaf on boards up to [`DEFAULT_MAX_SIZE`] unless the
/// user says otherwise (`--mc`, `tesuji-player search mc=N`). Each of the
/// four runs with 128 (table at [`MC_SHARE`]) lost by less on average than
/// the runs with 64 (−38.1 against −44.6 over 79 and 70 games) or 256:
/// one random game's score varies by about 43 points (measured on the
/// first moves of 9×9), so with 64 games a leaf's estimate is off by some
/// 5 points and the search picks moves by that noise. With 256 (about 140
/// leaves a second) a move at 20 s has time for fewer leaves than the
/// first ply has moves.
/// These counts were tuned for the flat mean; with the tree 128 was kept
/// and not tuned again.
pub const DEFAULT_PLAYOUTS: u32 = 128;
/// Largest board on which the estimate is on by default. It was measured on
/// 9×9 only; on 19×19 one random game is about five times as long, and the
/// first iteration of the search would not end within a fast game's move.
pub const DEFAULT_MAX_SIZE: usize = 9;

/// Random games per leaf for a board of side `size`: `chosen` when the
/// user chose, else the default above.
pub fn playouts_for(size: usize, chosen: Option<u32>) -> u32 {
    chosen.unwrap_or(if size <= DEFAULT_MAX_SIZE {
        DEFAULT_PLAYOUTS
    } else {
        0
    })
}

/// Most random games per leaf accepted: beyond it one leaf takes longer
/// than a whole move of a fast game.
pub const MAX_PLAYOUTS: u32 = 10_000;

/// Scratch state of the evaluation, owned by the search core.
pub(crate) struct McEval {
    scratch: Board,
    /// Playouts per leaf; 0 turns the estimate off.
    pub playouts: u32,
    /// Random games played, and moves played in them, since the player was
    /// made (the search counts them apart from its nodes).
    pub games: u64,
    pub moves: u64,
    /// The tree that spends a leaf's games ([`super::mc_tree`]); `None`
    /// plays them all from the leaf (the flat estimate, kept for tests
    /// that compare the two).
    pub tree: Option<Box<Tree>>,
}

impl McEval {
    pub fn new() -> McEval {
        McEval {
            scratch: Board::new(1),
            playouts: 0,
            games: 0,
            moves: 0,
            tree: Some(Box::new(Tree::new())),
        }
    }

    /// The mean area score, komi (`komi`, in [`UNIT`]s) included, of
    /// `self.playouts` random games from `b`, for the side to move in `b`.
    /// `last` is the move that led to `b` (`PASS` when there was none):
    /// the first random move may answer it.
    pub fn value(&mut self, b: &Board, komi: i32, last: Point) -> i32 {
        let n = self.playouts.max(1);
        self.games += u64::from(n);
        if let Some(tree) = self.tree.as_mut() {
            let (v, moves) = tree.value(b, komi, last, n);
            self.moves += moves;
            return v;
        }
        let mut sum: i64 = 0;
        for i in 0..n {
            self.scratch.clone_from(b);
            let mut rng = game_rng(b, i);
            self.moves += play_out(&mut self.scratch, &mut rng, last) as u64;
            sum += i64::from(black_area(&self.scratch));
        }
        let black = (sum * i64::from(UNIT) / i64::from(n)) as i32 - komi;
        match b.to_move() {
            Color::Black => black,
            Color::White => -black,
        }
    }
}

/// Plays one random game on `b` to its end (two passes in a row, or a
/// move limit that only a cycle of kos reaches) by the policy described in
/// the module doc, starting with the side to move in `b`. `last` is the
/// move that led to `b` (`PASS` when there was none): the first random
/// move may answer it. Returns the number of moves played. No undo record
/// is kept and nothing allocates; [`super::ownership`] plays its games
/// with it too.
pub(crate) fn play_out(b: &mut Board, rng: &mut Rng, last: Point) -> usize {
    play_out_seen(b, rng, last, |_, _| {})
}

/// [`play_out`], telling `seen` each move as it is played (the tree's
/// all-moves-as-first statistics, [`super::mc_tree`]).
pub(crate) fn play_out_seen(
    b: &mut Board,
    rng: &mut Rng,
    mut last: Point,
    mut seen: impl FnMut(Color, Point),
) -> usize {
    let size = b.size();
    let n = size * size;
    // Long enough for every real game; a cycle of kos stops here.
    let max_moves = 3 * n;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let color = b.to_move();
        // A self-atari of two stones or more is almost always a
        // blunder; random games full of them misjudge every group.
        // (When nothing else is left the mover passes, which also
        // keeps a seki alive.)
        let p = urgent(b, color)
            .or_else(|| answer(b, color, last, rng))
            .unwrap_or_else(|| random_move(b, color, rng, |b, p| big_self_atari(b, color, p)));
        passes = if p == PASS { passes + 1 } else { 0 };
        last = p;
        // No undo: the scratch board is overwritten by the next game.
        b.play(color, p);
        seen(color, p);
        moves += 1;
    }
    moves
}

/// The random generator of game `i` from position `b`: the same position
/// always gets the same games, so the search's node counts repeat.
pub(crate) fn game_rng(b: &Board, i: u32) -> Rng {
    Rng::new(b.hash() ^ (u64::from(i) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Whether `color` at `p` leaves a new block of two stones or more in
/// atari: almost always a blunder, which random games must not play.
pub(crate) fn big_self_atari(b: &Board, color: Color, p: Point) -> bool {
    matches!(b.after_stone(color, p), Some((1, s)) if s >= 2)
}

/// A capture of an enemy block in atari, else the escape of an own block
/// in atari to two liberties or more.
fn urgent(b: &Board, color: Color) -> Option<Point> {
    let mut found = None;
    b.for_each_atari_block(color.opp(), |h| {
        if found.is_none() {
            if let Some(l) = b.first_liberty(h) {
                if b.is_legal(color, l) {
                    found = Some(l);
                }
            }
        }
    });
    if found.is_some() {
        return found;
    }
    b.for_each_atari_block(color, |h| {
        if found.is_none() {
            if let Some(l) = b.first_liberty(h) {
                if matches!(b.after_stone(color, l), Some((libs, _)) if libs >= 2) {
                    found = Some(l);
                }
            }
        }
    });
    found
}

/// A point next to `last` (orthogonally or diagonally) whose surrounding
/// is one of the shapes of [`pattern3`], chosen at random among them; not
/// one that leaves the mover's new block in atari.
fn answer(b: &Board, color: Color, last: Point, rng: &mut Rng) -> Option<Point> {
    if last == PASS {
        return None;
    }
    let mut found = ArrayVec::<Point, 8>::new();
    for q in Board::neighbors(last)
        .into_iter()
        .chain(Board::diagonals(last))
    {
        if b.is_empty(q)
            && pattern3::matches(b, q)
            && b.is_legal(color, q)
            && !matches!(b.after_stone(color, q), Some((1, _)))
        {
            found.push(q);
        }
    }
    match found.len() {
        0 => None,
        n => Some(found[rng.below(n)]),
    }
}

/// Black's stones and eyes minus white's, for a board played to the end:
/// an empty point counts for the colour of its neighbours when they are
/// all one colour.
pub(crate) fn black_area(b: &Board) -> i32 {
    b.points().map(|p| area_owner(b, p)).sum()
}

/// Who owns point `p` of a board played to the end: 1 for black, -1 for
/// white, 0 for neither. A stone's point is its colour's; an empty point is
/// the colour of its neighbours when they are all one colour.
pub(crate) fn area_owner(b: &Board, p: Point) -> i32 {
    match b.cell(p) {
        BLACK => 1,
        WHITE => -1,
        EMPTY => {
            let mut seen = 0u8;
            for q in Board::neighbors(p) {
                match b.cell(q) {
                    BLACK => seen |= 1,
                    WHITE => seen |= 2,
                    _ => {}
                }
            }
            match seen {
                1 => 1,
                2 => -1,
                _ => 0,
            }
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::{board_from, two_eyed_board};

    /// The flat estimate (the tree has its own tests in `mc_tree`).
    fn mc(playouts: u32) -> McEval {
        let mut m = McEval::new();
        m.tree = None;
        m.playouts = playouts;
        m
    }

    #[test]
    fn a_settled_board_scores_exactly_for_either_side() {
        let mut b = two_eyed_board();
        let mut m = mc(8);
        assert_eq!(m.value(&b, 700, PASS), 2500 - 700);
        assert_eq!(m.moves, 16, "two passes per playout");
        b.set_to_move(Color::White);
        assert_eq!(m.value(&b, 700, PASS), -(2500 - 700));
    }

    #[test]
    fn a_block_in_atari_is_captured_by_the_side_to_move() {
        let b = board_from(
            "
            .XXX.
            XOOOX
            XOOO.
            XOOOX
            .XXX.",
        );
        // Black takes the nine stones in every random game and owns the
        // board, whatever follows at random.
        let v = mc(16).value(&b, 0, PASS);
        assert!(v > 15 * UNIT, "{v}");
    }

    #[test]
    fn the_same_leaf_gets_the_same_value() {
        let b = board_from(
            "
            .........
            .........
            ..O...O..
            .........
            ....X....
            .........
            ..X...X..
            .........
            .........",
        );
        let (mut m1, mut m2) = (mc(20), mc(20));
        let v = m1.value(&b, 700, PASS);
        assert_eq!(v, m2.value(&b, 700, PASS));
        assert_eq!(m1.moves, m2.moves);
        assert!(v > -81 * UNIT && v < 81 * UNIT);
    }

    #[test]
    fn a_move_is_answered_with_a_shape_next_to_it() {
        let b = board_from(
            "
            .....
            .XO..
            .....
            .....
            .....",
        );
        let at = |col: usize, row_from_top: usize| Board::point_at(col, 4 - row_from_top);
        let last = at(2, 1);
        // Either hane, above or below the pair.
        let shapes = [at(1, 0), at(2, 0), at(1, 2), at(2, 2)];
        let mut seen = [false; 4];
        for seed in 1..=64 {
            let p = answer(&b, Color::Black, last, &mut Rng::new(seed)).expect("a hane");
            let i = shapes
                .iter()
                .position(|&q| q == p)
                .expect("one of the hanes");
            seen[i] = true;
        }
        assert_eq!(seen, [true; 4], "each hane is chosen sometimes");
        assert_eq!(answer(&b, Color::Black, PASS, &mut Rng::new(1)), None);
        // A lone stone has no shape around it.
        let lone = board_from(
            "
            .....
            .....
            ..X..
            .....
            .....",
        );
        assert_eq!(
            answer(&lone, Color::White, at(2, 2), &mut Rng::new(1)),
            None
        );
    }
}
