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

const DEFAULT_SEED: u64 = 0x7e50_1d1f_0000_0001;
/// How many mismatches are printed in full; the rest are only counted.
const MAX_REPORTS: usize = 8;
/// For how many moves after a ko capture the other side keeps trying to
/// retake it (a ko fight: threat, answer, retake, ...).
const KO_FIGHT_MOVES: u32 = 8;

// ---------------------------------------------------------------------------
// Random numbers: xorshift64, seeded through splitmix64 so that nearby seeds
// (one per session) give unrelated streams. No external crate: the sequence
// must stay fixed forever so that a reported failure replays identically.

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(z | 1) // xorshift must not start at zero
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `0..n`; `n` must be positive.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())])
        }
    }
}

// ---------------------------------------------------------------------------
// The harness's own view of the board. It is rebuilt from the reference's
// `list_stones` answers after every move, so the harness needs no Go rules of
// its own beyond finding strings and liberties to aim its tricky tries.

type Point = (u8, u8); // (column, row), both from 0; row 0 is GTP row 1

fn vertex_name(p: Point) -> String {
    Vertex::new(p.0, p.1).to_string()
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    size: usize,
    cells: Vec<Option<Color>>,
}

impl Position {
    fn empty(size: usize) -> Position {
        Position {
            size,
            cells: vec![None; size * size],
        }
    }

    fn from_stones(size: usize, black: &BTreeSet<Point>, white: &BTreeSet<Point>) -> Position {
        let mut pos = Position::empty(size);
        for &p in black {
            pos.set(p, Some(Color::Black));
        }
        for &p in white {
            pos.set(p, Some(Color::White));
        }
        pos
    }

    fn idx(&self, p: Point) -> usize {
        p.1 as usize * self.size + p.0 as usize
    }

    fn get(&self, p: Point) -> Option<Color> {
        self.cells[self.idx(p)]
    }

    fn set(&mut self, p: Point, c: Option<Color>) {
        let i = self.idx(p);
        self.cells[i] = c;
    }

    fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size as u8;
        (0..n).flat_map(move |row| (0..n).map(move |col| (col, row)))
    }

    fn neighbours(&self, p: Point) -> Vec<Point> {
        let n = self.size as i32;
        let (c, r) = (p.0 as i32, p.1 as i32);
        [(c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)]
            .into_iter()
            .filter(|&(c, r)| c >= 0 && r >= 0 && c < n && r < n)
            .map(|(c, r)| (c as u8, r as u8))
            .collect()
    }

    fn stones(&self, c: Color) -> BTreeSet<Point> {
        self.points().filter(|&p| self.get(p) == Some(c)).collect()
    }

    fn has_stones_of(&self, c: Color) -> bool {
        self.cells.contains(&Some(c))
    }

    fn has_stones(&self) -> bool {
        self.cells.iter().any(|c| c.is_some())
    }

    /// The liberties of the string through the stone at `p`.
    fn liberties(&self, p: Point) -> BTreeSet<Point> {
        let colour = self.get(p);
        let mut seen = BTreeSet::from([p]);
        let mut stack = vec![p];
        let mut libs = BTreeSet::new();
        while let Some(q) = stack.pop() {
            for n in self.neighbours(q) {
                match self.get(n) {
                    None => {
                        libs.insert(n);
                    }
                    c if c == colour && seen.insert(n) => stack.push(n),
                    _ => {}
                }
            }
        }
        libs
    }

    fn empty_points(&self) -> Vec<Point> {
        self.points().filter(|&p| self.get(p).is_none()).collect()
    }

    fn occupied_points(&self) -> Vec<Point> {
        self.points().filter(|&p| self.get(p).is_some()).collect()
    }

    /// Empty points where a stone of `c` would have no liberty of its own:
    /// every neighbour is an opponent stone or a friendly string whose last
    /// liberty is this point. Playing there is suicide unless it captures.
    fn suicide_candidates(&self, c: Color) -> Vec<Point> {
        self.empty_points()
            .into_iter()
            .filter(|&p| {
                self.neighbours(p).into_iter().all(|n| match self.get(n) {
                    None => false,
                    Some(o) if o == c => self.liberties(n) == BTreeSet::from([p]),
                    Some(_) => true,
                })
            })
            .collect()
    }

    /// Empty points where `c` would capture something.
    fn capturing_moves(&self, c: Color) -> Vec<Point> {
        let mut moves = BTreeSet::new();
        for p in self.stones(c.opp()) {
            let libs = self.liberties(p);
            if libs.len() == 1 {
                moves.extend(libs);
            }
        }
        moves.into_iter().collect()
    }
}

/// Parses a `list_stones` or `fixed_handicap` answer: vertices separated by
/// white space, in any order and letter case.
fn parse_vertices(body: &str, size: usize) -> Result<BTreeSet<Point>, String> {
    let mut set = BTreeSet::new();
    for word in body.split_whitespace() {
        let bad = || format!("`{word}` is not a vertex on a {size}x{size} board");
        let mut chars = word.chars();
        let col = chars
            .next()
            .and_then(Vertex::col_from_letter)
            .ok_or_else(bad)?;
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        if col as usize >= size || row == 0 || row > size {
            return Err(bad());
        }
        if !set.insert((col, (row - 1) as u8)) {
            return Err(format!("vertex `{word}` listed twice"));
        }
    }
    Ok(set)
}

fn format_set(set: &BTreeSet<Point>) -> String {
    let names: Vec<String> = set.iter().map(|&p| vertex_name(p)).collect();
    format!("{{{}}}", names.join(" "))
}

fn format_answer(a: &Result<String, String>) -> String {
    match a {
        Ok(body) => format!("`= {body}`"),
        Err(msg) => format!("`? {msg}`"),
    }
}

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
// One game.

/// Why a `play` is tried: for statistics, and to know which tries are part of
/// a scripted sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Random,
    AnyVertex,
    Occupied,
    Suicide,
    Capture,
    SameColour,
    /// Immediate recapture of a single stone that was not taken in a ko
    /// shape (usually suicide).
    Recapture,
    /// Immediate retake of a ko: illegal under every ko rule.
    KoRetake,
    /// Retake of a ko some moves later, after other moves (threats).
    KoFight,
    /// Retake of a ko after pass, pass: legal under simple ko, a positional
    /// superko violation.
    SuperkoRetake,
    Pass,
    /// A pass that belongs to a superko probe: does not end the game.
    ScriptedPass,
}

#[derive(Clone, Copy, Debug)]
enum Action {
    Play {
        colour: Color,
        point: Option<Point>, // None: pass
        kind: Kind,
    },
    Undo,
    /// `fixed_handicap` on a board with stones: must fail.
    LateHandicap(usize),
}

impl Kind {
    fn label(self) -> Option<&'static str> {
        match self {
            Kind::Occupied => Some("occupied point"),
            Kind::Suicide => Some("suicide unless it captures"),
            Kind::Recapture => Some("recapture"),
            Kind::KoRetake => Some("immediate ko retake"),
            Kind::KoFight => Some("ko retake after other moves"),
            Kind::SuperkoRetake => Some("ko retake after pass, pass"),
            Kind::SameColour => Some("same colour again"),
            Kind::ScriptedPass => Some("superko probe"),
            _ => None,
        }
    }
}

/// A single-stone capture the opponent may try to take back.
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// Whose turn it is to recapture.
    who: Color,
    /// Where the captured stone stood.
    point: Point,
    /// The capturing stone is alone with this point as its only liberty:
    /// a ko, where the immediate retake is illegal.
    real_ko: bool,
}

/// Everything `undo` must restore.
#[derive(Clone, Debug)]
struct State {
    pos: Position,
    to_move: Color,
    /// Set right after a move that captured exactly one stone.
    ko_probe: Option<Probe>,
    /// A ko seen recently: who may retake it, where, and for how many more
    /// moves to keep trying. This makes ko fights with threats in between.
    ko_fight: Option<(Color, Point, u32)>,
    /// Consecutive unscripted passes.
    passes: u32,
    accepted: u32,
}

/// The game could not go on: the engines disagree.
struct Mismatch(String);

/// Failures that end a game.
enum Stop {
    Mismatch(Mismatch),
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

struct Session {
    spec: SessionSpec,
    mode: KoMode,
    reference: GtpClient,
    candidate: GtpClient,
    rng: Rng,
    seed: u64,
    stats: Stats,
    reports: Vec<String>,
    transcript: Vec<String>,
}

impl Session {
    /// Sends `cmd` to both engines and records it in the transcript.
    fn both(&mut self, cmd: &str) -> io::Result<(Result<String, String>, Result<String, String>)> {
        self.transcript.push(cmd.to_string());
        let r = self.reference.send(cmd)?;
        let c = self.candidate.send(cmd)?;
        Ok((r, c))
    }

    /// A command both engines must accept (setup commands).
    fn both_ok(&mut self, cmd: &str) -> Result<(), Stop> {
        let (r, c) = self.both(cmd)?;
        if let Err(msg) = r {
            return Err(Stop::Io(io::Error::other(format!(
                "reference `{}` failed `{cmd}`: {msg}",
                self.reference.name()
            ))));
        }
        if c.is_err() {
            return Err(self.mismatch(cmd, &r, &c));
        }
        Ok(())
    }

    fn annotate(&mut self, note: &str) {
        if let Some(last) = self.transcript.last_mut() {
            let _ = write!(last, "  # {note}");
        }
    }

    fn mismatch(
        &mut self,
        cmd: &str,
        r: &Result<String, String>,
        c: &Result<String, String>,
    ) -> Stop {
        let answers = format!(
            "reference `{}` answered {}, candidate `{}` answered {}",
            self.reference.name(),
            format_answer(r),
            self.candidate.name(),
            format_answer(c)
        );
        self.annotate(&format!("MISMATCH: {answers}"));
        Stop::Mismatch(Mismatch(format!("`{cmd}`: {answers}")))
    }

    /// Both engines' stones, which must agree; returns the position.
    fn compare_stones(&mut self) -> Result<Position, Stop> {
        let size = self.spec.size;
        let mut sets = Vec::new();
        for colour in [Color::Black, Color::White] {
            let cmd = format!("list_stones {}", colour.name());
            let r = self.reference.send_ok(&cmd)?;
            let c = self.candidate.send(&cmd)?;
            let rs = parse_vertices(&r, size).map_err(|e| {
                Stop::Io(io::Error::other(format!(
                    "reference answer to `{cmd}`: {e}"
                )))
            })?;
            let cs = match &c {
                Ok(body) => parse_vertices(body, size),
                Err(msg) => Err(format!("failed: {msg}")),
            };
            match cs {
                Ok(cs) if cs == rs => {}
                Ok(cs) => {
                    let desc = format!(
                        "`{cmd}`: reference `{}` has {}, candidate `{}` has {}; only reference: {}, only candidate: {}",
                        self.reference.name(),
                        format_set(&rs),
                        self.candidate.name(),
                        format_set(&cs),
                        format_set(&rs.difference(&cs).copied().collect()),
                        format_set(&cs.difference(&rs).copied().collect()),
                    );
                    self.transcript.push(format!("{cmd}  # MISMATCH: {desc}"));
                    return Err(Stop::Mismatch(Mismatch(desc)));
                }
                Err(e) => {
                    let desc = format!(
                        "`{cmd}`: candidate `{}` gave a bad answer ({e}); reference has {}",
                        self.candidate.name(),
                        format_set(&rs)
                    );
                    self.transcript.push(format!("{cmd}  # MISMATCH: {desc}"));
                    return Err(Stop::Mismatch(Mismatch(desc)));
                }
            }
            sets.push(rs);
        }
        Ok(Position::from_stones(size, &sets[0], &sets[1]))
    }

    fn play_game(&mut self, game: usize) -> Result<(), Stop> {
        let size = self.spec.size;
        self.transcript.clear();
        self.transcript.push(format!(
            "# game {game}: {size}x{size}, ko rule {}, seed {:#x}",
            self.mode.tesuji_arg(),
            self.seed
        ));
        self.transcript
            .push(format!("tesuji-ko_rule {}", self.mode.tesuji_arg()));
        self.both_ok(&format!("boardsize {size}"))?;
        self.both_ok("clear_board")?;
        self.stats.games += 1;

        let mut state = State {
            pos: Position::empty(size),
            to_move: Color::Black,
            ko_probe: None,
            ko_fight: None,
            passes: 0,
            accepted: 0,
        };

        // An invalid handicap (fewer than 2 or more than 9 stones, or any
        // on a board smaller than 7x7) must be refused.
        if self.rng.percent(6) {
            let n = if size < 7 {
                2 + self.rng.below(3)
            } else if self.rng.percent(50) {
                1
            } else {
                10
            };
            self.handicap_must_fail(n, "invalid number of stones")?;
        }

        if self.spec.max_handicap >= 2
            && !state.pos.has_stones()
            && self.rng.percent(self.spec.handicap_percent)
        {
            let n = 2 + self.rng.below(self.spec.max_handicap - 1);
            let cmd = format!("fixed_handicap {n}");
            let (r, c) = self.both(&cmd)?;
            let body = match &r {
                Ok(body) => body.clone(),
                Err(msg) => {
                    return Err(Stop::Io(io::Error::other(format!(
                        "reference failed `{cmd}`: {msg}"
                    ))))
                }
            };
            let rs = parse_vertices(&body, size).map_err(io::Error::other)?;
            let cs = c
                .as_ref()
                .map_err(|e| e.clone())
                .and_then(|b| parse_vertices(b, size));
            if cs.as_ref() != Ok(&rs) {
                return Err(self.mismatch(&cmd, &r, &c));
            }
            state.pos = self.compare_stones()?;
            if state.pos.stones(Color::Black) != rs || state.pos.has_stones_of(Color::White) {
                return Err(Stop::Io(io::Error::other(format!(
                    "reference answered `{cmd}` with {} but lists other stones",
                    format_set(&rs)
                ))));
            }
            state.to_move = Color::White;
            self.stats.handicap_games += 1;
        }

        let mut history: Vec<State> = Vec::new();
        let mut script: VecDeque<Action> = VecDeque::new();
        let mut rejected_in_row = 0;
        let max_actions = self.spec.move_limit as usize * 12;
        for _ in 0..max_actions {
            if script.is_empty() && (state.accepted >= self.spec.move_limit || state.passes >= 2) {
                break;
            }
            // What `undo` must bring back, taken before `choose` consumes the
            // pending ko probe: after undoing the move that followed a ko
            // capture the retake is tried (and must fail) again.
            let before = state.clone();
            let action = match script.pop_front() {
                Some(a) => a,
                None => self.choose(&mut state, &history, &mut script, rejected_in_row),
            };
            match action {
                Action::Play {
                    colour,
                    point,
                    kind,
                } => {
                    let accepted = self.play(&mut state, colour, point, kind)?;
                    if accepted {
                        history.push(before);
                    }
                    rejected_in_row = if accepted { 0 } else { rejected_in_row + 1 };
                }
                Action::Undo => self.undo(&mut state, &mut history)?,
                Action::LateHandicap(n) => self.handicap_must_fail(n, "board not empty")?,
            }
        }
        Ok(())
    }

    /// Sends a `fixed_handicap` that GTP says must fail; if either engine
    /// accepts it, the game's boards can no longer be trusted.
    fn handicap_must_fail(&mut self, n: usize, why: &str) -> Result<(), Stop> {
        self.stats.handicap_probes += 1;
        let cmd = format!("fixed_handicap {n}");
        let (r, c) = self.both(&cmd)?;
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch(&cmd, &r, &c));
        }
        if r.is_ok() {
            let desc = format!("both engines accepted `{cmd}`, which must fail ({why})");
            self.annotate(&format!("RULE VIOLATION: {desc}"));
            return Err(Stop::Mismatch(Mismatch(desc)));
        }
        self.annotate(&format!("rejected: {why}"));
        Ok(())
    }

    /// Picks the next try for an unscripted turn.
    fn choose(
        &mut self,
        state: &mut State,
        history: &[State],
        script: &mut VecDeque<Action>,
        rejected_in_row: u32,
    ) -> Action {
        let rng = &mut self.rng;
        let colour = state.to_move;
        let play = |colour, point, kind| Action::Play {
            colour,
            point,
            kind,
        };

        // Right after a single-stone capture the opponent tries to take back
        // at once (a ko retake if the shape is a ko), or probes positional
        // superko with pass, pass, retake: legal under simple ko, but the
        // retake repeats the position before the capture.
        if let Some(Probe {
            who,
            point,
            real_ko,
        }) = state.ko_probe.take()
        {
            if who == colour && real_ko {
                state.ko_fight = Some((who, point, KO_FIGHT_MOVES));
                let r = rng.below(100);
                if r < 35 {
                    script.push_back(play(who, None, Kind::ScriptedPass));
                    script.push_back(play(who.opp(), None, Kind::ScriptedPass));
                    script.push_back(play(who, Some(point), Kind::SuperkoRetake));
                    return script.pop_front().expect("just pushed");
                }
                if r < 85 {
                    return play(who, Some(point), Kind::KoRetake);
                }
            } else if who == colour && rng.percent(60) {
                return play(who, Some(point), Kind::Recapture);
            }
        }
        // Later in a ko fight, after a threat and its answer, the retake
        // is legal again under simple ko (and positional superko, since the
        // threats changed the board).
        if let Some((who, point, left)) = state.ko_fight {
            let moves_since = left < KO_FIGHT_MOVES;
            if who == colour && moves_since && state.pos.get(point).is_none() && rng.percent(40) {
                return play(who, Some(point), Kind::KoFight);
            }
        }

        if rejected_in_row >= 25 {
            return play(colour, None, Kind::Pass); // the board is (nearly) full
        }

        let pos = &state.pos;
        let random_empty = |rng: &mut Rng, colour| match rng.pick(&pos.empty_points()) {
            Some(p) => play(colour, Some(p), Kind::Random),
            None => play(colour, None, Kind::Pass),
        };
        let r = rng.below(1000);
        match r {
            0..=29 => {
                // Undo with nothing to undo must fail; try that now and then.
                if !history.is_empty() || rng.percent(15) {
                    Action::Undo
                } else {
                    random_empty(rng, colour)
                }
            }
            30..=69 => play(colour, None, Kind::Pass),
            70..=89 => match rng.pick(&pos.empty_points()) {
                Some(p) => play(colour.opp(), Some(p), Kind::SameColour),
                None => play(colour, None, Kind::Pass),
            },
            90..=94 if pos.has_stones() => Action::LateHandicap(2 + rng.below(3)),
            95..=179 => match rng.pick(&pos.occupied_points()) {
                Some(p) => play(colour, Some(p), Kind::Occupied),
                None => random_empty(rng, colour),
            },
            180..=299 => match rng.pick(&pos.suicide_candidates(colour)) {
                Some(p) => play(colour, Some(p), Kind::Suicide),
                None => random_empty(rng, colour),
            },
            300..=449 => match rng.pick(&pos.capturing_moves(colour)) {
                Some(p) => play(colour, Some(p), Kind::Capture),
                None => random_empty(rng, colour),
            },
            450..=549 => {
                let n = pos.size as u8;
                let p = (rng.below(n as usize) as u8, rng.below(n as usize) as u8);
                play(colour, Some(p), Kind::AnyVertex)
            }
            _ => random_empty(rng, colour),
        }
    }

    /// Sends one `play`; returns whether it was accepted.
    fn play(
        &mut self,
        state: &mut State,
        colour: Color,
        point: Option<Point>,
        kind: Kind,
    ) -> Result<bool, Stop> {
        let mv = point.map_or("pass".to_string(), vertex_name);
        let cmd = format!("play {} {mv}", colour.letter());
        let (r, c) = self.both(&cmd)?;
        self.stats.plays += 1;
        match kind {
            Kind::Occupied => self.stats.occupied_tries += 1,
            Kind::Suicide => self.stats.suicide_tries += 1,
            Kind::Capture => self.stats.capture_tries += 1,
            Kind::SameColour => self.stats.same_colour_twice += 1,
            Kind::Recapture => self.stats.recaptures += 1,
            Kind::KoRetake => self.stats.ko_retakes += 1,
            Kind::KoFight => self.stats.ko_fight_retakes += 1,
            Kind::SuperkoRetake => self.stats.superko_probes += 1,
            Kind::Pass | Kind::ScriptedPass => self.stats.passes += 1,
            Kind::Random | Kind::AnyVertex => {}
        }
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch(&cmd, &r, &c));
        }
        if r.is_err() {
            self.stats.illegal += 1;
            match kind {
                Kind::Suicide => self.stats.suicide_rejected += 1,
                Kind::Recapture => self.stats.recaptures_rejected += 1,
                Kind::KoRetake => self.stats.ko_retakes_rejected += 1,
                Kind::KoFight => self.stats.ko_fight_rejected += 1,
                Kind::SuperkoRetake => self.stats.superko_rejected += 1,
                _ => {}
            }
        }
        // Some tries have a known answer whatever the engines say; checking
        // it catches errors that both engines share (and harness bugs).
        let expected = match kind {
            Kind::Occupied | Kind::KoRetake => Some(false),
            Kind::SuperkoRetake => Some(self.mode == KoMode::Simple),
            _ => None,
        };
        let verdict = if r.is_ok() { "accepted" } else { "rejected" };
        match kind.label() {
            Some(label) => self.annotate(&format!("{label}: {verdict}")),
            None if r.is_err() => self.annotate(verdict),
            None => {}
        }
        if let Some(legal) = expected {
            if legal != r.is_ok() {
                let desc = format!(
                    "both engines {verdict} `{cmd}` ({}), which is {} under {} ko",
                    kind.label().unwrap_or(""),
                    if legal { "legal" } else { "illegal" },
                    self.mode.tesuji_arg()
                );
                self.annotate(&format!("RULE VIOLATION: {desc}"));
                return Err(Stop::Mismatch(Mismatch(desc)));
            }
        }
        if r.is_err() {
            return Ok(false);
        }
        self.stats.accepted += 1;
        let new_pos = self.compare_stones()?;
        let captured: Vec<Point> = state
            .pos
            .stones(colour.opp())
            .difference(&new_pos.stones(colour.opp()))
            .copied()
            .collect();
        state.ko_probe = match (point, captured.as_slice()) {
            (Some(p), [single]) => Some(Probe {
                who: colour.opp(),
                point: *single,
                real_ko: new_pos.liberties(p) == BTreeSet::from([*single])
                    && new_pos
                        .neighbours(p)
                        .iter()
                        .all(|&n| new_pos.get(n) != Some(colour)),
            }),
            _ => None,
        };
        state.ko_fight = match state.ko_fight {
            Some((who, p, left)) if left > 1 => Some((who, p, left - 1)),
            _ => None,
        };
        state.pos = new_pos;
        state.to_move = colour.opp();
        state.accepted += 1;
        state.passes = match kind {
            Kind::Pass => state.passes + 1,
            Kind::ScriptedPass => state.passes,
            _ => 0,
        };
        Ok(true)
    }

    fn undo(&mut self, state: &mut State, history: &mut Vec<State>) -> Result<(), Stop> {
        self.stats.undos += 1;
        let (r, c) = self.both("undo")?;
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch("undo", &r, &c));
        }
        if r.is_err() {
            self.annotate("rejected");
            if !history.is_empty() {
                return Err(Stop::Io(io::Error::other(format!(
                    "reference refused undo with {} moves played",
                    history.len()
                ))));
            }
            return Ok(());
        }
        self.stats.undos_accepted += 1;
        let pos = self.compare_stones()?;
        let previous = history.pop().ok_or_else(|| {
            Stop::Mismatch(Mismatch(
                "`undo` accepted by both engines with no move to take back".into(),
            ))
        })?;
        if pos != previous.pos {
            return Err(Stop::Io(io::Error::other(
                "after undo the reference's stones differ from the position before the last move",
            )));
        }
        *state = previous;
        Ok(())
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
