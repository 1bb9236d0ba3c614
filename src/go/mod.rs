//! The game of Go: colours, coordinates, the board and its rules.

pub mod color;
pub mod vertex;

pub use color::Color;
pub use vertex::{Move, Vertex, MAX_SIZE};
