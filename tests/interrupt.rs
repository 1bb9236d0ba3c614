//! `# interrupt` stops the tactical solver promptly. A transcript cannot
//! time an interrupt (the input is read all at once), so this test talks
//! to the binary line by line: it waits until a long solve is running,
//! interrupts it, and checks the answer documented in
//! `protocol/commands.md` (`? interrupted` for `attack`, `defend` and
//! `ladder_attack`; `unknown reason=interrupted` for `solve`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tesuji");

/// Reads one response (up to its empty line).
fn response(out: &mut impl BufRead) -> String {
    let mut text = String::new();
    loop {
        let mut line = String::new();
        let n = out.read_line(&mut line).expect("engine output");
        assert!(n > 0, "engine closed its output");
        if line == "\n" {
            return text;
        }
        text.push_str(&line);
    }
}

#[test]
fn interrupt_stops_solving() {
    let mut child = Command::new(BIN)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot start tesuji");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut send = |line: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        input.flush().unwrap();
    };
    // White's escape from a ladder start on 7x7 and the capture of a stone
    // with three liberties on 19x19 are far beyond these limits.
    for line in [
        "boardsize 7",
        "play b C5",
        "play b C4",
        "play b E4",
        "play b D3",
        "play w D5",
        "play w D4",
        "tesuji-solver_limits nodes=100000000000 time=600",
    ] {
        send(line);
        assert!(response(&mut output).starts_with('='), "{line}");
    }
    let cases = [
        ("defend D5", "? interrupted\n"),
        ("solve escape D5", "= unknown reason=interrupted "),
        ("boardsize 19", "= "),
        ("play b K10", "= "),
        ("play w K11", "= "),
        ("attack K10", "? interrupted\n"),
    ];
    for (command, answer) in cases {
        send(command);
        let start = Instant::now();
        if answer != "= " {
            std::thread::sleep(Duration::from_millis(300));
            send("# interrupt");
        }
        let got = response(&mut output);
        assert!(got.starts_with(answer), "{command}: {got}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{command} took {:?}",
            start.elapsed()
        );
    }
    send("quit");
    assert_eq!(response(&mut output), "= \n");
    assert!(child.wait().unwrap().success());
}
