//! Tactical answers on real games from `../shared/regression` (read in
//! place, never copied into the repository), where the small generated
//! problems of the unit tests cannot reach: these need the default limit
//! of `attack` and `defend` (13M nodes, in two rounds of 3M and 10M). Without the shared folder the tests
//! print `SKIPPED` and pass, as `regress_gnugo` does; CI always has it.
//!
//! The time limit is raised so that only the node limit decides, and the
//! answers do not depend on the machine's load.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tesuji");
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/regression");

/// The engine's responses to `commands`, run in the shared folder, or
/// `None` when it is absent.
fn session(commands: &[&str]) -> Option<Vec<String>> {
    if !Path::new(SHARED).is_dir() {
        eprintln!("SKIPPED: {SHARED} is missing");
        return None;
    }
    let mut child = Command::new(BIN)
        .current_dir(SHARED)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut input = child.stdin.take().expect("stdin");
    for c in commands {
        writeln!(input, "{c}").expect("engine input");
    }
    drop(input);
    let out = child.wait_with_output().expect("engine output");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    Some(
        text.split("\n\n")
            .filter(|r| !r.is_empty())
            .map(|r| r.trim_end().to_string())
            .collect(),
    )
}

/// Goemate990902-5 (the whole game), `attack S18`: the mover-favoured
/// model is won in about 89 thousand nodes, more than the ko codes' first
/// short probe gets (1% of the first round's 3M), and the model that
/// favours the defender stays open in both rounds. The share held back
/// for the late bound (`Solver::late_bound`) proves the win, and the
/// answer is the lower bound `3 R18`, where it used to be `unknown` (GNU
/// Go 3.8 answers `3 R18` as well). The second round proves no better
/// code, so the first round's bound stands.
#[test]
fn a_late_bound_answers_a_real_game_attack() {
    let Some(r) = session(&[
        "loadsgf golois/Goemate990902-5.sgf",
        "tesuji-solver_limits nodes=13000000 time=1000 algo=auto",
        "attack S18",
        "solve capture S18",
    ]) else {
        return;
    };
    assert_eq!(r[2], "= 3 R18");
    assert!(
        r[3].starts_with("= win R18 ko=3 ko_reason=nodes "),
        "{}",
        r[3]
    );
}
