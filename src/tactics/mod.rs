//! Tactical reading in Go: can a block be captured, can it be saved, and
//! how? The rules of the question live in `rules`; solvers answer it. The
//! exhaustive `reference` answers small questions in the plainest way, and
//! `problems` generates such questions and checks a solver against it.

pub mod dfpn;
pub mod kolife;
pub mod life;
pub mod problems;
pub mod profile;
pub mod progress;
pub mod race;
pub mod reference;
pub mod rules;
pub mod zone;

#[cfg(test)]
mod tests_snapback;

pub use rules::{CaptureGame, KoModel, Problem, Step, Winner};
