//! `tesuji match` end to end, on 5×5 boards so that it stays fast:
//! tesuji against its random player under a real clock, misbehaving fake
//! engines (tests/fake_engines/fake_gtp.sh) that must lose with their reason
//! recorded while the match goes on, and the files a match writes (SGF read
//! back by tesuji's own parser and replayed under its rules, the `.dat`
//! table).

use std::path::{Path, PathBuf};
use std::time::Duration;
use tesuji::engines::EngineProfile;
use tesuji::games::spec::GameSpec;
use tesuji::go::{Color, Game, KoRule};
use tesuji::gtp_client::StderrMode;
use tesuji::tournament::clock::TimeControl;
use tesuji::tournament::game::{Ending, GameSettings};
use tesuji::tournament::runner::{self, MatchConfig, MatchSummary};

fn tesuji(name: &str, init: &[&str]) -> EngineProfile {
    EngineProfile {
        name: name.into(),
        command: vec![env!("CARGO_BIN_EXE_tesuji").into()],
        workdir: None,
        gtp_init: init.iter().map(|s| s.to_string()).collect(),
        description: None,
    }
}

fn random() -> EngineProfile {
    tesuji("random", &["tesuji-player random 7"])
}

fn fake(mode: &str) -> EngineProfile {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_gtp.sh");
    EngineProfile {
        name: format!("fake-{mode}"),
        command: vec![
            "/bin/sh".into(),
            script.to_string_lossy().into(),
            mode.into(),
        ],
        workdir: None,
        gtp_init: vec![],
        description: None,
    }
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn config(black: EngineProfile, white: EngineProfile, games: usize, name: &str) -> MatchConfig {
    MatchConfig {
        profiles: [black, white],
        referee: None,
        games,
        jobs: 2,
        settings: GameSettings {
            spec: GameSpec::Go {
                size: 5,
                komi_x2: 1,
            },
            ko: KoRule::PositionalSuperko,
            clock: Some(TimeControl {
                main: Duration::from_secs(3),
                byo_time: Duration::ZERO,
                stones: 0,
                grace: Duration::from_millis(500),
            }),
            move_timeout: Duration::from_secs(10),
            max_moves: 400,
        },
        out: out_dir(name),
        stderr: StderrMode::Null,
        command_timeout: Duration::from_secs(10),
    }
}

/// Every SGF file parses with tesuji's parser, its moves replay legally,
/// and the table has one row per game with the game's length.
fn check_files(c: &MatchConfig, s: &MatchSummary) {
    let dat = std::fs::read_to_string(c.out.join("match.dat")).unwrap();
    let rows: Vec<&str> = dat.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), s.games.len(), "{dat}");
    assert!(dat.contains(
        "#GAME\tRES_B\tRES_W\tRES_R\tALT\tDUP\tLEN\tTIME_B\tTIME_W\tCPU_B\tCPU_W\tERR\tERR_MSG\n"
    ));
    for (g, row) in s.games.iter().zip(&rows) {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 13, "{row}");
        assert_eq!(cols[0], g.index.to_string());
        assert_eq!(cols[6], g.moves.len().to_string());
        let text = std::fs::read(c.out.join(format!("match-{}.sgf", g.index))).unwrap();
        let sgf = tesuji::sgf::parse(&text).expect("our SGF parses");
        assert_eq!(sgf.size, 5);
        assert_eq!(sgf.komi, Some(0.5));
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains(&format!("RE[{}]", g.result)), "{text}");
        assert!(text.contains(&format!("PB[{}]", g.names[0])));
        let mut game = Game::new(5);
        let moves: Vec<_> = sgf.moves().collect();
        assert_eq!(moves.len(), g.moves.len());
        for (k, (color, mv)) in moves.into_iter().enumerate() {
            assert_eq!(color, g.moves[k].0);
            assert_eq!(mv.to_string(), g.moves[k].1);
            game.play(color, mv).expect("recorded moves are legal");
        }
    }
}

#[test]
fn tesuji_beats_random_under_a_clock() {
    let c = config(tesuji("tesuji", &[]), random(), 4, "random");
    let s = runner::run(&c).unwrap();
    assert_eq!(s.games.len(), 4);
    for g in &s.games {
        assert!(
            matches!(g.ending, Ending::Scored | Ending::Resigned(_)),
            "{g:?}"
        );
        assert!(g.time.iter().all(|&t| t < 3.5), "{:?}", g.time);
    }
    assert_eq!(s.first.wins, 4, "{:?}", s.games);
    assert!(s.games[1].alternated && !s.games[0].alternated);
    check_files(&c, &s);
    let report = runner::report(&c, &s);
    assert!(report.contains("+inf"), "{report}");
}

/// Each fake loses both its games (one per colour) with the expected
/// reason: the second game needs a freshly started engine.
#[test]
fn misbehaving_engines_lose_and_the_match_goes_on() {
    let cases = [
        ("illegal", "illegal move A1"),
        ("garbage", "non-GTP output"),
        ("crash", "closed its output"),
        ("error", "genmove failed: cannot generate"),
        ("refuse", "refused the legal move"),
        ("slow", "lost on time"),
    ];
    for (mode, reason) in cases {
        let mut c = config(fake(mode), random(), 2, mode);
        if mode == "slow" {
            c.settings.clock.as_mut().unwrap().main = Duration::from_secs(1);
        }
        let s = runner::run(&c).unwrap();
        assert_eq!(s.games.len(), 2, "{mode}");
        for g in &s.games {
            let fake_color = if g.alternated {
                Color::White
            } else {
                Color::Black
            };
            let expected = if mode == "slow" {
                Ending::Time(fake_color)
            } else {
                Ending::Forfeit(fake_color)
            };
            assert_eq!(g.ending, expected, "{mode}: {g:?}");
            assert!(g.note.contains(reason), "{mode}: {}", g.note);
            assert!(g.note.contains("fake"), "{mode}: {}", g.note);
            let how = if mode == "slow" { 'T' } else { 'F' };
            assert_eq!(g.result, format!("{}+{how}", fake_color.opp().letter()));
        }
        assert_eq!(s.first.losses, 2, "{mode}");
        if mode == "slow" {
            assert_eq!(s.time_losses, [2, 0]);
        } else {
            assert_eq!(s.forfeits, [2, 0]);
        }
        check_files(&c, &s);
        let dat = std::fs::read_to_string(c.out.join("match.dat")).unwrap();
        // By profile: the fake (--black) lost both, whatever its colour.
        for row in dat.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = row.split('\t').collect();
            assert!(cols[3].starts_with("W+"), "{mode}: {row}");
            assert_eq!(cols[11], if mode == "slow" { "0" } else { "1" });
            assert!(cols[12].contains(reason), "{row}");
        }
    }
}

/// A referee names the dead stones; the CLI writes the files and reports.
#[test]
fn command_line_match_with_a_referee() {
    let dir = out_dir("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let engines = dir.join("engines.toml");
    let bin = env!("CARGO_BIN_EXE_tesuji");
    std::fs::write(
        &engines,
        format!(
            "[engines.d1]\ncommand = [\"{bin}\"]\ngtp_init = [\"tesuji-player search 1\"]\n\
             [engines.rnd]\ncommand = [\"{bin}\", \"--player\", \"random\", \"--seed\", \"3\"]\n\
             [engines.ref]\ncommand = [\"{bin}\"]\n"
        ),
    )
    .unwrap();
    let out = std::process::Command::new(bin)
        .args(["match", "--black", "d1", "--white", "rnd", "--games", "2"])
        .args([
            "--size",
            "5",
            "--komi",
            "0.5",
            "--time",
            "5",
            "--byoyomi",
            "2:3",
        ])
        .args(["--referee", "ref", "--jobs", "1", "--engines"])
        .arg(&engines)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let words = |l: &str| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    assert!(stdout.lines().any(|l| words(l) == "d1 2 wins"), "{stdout}");
    assert!(
        stdout.contains("Elo d1 - rnd: +inf (95% interval"),
        "{stdout}"
    );
    assert!(stderr.contains("game 2/2"), "{stderr}");
    // The report again, from the table.
    let again = std::process::Command::new(bin)
        .args(["match", "--analyze"])
        .arg(dir.join("out/match.dat"))
        .output()
        .unwrap();
    let again = String::from_utf8_lossy(&again.stdout);
    let elo = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Elo"))
            .map(str::to_string)
    };
    assert!(elo(&again).is_some(), "{again}");
    assert_eq!(elo(&again), elo(&stdout), "{again}");
    let dat = std::fs::read_to_string(dir.join("out/match.dat")).unwrap();
    assert!(dat.contains("# Referee: ref\n"), "{dat}");
    assert!(dat.contains("# TimeSettings: 5 2 3\n"), "{dat}");
    let sgf = std::fs::read_to_string(dir.join("out/match-1.sgf")).unwrap();
    assert!(sgf.contains("PB[rnd]PW[d1]"), "{sgf}");
    assert!(sgf.contains("OT[3/2 Canadian]"), "{sgf}");
}

/// Games other than Go: the engines are told the game with `tesuji-game`
/// and the runner's own rules end it; no komi, no scoring.
#[test]
fn nogo_match() {
    let mut c = config(
        tesuji("d1", &["tesuji-player search 1"]),
        random(),
        2,
        "nogo",
    );
    c.settings.spec = GameSpec::NoGo { rows: 4, cols: 4 };
    let s = runner::run(&c).unwrap();
    assert_eq!(s.games.len(), 2);
    for g in &s.games {
        assert_eq!(g.ending, Ending::Scored, "{g:?}");
        assert!(g.result == "B+" || g.result == "W+", "{}", g.result);
        // NoGo: the player with no legal move loses, so the last mover won.
        let last = g.moves.last().unwrap().0;
        assert_eq!(g.result, format!("{}+", last.letter()));
    }
    let sgf = std::fs::read_to_string(c.out.join("match-0.sgf")).unwrap();
    assert!(
        sgf.contains("GN[nogo:4x4]") && sgf.contains("SZ[4]"),
        "{sgf}"
    );
    assert!(tesuji::sgf::parse(sgf.as_bytes()).is_ok());
}
