//! Tactical solving over GTP: GNU Go's `attack`, `defend` and
//! `ladder_attack` (GNU Go 3.8 manual, "The GTP commands"; answers `0` or
//! `CODE VERTEX` with GNU Go's ko codes), tesuji's `solve` for referee
//! scripts, and the solver's limits and statistics. All of them answer with
//! the df-pn solver of [`crate::tactics::dfpn`], which only ever reports a
//! proven result: when a limit stops it first, the answer says so.
//! GoGui's `tesuji-gfx_solve` (`cmd_gogui`) reads and runs its question
//! with `solve`'s code here and only answers differently.

use super::engine::{thread_cpu_time, Engine, SolverStats};
use super::live_gfx::LiveGfx;
use super::parse::{self, Args};
use super::registry::Command;
use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::go::Move;
use crate::tactics::dfpn::{Algo, Forced, KoResult, Limit, Limits, Options, Question};
use crate::tactics::profile::{PathProfile, MAX_PREFIX};
use crate::tactics::rules::{KoModel, Problem};
use std::fmt::Write as _;
use std::time::Duration;

pub const COMMANDS: &[Command] = &[
    Command {
        name: "attack",
        run: attack,
    },
    Command {
        name: "defend",
        run: defend,
    },
    Command {
        name: "ladder_attack",
        run: ladder_attack,
    },
    Command {
        name: "solve",
        run: solve,
    },
    Command {
        name: "tesuji-solver_limits",
        run: solver_limits,
    },
    Command {
        name: "tesuji-solver_stats",
        run: solver_stats,
    },
];

/// A vertex that must hold a stone: the block to attack or defend.
fn block(engine: &Engine, args: &mut Args) -> Result<Point, String> {
    let p = match args.vertex(engine.game.size())? {
        Move::Pass => return Err(parse::INVALID_VERTEX.into()),
        Move::Play(v) => engine
            .game
            .board()
            .point(v)
            .ok_or_else(|| parse::VERTEX_OFF_BOARD.to_string())?,
    };
    if engine.game.board().color_at(p).is_none() {
        return Err("vertex must not be empty".into());
    }
    Ok(p)
}

/// Moves as answers write them: `D4`, or `PASS` as GNU Go writes it.
fn move_name(p: Point) -> String {
    if p == PASS {
        "PASS".into()
    } else {
        Board::vertex(p).to_string()
    }
}

/// Who moves first.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    Attacker,
    Defender,
}

/// `model=` of `solve`: the one ko model to solve under, named by who may
/// retake a ko at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Favour {
    Mover,
    Opponent,
    Nobody,
}

impl Favour {
    fn parse(s: &str) -> Option<Favour> {
        match s {
            "mover" => Some(Favour::Mover),
            "opponent" => Some(Favour::Opponent),
            "none" => Some(Favour::Nobody),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Favour::Mover => "mover",
            Favour::Opponent => "opponent",
            Favour::Nobody => "none",
        }
    }

    fn color(self, mover: Color) -> Option<Color> {
        match self {
            Favour::Mover => Some(mover),
            Favour::Opponent => Some(mover.opp()),
            Favour::Nobody => None,
        }
    }
}

/// What a solve found: the ko-code answer, or with `model=` the answer
/// under that model (its `code` only when the result met no ko ban) and
/// whether the player to move wins there (`None`: unknown).
pub(super) struct Solved {
    pub result: KoResult,
    model: Option<(Favour, Option<bool>)>,
}

/// Runs the ko-code solve (or, with `model`, the solve under that one ko
/// model) for the block on `p` and records its work. With `live` (or after
/// `tesuji-live_gfx on`) the solve shows its search line to GoGui on
/// stderr while it runs; with `profile`, instead, it counts where its
/// nodes went, by the first `profile` moves of the line, and writes that
/// to stderr at the end (see `tactics::profile`).
#[allow(clippy::too_many_arguments)]
fn run(
    engine: &mut Engine,
    p: Point,
    side: Side,
    escape: Option<usize>,
    model: Option<Favour>,
    opts: Options,
    limits: Limits,
    live: bool,
    profile: Option<usize>,
) -> Solved {
    let board = engine.game.board().clone();
    let mut problem = Problem::new(&board, p).expect("the vertex holds a stone");
    if let Some(e) = escape {
        problem.escape_libs = e;
    }
    let mover = match side {
        Side::Attacker => problem.attacker,
        Side::Defender => problem.defender(),
    };
    let stop = engine.stop.clone();
    let live = live || engine.live_gfx;
    let solver = engine.solver();
    if let Some(n) = profile {
        solver.set_progress(Some(Box::new(PathProfile::stderr(n))));
    } else if live {
        solver.set_progress(Some(Box::new(LiveGfx::stderr(problem.target))));
    }
    let cpu_before = thread_cpu_time();
    let (r, model) = match model {
        None => {
            let r = solver.in_rounds(limits, opts.rounds, |s, l| {
                s.solve_with_ko(&board, problem, mover, opts, l, &stop)
            });
            (r, None)
        }
        Some(f) => {
            let q = Question {
                board: &board,
                problem,
                model: KoModel {
                    favoured: f.color(mover),
                },
                to_move: mover,
            };
            let m = solver.in_rounds(limits, opts.rounds, |s, l| {
                s.solve_one_model(q, opts, l, &stop)
            });
            (m.result, Some((f, m.mover_wins)))
        }
    };
    let cpu = thread_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    // The watcher belongs to this command only.
    if let Some(mut watcher) = solver.set_progress(None) {
        watcher.finish();
    }
    engine.reading_nodes = engine.reading_nodes.saturating_add(r.nodes);
    engine.solver_stats = SolverStats {
        nodes: r.nodes,
        elapsed: r.elapsed,
        cpu,
    };
    Solved { result: r, model }
}

/// GNU Go's answer: `0`, or the code and the first move.
fn gnugo_answer(r: &KoResult) -> Result<String, String> {
    match (r.code, r.stopped_by) {
        (Some(0), _) => Ok("0".into()),
        (Some(code), _) => Ok(format!("{code} {}", move_name(r.best.unwrap_or(PASS)))),
        (None, Some(Limit::Interrupted)) => Err("interrupted".into()),
        (None, Some(Limit::Time)) => Err("unknown: time limit reached".into()),
        (None, Some(Limit::Orders)) => {
            Err("unknown: no proof up to the highest threat order".into())
        }
        (None, _) => Err("unknown: node limit reached".into()),
    }
}

fn gnugo_command(
    engine: &mut Engine,
    args: &mut Args,
    side: Side,
    ladder: bool,
) -> Result<String, String> {
    // A command that fails before solving leaves no stale statistics.
    engine.solver_stats = Default::default();
    let p = block(engine, args)?;
    args.finish()?;
    // Ladders are λ¹ by definition: plain df-pn restricted to ataris.
    // Otherwise dual-λ through the orders, then df-pn.
    let opts = Options {
        ladder,
        avoid_root_pass: side == Side::Defender,
        algo: if ladder {
            Algo::Dfpn
        } else {
            engine.solver_algo
        },
        max_order: 0,
        forced: engine.solver_forced,
        // A code proven as a lower bound beats no answer (`ko_codes`).
        ko_bound: true,
        heuristic_only: false,
        rounds: engine.solver_rounds,
    };
    let limits = super::cmd_reading::scaled(engine.solver_limits, engine.depth_steps);
    gnugo_answer(&run(engine, p, side, None, None, opts, limits, false, None).result)
}

fn attack(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    gnugo_command(engine, args, Side::Attacker, false)
}

fn defend(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    gnugo_command(engine, args, Side::Defender, false)
}

fn ladder_attack(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    gnugo_command(engine, args, Side::Attacker, true)
}

/// A `key=value` option token.
fn option(token: &str) -> Result<(&str, &str), String> {
    token
        .split_once('=')
        .ok_or_else(|| parse::SYNTAX_ERROR.to_string())
}

fn node_count(v: &str) -> Result<u64, String> {
    u64::try_from(parse::int(v)?).map_err(|_| parse::INTEGER_OUT_OF_RANGE.to_string())
}

/// Seconds, from 0 to a billion.
fn seconds(v: &str) -> Result<Duration, String> {
    let s = parse::float(v)?;
    if !(0.0..=1e9).contains(&s) {
        return Err(parse::FLOAT_OUT_OF_RANGE.into());
    }
    Ok(Duration::from_secs_f64(s))
}

/// A `solve` question as its arguments put it: `capture|escape POINT` and
/// the options. `solve` and GoGui's `tesuji-gfx_solve` read and run it
/// alike and differ only in how they answer.
pub(super) struct SolveRequest {
    pub side: Side,
    pub block: Point,
    limits: Limits,
    escape: Option<usize>,
    pub algo: Algo,
    max_order: u8,
    model: Option<Favour>,
    /// `profile=N`: count where the nodes went (see [`run`]).
    profile: Option<usize>,
    /// `rounds=on|off`, else `tesuji-solver_limits`' setting.
    rounds: Option<bool>,
}

/// Reads the arguments of `solve`; clears the statistics first, so that a
/// command that fails leaves none.
pub(super) fn solve_request(engine: &mut Engine, args: &mut Args) -> Result<SolveRequest, String> {
    engine.solver_stats = Default::default();
    let side = match args.string()? {
        "capture" => Side::Attacker,
        "escape" => Side::Defender,
        _ => return Err("unknown problem (capture or escape)".into()),
    };

    let block = block(engine, args)?;
    let mut limits = engine.solver_limits;
    let mut escape = None;
    let mut algo = engine.solver_algo;
    let mut max_order = 0;
    let mut model = None;
    let mut profile = None;
    let mut rounds = None;
    for token in args.remaining() {
        let (key, value) = option(token)?;
        match key {
            "algo" => algo = Algo::parse(value).ok_or("unknown algorithm")?,
            "max_order" => {
                let n = parse::uint(value)?;
                if !(1..=15).contains(&n) {
                    return Err(parse::INTEGER_OUT_OF_RANGE.into());
                }
                max_order = n as u8;
            }
            "model" => model = Some(Favour::parse(value).ok_or(parse::SYNTAX_ERROR)?),
            "profile" => {
                let n = parse::uint(value)?;
                if !(1..=MAX_PREFIX as u32).contains(&n) {
                    return Err(parse::INTEGER_OUT_OF_RANGE.into());
                }
                profile = Some(n as usize);
            }
            "nodes" => limits.nodes = node_count(value)?,
            "time" => limits.time = Some(seconds(value)?),
            "rounds" => rounds = Some(rounds_switch(value)?),
            "escape" => {
                let libs = parse::uint(value)?;
                if libs == 0 {
                    return Err(parse::INTEGER_OUT_OF_RANGE.into());
                }
                escape = Some(libs as usize);
            }
            _ => return Err(parse::SYNTAX_ERROR.into()),
        }
    }
    Ok(SolveRequest {
        side,
        block,
        limits,
        escape,
        algo,
        max_order,
        model,
        profile,
        rounds,
    })
}

/// `rounds=on|off`.
fn rounds_switch(v: &str) -> Result<bool, String> {
    parse::on_off(v).ok_or_else(|| "rounds is on or off".into())
}

/// Solves a request; `live` shows the search on stderr as it runs.
pub(super) fn run_solve(engine: &mut Engine, req: &SolveRequest, live: bool) -> Solved {
    let opts = Options {
        ladder: false,
        avoid_root_pass: req.side == Side::Defender,
        algo: req.algo,
        max_order: req.max_order,
        forced: engine.solver_forced,
        // A code proven as a lower bound beats no answer (`ko_codes`).
        ko_bound: true,
        heuristic_only: false,
        rounds: req.rounds.unwrap_or(engine.solver_rounds),
    };
    run(
        engine,
        req.block,
        req.side,
        req.escape,
        req.model,
        opts,
        req.limits,
        live,
        req.profile,
    )
}

/// A limit's name in `solve`'s `reason` and `ko_reason` fields.
fn limit_name(why: Limit) -> &'static str {
    match why {
        Limit::Interrupted => "interrupted",
        Limit::Time => "time",
        Limit::Orders => "orders",
        Limit::Nodes => "nodes",
    }
}

/// The answer line of `solve` (its grammar is in `protocol/commands.md`).
pub(super) fn solve_answer(s: &Solved, algo: Algo) -> String {
    let r = &s.result;
    // With `model=`, the verdict is that model's, and the ko code is given
    // only when the result met no ko ban (it then holds under every model).
    let verdict = match s.model {
        None => r.code.map(|c| c > 0),
        Some((_, wins)) => wins,
    };
    let mut out = match (verdict, r.stopped_by) {
        (Some(false), _) => "loss".to_string(),
        (Some(true), _) => format!("win {}", move_name(r.best.unwrap_or(PASS))),
        (None, why) => format!("unknown reason={}", limit_name(why.unwrap_or(Limit::Nodes))),
    };
    if let Some(code) = r.code {
        let _ = write!(out, " ko={code}");
    }
    if let Some(why) = r.bound {
        let _ = write!(out, " ko_reason={}", limit_name(why));
    }
    if let Some((f, _)) = s.model {
        let _ = write!(out, " model={}", f.name());
    }
    let order = match r.order {
        0 => "-".to_string(),
        n => n.to_string(),
    };
    let _ = write!(
        out,
        " algo={} order={order} nodes={} time_ms={}",
        algo.name(),
        r.nodes,
        r.elapsed.as_millis()
    );
    if verdict.is_some() {
        let pv: Vec<String> = r.pv.iter().map(|&m| move_name(m)).collect();
        let pv = if pv.is_empty() {
            "-".into()
        } else {
            pv.join(",")
        };
        let _ = write!(out, " pv={pv}");
    }
    out
}

/// `solve`: `win` asks the whole-game question of the games other than Go
/// (`cmd_game_solve`); `capture` and `escape` are Go's capture game, on
/// the Go board (in another game, the one kept in the background).
fn solve(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    engine.solver_stats = Default::default();
    if super::cmd_game_solve::is_win(args) {
        return super::cmd_game_solve::solve_win(engine, args);
    }
    match args.remaining().first().map(String::as_str) {
        Some("capture" | "escape") => {}
        Some(_) => return Err("unknown problem (capture, escape or win)".into()),
        None => return Err(parse::SYNTAX_ERROR.into()),
    }
    let req = solve_request(engine, args)?;
    Ok(solve_answer(&run_solve(engine, &req, false), req.algo))
}

fn describe(l: &Limits, algo: Algo) -> String {
    let time = l
        .time
        .map_or("none".to_string(), |t| format!("{}", t.as_secs_f64()));
    format!("nodes={} time={time} algo={}", l.nodes, algo.name())
}

fn solver_limits(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let mut limits = engine.solver_limits;
    let mut algo = engine.solver_algo;
    let mut forced = engine.solver_forced;
    let mut rounds = engine.solver_rounds;
    for token in args.remaining() {
        let (key, value) = option(token)?;
        match key {
            "nodes" => limits.nodes = node_count(value)?,
            "time" => limits.time = Some(seconds(value)?),
            "algo" => algo = Algo::parse(value).ok_or("unknown algorithm")?,
            "forced" => {
                forced = match value {
                    "on" => Forced::On,
                    "off" => Forced::Off,
                    "split" => Forced::Split,
                    _ => return Err("forced is on, off or split".into()),
                }
            }
            "rounds" => rounds = rounds_switch(value)?,
            _ => return Err(parse::SYNTAX_ERROR.into()),
        }
    }
    engine.solver_forced = forced;
    engine.solver_rounds = rounds;
    engine.solver_limits = limits;
    engine.solver_algo = algo;
    Ok(describe(&limits, algo))
}

fn solver_stats(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    let SolverStats {
        nodes,
        elapsed,
        cpu,
    } = engine.solver_stats;
    let per_second = |d: Duration| {
        let secs = d.as_secs_f64();
        if secs > 0.0 {
            (nodes as f64 / secs) as u64
        } else {
            0
        }
    };
    let cpu = cpu.unwrap_or(Duration::ZERO);
    Ok(format!(
        "nodes={nodes} time_ms={} nps={} cpu_time_ms={} cpu_nps={}",
        elapsed.as_millis(),
        per_second(elapsed),
        cpu.as_millis(),
        per_second(cpu)
    ))
}
