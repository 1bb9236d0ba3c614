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

use crate::engines::{find_profile, load_profiles, EngineProfile};
use crate::gtp_client::{ClientOptions, GtpClient, StderrMode};
use regex::Regex;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Parsing

/// What a `#? [...]` line asks of a test's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The regular expression between the brackets, without a leading `!`.
    pub pattern: String,
    /// `[!...]`: the answer must not match.
    pub negated: bool,
    /// `]*`: the test is a known failure.
    pub expect_fail: bool,
    /// `]&`: run the test, show the answer, do not judge it.
    pub ignored: bool,
}

impl Expectation {
    /// The expectation written back in `.tst` form, e.g. `[1 (A1|B2)]*`.
    pub fn display(&self) -> String {
        format!(
            "[{}{}]{}{}",
            if self.negated { "!" } else { "" },
            self.pattern,
            if self.expect_fail { "*" } else { "" },
            if self.ignored { "&" } else { "" }
        )
    }

    /// Whether `body` (a successful answer) satisfies the pattern.
    /// `Err` when the pattern does not compile.
    pub fn accepts(&self, body: &str) -> Result<bool, String> {
        // `\A` and `\z` rather than `^`/`$`: in multi-line mode (which
        // gogui-regress uses) `^` and `$` also match at line breaks and
        // would no longer force a whole-answer match. The group keeps an
        // alternation such as `0|1 T7` from escaping the anchors.
        // Compiled alone first: a pattern such as `a)|(b` would otherwise
        // close the group early and compile into something unanchored.
        let invalid = |e: regex::Error| format!("invalid regex [{}]: {e}", self.pattern);
        Regex::new(&self.pattern).map_err(invalid)?;
        let re = Regex::new(&format!(r"\A(?ms:{})\z", self.pattern)).map_err(invalid)?;
        Ok(re.is_match(body) != self.negated)
    }
}

/// A numbered test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    pub id: u64,
    /// The GTP command without its id.
    pub command: String,
    /// 1-based line number of the command in the file.
    pub line: usize,
    /// `None`: the command only has to succeed.
    pub expected: Option<Expectation>,
}

/// One entry of a `.tst` file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An unnumbered command that must succeed.
    Setup {
        line: usize,
        command: String,
    },
    Test(Test),
}

/// A format error in a `.tst` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// Parses the text of a `.tst` file (see the module documentation).
pub fn parse(text: &str) -> Result<Vec<Item>, ParseError> {
    let mut items = Vec::new();
    // True while the previous line was a numbered test still waiting for
    // its `#?` line.
    let mut test_open = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        let err = |message: String| ParseError {
            line: line_no,
            message,
        };
        if let Some(rest) = line.strip_prefix("#?") {
            let test = match items.last_mut() {
                Some(Item::Test(t)) if test_open => t,
                _ => {
                    return Err(err(
                        "`#?` line without a numbered test command on the line before".into(),
                    ))
                }
            };
            test.expected = parse_expectation(rest.trim()).map_err(err)?;
            test_open = false;
            continue;
        }
        test_open = false;
        let command = clean_command(line);
        if command.is_empty() {
            continue;
        }
        let (first, rest) = command.split_once(' ').unwrap_or((&command, ""));
        if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
            let id = first
                .parse::<u64>()
                .map_err(|_| err(format!("test id {first} is too large")))?;
            let rest = rest.trim();
            if rest.is_empty() {
                return Err(err(format!("test {id} has no command")));
            }
            items.push(Item::Test(Test {
                id,
                command: rest.to_string(),
                line: line_no,
                expected: None,
            }));
            test_open = true;
        } else {
            items.push(Item::Setup {
                line: line_no,
                command,
            });
        }
    }
    Ok(items)
}

/// The command part of a line, preprocessed as GTP (section 3.1) says an
/// engine does: everything from a `#` on is a comment, a tab is a space,
/// other control characters are dropped. A comment or blank line gives "".
/// Done here too so that tests are recognised (`1<TAB>attack`) and shown as
/// the engine reads them.
fn clean_command(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    let cleaned: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_string()
}

/// Parses what follows `#?` (already trimmed). `Ok(None)` for nothing.
fn parse_expectation(spec: &str) -> Result<Option<Expectation>, String> {
    if spec.is_empty() {
        return Ok(None);
    }
    // Flags after the closing bracket, in any order (`regress.awk` accepts
    // `]*`, `]&` and both); white space before them is tolerated.
    let mut body = spec;
    let (mut expect_fail, mut ignored) = (false, false);
    loop {
        body = body.trim_end();
        if let Some(b) = body.strip_suffix('*') {
            expect_fail = true;
            body = b;
        } else if let Some(b) = body.strip_suffix('&') {
            ignored = true;
            body = b;
        } else {
            break;
        }
    }
    let inner = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| {
            format!("expected `#? [PATTERN]` with optional `*` or `&` after it, got `#? {spec}`")
        })?
        .trim();
    let (negated, pattern) = match inner.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, inner),
    };
    Ok(Some(Expectation {
        pattern: pattern.to_string(),
        negated,
        expect_fail,
        ignored,
    }))
}

// ---------------------------------------------------------------------------
// Judging

/// An engine's answer to a test command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `= body`
    Success(String),
    /// `? message`
    Failure(String),
    /// No answer: the engine died, hung, or was already unusable.
    Missing,
}

impl Answer {
    /// One-line text for reports: the body, `? message`, or `(no answer)`.
    /// Line breaks of multi-line answers are shown as `\n`.
    pub fn display(&self) -> String {
        let text = match self {
            Answer::Success(body) => body.clone(),
            Answer::Failure(msg) => format!("? {msg}"),
            Answer::Missing => "(no answer)".to_string(),
        };
        text.replace('\n', "\\n")
    }
}

/// A test's result, in gogui-regress's four classes plus `&`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Passed, as expected.
    Pass,
    /// Failed without a `*`: a regression.
    Fail,
    /// Passed although marked `*`.
    UnexpectedPass,
    /// Failed and marked `*`.
    ExpectedFail,
    /// Marked `&`: not judged.
    Ignored,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::UnexpectedPass => "PASS (unexpected)",
            Verdict::ExpectedFail => "fail (expected)",
            Verdict::Ignored => "ignored",
        }
    }

    /// Whether the test itself passed (expected or not).
    pub fn passed(self) -> bool {
        matches!(self, Verdict::Pass | Verdict::UnexpectedPass)
    }

    /// Whether the test itself failed (expected or not).
    pub fn failed(self) -> bool {
        matches!(self, Verdict::Fail | Verdict::ExpectedFail)
    }
}

/// Places a pass or fail against the test's `*` flag.
pub fn classify(failed: bool, expect_fail: bool) -> Verdict {
    match (failed, expect_fail) {
        (false, false) => Verdict::Pass,
        (true, false) => Verdict::Fail,
        (false, true) => Verdict::UnexpectedPass,
        (true, true) => Verdict::ExpectedFail,
    }
}

/// Judges one answer. The reason explains failures that the answer alone
/// does not (an error answer, a bad pattern, no answer).
pub fn judge(expected: Option<&Expectation>, answer: &Answer) -> (Verdict, Option<String>) {
    let expect_fail = expected.is_some_and(|e| e.expect_fail);
    if expected.is_some_and(|e| e.ignored) {
        return (Verdict::Ignored, None);
    }
    let (failed, reason) = match answer {
        Answer::Missing => (true, Some("no answer from the engine".to_string())),
        // The answer, shown as `? message`, says why by itself.
        Answer::Failure(_) => (true, None),
        Answer::Success(body) => match expected {
            None => (false, None),
            Some(e) => match e.accepts(body) {
                Ok(ok) => (!ok, None),
                Err(msg) => (true, Some(msg)),
            },
        },
    };
    (classify(failed, expect_fail), reason)
}

/// The `nodes=N` field of a `tesuji-solver_stats` answer.
pub fn parse_nodes(stats: &str) -> Option<u64> {
    stats_field(stats, "nodes=")
}

/// The `cpu_time_ms=T` field of a `tesuji-solver_stats` answer.
pub fn parse_cpu(stats: &str) -> Option<Duration> {
    stats_field(stats, "cpu_time_ms=").map(Duration::from_millis)
}

fn stats_field(stats: &str, key: &str) -> Option<u64> {
    stats
        .split_whitespace()
        .find_map(|field| field.strip_prefix(key))
        .and_then(|n| n.parse().ok())
}

// ---------------------------------------------------------------------------
// Running

/// How to run the files.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The engine; its `workdir` is replaced by each file's folder.
    pub engine: EngineProfile,
    /// Longest wait for one answer.
    pub timeout: Duration,
    /// Pass the engine's stderr through instead of discarding it.
    pub engine_stderr: bool,
}

/// The result of one test.
#[derive(Clone, Debug)]
pub struct TestResult {
    /// The file as the user named it.
    pub file: String,
    pub id: u64,
    pub line: usize,
    pub command: String,
    pub answer: Answer,
    pub expected: Option<Expectation>,
    pub verdict: Verdict,
    /// Why it failed when the answer does not say it by itself.
    pub reason: Option<String>,
    /// Solver nodes, when the engine reports them.
    pub nodes: Option<u64>,
    /// Wall time from sending the command to the end of its answer.
    pub time: Duration,
    /// CPU time of the engine's solver, when the engine reports it.
    pub cpu: Option<Duration>,
}

/// Everything that happened in one file.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    pub file: String,
    pub results: Vec<TestResult>,
    /// Setup commands that failed, each with its line number and message.
    pub setup_errors: Vec<String>,
    /// Set when the engine stopped answering; later tests were not sent.
    pub engine_error: Option<String>,
}

/// Reads, parses and runs one `.tst` file. `label` names the file in the
/// results. `on_result` sees each result as soon as it is known (to stream
/// the table). `Err` is for problems that stop the file before any test:
/// unreadable file, format error, engine that cannot be started.
pub fn run_file(
    path: &Path,
    label: &str,
    options: &RunOptions,
    on_result: &mut dyn FnMut(&TestResult),
) -> Result<FileReport, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {label}: {e}"))?;
    let items = parse(&text).map_err(|e| format!("{label}:{}: {}", e.line, e.message))?;
    let dir = std::path::absolute(path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .ok_or_else(|| format!("cannot find the folder of {label}"))?;
    run_items(&items, &dir, label, options, on_result)
}

/// Runs parsed items with a fresh engine working in `dir`.
pub fn run_items(
    items: &[Item],
    dir: &Path,
    label: &str,
    options: &RunOptions,
    on_result: &mut dyn FnMut(&TestResult),
) -> Result<FileReport, String> {
    let mut profile = options.engine.clone();
    profile.workdir = Some(dir.to_path_buf());
    let client_options = ClientOptions {
        timeout: options.timeout,
        stderr: if options.engine_stderr {
            StderrMode::Inherit
        } else {
            StderrMode::Null
        },
    };
    let mut client =
        GtpClient::spawn_with(&profile, &client_options).map_err(|e| format!("{label}: {e}"))?;
    let mut report = FileReport {
        file: label.to_string(),
        ..FileReport::default()
    };
    // Once set, the engine is not sent anything more: GtpClient refuses a
    // conversation that may be out of step, and a hung engine must not cost
    // one timeout per remaining test.
    let mut dead: Option<String> = None;
    let note_death = |dead: &mut Option<String>, what: String| {
        eprintln!("regress: {label}: {what}; the remaining tests of this file fail");
        *dead = Some(what);
    };

    let solver_stats = match client.send("known_command tesuji-solver_stats") {
        Ok(Ok(answer)) => answer == "true",
        Ok(Err(_)) => false,
        Err(e) => {
            note_death(&mut dead, format!("engine failed at start: {e}"));
            false
        }
    };

    // The first failed setup command since the last test: it spoils the
    // next test.
    let mut spoiled: Option<String> = None;
    for item in items {
        match item {
            Item::Setup { line, command } => {
                if dead.is_some() {
                    continue;
                }
                match client.send(command) {
                    Ok(Ok(_)) => {}
                    Ok(Err(msg)) => {
                        let what = format!("line {line}: `{command}` failed: {msg}");
                        eprintln!("regress: {label}: setup error: {what}");
                        report.setup_errors.push(what.clone());
                        spoiled.get_or_insert(what);
                    }
                    Err(e) => note_death(&mut dead, format!("line {line}: `{command}`: {e}")),
                }
            }
            Item::Test(test) => {
                let mut time = Duration::ZERO;
                let mut nodes = None;
                let mut cpu = None;
                let answer = if dead.is_some() {
                    Answer::Missing
                } else {
                    let start = Instant::now();
                    let sent = client.send(&format!("{} {}", test.id, test.command));
                    time = start.elapsed();
                    match sent {
                        Ok(Ok(body)) => Answer::Success(body),
                        Ok(Err(msg)) => Answer::Failure(msg),
                        Err(e) => {
                            note_death(
                                &mut dead,
                                format!("line {}: test {}: {e}", test.line, test.id),
                            );
                            Answer::Missing
                        }
                    }
                };
                if solver_stats && dead.is_none() {
                    match client.send("tesuji-solver_stats") {
                        Ok(Ok(stats)) => {
                            nodes = parse_nodes(&stats);
                            cpu = parse_cpu(&stats);
                        }
                        Ok(Err(_)) => {}
                        Err(e) => note_death(&mut dead, format!("tesuji-solver_stats: {e}")),
                    }
                }
                let (mut verdict, mut reason) = judge(test.expected.as_ref(), &answer);
                if answer == Answer::Missing {
                    reason = dead.as_ref().map(|d| format!("engine unusable: {d}"));
                }
                if let Some(what) = spoiled.take() {
                    if verdict != Verdict::Ignored {
                        let expect_fail = test.expected.as_ref().is_some_and(|e| e.expect_fail);
                        verdict = classify(true, expect_fail);
                        reason = Some(format!("setup failed: {what}"));
                    }
                }
                let result = TestResult {
                    file: label.to_string(),
                    id: test.id,
                    line: test.line,
                    command: test.command.clone(),
                    answer,
                    expected: test.expected.clone(),
                    verdict,
                    reason,
                    nodes,
                    time,
                    cpu,
                };
                on_result(&result);
                report.results.push(result);
            }
        }
    }
    if dead.is_none() {
        if let Err(e) = client.quit() {
            eprintln!("regress: {label}: engine did not quit cleanly: {e}");
        }
    }
    // Otherwise dropping the client kills the engine at once: waiting for a
    // hung engine to quit would only cost another timeout.
    report.engine_error = dead;
    Ok(report)
}

// ---------------------------------------------------------------------------
// Reporting

/// Sums over any number of results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub tests: usize,
    pub passed: usize,
    pub failed: usize,
    pub unexpected_passes: usize,
    pub unexpected_fails: usize,
    pub expected_fails: usize,
    pub ignored: usize,
    pub setup_errors: usize,
    /// Sum of the reported node counts.
    pub nodes: u64,
    /// Time of the tests that reported a node count (for nodes per second).
    pub nodes_time: Duration,
    /// Nodes and CPU time of the tests that reported both.
    pub cpu_nodes: u64,
    pub cpu: Duration,
    /// Time of all tests.
    pub time: Duration,
}

impl Totals {
    pub fn add_report(&mut self, report: &FileReport) {
        self.setup_errors += report.setup_errors.len();
        for r in &report.results {
            self.add(r);
        }
    }

    pub fn add(&mut self, r: &TestResult) {
        self.tests += 1;
        match r.verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::UnexpectedPass => {
                self.passed += 1;
                self.unexpected_passes += 1;
            }
            Verdict::Fail => {
                self.failed += 1;
                self.unexpected_fails += 1;
            }
            Verdict::ExpectedFail => {
                self.failed += 1;
                self.expected_fails += 1;
            }
            Verdict::Ignored => self.ignored += 1,
        }
        self.time += r.time;
        if let Some(n) = r.nodes {
            self.nodes += n;
            self.nodes_time += r.time;
            if let Some(c) = r.cpu {
                self.cpu_nodes += n;
                self.cpu += c;
            }
        }
    }

    /// The summary lines printed after the table.
    pub fn summary(&self) -> String {
        let nodes = if self.nodes_time.is_zero() && self.nodes == 0 {
            "-".to_string()
        } else {
            self.nodes.to_string()
        };
        format!(
            "tests {}  passed {}  failed {}  unexpected passes {}  unexpected fails {}  \
             expected fails {}  ignored {}  setup errors {}\n\
             nodes {}  time {:.1} ms  nodes/s {}  cpu {:.1} ms  nodes/cpu-s {}\n",
            self.tests,
            self.passed,
            self.failed,
            self.unexpected_passes,
            self.unexpected_fails,
            self.expected_fails,
            self.ignored,
            self.setup_errors,
            nodes,
            ms(self.time),
            nodes_per_second(Some(self.nodes), self.nodes_time),
            ms(self.cpu),
            nodes_per_second(Some(self.cpu_nodes), self.cpu)
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn nodes_per_second(nodes: Option<u64>, time: Duration) -> String {
    match nodes {
        Some(n) if n > 0 && !time.is_zero() => format!("{:.0}", n as f64 / time.as_secs_f64()),
        _ => "-".to_string(),
    }
}

fn nodes_text(nodes: Option<u64>) -> String {
    nodes.map_or_else(|| "-".to_string(), |n| n.to_string())
}

fn expected_text(expected: Option<&Expectation>) -> String {
    expected.map_or_else(|| "(success)".to_string(), Expectation::display)
}

/// One line of the table:
/// `file:id  VERDICT  command  -> answer  [expected]  nodes  time_ms  nodes/s`,
/// then `# reason` when there is one. `key_width` pads the first column.
/// Columns have minimum widths only, so a long value shifts the rest of its
/// line rather than being cut.
pub fn format_row(r: &TestResult, key_width: usize) -> String {
    let mut line = row(
        &format!("{}:{}", r.file, r.id),
        key_width,
        r.verdict.label(),
        &r.command,
        &format!("-> {}", r.answer.display()),
        &expected_text(r.expected.as_ref()),
        &nodes_text(r.nodes),
        &format!("{:.1}", ms(r.time)),
        &nodes_per_second(r.nodes, r.time),
        &r.cpu
            .map_or_else(|| "-".to_string(), |c| format!("{:.1}", ms(c))),
        &cpu_nodes_per_second(r),
    );
    if let Some(reason) = &r.reason {
        let _ = write!(line, "  # {reason}");
    }
    line
}

/// The column titles of [`format_row`]'s table.
pub fn format_header(key_width: usize) -> String {
    row(
        "test",
        key_width,
        "verdict",
        "command",
        "-> answer",
        "[expected]",
        "nodes",
        "time_ms",
        "nodes/s",
        "cpu_ms",
        "nodes/cpu-s",
    )
}

fn cpu_nodes_per_second(r: &TestResult) -> String {
    match r.cpu {
        Some(c) => nodes_per_second(r.nodes, c),
        None => "-".to_string(),
    }
}

#[allow(clippy::too_many_arguments)]
fn row(
    key: &str,
    key_width: usize,
    verdict: &str,
    command: &str,
    answer: &str,
    expected: &str,
    nodes: &str,
    time: &str,
    nps: &str,
    cpu: &str,
    cpu_nps: &str,
) -> String {
    format!(
        "{key:<key_width$}  {verdict:<17}  {command:<16}  {answer:<20}  {expected:<30}  \
         {nodes:>9}  {time:>9}  {nps:>9}  {cpu:>9}  {cpu_nps:>11}"
    )
}

/// The header of the CSV table.
pub const CSV_HEADER: &str =
    "file,id,line,verdict,command,answer,expected,nodes,time_ms,nodes_per_s,cpu_ms,nodes_per_cpu_s,reason";

/// One CSV record (RFC 4180 quoting) matching [`CSV_HEADER`]. Missing
/// values (nodes, nodes/s, reason) are empty fields.
pub fn format_csv(r: &TestResult) -> String {
    let nps = nodes_per_second(r.nodes, r.time);
    let fields = [
        r.file.clone(),
        r.id.to_string(),
        r.line.to_string(),
        r.verdict.label().to_string(),
        r.command.clone(),
        match &r.answer {
            Answer::Success(body) => body.clone(),
            Answer::Failure(msg) => format!("? {msg}"),
            Answer::Missing => String::new(),
        },
        r.expected
            .as_ref()
            .map_or_else(String::new, Expectation::display),
        r.nodes.map_or_else(String::new, |n| n.to_string()),
        format!("{:.3}", ms(r.time)),
        if nps == "-" { String::new() } else { nps },
        r.cpu.map_or_else(String::new, |c| format!("{:.3}", ms(c))),
        match cpu_nodes_per_second(r) {
            n if n == "-" => String::new(),
            n => n,
        },
        r.reason.clone().unwrap_or_default(),
    ];
    fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",")
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

// ---------------------------------------------------------------------------
// Command line

/// Usage of `tesuji regress`.
pub const USAGE: &str =
    "usage: tesuji regress [--engine PROFILE [--profiles PATH] | --engine-cmd \"CMD ARGS\"] \
[--timeout SECS] [--csv] [--engine-stderr] FILE.tst...\n";

const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// Parsed command line of `tesuji regress`.
#[derive(Clone, Debug, PartialEq)]
struct Cli {
    engine: Option<String>,
    engine_cmd: Option<String>,
    profiles: Option<PathBuf>,
    timeout: Duration,
    csv: bool,
    engine_stderr: bool,
    files: Vec<PathBuf>,
}

/// `Ok(None)` for `--help`.
fn parse_cli(args: &[String]) -> Result<Option<Cli>, String> {
    let mut cli = Cli {
        engine: None,
        engine_cmd: None,
        profiles: None,
        timeout: Duration::from_secs_f64(DEFAULT_TIMEOUT_SECS),
        csv: false,
        engine_stderr: false,
        files: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--engine" => cli.engine = Some(value()?.clone()),
            "--engine-cmd" => cli.engine_cmd = Some(value()?.clone()),
            "--profiles" => cli.profiles = Some(PathBuf::from(value()?)),
            "--timeout" => {
                let v = value()?;
                let secs: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
                    .ok_or_else(|| format!("bad timeout {v} (seconds, more than 0)"))?;
                cli.timeout = Duration::from_secs_f64(secs);
            }
            "--csv" => cli.csv = true,
            "--engine-stderr" => cli.engine_stderr = true,
            // `--` ends the options, for a file whose name starts with `-`.
            "--" => cli.files.extend(it.by_ref().map(PathBuf::from)),
            a if a.starts_with('-') => return Err(format!("unknown option {a}")),
            file => cli.files.push(PathBuf::from(file)),
        }
    }
    if cli.engine.is_some() && cli.engine_cmd.is_some() {
        return Err("--engine and --engine-cmd exclude each other".into());
    }
    if cli.profiles.is_some() && cli.engine.is_none() {
        return Err("--profiles only applies to --engine".into());
    }
    if cli.files.is_empty() {
        return Err("no .tst file given".into());
    }
    Ok(Some(cli))
}

/// The engine the command line asks for.
fn engine_profile(cli: &Cli) -> Result<EngineProfile, String> {
    if let Some(name) = &cli.engine {
        let path = cli
            .profiles
            .clone()
            .unwrap_or_else(|| PathBuf::from("engines.toml"));
        let profiles = load_profiles(&path)?;
        return find_profile(&profiles, name).cloned();
    }
    if let Some(cmd) = &cli.engine_cmd {
        let mut command: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        let program = command
            .first()
            .ok_or("--engine-cmd needs a program")?
            .clone();
        // The engine runs in each file's folder, so a relative program path
        // is fixed to the caller's directory now; a bare name stays a PATH
        // lookup.
        if program.contains('/') {
            let absolute = std::path::absolute(&program)
                .map_err(|e| format!("cannot resolve {program}: {e}"))?;
            command[0] = absolute.to_string_lossy().into_owned();
        }
        let name = Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        return Ok(EngineProfile {
            name,
            command,
            workdir: None,
            gtp_init: Vec::new(),
            description: None,
        });
    }
    let me =
        std::env::current_exe().map_err(|e| format!("cannot find the tesuji executable: {e}"))?;
    Ok(EngineProfile {
        name: "tesuji".into(),
        command: vec![me.to_string_lossy().into_owned(), "gtp".into()],
        workdir: None,
        gtp_init: Vec::new(),
        description: None,
    })
}

/// `tesuji regress ARGS`: runs the files and prints the table to stdout.
/// Exit status 0 when everything ran (failed tests included), 2 for a bad
/// command line or a file that could not be run.
pub fn main(args: &[String]) -> ExitCode {
    let cli = match parse_cli(args) {
        Ok(Some(cli)) => cli,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprint!("tesuji regress: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let engine = match engine_profile(&cli) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tesuji regress: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "regress: engine `{}`: {}",
        engine.name,
        engine.command.join(" ")
    );
    let options = RunOptions {
        engine,
        timeout: cli.timeout,
        engine_stderr: cli.engine_stderr,
    };
    let labels: Vec<String> = cli
        .files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    // Wide enough for `file:id` with ids of up to four digits.
    let key_width = labels.iter().map(|l| l.len() + 5).max().unwrap_or(0);

    let mut out = io::stdout().lock();
    let _ = if cli.csv {
        writeln!(out, "{CSV_HEADER}")
    } else {
        writeln!(out, "{}", format_header(key_width))
    };
    let mut totals = Totals::default();
    let mut io_error = false;
    for (path, label) in cli.files.iter().zip(&labels) {
        let mut print = |r: &TestResult| {
            let row = if cli.csv {
                format_csv(r)
            } else {
                format_row(r, key_width)
            };
            let _ = writeln!(out, "{row}");
            let _ = out.flush();
        };
        match run_file(path, label, &options, &mut print) {
            Ok(report) => {
                let mut file_totals = Totals::default();
                file_totals.add_report(&report);
                eprintln!(
                    "regress: {label}: {} tests, {} passed, {} failed ({} unexpectedly), \
                     {} unexpected passes",
                    file_totals.tests,
                    file_totals.passed,
                    file_totals.failed,
                    file_totals.unexpected_fails,
                    file_totals.unexpected_passes
                );
                totals.add_report(&report);
            }
            Err(e) => {
                eprintln!("tesuji regress: {e}");
                io_error = true;
            }
        }
    }
    // In CSV mode stdout stays one table; the totals go to stderr.
    if cli.csv {
        eprint!("{}", totals.summary());
    } else {
        let _ = write!(out, "{}", totals.summary());
    }
    let _ = out.flush();
    if io_error {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(line: usize, command: &str) -> Item {
        Item::Setup {
            line,
            command: command.into(),
        }
    }

    fn exp(pattern: &str) -> Expectation {
        Expectation {
            pattern: pattern.into(),
            negated: false,
            expect_fail: false,
            ignored: false,
        }
    }

    fn test(id: u64, line: usize, command: &str, expected: Option<Expectation>) -> Item {
        Item::Test(Test {
            id,
            command: command.into(),
            line,
            expected,
        })
    }

    #[test]
    fn parses_setup_tests_and_expectations() {
        let text = "\
# a comment
loadsgf games/a.sgf 33

1 defend S10
#? [1 T7]
trymove black C1
trymove\twhite C2
2 attack A18   # trailing comment
#? [0]*
popgo
popgo
  3 attack G1
  #?   [!0]  
4 defend G1
#? [(2|3) F1]&
5 attack B14
#?
6 genmove b
#? [1 (D1|C3)] *&
";
        let items = parse(text).unwrap();
        let negated = Expectation {
            negated: true,
            ..exp("0")
        };
        let expect_fail = Expectation {
            expect_fail: true,
            ..exp("0")
        };
        let ignored = Expectation {
            ignored: true,
            ..exp("(2|3) F1")
        };
        let both = Expectation {
            expect_fail: true,
            ignored: true,
            ..exp("1 (D1|C3)")
        };
        assert_eq!(
            items,
            vec![
                setup(2, "loadsgf games/a.sgf 33"),
                test(1, 4, "defend S10", Some(exp("1 T7"))),
                setup(6, "trymove black C1"),
                setup(7, "trymove white C2"),
                test(2, 8, "attack A18", Some(expect_fail)),
                setup(10, "popgo"),
                setup(11, "popgo"),
                test(3, 12, "attack G1", Some(negated)),
                test(4, 14, "defend G1", Some(ignored)),
                test(5, 16, "attack B14", None),
                test(6, 18, "genmove b", Some(both)),
            ]
        );
    }

    #[test]
    fn test_without_expectation_and_big_ids() {
        let items = parse("17 attack G7\nloadsgf x.sgf\n0042 defend A1\n#? []\n").unwrap();
        assert_eq!(
            items,
            vec![
                test(17, 1, "attack G7", None),
                setup(2, "loadsgf x.sgf"),
                test(42, 3, "defend A1", Some(exp(""))),
            ]
        );
        // Tabs are spaces, other control characters are dropped.
        assert_eq!(
            parse("7\tattack\x07 A1\n").unwrap(),
            vec![test(7, 1, "attack A1", None)]
        );
        // A first token that is not all digits is a command name.
        assert_eq!(parse("12abc x\n").unwrap(), vec![setup(1, "12abc x")]);
    }

    #[test]
    fn windows_line_ends_are_accepted() {
        let items = parse("loadsgf a.sgf 5\r\n1 attack A1\r\n#? [0]*\r\n").unwrap();
        let e = Expectation {
            expect_fail: true,
            ..exp("0")
        };
        assert_eq!(
            items,
            vec![
                setup(1, "loadsgf a.sgf 5"),
                test(1, 2, "attack A1", Some(e))
            ]
        );
    }

    #[test]
    fn format_errors_name_the_line() {
        let cases = [
            ("#? [0]\n", 1),                            // nothing before
            ("loadsgf a.sgf\n#? [0]\n", 2),             // after a setup command
            ("1 attack A1\n# note\n#? [0]\n", 3),       // comment in between
            ("1 attack A1\n\n#? [0]\n", 3),             // blank line in between
            ("1 attack A1\n#? [0]\n#? [1 B2]\n", 3),    // second pattern
            ("1 attack A1\n#? 0\n", 2),                 // no brackets
            ("1 attack A1\n#? [0\n", 2),                // no closing bracket
            ("1 attack A1\n#? [0]x\n", 2),              // junk after it
            ("2 attack A1\n#? [0]\n3\n", 3),            // id without command
            ("99999999999999999999999 attack A1\n", 1), // id overflow
        ];
        for (text, line) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!(err.line, line, "{text:?}: {err:?}");
        }
    }

    fn judged(pattern: &str, answer: Answer) -> Verdict {
        let e = parse_expectation(pattern).unwrap();
        judge(e.as_ref(), &answer).0
    }

    fn ok(body: &str) -> Answer {
        Answer::Success(body.into())
    }

    #[test]
    fn judge_matches_the_whole_answer() {
        assert_eq!(judged("[1 T7]", ok("1 T7")), Verdict::Pass);
        assert_eq!(judged("[1 T7]", ok("1 T7 T8")), Verdict::Fail);
        assert_eq!(judged("[0]", ok("10")), Verdict::Fail);
        assert_eq!(judged("[0]", ok("0")), Verdict::Pass);
        // The alternation stays inside the anchors.
        assert_eq!(judged("[0|1 T7]", ok("0 T7")), Verdict::Fail);
        assert_eq!(judged("[0|1 T7]", ok("1 T7")), Verdict::Pass);
        assert_eq!(judged("[1 (A12|A15)]", ok("1 A15")), Verdict::Pass);
        assert_eq!(judged("[(2|3) F1]", ok("2 F1")), Verdict::Pass);
        assert_eq!(judged("[(2|3) F1]", ok("1 F1")), Verdict::Fail);
        // Multi-line answers: `.` crosses lines, `^`/`$` work per line.
        assert_eq!(judged("[A1.*C3]", ok("A1\nB2\nC3")), Verdict::Pass);
        assert_eq!(judged("[A1$.*^C3]", ok("A1\nB2\nC3")), Verdict::Pass);
        assert_eq!(judged("[A1]", ok("A1\nB2")), Verdict::Fail);
        // Empty pattern: only an empty answer.
        assert_eq!(judged("[]", ok("")), Verdict::Pass);
        assert_eq!(judged("[]", ok("0")), Verdict::Fail);
    }

    #[test]
    fn judge_negation_flags_and_errors() {
        assert_eq!(judged("[!0]", ok("1 A1")), Verdict::Pass);
        assert_eq!(judged("[!0]", ok("0")), Verdict::Fail);
        assert_eq!(judged("[1 T7]*", ok("1 T7")), Verdict::UnexpectedPass);
        assert_eq!(judged("[1 T7]*", ok("0")), Verdict::ExpectedFail);
        assert_eq!(judged("[1 T7]&", ok("0")), Verdict::Ignored);
        assert_eq!(judged("[1 T7]*&", ok("0")), Verdict::Ignored);
        // An error answer fails, even a negated pattern and even a pattern
        // that matches the message.
        let unknown = || Answer::Failure("unknown command".into());
        assert_eq!(judged("[!0]", unknown()), Verdict::Fail);
        assert_eq!(judged("[unknown command]", unknown()), Verdict::Fail);
        assert_eq!(judged("[0]*", unknown()), Verdict::ExpectedFail);
        assert_eq!(judged("[0]", Answer::Missing), Verdict::Fail);
        // Without a pattern only success counts.
        assert_eq!(judge(None, &ok("anything")).0, Verdict::Pass);
        assert_eq!(judge(None, &unknown()).0, Verdict::Fail);
        // A pattern the regex crate cannot compile fails with the reason.
        let e = parse_expectation(r"[(\w)\1]").unwrap();
        let (v, reason) = judge(e.as_ref(), &ok("aa"));
        assert_eq!(v, Verdict::Fail);
        assert!(reason.unwrap().contains("invalid regex"));
        // A stray `)` must not break out of the anchoring group.
        assert_eq!(judged("[a)|(b]", ok("xa")), Verdict::Fail);
    }

    #[test]
    fn classification_matches_gogui_regress() {
        assert_eq!(classify(false, false), Verdict::Pass);
        assert_eq!(classify(true, false), Verdict::Fail);
        assert_eq!(classify(false, true), Verdict::UnexpectedPass);
        assert_eq!(classify(true, true), Verdict::ExpectedFail);
        assert_eq!(Verdict::UnexpectedPass.label(), "PASS (unexpected)");
        assert_eq!(Verdict::ExpectedFail.label(), "fail (expected)");
    }

    #[test]
    fn node_counts() {
        assert_eq!(parse_nodes("nodes=1234 time_ms=5"), Some(1234));
        assert_eq!(parse_nodes("depth=3 nodes=7"), Some(7));
        assert_eq!(parse_nodes("maxnodes=7"), None);
        assert_eq!(parse_nodes("nodes=x"), None);
        assert_eq!(parse_nodes(""), None);
        assert_eq!(
            parse_cpu("nodes=5 time_ms=9 nps=1 cpu_time_ms=7 cpu_nps=2"),
            Some(Duration::from_millis(7))
        );
        assert_eq!(parse_cpu("nodes=5 time_ms=9"), None);
    }

    fn result(verdict: Verdict, nodes: Option<u64>, ms: u64) -> TestResult {
        TestResult {
            file: "a.tst".into(),
            id: 3,
            line: 7,
            command: "attack G1".into(),
            answer: Answer::Success("1 F1".into()),
            expected: parse_expectation("[(2|3) F1]*").unwrap(),
            verdict,
            reason: None,
            nodes,
            time: Duration::from_millis(ms),
            cpu: None,
        }
    }

    #[test]
    fn rows_csv_and_totals() {
        let r = result(Verdict::ExpectedFail, Some(500), 250);
        let row = format_row(&r, 10);
        assert!(row.starts_with("a.tst:3     fail (expected)  "), "{row}");
        // The header's columns line up with the rows'.
        let header = format_header(10);
        assert_eq!(header.len(), row.len(), "{header}\n{row}");
        assert_eq!(header.find("command"), row.find("attack G1"));
        assert!(row.contains("attack G1"), "{row}");
        assert!(row.contains("-> 1 F1"), "{row}");
        assert!(row.contains("[(2|3) F1]*"), "{row}");
        assert!(
            row.trim_end()
                .ends_with("250.0       2000          -            -"),
            "{row}"
        );
        assert_eq!(
            format_csv(&r),
            "a.tst,3,7,fail (expected),attack G1,1 F1,[(2|3) F1]*,500,250.000,2000,,,"
        );
        let mut timed = r.clone();
        timed.cpu = Some(Duration::from_millis(100));
        assert!(format_row(&timed, 10).ends_with("250.0       2000      100.0         5000"));
        assert!(format_csv(&timed).ends_with(",500,250.000,2000,100.000,5000,"));
        let mut odd = result(Verdict::Fail, None, 1);
        odd.answer = Answer::Success("A1, \"B2\"\nC3".into());
        odd.reason = Some("why".into());
        assert!(format_csv(&odd).contains(",\"A1, \"\"B2\"\"\nC3\","));
        assert!(format_row(&odd, 0).contains("-> A1, \"B2\"\\nC3"));
        assert!(format_row(&odd, 0).ends_with("  # why"));

        let mut t = Totals::default();
        t.add(&r);
        t.add(&result(Verdict::Pass, Some(100), 50));
        t.add(&result(Verdict::UnexpectedPass, None, 100));
        t.add(&odd);
        t.add(&result(Verdict::Ignored, None, 0));
        assert_eq!((t.tests, t.passed, t.failed, t.ignored), (5, 2, 2, 1));
        assert_eq!((t.unexpected_passes, t.unexpected_fails), (1, 1));
        assert_eq!(t.nodes, 600);
        assert_eq!(t.nodes_time, Duration::from_millis(300));
        assert_eq!(t.time, Duration::from_millis(401));
        let s = t.summary();
        assert!(s.contains("tests 5  passed 2  failed 2"), "{s}");
        assert!(s.contains("nodes 600  time 401.0 ms  nodes/s 2000"), "{s}");
        t.add(&timed);
        assert_eq!((t.cpu_nodes, t.cpu), (500, Duration::from_millis(100)));
        assert!(t.summary().contains("cpu 100.0 ms  nodes/cpu-s 5000"));
    }

    #[test]
    fn command_line() {
        let args = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
        let cli = parse_cli(&args("--csv --timeout 2.5 a.tst b.tst"))
            .unwrap()
            .unwrap();
        assert!(cli.csv);
        assert_eq!(cli.timeout, Duration::from_millis(2500));
        assert_eq!(cli.files, [PathBuf::from("a.tst"), PathBuf::from("b.tst")]);
        assert_eq!(parse_cli(&args("--help")).unwrap(), None);
        for bad in [
            "",
            "--csv",
            "--engine gnugo --engine-cmd gnugo a.tst",
            "--timeout 0 a.tst",
            "--timeout x a.tst",
            "--profiles e.toml a.tst",
            "--bogus a.tst",
            "a.tst --engine",
        ] {
            assert!(parse_cli(&args(bad)).is_err(), "{bad}");
        }
        let cli = Cli {
            engine_cmd: Some("./engines/x --mode gtp".into()),
            ..parse_cli(&args("a.tst")).unwrap().unwrap()
        };
        let p = engine_profile(&cli).unwrap();
        assert!(Path::new(p.program()).is_absolute());
        assert!(p.program().ends_with("engines/x"));
        assert_eq!(p.args(), ["--mode", "gtp"]);
        assert_eq!(p.name, "x");
    }

    /// A fake GTP engine in `sh`: answers tests with `1 A1`, has
    /// `tesuji-solver_stats`, fails `loadsgf missing.sgf`, dies on `die` and
    /// hangs on `hang`.
    #[cfg(unix)]
    fn fake_engine() -> EngineProfile {
        let script = r#"
while read -r line; do
  set -- $line
  case "$1" in [0-9]*) id=$1; shift ;; *) id= ;; esac
  case "$1" in
    known_command) printf '=%s true\n\n' "$id" ;;
    tesuji-solver_stats) printf '= nodes=42 time_ms=1\n\n' ;;
    loadsgf) if [ -f "$2" ]; then printf '=%s black\n\n' "$id"; else printf '?%s cannot load file\n\n' "$id"; fi ;;
    attack|defend) printf '=%s 1 A1\n\n' "$id" ;;
    die) exit 3 ;;
    hang) exec sleep 30 ;;
    quit) printf '=%s \n\n' "$id"; exit 0 ;;
    *) printf '?%s unknown command\n\n' "$id" ;;
  esac
done
"#;
        EngineProfile {
            name: "fake".into(),
            command: vec!["sh".into(), "-c".into(), script.into()],
            workdir: None,
            gtp_init: vec![],
            description: None,
        }
    }

    #[cfg(unix)]
    fn run_text(text: &str, timeout: Duration) -> FileReport {
        let options = RunOptions {
            engine: fake_engine(),
            timeout,
            engine_stderr: false,
        };
        let items = parse(text).unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        let report = run_items(&items, dir, "t.tst", &options, &mut |_| seen += 1).unwrap();
        assert_eq!(seen, report.results.len());
        report
    }

    #[cfg(unix)]
    #[test]
    fn runs_judges_and_counts_nodes() {
        // The engine runs in the given folder: Cargo.toml is found there.
        let report = run_text(
            "loadsgf Cargo.toml\n1 attack A1\n#? [1 A1]\n2 defend A1\n#? [1 A1]*\n\
             loadsgf missing.sgf\n3 attack B2\n#? [1 A1]\n4 attack C3\n#? [1 A1]\n\
             5 frobnicate\n#? [!0]\n",
            Duration::from_secs(10),
        );
        let verdicts: Vec<Verdict> = report.results.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Pass,
                Verdict::UnexpectedPass,
                Verdict::Fail, // its setup failed
                Verdict::Pass, // only the next test is spoiled
                Verdict::Fail, // error answer
            ]
        );
        assert_eq!(report.setup_errors.len(), 1);
        assert!(report.setup_errors[0].contains("line 6"));
        let r3 = &report.results[2];
        assert!(
            r3.reason.as_deref().unwrap().contains("missing.sgf"),
            "{r3:?}"
        );
        assert_eq!(report.results[0].nodes, Some(42));
        assert_eq!(
            report.results[4].answer,
            Answer::Failure("unknown command".into())
        );
        assert!(report.engine_error.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn dead_engine_fails_the_rest() {
        let report = run_text(
            "1 attack A1\n#? [1 A1]\ndie\n2 attack A1\n#? [1 A1]\n3 attack A1\n#? [0]*\n",
            Duration::from_secs(10),
        );
        let verdicts: Vec<Verdict> = report.results.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::Pass, Verdict::Fail, Verdict::ExpectedFail]
        );
        assert!(report.engine_error.as_deref().unwrap().contains("die"));
        for r in &report.results[1..] {
            assert_eq!(r.answer, Answer::Missing);
            assert!(
                r.reason.as_deref().unwrap().contains("engine unusable"),
                "{r:?}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn hung_engine_times_out_once() {
        let start = Instant::now();
        let report = run_text(
            "1 attack A1\n#? [1 A1]\n2 hang\n3 attack A1\n4 attack A1\n",
            Duration::from_millis(300),
        );
        // One timeout, not one per remaining test, and no wait for quit.
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        let verdicts: Vec<Verdict> = report.results.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::Pass, Verdict::Fail, Verdict::Fail, Verdict::Fail]
        );
        assert!(report.engine_error.is_some());
    }
}
