//! NegaScout (Reinefeld 1983) generic over [`Game`], following seed 004
//! (Hsu, "Scout and NegaScout"): the first child gets the full window,
//! every later child a null-window test `(m, m+1)` around the best value
//! `m` so far (never below α); a test that fails high inside the window is
//! re-searched with `(t, β)`. Fail-soft throughout, so a failed test's
//! value is still a bound.
//!
//! Two uses, on the infrastructure of [`super::depth_first`] (fixed-size
//! table, killers, history, evaluation ordering):
//!
//! * **Solver** ([`solve`]): the win/loss/draw search of
//!   [`super::alphabeta`] (values −1/0/+1, no horizon, proven bounds in the
//!   table, [`Game::bound`]) with NegaScout's windows: one search serves
//!   both, so that the two differ only in the windows they give the
//!   children. A node is one call of the search on a position.
//! * **Player** ([`best_move`], [`Player`]): iterative deepening with the
//!   game's evaluation at the horizon, aspiration windows around the last
//!   iteration's score, the table move first, then killers and history.
//!   Scores beyond [`EVAL_MAX`] are proven results (a win at ply p scores
//!   `WIN − p`), so the player also finds forced wins. The seed's shortcut
//!   "no re-search at depth < 3" is taken only next to the horizon (depth 1),
//!   because table bounds make shallow null-window values inexact.

use super::alphabeta::{outcome_of, table_bounds, Search, Solver, PROVEN};
use super::depth_first::{
    check_acyclic, pick_next, table_bytes, Budget, Heuristics, Table, MAX_PLY,
};
use super::{Limits, Report};
use crate::games::{Game, MoveList, Outcome, EVAL_MAX, MAX_MOVES};
use arrayvec::ArrayVec;
use std::hash::Hash;
use std::time::Duration;

/// Solves `game` with NegaScout's windows (see the module doc).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Result<Report<G::Move>, String> {
    check_acyclic(game)?;
    let mut solver = Solver::new(limits);
    Ok(solve_with(&mut solver, game, limits))
}

/// Solves with an existing solver's tables (cleared first).
pub fn solve_with<G: Game>(
    solver: &mut Solver<G::Move>,
    game: &G,
    limits: &Limits,
) -> Report<G::Move> {
    solver.table.clear();
    solver.heuristics.clear();
    let mut s = Search {
        solver,
        budget: Budget::new(limits),
        root_best: None,
    };
    let mut g = game.clone();
    let v = s.search::<G, true>(&mut g, -1, 1, 0);
    let (budget, best) = (s.budget, s.root_best);
    budget.report(|| outcome_of(v), best, solver.bytes())
}

/// Score of a win at the root: a win at ply p scores `WIN − p`.
pub const WIN: i32 = 2 * EVAL_MAX;
/// Scores beyond this are proven results.
const PROVEN_SCORE: i32 = WIN - 2 * MAX_PLY as i32;
/// A proven win of unknown length (from [`Game::bound`]) at ply p scores
/// `BOUND_WIN − p`: below every win of known length.
const BOUND_WIN: i32 = WIN - MAX_PLY as i32;
const INF: i32 = WIN + 1;

/// The score of a node decided without search, from the mover's view: the
/// game is over, or (below the root, where a move must still be named) the
/// game's proven [`Game::bound`]. Shared by the player and `bench search`
/// so that both score ends alike.
pub(crate) fn end_score<G: Game>(g: &G, ply: usize) -> Option<i32> {
    let p = ply as i32;
    if let Some(o) = g.outcome() {
        return Some(match o {
            Outcome::Win => WIN - p,
            Outcome::Loss => -(WIN - p),
            Outcome::Draw => 0,
        });
    }
    if ply == 0 {
        return None;
    }
    g.bound().map(|o| match o {
        Outcome::Win => BOUND_WIN - p,
        Outcome::Loss => -(BOUND_WIN - p),
        Outcome::Draw => 0,
    })
}
/// Half-width of the aspiration window, in evaluation units.
pub(crate) const ASPIRATION: i32 = 64;
/// Deepest iteration.
const MAX_DEPTH: u32 = 200;

/// What the player chose.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    /// The move to play; `None` only when the position is terminal.
    pub best: Option<M>,
    /// Score of the last completed iteration for the player to move
    /// (beyond [`EVAL_MAX`]: proven).
    pub score: i32,
    /// The proven value, when the score proves one.
    pub value: Option<Outcome>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Picks a move for the player to move in `game` within `limits` (a fresh
/// [`Player`]; GTP's `genmove` for games other than Go).
pub fn best_move<G: Game>(game: &G, limits: &Limits) -> Choice<G::Move> {
    Player::new(limits).choose(game, limits)
}

/// A NegaScout player with its tables, reusable across moves.
pub struct Player<M> {
    table: Table<M>,
    heuristics: Heuristics<M>,
}

impl<M: Copy + Eq + Hash> Player<M> {
    pub fn new(limits: &Limits) -> Player<M> {
        let heuristics = Heuristics::new();
        let table = Table::new(table_bytes(limits, heuristics.bytes()));
        Player { table, heuristics }
    }

    /// Iterative deepening until a limit, a proven score or the whole
    /// game; the first iteration always completes so there is a move. The
    /// tables start empty, so a node-limited choice repeats exactly.
    pub fn choose<G: Game<Move = M>>(&mut self, game: &G, limits: &Limits) -> Choice<M> {
        self.table.clear();
        self.heuristics.clear();
        let mut s = PlaySearch {
            table: &mut self.table,
            heuristics: &mut self.heuristics,
            budget: Budget::new(limits),
            root_best: None,
            unlimited: true,
            cut_by_horizon: false,
        };
        let mut g = game.clone();
        let mut choice = Choice {
            best: None,
            score: 0,
            value: None,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if g.outcome().is_some() {
            return choice;
        }
        let mut last: i32 = 0;
        for depth in 1..=MAX_DEPTH {
            s.unlimited = depth == 1;
            s.cut_by_horizon = false;
            let mut score = if depth >= 3 && last.abs() < EVAL_MAX {
                let (a, b) = (last - ASPIRATION, last + ASPIRATION);
                s.search(&mut g, a, b, depth, 0)
            } else {
                s.search(&mut g, -INF, INF, depth, 0)
            };
            if s.budget.stopped.is_some() {
                break;
            }
            if depth >= 3 && last.abs() < EVAL_MAX && (score - last).abs() >= ASPIRATION {
                // Outside the aspiration window: only a bound; search again
                // with the full window for the exact score.
                score = s.search(&mut g, -INF, INF, depth, 0);
                if s.budget.stopped.is_some() {
                    break;
                }
            }
            last = score;
            choice.best = s.root_best;
            choice.score = score;
            choice.depth = depth;
            if score.abs() > PROVEN_SCORE {
                choice.value = Some(if score > 0 {
                    Outcome::Win
                } else {
                    Outcome::Loss
                });
                break;
            }
            if !s.cut_by_horizon {
                // The whole tree was searched: the score is exact.
                choice.value = Some(Outcome::Draw).filter(|_| score == 0);
                break;
            }
        }
        choice.nodes = s.budget.nodes;
        choice.elapsed = s.budget.elapsed();
        choice
    }
}

struct PlaySearch<'s, 'l, M> {
    table: &'s mut Table<M>,
    heuristics: &'s mut Heuristics<M>,
    budget: Budget<'l>,
    root_best: Option<M>,
    /// Ignore the limits (the first iteration).
    unlimited: bool,
    /// Whether this iteration stopped anywhere at the horizon.
    cut_by_horizon: bool,
}

impl<M: Copy + Eq + Hash> PlaySearch<'_, '_, M> {
    fn tick(&mut self) -> bool {
        if self.unlimited {
            self.budget.nodes += 1;
            true
        } else {
            self.budget.count()
        }
    }

    /// Fail-soft NegaScout to `depth` plies with the evaluation at the
    /// horizon.
    fn search<G: Game<Move = M>>(
        &mut self,
        g: &mut G,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        if !self.tick() {
            return 0;
        }
        if let Some(v) = end_score(g, ply) {
            return v;
        }
        let root = ply == 0;
        if depth == 0 || ply + 1 >= MAX_PLY {
            self.cut_by_horizon = true;
            return g.evaluate();
        }
        let key = g.canonical_key();
        let mut tt_move = None;
        if let Some(e) = self.table.probe(key) {
            if !root && e.depth as u32 >= depth {
                let (lo, hi) = (from_table(e.lo, ply), from_table(e.hi, ply));
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            tt_move = e.best;
        }
        let before = self.budget.nodes;
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        let mut keys = ArrayVec::<i64, MAX_MOVES>::new();
        let color = g.to_move();
        self.heuristics
            .order(g, ply, tt_move, &moves, &mut keys, None);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            let undo = g.play(m);
            let v = if i == 0 {
                -self.search(g, -beta, -alpha, depth - 1, ply + 1)
            } else {
                let floor = alpha.max(best);
                let t = -self.search(g, -floor - 1, -floor, depth - 1, ply + 1);
                if t > floor && t < beta && depth > 1 && !self.stopped() {
                    -self.search(g, -beta, -t, depth - 1, ply + 1)
                } else {
                    t
                }
            };
            g.undo(m, undo);
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if root {
                    self.root_best = Some(m);
                }
                if v >= beta {
                    self.heuristics.reward(m, color, ply, depth);
                    break;
                }
            }
        }
        let (lo, hi) = table_bounds(best, alpha0, beta, INF);
        let depth8 = depth.min(PROVEN as u32 - 1) as u8;
        self.table.store(
            key,
            to_table(lo, ply),
            to_table(hi, ply),
            depth8,
            best_move,
            self.budget.nodes - before,
        );
        best
    }

    fn stopped(&self) -> bool {
        !self.unlimited && self.budget.stopped.is_some()
    }
}

/// Proven scores count plies from the root; the table stores them from
/// the node, so that they stay right wherever the node recurs.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN_SCORE && score < INF {
        score + ply as i32
    } else if score < -PROVEN_SCORE && score > -INF {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN_SCORE && score < INF {
        score - ply as i32
    } else if score < -PROVEN_SCORE && score > -INF {
        score + ply as i32
    } else {
        score
    }
}
