//! The Monte-Carlo tree search player for Go (`tesuji-player mcts`): one
//! UCT tree from the root (Kocsis and Szepesvári, "Bandit based
//! Monte-Carlo planning", ECML 2006) whose choices mix each move's own mean
//! with its all-moves-as-first mean (RAVE: Gelly and Silver, "Combining
//! online and offline knowledge in UCT", ICML 2007), over the random games
//! of [`super::mc`] (MoGo's policy: captures, escapes, 3×3 shapes).
//!
//! Why a second player next to the NegaScout one: the NegaScout search
//! spends the same number of random games on every leaf (128 at each,
//! through a small tree, mixed half and half with the static evaluation,
//! [`super::mc::MC_SHARE`]), so most of its games go to moves that are
//! clearly bad. One tree from the root spends them where the choice is
//! made, and grows as deep as the games allow. At 20 s sudden death on
//! 9×9 against GNU Go level 0 (GNU Go's own count) the NegaScout player
//! loses by 26 points a game, and at 60 s it won 1 game in 100 (session
//! 21). This one, session 23: at 20 s 10 wins in 20 games with RAVE
//! (−16.3 points a game) and 2 in 17 scored games without (−53.5, plain
//! UCB1 with exploration 0.7); at 60 s 46 wins, 49 losses and 5 draws in
//! 100 games, Elo −10 (95% interval −78 to +57), on a machine loaded by
//! other jobs (README, "Players").
//!
//! The games run in batches of [`BATCH`] between looks at the clock and the
//! stop flag (`# interrupt`), a few milliseconds on 9×9. The move is the
//! root child with the most games, among the moves legal under the game's
//! ko rule (the tree itself knows only simple ko). With a game budget
//! instead of a clock (`tesuji-player mcts games=N`) the move depends only
//! on the position and on the tree kept from the player's previous move,
//! if any (below): the games' random generators are seeded with the
//! position's hash and the game's number, so the same commands give the
//! same moves.
//!
//! New children start with a few virtual games from simple knowledge
//! (Gelly and Silver 2007, section 5; [`super::mc_tree`]'s `prior`):
//! captures and escapes from atari high, lone self-ataris and the first
//! two lines of an empty region low, the neighbours of the last move
//! slightly high. After the player's move and the opponent's answer, the
//! subtree below them is kept as the next move's tree when the position
//! is the one the tree expected (checked by replaying the two moves), so
//! its games count again. Session 24, 10 s sudden death against GNU Go
//! level 0, 100 games each, three runs side by side (scored by `tesuji
//! match`'s own rules, no referee; a draw counted half): 44.5% without either, 35.5% with the
//! kept subtree alone, 52.0% with both; each figure ±5% at one standard
//! error, so the kept subtree alone is not shown to help or to hurt. At
//! 60 s the player with both won 76, lost 18 and drew 6 of 100 games
//! against GNU Go level 0, Elo +230 (95% interval +147 to +313), where
//! session 23's, without them and on a loaded machine, went 46–49–5.
//!
//! The tree's pool ([`POOL`] nodes, 32 bytes each) and a second pool of
//! the same size, into which the kept subtree is copied, are allocated at
//! the first move and kept (128 MiB); when the pool is full the tree stops
//! growing and the games go on below its leaves. Nothing allocates per
//! move.

use super::eval::UNIT;
use super::mc_tree::Tree;
use super::{SearchLimits, SearchResult, DEFAULT_TIME};
use crate::go::board::{Board, Point, PASS};
use crate::go::{Color, Game, Move};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The largest board the player plays on; on larger ones `genmove` stays
/// with NegaScout. On 19×19 a move under a 60 s clock gets a few hundred
/// games, fewer than the points of the board: the tree's choice is noise
/// there (it passed on a nearly empty board after 300 ms), and nothing was
/// measured above 9×9.
pub const MAX_SIZE: usize = 9;
/// Nodes in the tree's pool (64 MiB, and as much again for the copy of a
/// kept subtree): a node is expanded on a game's second visit to a leaf,
/// with all its moves as children; on an open 9×9 board the games of
/// session 24 made 17 to 25 nodes each, so there is room for some 80,000
/// games, more than a 60 s game gives a move.
pub const POOL: usize = 1 << 21;
/// Games between two looks at the clock and the stop flag.
const BATCH: u32 = 64;
/// Games below which the player does not resign: the mean of fewer says
/// too little.
const RESIGN_MIN_GAMES: u32 = 1000;

/// The tree and its pool, made at the first move.
#[derive(Default)]
pub struct Mcts {
    tree: Option<Box<Tree>>,
    /// The last search: its root position and the move chosen.
    last: Option<Box<LastSearch>>,
}

/// What [`Mcts::genmove`] needs to know whether the tree it left still
/// holds the position it is asked about.
struct LastSearch {
    board: Board,
    komi: i32,
    played: Point,
    /// Whether `board` and `played` describe a search (false after a
    /// search that chose to resign, or before any).
    valid: bool,
}

impl LastSearch {
    /// The opponent's answer `theirs` when `board` (with `komi`) is the
    /// last search's root after its move and that answer; the board is
    /// replayed to check it, so undo, setup or a new game never reuse a
    /// tree by mistake.
    fn answer(&self, game: &Game, board: &Board, komi: i32) -> Option<Point> {
        let color = board.to_move();
        let [.., mine, theirs] = game.moves() else {
            return None;
        };
        let theirs_point = board.move_point(theirs.mv)?;
        if !self.valid
            || self.komi != komi
            || mine.color != color
            || theirs.color != color.opp()
            || board.move_point(mine.mv) != Some(self.played)
            || (self.played == PASS && theirs_point == PASS)
            || self.board.to_move() != color
            || !self.board.is_legal(color, self.played)
        {
            return None;
        }
        let mut b = self.board.clone();
        b.play(color, self.played);
        if !b.is_legal(color.opp(), theirs_point) {
            return None;
        }
        b.play(color.opp(), theirs_point);
        (b.hash() == board.hash()
            && b.to_move() == color
            && b.ko_point(color) == board.ko_point(color))
        .then_some(theirs_point)
    }
}

impl Mcts {
    /// Chooses a move for `color` in `game`. `limits.max_nodes` is a
    /// number of games (the search stops at the first multiple of
    /// [`BATCH`] at or above it); `limits.time` the thinking time; with
    /// neither, [`DEFAULT_TIME`]. `max_depth` does not apply.
    /// `resign_threshold`: resign when the mean score of the games is
    /// below minus this many points (only from move `2 × size` on).
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        limits: &SearchLimits,
        resign_threshold: Option<f64>,
        stop: &AtomicBool,
    ) -> SearchResult {
        let start = Instant::now();
        let tree = self
            .tree
            .get_or_insert_with(|| Box::new(Tree::with_nodes(POOL, true)));
        let mut board = game.board().clone();
        board.set_to_move(color);
        let komi = (game.komi() * f64::from(UNIT)).round() as i32;
        // With no move yet, `PASS` only tells the random games that there
        // is no last move to answer.
        let previous = game.moves().last();
        let last = previous
            .and_then(|m| board.move_point(m.mv))
            .unwrap_or(PASS);
        let after_pass = previous.is_some_and(|m| m.mv == Move::Pass && m.color == color.opp());
        let time = match (limits.time, limits.max_nodes) {
            (None, None) => Some(DEFAULT_TIME),
            (t, _) => t,
        };
        let max_games = limits
            .max_nodes
            .map_or(u32::MAX, |n| n.min(u64::from(u32::MAX)) as u32);
        let state = self.last.get_or_insert_with(|| {
            Box::new(LastSearch {
                board: Board::new(1),
                komi: 0,
                played: PASS,
                valid: false,
            })
        });
        let kept = state
            .answer(game, &board, komi)
            .is_some_and(|theirs| tree.keep_subtree(state.played, theirs));
        if !kept {
            tree.reset(last, after_pass);
        }
        let kept_games = tree.root_games();
        state.valid = false;
        let mut games = 0u32;
        let mut black_sum = 0.0;
        loop {
            let (sum, _) = tree.play_games(&board, komi, last, games..games.saturating_add(BATCH));
            black_sum += sum;
            games = games.saturating_add(BATCH);
            if games >= max_games
                || time.is_some_and(|t| start.elapsed() >= t)
                || stop.load(Ordering::Relaxed)
            {
                break;
            }
        }
        let legal = |p: Point| p == PASS || game.check_point(color, p).is_ok();
        let mut best = PASS;
        let mut most = 0;
        for (p, visits) in tree.root_children() {
            if visits > most && legal(p) {
                best = p;
                most = visits;
            }
        }
        let mean = black_sum / f64::from(games);
        let value = (mean * f64::from(UNIT)).round() as i32;
        let value = match color {
            Color::Black => value,
            Color::White => -value,
        };
        let resign = resign_threshold.is_some_and(|t| {
            games >= RESIGN_MIN_GAMES
                && game.moves().len() >= 2 * board.size()
                && f64::from(value) < -t * f64::from(UNIT)
        });
        if !resign {
            state.board.clone_from(&board);
            state.komi = komi;
            state.played = best;
            state.valid = true;
        }
        let mut pv = ArrayVec::new();
        for p in tree.principal_variation() {
            if pv.is_full() {
                break;
            }
            pv.push(Board::to_move_value(p));
        }
        if pv.first() != Some(&Board::to_move_value(best)) {
            // The ko rule took the tree's favourite away: its line says
            // nothing about the move played.
            pv.clear();
            pv.push(Board::to_move_value(best));
        }
        log::debug!(
            "mcts: {games} games ({kept_games} kept), {} tree nodes",
            tree.used()
        );
        SearchResult {
            best: Board::to_move_value(best),
            resign,
            value,
            depth: pv.len() as u32,
            nodes: u64::from(games),
            elapsed: start.elapsed(),
            pv,
        }
    }
}

#[cfg(test)]
mod tests;
