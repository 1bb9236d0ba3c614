//! The game of Go: colours, coordinates, the board and its rules, scoring.

pub mod board;
pub mod color;
pub mod game;
pub mod handicap;
pub mod pattern3;
pub mod playout;
pub mod score;
pub mod vertex;
pub mod zobrist;

pub use board::{Board, Illegal, Point, PointList, Undo, PASS};
pub use color::Color;
pub use game::{Game, KoRule, PlayError};
pub use vertex::{Move, Vertex, MAX_SIZE};

#[cfg(test)]
mod board_tests;
