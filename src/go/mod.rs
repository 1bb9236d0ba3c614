//! The game of Go: colours, coordinates, the board and its rules.

pub mod color;
pub mod vertex;

pub use color::Color;
pub use vertex::{Move, Vertex, MAX_SIZE};
pub mod board;
pub mod zobrist;

pub use board::{Board, Illegal, Point, PointList, Undo, PASS};

#[cfg(test)]
mod board_tests;
