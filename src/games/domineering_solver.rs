//! A Domineering-specific solver: the default of `tesuji solve --game
//! domineering:RxC` (the generic solvers stay behind `--algo`).
//!
//! It follows the design of Bullock's Obsequi ("Domineering: Solving Large
//! Combinatorial Search Spaces", MSc thesis, Alberta 2002) and of Breuker,
//! Uiterwijk & van den Herik's DOMI ("Solving 8×8 Domineering", TCS 2000):
//! a boolean negamax (does the player to move win?) where
//!
//! * the proven race bound of [`Domineering`] (safe, protective and
//!   vulnerable moves against the opponent's most moves, see
//!   [`Domineering::race_bound`]) decides nodes without search;
//! * a look-ahead tests the best [`LOOKAHEAD`] children, in move order,
//!   for a loss of the opponent (no move left, the loss half of the race,
//!   or near the root a proven entry of the table) before any is searched,
//!   and tells those children that their loss half was already tried, so
//!   that no race is run twice;
//! * a transposition table holds proven results, keyed by the board's
//!   mirror images ([`Game::canonical_key`]), in two-slot buckets with the
//!   *TwoBig* replacement scheme (Breuker et al.); every entry is exact,
//!   so a hit ends the node;
//! * moves are ordered without playing them: killers (two per ply), then
//!   how many opposing moves the domino destroys, how many of the mover's
//!   own it spoils, and how many cells it makes or costs that the other
//!   side can never cover, with the history heuristic (Schaeffer 1989)
//!   breaking ties.
//!
//! Compared with the generic α-β on this game, which runs the loss half of
//! the race on every child to order them, this runs a few races per node:
//! on 7×7 (16 MB table), 162,853 nodes and 1.34·10⁹ instructions against
//! 186,957 nodes and 3.08·10⁹ instructions (callgrind). On 8×8, 87.7
//! million nodes, about 100 s of CPU: the race costs some 1,600
//! instructions, and most of a node's 8,000 go to the few races it runs.
//!
//! Nothing is allocated after [`Solver::new`].

use super::Domineering;
use crate::games::{Color, Game, MoveList, Outcome, MAX_MOVES};
use crate::solve::buckets::{Buckets, Slot};
use crate::solve::depth_first::{pick_next, work_of, Budget, DEFAULT_MEMORY, MAX_PLY};
use crate::solve::{Limits, Report};
use arrayvec::ArrayVec;

/// The solver's name in result lines (`algo=domineering`).
pub const NAME: &str = "domineering";

/// One table entry: a proven result for the player to move.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// 1 + log2 of the subtree's node count; 0 marks an empty slot.
    work: u8,
    win: bool,
    /// The winning move, `NO_MOVE` if none. Only the root's own entry is
    /// ever read for it (elsewhere a hit ends the node), so it needs no
    /// mapping between mirror images.
    best: u8,
}

const NO_MOVE: u8 = u8::MAX;

/// How many children, best first, the look-ahead tests for a static loss
/// before any is searched: more find more immediate wins but cost a race
/// each at nodes that cut anyway (8 took the fewest instructions on 7×7
/// and 8×6 among 2, 4, 6, 8, 12 and all).
const LOOKAHEAD: usize = 8;

/// Plies near the root where the look-ahead also probes the table for
/// each child (an enhanced transposition cutoff): deeper, the cache misses
/// cost more than the rare cutoffs save.
const ETC_PLIES: usize = 8;

impl Slot for Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        work: 0,
        win: false,
        best: NO_MOVE,
    };
    fn key(&self) -> u64 {
        self.key
    }
    fn work(&self) -> u8 {
        self.work
    }
}

/// The Domineering solver with its tables; reusable across solves.
pub struct Solver {
    /// Proven results (TwoBig replacement: the first slot of a bucket
    /// keeps the bigger subtree, the second takes what the first rejects).
    table: Buckets<Entry>,
    killers: Vec<[u8; 2]>,
    /// History scores by `color * 128 + cell`.
    history: Vec<u32>,
}

/// What one solve carries along.
struct Search<'s, 'l> {
    solver: &'s mut Solver,
    budget: Budget<'l>,
    root_best: Option<u8>,
}

impl Solver {
    /// Allocates the table within `limits.memory` (default 128 MiB).
    pub fn new(limits: &Limits) -> Solver {
        let bytes = limits.memory.unwrap_or(DEFAULT_MEMORY).max(1 << 12);
        Solver {
            table: Buckets::new(bytes),
            killers: vec![[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; 256],
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.killers.len() * 2 + self.history.len() * 4
    }

    /// Solves `game` for the player to move from scratch (tables cleared,
    /// so runs repeat exactly).
    pub fn solve(&mut self, game: &Domineering, limits: &Limits) -> Report<u8> {
        self.table.clear();
        self.killers.fill([NO_MOVE; 2]);
        self.history.fill(0);
        let mut search = Search {
            solver: self,
            budget: Budget::new(limits),
            root_best: None,
        };
        let mut g = *game;
        let win = search.search(&mut g, 0, false);
        let (budget, best) = (search.budget, search.root_best);
        let value =
            budget
                .stopped
                .is_none()
                .then_some(if win { Outcome::Win } else { Outcome::Loss });
        Report {
            value,
            best: if value.is_some() { best } else { None },
            stopped: budget.stopped,
            nodes: budget.nodes,
            elapsed: budget.elapsed(),
            peak_memory: self.bytes(),
        }
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        self.table.find(key).copied()
    }

    fn store(&mut self, key: u64, win: bool, best: u8, nodes: u64) {
        let e = Entry {
            key,
            work: work_of(nodes),
            win,
            best,
        };
        match self.table.find_mut(key) {
            Some(old) => *old = e,
            None => self.table.insert(e),
        }
    }
}

/// Solves `game` with a fresh solver.
pub fn solve(game: &Domineering, limits: &Limits) -> Report<u8> {
    Solver::new(limits).solve(game, limits)
}

impl Search<'_, '_> {
    /// Whether the player to move wins (meaningless once the budget
    /// stopped the search).
    fn search(&mut self, g: &mut Domineering, ply: usize, checked: bool) -> bool {
        if !self.budget.count() {
            return false;
        }
        let me = g.to_move();
        let mine = g.move_mask(me);
        if mine == 0 {
            return false;
        }
        let root = ply == 0;
        let theirs = g.move_mask(me.opp());
        if theirs == 0 && !root {
            // Our moves never give the opponent one back.
            return true;
        }
        let key = g.canonical_key();
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.solver.probe(key) {
            if !root {
                return e.win;
            }
            tt_move = e.best;
        }
        if !root {
            if let Some(o) = g.race_bound(!checked, true) {
                return o == Outcome::Win;
            }
        }
        let nodes_before = self.budget.nodes;
        let mut moves = MoveList::<u8>::new();
        let mut keys = ArrayVec::<i64, MAX_MOVES>::new();
        self.order(g, me, mine, theirs, ply, tt_move, &mut moves, &mut keys);
        let look = LOOKAHEAD.min(moves.len());
        for i in 0..look {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            g.play(m);
            let lost = g.move_mask(me.opp()) == 0
                || (ply < ETC_PLIES
                    && self.solver.probe(g.canonical_key()).is_some_and(|e| !e.win))
                || g.race_bound(true, false) == Some(Outcome::Loss);
            g.undo(m, ());
            if lost {
                if root {
                    self.root_best = Some(m);
                }
                self.solver.store(key, true, m, 1);
                return true;
            }
        }
        let mut best = NO_MOVE;
        let mut win = false;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            g.play(m);
            let lost = !self.search(g, ply + 1, i < look);
            g.undo(m, ());
            if self.budget.stopped.is_some() {
                return false;
            }
            if lost {
                win = true;
                best = m;
                if root {
                    self.root_best = Some(m);
                }
                let size = work_of(self.budget.nodes - nodes_before) as u32;
                self.reward(m, me, ply, size);
                break;
            }
        }
        self.solver
            .store(key, win, best, self.budget.nodes - nodes_before);
        win
    }

    fn reward(&mut self, m: u8, color: Color, ply: usize, size: u32) {
        let s = &mut self.solver;
        if let Some(k) = s.killers.get_mut(ply) {
            if k[0] != m {
                k[1] = k[0];
                k[0] = m;
            }
        }
        let h = &mut s.history[color_index(color) + m as usize];
        *h = h.saturating_add(size * size);
        if *h > 1 << 30 {
            for v in &mut s.history {
                *v >>= 1;
            }
        }
    }

    /// Lists the mover's moves with sorting keys (higher first).
    #[allow(clippy::too_many_arguments)]
    fn order(
        &self,
        g: &Domineering,
        me: Color,
        mine: u128,
        theirs: u128,
        ply: usize,
        tt_move: u8,
        moves: &mut MoveList<u8>,
        keys: &mut ArrayVec<i64, MAX_MOVES>,
    ) {
        let (step, _) = g.dir(me);
        let (os, _) = g.dir(me.opp());
        let killers = self
            .solver
            .killers
            .get(ply)
            .copied()
            .unwrap_or([NO_MOVE; 2]);
        let side = color_index(me);
        let free = g.free();
        let untouched = |free: u128, other: u128, step: u32| {
            (free & !(other | (other << step))).count_ones() as i64
        };
        let mine_before = untouched(free, theirs, os);
        let theirs_before = untouched(free, mine, step);
        let mut set = mine;
        while set != 0 {
            let m = set.trailing_zeros();
            set &= set - 1;
            let a = 1u128 << m;
            let cells = a | (a << step);
            let key = if m as u8 == tt_move {
                i64::MAX
            } else if m as u8 == killers[0] {
                i64::MAX - 1
            } else if m as u8 == killers[1] {
                i64::MAX - 2
            } else {
                // Opposing dominoes overlapping ours: lower cell on one of
                // our cells or one step below across.
                let killed_mask = theirs & (cells | (cells >> os));
                let killed = killed_mask.count_ones() as i64;
                // Our own other dominoes sharing a cell with this one.
                let spoilt_mask = mine & ((a >> step) | (a << step));
                let spoilt = spoilt_mask.count_ones() as i64;
                let free2 = free & !cells;
                let d_mine = untouched(free2, theirs & !killed_mask, os) - mine_before;
                let d_theirs = untouched(free2, mine & !(spoilt_mask | a), step) - theirs_before;
                // Weights: the fewest nodes on 8×8 among the few tried
                // there (with 2,2 and 0,0 for the last two: 130M and 238M
                // nodes against 88M).
                let score = 4 * killed - 2 * spoilt + d_mine - d_theirs;
                (score << 32) + self.solver.history[side + m as usize] as i64
            };
            moves.push(m as u8);
            keys.push(key);
        }
    }
}

fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 128,
    }
}
