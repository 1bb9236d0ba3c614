//! tesuji: a GTP engine that plays and solves board games.

pub mod go;
pub mod search;
