//! `tesuji regress`: runs GTP regression files (`.tst`) against an engine
//! and judges every answer.
//!
//! The file format is GNU Go's regression-suite format (GNU Go's
//! `regression/*.tst`, judged there by `regress.awk`), with the semantics of
//! GoGui's `gogui-regress`, which is what Go programmers run these files
//! with. tesuji needs this to measure its tactical solver (`attack V`,
//! `defend V`) against the same yardstick GNU Go uses, and CI needs it to see
//! pass/fail without Java and GoGui installed.
//!
//! # Format
//!
//! A `.tst` file is a sequence of GTP commands, one per line, sent in order
//! to one engine process. Lines are trimmed first.
//!
//! - `N command args` (the first token all digits): a *numbered test*. The
//!   line is sent as it is (with `N` as the GTP id).
//! - `#? [REGEX]` on the line right after a numbered test gives the expected
//!   answer: `REGEX` must match the *whole* answer body (the text after
//!   `=N `), with `.` matching newlines and `^`/`$` matching at line breaks
//!   (gogui-regress compiles it with Java's `DOTALL | MULTILINE` and calls
//!   `matches()`).
//!   - `#? [!REGEX]`: the answer must *not* match.
//!   - `#? [REGEX]*`: the test is expected to fail (GNU Go's "known
//!     failure"), so a failure is not a regression and a pass is news.
//!   - `#? [REGEX]&`: run the test and show its answer, but do not judge it.
//!     This is GNU Go's `regress.awk` convention; gogui-regress rejects
//!     such a line. Ignored tests count neither as passed nor as failed.
//!   - `#?` alone: the test only has to succeed (answer `=`), as in
//!     gogui-regress. A numbered test without any `#?` line is the same.
//! - Any other command (`loadsgf FILE [N]`, `trymove`, `popgo`, `play`,
//!   `boardsize`, ...) is a *setup command*: it is sent and must succeed.
//!   A setup command that fails is reported, and the next test is counted
//!   as failed (its position is not the one the test was written for).
//!   gogui-regress only counts such failures as "errors"; failing the test
//!   keeps a broken setup from passing unnoticed.
//! - Other lines starting with `#` are comments; blank lines are ignored.
//!   A `#` later on a command line starts a comment too, as GTP says.
//!
//! An answer that is an error (`? ...`) always fails the test, whatever the
//! pattern, as in gogui-regress.
//!
//! A `#?` line that does not directly follow a numbered test (a comment or
//! blank line in between, a second `#?`, a `#?` after a setup command) and a
//! pattern without its brackets are format errors: the file is refused with
//! the line number, like gogui-regress does, rather than silently turning a
//! test into a no-op. A pattern that the `regex` crate cannot compile
//! (Java-only syntax such as back-references) only fails its own test.
//!
//! # Verdicts
//!
//! Like gogui-regress, each test is judged pass or fail and then compared
//! with its `*` flag: `PASS` (passed, as expected), `FAIL` (failed, not
//! expected: a regression), `PASS (unexpected)` (passed although marked
//! `*`), `fail (expected)` (failed and marked `*`), plus `ignored` for `&`.
//!
//! # Running
//!
//! Each file gets a fresh engine process whose working directory is the
//! file's folder, so that `loadsgf` paths resolve as the file's authors
//! meant. Every command has a timeout; an engine that dies, hangs or talks
//! nonsense fails the rest of that file's tests with the reason, and the
//! next file starts a new engine.
//!
//! If the engine knows the command `tesuji-solver_stats`, it is sent after
//! each test and the `nodes=N` field of its answer (space-separated
//! `key=value` fields; other keys are ignored) is reported as that test's
//! node count. The contract assumed here is that the stats describe the most
//! recent command. Engines without it (GNU Go) show `-`. Its
//! `cpu_time_ms=T` field, when present, is the CPU time the engine's solver
//! thread used; the table shows nodes per CPU second beside nodes per
//! wall-clock second, since on a machine shared with other work the wall
//! clock also counts time the engine waited for a processor.

mod cli;
mod judge;
mod report;
mod run;
mod tst;

pub use cli::{main, USAGE};
pub use judge::*;
pub use report::*;
pub use run::*;
pub use tst::*;

#[cfg(test)]
mod tests;
