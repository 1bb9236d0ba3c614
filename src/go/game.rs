//! A game of Go as GTP sees it: the board plus komi, the ko rule, handicap and
//! setup stones, and the history of moves that `undo` and positional superko
//! need.
//!
//! The ko rule is simple ko or positional superko (a move may not recreate
//! any earlier position of the game, whoever is to move). Positional superko
//! is the default, as on computer-Go servers; `tesuji-ko_rule` and the
//! `--ko` command-line flag switch it (documented in `protocol/`).

use super::board::{Board, Illegal, Point, PASS};
use super::color::Color;
use super::handicap;
use super::vertex::{Move, Vertex};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    Simple,
    PositionalSuperko,
}

impl KoRule {
    pub fn parse(s: &str) -> Option<KoRule> {
        match s.to_ascii_lowercase().as_str() {
            "simple" => Some(KoRule::Simple),
            "positional" | "superko" | "positional_superko" | "psk" => {
                Some(KoRule::PositionalSuperko)
            }
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            KoRule::Simple => "simple",
            KoRule::PositionalSuperko => "positional",
        }
    }
}

/// Why `Game::play` refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    Board(Illegal),
    Superko,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::Board(Illegal::Occupied) => "occupied",
            PlayError::Board(Illegal::Suicide) => "suicide",
            PlayError::Board(Illegal::Ko) => "ko",
            PlayError::Board(Illegal::OffBoard) => "off board",
            PlayError::Superko => "superko",
        })
    }
}

/// One move of the history, with what it takes to undo it.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    pub color: Color,
    pub mv: Move,
    undo: super::board::Undo,
}

/// The game state behind the GTP commands.
#[derive(Clone)]
pub struct Game {
    board: Board,
    /// The position before the first recorded move (after handicap and setup).
    initial: Board,
    komi: f64,
    ko_rule: KoRule,
    handicap: u32,
    moves: Vec<Played>,
    /// Stone hashes of every position since `initial`, `initial` first.
    hashes: Vec<u64>,
}

impl Game {
    pub fn new(size: usize) -> Game {
        let board = Board::new(size);
        Game {
            initial: board.clone(),
            hashes: vec![board.hash()],
            board,
            komi: 0.0,
            ko_rule: KoRule::PositionalSuperko,
            handicap: 0,
            moves: Vec::with_capacity(1024),
        }
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn initial_board(&self) -> &Board {
        &self.initial
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    pub fn ko_rule(&self) -> KoRule {
        self.ko_rule
    }

    pub fn set_ko_rule(&mut self, rule: KoRule) {
        self.ko_rule = rule;
    }

    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// Hashes of every position of the game so far, oldest first.
    pub fn position_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The player whose turn it is (after the last move, or white after
    /// handicap stones).
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Empties the board and forgets the history; keeps size, komi and rule.
    pub fn clear(&mut self) {
        *self = Game {
            komi: self.komi,
            ko_rule: self.ko_rule,
            ..Game::new(self.size())
        };
    }

    /// Whether `color` may play `mv` now, under this game's ko rule.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        let p = self
            .board
            .move_point(mv)
            .ok_or(PlayError::Board(Illegal::OffBoard))?;
        self.check_point(color, p)
    }

    /// [`Game::check`] for a board point.
    pub fn check_point(&self, color: Color, p: Point) -> Result<(), PlayError> {
        self.board.check(color, p).map_err(PlayError::Board)?;
        if p != PASS && self.ko_rule == KoRule::PositionalSuperko {
            let mut b = self.board.clone();
            b.play(color, p);
            if self.hashes.contains(&b.hash()) {
                return Err(PlayError::Superko);
            }
        }
        Ok(())
    }

    /// Plays `mv` for `color` if it is legal; otherwise nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        let p = self
            .board
            .move_point(mv)
            .ok_or(PlayError::Board(Illegal::OffBoard))?;
        self.board.check(color, p).map_err(PlayError::Board)?;
        let undo = self.board.play(color, p);
        if p != PASS
            && self.ko_rule == KoRule::PositionalSuperko
            && self.hashes.contains(&self.board.hash())
        {
            self.board.undo(&undo);
            return Err(PlayError::Superko);
        }
        self.moves.push(Played { color, mv, undo });
        self.hashes.push(self.board.hash());
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.moves.pop() {
            Some(m) => {
                self.board.undo(&m.undo);
                self.hashes.pop();
                true
            }
            None => false,
        }
    }

    /// Puts stones directly on the board (handicap, SGF setup). The moves
    /// played so far become part of the starting position: they can no
    /// longer be undone, as GTP has no way to take back a setup.
    pub fn setup(&mut self, stones: &[(Option<Color>, Vertex)]) {
        let to_move = self.board.to_move();
        for &(c, v) in stones {
            if let Some(p) = self.board.point(v) {
                self.board.set_point(p, c);
            }
        }
        self.board.set_to_move(to_move);
        self.rebase();
    }

    /// Places handicap stones on an empty board with GTP's fixed placement;
    /// returns the vertices, or `None` when the number is not allowed on this
    /// board size.
    pub fn fixed_handicap(&mut self, n: u32) -> Option<Vec<Vertex>> {
        let vertices = handicap::fixed(self.size(), n)?;
        self.place_handicap(&vertices);
        Some(vertices)
    }

    /// Places the given black handicap stones; white moves next.
    pub fn place_handicap(&mut self, vertices: &[Vertex]) {
        let stones: Vec<_> = vertices.iter().map(|&v| (Some(Color::Black), v)).collect();
        self.setup(&stones);
        self.handicap = vertices.len() as u32;
        self.board.set_to_move(Color::White);
        self.rebase();
    }

    /// Sets the player to move; before the first move this is part of the
    /// starting position (SGF `PL`), so `printsgf` can record it.
    pub fn set_to_move(&mut self, c: Color) {
        self.board.set_to_move(c);
        if self.moves.is_empty() {
            self.initial.set_to_move(c);
        }
    }

    fn rebase(&mut self) {
        self.moves.clear();
        self.initial = self.board.clone();
        self.hashes.clear();
        self.hashes.push(self.board.hash());
    }

    /// Whether the board has no stones.
    pub fn board_is_empty(&self) -> bool {
        self.board.stone_counts() == [0, 0]
    }

    /// Whether the last two moves were passes.
    pub fn two_passes(&self) -> bool {
        let n = self.moves.len();
        n >= 2 && self.moves[n - 1].mv == Move::Pass && self.moves[n - 2].mv == Move::Pass
    }
}
