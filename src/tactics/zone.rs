//! Relevance zones: the set of points a proof looked at.
//!
//! A threat proof (see `dfpn::threats`) records every point whose content
//! its result depended on. When the opponent of the prover, at a node where
//! the prover threatens to win, plays a stone outside that set and away
//! from the prover's stones, the same proof still wins: nothing it read has
//! changed. That lets λ-search answer a threat with the few moves inside
//! the zone instead of every move on the board (Thomsen 2000, "Lambda-search
//! in game trees — with application to Go"; the soundness argument and the
//! exact reads are set out in `dfpn::pruning`).
//!
//! A zone is a fixed bit set over the padded board, so it is `Copy` and
//! never allocates.

use crate::go::board::{Board, Point, NUM_POINTS, PASS};
use crate::go::Color;

const WORDS: usize = NUM_POINTS.div_ceil(64);

/// A set of board points.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Zone {
    bits: [u64; WORDS],
}

impl Default for Zone {
    fn default() -> Self {
        Zone::new()
    }
}

impl std::fmt::Debug for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The points of a zone in increasing order ([`Zone::iter`]): a word
/// index and what is left of that word, so that the zones iterated in the
/// hot loops (a target's liberties, mostly empty sets) cost a test per
/// word.
pub struct Iter<'a> {
    bits: &'a [u64; WORDS],
    word: usize,
    rest: u64,
}

impl Iterator for Iter<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.rest == 0 {
            self.word += 1;
            if self.word >= WORDS {
                return None;
            }
            self.rest = self.bits[self.word];
        }
        let b = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(self.word * 64 + b)
    }
}

impl Zone {
    pub const fn new() -> Zone {
        Zone { bits: [0; WORDS] }
    }

    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.bits[p / 64] |= 1 << (p % 64);
    }

    /// Inserts `p` when `yes`, without a branch (for hot loops whose
    /// condition the processor cannot predict).
    #[inline]
    pub fn insert_if(&mut self, p: Point, yes: bool) {
        self.bits[p / 64] |= (yes as u64) << (p % 64);
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.bits[p / 64] &= !(1 << (p % 64));
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.bits[p / 64] & (1 << (p % 64)) != 0
    }

    pub fn union(&mut self, other: &Zone) {
        for (a, b) in self.bits.iter_mut().zip(other.bits.iter()) {
            *a |= b;
        }
    }

    pub fn intersect(&mut self, other: &Zone) {
        for (a, b) in self.bits.iter_mut().zip(other.bits.iter()) {
            *a &= b;
        }
    }

    /// Removes every point of `other`.
    pub fn subtract(&mut self, other: &Zone) {
        for (a, b) in self.bits.iter_mut().zip(other.bits.iter()) {
            *a &= !b;
        }
    }

    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// Calls `f` on the points in increasing order, as [`Zone::iter`]
    /// lists them: a loop over the words that the compiler unrolls, where
    /// the iterator pays a test and a branch per word at every call.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Point)) {
        for (i, &word) in self.bits.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }

    /// The points in increasing order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            bits: &self.bits,
            word: 0,
            rest: self.bits[0],
        }
    }

    /// Adds the block on `p` (its stones and its liberties); nothing when
    /// `p` is empty.
    pub fn add_block(&mut self, board: &Board, p: Point) {
        if board.color_at(p).is_none() {
            return;
        }
        board.for_each_stone(p, |q| {
            self.insert(q);
            for n in Board::neighbors(q) {
                if board.is_empty(n) {
                    self.insert(n);
                }
            }
        });
    }

    /// Adds what playing on `m` for `mover` reads, in the position before
    /// the move: the point and its neighbours; every enemy block next to it
    /// with its liberties (does the move capture it?), except a block with
    /// at least `soft_libs` liberties, which no few extra stones could
    /// bring into atari (its stone next to the move is read); and the
    /// mover's own blocks next to it with their liberties. See
    /// `dfpn::pruning` for why this is all a proof depends on.
    pub fn add_move(&mut self, board: &Board, m: Point, mover: Color, soft_libs: usize) {
        self.add_move_known(board, m, mover, soft_libs, &mut Zone::new());
    }

    /// [`Zone::add_move`] into a zone that already holds whole the blocks
    /// whose heads are in `known` ([`Zone::add_block`]), which are not
    /// walked again; the blocks it adds join `known`. The threat searches'
    /// zones hold the target's block, next to most of the moves they
    /// read, and a node's replies read the same few blocks around the
    /// target again and again. The same points.
    pub fn add_move_known(
        &mut self,
        board: &Board,
        m: Point,
        mover: Color,
        soft_libs: usize,
        known: &mut Zone,
    ) {
        if m == PASS {
            return;
        }
        self.insert(m);
        for n in Board::neighbors(m) {
            self.insert(n);
            // The mover's own blocks are always read whole: the move
            // changes their liberties, and whether the opponent can then
            // capture them depends on every one of those liberties.
            let read = match board.color_at(n) {
                Some(c) if c == mover => true,
                Some(_) => board.libs(n) < soft_libs,
                None => false,
            };
            if read {
                let h = board.block(n);
                if !known.contains(h) {
                    known.insert(h);
                    self.add_block(board, h);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut z = Zone::new();
        assert!(z.is_empty());
        z.insert(5);
        z.insert(700);
        z.insert(64);
        assert!(z.contains(5) && z.contains(64) && z.contains(700));
        assert!(!z.contains(6));
        assert_eq!(z.iter().collect::<Vec<_>>(), vec![5, 64, 700]);
        let mut listed = Vec::new();
        z.for_each(|p| listed.push(p));
        assert_eq!(listed, vec![5, 64, 700]);
        let mut y = Zone::new();
        y.insert(6);
        y.union(&z);
        assert_eq!(y.len(), 4);
    }

    #[test]
    fn blocks_and_moves() {
        let at = Board::point_at;
        let mut b = Board::new(5);
        b.play(Color::White, at(2, 2));
        b.play(Color::Black, at(2, 3));
        let mut z = Zone::new();
        z.add_block(&b, at(2, 2));
        // The stone and its three liberties; not the black neighbour.
        assert_eq!(z.len(), 4);
        assert!(!z.contains(at(2, 3)));
        let mut z = Zone::new();
        z.add_move(&b, at(1, 3), Color::White, 5);
        assert!(z.contains(at(1, 3)) && z.contains(at(0, 3)) && z.contains(at(2, 3)));
        assert!(z.contains(at(3, 3)), "liberty of the black neighbour");
        let mut z = Zone::new();
        z.add_move(&b, at(1, 3), Color::White, 3);
        assert!(!z.contains(at(3, 3)), "three liberties: soft");
        let mut z = Zone::new();
        z.add_move(&b, at(2, 1), Color::White, 5);
        assert!(z.contains(at(3, 2)), "own block, read whole");
        // A block the zone holds already is not walked again: the same
        // points as adding the move to that zone.
        let mut known = Zone::new();
        known.add_block(&b, at(2, 2));
        let mut heads = Zone::new();
        heads.insert(b.block(at(2, 2)));
        let mut all_walked = known;
        let mut all_skipped = known;
        for m in [at(2, 1), at(1, 2), at(1, 3), at(3, 3)] {
            let mut walked = known;
            walked.add_move(&b, m, Color::White, 5);
            all_walked.add_move(&b, m, Color::White, 5);
            let mut skipped = known;
            let mut once = Zone::new();
            once.insert(b.block(at(2, 2)));
            skipped.add_move_known(&b, m, Color::White, 5, &mut once);
            assert_eq!(walked, skipped);
            // The heads kept across moves: each block walked once.
            all_skipped.add_move_known(&b, m, Color::White, 5, &mut heads);
            assert_eq!(all_walked, all_skipped);
        }
        assert!(heads.contains(b.block(at(2, 3))));
    }
}
