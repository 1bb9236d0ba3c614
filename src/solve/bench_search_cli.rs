//! The command line of `tesuji bench search` (see [`super::bench_search`]
//! for what is compared and seed 004 for why): options, the table of
//! rows, per-game totals and, with `--stats`, what the searches did
//! ([`super::bench_search_stats`]).

use super::bench_search::{
    deepen_with, position, search, Enhancements, Ordering, Recall, Result, Windows, DEFAULT_GAMES,
};
use super::bench_search_stats::Stats;
use super::depth_first::{Heuristics, Table};
use crate::games::spec::{GameSpec, Visit};
use crate::games::Game;
use std::io::Write;
use std::process::ExitCode;
/// One table row: a position at one depth.
pub struct Row {
    pub game: String,
    pub position: usize,
    pub depth: u32,
    pub alphabeta: Result,
    pub negascout: Result,
}

struct Options {
    depth: u32,
    plies: usize,
    positions: usize,
    seed: u64,
    games: Vec<String>,
    deepening: bool,
    enhancements: Enhancements,
    stats: bool,
}

const USAGE: &str = "usage: tesuji bench search [--depth D] [--plies P] \
[--positions N] [--seed S] [--game SPEC[@PLIES],...] [--fresh] [--cutoffs] [--aspiration] [--ordering full|history|none] [--blind-researches] [--stats]\n";

fn parse_options(args: &[String]) -> std::result::Result<Options, String> {
    let mut o = Options {
        depth: 6,
        plies: 6,
        positions: 3,
        seed: 4,
        games: DEFAULT_GAMES.iter().map(|s| s.to_string()).collect(),
        deepening: true,
        enhancements: Enhancements::default(),
        stats: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        let bad = |e: std::num::ParseIntError| format!("{a}: {e}");
        match a.as_str() {
            "--depth" => o.depth = value()?.parse().map_err(bad)?,
            "--plies" => o.plies = value()?.parse().map_err(bad)?,
            "--positions" => o.positions = value()?.parse().map_err(bad)?,
            "--seed" => o.seed = value()?.parse().map_err(bad)?,
            "--game" => o.games = split_specs(value()?),
            "--fresh" => o.deepening = false,
            "--cutoffs" => o.enhancements.cutoffs = true,
            "--aspiration" => o.enhancements.aspiration = true,
            "--blind-researches" => o.enhancements.blind_researches = true,
            "--stats" => o.stats = true,
            "--ordering" => {
                o.enhancements.ordering = match value()?.as_str() {
                    "full" => Ordering::Full,
                    "history" => Ordering::History,
                    "none" => Ordering::None,
                    v => return Err(format!("--ordering {v}: full, history or none")),
                }
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.depth == 0 {
        return Err("--depth must be at least 1".into());
    }
    if o.enhancements != Enhancements::default() && !o.deepening {
        return Err(
            "--cutoffs, --aspiration, --ordering and --blind-researches need iterative deepening \
             (not --fresh)"
                .into(),
        );
    }
    Ok(o)
}

/// Splits a comma-separated list of game specs; a piece without `:`
/// continues the previous spec (m,n,k boards have commas of their own).
pub fn split_specs(text: &str) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for piece in text.split(',') {
        match specs.last_mut() {
            Some(last) if !piece.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => specs.push(piece.to_string()),
        }
    }
    specs
}

/// Table size for the deepening runs.
const TABLE_BYTES: usize = 16 << 20;

/// Runs both searches on `positions` positions of `spec` at depths 1..=D:
/// by iterative deepening (`deepening`) or one fresh search per depth.
pub fn rows_for(
    spec: &str,
    depth: u32,
    plies: usize,
    positions: usize,
    seed: u64,
    deepening: bool,
    enhancements: Enhancements,
) -> std::result::Result<Vec<Row>, String> {
    struct On<'a>(&'a str, u32, usize, usize, u64, bool, Enhancements);
    impl Visit for On<'_> {
        type Out = Vec<Row>;
        fn visit<G: Game>(self, start: G) -> Vec<Row> {
            let On(spec, depth, plies, positions, seed, deepening, enhancements) = self;
            let mut h = Heuristics::new();
            let mut table = Table::new(TABLE_BYTES);
            let mut recall = Recall::new();
            let mut rows = Vec::new();
            for p in 0..positions {
                let g = position(&start, plies, seed.wrapping_add(p as u64));
                let mut run = |w| {
                    if deepening {
                        deepen_with(&g, depth, w, &mut h, &mut table, &mut recall, enhancements)
                    } else {
                        (1..=depth)
                            .map(|d| search(&g, d, w, &mut h, &mut recall))
                            .collect()
                    }
                };
                let ab = run(Windows::AlphaBeta);
                let ns = run(Windows::NegaScout);
                for (d, (&alphabeta, &negascout)) in (1..).zip(ab.iter().zip(&ns)) {
                    rows.push(Row {
                        game: spec.to_string(),
                        position: p,
                        depth: d,
                        alphabeta,
                        negascout,
                    });
                }
            }
            rows
        }
    }
    // `SPEC@P`: this game with P random plies instead of the default.
    let (game, plies) = match spec.split_once('@') {
        Some((g, p)) => (g, p.parse().map_err(|e| format!("{spec}: {e}"))?),
        None => (spec, plies),
    };
    Ok(GameSpec::parse(game)?.build(On(
        spec,
        depth,
        plies,
        positions,
        seed,
        deepening,
        enhancements,
    )))
}

fn percent_saved(ab: u64, ns: u64) -> f64 {
    if ab == 0 {
        0.0
    } else {
        100.0 * (ab as f64 - ns as f64) / ab as f64
    }
}

pub fn main(args: &[String]) -> ExitCode {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprint!("tesuji bench search: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "# {} positions per game, {} random plies, seed {}, depths 1..{}, {}{}",
        o.positions,
        o.plies,
        o.seed,
        o.depth,
        match (o.enhancements.cutoffs, o.enhancements.aspiration) {
            (true, true) => "iterative deepening, table cutoffs, aspiration windows",
            (true, false) => "iterative deepening, table cutoffs",
            (false, true) => "iterative deepening, aspiration windows",
            (false, false) if o.deepening => "iterative deepening (nodes of each iteration)",
            _ => "a fresh search per depth",
        },
        match o.enhancements.ordering {
            Ordering::Full => "",
            Ordering::History => ", ordering without the evaluation (control)",
            Ordering::None => ", no ordering (control)",
        }
    );
    let _ = writeln!(
        out,
        "{:<16} {:>3} {:>5} {:>12} {:>12} {:>7} {:>9} {:>9}",
        "game", "pos", "depth", "ab-nodes", "ns-nodes", "saved%", "ab-value", "ns-value"
    );
    let (mut total_ab, mut total_ns, mut disagree) = (0u64, 0u64, 0usize);
    for spec in &o.games {
        let rows = match rows_for(
            spec,
            o.depth,
            o.plies,
            o.positions,
            o.seed,
            o.deepening,
            o.enhancements,
        ) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("tesuji bench search: {e}");
                return ExitCode::from(2);
            }
        };
        let (mut game_ab, mut game_ns) = (0u64, 0u64);
        let (mut stats_ab, mut stats_ns) = (Stats::default(), Stats::default());
        for r in &rows {
            let (ab, ns) = (r.alphabeta, r.negascout);
            stats_ab += ab.stats;
            stats_ns += ns.stats;
            let flag = if ab.value == ns.value {
                ""
            } else {
                "  DISAGREE"
            };
            disagree += usize::from(ab.value != ns.value);
            game_ab += ab.nodes;
            game_ns += ns.nodes;
            let _ = writeln!(
                out,
                "{:<16} {:>3} {:>5} {:>12} {:>12} {:>7.1} {:>9} {:>9}{flag}",
                r.game,
                r.position,
                r.depth,
                ab.nodes,
                ns.nodes,
                percent_saved(ab.nodes, ns.nodes),
                ab.value,
                ns.value
            );
        }
        let _ = writeln!(
            out,
            "{:<16} {:>3} {:>5} {:>12} {:>12} {:>7.1}",
            spec,
            "all",
            "",
            game_ab,
            game_ns,
            percent_saved(game_ab, game_ns)
        );
        if o.stats {
            let _ = writeln!(out, "{spec} alpha-beta: {}", stats_ab.summary());
            let _ = writeln!(out, "{spec} negascout:  {}", stats_ns.summary());
        }
        total_ab += game_ab;
        total_ns += game_ns;
    }
    let _ = writeln!(
        out,
        "total: alpha-beta {total_ab} nodes, negascout {total_ns} nodes, \
         {:.1}% saved, {disagree} root value(s) disagree",
        percent_saved(total_ab, total_ns)
    );
    if disagree == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
