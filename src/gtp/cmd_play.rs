//! Playing and scoring through GTP (GTP v2 sections 6.3.3, 6.3.6, 6.3.8):
//! `genmove` and `reg_genmove` (the NegaScout player of `crate::search`),
//! the clock commands, and the end-of-game scoring commands.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::board::{Board, Point};
use crate::go::handicap::sort_gtp;
use crate::go::score;
use crate::go::{Color, Move, Vertex};
use crate::search::{self, SearchLimits, SearchResult};
use std::fmt::Write as _;

pub const COMMANDS: &[Command] = &[
    Command {
        name: "genmove",
        run: genmove,
    },
    Command {
        name: "kgs-genmove_cleanup",
        run: genmove_cleanup,
    },
    Command {
        name: "reg_genmove",
        run: reg_genmove,
    },
    Command {
        name: "tesuji-resign_threshold",
        run: resign_threshold,
    },
    Command {
        name: "tesuji-time_budget",
        run: time_budget,
    },
    Command {
        name: "time_settings",
        run: time_settings,
    },
    Command {
        name: "time_left",
        run: time_left,
    },
    Command {
        name: "kgs-time_settings",
        run: kgs_time_settings,
    },
    Command {
        name: "final_score",
        run: final_score,
    },
    Command {
        name: "final_status_list",
        run: final_status_list,
    },
];

fn search(engine: &mut Engine, color: Color) -> SearchResult {
    let game = &engine.game;
    let limits = match (engine.config.max_depth, engine.config.max_nodes) {
        (None, None) => {
            SearchLimits::budget(engine.time.budget(color, game.size(), game.moves().len()))
        }
        (max_depth, max_nodes) => SearchLimits {
            max_depth,
            max_nodes,
            ..SearchLimits::default()
        },
    };
    let clock = engine.time.clock(color);
    let stop = engine.stop.clone();
    engine.player.set_mcts(engine.config.mcts);
    engine.player.set_monte_carlo(search::mc::playouts_for(
        game.size(),
        engine.config.mc_playouts,
    ));
    let result = engine.player.genmove(game, color, &limits, &stop);
    // Keeps our own clock right for controllers that never send time_left.
    engine.time.spend(color, result.elapsed);
    // The expected line, so that a user (or a session studying a lost
    // game) sees what the search believed, not only its choice.
    let mut pv = String::new();
    for m in &result.pv {
        let _ = write!(pv, " {m}");
    }
    log::info!(
        "genmove {color}: {} value {} depth {} nodes {} in {:.3} s ({:.0} nodes/s); \
         clock {:.3} s/{} stones, target {:.3} s, limit {:.3} s; pv{}",
        result.best,
        result.value,
        result.depth,
        result.nodes,
        result.elapsed.as_secs_f64(),
        result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-9),
        clock.time.as_secs_f64(),
        clock.stones,
        limits.time.unwrap_or_default().as_secs_f64(),
        limits.hard_time.unwrap_or_default().as_secs_f64(),
        if pv.is_empty() { " -" } else { &pv },
    );
    result
}

fn genmove(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    args.finish()?;
    play_genmove(engine, color)
}

/// KGS's `kgs-genmove_cleanup COLOR`: `genmove` for the clean-up phase after
/// a disagreement about dead stones: no pass while the opponent has dead
/// stones on the board (they must be captured to be scored as dead), and
/// no resignation.
fn genmove_cleanup(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    args.finish()?;
    engine.player.set_cleanup(true);
    let answer = play_genmove(engine, color);
    engine.player.set_cleanup(false);
    answer
}

fn play_genmove(engine: &mut Engine, color: Color) -> Result<String, String> {
    if let Some(answer) = super::cmd_player::random_genmove(engine, color) {
        return answer;
    }
    if engine.other.is_some() {
        return super::cmd_rules::other_genmove(engine, color);
    }
    let result = search(engine, color);
    if result.resign {
        return Ok("resign".into());
    }
    let mv = match engine.game.play(color, result.best) {
        Ok(()) => result.best,
        Err(e) => {
            // The player checks legality at the root, so this is a bug; a
            // pass keeps the game going rather than answering an illegal move.
            log::error!("genmove chose illegal {} ({e}); passing", result.best);
            engine
                .game
                .play(color, Move::Pass)
                .map_err(|e| e.to_string())?;
            Move::Pass
        }
    };
    Ok(mv.to_string())
}

fn reg_genmove(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    args.finish()?;
    let result = search(engine, color);
    Ok(if result.resign {
        "resign".into()
    } else {
        result.best.to_string()
    })
}

/// `tesuji-resign_threshold [POINTS|never]`: answers the threshold in force
/// (`never` or the number of points); with an argument, sets it.
fn resign_threshold(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    if let Some(v) = args.opt_string() {
        let threshold = if v.eq_ignore_ascii_case("never") {
            None
        } else {
            match v.parse::<f64>() {
                Ok(t) if t.is_finite() && t >= 0.0 => Some(t),
                _ => return Err("invalid threshold".into()),
            }
        };
        args.finish()?;
        engine.config.resign_threshold = threshold;
        engine.player.set_resign_threshold(threshold);
    }
    Ok(match engine.config.resign_threshold {
        None => "never".into(),
        Some(t) => format!("{t}"),
    })
}

/// `tesuji-time_budget COLOR`: the time `genmove COLOR` would be given now,
/// as the time manager computes it from the clock commands: the clock
/// (`time=SECONDS stones=N`), then `target=SECONDS limit=SECONDS`.
fn time_budget(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    args.finish()?;
    let game = &engine.game;
    let clock = engine.time.clock(color);
    let b = engine.time.budget(color, game.size(), game.moves().len());
    Ok(format!(
        "time={:.3} stones={} target={:.3} limit={:.3}",
        clock.time.as_secs_f64(),
        clock.stones,
        b.soft.as_secs_f64(),
        b.hard.as_secs_f64()
    ))
}

/// Seconds from a GTP integer argument, which must not be negative.
fn seconds(args: &mut Args) -> Result<u32, String> {
    let n = args.int()?;
    u32::try_from(n).map_err(|_| "syntax error".to_string())
}

fn time_settings(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let main = seconds(args)?;
    let byo = seconds(args)?;
    let stones = seconds(args)?;
    args.finish()?;
    engine.time.time_settings(main as f64, byo as f64, stones);
    Ok(String::new())
}

fn time_left(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    let time = args.float()?;
    let stones = seconds(args)?;
    args.finish()?;
    engine.time.time_left(color, time.max(0.0), stones);
    Ok(String::new())
}

/// KGS's clock command: `none`, `absolute MAIN`, `byoyomi MAIN PERIOD
/// PERIODS`, `canadian MAIN TIME STONES`.
fn kgs_time_settings(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let kind = args.string()?.to_ascii_lowercase();
    match kind.as_str() {
        "none" => {
            args.finish()?;
            engine.time.kgs_none();
        }
        "absolute" => {
            let main = seconds(args)?;
            args.finish()?;
            engine.time.kgs_absolute(main as f64);
        }
        "byoyomi" => {
            let main = seconds(args)?;
            let period = seconds(args)?;
            let periods = seconds(args)?;
            args.finish()?;
            engine.time.kgs_byoyomi(main as f64, period as f64, periods);
        }
        "canadian" => {
            let main = seconds(args)?;
            let time = seconds(args)?;
            let stones = seconds(args)?;
            args.finish()?;
            engine.time.kgs_canadian(main as f64, time as f64, stones);
        }
        _ => return Err("syntax error".into()),
    }
    Ok(String::new())
}

fn dead_stones(engine: &Engine) -> Vec<Point> {
    search::dead_stones(engine.game.board())
}

fn final_score(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    let dead = dead_stones(engine);
    let s = score::area_score(engine.game.board(), &dead, engine.game.komi());
    Ok(score::format_score(s))
}

/// One line per block, stones top row first.
fn final_status_list(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let status = args.string()?.to_ascii_lowercase();
    args.finish()?;
    let dead = dead_stones(engine);
    let board = engine.game.board();
    let wanted: Vec<Point> = match status.as_str() {
        "dead" => dead,
        "alive" => board
            .points()
            .filter(|p| board.color_at(*p).is_some() && !dead.contains(p))
            .collect(),
        // Area scoring needs no seki status: stones in seki count as alive.
        "seki" => Vec::new(),
        _ => return Err("invalid status".into()),
    };
    let mut blocks: Vec<Vec<Vertex>> = Vec::new();
    let mut done: Vec<Point> = Vec::new();
    for &p in &wanted {
        let h = board.block(p);
        if done.contains(&h) {
            continue;
        }
        done.push(h);
        let mut stones = Vec::new();
        board.for_each_stone(p, |q| stones.push(Board::vertex(q)));
        sort_gtp(&mut stones);
        blocks.push(stones);
    }
    blocks.sort_by_key(|b| (std::cmp::Reverse(b[0].row), b[0].col));
    Ok(blocks
        .iter()
        .map(|b| {
            b.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n"))
}
