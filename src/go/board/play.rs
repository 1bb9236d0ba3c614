//! Playing and taking back a move: merging blocks, capturing, the ko ban
//! and the hash, each change recorded in an [`Undo`] so that `undo` restores
//! the board exactly (see the module doc of [`super`]).

use super::*;

impl Board {
    /// Plays a move (or `PASS`) for `color` and returns the record that
    /// takes it back. The move must pass [`Board::check`], or at least
    /// [`Board::check_ignoring_ko`] for a caller that models ko threats.
    /// Debug builds assert it; release builds trust the caller.
    #[inline]
    pub fn play(&mut self, color: Color, p: Point) -> Undo {
        let mut u = Undo::NONE;
        self.play_into(color, p, &mut u);
        u
    }

    /// [`Board::play`] writing the record into `u` (say, in place on an
    /// undo stack, which saves copying it).
    pub fn play_into(&mut self, color: Color, p: Point, u: &mut Undo) {
        debug_assert!(
            self.check_ignoring_ko(color, p).is_ok(),
            "impossible move played"
        );
        *u = Undo {
            point: p as u16,
            color,
            prev_to_move: self.to_move,
            prev_ko: self.ko,
            prev_ko_color: self.ko_color,
            prev_hash: self.hash,
            prev_next: self.next[p],
            prev_head: self.head[p],
            prev_libs: self.libs[p],
            prev_stones: self.stones[p],
            ..Undo::NONE
        };
        self.ko = 0;
        self.to_move = color.opp();
        if p == PASS {
            return;
        }
        let own = cell_of(color);
        let enemy = cell_of(color.opp());
        self.cells[p] = own;
        self.next[p] = p as u16;
        self.head[p] = p as u16;
        self.stones[p] = 1;
        self.set_libs(p, 0);
        self.hash ^= zobrist::STONE[color.index()][p];

        for n in Self::neighbors(p) {
            let c = self.cells[n];
            if c == own {
                let h = self.head[n];
                if !u.merged[..u.n_merged as usize].contains(&h) {
                    u.merged[u.n_merged as usize] = h;
                    u.n_merged += 1;
                }
            } else if c == enemy {
                let h = self.head[n];
                if !u.enemies[..u.n_enemies as usize].contains(&h) {
                    u.enemies[u.n_enemies as usize] = h;
                    u.n_enemies += 1;
                }
            }
        }
        for i in 0..u.n_enemies as usize {
            let h = u.enemies[i] as Point;
            self.set_libs(h, self.libs[h] - 1);
            if self.libs[h] == 0 {
                u.captured[u.n_captured as usize] = h as u16;
                u.n_captured += 1;
                u.n_captured_stones += self.remove_block(h, color);
            }
        }
        self.prisoners[color.index()] += u.n_captured_stones as u32;

        if u.n_merged == 0 {
            let libs = Self::neighbors(p)
                .iter()
                .filter(|&&n| self.cells[n] == EMPTY)
                .count() as u16;
            self.set_libs(p, libs);
            if u.n_captured_stones == 1 && self.libs[p] == 1 {
                // The only liberty is the captured point: a ko shape.
                let k = Self::neighbors(p)
                    .into_iter()
                    .find(|&n| self.cells[n] == EMPTY)
                    .unwrap_or(0);
                self.ko = k as u16;
                self.ko_color = color.opp();
            }
        } else {
            // The largest neighbour keeps its head, so fewer stones are relabelled.
            let merged = &mut u.merged[..u.n_merged as usize];
            let mut best = 0;
            for i in 1..merged.len() {
                if self.stones[merged[i] as usize] > self.stones[merged[best] as usize] {
                    best = i;
                }
            }
            merged.swap(0, best);
            let root = merged[0] as Point;
            u.root_libs = self.libs[root];
            u.root_stones = self.stones[root];
            for &h in merged.iter() {
                let h = h as Point;
                if h != root {
                    self.stones[root] += self.stones[h];
                    self.relabel(h, root as u16);
                    // No longer a head: out of the atari set.
                    self.clear_atari(h);
                }
                self.next.swap(p, h);
            }
            self.stones[root] += 1;
            self.head[p] = root as u16;
            let libs = if merged.len() == 1 {
                // Joining one block: it loses the liberty `p` and gains the
                // empty neighbours of `p` it did not touch yet.
                let mut libs = self.libs[root] - 1;
                for n in Self::neighbors(p) {
                    if self.cells[n] == EMPTY && !self.touches_block(n, p, root as u16) {
                        libs += 1;
                    }
                }
                libs
            } else {
                self.count_libs(root) as u16
            };
            self.set_libs(root, libs);
            // The stone joined `root`: no head (captures may have counted
            // liberties for it on the way).
            self.clear_atari(p);
        }
        if u.n_captured == 0 {
            self.eyes_after_stone(p, color);
        } else {
            self.refresh_eyes(p, &u.captured[..u.n_captured as usize]);
        }
        debug_assert!(self.libs(p) > 0, "suicide played");
    }

    /// Takes back the move recorded in `u`, which must be the last move
    /// played and not yet undone.
    pub fn undo(&mut self, u: &Undo) {
        let p = u.point as Point;
        self.to_move = u.prev_to_move;
        self.ko = u.prev_ko;
        self.ko_color = u.prev_ko_color;
        if p == PASS {
            return;
        }
        let color = u.color;
        if u.n_merged > 0 {
            let merged = &u.merged[..u.n_merged as usize];
            let root = merged[0] as Point;
            for &h in merged.iter().rev() {
                self.next.swap(p, h as Point);
            }
            for &h in &merged[1..] {
                self.relabel(h as Point, h);
                // A head again, with its count untouched.
                self.set_libs(h as Point, self.libs[h as usize]);
            }
            self.set_libs(root, u.root_libs);
            self.stones[root] = u.root_stones;
        }
        self.cells[p] = EMPTY;
        let own = cell_of(color);
        let enemy = cell_of(color.opp());
        for &h in u.captured[..u.n_captured as usize].iter().rev() {
            let h = h as Point;
            let mut q = h;
            loop {
                self.cells[q] = enemy;
                q = self.next[q] as Point;
                if q == h {
                    break;
                }
            }
            // Undo the liberties the capture gave to the surrounding blocks.
            loop {
                self.for_each_distinct_neighbor_block(q, own, |b, l| b.set_libs(l, b.libs[l] - 1));
                q = self.next[q] as Point;
                if q == h {
                    break;
                }
            }
        }
        for &h in &u.enemies[..u.n_enemies as usize] {
            self.set_libs(h as usize, self.libs[h as usize] + 1);
        }
        self.prisoners[color.index()] -= u.n_captured_stones as u32;
        self.next[p] = u.prev_next;
        self.head[p] = u.prev_head;
        // An empty point again: whatever its old count, no block's head.
        self.libs[p] = u.prev_libs;
        self.clear_atari(p);
        self.stones[p] = u.prev_stones;
        self.hash = u.prev_hash;
        if u.n_captured == 0 {
            self.eyes_after_lift(p);
        } else {
            self.refresh_eyes(p, &u.captured[..u.n_captured as usize]);
        }
    }

    /// Removes the block headed by `h`, captured by `by`; its links stay so
    /// that undo can restore it. Returns the number of stones removed.
    fn remove_block(&mut self, h: Point, by: Color) -> u16 {
        let own = cell_of(by);
        let key = &zobrist::STONE[by.opp().index()];
        let mut q = h;
        loop {
            self.cells[q] = EMPTY;
            self.hash ^= key[q];
            q = self.next[q] as Point;
            if q == h {
                break;
            }
        }
        // Only after every stone is gone, so no liberty is given to the
        // captured block itself.
        loop {
            self.for_each_distinct_neighbor_block(q, own, |b, l| b.set_libs(l, b.libs[l] + 1));
            q = self.next[q] as Point;
            if q == h {
                break;
            }
        }
        self.stones[h]
    }

    /// Calls `f(self, head)` once for each distinct block of cell value `c`
    /// next to `q`.
    #[inline]
    fn for_each_distinct_neighbor_block(&mut self, q: Point, c: u8, f: impl Fn(&mut Self, usize)) {
        let mut seen = [0u16; 4];
        let mut n_seen = 0;
        for n in Self::neighbors(q) {
            if self.cells[n] == c {
                let h = self.head[n];
                if !seen[..n_seen].contains(&h) {
                    seen[n_seen] = h;
                    n_seen += 1;
                    f(self, h as usize);
                }
            }
        }
    }

    fn relabel(&mut self, start: Point, to: u16) {
        let mut q = start;
        loop {
            self.head[q] = to;
            q = self.next[q] as Point;
            if q == start {
                break;
            }
        }
    }
}
