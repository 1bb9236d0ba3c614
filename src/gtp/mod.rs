//! The Go Text Protocol (GTP v2, draft 2) front end: parsing, the command
//! table, the engine state, and the server loop. Commands are grouped by
//! subsystem, each group in its own `cmd_*` module with its own table.

pub mod engine;
pub mod parse;
pub mod registry;
pub mod server;

mod cmd_board;
mod cmd_core;
mod cmd_game_solve;
mod cmd_gogui;
mod cmd_handicap;
mod cmd_play;
mod cmd_player;
mod cmd_reading;
mod cmd_rules;
mod cmd_sgf;
mod cmd_tactics;
mod cmd_tactics_solve;
mod live_gfx;

pub use cmd_board::diagram;
pub use cmd_sgf::{record as sgf_record, replay as sgf_replay, StopAt};
pub use engine::{Config, Engine};
