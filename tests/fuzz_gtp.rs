//! Fuzzing the GTP front end through the real binary: more than 100,000
//! random and GTP-like lines streamed into one `tesuji gtp --depth 1`
//! process. The engine must survive all of them and answer every line that
//! the spec's preprocessing leaves non-empty with exactly one well-framed
//! response carrying that line's id, and still answer `protocol_version`
//! at the end.
//!
//! The lines come from a fixed-seed xorshift generator, so a failure is
//! reproducible; it reports the line that got the bad answer. They mix:
//! random bytes (invalid UTF-8 and control bytes included), bytes from a
//! GTP-ish alphabet, a few lines of 64 KB and more, and command lines built
//! from the real command names with random or mutated ids and arguments,
//! tabs, comments and CRs. Lines never contain LF (it separates lines).
//!
//! Filtered out, so that the session stays fast and harmless: `quit` (it
//! would end the stream), `genmove` and `reg_genmove` (seconds per call with
//! the real player), `loadsgf`/`printsgf` with a file argument (no file
//! access with random names), and `tesuji-solver_limits` with arguments:
//! the stream starts by setting the tactical solver's limits to 300 nodes
//! and 20 ms, and random ones must not raise them.
//!
//! `TESUJI_FUZZ_SEED=N` runs another stream than the fixed one;
//! `TESUJI_FUZZ_DUMP=FILE` writes the stream to `FILE` for replaying it by
//! hand (`tesuji gtp --depth 1 < FILE`).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use tesuji::gtp::parse::preprocess;
use tesuji::gtp::registry;

#[path = "fuzz_gtp/lines.rs"]
mod lines;

use lines::*;

/// Lines to generate, not counting the final check.
const LINES: usize = 120_000;
/// How many lines of 64 KB or more, spread over the stream.
const LONG_LINES: usize = 8;
const LONG: usize = 64 * 1024;
const FINAL_ID: u32 = 4242;
/// The first line: keeps every solver command short.
const SOLVER_LIMITS: &str = "tesuji-solver_limits nodes=300 time=0.02";
/// The generator's seed; `TESUJI_FUZZ_SEED=N` explores other streams.
const SEED: u64 = 0x7E50_1147_F022_0001;

/// What the response to one line must look like.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A command of the engine: any well-framed answer.
    Known,
    /// `?id unknown command`.
    Unknown,
    /// `?id missing command`.
    Missing,
    /// `? id out of range`.
    IdOutOfRange,
}

#[derive(Debug, Clone)]
struct Expect {
    line_no: usize,
    id: Option<u32>,
    kind: Kind,
}

fn expectations(lines: &[Vec<u8>], known: &HashSet<&str>) -> Vec<Expect> {
    let mut out = Vec::new();
    for (line_no, raw) in lines.iter().enumerate() {
        let Some(text) = preprocess(raw) else {
            continue;
        };
        let mut tokens = text.split(' ').filter(|t| !t.is_empty());
        let first = tokens
            .next()
            .expect("preprocess keeps only non-blank lines");
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            match first.parse::<u32>() {
                Ok(id) => (Some(id), tokens.next()),
                Err(_) => {
                    out.push(Expect {
                        line_no,
                        id: None,
                        kind: Kind::IdOutOfRange,
                    });
                    continue;
                }
            }
        } else {
            (None, Some(first))
        };
        let kind = match name {
            None => Kind::Missing,
            Some(n) if known.contains(n) => Kind::Known,
            Some(_) => Kind::Unknown,
        };
        out.push(Expect { line_no, id, kind });
    }
    out
}

/// Checks one response (its lines, without the closing empty line).
fn check_response(lines: &[String], e: &Expect) -> Result<(), String> {
    let first = &lines[0];
    let ok = match first.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(format!("does not start with = or ?: {first:?}")),
    };
    let rest = &first[1..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let id = match digits {
        0 => None,
        _ => Some(
            rest[..digits]
                .parse::<u32>()
                .map_err(|_| format!("bad id in {first:?}"))?,
        ),
    };
    let Some(body) = rest[digits..].strip_prefix(' ') else {
        return Err(format!("no space after the mark and id: {first:?}"));
    };
    if id != e.id {
        return Err(format!("id {id:?}, expected {:?}: {first:?}", e.id));
    }
    for l in &lines[1..] {
        if l.trim().is_empty() {
            return Err(format!("blank line inside a response: {lines:?}"));
        }
    }
    for l in lines {
        if let Some(c) = l.chars().find(|c| !(' '..='~').contains(c)) {
            return Err(format!("character {c:?} in response line {l:?}"));
        }
    }
    let want = match e.kind {
        Kind::Known => return Ok(()),
        Kind::Unknown => "unknown command",
        Kind::Missing => "missing command",
        Kind::IdOutOfRange => "id out of range",
    };
    if ok || body != want || lines.len() != 1 {
        return Err(format!("expected ? {want}, got {lines:?}"));
    }
    Ok(())
}

#[test]
fn random_lines_get_one_framed_response_each() {
    let started = Instant::now();
    let names: Vec<&'static str> = registry::commands().iter().map(|c| c.name).collect();
    let known: HashSet<&str> = names.iter().copied().collect();
    let mut lines = generate(&names);
    lines.insert(0, SOLVER_LIMITS.as_bytes().to_vec());
    lines.push(format!("{FINAL_ID} protocol_version").into_bytes());
    if let Ok(path) = std::env::var("TESUJI_FUZZ_DUMP") {
        // The stream as the engine gets it, to replay by hand:
        // `tesuji gtp --depth 1 < file`.
        let mut bytes = Vec::new();
        for l in &lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        std::fs::write(&path, bytes).expect("cannot write TESUJI_FUZZ_DUMP");
    }
    let expected = expectations(&lines, &known);
    let long = lines.iter().filter(|l| l.len() >= LONG).count();
    assert!(long >= LONG_LINES, "only {long} long lines");
    assert!(
        expected.len() > LINES / 2,
        "only {} lines expect a response",
        expected.len()
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_tesuji"))
        .args(["gtp", "--depth", "1"])
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("cannot start tesuji");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();

    let n_lines = lines.len();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(&mut stdin);
        for l in &lines {
            out.write_all(l)?;
            out.write_all(b"\n")?;
        }
        out.flush()
        // stdin is dropped here: end of input.
    });
    let reader_expected = expected.clone();
    let reader = std::thread::spawn(move || -> (usize, Vec<String>, Option<String>) {
        let mut input = BufReader::new(stdout);
        let mut errors = Vec::new();
        let mut count = 0;
        let mut last = None;
        let mut current: Vec<String> = Vec::new();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    errors.push(format!("reading stdout: {e}"));
                    break;
                }
            }
            if buf.pop() != Some(b'\n') {
                errors.push(format!("output ends without a newline: {buf:?}"));
                break;
            }
            let text = String::from_utf8_lossy(&buf).into_owned();
            if !text.is_empty() {
                current.push(text);
                continue;
            }
            if current.is_empty() {
                errors.push(format!(
                    "empty line outside a response after {count} responses"
                ));
                continue;
            }
            match reader_expected.get(count) {
                None => errors.push(format!("unexpected response {current:?}")),
                Some(e) => {
                    if let Err(msg) = check_response(&current, e) {
                        errors.push(format!(
                            "response {} (to line {}): {msg}",
                            count + 1,
                            e.line_no
                        ));
                    }
                }
            }
            count += 1;
            last = Some(current.join("\n"));
            current.clear();
            if errors.len() > 20 {
                break;
            }
        }
        if !current.is_empty() {
            errors.push(format!("unterminated response at the end: {current:?}"));
        }
        (count, errors, last)
    });

    let (responses, errors, last) = reader.join().expect("reader thread panicked");
    let written = writer.join().expect("writer thread panicked");
    let status = child.wait().expect("tesuji did not finish");
    eprintln!(
        "fuzz: {n_lines} lines, {responses} responses, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(errors.is_empty(), "bad responses:\n{}", errors.join("\n"));
    written.expect("the engine stopped reading its input");
    assert!(status.success(), "tesuji exited with {status}");
    assert_eq!(
        responses,
        expected.len(),
        "responses for {} lines",
        expected.len()
    );
    assert_eq!(last.as_deref(), Some(format!("={FINAL_ID} 2").as_str()));
}

#[test]
fn expectations_follow_the_spec() {
    let known: HashSet<&str> = ["name"].into_iter().collect();
    let lines: Vec<Vec<u8>> = [
        &b"name"[..],
        b"",
        b"# c",
        b"\t3\tname\r",
        b"4",
        b"4294967296 name",
        b"5 NAME",
        b"\x01",
        b"na\x00me",
    ]
    .iter()
    .map(|l| l.to_vec())
    .collect();
    let got: Vec<(usize, Option<u32>, Kind)> = expectations(&lines, &known)
        .into_iter()
        .map(|e| (e.line_no, e.id, e.kind))
        .collect();
    assert_eq!(
        got,
        [
            (0, None, Kind::Known),
            (3, Some(3), Kind::Known),
            (4, Some(4), Kind::Missing),
            (5, None, Kind::IdOutOfRange),
            (6, Some(5), Kind::Unknown),
            (8, None, Kind::Known),
        ]
    );
    let e = |id, kind| Expect {
        line_no: 0,
        id,
        kind,
    };
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check_response(&lines(&["=3 x", "y"]), &e(Some(3), Kind::Known)).is_ok());
    assert!(check_response(&lines(&["?3 unknown command"]), &e(Some(3), Kind::Unknown)).is_ok());
    assert!(check_response(&lines(&["? id out of range"]), &e(None, Kind::IdOutOfRange)).is_ok());
    for (bad, want) in [
        (&["=3x"][..], e(Some(3), Kind::Known)),
        (&["=4 x"], e(Some(3), Kind::Known)),
        (&["= x"], e(Some(3), Kind::Known)),
        (&["x"], e(None, Kind::Known)),
        (&["= a", "  "], e(None, Kind::Known)),
        (&["= \u{e9}"], e(None, Kind::Known)),
        (&["= unknown command"], e(None, Kind::Unknown)),
        (&["? missing"], e(None, Kind::Missing)),
    ] {
        assert!(check_response(&lines(bad), &want).is_err(), "{bad:?}");
    }
    assert!(refused("QUIT", false) && refused("genmove", false) && refused("printsgf", true));
    assert!(!refused("printsgf", false) && !refused("loadsgf", false) && !refused("play", true));
}
