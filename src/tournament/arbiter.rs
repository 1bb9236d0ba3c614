//! The rules as the match runner enforces them: tesuji's own, never an
//! engine's. Every move an engine answers is checked here before the
//! opponent hears of it, and the finished game is scored here.
//!
//! Go uses [`crate::go::Game`] (GTP's own game: simple ko or positional
//! superko, suicide forbidden) and area scoring ([`crate::go::score`]); the
//! dead stones come from the caller (a referee engine or tesuji's own
//! estimate, see [`super::game`]). Every other game of [`GameSpec`] uses its
//! [`AnyGame`] session and ends when the game says so.

use crate::games::session::{open, AnyGame};
use crate::games::spec::GameSpec;
use crate::games::{parse_vertex, Outcome};
use crate::go::board::{Board, Point};
use crate::go::{score, Color, Game, KoRule, Move, Vertex};

/// The game being refereed.
pub enum Arbiter {
    /// Boxed: a Go game is large (18 KB), the other variant a pointer.
    Go(Box<Game>),
    Other(Box<dyn AnyGame>),
}

/// A move as the record keeps it: GTP's upper-case vertex or `pass`.
pub type MoveText = String;

impl Arbiter {
    /// A new game of `spec`; Go with the given ko rule.
    pub fn new(spec: &GameSpec, ko: KoRule) -> Arbiter {
        match *spec {
            GameSpec::Go { size, komi_x2 } => {
                let mut g = Game::new(size);
                g.set_komi(komi_x2 as f64 / 2.0);
                g.set_ko_rule(ko);
                Arbiter::Go(Box::new(g))
            }
            _ => Arbiter::Other(open(spec)),
        }
    }

    pub fn to_move(&self) -> Color {
        match self {
            Arbiter::Go(g) => g.to_move(),
            Arbiter::Other(g) => g.to_move(),
        }
    }

    /// Plays `text` (an engine's answer to `genmove`) for `color` if it is
    /// a legal move; answers its canonical spelling, or why it is refused.
    pub fn play(&mut self, color: Color, text: &str) -> Result<MoveText, String> {
        let text = text.trim();
        match self {
            Arbiter::Go(g) => {
                let mv = if text.eq_ignore_ascii_case("pass") {
                    Move::Pass
                } else {
                    let (col, row) = parse_vertex(text)
                        .filter(|&(c, r)| c < g.size() && r < g.size())
                        .ok_or_else(|| format!("not a move: {}", printable(text)))?;
                    Move::Play(Vertex::new(col as u8, row as u8))
                };
                g.play(color, mv)
                    .map_err(|e| format!("illegal move {mv} ({e})"))?;
                Ok(mv.to_string())
            }
            Arbiter::Other(g) => {
                let canon = text.to_ascii_uppercase();
                g.play(color, &canon)
                    .map_err(|_| format!("illegal move {}", printable(text)))?;
                Ok(canon)
            }
        }
    }

    /// Whether the rules end the game here: two passes in a row in Go, a
    /// decided outcome elsewhere.
    pub fn finished(&self) -> bool {
        match self {
            Arbiter::Go(g) => g.two_passes(),
            Arbiter::Other(g) => g.result().is_some(),
        }
    }

    /// The result of a game the rules ended, as SGF's `RE` writes it
    /// (`B+3.5`, `W+0.5`, `0` for a draw; `B+`/`W+` in games without a
    /// score). Go is scored by area with the stones of `dead` removed.
    pub fn result(&self, dead: &[Point]) -> String {
        match self {
            Arbiter::Go(g) => score::format_score(score::area_score(g.board(), dead, g.komi())),
            Arbiter::Other(g) => match g.result() {
                Some(Outcome::Win) => "B+".into(),
                Some(Outcome::Loss) => "W+".into(),
                Some(Outcome::Draw) => "0".into(),
                None => "?".into(),
            },
        }
    }

    /// The Go position, if this is Go.
    pub fn go(&self) -> Option<&Game> {
        match self {
            Arbiter::Go(g) => Some(&**g),
            Arbiter::Other(_) => None,
        }
    }
}

/// Parses the vertices of a `final_status_list` answer into the points of
/// `board`. Words that are not vertices of the board, or not stones, are an
/// error: a referee that answers them cannot be trusted with the score.
pub fn parse_dead_list(board: &Board, answer: &str) -> Result<Vec<Point>, String> {
    let mut dead = Vec::new();
    for word in answer.split_whitespace() {
        let (col, row) = parse_vertex(word)
            .filter(|&(c, r)| c < board.size() && r < board.size())
            .ok_or_else(|| format!("not a vertex: {}", printable(word)))?;
        let p = Board::point_at(col, row);
        if board.color_at(p).is_none() {
            return Err(format!("{word} is empty"));
        }
        dead.push(p);
    }
    Ok(dead)
}

/// Engine text for messages: at most 40 printable ASCII characters.
pub fn printable(text: &str) -> String {
    let mut s: String = text
        .chars()
        .take(40)
        .collect::<String>()
        .escape_default()
        .collect();
    if text.chars().count() > 40 {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(size: usize) -> Arbiter {
        Arbiter::new(
            &GameSpec::Go { size, komi_x2: 14 },
            KoRule::PositionalSuperko,
        )
    }

    #[test]
    fn go_moves_are_checked_and_scored() {
        let mut a = go(5);
        assert_eq!(a.play(Color::Black, "c3"), Ok("C3".into()));
        assert!(a.play(Color::White, "c3").unwrap_err().contains("occupied"));
        assert!(a
            .play(Color::White, "z9")
            .unwrap_err()
            .contains("not a move"));
        assert!(a.play(Color::White, "= D4").is_err());
        assert!(a.play(Color::White, "").is_err());
        assert_eq!(a.to_move(), Color::White);
        assert!(!a.finished());
        assert_eq!(a.play(Color::White, "PASS"), Ok("pass".into()));
        assert_eq!(a.play(Color::Black, "pass"), Ok("pass".into()));
        assert!(a.finished());
        // One black stone owns 25 points; komi 7.
        assert_eq!(a.result(&[]), "B+18");
        let board = a.go().unwrap().board().clone();
        let dead = parse_dead_list(&board, "C3\n").unwrap();
        assert_eq!(a.result(&dead), "W+7");
        assert!(parse_dead_list(&board, "C4").is_err());
        assert!(parse_dead_list(&board, "C3 xx").is_err());
    }

    #[test]
    fn other_games_end_by_their_rules() {
        let mut a = Arbiter::new(&GameSpec::parse("mnk:3,3,3").unwrap(), KoRule::Simple);
        for (c, m) in [
            (Color::Black, "a1"),
            (Color::White, "a2"),
            (Color::Black, "b1"),
        ] {
            a.play(c, m).unwrap();
        }
        assert!(a.play(Color::White, "b1").is_err());
        assert!(a.play(Color::White, "pass").is_err());
        a.play(Color::White, "b2").unwrap();
        assert!(!a.finished());
        a.play(Color::Black, "c1").unwrap();
        assert!(a.finished());
        assert_eq!(a.result(&[]), "B+");
    }

    #[test]
    fn printable_escapes_and_shortens() {
        assert_eq!(printable("a\tb"), "a\\tb");
        assert_eq!(printable(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
    }
}
