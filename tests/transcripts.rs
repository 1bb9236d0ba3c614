//! Transcript tests: every `protocol/transcripts/*.gtp` file is fed to the
//! real `tesuji` binary and its standard output must equal the matching
//! `.out` file byte for byte.
//!
//! * The engine runs with `protocol/transcripts/` as its working directory
//!   (so `loadsgf game.sgf` finds the committed SGF files) and with
//!   `RUST_LOG=off`.
//! * A first line `# tesuji-args: ARGS…` gives command-line arguments; it is
//!   a comment to the engine.
//! * Besides the byte comparison, the output must consist of well-framed
//!   responses only: one per input line that survives GTP preprocessing (up to
//!   and including `quit`), each echoing that line's id.
//! * The solver's timing fields (`time_ms=N`, `nps=N`) vary from run to run;
//!   their digits are masked on both sides before the comparison.
//! * `TESUJI_BLESS=1 cargo test --test transcripts` rewrites the `.out` files
//!   from the engine's output. Review every change by hand against the GTP
//!   specification and `protocol/commands.md` before committing it.
//!
//! The documentation is checked here too: every command in `list_commands`
//! has a `` ### `name` `` heading in `protocol/commands.md` and an entry in
//! the index of `protocol/README.md`, nothing else has such a heading, and the
//! error messages documented for each command are exactly those the
//! transcripts show it giving.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

use tesuji::gtp::parse::preprocess;

const BIN: &str = env!("CARGO_BIN_EXE_tesuji");
const ARGS_DIRECTIVE: &str = "# tesuji-args:";

fn protocol_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol")
}

fn transcripts_dir() -> PathBuf {
    protocol_dir().join("transcripts")
}

struct Run {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: ExitStatus,
}

/// Runs the engine on `input` in the transcripts directory.
fn run_engine(args: &[String], input: &[u8]) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(transcripts_dir())
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start tesuji");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // A separate writer: the engine may fill its stdout pipe before it has
    // read all of its input. After `quit` it stops reading, so a failed
    // write is expected then.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("tesuji did not finish");
    writer.join().expect("writer thread panicked");
    Run {
        stdout: out.stdout,
        stderr: out.stderr,
        status: out.status,
    }
}

/// Arguments from a `# tesuji-args:` first line.
fn args_of(input: &[u8]) -> Vec<String> {
    let first = input.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    match first.trim_end().strip_prefix(ARGS_DIRECTIVE) {
        Some(rest) => rest.split_whitespace().map(str::to_owned).collect(),
        None => Vec::new(),
    }
}

/// What one input line should get back.
#[derive(Debug, Clone, PartialEq)]
struct Expect {
    /// The line after preprocessing (for messages).
    line: String,
    /// The id the response must carry.
    id: Option<u32>,
    /// The command that runs, if the line names one after a usable id.
    command: Option<String>,
}

/// The responses `input` should produce, worked out from the spec: lines
/// that preprocess to nothing get none; a leading all-digit token is the id
/// (ids beyond `u32` are refused and not echoed); nothing is answered after
/// `quit`.
fn expectations(input: &[u8]) -> Vec<Expect> {
    let mut out = Vec::new();
    for raw in input.split(|&b| b == b'\n') {
        let Some(line) = preprocess(raw) else {
            continue;
        };
        let mut tokens = line.split(' ').filter(|t| !t.is_empty());
        let first = tokens
            .next()
            .expect("preprocess keeps only non-blank lines");
        let (id, command) = if first.bytes().all(|b| b.is_ascii_digit()) {
            match first.parse::<u32>() {
                Ok(id) => (Some(id), tokens.next()),
                Err(_) => (None, None),
            }
        } else {
            (None, Some(first))
        };
        let quit = command == Some("quit");
        out.push(Expect {
            id,
            command: command.map(str::to_owned),
            line: line.clone(),
        });
        if quit {
            break;
        }
    }
    out
}

/// One response as read back from the engine.
#[derive(Debug, Clone, PartialEq)]
struct Response {
    ok: bool,
    id: Option<u32>,
    body: String,
}

/// Splits engine output into responses, checking GTP's framing: `=` or `?`,
/// an optional id of digits, one space, a body without empty lines, and one
/// empty line after it. Nothing else may appear on stdout.
fn split_responses(out: &[u8]) -> Result<Vec<Response>, String> {
    let text = std::str::from_utf8(out).map_err(|e| format!("output is not UTF-8: {e}"))?;
    let mut rest = text;
    let mut responses = Vec::new();
    while !rest.is_empty() {
        let n = responses.len() + 1;
        let end = rest
            .find("\n\n")
            .ok_or_else(|| format!("response {n} is not ended by an empty line: {rest:?}"))?;
        let (resp, tail) = (&rest[..end], &rest[end + 2..]);
        rest = tail;
        let ok = match resp.as_bytes().first() {
            Some(b'=') => true,
            Some(b'?') => false,
            _ => return Err(format!("response {n} does not start with = or ?: {resp:?}")),
        };
        let after_mark = &resp[1..];
        let digits = after_mark.len()
            - after_mark
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let id = if digits == 0 {
            None
        } else {
            Some(
                after_mark[..digits]
                    .parse::<u32>()
                    .map_err(|e| format!("response {n} has a bad id: {e}: {resp:?}"))?,
            )
        };
        let body = after_mark[digits..]
            .strip_prefix(' ')
            .ok_or_else(|| format!("response {n} has no space after = or the id: {resp:?}"))?;
        if body.lines().skip(1).any(|l| l.trim().is_empty()) {
            return Err(format!("response {n} has a blank line inside: {resp:?}"));
        }
        responses.push(Response {
            ok,
            id,
            body: body.to_owned(),
        });
    }
    Ok(responses)
}

/// Checks responses against expectations: same number, same ids in order.
fn check_framing(expected: &[Expect], responses: &[Response]) -> Result<(), String> {
    for (i, (e, r)) in expected.iter().zip(responses).enumerate() {
        if e.id != r.id {
            return Err(format!(
                "response {} to {:?} has id {:?}, expected {:?}",
                i + 1,
                e.line,
                r.id,
                e.id
            ));
        }
    }
    if expected.len() != responses.len() {
        return Err(format!(
            "{} responses for {} command lines",
            responses.len(),
            expected.len()
        ));
    }
    Ok(())
}

/// Shows bytes readably: printable ASCII as is, the rest escaped.
fn visible(line: &[u8]) -> String {
    let mut s = String::new();
    for &b in line {
        match b {
            b'\\' => s.push_str("\\\\"),
            b' '..=b'~' => s.push(b as char),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}

/// A line diff (longest common subsequence) of two outputs, with changed
/// lines marked `-` (expected) and `+` (actual) and a little context.
fn diff(expected: &[u8], actual: &[u8]) -> String {
    let a: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = actual.split(|&b| b == b'\n').collect();
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &[u8])> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    const CONTEXT: usize = 3;
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut last_shown: Option<usize> = None;
    for (k, (op, line)) in ops.iter().enumerate() {
        let near = changed.iter().any(|&c| c.abs_diff(k) <= CONTEXT);
        if !near {
            continue;
        }
        if last_shown.is_some_and(|l| l + 1 != k) {
            out.push_str("   ...\n");
        }
        let _ = writeln!(out, "{op}  {}", visible(line));
        last_shown = Some(k);
    }
    out
}

fn gtp_files(select: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(transcripts_dir())
        .expect("protocol/transcripts is missing")
        .map(|e| e.expect("cannot read protocol/transcripts").path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtp"))
        .filter(|p| select(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files
}

/// Runs one transcript; returns a description of what went wrong, if anything.
fn check_transcript(gtp: &Path, bless: bool) -> Option<String> {
    let name = gtp.file_name().unwrap().to_string_lossy().into_owned();
    let input = std::fs::read(gtp).expect("cannot read transcript");
    let run = run_engine(&args_of(&input), &input);
    let mut problems = Vec::new();
    if !run.status.success() {
        problems.push(format!(
            "engine exited with {}; stderr:\n{}",
            run.status,
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let expected = expectations(&input);
    match split_responses(&run.stdout) {
        Err(e) => problems.push(format!("badly framed output: {e}")),
        Ok(responses) => {
            if let Err(e) = check_framing(&expected, &responses) {
                problems.push(e);
            }
        }
    }
    let out_path = gtp.with_extension("out");
    if bless {
        std::fs::write(&out_path, &run.stdout).expect("cannot write .out file");
    } else {
        match std::fs::read(&out_path) {
            Err(e) => problems.push(format!(
                "cannot read {}: {e} (TESUJI_BLESS=1 creates it)",
                out_path.display()
            )),
            Ok(want) if mask_timing(&want) != mask_timing(&run.stdout) => {
                problems.push(format!("output differs:\n{}", diff(&want, &run.stdout)))
            }
            Ok(_) => {}
        }
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!("{name}:\n{}", problems.join("\n")))
    }
}

fn run_all(files: &[PathBuf], bless: bool) {
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check_transcript(f, bless))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// The commands of `list_commands`, asked of the binary itself.
fn listed_commands() -> Vec<String> {
    let run = run_engine(&[], b"list_commands\n");
    let responses = split_responses(&run.stdout).expect("list_commands is badly framed");
    assert_eq!(responses.len(), 1);
    assert!(responses[0].ok, "list_commands failed");
    responses[0].body.lines().map(str::to_owned).collect()
}

/// Output with the digits of the solver's timing fields (`time_ms=`,
/// `nps=`) replaced by `*`: they differ from run to run, so transcripts
/// pin everything else.
fn mask_timing(out: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(out);
    let mut masked = String::with_capacity(text.len());
    let mut rest: &str = &text;
    while let Some(i) = ["time_ms=", "nps="]
        .iter()
        .filter_map(|k| rest.find(k).map(|i| i + k.len()))
        .min()
    {
        masked.push_str(&rest[..i]);
        rest = rest[i..].trim_start_matches(|c: char| c.is_ascii_digit());
        masked.push('*');
    }
    masked.push_str(rest);
    masked.into_bytes()
}

/// Command sections of `commands.md`: `` ### `name` `` headings, each with
/// the messages of its error table (rows starting with `` | `message` ``),
/// and for each message whether only `# interrupt` can cause it (its row
/// says so with `` `# interrupt` ``): a transcript cannot time an
/// interrupt, so `tests/interrupt.rs` checks those instead.
fn documented_commands(markdown: &str) -> Result<BTreeMap<String, BTreeMap<String, bool>>, String> {
    let mut docs: BTreeMap<String, BTreeMap<String, bool>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        if line.starts_with('#') {
            let text = line.trim_start_matches('#').trim();
            current = text
                .strip_prefix('`')
                .and_then(|t| t.strip_suffix('`'))
                .map(str::to_owned);
            if let Some(name) = &current {
                if docs.insert(name.clone(), BTreeMap::new()).is_some() {
                    return Err(format!("command {name} is documented twice"));
                }
            }
        } else if let (Some(name), Some(row)) = (&current, line.strip_prefix("| `")) {
            let message = row
                .split('`')
                .next()
                .ok_or_else(|| format!("bad error row under {name}: {line}"))?;
            let interrupt_only = row.contains("`# interrupt`");
            docs.get_mut(name)
                .expect("section exists")
                .insert(message.to_owned(), interrupt_only);
        }
    }
    Ok(docs)
}

/// Whether an observed message matches a documented one; `<…>` in the
/// documentation stands for any text (an operating-system error, say).
fn message_matches(documented: &str, seen: &str) -> bool {
    match documented.split_once('<') {
        Some((prefix, _)) => seen.starts_with(prefix),
        None => documented == seen,
    }
}

#[test]
fn transcripts_match() {
    let bless = std::env::var("TESUJI_BLESS").is_ok_and(|v| v == "1");
    let files = gtp_files(|_| true);
    assert!(files.len() >= 10, "too few transcripts: {files:?}");
    run_all(&files, bless);
}

#[test]
fn every_command_is_documented() {
    let listed: BTreeSet<String> = listed_commands().into_iter().collect();
    assert!(listed.contains("protocol_version") && listed.len() > 20);
    let markdown =
        std::fs::read_to_string(protocol_dir().join("commands.md")).expect("commands.md");
    let documented = documented_commands(&markdown).unwrap();
    let headings: BTreeSet<String> = documented.keys().cloned().collect();
    let missing: Vec<_> = listed.difference(&headings).collect();
    assert!(
        missing.is_empty(),
        "no heading in commands.md for {missing:?}"
    );
    let extra: Vec<_> = headings.difference(&listed).collect();
    assert!(
        extra.is_empty(),
        "commands.md documents {extra:?}, which list_commands does not list"
    );
    let readme = std::fs::read_to_string(protocol_dir().join("README.md")).expect("README.md");
    let unindexed: Vec<_> = listed
        .iter()
        .filter(|c| !readme.contains(&format!("[`{c}`]")))
        .collect();
    assert!(unindexed.is_empty(), "README.md index lacks {unindexed:?}");
}

/// The documented error messages of each command are exactly those the
/// transcripts make it give: none undocumented, none untested.
#[test]
fn documented_errors_match_transcripts() {
    let markdown =
        std::fs::read_to_string(protocol_dir().join("commands.md")).expect("commands.md");
    let documented = documented_commands(&markdown).unwrap();
    // Command name -> the error messages the transcripts show it giving.
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for gtp in gtp_files(|_| true) {
        let input = std::fs::read(&gtp).unwrap();
        let run = run_engine(&args_of(&input), &input);
        let responses = split_responses(&run.stdout).unwrap();
        for (e, r) in expectations(&input).iter().zip(&responses) {
            if let (Some(cmd), false) = (&e.command, r.ok) {
                seen.entry(cmd.clone()).or_default().insert(r.body.clone());
            }
        }
    }
    let mut problems = Vec::new();
    for (cmd, messages) in &seen {
        // Names that are not commands ("NAME", "12abc") are not documented.
        let Some(docs) = documented.get(cmd) else {
            continue;
        };
        for m in messages {
            if !docs.keys().any(|d| message_matches(d, m)) {
                problems.push(format!("{cmd}: `{m}` is not in its error table"));
            }
        }
    }
    for (cmd, docs) in &documented {
        let messages = seen.get(cmd).cloned().unwrap_or_default();
        for (d, &interrupt_only) in docs {
            if !interrupt_only && !messages.iter().any(|m| message_matches(d, m)) {
                problems.push(format!(
                    "{cmd}: `{d}` is documented but no transcript shows it"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The flags of `protocol/README.md` are accepted, and bad ones refused
/// with exit status 2 and a usage message.
#[test]
fn command_line_flags() {
    let good: &[&[&str]] = &[
        &[],
        &["gtp"],
        &["--ko", "simple"],
        &["gtp", "--ko", "positional", "--resign-threshold", "never"],
        &["--resign-threshold", "30.5", "--depth", "1", "--tt-mb", "1"],
        &["--game", "nogo:4x4"],
        &["--mc", "0"],
        &["gtp", "--mc", "10000", "--depth", "1"],
        &["gtp", "--game", "mnk:15,15,5,exact", "--ko", "simple"],
    ];
    for args in good {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let run = run_engine(&args, b"1 protocol_version\n2 quit\n");
        assert!(run.status.success(), "{args:?}: {}", run.status);
        assert_eq!(run.stdout, b"=1 2\n\n=2 \n\n", "{args:?}");
    }
    let run = run_engine(&["--ko".into(), "simple".into()], b"tesuji-ko_rule\n");
    assert_eq!(run.stdout, b"= simple\n\n");
    for flag in ["help", "-h"] {
        let run = run_engine(&[flag.to_string()], b"name\n");
        assert!(run.status.success(), "{flag}: {}", run.status);
        let usage = String::from_utf8_lossy(&run.stdout);
        assert!(usage.starts_with("usage: tesuji"), "{flag}: {usage}");
    }
    let bad: &[&[&str]] = &[
        &["--ko"],
        &["--ko", "japanese"],
        &["--resign-threshold", "x"],
        &["--depth", "-1"],
        &["--tt-mb", "lots"],
        &["--mc", "10001"],
        &["--mc", "-1"],
        &["--mc"],
        &["--bogus"],
        &["--game"],
        &["--game", "chess:8x8"],
        &["frobnicate"],
    ];
    for args in bad {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let run = run_engine(&args, b"name\n");
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(run.stdout.is_empty(), "{args:?} answered on stdout");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.starts_with("tesuji: ") && err.contains("usage: tesuji"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn harness_self_check() {
    // The expectation rules on the cases they distinguish.
    let e = expectations(b"\n# c\n 1 name\r\n12\n4294967296 x\nx\x01y\n7 quit\nname\n");
    let got: Vec<(Option<u32>, Option<&str>)> =
        e.iter().map(|e| (e.id, e.command.as_deref())).collect();
    assert_eq!(
        got,
        [
            (Some(1), Some("name")),
            (Some(12), None),
            (None, None),
            (None, Some("xy")),
            (Some(7), Some("quit")),
        ]
    );
    // Framing: good and bad outputs.
    let r = split_responses(b"=1 a\nb\n\n? x\n\n= \n\n").unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(
        (r[0].ok, r[0].id, r[0].body.as_str()),
        (true, Some(1), "a\nb")
    );
    assert_eq!((r[1].ok, r[1].id, r[1].body.as_str()), (false, None, "x"));
    for bad in [
        &b"=1\n\n"[..],
        b"= x\n",
        b"x\n\n",
        b"=1 a\n \nb\n\n",
        b"=1x y\n\n",
    ] {
        assert!(split_responses(bad).is_err(), "{}", visible(bad));
    }
    // The diff marks exactly the changed line.
    let d = diff(b"a\nb\nc\n", b"a\nB\nc\n");
    assert!(
        d.contains("-  b\n") && d.contains("+  B\n") && d.contains("   a\n"),
        "{d}"
    );
    assert_eq!(
        args_of(b"# tesuji-args: --ko simple\nname\n"),
        ["--ko", "simple"]
    );
    assert!(message_matches(
        "cannot write file: <reason>",
        "cannot write file: x"
    ));
    assert!(!message_matches("syntax error", "syntax error 2"));
    assert_eq!(
        mask_timing(b"= x nodes=5 time_ms=12 pv=A1\n\n= nodes=5 time_ms=0 nps=3\n"),
        b"= x nodes=5 time_ms=* pv=A1\n\n= nodes=5 time_ms=* nps=*\n"
    );
}

/// `tesuji --help` prints the usage like `tesuji help`, and so does
/// `--help` or `-h` after a subcommand.
#[test]
fn double_dash_help_prints_usage() {
    let asks: &[&[&str]] = &[
        &["--help"],
        &["gtp", "--help"],
        &["solve", "--help"],
        &["solve", "--game", "nogo:3x3", "-h"],
        &["bench", "--help"],
        &["bench", "search", "--help"],
        &["regress", "--help"],
        &["match", "--help"],
    ];
    for args in asks {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let run = run_engine(&args, b"name\n");
        assert!(run.status.success(), "{args:?}: {}", run.status);
        let usage = String::from_utf8_lossy(&run.stdout);
        assert!(usage.starts_with("usage: tesuji"), "{args:?}: {usage}");
    }
}
