//! Tactical reading in Go: can a block be captured, can it be saved, and
//! how? The rules of the question live in `rules`; solvers answer it.

pub mod dfpn;
pub mod rules;

pub use rules::{CaptureGame, KoModel, Problem, Step, Winner};
