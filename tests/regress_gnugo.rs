//! `tesuji regress` on the shared GNU Go regression files, with GNU Go and
//! with tesuji as the engine.
//!
//! The files (`capture.tst`, `tactics.tst`, 31 tests) are GPL data from GNU
//! Go's regression suite and stay outside the repository, in
//! `../shared/regression`; without them these tests print `SKIPPED` and
//! pass.
//!
//! GNU Go 3.8 is the yardstick for the runner itself: its results on these
//! files are known (it passes 20 of the 31, and fails exactly the 11 tests
//! marked `*`), so any other outcome is a bug in the parser, the judge or the
//! runner. Without GNU Go that test prints `SKIPPED` and passes, except under
//! `CI=true`, where it fails.
//!
//! With tesuji as the engine only the runner's coping is checked (all 31
//! tests run and are reported, with node counts from `tesuji-solver_stats`);
//! tesuji's solver runs with small limits here to keep the test quick, and
//! its suite results are measured with `tesuji regress` itself.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use tesuji::engines::EngineProfile;
use tesuji::regress::{
    format_header, format_row, run_file, FileReport, RunOptions, Totals, Verdict,
};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/regression");
const FILES: [&str; 2] = ["capture.tst", "tactics.tst"];
const BIN: &str = env!("CARGO_BIN_EXE_tesuji");

/// The tests GNU Go 3.8 fails, per file: exactly those marked `*`. (In
/// `tactics.tst` test 9 it answers `? vertex must not be empty`: the loaded
/// position has no stone on P4.)
const GNUGO_FAILS: [(&str, &[u64]); 2] = [
    ("capture.tst", &[4, 5, 8, 10, 13]),
    ("tactics.tst", &[6, 7, 9, 10, 11, 13]),
];

/// Writes to the real stderr, past the test harness's capture, so that the
/// tables show up in `cargo test` output.
fn say(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

fn skip(msg: &str) {
    let rule = "=".repeat(60);
    say(&format!("\n{rule}\nSKIPPED: {msg}\n{rule}\n"));
}

/// The shared files, or `None` (after saying so loudly) when absent.
fn shared_files() -> Option<Vec<PathBuf>> {
    let paths: Vec<PathBuf> = FILES.iter().map(|f| Path::new(SHARED).join(f)).collect();
    if let Some(missing) = paths.iter().find(|p| !p.is_file()) {
        skip(&format!(
            "regression data {} not found: the GNU Go regression files are not in the \
             repository and must be beside it in ../shared/regression",
            missing.display()
        ));
        return None;
    }
    Some(paths)
}

fn locate_gnugo() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/gnugo");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
}

/// Solver limits that keep a run over the 31 problems to a few seconds.
const FAST_LIMITS: &str = "tesuji-solver_limits nodes=20000 time=0.2";

fn profile(name: &str, command: &[&str]) -> EngineProfile {
    EngineProfile {
        name: name.into(),
        command: command.iter().map(|s| s.to_string()).collect(),
        workdir: None,
        gtp_init: vec![],
        description: None,
    }
}

/// Runs both files with `engine` and prints the table and totals.
fn run_both(engine: EngineProfile, paths: &[PathBuf]) -> Vec<FileReport> {
    let options = RunOptions {
        engine,
        timeout: Duration::from_secs(60),
        engine_stderr: false,
    };
    let key_width = FILES.iter().map(|f| f.len() + 5).max().unwrap();
    let mut table = format!("{}\n", format_header(key_width));
    let mut totals = Totals::default();
    let reports: Vec<FileReport> = paths
        .iter()
        .zip(FILES)
        .map(|(path, label)| {
            let report = run_file(path, label, &options, &mut |_| {})
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            for r in &report.results {
                table.push_str(&format_row(r, key_width));
                table.push('\n');
            }
            totals.add_report(&report);
            report
        })
        .collect();
    say(&format!(
        "\nregress with `{}`:\n{table}{}",
        options.engine.name,
        totals.summary()
    ));
    reports
}

#[test]
fn gnugo_gives_its_known_results() {
    let Some(paths) = shared_files() else { return };
    let Some(gnugo) = locate_gnugo() else {
        let msg = "gnugo not installed (apt-get install gnugo): regression runner not checked";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg} (CI=true: a missing reference engine is a failure)");
        }
        skip(msg);
        return;
    };
    let gnugo = gnugo.to_string_lossy().into_owned();
    let reports = run_both(profile("gnugo", &[&gnugo, "--mode", "gtp"]), &paths);

    let mut totals = Totals::default();
    for (report, (file, fails)) in reports.iter().zip(GNUGO_FAILS) {
        assert_eq!(report.file, file);
        assert!(report.setup_errors.is_empty(), "{:?}", report.setup_errors);
        assert_eq!(report.engine_error, None);
        let ids: Vec<u64> = report.results.iter().map(|r| r.id).collect();
        let count = if file == "capture.tst" { 18 } else { 13 };
        assert_eq!(ids, (1..=count).collect::<Vec<u64>>(), "{file}");
        for r in &report.results {
            let expected = if fails.contains(&r.id) {
                Verdict::ExpectedFail
            } else {
                Verdict::Pass
            };
            assert_eq!(
                r.verdict, expected,
                "{file}:{} answered {:?}",
                r.id, r.answer
            );
            assert_eq!(r.nodes, None, "GNU Go has no tesuji-solver_stats");
        }
        totals.add_report(report);
    }
    assert_eq!(
        (totals.tests, totals.passed, totals.failed),
        (31, 20, 11),
        "GNU Go 3.8 passes 20 of the 31 tests"
    );
    assert_eq!((totals.unexpected_passes, totals.unexpected_fails), (0, 0));

    // The command line gives the same verdicts, as CSV too.
    let out = Command::new(BIN)
        .current_dir(SHARED)
        .args(["regress", "--csv", "--engine-cmd"])
        .arg(format!("{gnugo} --mode gtp"))
        .args(FILES)
        .output()
        .expect("run tesuji regress");
    assert!(out.status.success(), "{out:?}");
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 31, "{csv}");
    let passes = rows.iter().filter(|r| r.contains(",PASS,")).count();
    let expected_fails = rows
        .iter()
        .filter(|r| r.contains(",fail (expected),"))
        .count();
    assert_eq!((passes, expected_fails), (20, 11), "{csv}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("tests 31  passed 20  failed 11"),
        "{stderr}"
    );
}

#[test]
fn tesuji_itself_runs_all_tests() {
    let Some(paths) = shared_files() else { return };
    let mut fast = profile("tesuji", &[BIN, "gtp"]);
    fast.gtp_init = vec![FAST_LIMITS.into()];
    let reports = run_both(fast, &paths);
    let mut totals = Totals::default();
    for report in &reports {
        assert_eq!(report.engine_error, None, "{}", report.file);
        totals.add_report(report);
    }
    assert_eq!(totals.tests, 31);

    // The command line takes a profile from a file; failed tests do not make
    // the exit status non-zero.
    let dir = std::env::temp_dir().join(format!("tesuji-regress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profiles = dir.join("engines.toml");
    std::fs::write(
        &profiles,
        format!("[engines.fast]\ncommand = [{BIN:?}, \"gtp\"]\ngtp_init = [{FAST_LIMITS:?}]\n"),
    )
    .unwrap();
    let out = Command::new(BIN)
        .current_dir(SHARED)
        .args(["regress", "--engine", "fast", "--profiles"])
        .arg(&profiles)
        .args(FILES)
        .output()
        .expect("run tesuji regress");
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8(out.stdout).unwrap();
    let rows = table
        .lines()
        .filter(|l| l.starts_with("capture.tst:") || l.starts_with("tactics.tst:"))
        .count();
    assert_eq!(rows, 31, "{table}");
    assert!(table.contains("\ntests 31  "), "{table}");
}

#[test]
fn command_line_errors_exit_with_status_2() {
    for args in [&["regress"][..], &["regress", "--bogus", "a.tst"]] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("usage: tesuji regress"), "{stderr}");
    }
    let out = Command::new(BIN)
        .args(["regress", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("usage: tesuji regress"));

    // A missing file is reported, the other files still run (with GNU Go,
    // which answers at once, when it is installed).
    let Some(_) = shared_files() else { return };
    let mut cmd = Command::new(BIN);
    cmd.current_dir(SHARED).arg("regress");
    if let Some(gnugo) = locate_gnugo() {
        cmd.arg("--engine-cmd")
            .arg(format!("{} --mode gtp", gnugo.display()));
    }
    let out = cmd
        .args(["no-such-file.tst", "capture.tst"])
        .output()
        .expect("run tesuji regress");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("no-such-file.tst"), "{stderr}");
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("\ntests 18  "), "{table}");
}
