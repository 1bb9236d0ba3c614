//! Go as a [`Game`]: an adapter over [`crate::go::board::Board`] for the
//! generic solvers and the GoGui ruler session.
//!
//! Rules: simple ko (the board's own ban), suicide illegal, area scoring
//! (stones plus surrounded empty points, no dead-stone removal) with komi
//! once both players have passed in a row. Positional superko needs the
//! game's history, which a fixed-size position cannot carry; GTP's own Go
//! state (`crate::go::Game`) keeps applying it. The key therefore includes
//! what decides the rest of the game under these rules: the stones, the
//! player to move, the ko point and the number of consecutive passes.
//!
//! `null_move` is the pass. Moves are board points (`crate::go::Point`),
//! `PASS` for the pass; they print as GTP vertices and `pass`.

use super::{parse_vertex, Cell, Color, Game, MoveList, Outcome, EVAL_MAX};
use crate::go::board::{Board, Point, Undo, PASS};
use crate::go::{score, zobrist, Vertex};

/// Largest Go board a [`GoGame`] accepts: every move of a 19×19 board and
/// the pass fit a [`MoveList`].
pub const MAX_SIZE: usize = 19;

/// XORed into the key for one and for two consecutive passes.
const PASS_KEYS: [u64; 3] = [0, 0x9FB2_1C65_1E98_DF25, 0x4F1B_BCDC_BFA5_3E0A];

/// A Go position with komi and the count of consecutive passes.
#[derive(Clone)]
pub struct GoGame {
    board: Board,
    /// Komi in half points.
    komi_x2: i32,
    passes: u8,
}

impl GoGame {
    /// The empty `size`×`size` board, Black to move; komi `komi_x2 / 2`.
    pub fn new(size: usize, komi_x2: i32) -> GoGame {
        assert!((1..=MAX_SIZE).contains(&size));
        GoGame {
            board: Board::new(size),
            komi_x2,
            passes: 0,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn komi(&self) -> f64 {
        self.komi_x2 as f64 / 2.0
    }

    /// Black's area minus White's minus komi, in half points.
    fn score_x2(&self) -> i32 {
        let owner = score::ownership(&self.board, &[]);
        let mut diff = 0i32;
        for p in self.board.points() {
            match owner[p] {
                score::Owner::Black => diff += 1,
                score::Owner::White => diff -= 1,
                score::Owner::Neutral => {}
            }
        }
        2 * diff - self.komi_x2
    }
}

impl Game for GoGame {
    type Move = Point;
    type Undo = (Undo, u8);

    /// Go positions recur (ko, passes), so whole-game solvers without
    /// graph-history handling refuse it.
    fn repeats(&self) -> bool {
        true
    }

    fn spec(&self) -> String {
        super::spec::GameSpec::Go {
            size: self.board.size(),
            komi_x2: self.komi_x2,
        }
        .to_string()
    }

    fn to_move(&self) -> Color {
        self.board.to_move()
    }

    fn key(&self) -> u64 {
        let mut key = self.board.hash() ^ PASS_KEYS[self.passes.min(2) as usize];
        let color = self.board.to_move();
        if color == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        if let Some(ko) = self.board.ko_point(color) {
            key ^= zobrist::KO_BASE.wrapping_mul(ko as u64);
        }
        key
    }

    fn moves(&self, out: &mut MoveList<Point>) {
        if self.passes >= 2 {
            return;
        }
        let color = self.board.to_move();
        for p in self.board.points() {
            if self.board.is_empty(p) && self.board.is_legal(color, p) {
                out.push(p);
            }
        }
        out.push(PASS);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.passes < 2 {
            return None;
        }
        let black = self.score_x2();
        let mine = match self.board.to_move() {
            Color::Black => black,
            Color::White => -black,
        };
        Some(match mine.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        })
    }

    fn play(&mut self, m: Point) -> (Undo, u8) {
        let old = self.passes;
        let undo = self.board.play(self.board.to_move(), m);
        self.passes = if m == PASS { old + 1 } else { 0 };
        (undo, old)
    }

    fn undo(&mut self, _: Point, (undo, passes): (Undo, u8)) {
        self.board.undo(&undo);
        self.passes = passes;
    }

    fn null_move(&self) -> Option<Point> {
        Some(PASS)
    }

    /// The area score for the player to move, in points.
    fn evaluate(&self) -> i32 {
        let black = self.score_x2() * 8;
        let mine = match self.board.to_move() {
            Color::Black => black,
            Color::White => -black,
        };
        mine.clamp(-EVAL_MAX + 1, EVAL_MAX - 1)
    }

    fn format_move(&self, m: Point) -> String {
        Board::to_move_value(m).to_string()
    }

    fn parse_move(&self, text: &str) -> Option<Point> {
        if self.passes >= 2 {
            return None;
        }
        if text.eq_ignore_ascii_case("pass") {
            return Some(PASS);
        }
        let (c, r) = parse_vertex(text)?;
        let p = self.board.point(Vertex::new(c as u8, r as u8))?;
        self.board.is_legal(self.board.to_move(), p).then_some(p)
    }

    fn display_size(&self) -> usize {
        self.board.size()
    }

    fn cell(&self, col: usize, row: usize) -> Cell {
        if col >= self.board.size() || row >= self.board.size() {
            return Cell::Removed;
        }
        match self.board.color_at(Board::point_at(col, row)) {
            Some(c) => Cell::Stone(c),
            None => Cell::Empty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut GoGame, v: &str) -> (Undo, u8) {
        let m = g.parse_move(v).unwrap_or_else(|| panic!("{v} illegal"));
        g.play(m)
    }

    #[test]
    fn two_passes_end_the_game_with_area_scoring() {
        let mut g = GoGame::new(3, 1);
        assert_eq!(g.spec(), "go:3,0.5");
        let start = g.key();
        play(&mut g, "B2");
        let after_b2 = g.key();
        play(&mut g, "pass");
        assert_ne!(g.key(), after_b2);
        assert_eq!(g.outcome(), None);
        let u = play(&mut g, "pass");
        // Black owns all 9 points: B+8.5, and White is to move.
        assert_eq!(g.outcome(), Some(Outcome::Loss));
        let mut list = MoveList::new();
        g.moves(&mut list);
        assert!(list.is_empty());
        g.undo(PASS, u);
        assert_eq!(g.outcome(), None);
        assert_ne!(start, after_b2);
    }

    #[test]
    fn ko_point_is_part_of_the_key() {
        // Black A2 B3 B1 and White C3 D2 C1 around a ko at B2/C2.
        let mut g = GoGame::new(4, 0);
        for v in ["A2", "C3", "B3", "D2", "B1", "C1", "pass", "B2"] {
            play(&mut g, v);
        }
        let before = g.key();
        // Black takes the ko at C2; White may not retake B2 at once.
        let u = play(&mut g, "C2");
        let b2 = Board::point_at(1, 1);
        assert_eq!(g.board().ko_point(Color::White), Some(b2));
        assert_eq!(g.parse_move("B2"), None);
        let mut list = MoveList::new();
        g.moves(&mut list);
        assert!(!list.contains(&b2));
        assert_eq!(*list.last().unwrap(), PASS);
        // Same stones without the ban hash differently.
        let mut other = g.clone();
        let pu = other.play(PASS);
        let wpu = other.play(PASS);
        other.undo(PASS, wpu);
        other.undo(PASS, pu);
        assert_eq!(other.key(), g.key());
        g.undo(Board::point_at(2, 1), u);
        assert_eq!(g.key(), before);
        assert_eq!(g.null_move(), Some(PASS));
    }
}
