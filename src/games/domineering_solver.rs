//! A Domineering-specific solver: the default of `tesuji solve --game
//! domineering:RxC` (the generic solvers stay behind `--algo`).
//!
//! It follows the design of Bullock's Obsequi ("Domineering: Solving Large
//! Combinatorial Search Spaces", MSc thesis, Alberta 2002) and of Breuker,
//! Uiterwijk & van den Herik's DOMI ("Solving 8×8 Domineering", TCS 2000):
//! a boolean negamax (does the player to move win?) where
//!
//! * the proven bounds of [`Domineering`] decide nodes without search
//!   ([`Domineering::race_bound`]): the race of safe, protective and
//!   vulnerable moves against the opponent's most moves, and Bullock's
//!   count of cells ([`Domineering::cell_race`]);
//! * a look-ahead tests the best [`LOOKAHEAD`] children, in move order,
//!   for a loss of the opponent (no move left, the loss half of the race,
//!   or near the root a proven entry of the table) before any is searched;
//!   a node itself tries only the win half (see [`Search::search`]);
//! * a transposition table holds proven results, keyed by the board's
//!   mirror images ([`Game::canonical_key`]), in two-slot buckets with the
//!   *TwoBig* replacement scheme (Breuker et al.); every entry is exact,
//!   so a hit ends the node;
//! * moves are ordered as Obsequi orders them, without playing them: by
//!   how the domino changes both sides' packings ("real" moves), then by
//!   Bullock's static positional values (second line from an edge first).
//!   No killers and no history heuristic: on top of this order they
//!   doubled the nodes.
//!
//! The order made the difference: with killers, history and counts of
//! destroyed moves, 8×8 took 100 million nodes (97 s of CPU); with
//! Obsequi's order, 12.4 million; with the count of cells too, 6.9
//! million, and with the races on a `u64` board 3.4 s of CPU. 7×7: 163,219
//! nodes before, 48,380 after.
//!
//! Nothing is allocated after [`Solver::new`].

use super::race::{Bits, Masks};
use super::Domineering;
use crate::games::{Color, Game, Outcome, MAX_MOVES};
use crate::solve::buckets::{Buckets, Slot};
use crate::solve::depth_first::{work_of, Budget, DEFAULT_MEMORY};
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

/// What one move of change in the packings is worth against positional
/// values (which run from 30 to 127); see [`Search::order`].
const PACKING_WEIGHT: i64 = 32;

/// How many children, best first, the look-ahead tests for a static loss
/// before any is searched: more find more immediate wins but cost a race
/// each at nodes that cut anyway. Once nodes ran only the win half of the
/// race, 5 took the fewest instructions: 8×8 took 7.72M nodes and 17.19G
/// instructions with 5, 7.33M and 17.49G with 6, 6.86M and 18.44G with 8
/// (7×8: 1.52G with 5, 1.66G with 8, 1.90G with 12), and 1.76–1.98 s of
/// CPU with 5 against 1.91–2.22 s with 8, alternating on a loaded
/// machine; 3 to 6 were within its noise. (Before, with both halves at
/// every node, 8 had been best among 2, 4, 6, 8, 12 and all.)
const LOOKAHEAD: usize = 5;

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
    /// Static move values by `color * 128 + cell` (Bullock's positional
    /// values), set per board shape at the start of a solve.
    positional: Vec<u8>,
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
            positional: vec![0; 256],
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.positional.len()
    }

    /// Solves `game` for the player to move from scratch (tables cleared,
    /// so runs repeat exactly).
    pub fn solve(&mut self, game: &Domineering, limits: &Limits) -> Report<u8> {
        self.table.clear();
        fill_positional(&mut self.positional, game);
        let mut search = Search {
            solver: self,
            budget: Budget::new(limits),
            root_best: None,
        };
        let mut g = *game;
        let win = search.search(&mut g, 0);
        let (budget, best) = (search.budget, search.root_best);
        let value = if win { Outcome::Win } else { Outcome::Loss };
        budget.report(|| value, best, self.bytes())
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
    fn search(&mut self, g: &mut Domineering, ply: usize) -> bool {
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
        // Only the win half: the loss half is the test the parent's
        // look-ahead ran on its best children, and past those it almost
        // never decides (it used to run there: with a look-ahead of 8,
        // 8×8 took 6,861,314 nodes with it, 6,861,580 without, and 7×8
        // the same 675,033, for 10% more instructions). Skipping a bound
        // is sound: the node is searched instead.
        if !root && g.race_bound(false, true) == Some(Outcome::Win) {
            return true;
        }
        let nodes_before = self.budget.nodes;
        let mut keys = ArrayVec::<i64, MAX_MOVES>::new();
        if g.fits_u64() {
            self.order(&g.masks::<u64>(), me, tt_move, &mut keys);
        } else {
            self.order(&g.masks::<u128>(), me, tt_move, &mut keys);
        }
        let look = LOOKAHEAD.min(keys.len());
        for i in 0..look {
            pick_best(&mut keys, i);
            let m = move_of(keys[i]);
            g.play(m);
            let child_key = g.canonical_key();
            // The child's own search probes the table first thing: fetch
            // its bucket now, while this loop runs the children's races
            // (the probe's cache miss was a third of the solver's time).
            self.solver.table.prefetch(child_key);
            let lost = g.move_mask(me.opp()) == 0
                || (ply < ETC_PLIES && self.solver.probe(child_key).is_some_and(|e| !e.win))
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
        for i in 0..keys.len() {
            if i == look {
                // Past the look-ahead most nodes search every move (the
                // mover loses): one sort beats picking the best each time.
                keys[look..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let m = move_of(keys[i]);
            if i >= look && i + 1 < keys.len() {
                // Past the look-ahead (whose children were fetched there),
                // fetch the next child's bucket while this one is searched.
                let next = move_of(keys[i + 1]);
                g.play(next);
                self.solver.table.prefetch(g.canonical_key());
                g.undo(next, ());
            }
            g.play(m);
            let lost = !self.search(g, ply + 1);
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
                break;
            }
        }
        self.solver
            .store(key, win, best, self.budget.nodes - nodes_before);
        win
    }

    /// Lists the mover's moves as sorting keys (higher first, the move in
    /// the low byte, see [`move_of`]): the
    /// table's move, then by how much the domino changes the packings
    /// (the most moves left, [`Domineering::max_moves`]) of both sides,
    /// then by its positional value. Playing no move, the change is read
    /// off the packings: a domino costs the mover one move of its packing,
    /// two at an odd offset of a run of even length, and each of its cells
    /// costs the opponent one if losing it shortens the opponent's run
    /// there (Bullock's move ordering counts the same "real" moves).
    fn order<B: Bits>(
        &self,
        g: &Masks<B>,
        me: Color,
        tt_move: u8,
        keys: &mut ArrayVec<i64, MAX_MOVES>,
    ) {
        let (step, _) = g.dir(me);
        let side = color_index(me);
        let (mine, theirs) = (g.runs(me), g.runs(me.opp()));
        let pick_mine = mine.pick();
        let their_short = theirs.shortening(theirs.pick());
        let my_left = g.free & !(pick_mine | (pick_mine << step));
        let costs_two = (pick_mine << step) & !mine.fill(my_left);
        let mut set = g.move_mask(me);
        while set != B::ZERO {
            let m = set.low();
            set = set.drop_low();
            let a = B::ONE << m;
            let score = if m as u8 == tt_move {
                1 << 40
            } else {
                let cells = a | (a << step);
                let packing =
                    (cells & their_short).ones() as i64 - (a & costs_two != B::ZERO) as i64;
                // A change of packing outweighs about a tier of position
                // (the fewest nodes on 7×7, 8×7, 7×8 and 6×8 among 8, 16,
                // 32, 64 and 256; the position alone needs 6% more, killer
                // moves and the history heuristic on top twice as many).
                packing * PACKING_WEIGHT + self.solver.positional[side + m as usize] as i64
            };
            keys.push(score << 8 | (255 - m as i64));
        }
    }
}

/// Bullock's positional values (Obsequi): a domino is worth most on the
/// second line from an edge parallel to it (dist_across odd), starting at
/// an even distance from the end of its line, nearer the edges first.
fn fill_positional(out: &mut [u8], g: &Domineering) {
    let (rows, cols) = (g.rows(), g.cols());
    out.fill(0);
    for (color, side) in [(Color::Black, 0), (Color::White, 128)] {
        let mut mask = g.dir(color).1;
        while mask != 0 {
            let cell = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (r, c) = (cell / cols, cell % cols);
            // Across and along the domino's direction, from the nearest edge.
            let (across, along) = match color {
                Color::Black => (c.min(cols - 1 - c), r.min(rows - 2 - r)),
                Color::White => (r.min(rows - 1 - r), c.min(cols - 2 - c)),
            };
            let tier: i32 = match (across % 2 == 1, along % 2 == 0, across >= 1) {
                (true, true, _) => 127,
                (true, false, _) => 90,
                (false, true, true) => 70,
                (false, false, true) => 50,
                _ => 30,
            };
            // Nearer the edges first, across more than along (weights 4
            // and 1: 8x8 took 6.9M nodes; 0 and 0, over 100 s; 4 and 0,
            // 11.3M; 1 and 1, 18.7M; 16 and 4, 7.2M).
            let v = tier - 4 * across as i32 - along as i32;
            out[side + cell] = v.max(1) as u8;
        }
    }
}

/// The move of a sorting key of [`Search::order`] (lower cells first among
/// equal scores).
#[inline]
fn move_of(key: i64) -> u8 {
    255 - (key & 0xff) as u8
}

/// Swaps the greatest of `keys[from..]` into `keys[from]`. Keys are
/// distinct (each carries its move), so the greatest value finds its
/// place: a maximum without branches, then one search, instead of a
/// running "best so far" whose comparisons, on keys in no order, the
/// processor cannot predict (that loop was 6% of the solver's
/// instructions on 7×8, and more of its time).
#[inline]
fn pick_best(keys: &mut [i64], from: usize) {
    let rest = &mut keys[from..];
    let max = rest.iter().copied().fold(i64::MIN, i64::max);
    if let Some(at) = rest.iter().position(|&k| k == max) {
        rest.swap(0, at);
    }
}

fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 128,
    }
}
