//! tesuji: a GTP engine that plays and solves board games.

pub mod engines;
pub mod games;
pub mod go;
pub mod gtp;
pub mod gtp_client;
pub mod regress;
pub mod search;
pub mod sgf;
pub mod solve;
pub mod tactics;
pub mod tournament;
