//! Totals and the table (text or CSV) `tesuji regress` prints.

use super::*;
use std::fmt::Write as _;
use std::time::Duration;

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
