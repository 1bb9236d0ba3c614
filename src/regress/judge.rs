//! Judging one answer against its `#?` expectation, as gogui-regress does,
//! and reading the solver statistics an engine reports after it.

use super::*;
use std::time::Duration;

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
