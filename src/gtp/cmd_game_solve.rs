//! `solve win`: the whole-game goal of GTP's `solve` (issue 4), for the
//! games other than Go. It solves the current position (after the moves
//! played) for the player to move with any algorithm of
//! [`crate::solve`] and answers the line of `tesuji solve`
//! ([`crate::solve::cli::format_line`]), with the value from the mover's
//! view: `win B2 algo=pns nodes=… time_ms=… peak_memory=…`.
//!
//! The capture problems of `solve` (`capture`, `escape`) stay in
//! [`cmd_tactics_solve`](super::cmd_tactics_solve), which sends `win`
//! here. Go itself is refused: its positions repeat, which the generic
//! solvers cannot handle (see [`crate::solve::solve`]).

use super::engine::{thread_cpu_time, Engine, SolverStats};
use super::parse::{self, Args};
use crate::solve::{cli, Algo, Limits};
use std::time::Duration;

/// Algorithm of `solve win` when `algo=` is not given: the command line's
/// default too.
pub const DEFAULT_ALGO: Algo = Algo::AlphaBeta;

/// Whether `solve`'s arguments ask the whole-game question.
pub(super) fn is_win(args: &Args) -> bool {
    args.remaining().first().is_some_and(|a| a == "win")
}

/// `solve win [algo=ALGO] [nodes=INT] [time=FLOAT] [memory=INT]`. Limits
/// default to `tesuji-solver_limits`' nodes and time; memory (megabytes
/// for the solver's tables and trees) to the solver's own default. Every
/// argument is read before anything runs, so an error changes nothing.
pub(super) fn solve_win(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    engine.solver_stats = Default::default();
    let word = args.string()?;
    debug_assert_eq!(word, "win");
    let mut algo = DEFAULT_ALGO;
    let mut nodes = engine.solver_limits.nodes;
    let mut time = engine.solver_limits.time;
    let mut memory = None;
    for token in args.remaining() {
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| parse::SYNTAX_ERROR.to_string())?;
        match key {
            "algo" => algo = Algo::parse(value).ok_or("unknown algorithm")?,
            "nodes" => {
                nodes = u64::try_from(parse::int(value)?)
                    .map_err(|_| parse::INTEGER_OUT_OF_RANGE.to_string())?
            }
            "time" => {
                let s = parse::float(value)?;
                if !(0.0..=1e9).contains(&s) {
                    return Err(parse::FLOAT_OUT_OF_RANGE.into());
                }
                time = Some(Duration::from_secs_f64(s));
            }
            "memory" => {
                let mb = parse::int(value)?;
                if !(1..=1 << 20).contains(&mb) {
                    return Err(parse::INTEGER_OUT_OF_RANGE.into());
                }
                memory = Some((mb as usize) << 20);
            }
            _ => return Err(parse::SYNTAX_ERROR.into()),
        }
    }
    let stop = engine.stop.clone();
    let game = engine
        .other
        .as_ref()
        .ok_or("Go cannot be solved as a whole game (its positions repeat)")?;
    let limits = Limits {
        nodes: Some(nodes),
        time,
        memory,
        interrupt: Some(&stop),
    };
    let cpu_before = thread_cpu_time();
    let r = game.solve(algo, &limits)?;
    let cpu = thread_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    engine.solver_stats = SolverStats {
        nodes: r.nodes,
        elapsed: r.elapsed,
        cpu,
    };
    Ok(cli::format_line(
        r.value,
        r.best.as_deref(),
        algo.name(),
        &r,
    ))
}
