//! Board coordinates independent of any board size, and their GTP spelling.
//!
//! GTP writes a vertex as a column letter (`A`..`Z` without `I`) and a row
//! number counted from the bottom, so `A1` is the lower-left corner.

use std::fmt;

/// Largest board side tesuji supports (GTP's letters stop at Z without I).
pub const MAX_SIZE: usize = 25;

/// A point given by column and row, both from 0; row 0 is the bottom row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

/// A move as GTP and SGF speak of it: a point or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Vertex),
}

const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Vertex {
    pub fn new(col: u8, row: u8) -> Vertex {
        Vertex { col, row }
    }

    /// Whether the vertex lies on a board of side `size`.
    pub fn on_board(self, size: usize) -> bool {
        (self.col as usize) < size && (self.row as usize) < size
    }

    /// The GTP column letter for a column index (0 = `A`; `I` is skipped).
    pub fn col_letter(col: u8) -> char {
        LETTERS[col as usize] as char
    }

    /// Column index of a GTP column letter, any case; `I` is rejected.
    pub fn col_from_letter(c: char) -> Option<u8> {
        if !c.is_ascii() {
            return None;
        }
        let up = c.to_ascii_uppercase() as u8;
        LETTERS.iter().position(|&l| l == up).map(|i| i as u8)
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Vertex::col_letter(self.col), self.row + 1)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play(v) => v.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_skip_i() {
        assert_eq!(Vertex::col_letter(7), 'H');
        assert_eq!(Vertex::col_letter(8), 'J');
        assert_eq!(Vertex::col_from_letter('i'), None);
        assert_eq!(Vertex::col_from_letter('j'), Some(8));
        assert_eq!(Vertex::col_from_letter('\u{141}'), None);
        assert_eq!(Vertex::new(24, 24).to_string(), "Z25");
    }
}
