//! Engine-against-engine matches (`tesuji match`): two profiles of
//! `engines.toml` play N games of Go (or any game of
//! [`crate::games::spec`]) under tesuji's rules and a clock the runner
//! enforces itself, and the result comes out as SGF files, a
//! gogui-twogtp-compatible results table and an Elo difference.
//!
//! What gogui-twogtp does not: it enforces the clock (measured here, a
//! flag fall loses), checks every move against tesuji's own rules (an
//! illegal move, a crash or garbage loses that game, and the match goes on
//! with a fresh engine), plays games in parallel, and reports Elo with a
//! 95% interval.
//!
//! One concern per file: [`cli`] (arguments), [`runner`] (threads, files,
//! progress, report), [`game`] (one game's protocol and endings),
//! [`seat`] (an engine process and its restarts), [`arbiter`] (rules and
//! scoring), [`clock`] (time control), [`record`] (SGF and `.dat`),
//! [`elo`] (the statistics), [`analyze`] (the report again from a `.dat`).

pub mod analyze;
pub mod arbiter;
pub mod cli;
pub mod clock;
pub mod elo;
pub mod game;
pub mod record;
pub mod runner;
pub mod seat;

pub use cli::main;
