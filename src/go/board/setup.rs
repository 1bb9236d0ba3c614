//! Changing the board outside play (setup stones, rebuilding blocks from
//! the cells), listing legal moves, and the consistency check the tests
//! run after every move.

use super::*;

impl Board {
    /// Sets a point's content directly (setup stones, handicap, SGF `AB`/
    /// `AW`/`AE`) and rebuilds blocks. Blocks left without liberties are
    /// removed, as no legal position has them. Clears the ko ban. Not for
    /// search: it rebuilds the whole board.
    pub fn set_point(&mut self, p: Point, content: Option<Color>) {
        if self.cells[p] == BORDER {
            return;
        }
        self.cells[p] = content.map_or(EMPTY, cell_of);
        self.ko = 0;
        self.rebuild();
    }

    /// Recomputes blocks, liberties and the hash from the cells alone.
    fn rebuild(&mut self) {
        self.hash = 0;
        self.atari = [[0; SET_WORDS]; 2];
        let pts: PointList = self.points().collect();
        for &p in &pts {
            self.head[p] = 0;
        }
        for &p in &pts {
            if self.cells[p] == BLACK || self.cells[p] == WHITE {
                let c = if self.cells[p] == BLACK { 0 } else { 1 };
                self.hash ^= zobrist::STONE[c][p];
                if self.head[p] == 0 {
                    self.flood_block(p);
                }
            }
        }
        let mut dead = false;
        for &p in &pts {
            if self.cells[p] != EMPTY && self.head[p] as Point == p && self.libs[p] == 0 {
                dead = true;
                let mut q = p;
                loop {
                    self.cells[q] = EMPTY;
                    q = self.next[q] as Point;
                    if q == p {
                        break;
                    }
                }
            }
        }
        if dead {
            self.rebuild();
            return;
        }
        for &p in &pts {
            self.refresh_eye(p);
        }
    }

    /// Builds the block containing `p` from scratch (links, head, counts).
    fn flood_block(&mut self, p: Point) {
        let c = self.cells[p];
        let mut stack: PointList = ArrayVec::new();
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        let mut n_stones = 1;
        stack.push(p);
        while let Some(q) = stack.pop() {
            for n in Self::neighbors(q) {
                if self.cells[n] == c && self.head[n] == 0 {
                    self.head[n] = p as u16;
                    self.next[n] = self.next[p];
                    self.next[p] = n as u16;
                    n_stones += 1;
                    stack.push(n);
                }
            }
        }
        self.stones[p] = n_stones;
        let libs = self.count_libs(p) as u16;
        self.set_libs(p, libs);
    }

    /// Writes every legal move of `color` (not pass) into `out`.
    pub fn legal_moves(&self, color: Color, out: &mut PointList) {
        out.clear();
        for p in self.points() {
            if self.cells[p] == EMPTY && self.is_legal(color, p) {
                out.push(p);
            }
        }
    }

    /// Checks every incremental invariant against a recomputation; for tests.
    pub fn assert_consistent(&self) {
        let mut fresh = self.clone();
        fresh.rebuild();
        assert_eq!(fresh.hash, self.hash, "hash");
        for p in 0..NUM_POINTS {
            for (i, c) in [BLACK, WHITE].into_iter().enumerate() {
                let bit = self.atari[i][p / 64] >> (p % 64) & 1 == 1;
                let head = self.cells[p] == c && self.head[p] as Point == p;
                assert_eq!(bit, head && self.libs[p] == 1, "atari bit of {p}");
            }
            for c in [Color::Black, Color::White] {
                let want = self.cells[p] == EMPTY
                    && Self::neighbors(p)
                        .iter()
                        .all(|&n| self.cells[n] == cell_of(c) || self.cells[n] == BORDER);
                assert_eq!(self.is_eye(c, p), want, "eye bit of {p}");
            }
        }
        let mut in_atari = [0usize; 2];
        for c in [Color::Black, Color::White] {
            self.for_each_atari_block(c, |h| {
                assert_eq!(self.libs(h), 1, "atari block");
                in_atari[c.index()] += 1;
            });
        }
        for c in [Color::Black, Color::White] {
            let heads = self
                .points()
                .filter(|&p| {
                    self.color_at(p) == Some(c) && self.head[p] as Point == p && self.libs[p] == 1
                })
                .count();
            assert_eq!(in_atari[c.index()], heads, "blocks in atari");
        }
        for p in self.points() {
            if self.cells[p] == BLACK || self.cells[p] == WHITE {
                assert_eq!(self.cells[p], fresh.cells[p], "stone at {p} vanished");
                let mut a = self.clone();
                let mut libs = PointList::new();
                let n = a.block_liberties(p, &mut libs);
                assert_eq!(self.libs(p), n, "liberties of block at {}", Self::vertex(p));
                let mut size = 0;
                self.for_each_stone(p, |q| {
                    size += 1;
                    assert_eq!(self.head[q], self.head[p], "head");
                    assert_eq!(self.cells[q], self.cells[p], "colour");
                });
                assert_eq!(size, self.block_size(p), "block size");
                assert_eq!(size, fresh.block_size(p), "block size vs fresh");
            }
        }
    }
}
