//! Running a whole match: `jobs` worker threads, each with its own pair of
//! engines (and referee), take game numbers from a shared counter; the
//! calling thread collects the finished games, writes each SGF and the
//! results table as soon as a game ends (so an interrupted match keeps
//! what it played), and reports progress on stderr.
//!
//! Colours alternate: in even games the `--black` profile plays Black, in
//! odd games White (gogui-twogtp's `-alternate`).

use super::analyze::{self, Analysis};
use super::elo::Tally;
use super::game::{self, Ending, GameRecord, GameSettings};
use super::record::{self, MatchInfo};
use super::seat::Seat;
use crate::engines::EngineProfile;
use crate::go::Color;
use crate::gtp_client::StderrMode;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// A match to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// `--black` and `--white`.
    pub profiles: [EngineProfile; 2],
    pub referee: Option<EngineProfile>,
    pub games: usize,
    pub jobs: usize,
    pub settings: GameSettings,
    /// Where the SGF files and `match.dat` go.
    pub out: PathBuf,
    pub stderr: StderrMode,
    /// Longest wait for answers other than `genmove`.
    pub command_timeout: Duration,
}

/// The outcome of a match, from the first profile's (`--black`) view.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub games: Vec<GameRecord>,
    pub first: Tally,
    /// Per profile: losses on time and by forfeit.
    pub time_losses: [u32; 2],
    pub forfeits: [u32; 2],
}

/// Which profile (0 = `--black`, 1 = `--white`) played `color` in a game.
pub fn profile_of(alternated: bool, color: Color) -> usize {
    color.index() ^ usize::from(alternated)
}

fn seat(p: &EngineProfile, c: &MatchConfig) -> Seat {
    Seat::new(p.clone(), c.stderr, c.command_timeout)
}

/// Plays the match; `Err` only for failures of the runner itself (the
/// output directory cannot be written).
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
    std::fs::create_dir_all(&config.out)
        .map_err(|e| format!("cannot create {}: {e}", config.out.display()))?;
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(GameRecord, [Seat; 2], Option<Seat>)>();
    let mut workers = Vec::new();
    for w in 0..config.jobs.max(1).min(config.games.max(1)) {
        let (next, tx, c) = (next.clone(), tx.clone(), config.clone());
        let handle = std::thread::Builder::new()
            .name(format!("match-{w}"))
            .spawn(move || {
                let mut seats = [seat(&c.profiles[0], &c), seat(&c.profiles[1], &c)];
                let mut referee = c.referee.as_ref().map(|r| seat(r, &c));
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= c.games {
                        break;
                    }
                    let alternated = index % 2 == 1;
                    let [a, b] = &mut seats;
                    let (black, white) = if alternated { (b, a) } else { (a, b) };
                    let g = game::play(
                        index,
                        alternated,
                        [black, white],
                        referee.as_mut(),
                        &c.settings,
                    );
                    // The collector wants the seats' labels for the headers:
                    // send snapshots without their processes.
                    let snap = |s: &Seat| {
                        let mut copy = Seat::new(s.profile.clone(), c.stderr, c.command_timeout);
                        copy.label = s.label.clone();
                        copy.version = s.version.clone();
                        copy
                    };
                    let snaps = [snap(&seats[0]), snap(&seats[1])];
                    let r = referee.as_ref().map(snap);
                    if tx.send((g, snaps, r)).is_err() {
                        break;
                    }
                }
                for s in seats.iter_mut().chain(referee.iter_mut()) {
                    s.quit();
                }
            })
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        workers.push(handle);
    }
    drop(tx);
    let date = record::today();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut summary = MatchSummary {
        games: Vec::new(),
        first: Tally::default(),
        time_losses: [0; 2],
        forfeits: [0; 2],
    };
    for (g, seats, referee) in rx {
        let info = MatchInfo {
            spec: config.settings.spec,
            seats: [&seats[0], &seats[1]],
            referee: referee.as_ref(),
            clock: config.settings.clock,
            date: date.clone(),
        };
        let sgf_path = config.out.join(format!("match-{}.sgf", g.index));
        std::fs::write(&sgf_path, record::sgf(&info, &g))
            .map_err(|e| format!("cannot write {}: {e}", sgf_path.display()))?;
        tally(&mut summary, &g);
        games.push(g);
        let refs: Vec<&GameRecord> = games.iter().collect();
        let dat_path = config.out.join("match.dat");
        std::fs::write(&dat_path, record::dat(&info, &refs))
            .map_err(|e| format!("cannot write {}: {e}", dat_path.display()))?;
        let g = games.last().expect("just pushed");
        let t = summary.first;
        eprintln!(
            "game {}/{}: {} (B) vs {} (W): {} in {} moves{}  [{} {}-{}-{} {}]",
            games.len(),
            config.games,
            g.names[0],
            g.names[1],
            g.result,
            g.moves.len(),
            if g.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", g.note)
            },
            config.profiles[0].name,
            t.wins,
            t.losses,
            t.draws,
            config.profiles[1].name,
        );
    }
    for w in workers {
        w.join()
            .map_err(|_| "a worker thread panicked".to_string())?;
    }
    games.sort_by_key(|g| g.index);
    summary.games = games;
    Ok(summary)
}

/// Adds one game to the tally of the first profile.
fn tally(summary: &mut MatchSummary, g: &GameRecord) {
    match record::winner(&g.result) {
        Some(c) if profile_of(g.alternated, c) == 0 => summary.first.wins += 1,
        Some(_) => summary.first.losses += 1,
        None if g.result == "0" => summary.first.draws += 1,
        // An unknown result ("?") counts for nobody.
        None => {}
    }
    match g.ending {
        Ending::Time(c) => summary.time_losses[profile_of(g.alternated, c)] += 1,
        Ending::Forfeit(c) => summary.forfeits[profile_of(g.alternated, c)] += 1,
        _ => {}
    }
}

/// The closing report: results per profile and the Elo difference.
pub fn report(config: &MatchConfig, s: &MatchSummary) -> String {
    let a = Analysis {
        names: [
            config.profiles[0].name.clone(),
            config.profiles[1].name.clone(),
        ],
        first: s.first,
        time_losses: s.time_losses,
        errors: s.forfeits,
        unknown: s.games.len() as u32 - s.first.games(),
    };
    format!("{}: {}", config.settings.spec, analyze::report(&a))
}
