//! Unit tests of `tesuji regress`: parsing, judging, reporting and the
//! command line (running against real engines is in tests/regress_gnugo.rs).

use super::cli::{engine_profile, parse_cli, Cli};
use super::tst::parse_expectation;
use super::*;
use crate::engines::EngineProfile;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
