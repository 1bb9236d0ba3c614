//! m,n,k-games: players take turns putting stones on an empty point of a
//! board M columns wide and N rows high; whoever first has K of their stones
//! in a row (horizontally, vertically or diagonally) wins, and a full board
//! without one is a draw. `mnk:3,3,3` is tic-tac-toe and `mnk:15,15,5`
//! freestyle Gomoku, where five *or more* in a row win; with the `exact`
//! option (`mnk:15,15,5,exact`) only lines of exactly K win, as in standard
//! Gomoku. Black moves first.
//!
//! # Notation
//!
//! Points are GTP vertices: column letters from `A` (left, M of them), rows
//! from `1` (bottom, N of them). GoGui shows the board in the lower-left
//! corner of a square board of side max(M, N), the other cells removed.
//!
//! # Representation
//!
//! Boards go up to 25×25, beyond a machine word, so the position is a byte
//! per point plus a bitset of the empty points for move generation. Only
//! the last move can complete a line, so `play` measures the four lines
//! through it (at most 4·2·(K−1) steps) and remembers whether it won;
//! `undo` clears one byte.
//!
//! # Evaluation
//!
//! The heuristic value counts the *open windows*: the K consecutive points
//! of a line (in any of the four directions) that hold stones of one colour
//! only. A window with n of a player's stones and none of the opponent's is
//! worth 4^(n−1) to that player, so three of four in a window outweigh many
//! scattered stones; a window holding both colours is dead and worth
//! nothing. This is the threat-space idea behind classical Gomoku
//! evaluations (Allis, "Searching for Solutions in Games and Artificial
//! Intelligence", 1994, ch. 4: a threat is a line one or two stones short
//! of K). The value is kept incrementally: each window's stone counts live
//! in the position, and a move touches at most 4·K windows, so `play`
//! stays O(K) and `evaluate` is O(1), cheap enough to order every child by.

use super::spec::MAX_SIDE;
use super::{cell_name, parse_cell, Cell, Color, Game, MoveList, Outcome, EVAL_MAX};
use crate::go::zobrist::key_tables;

/// Most points an m,n,k board may have.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
const WORDS: usize = MAX_CELLS.div_ceil(64);

const EMPTY: u8 = 0;

/// The four line directions (columns, rows): row, column, both diagonals.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Largest stone count a window's weight grows with; beyond it the weight
/// stays at `4^(WEIGHT_CAP−1)`, so long lines (K up to 25) cannot overflow.
const WEIGHT_CAP: u32 = 8;

/// What an open window with `n` stones of one colour is worth to it.
#[inline]
fn weight(n: u8) -> i32 {
    match n {
        0 => 0,
        n => 1 << (2 * (n as u32).min(WEIGHT_CAP) - 2),
    }
}

static STONE_KEYS: [[u64; MAX_CELLS]; 2] = key_tables(0x3A7C_6F0D);
const WHITE_TO_MOVE: u64 = 0x61C8_8646_80B5_83EB;

/// An m,n,k position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mnk {
    cols: u8,
    rows: u8,
    k: u8,
    exact: bool,
    to_move: Color,
    /// Whether the last move made a winning line (the game is over).
    won: bool,
    stones: u16,
    /// `EMPTY` or a colour's `cell()` value, point `row * cols + col`.
    cells: [u8; MAX_CELLS],
    /// The empty points.
    empty: [u64; WORDS],
    key: u64,
    /// Stones of each colour (by `Color::index`) in the window of K points
    /// that starts at point `p` and runs in direction `d`, at `4 * p + d`
    /// (windows that leave the board are never touched).
    windows: [[u8; 2]; 4 * MAX_CELLS],
    /// The sum of the weights of each colour's open windows.
    score: [i32; 2],
}

impl Mnk {
    /// The empty board `cols` wide and `rows` high, `k` in a row to win.
    ///
    /// Panics unless both sides are in 1..=MAX_SIDE and k ≥ 1;
    /// [`super::spec`] checks user input first.
    pub fn new(cols: usize, rows: usize, k: usize, exact: bool) -> Mnk {
        assert!((1..=MAX_SIDE).contains(&cols) && (1..=MAX_SIDE).contains(&rows));
        assert!((1..=MAX_SIDE).contains(&k));
        let mut empty = [0u64; WORDS];
        for p in 0..rows * cols {
            empty[p / 64] |= 1 << (p % 64);
        }
        Mnk {
            cols: cols as u8,
            rows: rows as u8,
            k: k as u8,
            exact,
            to_move: Color::Black,
            won: false,
            stones: 0,
            cells: [EMPTY; MAX_CELLS],
            empty,
            key: 0,
            windows: [[0; 2]; 4 * MAX_CELLS],
            score: [0; 2],
        }
    }

    /// Adds (`add`) or removes a stone of colour index `me` on point `p`
    /// to or from every window through it, keeping `score` the sum of the
    /// open windows' weights.
    fn update_windows(&mut self, p: usize, me: usize, add: bool) {
        let (w, h, k) = (self.cols as i32, self.rows as i32, self.k as i32);
        let (col, row) = ((p % self.cols()) as i32, (p / self.cols()) as i32);
        for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
            for back in 0..k {
                let (c0, r0) = (col - back * dc, row - back * dr);
                let (c1, r1) = (c0 + (k - 1) * dc, r0 + (k - 1) * dr);
                let inside = |c: i32, r: i32| c >= 0 && c < w && r >= 0 && r < h;
                if !inside(c0, r0) || !inside(c1, r1) {
                    continue;
                }
                let slot = &mut self.windows[4 * (r0 * w + c0) as usize + d];
                let (mine, theirs) = (slot[me], slot[1 - me]);
                if add {
                    slot[me] += 1;
                } else {
                    slot[me] -= 1;
                }
                let sign = if add { 1 } else { -1 };
                if theirs == 0 {
                    let after = if add { mine + 1 } else { mine - 1 };
                    self.score[me] += weight(after) - weight(mine);
                } else if (add && mine == 0) || (!add && mine == 1) {
                    // The window dies (or comes back to life) for the
                    // opponent.
                    self.score[1 - me] -= sign * weight(theirs);
                }
            }
        }
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    fn cells_count(&self) -> usize {
        self.cols() * self.rows()
    }

    /// The stones of `color` in a row from (`col`, `row`) in direction
    /// (`dc`, `dr`), not counting the start.
    #[inline]
    fn run(&self, col: i32, row: i32, dc: i32, dr: i32, own: u8) -> u32 {
        let (w, h) = (self.cols as i32, self.rows as i32);
        let (mut c, mut r, mut n) = (col + dc, row + dr, 0);
        while c >= 0 && c < w && r >= 0 && r < h && self.cells[(r * w + c) as usize] == own {
            n += 1;
            c += dc;
            r += dr;
        }
        n
    }

    /// Whether the stone on `p` is part of a winning line.
    fn makes_line(&self, p: usize) -> bool {
        let own = self.cells[p];
        let (col, row) = ((p % self.cols()) as i32, (p / self.cols()) as i32);
        let k = self.k as u32;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let len = 1 + self.run(col, row, dc, dr, own) + self.run(col, row, -dc, -dr, own);
            if self.exact {
                len == k
            } else {
                len >= k
            }
        })
    }

    fn is_empty(&self, p: usize) -> bool {
        p < self.cells_count() && self.cells[p] == EMPTY
    }
}

impl Game for Mnk {
    type Move = u16;
    type Undo = ();
    /// Each move adds a stone; none is removed.
    const FIXED_DEPTH: bool = true;

    fn spec(&self) -> String {
        format!(
            "mnk:{},{},{}{}",
            self.cols,
            self.rows,
            self.k,
            if self.exact { ",exact" } else { "" }
        )
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn moves(&self, out: &mut MoveList<u16>) {
        if self.won {
            return;
        }
        for (i, &word) in self.empty.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push((i * 64) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }

    fn mobility(&self) -> usize {
        if self.won {
            0
        } else {
            self.cells_count() - self.stones as usize
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Loss)
        } else if self.stones as usize == self.cells_count() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn play(&mut self, m: u16) {
        let p = m as usize;
        let c = self.to_move;
        self.cells[p] = c.cell();
        self.empty[p / 64] &= !(1 << (p % 64));
        self.stones += 1;
        self.key ^= STONE_KEYS[c.index()][p] ^ WHITE_TO_MOVE;
        self.to_move = c.opp();
        self.won = self.makes_line(p);
        self.update_windows(p, c.index(), true);
    }

    fn undo(&mut self, m: u16, _: ()) {
        let p = m as usize;
        let c = self.to_move.opp();
        self.cells[p] = EMPTY;
        self.empty[p / 64] |= 1 << (p % 64);
        self.stones -= 1;
        self.key ^= STONE_KEYS[c.index()][p] ^ WHITE_TO_MOVE;
        self.to_move = c;
        // Moves are only played in positions that are not over.
        self.won = false;
        self.update_windows(p, c.index(), false);
    }

    /// No knowledge yet: every unfinished position is even.
    fn evaluate(&self) -> i32 {
        let me = self.to_move.index();
        let v = self.score[me] - self.score[1 - me];
        v.clamp(-(EVAL_MAX - 1), EVAL_MAX - 1)
    }

    fn format_move(&self, m: u16) -> String {
        cell_name(m as usize, self.cols())
    }

    fn parse_move(&self, text: &str) -> Option<u16> {
        let p = parse_cell(text, self.rows(), self.cols())?;
        (self.outcome().is_none() && self.is_empty(p)).then_some(p as u16)
    }

    fn display_size(&self) -> usize {
        self.rows().max(self.cols())
    }

    fn cell(&self, col: usize, row: usize) -> Cell {
        if col >= self.cols() || row >= self.rows() {
            return Cell::Removed;
        }
        match self.cells[row * self.cols() + col] {
            EMPTY => Cell::Empty,
            c if c == Color::Black.cell() => Cell::Stone(Color::Black),
            _ => Cell::Stone(Color::White),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Negamax value for the player to move (1 win, 0 draw, -1 loss), with
    /// a table of solved positions.
    fn value(g: &mut Mnk, table: &mut HashMap<u64, i8>) -> i8 {
        if let Some(o) = g.outcome() {
            return match o {
                Outcome::Win => 1,
                Outcome::Draw => 0,
                Outcome::Loss => -1,
            };
        }
        if let Some(&v) = table.get(&g.key()) {
            return v;
        }
        let mut list = MoveList::new();
        g.moves(&mut list);
        let mut best = -1;
        for &m in &list {
            g.play(m);
            let v = -value(g, table);
            g.undo(m, ());
            best = best.max(v);
            if best == 1 {
                break;
            }
        }
        table.insert(g.key(), best);
        best
    }

    fn play_all(g: &mut Mnk, moves: &[&str]) {
        for m in moves {
            let mv = g.parse_move(m).unwrap_or_else(|| panic!("{m} illegal"));
            g.play(mv);
        }
    }

    /// Tic-tac-toe is a draw (folklore; exhaustive search here).
    #[test]
    fn tic_tac_toe_is_a_draw() {
        assert_eq!(value(&mut Mnk::new(3, 3, 3, false), &mut HashMap::new()), 0);
        // Two in a row on 3×3 is an easy first-player win.
        assert_eq!(value(&mut Mnk::new(3, 3, 2, false), &mut HashMap::new()), 1);
        // Four in a row cannot fit on 3×3.
        assert_eq!(value(&mut Mnk::new(3, 3, 4, false), &mut HashMap::new()), 0);
    }

    #[test]
    fn lines_in_every_direction() {
        for line in [
            ["A1", "B1", "C1"],
            ["B1", "B2", "B3"],
            ["A1", "B2", "C3"],
            ["A3", "B2", "C1"],
        ] {
            let mut g = Mnk::new(3, 3, 3, false);
            // White answers on points off the line.
            let others: Vec<&str> = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
                .into_iter()
                .filter(|v| !line.contains(v))
                .collect();
            play_all(&mut g, &[line[0], others[0], line[1], others[3]]);
            assert_eq!(g.outcome(), None, "{line:?}");
            let last = g.parse_move(line[2]).unwrap();
            g.play(last);
            assert_eq!(g.outcome(), Some(Outcome::Loss), "{line:?}");
            assert_eq!(g.mobility(), 0);
            let mut list = MoveList::new();
            g.moves(&mut list);
            assert!(list.is_empty());
            g.undo(last, ());
            assert_eq!(g.outcome(), None);
        }
    }

    #[test]
    fn overlines_and_exact_mode() {
        // Black: A1 B1 D1 E1 then C1 makes six with F1? Build five + one.
        let moves = ["A1", "A2", "B1", "B2", "D1", "D2", "E1", "E2", "F1", "G5"];
        for (exact, over) in [(false, true), (true, false)] {
            let mut g = Mnk::new(9, 9, 5, exact);
            play_all(&mut g, &moves);
            assert_eq!(g.outcome(), None);
            play_all(&mut g, &["C1"]); // A1..F1: six in a row
            assert_eq!(g.outcome().is_some(), over, "exact={exact}");
        }
        let mut g = Mnk::new(9, 9, 5, true);
        play_all(
            &mut g,
            &["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1"],
        );
        assert_eq!(g.outcome(), Some(Outcome::Loss));
    }

    #[test]
    fn full_board_is_a_draw_and_rectangles_work() {
        let mut g = Mnk::new(2, 1, 2, false);
        play_all(&mut g, &["A1", "B1"]);
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        let g = Mnk::new(6, 5, 4, false);
        assert_eq!(g.mobility(), 30);
        assert_eq!(g.display_size(), 6);
        assert_eq!(g.cell(5, 4), Cell::Empty);
        assert_eq!(g.cell(0, 5), Cell::Removed);
        assert_eq!(g.parse_move("F5"), Some(29));
        assert_eq!(g.parse_move("G1"), None);
        assert_eq!(g.parse_move("A6"), None);
        assert_eq!(g.spec(), "mnk:6,5,4");
    }

    #[test]
    fn keys_follow_play_and_undo() {
        let mut g = Mnk::new(15, 15, 5, false);
        let start = g.clone();
        let mut played = Vec::new();
        let mut list = MoveList::new();
        for i in 0..40 {
            list.clear();
            g.moves(&mut list);
            let m = list[(i * 37) % list.len()];
            g.play(m);
            played.push(m);
            if g.outcome().is_some() {
                break;
            }
        }
        for &m in played.iter().rev() {
            g.undo(m, ());
        }
        assert_eq!(g, start);
    }

    /// The open-window score computed from scratch, the definition the
    /// incremental one must match.
    fn scratch_score(g: &Mnk) -> [i32; 2] {
        let (w, h, k) = (g.cols as i32, g.rows as i32, g.k as i32);
        let mut score = [0; 2];
        for r in 0..h {
            for c in 0..w {
                for &(dc, dr) in &DIRECTIONS {
                    let (c1, r1) = (c + (k - 1) * dc, r + (k - 1) * dr);
                    if c1 < 0 || c1 >= w || r1 < 0 || r1 >= h {
                        continue;
                    }
                    let mut n = [0u8; 2];
                    for i in 0..k {
                        match g.cells[((r + i * dr) * w + c + i * dc) as usize] {
                            EMPTY => {}
                            x if x == Color::Black.cell() => n[0] += 1,
                            _ => n[1] += 1,
                        }
                    }
                    if n[1] == 0 {
                        score[0] += weight(n[0]);
                    } else if n[0] == 0 {
                        score[1] += weight(n[1]);
                    }
                }
            }
        }
        score
    }

    #[test]
    fn window_score_follows_play_and_undo() {
        for (cols, rows, k, seed) in [(3, 3, 3, 1u64), (7, 6, 4, 2), (15, 15, 5, 3), (9, 4, 9, 4)] {
            let mut g = Mnk::new(cols, rows, k, false);
            let mut state = seed;
            let mut played = Vec::new();
            let mut moves = MoveList::new();
            loop {
                assert_eq!(g.score, scratch_score(&g), "{cols}x{rows} k{k} {played:?}");
                moves.clear();
                g.moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let (s, r) = crate::go::zobrist::splitmix64(state);
                state = s;
                let m = moves[(r % moves.len() as u64) as usize];
                g.play(m);
                played.push(m);
            }
            while let Some(m) = played.pop() {
                g.undo(m, ());
                assert_eq!(g.score, scratch_score(&g), "undo {cols}x{rows} k{k}");
            }
            assert_eq!(g, Mnk::new(cols, rows, k, false));
        }
    }

    #[test]
    fn evaluation_prefers_the_open_three() {
        // Black has three in a row with both ends open, White scattered
        // stones: Black, to move, is far ahead.
        let mut g = Mnk::new(9, 9, 4, false);
        play_all(&mut g, &["C5", "A1", "D5", "J1", "E5", "A9"]);
        assert!(g.evaluate() > 0, "{}", g.evaluate());
        g.play(parse_cell("J9", 9, 9).unwrap() as u16);
        assert!(g.evaluate() < 0, "{}", g.evaluate());
    }
}
