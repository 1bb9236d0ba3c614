//! Running a file's items against one engine process, with a timeout on
//! every command.

use super::*;
use crate::engines::EngineProfile;
use crate::gtp_client::{ClientOptions, GtpClient, StderrMode};
use std::path::Path;
use std::time::{Duration, Instant};

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
