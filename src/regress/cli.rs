//! The `tesuji regress` command line.

use super::*;
use crate::engines::{find_profile, load_profiles, EngineProfile};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Usage of `tesuji regress`.
pub const USAGE: &str =
    "usage: tesuji regress [--engine PROFILE [--profiles PATH] | --engine-cmd \"CMD ARGS\"] \
[--timeout SECS] [--csv] [--engine-stderr] FILE.tst...\n";

/// Well above the solver's own clock guard (30 s a command by default,
/// doubled by each of GNU Go's `increase_depths`), so that on a loaded
/// machine the engine's answer, not the runner, ends a long solve.
const DEFAULT_TIMEOUT_SECS: f64 = 300.0;

/// Parsed command line of `tesuji regress`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Cli {
    pub(super) engine: Option<String>,
    pub(super) engine_cmd: Option<String>,
    pub(super) profiles: Option<PathBuf>,
    pub(super) timeout: Duration,
    pub(super) csv: bool,
    pub(super) engine_stderr: bool,
    pub(super) files: Vec<PathBuf>,
}

/// `Ok(None)` for `--help`.
pub(super) fn parse_cli(args: &[String]) -> Result<Option<Cli>, String> {
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
pub(super) fn engine_profile(cli: &Cli) -> Result<EngineProfile, String> {
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
