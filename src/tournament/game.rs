//! Playing one game between two seated engines under the referee's rules
//! and clock.
//!
//! Protocol, per game: each engine gets `boardsize N`, `komi K` and
//! `clear_board` (for games other than Go, `tesuji-game SPEC` and
//! `clear_board`), then `time_settings` when there is a clock and it knows
//! the command. Before every `genmove` the mover gets `time_left` for its
//! own colour (if it knows the command); after the move its opponent gets
//! `play`. The game ends at two passes in a row (or when the game's rules
//! say so), a resignation, a move limit (scored as it stands), or a
//! failure.
//!
//! Failures lose the game for the engine responsible, and the reason is
//! recorded: an overrun clock (`B+T`/`W+T`); and as a forfeit (`+F`, SGF's
//! "win by forfeit") an illegal move, an answer that is not a move, a
//! `genmove` error, no answer in time without a clock, a crash or non-GTP
//! output, a failed set-up command, or refusing the opponent's legal move.
//! The offending engine is then restarted, so the next game starts fresh.
//!
//! Scoring of a Go game that ends by passes: tesuji's area scoring
//! ([`crate::go::score`]) with the dead stones named by the referee
//! engine's `final_status_list dead` after it replays the game, or without
//! a referee tesuji's own dead-stone estimate
//! ([`crate::search::dead_stones`]: the capture solver's unsavable blocks,
//! then Monte-Carlo ownership; Benson-alive blocks never die). The players'
//! own `final_score` answers are recorded too (RES_B and RES_W of the
//! results table) but never decide the game.

use super::arbiter::{parse_dead_list, printable, Arbiter, MoveText};
use super::clock::{Clock, TimeControl};
use super::seat::Seat;
use crate::games::spec::GameSpec;
use crate::go::{Color, KoRule};
use std::io;
use std::time::{Duration, Instant};

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub spec: GameSpec,
    pub ko: KoRule,
    /// `None`: no clock; each `genmove` may take `move_timeout`.
    pub clock: Option<TimeControl>,
    pub move_timeout: Duration,
    /// Moves after which the game is scored as it stands.
    pub max_moves: usize,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Two passes or the game's rules; the score decides.
    Scored,
    /// The move limit; scored as it stands.
    MoveLimit,
    Resigned(Color),
    Time(Color),
    Forfeit(Color),
}

/// Everything recorded about one finished game, by colour.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// Whether the second profile played Black (gogui-twogtp's ALT).
    pub alternated: bool,
    /// Profile names of Black and White.
    pub names: [String; 2],
    pub moves: Vec<(Color, MoveText)>,
    pub ending: Ending,
    /// The official result as SGF's `RE` has it.
    pub result: String,
    /// The players' own `final_score` answers ("?" if none), by colour.
    pub claims: [String; 2],
    /// Why the game ended as it did, in words (loss reasons, notes).
    pub note: String,
    /// Wall-clock thinking seconds and CPU seconds, by colour.
    pub time: [f64; 2],
    pub cpu: [f64; 2],
}

/// "Black" or "White", for the notes.
fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn winner_text(loser: Color, how: char) -> String {
    format!("{}+{how}", loser.opp().letter())
}

/// Sends a set-up command; a failure is the engine's forfeit.
fn setup(seat: &mut Seat, cmd: &str) -> Result<(), String> {
    let c = seat.client()?;
    match c.send(cmd) {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(msg)) => Err(format!("`{cmd}` failed: {}", printable(&msg))),
        Err(e) => Err(e.to_string()),
    }
}

fn setup_engine(seat: &mut Seat, s: &GameSettings) -> Result<(), String> {
    match s.spec {
        GameSpec::Go { size, komi_x2 } => {
            setup(seat, &format!("boardsize {size}"))?;
            setup(seat, &format!("komi {}", komi_x2 as f64 / 2.0))?;
        }
        spec => setup(seat, &format!("tesuji-game {spec}"))?,
    }
    setup(seat, "clear_board")?;
    if let Some(tc) = s.clock {
        if seat.knows_time {
            setup(seat, &format!("time_settings {}", tc.gtp_settings()))?;
        }
    }
    Ok(())
}

/// Plays game `index` between `seats[0]` as Black and `seats[1]` as White.
pub fn play(
    index: usize,
    alternated: bool,
    seats: [&mut Seat; 2],
    referee: Option<&mut Seat>,
    s: &GameSettings,
) -> GameRecord {
    let mut record = GameRecord {
        index,
        alternated,
        names: [seats[0].profile.name.clone(), seats[1].profile.name.clone()],
        moves: Vec::new(),
        ending: Ending::Scored,
        result: "?".into(),
        claims: ["?".into(), "?".into()],
        note: String::new(),
        time: [0.0; 2],
        cpu: [0.0; 2],
    };
    let mut arbiter = Arbiter::new(&s.spec, s.ko);
    let mut clocks = s.clock.map(|tc| [Clock::new(tc), Clock::new(tc)]);
    let ending = 'game: {
        for color in [Color::Black, Color::White] {
            let seat = &mut *seats[color.index()];
            if let Err(e) = setup_engine(seat, s) {
                record.note = format!(
                    "{} ({}) failed to start the game: {e}",
                    side(color),
                    seat.profile.name
                );
                seat.restart();
                break 'game Ending::Forfeit(color);
            }
            seat.start_game();
        }
        loop {
            if arbiter.finished() {
                break 'game Ending::Scored;
            }
            if record.moves.len() >= s.max_moves {
                record.note = format!("move limit of {} reached; scored as it stands", s.max_moves);
                break 'game Ending::MoveLimit;
            }
            let color = arbiter.to_move();
            let i = color.index();
            match turn(
                &mut *seats[i],
                color,
                clocks.as_mut().map(|c| &mut c[i]),
                &mut record,
                s,
            ) {
                Err((ending, why)) => {
                    record.note = format!("{} ({}) {why}", side(color), seats[i].profile.name);
                    if matches!(ending, Ending::Forfeit(_) | Ending::Time(_)) {
                        seats[i].restart();
                    }
                    break 'game ending;
                }
                Ok(answer) => match arbiter.play(color, &answer) {
                    Err(why) => {
                        record.note = format!("{} ({}) {why}", side(color), seats[i].profile.name);
                        seats[i].restart();
                        break 'game Ending::Forfeit(color);
                    }
                    Ok(mv) => {
                        record.moves.push((color, mv.clone()));
                        let other = &mut *seats[1 - i];
                        let cmd = format!("play {} {mv}", color.letter());
                        let why = match other.client().map(|c| c.send(&cmd)) {
                            Ok(Ok(Ok(_))) => continue,
                            Ok(Ok(Err(msg))) => {
                                format!("refused the legal move `{cmd}`: {}", printable(&msg))
                            }
                            Ok(Err(e)) => e.to_string(),
                            Err(e) => e,
                        };
                        record.note =
                            format!("{} ({}) {why}", side(color.opp()), other.profile.name);
                        other.restart();
                        break 'game Ending::Forfeit(color.opp());
                    }
                },
            }
        }
    };
    for color in [Color::Black, Color::White] {
        record.cpu[color.index()] = seats[color.index()].game_cpu();
    }
    record.result = match &ending {
        Ending::Resigned(c) => winner_text(*c, 'R'),
        Ending::Time(c) => winner_text(*c, 'T'),
        Ending::Forfeit(c) => winner_text(*c, 'F'),
        Ending::Scored | Ending::MoveLimit => {
            let dead = dead_stones(&arbiter, &record.moves, referee, s, &mut record.note);
            for color in [Color::Black, Color::White] {
                record.claims[color.index()] = claim(&mut *seats[color.index()], s);
            }
            arbiter.result(&dead)
        }
    };
    if !matches!(ending, Ending::Scored | Ending::MoveLimit) {
        record.claims = [record.result.clone(), record.result.clone()];
    }
    record.ending = ending;
    record
}

/// Asks the mover for its move: `time_left`, then `genmove`, timed.
/// Answers the move text, or how the game ends and why.
fn turn(
    seat: &mut Seat,
    color: Color,
    clock: Option<&mut Clock>,
    record: &mut GameRecord,
    s: &GameSettings,
) -> Result<String, (Ending, String)> {
    let forfeit = |why: String| (Ending::Forfeit(color), why);
    let has_clock = clock.is_some();
    let wait = clock.as_ref().map_or(s.move_timeout, |c| c.deadline());
    if let Some(c) = &clock {
        if seat.knows_time_left {
            let (secs, stones) = c.gtp_time_left();
            let cmd = format!("time_left {} {secs} {stones}", color.letter());
            // Refusing time_left is harmless; a broken connection is not.
            let _refused = seat
                .send_with(&cmd, s.move_timeout)
                .map_err(forfeit)?
                .map_err(|e| forfeit(e.to_string()))?;
        }
    }
    let cmd = format!("genmove {}", color.name());
    let start = Instant::now();
    let answer = seat.send_with(&cmd, wait).map_err(forfeit)?;
    let took = start.elapsed();
    record.time[color.index()] += took.as_secs_f64();
    let text = match answer {
        Ok(Ok(text)) => text,
        Ok(Err(msg)) => return Err(forfeit(format!("genmove failed: {}", printable(&msg)))),
        Err(e) if e.kind() == io::ErrorKind::TimedOut && has_clock => {
            return Err((
                Ending::Time(color),
                format!("lost on time: no move after {:.1} s", took.as_secs_f64()),
            ))
        }
        Err(e) => return Err(forfeit(e.to_string())),
    };
    if let Some(c) = clock {
        if !c.charge(took) {
            return Err((
                Ending::Time(color),
                format!("lost on time: the move took {:.2} s", took.as_secs_f64()),
            ));
        }
    }
    if text.trim().eq_ignore_ascii_case("resign") {
        return Err((Ending::Resigned(color), "resigned".into()));
    }
    Ok(text)
}

/// The dead stones at the end of a scored Go game: the referee's, or
/// tesuji's own estimate when there is no referee or it fails (noted).
fn dead_stones(
    arbiter: &Arbiter,
    moves: &[(Color, MoveText)],
    referee: Option<&mut Seat>,
    s: &GameSettings,
    note: &mut String,
) -> Vec<crate::go::board::Point> {
    let Some(game) = arbiter.go() else {
        return Vec::new();
    };
    if let Some(r) = referee {
        let mut ask = || -> Result<Vec<_>, String> {
            setup_engine_plain(r, s)?;
            for (c, mv) in moves {
                setup(r, &format!("play {} {mv}", c.letter()))?;
            }
            let c = r.client()?;
            match c.send("final_status_list dead") {
                Ok(Ok(list)) => parse_dead_list(game.board(), &list),
                Ok(Err(msg)) => Err(format!("final_status_list failed: {}", printable(&msg))),
                Err(e) => Err(e.to_string()),
            }
        };
        match ask() {
            Ok(dead) => return dead,
            Err(e) => {
                r.restart();
                append(
                    note,
                    &format!("referee failed ({e}); tesuji scored the dead stones"),
                );
            }
        }
    }
    crate::search::dead_stones(game.board())
}

/// Set-up of the referee: the game without the clock.
fn setup_engine_plain(seat: &mut Seat, s: &GameSettings) -> Result<(), String> {
    let plain = GameSettings {
        clock: None,
        ..s.clone()
    };
    setup_engine(seat, &plain)
}

/// A player's own `final_score`, for the record only.
fn claim(seat: &mut Seat, s: &GameSettings) -> String {
    if !seat.running() || !seat.knows_final_score || !matches!(s.spec, GameSpec::Go { .. }) {
        return "?".into();
    }
    match seat.send_with("final_score", s.move_timeout) {
        Ok(Ok(Ok(score))) if !score.is_empty() && !score.contains(char::is_whitespace) => score,
        Ok(Ok(_)) => "?".into(),
        _ => {
            seat.restart();
            "?".into()
        }
    }
}

fn append(note: &mut String, text: &str) {
    if !note.is_empty() {
        note.push_str("; ");
    }
    note.push_str(text);
}
