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

/// xorshift64* (Vigna): small, fast, and reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }

    /// Any byte but LF.
    fn byte(&mut self) -> u8 {
        loop {
            let b = self.next() as u8;
            if b != b'\n' {
                return b;
            }
        }
    }
}

const COLORS: &[&str] = &["b", "w", "black", "white", "B", "WHITE", "Black", "W"];
const BAD_COLORS: &[&str] = &["x", "bl", "blackk", "wh1te", "bw", "1"];
const WORDS: &[&str] = &[
    "simple",
    "positional",
    "superko",
    "psk",
    "dead",
    "alive",
    "seki",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "never",
    "true",
    "false",
    "play",
    "name",
    "list_commands",
    "tesuji-ko_rule",
    "\u{fffd}",
    "é",
    "日本",
    "=",
    "?",
];
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghjklmnopqrstuvwxyzIi";
const SPACES: &[&[u8]] = &[b" ", b" ", b" ", b"  ", b"\t", b" \t ", b"\t\t"];
const CONTROLS: &[u8] = b"\x00\x01\x07\x08\x0b\x0c\x0d\x1b\x1f\x7f";

/// Commands that the stream must not run (see the module comment).
fn refused(name: &str, has_args: bool) -> bool {
    match name.to_ascii_lowercase().as_str() {
        "quit" | "genmove" | "reg_genmove" => true,
        // The stream sets small solver limits first; none may raise them.
        "loadsgf" | "printsgf" | "tesuji-solver_limits" => has_args,
        _ => false,
    }
}

fn color(rng: &mut Rng) -> String {
    if rng.chance(90) {
        rng.pick(COLORS).into()
    } else {
        rng.pick(BAD_COLORS).into()
    }
}

fn vertex(rng: &mut Rng) -> String {
    match rng.below(20) {
        0 => "pass".into(),
        1 => "PASS".into(),
        2 => rng
            .pick(&[
                "i5", "a0", "a01", "aa1", "a26", "z99", "1a", "a", "5", "-a1", "a-1",
            ])
            .into(),
        3 => format!(
            "{}{}",
            COLUMNS[rng.below(COLUMNS.len())] as char,
            rng.below(30)
        ),
        // Mostly points of small boards, where stones meet.
        _ => {
            let size = *rng.pick(&[&5, &5, &7, &9, &25]);
            format!(
                "{}{}",
                COLUMNS[rng.below(size)] as char,
                1 + rng.below(size)
            )
        }
    }
}

fn integer(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng
            .pick(&[
                "0",
                "-1",
                "+7",
                "2147483648",
                "4294967295",
                "4294967296",
                "9223372036854775808",
                "99999999999999999999999",
                "007",
                "1.5",
                "1e3",
                "x",
            ])
            .into(),
        1 => format!("-{}", rng.below(10)),
        2 => (rng.below(626)).to_string(),
        _ => rng.below(30).to_string(),
    }
}

fn float(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => rng
            .pick(&[
                "nan", "inf", "-inf", "1e999", "-0", ".5", "7.", "1e-300", "0x10", "6,5", "+1e1",
            ])
            .into(),
        1 => format!("-{}.{}", rng.below(100), rng.below(10)),
        _ => format!("{}.{}", rng.below(20), rng.below(10)),
    }
}

/// A token that is not meant to parse as anything.
fn junk(rng: &mut Rng) -> Vec<u8> {
    const PUNCTUATION: &[u8] = b"!\"$%&'()*+,-./0123456789:;<=>?@[\\]^_`{|}~abcXYZ";
    let len = 1 + rng.below(12);
    (0..len)
        .map(|_| match rng.below(4) {
            0 => rng.byte(),
            _ => PUNCTUATION[rng.below(PUNCTUATION.len())],
        })
        .filter(|&b| b != b' ' && b != b'\t')
        .collect()
}

/// Arguments for `name`: usually of the right types, sometimes not.
fn arguments(rng: &mut Rng, name: &str) -> Vec<Vec<u8>> {
    let mut args: Vec<String> = match name {
        "play" | "trymove" | "is_legal" => vec![color(rng), vertex(rng)],
        "boardsize" => vec![match rng.below(10) {
            0 => integer(rng),
            1 => "25".into(),
            2 => (1 + rng.below(4)).to_string(),
            _ => rng.pick(&["5", "7", "9"]).to_string(),
        }],
        "komi" => vec![float(rng)],
        "color" | "countlib" | "findlib" | "attack" | "defend" | "ladder_attack" => {
            vec![vertex(rng)]
        }
        "solve" | "tesuji-gfx_solve" => {
            let mut v = vec![
                rng.pick(&["capture", "escape", "capture", "escape", "x"])
                    .to_string(),
                vertex(rng),
            ];
            for _ in 0..rng.below(4) {
                let key = rng.pick(&["algo", "nodes", "time", "escape", "bogus", ""]);
                let value = match key {
                    "algo" => rng.pick(&["dfpn", "pns", ""]).to_string(),
                    "time" => float(rng),
                    _ => integer(rng),
                };
                v.push(format!("{key}={value}"));
            }
            v
        }
        "list_stones" | "all_legal" | "captures" | "genmove" | "reg_genmove" => {
            vec![color(rng)]
        }
        "fixed_handicap" | "place_free_handicap" => vec![integer(rng)],
        "set_free_handicap" => (0..rng.below(8)).map(|_| vertex(rng)).collect(),
        "time_settings" => (0..3).map(|_| integer(rng)).collect(),
        "time_left" => vec![color(rng), float(rng), integer(rng)],
        "kgs-time_settings" => {
            let mut v = vec![rng
                .pick(&["none", "absolute", "byoyomi", "canadian", "NONE", "fischer"])
                .to_string()];
            v.extend((0..rng.below(4)).map(|_| integer(rng)));
            v
        }
        "tesuji-ko_rule" | "final_status_list" | "known_command" => (0..rng.below(2))
            .map(|_| rng.pick(WORDS).to_string())
            .collect(),
        _ => Vec::new(),
    };
    // Mutations: drop one, add one, or replace one by anything.
    match rng.below(10) {
        0 if !args.is_empty() => {
            args.remove(rng.below(args.len()));
        }
        1 => {
            let extra = match rng.below(4) {
                0 => vertex(rng),
                1 => integer(rng),
                2 => rng.pick(WORDS).into(),
                _ => color(rng),
            };
            args.push(extra);
        }
        2 if !args.is_empty() => {
            let at = rng.below(args.len());
            args[at] = String::from_utf8_lossy(&junk(rng)).into_owned();
        }
        _ => {}
    }
    args.into_iter().map(String::into_bytes).collect()
}

/// Commands that change or inspect the board, chosen more often than the
/// others so that games get played.
const BOARD_COMMANDS: &[&str] = &[
    "play",
    "play",
    "play",
    "play",
    "trymove",
    "popgo",
    "undo",
    "is_legal",
    "all_legal",
    "countlib",
    "findlib",
    "color",
    "captures",
    "list_stones",
    "showboard",
    "final_score",
    "tesuji-ko_rule",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
];

const RESETS: &[&str] = &[
    "boardsize",
    "clear_board",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
];

fn command_name(rng: &mut Rng, names: &[&'static str]) -> Vec<u8> {
    let mut name = if rng.chance(50) {
        rng.pick(BOARD_COMMANDS)
    } else {
        names[rng.below(names.len())]
    };
    // Commands that start a new game are rarer, so that games get long
    // enough for captures and ko.
    if RESETS.contains(&name) && rng.chance(90) {
        name = "play";
    }
    match rng.below(20) {
        // Case changes, typos and truncations make unknown commands.
        0 => name.to_ascii_uppercase().into_bytes(),
        1 => {
            let mut b = name.as_bytes().to_vec();
            let at = rng.below(b.len() + 1);
            b.insert(at, b"_x-9#"[rng.below(5)]);
            b
        }
        2 => name.as_bytes()[..rng.below(name.len())].to_vec(),
        3 => junk(rng),
        _ => name.as_bytes().to_vec(),
    }
}

fn id(rng: &mut Rng) -> Option<Vec<u8>> {
    match rng.below(10) {
        0..=4 => None,
        5 => Some(
            rng.pick(&[
                "0",
                "00",
                "007",
                "4294967295",
                "4294967296",
                "99999999999999999999",
                "-1",
                "+1",
                "1a",
                "0x1",
            ])
            .as_bytes()
            .to_vec(),
        ),
        _ => Some(rng.below(1_000_000).to_string().into_bytes()),
    }
}

/// A line that looks like a command, possibly with damage.
fn gtp_line(rng: &mut Rng, names: &[&'static str]) -> Vec<u8> {
    let mut line = Vec::new();
    if rng.chance(10) {
        line.extend_from_slice(rng.pick(SPACES));
    }
    if let Some(id) = id(rng) {
        line.extend(id);
        line.extend_from_slice(rng.pick(SPACES));
    }
    let name = command_name(rng, names);
    let args = arguments(rng, &String::from_utf8_lossy(&name));
    line.extend(name);
    for a in args {
        line.extend_from_slice(rng.pick(SPACES));
        line.extend(a);
    }
    if rng.chance(5) {
        line.extend_from_slice(rng.pick(SPACES));
    }
    if rng.chance(5) {
        line.extend_from_slice(b" # comment");
    }
    if rng.chance(5) {
        let at = rng.below(line.len() + 1);
        line.insert(at, CONTROLS[rng.below(CONTROLS.len())]);
    }
    if rng.chance(5) {
        let at = rng.below(line.len() + 1);
        line.insert(at, b'#');
    }
    if rng.chance(10) {
        line.push(b'\r');
    }
    line
}

fn random_bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.byte()).collect()
}

fn gtpish_bytes(rng: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"0123456789  \t\t#\r\x00\x01\x7f\xff\xc3\xa9abcwpqsz_-=?";
    let len = rng.below(40);
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

fn long_line(rng: &mut Rng, kind: usize) -> Vec<u8> {
    let n = LONG + rng.below(LONG);
    match kind % 6 {
        0 => random_bytes(rng, n),
        1 => {
            let mut l = b"known_command ".to_vec();
            l.extend(std::iter::repeat_n(b'a', n));
            l
        }
        2 => {
            let mut l: Vec<u8> = (0..n).map(|_| b'0' + rng.below(10) as u8).collect();
            l.extend_from_slice(b" name");
            l
        }
        3 => (0..n)
            .map(|_| *rng.pick(&[&b' ', &b'\t', &b'\r']))
            .collect(),
        4 => {
            let mut l = b"77 play b".to_vec();
            while l.len() < n {
                l.extend_from_slice(b" a1");
            }
            l
        }
        _ => {
            let mut l = b"# ".to_vec();
            l.extend(random_bytes(rng, n));
            l
        }
    }
}

/// The lines of the stream, with the refused commands already left out.
fn generate(names: &[&'static str]) -> Vec<Vec<u8>> {
    let seed = match std::env::var("TESUJI_FUZZ_SEED") {
        Ok(s) => s.parse().expect("TESUJI_FUZZ_SEED must be a u64"),
        Err(_) => SEED,
    };
    let mut rng = Rng(seed | 1);
    let mut lines = Vec::with_capacity(LINES);
    while lines.len() < LINES {
        let k = lines.len();
        let line = if k % (LINES / LONG_LINES) == LINES / LONG_LINES / 2 {
            long_line(&mut rng, k / (LINES / LONG_LINES))
        } else {
            match rng.below(100) {
                0..=14 => {
                    let len = rng.below(100);
                    random_bytes(&mut rng, len)
                }
                15..=24 => gtpish_bytes(&mut rng),
                25..=94 => gtp_line(&mut rng, names),
                95..=97 => rng
                    .pick(&[&b""[..], b" ", b"\t", b"\r", b"# interrupt", b"#", b"  # x"])
                    .to_vec(),
                _ => {
                    let mut l = b"# ".to_vec();
                    let len = rng.below(30);
                    l.extend(random_bytes(&mut rng, len));
                    l
                }
            }
        };
        if let Some(text) = preprocess(&line) {
            let mut tokens = text.split(' ').filter(|t| !t.is_empty());
            let first = tokens.next().unwrap_or_default();
            let name = if first.bytes().all(|b| b.is_ascii_digit()) {
                tokens.next().unwrap_or_default()
            } else {
                first
            };
            if refused(name, tokens.next().is_some()) {
                continue;
            }
        }
        lines.push(line);
    }
    lines
}

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
