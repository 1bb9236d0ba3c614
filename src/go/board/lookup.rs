//! What the board answers without playing a move, for searches that look
//! at many moves per position: the blocks in atari (kept as a set of
//! their heads), each colour's eye points (kept as bit sets, updated by
//! `play` and `undo` around the cells that change), and the liberties of
//! the block a stone would form.

use super::{cell_of, Board, Point, BLACK, BORDER, EMPTY, SET_WORDS, WHITE};
use crate::go::Color;

impl Board {
    /// Calls `f` on the head of every block of `color` that has exactly
    /// one liberty, in increasing order of the heads. Costs a look at a
    /// few words and at the cells whose count is one, not a walk over the
    /// board.
    #[inline]
    pub fn for_each_atari_block(&self, color: Color, mut f: impl FnMut(Point)) {
        debug_assert_eq!(cell_of(color) as usize - 1, color.index());
        let words = &self.atari[color.index()];
        // Usually no block is in atari: one look at all the words (an OR
        // the compiler does a few at a time) settles that, where the walk
        // would test them one by one.
        if words.iter().fold(0, |a, &w| a | w) == 0 {
            return;
        }
        for (i, &word) in words.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let p = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                debug_assert_eq!(self.head[p] as Point, p, "atari set");
                f(p);
            }
        }
    }

    /// Whether some block of `color` has exactly one liberty: whether
    /// [`Board::for_each_atari_block`] would call its function at all.
    #[inline]
    pub fn has_atari_block(&self, color: Color) -> bool {
        self.atari[color.index()].iter().fold(0, |a, &w| a | w) != 0
    }

    /// A liberty of the block containing the stone on `p` (the first met
    /// walking its stones), if it has one.
    pub fn first_liberty(&self, p: Point) -> Option<Point> {
        let mut q = p;
        loop {
            for n in Self::neighbors(q) {
                if self.cells[n] == EMPTY {
                    return Some(n);
                }
            }
            q = self.next[q] as Point;
            if q == p {
                return None;
            }
        }
    }

    /// The exact liberty count and stone count of the block of a stone of
    /// `color` played on the empty point `p`, found without playing it,
    /// when the move captures nothing; `None` when it captures. As with
    /// [`Board::libs_after_quiet`], a liberty count other than 0 is a legal
    /// move. Joining several blocks costs a walk over their stones.
    pub fn after_stone(&self, color: Color, p: Point) -> Option<(usize, usize)> {
        let own = cell_of(color);
        let enemy = cell_of(color.opp());
        let mut heads = [0u16; 4];
        let mut joined = 0;
        let mut empty = 0;
        for n in Self::neighbors(p) {
            let c = self.cells[n];
            if c == EMPTY {
                empty += 1;
            } else if c == own {
                let h = self.head[n];
                if !heads[..joined].contains(&h) {
                    heads[joined] = h;
                    joined += 1;
                }
            } else if c == enemy && self.libs[self.head[n] as usize] == 1 {
                return None;
            }
        }
        let stones = 1 + heads[..joined]
            .iter()
            .map(|&h| self.stones[h as usize] as usize)
            .sum::<usize>();
        if joined == 0 {
            return Some((empty, 1));
        }
        if joined == 1 {
            // As `play_into` counts a single join: the block loses the
            // liberty `p` and gains the empty neighbours of `p` it does not
            // touch yet.
            let root = heads[0];
            let mut libs = self.libs[root as usize] as usize - 1;
            for n in Self::neighbors(p) {
                if self.cells[n] == EMPTY && !self.touches_block(n, p, root) {
                    libs += 1;
                }
            }
            return Some((libs, stones));
        }
        // The union of the blocks' liberties and the stone's, less `p`.
        let mut seen = [0u64; SET_WORDS];
        let mut mark = |q: Point| seen[q / 64] |= 1 << (q % 64);
        for n in Self::neighbors(p) {
            if self.cells[n] == EMPTY {
                mark(n);
            }
        }
        for &h in &heads[..joined] {
            self.for_each_stone(h as Point, |q| {
                for n in Self::neighbors(q) {
                    if self.cells[n] == EMPTY && n != p {
                        mark(n);
                    }
                }
            });
        }
        let libs = seen.iter().map(|w| w.count_ones() as usize).sum();
        Some((libs, stones))
    }

    /// Recomputes the eye bits of the cell `q`.
    #[inline(always)]
    pub(super) fn refresh_eye(&mut self, q: Point) {
        // What surrounds `q`, by cell value: bit 0 black, bit 1 white, bit
        // 2 empty, nothing for the border.
        const SEEN: [u8; 4] = [4, 1, 2, 0];
        const _: () = assert!(EMPTY == 0 && BLACK == 1 && WHITE == 2 && BORDER == 3);
        let [a, b, c, d] = Self::neighbors(q);
        let seen = if self.cells[q] == EMPTY {
            SEEN[self.cells[a] as usize & 3]
                | SEEN[self.cells[b] as usize & 3]
                | SEEN[self.cells[c] as usize & 3]
                | SEEN[self.cells[d] as usize & 3]
        } else {
            4
        };
        let (word, bit) = (q / 64, 1u64 << (q % 64));
        // Black's eye: nothing but black and border around; white's alike.
        let black = ((seen & 6 == 0) as u64).wrapping_neg() & bit;
        let white = ((seen & 5 == 0) as u64).wrapping_neg() & bit;
        self.eyes[0][word] = self.eyes[0][word] & !bit | black;
        self.eyes[1][word] = self.eyes[1][word] & !bit | white;
    }

    /// Recomputes the eye bits around the point `p` just played or taken
    /// back, and of the stones of the blocks it captured: of the cells
    /// that changed, and of their empty neighbours (a stone is no eye).
    /// A captured block had no liberty but `p`, so the neighbours of its
    /// stones are stones of either colour, border, `p`, and each other:
    /// the only empty ones among them are `p` and its own points, and
    /// those are refreshed anyway.
    pub(super) fn refresh_eyes(&mut self, p: Point, captured: &[u16]) {
        self.refresh_around(p);
        for &h in captured {
            let h = h as Point;
            let mut q = h;
            loop {
                self.refresh_eye(q);
                q = self.next[q] as Point;
                if q == h {
                    break;
                }
            }
        }
    }

    /// [`Board::refresh_eyes`] after a stone of `color` was played on `p`
    /// and captured nothing, in less work: `p` is no eye now, and an
    /// empty neighbour `n` of `p` was none before (it had the empty
    /// neighbour `p`), is none of the opponent's now (it has the stone
    /// `p`), and is one of `color`'s exactly when all its neighbours are
    /// stones of `color` or border. No other cell changed.
    #[inline(always)]
    pub(super) fn eyes_after_stone(&mut self, p: Point, color: Color) {
        let (word, bit) = (p / 64, 1u64 << (p % 64));
        self.eyes[0][word] &= !bit;
        self.eyes[1][word] &= !bit;
        // Bit `v` set for the cell values `v` an eye of `color` may have
        // around it.
        let ok = 1u8 << cell_of(color) | 1 << BORDER;
        let eyes = &mut self.eyes[color.index()];
        for n in Self::neighbors(p) {
            if self.cells[n] == EMPTY {
                let [a, b, c, d] = Self::neighbors(n);
                let all = ok >> self.cells[a]
                    & ok >> self.cells[b]
                    & ok >> self.cells[c]
                    & ok >> self.cells[d]
                    & 1;
                eyes[n / 64] |= (all as u64) << (n % 64);
            }
        }
    }

    /// [`Board::refresh_eyes`] after the stone on `p`, which had captured
    /// nothing, was taken back: `p` is recomputed, and an empty neighbour
    /// of `p` is no eye of either colour now (it has the empty neighbour
    /// `p`). No other cell changed.
    #[inline(always)]
    pub(super) fn eyes_after_lift(&mut self, p: Point) {
        self.refresh_eye(p);
        for n in Self::neighbors(p) {
            if self.cells[n] == EMPTY {
                let (word, bit) = (n / 64, 1u64 << (n % 64));
                self.eyes[0][word] &= !bit;
                self.eyes[1][word] &= !bit;
            }
        }
    }

    #[inline(always)]
    fn refresh_around(&mut self, q: Point) {
        self.refresh_eye(q);
        for n in Self::neighbors(q) {
            if self.cells[n] == EMPTY {
                self.refresh_eye(n);
            }
        }
    }

    /// The number of *eye points* of `color`: empty points whose
    /// neighbours are all stones of `color` (or border). A move of the
    /// opponent there is suicide unless it captures; any other suicide is
    /// on the liberty of a block of the mover in atari.
    #[inline]
    pub fn eye_count(&self, color: Color) -> usize {
        self.eyes[color.index()]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Whether `p` is an eye point of `color` (see [`Board::eye_count`]).
    #[inline]
    pub fn is_eye(&self, color: Color, p: Point) -> bool {
        self.eyes[color.index()][p / 64] >> (p % 64) & 1 == 1
    }
}
