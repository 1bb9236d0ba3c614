//! `# interrupt` stops the tactical solver promptly. A transcript cannot
//! time an interrupt (the input is read all at once), so this test talks
//! to the binary line by line: it waits until a long solve is running,
//! interrupts it, and checks the answer documented in
//! `protocol/commands.md` (`? interrupted` for `attack`, `defend` and
//! `ladder_attack`; `unknown reason=interrupted` for `solve` (at the end
//! of the line for `solve win`, the whole-game solvers), also inside
//! the `TEXT` line of `tesuji-gfx_solve`). It also reads the engine's
//! stderr, where `tesuji-gfx_solve` (and every solving command after
//! `tesuji-live_gfx on`) shows GoGui its search line while it runs.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
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
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start tesuji");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    // Everything the engine writes on stderr, read as it comes so that the
    // engine never blocks on a full pipe.
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut errors = child.stderr.take().unwrap();
    let sink = stderr.clone();
    let reader = std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = errors.read(&mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    });
    let mut send = |line: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        input.flush().unwrap();
    };
    // White's escape from a ladder start on 7x7 and the capture of a stone
    // with two liberties in the open on 19x19 (no ladder) are far beyond
    // these limits. (A stone with three liberties is proven safe in a
    // fraction of a second now.)
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
    // (command, start of the answer, how long the command runs before the
    // interrupt, what stderr must show by the answer). Solves that run
    // past the live-graphics interval (0.5 s) show their search line.
    let live: &[&str] = &[
        "gogui-gfx:\nSQUARE ",
        "\nVAR w ",
        "\nTEXT solving: nodes=",
        "\n\ngogui-gfx: CLEAR\n",
    ];
    let cases: &[(&str, &str, u64, &[&str])] = &[
        ("defend D5", "? interrupted\n", 300, &[]),
        ("solve escape D5", "= unknown reason=interrupted ", 300, &[]),
        (
            "tesuji-gfx_solve escape D5",
            "= SQUARE D5 D4\nTEXT unknown reason=interrupted ",
            1200,
            live,
        ),
        ("tesuji-live_gfx on", "= on\n", 0, &[]),
        (
            "solve escape D5",
            "= unknown reason=interrupted ",
            1200,
            live,
        ),
        ("tesuji-live_gfx off", "= off\n", 0, &[]),
        ("boardsize 19", "= ", 0, &[]),
        ("play b K10", "= ", 0, &[]),
        ("play w K11", "= ", 0, &[]),
        ("play w L10", "= ", 0, &[]),
        ("attack K10", "? interrupted\n", 300, &[]),
        // Whole games (`solve win`): 8x8 Domineering is far beyond 300 ms
        // for every solver; the limits are still those set above.
        ("tesuji-game domineering:8x8", "= ", 0, &[]),
        (
            "solve win algo=ppt",
            "= unknown - algo=ppt nodes=",
            300,
            &[],
        ),
        (
            "solve win algo=dfpn",
            "= unknown - algo=dfpn nodes=",
            300,
            &[],
        ),
        (
            "solve win algo=mcts-solver",
            "= unknown - algo=mcts-solver nodes=",
            300,
            &[],
        ),
    ];
    for &(command, answer, wait, shown) in cases {
        stderr.lock().unwrap().clear();
        send(command);
        let start = Instant::now();
        let mut interrupted = start;
        if wait > 0 {
            std::thread::sleep(Duration::from_millis(wait));
            send("# interrupt");
            interrupted = Instant::now();
        }
        let got = response(&mut output);
        assert!(got.starts_with(answer), "{command}: {got}");
        if command.starts_with("solve win") {
            assert!(got.ends_with(" reason=interrupted\n"), "{command}: {got}");
        }
        // Promptly: the solver polls the flag every 1024 nodes.
        assert!(
            interrupted.elapsed() < Duration::from_secs(5),
            "{command} answered {:?} after the interrupt",
            interrupted.elapsed()
        );
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{command} took {:?}",
            start.elapsed()
        );
        // stderr is read by another thread: give it a moment to catch up.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let text = stderr.lock().unwrap().clone();
            let missing: Vec<_> = shown.iter().filter(|s| !text.contains(*s)).collect();
            if missing.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{command}: stderr lacks {missing:?}:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        if shown.is_empty() {
            let text = stderr.lock().unwrap().clone();
            assert!(!text.contains("gogui-gfx"), "{command}: {text}");
        }
    }
    send("quit");
    assert_eq!(response(&mut output), "= \n");
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}

/// `# interrupt` during `genmove` under a long clock (Canadian byo-yomi,
/// ten minutes for one stone), for both players (`tesuji-player search`
/// and `mcts`): the move comes back and is played. The
/// latency from the interrupt to the answer is printed (run with
/// `--nocapture`); the bound asserted is only a sanity check, the numbers
/// are the measurement (the issue asks for 100 ms).
#[test]
fn interrupt_stops_genmove() {
    let mut child = Command::new(BIN)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start tesuji");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut send = |line: &str| {
        input.write_all(format!("{line}\n").as_bytes()).unwrap();
        input.flush().unwrap();
    };
    let mut latencies = Vec::new();
    let cases = [
        (9, 300, "b"),
        (9, 700, "w"),
        (13, 300, "b"),
        (19, 300, "w"),
        (19, 1000, "b"),
        (19, 50, "w"),
    ];
    // The NegaScout search, then the Monte-Carlo tree search.
    let players = ["search", "mcts"];
    for (player, (size, wait, color)) in players
        .iter()
        .flat_map(|p| cases.iter().map(move |&c| (p, c)))
    {
        for line in [
            format!("tesuji-player {player}"),
            format!("boardsize {size}"),
            "clear_board".into(),
            "play b C3".into(),
            "play w D4".into(),
            "time_settings 0 600 1".into(),
        ] {
            send(&line);
            assert!(response(&mut output).starts_with('='), "{line}");
        }
        send(&format!("genmove {color}"));
        std::thread::sleep(Duration::from_millis(wait));
        send("# interrupt");
        let interrupted = Instant::now();
        let got = response(&mut output);
        let latency = interrupted.elapsed();
        latencies.push(latency);
        println!(
            "{player} {size}x{size} genmove {color}, interrupted after {wait} ms: answer {:?} {:.1} ms later",
            got.trim(),
            latency.as_secs_f64() * 1e3
        );
        let mv = got.strip_prefix("= ").expect("a move").trim().to_string();
        assert!(mv != "resign", "{got}");
        // The move was played: the opponent's turn is recorded.
        send("printsgf");
        let sgf = response(&mut output);
        assert!(
            sgf.contains(&format!(";{}[", color.to_uppercase())),
            "{sgf}"
        );
        assert!(latency < Duration::from_secs(5), "{latency:?}");
    }
    let worst = latencies.iter().max().unwrap();
    println!(
        "genmove interrupt latency: worst {:.1} ms over {} interrupts",
        worst.as_secs_f64() * 1e3,
        latencies.len()
    );
    send("quit");
    assert_eq!(response(&mut output), "= \n");
    assert!(child.wait().unwrap().success());
}
