//! A game being played move by move, behind an object-safe trait so that
//! the GTP engine can hold any [`Game`] chosen at run time: [`AnyGame`]
//! speaks in strings (GTP vertices, GoGui's board text, results), and
//! [`Session`] implements it once for every `G: Game`.
//!
//! This is the non-hot side of the games: it allocates freely (move lists
//! as strings, the history as a `Vec`).

use super::spec::GameSpec;
use super::{Cell, Color, Game, MoveList, Outcome};
use crate::solve::{Algo, Limits, Report};
use std::fmt::Write;
use std::sync::atomic::AtomicBool;

/// A game in progress, whatever its type.
pub trait AnyGame: Send {
    /// The spec of the game, e.g. `nogo:4x4`.
    fn spec(&self) -> String;
    /// The player to move.
    fn to_move(&self) -> Color;
    /// Side of the square board GoGui shows.
    fn display_size(&self) -> usize;
    /// The displayed cell at column `col`, row `row` (0 = bottom).
    fn cell(&self, col: usize, row: usize) -> Cell;
    /// The legal moves of the player to move as GTP vertices, in the game's
    /// generation order; empty exactly when the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays `vertex` for `color`; an error (and no change) unless `color`
    /// is to move and the move is legal.
    fn play(&mut self, color: Color, vertex: &str) -> Result<(), String>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Goes back to the start position.
    fn clear(&mut self);
    /// How the game ended, from Black's (the first player's) view; `None`
    /// while it goes on.
    fn result(&self) -> Option<Outcome>;
    /// Chooses a move for the player to move and plays it; answers its
    /// vertex. See [`genmove_search`].
    fn genmove(&mut self, stop: &AtomicBool) -> Result<String, String>;
    /// Solves the current position for the player to move with `algo`
    /// ([`crate::solve::solve`]): the value is the mover's, the move a
    /// vertex. An error (`game is over`, or the algorithm refusing the
    /// game) changes nothing.
    fn solve(&self, algo: Algo, limits: &Limits) -> Result<Report<String>, String>;
}

/// A game of type `G`: its start position, the current one, and the moves
/// that lead from one to the other.
pub struct Session<G: Game> {
    start: G,
    pos: G,
    history: Vec<(G::Move, G::Undo)>,
}

impl<G: Game> Session<G> {
    pub fn new(start: G) -> Session<G> {
        Session {
            pos: start.clone(),
            start,
            history: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.pos
    }
}

/// Search bounds of `genmove` in games other than GTP's own Go: NegaScout
/// stops at whichever comes first (and at `# interrupt`). The node bound
/// keeps small games deterministic; the time bound keeps big ones prompt.
pub const GENMOVE_NODES: u64 = 2_000_000;
pub const GENMOVE_TIME: std::time::Duration = std::time::Duration::from_secs(2);
const GENMOVE_MEMORY: usize = 16 << 20;

/// The move `genmove` plays in `pos` for every game but GTP's own Go: the
/// generic NegaScout player of [`crate::solve::negascout`] (iterative
/// deepening, aspiration windows, the game's evaluation at the horizon).
pub fn genmove_search<G: Game>(pos: &G, stop: &AtomicBool) -> Result<G::Move, String> {
    let limits = crate::solve::Limits {
        nodes: Some(GENMOVE_NODES),
        time: Some(GENMOVE_TIME),
        memory: Some(GENMOVE_MEMORY),
        interrupt: Some(stop),
    };
    crate::solve::negascout::best_move(pos, &limits)
        .best
        .ok_or_else(|| "game is over".to_string())
}

impl<G: Game> AnyGame for Session<G>
where
    G::Undo: Send,
{
    fn spec(&self) -> String {
        self.pos.spec()
    }

    fn to_move(&self) -> Color {
        self.pos.to_move()
    }

    fn display_size(&self) -> usize {
        self.pos.display_size()
    }

    fn cell(&self, col: usize, row: usize) -> Cell {
        self.pos.cell(col, row)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut list = MoveList::new();
        if self.pos.outcome().is_none() {
            self.pos.moves(&mut list);
        }
        list.iter().map(|&m| self.pos.format_move(m)).collect()
    }

    fn play(&mut self, color: Color, vertex: &str) -> Result<(), String> {
        let illegal = || "illegal move".to_string();
        if color != self.pos.to_move() || self.pos.outcome().is_some() {
            return Err(illegal());
        }
        let m = self.pos.parse_move(vertex).ok_or_else(illegal)?;
        let undo = self.pos.play(m);
        self.history.push((m, undo));
        Ok(())
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((m, u)) => {
                self.pos.undo(m, u);
                true
            }
            None => false,
        }
    }

    fn clear(&mut self) {
        self.pos = self.start.clone();
        self.history.clear();
    }

    fn result(&self) -> Option<Outcome> {
        let o = self.pos.outcome()?;
        Some(match self.pos.to_move() {
            Color::Black => o,
            Color::White => o.flip(),
        })
    }

    fn genmove(&mut self, stop: &AtomicBool) -> Result<String, String> {
        let m = genmove_search(&self.pos, stop)?;
        let text = self.pos.format_move(m);
        let undo = self.pos.play(m);
        self.history.push((m, undo));
        Ok(text)
    }

    fn solve(&self, algo: Algo, limits: &Limits) -> Result<Report<String>, String> {
        if self.pos.outcome().is_some() {
            return Err("game is over".into());
        }
        let r = crate::solve::solve(algo, &self.pos, limits)?;
        Ok(Report {
            value: r.value,
            best: r.best.map(|m| self.pos.format_move(m)),
            stopped: r.stopped,
            nodes: r.nodes,
            elapsed: r.elapsed,
            peak_memory: r.peak_memory,
        })
    }
}

/// A new game of `spec`, at its start position.
pub fn open(spec: &GameSpec) -> Box<dyn AnyGame> {
    struct Open;
    impl super::spec::Visit for Open {
        type Out = Box<dyn AnyGame>;
        fn visit<G: Game>(self, game: G) -> Box<dyn AnyGame> {
            Box::new(Session::new(game))
        }
    }
    spec.build(Open)
}

/// GoGui's name of a game (`gogui-rules_game_id`): lowercase letters only,
/// as GoGui's manual asks ("Game > Rules" chapter).
pub fn game_id(spec: &GameSpec) -> &'static str {
    match *spec {
        GameSpec::Domineering { .. } => "domineering",
        GameSpec::NoGo { .. } => "nogo",
        GameSpec::Mnk {
            cols: 3,
            rows: 3,
            k: 3,
            exact: false,
        } => "tictactoe",
        GameSpec::Mnk {
            cols: 15,
            rows: 15,
            k: 5,
            ..
        } => "gomoku",
        GameSpec::Mnk { .. } => "mnk",
        GameSpec::Go { .. } => "go",
    }
}

/// The character of a cell in GoGui's board text and in diagrams.
pub fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Empty => '.',
        Cell::Stone(Color::Black) => 'X',
        Cell::Stone(Color::White) => 'O',
        Cell::Removed => '?',
    }
}

/// `gogui-rules_board`: the displayed square board, top row first, one
/// character per cell separated by spaces.
pub fn board_text(game: &dyn AnyGame) -> String {
    let n = game.display_size();
    let mut out = String::new();
    for row in (0..n).rev() {
        let line: Vec<String> = (0..n)
            .map(|col| cell_char(game.cell(col, row)).to_string())
            .collect();
        out.push_str(&line.join(" "));
        if row > 0 {
            out.push('\n');
        }
    }
    out
}

/// GoGui's result text: `B+`, `W+`, `0` for a draw, `?` while the game
/// goes on (GTP's `final_score` notation without a margin).
pub fn result_text(result: Option<Outcome>) -> &'static str {
    match result {
        Some(Outcome::Win) => "B+",
        Some(Outcome::Loss) => "W+",
        Some(Outcome::Draw) => "0",
        None => "?",
    }
}

/// `showboard`: the game's own rectangle with coordinates, and who moves.
pub fn diagram(game: &dyn AnyGame) -> String {
    let n = game.display_size();
    // The board fills the lower-left corner of the displayed square.
    let cols = (0..n)
        .take_while(|&c| game.cell(c, 0) != Cell::Removed)
        .count();
    let rows = (0..n)
        .take_while(|&r| game.cell(0, r) != Cell::Removed)
        .count();
    let letters: String = (0..cols)
        .map(|c| format!(" {}", super::COLUMN_LETTERS[c] as char))
        .collect();
    let mut out = String::from("\n");
    let _ = writeln!(out, "  {letters}");
    for row in (0..rows).rev() {
        let _ = write!(out, "{:>2}", row + 1);
        for col in 0..cols {
            let _ = write!(out, " {}", cell_char(game.cell(col, row)));
        }
        let _ = writeln!(out, " {:<2}", row + 1);
    }
    let _ = writeln!(out, "  {letters}");
    match game.result() {
        None => {
            let _ = write!(out, "{}, {} to move", game.spec(), game.to_move());
        }
        Some(r) => {
            let _ = write!(out, "{}, game over: {}", game.spec(), result_text(Some(r)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_play_undo_and_show() {
        let mut g = open(&GameSpec::parse("domineering:2x3").unwrap());
        assert_eq!(g.legal_moves(), ["A1", "B1", "C1"]);
        assert!(g.play(Color::White, "A1").is_err());
        assert!(g.play(Color::Black, "A2").is_err());
        g.play(Color::Black, "B1").unwrap();
        assert_eq!(g.to_move(), Color::White);
        // White has no horizontal domino left: Black (vertical) won.
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.result(), Some(Outcome::Win));
        assert_eq!(board_text(&*g), "? ? ?\n. X .\n. X .");
        assert!(g.undo());
        assert!(!g.undo());
        assert_eq!(g.result(), None);
        g.play(Color::Black, "a1").unwrap();
        g.clear();
        assert_eq!(g.legal_moves().len(), 3);
        assert!(diagram(&*g).ends_with("domineering:2x3, black to move"));
    }

    #[test]
    fn game_ids_and_results() {
        let id = |s: &str| game_id(&GameSpec::parse(s).unwrap());
        assert_eq!(id("mnk:15,15,5,exact"), "gomoku");
        assert_eq!(id("mnk:3,3,3"), "tictactoe");
        assert_eq!(id("mnk:6,5,4"), "mnk");
        assert_eq!(id("nogo:4x4"), "nogo");
        assert_eq!(id("go:9"), "go");
        let mut g = open(&GameSpec::parse("mnk:3,3,3").unwrap());
        for (c, v) in [
            (Color::Black, "A1"),
            (Color::White, "A2"),
            (Color::Black, "B1"),
            (Color::White, "B2"),
            (Color::Black, "C1"),
        ] {
            g.play(c, v).unwrap();
        }
        assert_eq!(result_text(g.result()), "B+");
        assert!(g.legal_moves().is_empty());
        assert_eq!(
            g.genmove(&AtomicBool::new(false)),
            Err("game is over".to_string())
        );
    }
}
