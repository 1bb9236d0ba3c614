//! α-β solver: the baseline of Saffidine & Cazenave's comparison (seed
//! 001: "αβ enhanced with transposition tables, killer moves, the history
//! heuristic and an evaluation function"), generic over [`Game`].
//!
//! # What it searches
//!
//! A solver wants the exact game value, so this is a *pure
//! win/loss/draw search*: values are −1 (loss), 0 (draw), +1 (win) for the
//! player to move and every branch runs to the end of the game (the games
//! here are finite and never repeat a position, see [`Game::repeats`]).
//! There is no horizon, so every bound in the table is a proven bound and
//! needs no depth. The evaluation function only orders moves (it is what
//! makes α-β cut early), with the table move, two killers per ply and the
//! history heuristic in front of it and breaking its ties
//! ([`Heuristics::order`]). [`Game::bound`] ends a branch early when the
//! game proves its value without search (Domineering's safe moves), and a
//! one-ply look-ahead while ordering finds a child already lost for the
//! opponent (an enhanced transposition cutoff on the bound).
//!
//! The full window (−1, +1) gives the exact value; in a game without draws
//! every answer is ±1 and the search is a boolean one.
//!
//! A **node** is one call of the search on a position: terminal positions,
//! positions decided by the bound or the table included.

use super::depth_first::{
    check_acyclic, pick_next, table_bytes, work_of, Budget, Heuristics, Table,
};
use super::{Limits, Report};
use crate::games::{Game, MoveList, Outcome, MAX_MOVES};
use arrayvec::ArrayVec;

/// Depth stored with proven entries.
pub const PROVEN: u8 = u8::MAX;

pub fn value_of(o: Outcome) -> i32 {
    match o {
        Outcome::Win => 1,
        Outcome::Loss => -1,
        Outcome::Draw => 0,
    }
}

pub fn outcome_of(v: i32) -> Outcome {
    match v.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// An α-β solver with its tables; reusable across solves.
pub struct Solver<M> {
    pub(crate) table: Table<M>,
    pub(crate) heuristics: Heuristics<M>,
}

impl<M: Copy + Eq + std::hash::Hash> Solver<M> {
    /// Allocates the tables within `limits.memory`.
    pub fn new(limits: &Limits) -> Solver<M> {
        let heuristics = Heuristics::new();
        let table = Table::new(table_bytes(limits, heuristics.bytes()));
        Solver { table, heuristics }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.heuristics.bytes()
    }

    /// Solves `game` from scratch (tables cleared, so runs repeat).
    pub fn solve<G: Game<Move = M>>(&mut self, game: &G, limits: &Limits) -> Report<M> {
        self.table.clear();
        self.heuristics.clear();
        let mut search = Search {
            solver: self,
            budget: Budget::new(limits),
            root_best: None,
        };
        let mut g = game.clone();
        let v = search.search::<G, false>(&mut g, -1, 1, 0);
        let (budget, best) = (search.budget, search.root_best);
        budget.report(|| outcome_of(v), best, self.bytes())
    }
}

/// Solves `game` with a fresh α-β solver.
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Result<Report<G::Move>, String> {
    check_acyclic(game)?;
    Ok(Solver::new(limits).solve(game, limits))
}

pub(crate) struct Search<'s, 'l, M> {
    pub(crate) solver: &'s mut Solver<M>,
    pub(crate) budget: Budget<'l>,
    pub(crate) root_best: Option<M>,
}

impl<M: Copy + Eq + std::hash::Hash> Search<'_, '_, M> {
    /// Fail-soft α-β, or with `SCOUT` NegaScout's windows
    /// ([`super::negascout`]); the value for the player to move, or 0 (to
    /// be ignored) once a limit stopped the search.
    pub(crate) fn search<G: Game<Move = M>, const SCOUT: bool>(
        &mut self,
        g: &mut G,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if !self.budget.count() {
            return 0;
        }
        if let Some(o) = g.outcome() {
            return value_of(o);
        }
        let root = ply == 0;
        let nodes_before = self.budget.nodes;
        // At the root the moves are always searched, for a best move.
        if !root {
            if let Some(o) = g.bound() {
                return value_of(o);
            }
        }
        let key = g.canonical_key();
        let mut tt_move = None;
        if let Some(e) = self.solver.table.probe(key) {
            if !root {
                if e.lo >= beta || e.lo == e.hi {
                    return e.lo;
                }
                if e.hi <= alpha {
                    return e.hi;
                }
                alpha = alpha.max(e.lo);
                beta = beta.min(e.hi);
            }
            tt_move = e.best;
        }
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        let mut keys = ArrayVec::<i64, MAX_MOVES>::new();
        let color = g.to_move();
        if let Some(m) = self.solver.heuristics.order(
            g,
            ply,
            tt_move,
            &moves,
            &mut keys,
            Some(&self.solver.table),
        ) {
            if root {
                self.root_best = Some(m);
            }
            self.solver.table.store(key, 1, 1, PROVEN, Some(m), 1);
            return 1;
        }
        let alpha0 = alpha;
        let mut best = -2;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            let undo = g.play(m);
            // Every child's window starts at the best value so far (α-β's
            // raised α); NegaScout tests the later children with a null
            // window first and re-searches one that fails high inside it.
            let floor = alpha.max(best);
            let v = if !SCOUT || i == 0 {
                -self.search::<G, SCOUT>(g, -beta, -floor, ply + 1)
            } else {
                let t = -self.search::<G, SCOUT>(g, -floor - 1, -floor, ply + 1);
                if t > floor && t < beta && self.budget.stopped.is_none() {
                    -self.search::<G, SCOUT>(g, -beta, -t, ply + 1)
                } else {
                    t
                }
            };
            g.undo(m, undo);
            if self.budget.stopped.is_some() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if root {
                    self.root_best = Some(m);
                }
                if v >= beta {
                    let size = work_of(self.budget.nodes - nodes_before);
                    self.solver.heuristics.reward(m, color, ply, size as u32);
                    break;
                }
            }
        }
        let (lo, hi) = table_bounds(best, alpha0, beta, 1);
        let nodes = self.budget.nodes - nodes_before;
        self.solver
            .table
            .store(key, lo, hi, PROVEN, best_move, nodes);
        best
    }
}

/// The table bounds a fail-soft search proved: `best` is a lower bound if
/// it failed high, an upper bound if it failed low (at or below the
/// original `alpha0`), else exact; `inf` is the search's infinity.
pub(crate) fn table_bounds(best: i32, alpha0: i32, beta: i32, inf: i32) -> (i32, i32) {
    if best >= beta {
        (best, inf)
    } else if best <= alpha0 {
        (-inf, best)
    } else {
        (best, best)
    }
}
