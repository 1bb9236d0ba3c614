//! Differential test of move legality and board state against GNU Go.
//!
//! A thousand random games are played move by move through two GTP engines
//! at once: the *candidate* (tesuji) and the *reference* (GNU Go 3.8). After
//! every `play` both must agree on accepting or rejecting it; after every
//! accepted move, and after `undo`, both must report the same stones
//! (`list_stones black` / `list_stones white`, compared as sets). Handicap
//! placement (`fixed_handicap`) is compared too.
//!
//! Random play alone rarely hits the hard cases, so the move generator
//! deliberately mixes in illegal and tricky tries: occupied points, suicide
//! points, captures, the immediate recapture after every single-stone
//! capture (a ko retake whenever the shape is a ko), a "pass, pass, retake"
//! sequence that is legal under simple ko but repeats a whole-board position
//! (a positional superko violation), passes, undo (including undo with
//! nothing to undo), `play` by the same colour twice, and invalid
//! `fixed_handicap` requests. A game ends after a set number of accepted
//! moves or at two consecutive passes; the two passes of a superko probe
//! do not end it.
//!
//! Some tries also have an answer known from the rules alone (a play on an
//! occupied point, an immediate ko retake, the pass-pass retake in each
//! mode, an invalid or late `fixed_handicap`); these are checked too, so
//! that an error shared by both engines, or a harness bug, cannot pass.
//!
//! Ko rules: half the games run with tesuji told `tesuji-ko_rule simple` and
//! GNU Go in its default simple-ko mode (profile `gnugo`), the other half with
//! `tesuji-ko_rule positional` and GNU Go with `--positional-superko`
//! (profile `gnugo-superko`). GNU Go enforces positional superko in GTP
//! `play` (checked by experiment and in its source: `play` goes through
//! `is_allowed_move`, which compares board hashes with the positions before
//! every move since the last `clear_board` or handicap placement), so every
//! decision is compared in both modes.
//!
//! One process pair serves all games of one board size and ko mode, with
//! `clear_board` between games, to keep start-up costs out of the run time.
//!
//! Environment:
//! - `TESUJI_DIFF_ENGINE=PROFILE` replaces the tesuji side by another
//!   profile of `engines.toml` for all games, and
//!   `TESUJI_DIFF_ENGINE_SUPERKO=PROFILE` for the positional-superko games
//!   only. `TESUJI_DIFF_ENGINE=gnugo TESUJI_DIFF_ENGINE_SUPERKO=gnugo-superko`
//!   runs GNU Go against itself (no mismatches expected), and
//!   `TESUJI_DIFF_ENGINE=gnugo-noko` must produce mismatches: both check the
//!   harness itself. `tesuji-ko_rule` is sent only to profiles whose name
//!   starts with `tesuji`.
//! - `TESUJI_DIFF_SEED=N` changes the random seed (decimal or `0x` hex).
//! - `TESUJI_DIFF_SCALE=X` multiplies the number of games (e.g. `10` for a
//!   longer soak run, `0.1` for a quick look).
//!
//! If GNU Go is not installed the test prints `SKIPPED` and passes, except
//! under `CI=true`, where a missing reference engine is a failure.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use tesuji::engines::{find_profile, load_profiles, EngineProfile};
use tesuji::go::{Color, Vertex};
use tesuji::gtp_client::GtpClient;

#[path = "gnugo_diff/board.rs"]
mod board;
#[path = "gnugo_diff/game.rs"]
mod game;

use board::*;
use game::*;

const DEFAULT_SEED: u64 = 0x7e50_1d1f_0000_0001;
/// How many mismatches are printed in full; the rest are only counted.
const MAX_REPORTS: usize = 8;
/// For how many moves after a ko capture the other side keeps trying to
/// retake it (a ko fight: threat, answer, retake, ...).
const KO_FIGHT_MOVES: u32 = 8;

// ---------------------------------------------------------------------------
// Test plan.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KoMode {
    Simple,
    Positional,
}

impl KoMode {
    fn tesuji_arg(self) -> &'static str {
        match self {
            KoMode::Simple => "simple",
            KoMode::Positional => "positional",
        }
    }

    fn reference_profile(self) -> &'static str {
        match self {
            KoMode::Simple => "gnugo",
            KoMode::Positional => "gnugo-superko",
        }
    }
}

/// The games one process pair plays.
#[derive(Clone, Copy, Debug)]
struct SessionSpec {
    size: usize,
    games: usize,
    /// A game stops after this many accepted moves (passes included).
    move_limit: u32,
    /// Percentage of games that start with `fixed_handicap`.
    handicap_percent: usize,
    /// Largest fixed handicap tried on this size.
    max_handicap: usize,
}

/// Per ko mode. Small boards give many captures and ko fights; 19x19 checks
/// large-board coordinates and the nine-stone handicap layouts.
const SESSIONS: [SessionSpec; 4] = [
    SessionSpec {
        size: 5,
        games: 150,
        move_limit: 40,
        handicap_percent: 0,
        max_handicap: 0,
    },
    SessionSpec {
        size: 7,
        games: 100,
        move_limit: 50,
        handicap_percent: 15,
        max_handicap: 4,
    },
    SessionSpec {
        size: 9,
        games: 150,
        move_limit: 60,
        handicap_percent: 30,
        max_handicap: 5,
    },
    SessionSpec {
        size: 19,
        games: 100,
        move_limit: 150,
        handicap_percent: 40,
        max_handicap: 9,
    },
];

// ---------------------------------------------------------------------------
// Statistics.

#[derive(Default, Debug, Clone)]
struct Stats {
    games: usize,
    handicap_games: usize,
    plays: usize,
    accepted: usize,
    illegal: usize,
    occupied_tries: usize,
    suicide_tries: usize,
    suicide_rejected: usize,
    capture_tries: usize,
    recaptures: usize,
    recaptures_rejected: usize,
    ko_retakes: usize,
    ko_retakes_rejected: usize,
    ko_fight_retakes: usize,
    ko_fight_rejected: usize,
    superko_probes: usize,
    superko_rejected: usize,
    same_colour_twice: usize,
    passes: usize,
    undos: usize,
    undos_accepted: usize,
    handicap_probes: usize,
    mismatches: usize,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.handicap_games += o.handicap_games;
        self.plays += o.plays;
        self.accepted += o.accepted;
        self.illegal += o.illegal;
        self.occupied_tries += o.occupied_tries;
        self.suicide_tries += o.suicide_tries;
        self.suicide_rejected += o.suicide_rejected;
        self.capture_tries += o.capture_tries;
        self.recaptures += o.recaptures;
        self.recaptures_rejected += o.recaptures_rejected;
        self.ko_retakes += o.ko_retakes;
        self.ko_retakes_rejected += o.ko_retakes_rejected;
        self.ko_fight_retakes += o.ko_fight_retakes;
        self.ko_fight_rejected += o.ko_fight_rejected;
        self.superko_probes += o.superko_probes;
        self.superko_rejected += o.superko_rejected;
        self.same_colour_twice += o.same_colour_twice;
        self.passes += o.passes;
        self.undos += o.undos;
        self.undos_accepted += o.undos_accepted;
        self.handicap_probes += o.handicap_probes;
        self.mismatches += o.mismatches;
    }
}

// ---------------------------------------------------------------------------
// Engines and environment.

fn profiles() -> Vec<EngineProfile> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines.toml");
    load_profiles(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Where GNU Go is: the profile's path if it exists, else `gnugo` on PATH.
fn locate_gnugo(configured: &str) -> Option<PathBuf> {
    let p = PathBuf::from(configured);
    if p.is_file() {
        return Some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
}

/// Points every GNU Go profile at the GNU Go that was found.
fn use_gnugo(profile: &EngineProfile, gnugo: &Path) -> EngineProfile {
    let mut p = profile.clone();
    if Path::new(p.program()).file_name() == Some("gnugo".as_ref()) {
        p.command[0] = gnugo.to_string_lossy().into_owned();
    }
    p
}

fn env_seed() -> u64 {
    match std::env::var("TESUJI_DIFF_SEED") {
        Ok(s) => {
            let s = s.trim();
            let parsed = match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("TESUJI_DIFF_SEED={s} is not a number"))
        }
        Err(_) => DEFAULT_SEED,
    }
}

fn env_scale() -> f64 {
    match std::env::var("TESUJI_DIFF_SCALE") {
        Ok(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| *x > 0.0)
            .unwrap_or_else(|| panic!("TESUJI_DIFF_SCALE={s} is not a positive number")),
        Err(_) => 1.0,
    }
}

/// The candidate for a ko mode: tesuji (the binary built for this test) or
/// the profile named by the environment.
fn candidate_profile(profiles: &[EngineProfile], mode: KoMode, gnugo: &Path) -> EngineProfile {
    let from_env = match mode {
        KoMode::Positional => std::env::var("TESUJI_DIFF_ENGINE_SUPERKO")
            .or_else(|_| std::env::var("TESUJI_DIFF_ENGINE")),
        KoMode::Simple => std::env::var("TESUJI_DIFF_ENGINE"),
    };
    match from_env {
        Ok(name) => use_gnugo(
            find_profile(profiles, &name).unwrap_or_else(|e| panic!("{e}")),
            gnugo,
        ),
        Err(_) => {
            let mut p = find_profile(profiles, "tesuji")
                .unwrap_or_else(|e| panic!("{e}"))
                .clone();
            p.command[0] = env!("CARGO_BIN_EXE_tesuji").to_string();
            p
        }
    }
}

struct SessionOutcome {
    stats: Stats,
    reports: Vec<String>,
}

fn run_session(
    reference: &EngineProfile,
    candidate: &EngineProfile,
    spec: SessionSpec,
    mode: KoMode,
    seed: u64,
) -> SessionOutcome {
    let start = |p: &EngineProfile| {
        GtpClient::spawn(p).unwrap_or_else(|e| panic!("cannot start engine `{}`: {e}", p.name))
    };
    let mut session = Session {
        spec,
        mode,
        reference: start(reference),
        candidate: start(candidate),
        rng: Rng::new(seed),
        seed,
        stats: Stats::default(),
        reports: Vec::new(),
        transcript: Vec::new(),
    };
    if candidate.name.starts_with("tesuji") {
        let cmd = format!("tesuji-ko_rule {}", mode.tesuji_arg());
        if let Err(e) = session.candidate.send_ok(&cmd) {
            panic!("candidate `{}` cannot set its ko rule: {e}", candidate.name);
        }
    }
    for game in 0..spec.games {
        match session.play_game(game) {
            Ok(()) => {}
            Err(Stop::Mismatch(Mismatch(desc))) => {
                session.stats.mismatches += 1;
                let mut report = format!(
                    "MISMATCH in game {game} ({0}x{0}, ko rule {1}, reference `{2}`, candidate `{3}`, seed {seed:#x}):\n  {desc}\nReplay (GTP):\n",
                    spec.size,
                    mode.tesuji_arg(),
                    reference.name,
                    candidate.name
                );
                for line in &session.transcript {
                    let _ = writeln!(report, "  {line}");
                }
                session.reports.push(report);
            }
            Err(Stop::Io(e)) => {
                let mut msg = format!(
                    "game {game} ({0}x{0}, ko rule {1}, seed {seed:#x}) stopped: {e}\nTranscript (GTP):\n",
                    spec.size,
                    mode.tesuji_arg()
                );
                for line in &session.transcript {
                    let _ = writeln!(msg, "  {line}");
                }
                panic!("{msg}");
            }
        }
    }
    let Session {
        reference,
        candidate,
        stats,
        reports,
        ..
    } = session;
    // A failing quit is not a legality mismatch; the engines are killed on
    // drop either way.
    let _ = reference.quit();
    let _ = candidate.quit();
    SessionOutcome { stats, reports }
}

fn summary(s: &Stats) -> String {
    format!(
        "{} games ({} with handicap), {} moves accepted, {} plays sent, \
         {} illegal tries rejected by both [occupied {}, suicide {}/{}, \
         ko retake {}/{}, superko probe {}/{}, ko fight {}/{}, recapture {}/{}], \
         {} capture tries, {} same-colour plays, {} passes, undo {}/{} accepted, \
         {} bad fixed_handicap tries, {} mismatches",
        s.games,
        s.handicap_games,
        s.accepted,
        s.plays,
        s.illegal,
        s.occupied_tries,
        s.suicide_rejected,
        s.suicide_tries,
        s.ko_retakes_rejected,
        s.ko_retakes,
        s.superko_rejected,
        s.superko_probes,
        s.ko_fight_rejected,
        s.ko_fight_retakes,
        s.recaptures_rejected,
        s.recaptures,
        s.capture_tries,
        s.same_colour_twice,
        s.passes,
        s.undos_accepted,
        s.undos,
        s.handicap_probes,
        s.mismatches,
    )
}

/// Writes straight to the process's stderr. The test harness captures
/// `eprintln!` of passing tests, but the summary and a skip must be seen.
fn say(msg: &str) {
    let _ = writeln!(io::stderr(), "{msg}");
}

#[test]
fn gnugo_differential() {
    let t0 = Instant::now();
    let profiles = profiles();
    let gnugo_configured = find_profile(&profiles, "gnugo")
        .unwrap_or_else(|e| panic!("{e}"))
        .program()
        .to_string();
    let Some(gnugo) = locate_gnugo(&gnugo_configured) else {
        let msg = format!(
            "gnugo not installed ({gnugo_configured} missing and no gnugo on PATH): \
             differential test against GNU Go not run; install it with `apt-get install gnugo`"
        );
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg} (CI=true: a missing reference engine is a failure)");
        }
        let rule = "=".repeat(60);
        say(&format!("\n{rule}\nSKIPPED: {msg}\n{rule}\n"));
        return;
    };
    let seed = env_seed();
    let scale = env_scale();

    // Two threads, one per ko mode: the engines are separate processes, so
    // this keeps both cores busy. Every session has its own seed, so the
    // games do not depend on thread timing.
    let per_mode: Vec<(String, Vec<SessionOutcome>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = [KoMode::Simple, KoMode::Positional]
            .into_iter()
            .map(|mode| {
                let reference = use_gnugo(
                    find_profile(&profiles, mode.reference_profile())
                        .unwrap_or_else(|e| panic!("{e}")),
                    &gnugo,
                );
                let candidate = candidate_profile(&profiles, mode, &gnugo);
                let title = format!(
                    "ko rule {}: reference {} vs candidate {}",
                    mode.tesuji_arg(),
                    reference.name,
                    candidate.name
                );
                let handle = scope.spawn(move || {
                    SESSIONS
                        .iter()
                        .enumerate()
                        .map(|(i, spec)| {
                            let spec = SessionSpec {
                                games: ((spec.games as f64 * scale).round() as usize).max(1),
                                ..*spec
                            };
                            let session_seed = seed
                                ^ ((i as u64 + 1) << 32)
                                ^ (mode as u64 + 1).wrapping_mul(0x5151_5151);
                            run_session(&reference, &candidate, spec, mode, session_seed)
                        })
                        .collect::<Vec<_>>()
                });
                (title, handle)
            })
            .collect();
        handles
            .into_iter()
            .map(|(title, h)| {
                let outcomes = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                (title, outcomes)
            })
            .collect()
    });

    let mut total = Stats::default();
    let mut reports = Vec::new();
    let mut lines = Vec::new();
    for (title, outcomes) in per_mode {
        let mut mode_stats = Stats::default();
        for o in outcomes {
            mode_stats.add(&o.stats);
            reports.extend(o.reports);
        }
        lines.push(format!("  {title}: {}", summary(&mode_stats)));
        total.add(&mode_stats);
    }
    for report in reports.iter().take(MAX_REPORTS) {
        say(report);
    }
    if reports.len() > MAX_REPORTS {
        say(&format!(
            "... and {} more mismatching games not shown",
            reports.len() - MAX_REPORTS
        ));
    }
    for line in &lines {
        say(line);
    }
    say(&format!(
        "gnugo_diff summary (seed {seed:#x}, {:.1}s): {} games, {} moves, {} illegal tries, {} mismatches",
        t0.elapsed().as_secs_f64(),
        total.games,
        total.accepted,
        total.illegal,
        total.mismatches
    ));
    assert_eq!(
        total.mismatches, 0,
        "{} of {} games had mismatches (see the replays above)",
        total.mismatches, total.games
    );
}

#[test]
fn vertex_parsing() {
    let set = parse_vertices("A1 t19 J9 ", 19).unwrap();
    assert_eq!(set, BTreeSet::from([(0, 0), (18, 18), (8, 8)]));
    assert!(parse_vertices("", 5).unwrap().is_empty());
    assert!(parse_vertices("F1", 5).is_err());
    assert!(parse_vertices("A6", 5).is_err());
    assert!(parse_vertices("A0", 5).is_err());
    assert!(parse_vertices("I3", 9).is_err());
    assert!(parse_vertices("A1 a1", 5).is_err());
    assert!(parse_vertices("pass", 5).is_err());
}

#[test]
fn board_helpers_find_suicide_and_capture_points() {
    // 5x5, a ko shape: black A3 B4 B2 C3, white C4 D3 C2 B3 would be the
    // position before black's capture; here white B3 is already captured.
    let black: BTreeSet<Point> = [(0, 2), (1, 3), (1, 1), (2, 2)].into();
    let white: BTreeSet<Point> = [(2, 3), (3, 2), (2, 1)].into();
    let pos = Position::from_stones(5, &black, &white);
    // B3 is surrounded by black: suicide for white unless it captures C3,
    // which it does (C3 is in atari there).
    assert!(pos.suicide_candidates(Color::White).contains(&(1, 2)));
    assert!(pos.capturing_moves(Color::White).contains(&(1, 2)));
    assert_eq!(pos.liberties((2, 2)), BTreeSet::from([(1, 2)]));
    // A1 is empty with empty neighbours: no suicide there.
    assert!(!pos.suicide_candidates(Color::White).contains(&(0, 0)));
}

#[test]
fn rng_is_deterministic() {
    let mut a = Rng::new(42);
    let mut b = Rng::new(42);
    let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
    let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
    assert_eq!(xs, ys);
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
}
