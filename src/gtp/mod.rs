//! The Go Text Protocol (GTP version 2) front end: turning the controller's
//! input into commands and typed arguments, and (later) answering them.
//!
//! Reference: Gunnar Farnebäck, *Specification of the Go Text Protocol,
//! version 2, draft 2*, October 2002,
//! <http://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>.

pub mod parse;
