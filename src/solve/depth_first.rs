//! What the depth-first solvers (α-β, NegaScout, df-pn) share: the search
//! budget, a fixed-size transposition table, killer moves and the history
//! heuristic, and move ordering by the game's evaluation.
//!
//! Everything here is allocated once when a solver is built (the table
//! from [`Limits::memory`]) and never grows: the inner loops touch no heap.
//!
//! The table follows Breuker, Uiterwijk & van den Herik, "Replacement
//! schemes for transposition tables" (ICCA J. 1994) and "Solving 8×8
//! Domineering" (TCS 2000): buckets of two entries, the *TwoBig* scheme —
//! the first slot keeps the entry whose subtree was the bigger, the second
//! takes whatever the first rejects. Entries are keyed by
//! [`Game::canonical_key`] so that mirror images share them; their moves
//! are only ordering hints and are checked against the legal moves.

use super::buckets::{Buckets, Slot};
use super::{Limits, Report, Stopped};
use crate::games::{Color, Game, MoveList, Outcome, MAX_MOVES};
use arrayvec::ArrayVec;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Deepest ply the killer table covers (deeper plies simply have no
/// killers). Every supported board game ends well before it.
pub const MAX_PLY: usize = 1024;

/// Table size when [`Limits::memory`] is unset.
pub const DEFAULT_MEMORY: usize = 128 << 20;

/// Nodes between two looks at the clock and the interrupt flag.
const CHECK_EVERY: u64 = 1024;

/// Counts nodes and watches the limits. Node limits stop at an exact
/// count, so runs under a node limit repeat exactly.
pub struct Budget<'a> {
    start: Instant,
    limits: Limits<'a>,
    pub nodes: u64,
    pub stopped: Option<Stopped>,
}

impl<'a> Budget<'a> {
    pub fn new(limits: &Limits<'a>) -> Budget<'a> {
        Budget {
            start: Instant::now(),
            limits: *limits,
            nodes: 0,
            stopped: None,
        }
    }

    /// Counts one node; `false` once a limit is reached (and from then on).
    #[inline]
    pub fn count(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = Some(Stopped::Nodes);
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_clock();
        }
        self.stopped.is_none()
    }

    fn check_clock(&mut self) {
        if self.limits.time.is_some_and(|t| self.start.elapsed() >= t) {
            self.stopped = Some(Stopped::Time);
        }
        if self
            .limits
            .interrupt
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.stopped = Some(Stopped::Interrupted);
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The result line of a finished search: the value `proven` gives,
    /// and the root's `best` move, unless a limit stopped the search
    /// (then neither, whatever the search left behind).
    pub fn report<M>(
        &self,
        proven: impl FnOnce() -> Outcome,
        best: Option<M>,
        peak_memory: usize,
    ) -> Report<M> {
        let value = self.stopped.is_none().then(proven);
        Report {
            value,
            best: if value.is_some() { best } else { None },
            stopped: self.stopped,
            nodes: self.nodes,
            elapsed: self.elapsed(),
            peak_memory,
        }
    }
}

/// One transposition-table entry: proven (or, for the player, depth-
/// limited) lower and upper bounds of the value for the player to move.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    key: u64,
    pub lo: i32,
    pub hi: i32,
    /// Search depth the bounds hold for (the solvers store `u8::MAX`).
    pub depth: u8,
    /// 1 + log2 of the subtree's node count; 0 marks an empty slot.
    work: u8,
    pub best: Option<M>,
}

/// The depth-first solvers' transposition table: bounds per position, in
/// [`Buckets`] (two-slot buckets, grown with use).
pub struct Table<M> {
    buckets: Buckets<Entry<M>>,
}

impl<M: Copy> Slot for Entry<M> {
    const EMPTY: Entry<M> = Entry {
        key: 0,
        lo: 0,
        hi: 0,
        depth: 0,
        work: 0,
        best: None,
    };
    fn key(&self) -> u64 {
        self.key
    }
    fn work(&self) -> u8 {
        self.work
    }
}

/// `1 + ⌊log2 nodes⌋`, at least 1, so that 0 can mark an empty slot.
pub fn work_of(nodes: u64) -> u8 {
    (64 - nodes.max(1).leading_zeros()) as u8
}

impl<M: Copy> Table<M> {
    /// A table of at most `bytes`.
    pub fn new(bytes: usize) -> Table<M> {
        Table {
            buckets: Buckets::new(bytes),
        }
    }

    /// Bytes in use.
    pub fn bytes(&self) -> usize {
        self.buckets.bytes()
    }

    pub fn clear(&mut self) {
        self.buckets.clear();
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.buckets.find(key)
    }

    /// Stores bounds for `key`. When the key is already present at the
    /// same depth or deeper, the bounds are intersected (both are true).
    pub fn store(&mut self, key: u64, lo: i32, hi: i32, depth: u8, best: Option<M>, nodes: u64) {
        let mut e = Entry {
            key,
            lo,
            hi,
            depth,
            work: work_of(nodes),
            best,
        };
        if let Some(old) = self.buckets.find_mut(key) {
            if old.depth == depth {
                e.lo = e.lo.max(old.lo);
                e.hi = e.hi.min(old.hi);
            }
            if e.best.is_none() {
                e.best = old.best;
            }
            e.work = e.work.max(old.work);
            if old.depth <= depth {
                *old = e;
            }
            return;
        }
        self.buckets.insert(e);
    }
}

/// A small fixed hasher (FxHash's multiply) for indexing moves into the
/// history table without a `Game` method for it.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
}

const HISTORY_SIZE: usize = 4096;

/// Plies below which the look-ahead also probes the table for every
/// child: near the root a cutoff saves a large subtree, deeper down the
/// probes' cache misses cost more than they save.
const ETC_PLIES: usize = 8;

fn history_slot<M: Hash>(m: &M, color: Color) -> usize {
    let mut h = MoveHasher(0);
    m.hash(&mut h);
    let side = match color {
        Color::Black => 0,
        Color::White => HISTORY_SIZE,
    };
    side + (h.finish() >> 52) as usize % HISTORY_SIZE
}

/// Killer moves (two per ply; Akl & Newborn 1977) and the history
/// heuristic (Schaeffer 1989), per side, moves hashed into a fixed table.
pub struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u32>,
}

impl<M: Copy + Eq + Hash> Heuristics<M> {
    pub fn new() -> Heuristics<M> {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 2 * HISTORY_SIZE],
        }
    }

    pub fn bytes(&self) -> usize {
        self.killers.len() * std::mem::size_of::<[Option<M>; 2]>() + self.history.len() * 4
    }

    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// Records `m` as the move that cut off (or was best) at `ply`, with
    /// `remaining` the rough size of the subtree it decided.
    pub fn reward(&mut self, m: M, color: Color, ply: usize, remaining: u32) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        let h = &mut self.history[history_slot(&m, color)];
        *h = h.saturating_add(remaining.saturating_mul(remaining).max(1));
        if *h > 1 << 30 {
            // Keep the relative order and the headroom.
            for v in &mut self.history {
                *v >>= 1;
            }
        }
    }

    /// Sorting keys for `moves` (higher first): the table move, then the
    /// killers, then the others by the evaluation of the position after
    /// the move (the mover's view) with history breaking ties. With a
    /// `lookahead` table (of proven bounds), also looks for a move after
    /// which the opponent has lost — by the rules, by [`Game::bound`] or
    /// by the table (an enhanced transposition cutoff, Plaat, Schaeffer,
    /// Pijls & de Bruin 1996) — and returns it at once.
    pub fn order<G: Game<Move = M>>(
        &self,
        game: &mut G,
        ply: usize,
        tt_move: Option<M>,
        moves: &MoveList<M>,
        keys: &mut ArrayVec<i64, MAX_MOVES>,
        lookahead: Option<&Table<M>>,
    ) -> Option<M> {
        keys.clear();
        let color = game.to_move();
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        for &m in moves {
            let undo = game.play(m);
            let (stop, eval) = match (game.outcome(), lookahead) {
                (Some(o), _) => (lookahead.is_some() && o == Outcome::Loss, game.evaluate()),
                (None, Some(table)) => {
                    let (lost, eval) = game.lost_and_evaluate();
                    let lost = lost
                        || (ply < ETC_PLIES
                            && table
                                .probe(game.canonical_key())
                                .is_some_and(|e| e.depth == u8::MAX && e.hi < 0));
                    (lost, eval)
                }
                (None, None) => (false, game.evaluate()),
            };
            let eval = -eval as i64;
            game.undo(m, undo);
            if stop {
                return Some(m);
            }
            let key = if Some(m) == tt_move {
                i64::MAX
            } else if Some(m) == killers[0] {
                i64::MAX - 1
            } else if Some(m) == killers[1] {
                i64::MAX - 2
            } else {
                (eval << 32) + self.history[history_slot(&m, color)] as i64
            };
            keys.push(key);
        }
        None
    }
}

impl<M: Copy + Eq + Hash> Default for Heuristics<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves `keys`' largest remaining entry (from `from` on) to position
/// `from` in both lists: a lazy selection sort, cheap when a cutoff comes
/// early.
#[inline]
pub fn pick_next<M>(moves: &mut MoveList<M>, keys: &mut ArrayVec<i64, MAX_MOVES>, from: usize) {
    let mut best = from;
    for i in from + 1..keys.len() {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    moves.swap(from, best);
    keys.swap(from, best);
}

/// Refuses games whose positions can recur (see [`Game::repeats`]).
pub fn check_acyclic<G: Game>(game: &G) -> Result<(), String> {
    if game.repeats() {
        Err(format!(
            "{}: positions can repeat; the depth-first solvers' tables would be unsound",
            game.spec()
        ))
    } else {
        Ok(())
    }
}

/// Table bytes for `limits`, with what the other structures take off.
pub fn table_bytes(limits: &Limits, other: usize) -> usize {
    limits
        .memory
        .unwrap_or(DEFAULT_MEMORY)
        .saturating_sub(other)
        .max(1 << 12)
}
