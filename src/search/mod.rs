//! The `genmove` player: a game-tree search over Go positions, usable as a
//! library by the GTP front end, the benchmark and tests.
//!
//! The search is NegaScout with iterative deepening (after T.-s. Hsu, "Scout
//! and NegaScout", seed paper 004; see [`negascout`]), a transposition table
//! ([`tt`]), a quiescence search over captures, atari escapes and ladder
//! ataris below the leaves (`quiesce`), and a static evaluation that
//! estimates the area score ([`eval`]) with the help of Benson's
//! unconditional life ([`benson`]) and Bouzy's dilation/erosion territory
//! maps ([`influence`]). On boards up to 9×9 each leaf's value is by
//! default the mean of that and a Monte-Carlo estimate, the mean score of
//! random games played from the leaf ([`mc`]).
//! [`time`] turns GTP's clock commands into a thinking time per move, and
//! [`mod@bench`] is the fixed-work benchmark behind `tesuji bench`.
//!
//! Values are in hundredths of a point of area score ([`eval::UNIT`] per
//! point), from the mover's point of view, komi included: the evaluation at
//! the leaves and the exact score of a game ended by two passes are on this
//! one scale and compared directly.
//!
//! Allocation: [`Player::new`] allocates everything the search needs. After
//! that [`Player::search`] never touches the heap (the root copies the board
//! once, onto the stack); [`Player::genmove`] adds exactly one allocation,
//! the `Vec` of the principal variation in its result.
//! `tests/alloc_genmove.rs` checks both with a counting allocator.

pub mod bench;
pub mod benson;
pub mod eval;
pub mod final_status;
pub mod influence;
pub mod mc;
mod mc_tree;
pub mod mcts;
pub(crate) mod movegen;
pub mod negascout;
pub mod ownership;
pub(crate) mod quiesce;
pub mod random;
pub mod status;
pub mod time;
pub mod tt;

use crate::go::board::{Board, Point};
use crate::go::{Color, Game, KoRule, Move};
use crate::tactics::dfpn::Solver;
use arrayvec::ArrayVec;
use negascout::{Context, Core, Limits, Search, MAX_PLY};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use final_status::dead_stones;
pub use movegen::is_true_eye;

/// What bounds one search. Any combination may be given; the search stops
/// at the first limit reached (the node limit only after completing depth
/// 1). With no limit at all, [`DEFAULT_TIME`] applies.
///
/// `time` is the target that iterative deepening aims at
/// ([`time::start_next_iteration`]); `hard_time`, when given, is the limit
/// at which a running iteration is cut short (without it, `time` is both).
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits {
    pub time: Option<Duration>,
    pub hard_time: Option<Duration>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
}

/// Transposition table of the capture solver that classifies blocks.
const SOLVER_MEGABYTES: usize = 2;

/// Thinking time when [`SearchLimits`] sets no limit.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

impl SearchLimits {
    pub fn depth(d: u32) -> SearchLimits {
        SearchLimits {
            max_depth: Some(d),
            ..SearchLimits::default()
        }
    }

    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            max_nodes: Some(n),
            ..SearchLimits::default()
        }
    }

    pub fn time(t: Duration) -> SearchLimits {
        SearchLimits {
            time: Some(t),
            ..SearchLimits::default()
        }
    }

    /// The time manager's budget for one move.
    pub fn budget(b: time::Budget) -> SearchLimits {
        SearchLimits {
            time: Some(b.soft),
            hard_time: Some(b.hard.max(b.soft)),
            ..SearchLimits::default()
        }
    }
}

/// A search's answer. Plain data with a fixed-capacity principal
/// variation, so returning it allocates nothing.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`Move::Pass` possible). When `resign` is set it is
    /// still the best move found.
    pub best: Move,
    pub resign: bool,
    /// The value of `best` for the mover, in hundredths of a point of area
    /// score with komi ([`eval::UNIT`] per point): positive means the mover
    /// is ahead.
    pub value: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Expected continuation, starting with `best`.
    pub pv: ArrayVec<Move, MAX_PLY>,
}

/// The search engine with its tables; one per game being played.
pub struct Player {
    core: Box<Core>,
    resign_threshold: Option<f64>,
    /// The capture solver behind the root's block verdicts.
    solver: Box<Solver>,
    analysis: bool,
    /// `kgs-genmove_cleanup`: no pass while dead stones of the opponent
    /// remain, and no resignation.
    cleanup: bool,
    /// `Some` while `genmove` is the Monte-Carlo tree search of [`mcts`]
    /// (`tesuji-player mcts`) rather than NegaScout.
    mcts: Option<mcts::Mcts>,
}

/// Whether `color` still has dead stones of the opponent to capture before
/// it may pass in the clean-up phase: those that [`dead_stones`] (the
/// scorer of `final_status_list`) calls dead.
fn cleanup_needed(game: &Game, color: Color) -> bool {
    let board = game.board();
    dead_stones(board)
        .iter()
        .any(|&p| board.color_at(p) == Some(color.opp()))
}

/// Resignation is considered only from this depth on: at depth 1 the
/// opponent has not answered yet and the value is too optimistic to trust,
/// and too pessimistic after a lucky-looking blunder.
const RESIGN_MIN_DEPTH: u32 = 2;

impl Player {
    /// A player with a transposition table of `tt_megabytes` MiB (rounded
    /// down to a power of two, at least 1). Never resigns until
    /// [`Player::set_resign_threshold`] says otherwise.
    pub fn new(tt_megabytes: usize) -> Player {
        let mut solver = Box::new(Solver::new(SOLVER_MEGABYTES));
        status::warm_up(&mut solver);
        Player {
            core: Core::new(tt_megabytes),
            resign_threshold: None,
            solver,
            analysis: true,
            cleanup: false,
            mcts: None,
        }
    }

    /// Resign when the best move's value is below minus this many points
    /// (`None`: never resign).
    pub fn set_resign_threshold(&mut self, points: Option<f64>) {
        self.resign_threshold = points;
    }

    /// Clean-up mode for KGS's `kgs-genmove_cleanup`: while on, `genmove`
    /// never passes as long as the opponent has stones that
    /// [`dead_stones`] calls dead (unless no other move is legal), and never
    /// resigns. The caller turns it off again after the move.
    pub fn set_cleanup(&mut self, on: bool) {
        self.cleanup = on;
    }

    /// Forgets everything learnt in the previous game (table, killers,
    /// history) without reallocating. After it, a search depends only on its
    /// position and limits: node counts are reproducible.
    pub fn new_game(&mut self) {
        self.core.tt.clear();
        self.core.reset_heuristics();
    }

    /// Turns the root's block analysis ([`status`]) on (the default) or
    /// off. Off, the leaves see Benson and the area estimate only, which
    /// the tests' plain alpha-beta reference also uses.
    pub fn set_block_analysis(&mut self, on: bool) {
        self.analysis = on;
    }

    /// Exact leaves on or off (off by default): on, the quiescence search
    /// at every leaf gets the full window and each depth's root value is
    /// its exact minimax value, which tests compare with alpha-beta; off,
    /// it gets the node's window, which is much cheaper (see
    /// `negascout::Core::exact_leaves`).
    pub fn set_exact_leaves(&mut self, on: bool) {
        self.core.exact_leaves = on;
    }

    /// Switches `genmove` to the Monte-Carlo tree search of [`mcts`]
    /// (`true`) or back to NegaScout. The tree's pool is made at its first
    /// move and kept while it stays on.
    pub fn set_mcts(&mut self, on: bool) {
        match (on, self.mcts.is_some()) {
            (true, false) => self.mcts = Some(mcts::Mcts::default()),
            (false, true) => self.mcts = None,
            _ => {}
        }
    }

    /// Random games per leaf for the Monte-Carlo half of the leaf value
    /// ([`mc`]); 0 (the default) leaves the static evaluation alone.
    pub fn set_monte_carlo(&mut self, playouts: u32) {
        self.core.mc.playouts = playouts;
    }

    /// Random games the Monte-Carlo estimate has played since the player
    /// was made, and their moves.
    pub fn playouts(&self) -> (u64, u64) {
        (self.core.mc.games, self.core.mc.moves)
    }

    /// Turns the transposition table on or off (on by default). With it off
    /// the search is plain NegaScout, which tests compare to alpha-beta.
    pub fn set_tt_enabled(&mut self, on: bool) {
        self.core.use_tt = on;
    }

    /// Chooses a move for `color` in `game` (`color` need not be the side to
    /// move: GTP allows either colour to be asked for).
    ///
    /// The move is always legal under the game's ko rule (checked with
    /// [`Game::check_point`]), never fills the mover's own true eye, and is a
    /// pass unless some move is strictly better than passing (the pass is
    /// searched first at the root). Resigns only below the resign threshold
    /// at depth 2 or more and never in the first `2 × size` moves of the
    /// game. Setting `stop` makes the search return soon with the best move
    /// of the last completed iteration. With [`Player::set_mcts`] on, on
    /// boards up to [`mcts::MAX_SIZE`] and out of clean-up mode, the move
    /// comes from [`mcts::Mcts::genmove`] instead.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        limits: &SearchLimits,
        stop: &AtomicBool,
    ) -> SearchResult {
        if let Some(m) = self
            .mcts
            .as_mut()
            .filter(|_| !self.cleanup && game.size() <= mcts::MAX_SIZE)
        {
            // The clean-up phase needs the dead-stone analysis of the
            // NegaScout player.
            return m.genmove(game, color, limits, self.resign_threshold, stop);
        }
        let start = Instant::now();
        let mut board = game.board().clone();
        board.set_to_move(color);
        let previous_pass = game
            .moves()
            .last()
            .is_some_and(|m| m.mv == Move::Pass && m.color == color.opp());
        let ctx = Context {
            komi: (game.komi() * eval::UNIT as f64).round() as i32,
            superko: game.ko_rule() == KoRule::PositionalSuperko,
            history: game.position_hashes(),
            restrict: board.size() >= movegen::RESTRICT_FROM_SIZE,
            previous_pass,
            root_pass: !self.cleanup || !cleanup_needed(game, color),
        };
        let no_limit =
            limits.time.is_none() && limits.max_depth.is_none() && limits.max_nodes.is_none();
        let time = if no_limit {
            Some(DEFAULT_TIME)
        } else {
            limits.time
        };
        self.core.use_status = self.analysis;
        self.core.status.clear();
        if self.analysis {
            // A tenth of the thinking time at most; with no clock only the
            // node budget bounds it, so fixed-depth searches stay
            // reproducible.
            let budget = time.map(|t| t / 10);
            status::analyse(
                &mut self.core.status,
                &mut self.solver,
                &board,
                budget,
                !ctx.root_pass,
                stop,
            );
        }
        // The search's limits count from now: what the clean-up check and
        // the analysis used comes off both, so the hard limit still holds
        // for the whole move.
        let spent = start.elapsed();
        let inner = Limits {
            max_depth: limits.max_depth.unwrap_or(u32::MAX),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            time: time.map(|soft| time::Budget {
                soft: soft.saturating_sub(spent),
                hard: limits
                    .hard_time
                    .unwrap_or(soft)
                    .max(soft)
                    .saturating_sub(spent),
            }),
        };
        let root_legal = |p: Point| game.check_point(color, p).is_ok();
        let outcome = Search::new(&mut self.core, ctx, stop).run(&mut board, &inner, &root_legal);
        debug_assert!(game.check_point(color, outcome.best).is_ok());

        let pv = self
            .core
            .best_pv
            .iter()
            .map(|&p| Board::to_move_value(p as Point))
            .collect();
        let resign = !self.cleanup
            && self.resign_threshold.is_some_and(|t| {
                // With the pass as the only root move (every other point
                // Benson-settled) there is nothing deeper to search.
                (outcome.depth >= RESIGN_MIN_DEPTH || self.core.root.len() == 1)
                    && game.moves().len() >= 2 * board.size()
                    && (outcome.value as f64) < -t * eval::UNIT as f64
            });
        SearchResult {
            best: Board::to_move_value(outcome.best),
            resign,
            value: outcome.value,
            depth: outcome.depth,
            nodes: outcome.nodes,
            elapsed: start.elapsed(),
            pv,
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use crate::go::{Board, Color};

    /// A 5×5 board of black stones but for two true eyes: every move left
    /// fills one of them (black) or is suicide (white), so random games
    /// pass at once and the area score is exact (black 25).
    pub fn two_eyed_board() -> Board {
        board_from(
            "
            XXXXX
            X.X.X
            XXXXX
            XXXXX
            XXXXX",
        )
    }

    /// A square board from a diagram: one line per row, top row first,
    /// `X` black, `O` white, anything else empty. Black to move.
    pub fn board_from(diagram: &str) -> Board {
        let rows: Vec<&str> = diagram
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let n = rows.len();
        let mut b = Board::new(n);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.chars().count(), n, "diagram must be square");
            for (col, ch) in row.chars().enumerate() {
                let c = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                if c.is_some() {
                    b.set_point(Board::point_at(col, n - 1 - i), c);
                }
            }
        }
        b.set_to_move(Color::Black);
        b
    }
}

#[cfg(test)]
mod tests;
