//! `tesuji bench`: reproduces Tables 4–7 of seed 001 (Saffidine &
//! Cazenave, "Developments on Product Propagation", CG 2013) — the node
//! expansions and times of αβ, PNS with transpositions (PNT), PN², PP, PPT
//! and PP² solving Domineering 5×6, 6×6, 7×6 and NoGo 4×4, 18×1, 20×1,
//! 22×1 — and prints our numbers beside the paper's, one row per board and
//! algorithm (`--csv` for CSV), with progress on stderr and, at the end, a
//! node-count signature (the sum of the rows' nodes, as Stockfish's
//! `bench`; rows stopped on the clock are left out, since how far they got
//! depends on the machine and its load).
//!
//! Board orientation: the paper writes `R×C` and says the first player
//! places vertical dominoes; the issue fixes rows×columns with vertical
//! first and lists 5×6 and 7×6 as horizontal (second-player) wins, which is
//! [`GameSpec`]'s `domineering:RxC`. NoGo boards are the same game either
//! way round.
//!
//! Times: `seconds` is the wall time of the solve, `cpu` the solving
//! thread's CPU time (setup included); `speedup` and `spd.cpu` divide the
//! paper's seconds by each, and `kn/s` is expansions at every level per
//! CPU second. On a shared machine the CPU time is the solver's own speed;
//! the wall time also counts the time other processes held the cores.
//!
//! Short rows are timed more than once: a row whose first run took less
//! than [`REPEAT_BELOW`] seconds of CPU is run again, up to `--runs` times
//! in all (and while the runs add up to less than [`REPEAT_TOTAL`]), and
//! shows the median of its runs' times. Each run is a whole solve, setup
//! included. On this shared two-core machine a row of a few tenths of a
//! second took up to 1.6 times its usual CPU time in single runs (another
//! process's load on the shared caches: the thread's system time and page
//! faults stayed small, see [`bench_usage`](super::bench_usage), whose
//! numbers stderr shows for every row). Every run must find the same value and node
//! count (the counts are deterministic), else the row is a `MISMATCH`. A
//! process that solves again reuses the memory of its earlier searches
//! (see [`pool`](super::pool)); the first run of a row does so too, after
//! the rows before it.
//!
//! Row time limits: `--time` for every row; without it, 60 s, except that
//! a row whose published time is more than a hundred times that gets 1% of
//! its published time (PN² on NoGo 4×4: 27,519 s in the paper, so 275 s
//! here; it needs about 80 s of CPU, more wall time on a loaded machine).
//! Any solve within such a limit is at least a hundredfold faster than the
//! paper's, and the whole bench stays within minutes.
//!
//! Every value reported as solved is checked: against [`TRUTH`] where a
//! published value exists, and against the other algorithms' answers on the
//! same board everywhere; a disagreement prints `MISMATCH` and makes the
//! command fail.

use super::bench_usage::{describe, thread_usage, Usage};
use super::bestfirst::{drive, memory, solve_with, Detail};
use super::mcts_solver::Mcts;
use super::pns::PnRule;
use super::pp::PpRule;
use super::{Algo, Limits, Report, Stopped};
use crate::games::spec::GameSpec;
use crate::games::{Game, Outcome};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// A number of the paper's tables: a value, a lower bound (`> x`: the run
/// was stopped there), or an empty cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paper {
    Is(f64),
    Over(f64),
    Empty,
}

use Paper::{Empty, Is, Over};

/// The paper's boards (columns of Tables 4–7), as game specs.
pub const BOARDS: [&str; 7] = [
    "domineering:5x6",
    "domineering:6x6",
    "domineering:7x6",
    "nogo:4x4",
    "nogo:18x1",
    "nogo:20x1",
    "nogo:22x1",
];

/// Algorithms of the tables, then ours that the paper does not have.
pub const ALGOS: [Algo; 9] = [
    Algo::AlphaBeta,
    Algo::Pns,
    Algo::Pn2,
    Algo::Pp,
    Algo::Ppt,
    Algo::Pp2,
    Algo::NegaScout,
    Algo::Dfpn,
    Algo::MctsSolver,
];

/// Seed 001, Tables 4 and 6 (node expansions) and 5 and 7 (seconds), per
/// board of [`BOARDS`] and algorithm (αβ, PNT, PN², PP, PPT, PP²), as
/// (nodes, seconds). Transcribed from the seed's text extraction, where
/// empty cells are lost and values slide left: a row with fewer values than
/// columns is read left-aligned, except PP² on NoGo (one value, 14,246
/// nodes / 109.7 s), placed under 18×1, the board where PP itself works
/// (its column is uncertain). Table 5's duplicated PPT line is an
/// extraction artefact and is ignored.
pub const PAPER: [(&str, Algo, Paper, Paper); 42] = [
    ("domineering:5x6", Algo::AlphaBeta, Is(701_559.0), Is(0.87)),
    (
        "domineering:6x6",
        Algo::AlphaBeta,
        Is(38_907_049.0),
        Is(40.68),
    ),
    (
        "domineering:7x6",
        Algo::AlphaBeta,
        Is(6_387_283_988.0),
        Is(5656.0),
    ),
    ("domineering:5x6", Algo::Pns, Is(1_002_277.0), Is(5.92)),
    ("domineering:6x6", Algo::Pns, Over(1e7), Empty),
    ("domineering:7x6", Algo::Pns, Over(1e7), Empty),
    ("domineering:5x6", Algo::Pn2, Is(17_236.0), Is(78.7)),
    (
        "domineering:6x6",
        Algo::Pn2,
        Over(154_107.0),
        Over(10_660.0),
    ),
    (
        "domineering:7x6",
        Algo::Pn2,
        Over(511_568.0),
        Over(153_000.0),
    ),
    ("domineering:5x6", Algo::Pp, Is(101_244.0), Is(0.24)),
    ("domineering:6x6", Algo::Pp, Is(5_525_608.0), Is(20.1)),
    ("domineering:7x6", Algo::Pp, Over(1e7), Over(35.84)),
    ("domineering:5x6", Algo::Ppt, Is(27_766.0), Is(0.17)),
    ("domineering:6x6", Algo::Ppt, Is(528_032.0), Is(5.33)),
    ("domineering:7x6", Algo::Ppt, Is(4_294_785.0), Is(55.13)),
    ("domineering:5x6", Algo::Pp2, Is(3_634.0), Is(0.22)),
    ("domineering:6x6", Algo::Pp2, Is(24_190.0), Is(15.5)),
    ("domineering:7x6", Algo::Pp2, Is(145_757.0), Is(320.3)),
    ("nogo:4x4", Algo::AlphaBeta, Is(17_194_590.0), Is(33.05)),
    ("nogo:18x1", Algo::AlphaBeta, Is(4_444_384.0), Is(10.43)),
    ("nogo:20x1", Algo::AlphaBeta, Is(154_006_001.0), Is(361.0)),
    (
        "nogo:22x1",
        Algo::AlphaBeta,
        Is(3_133_818_285.0),
        Is(7564.0),
    ),
    ("nogo:4x4", Algo::Pns, Is(3_575_076.0), Is(436.6)),
    ("nogo:18x1", Algo::Pns, Is(2_015_179.0), Is(144.2)),
    ("nogo:20x1", Algo::Pns, Over(1e7), Over(809.0)),
    ("nogo:22x1", Algo::Pns, Over(1e7), Empty),
    ("nogo:4x4", Algo::Pn2, Is(77_010.0), Is(27_519.0)),
    ("nogo:18x1", Algo::Pn2, Over(22_679.0), Over(3_607.0)),
    ("nogo:20x1", Algo::Pn2, Over(29_098.0), Over(4_583.0)),
    ("nogo:22x1", Algo::Pn2, Empty, Empty),
    ("nogo:4x4", Algo::Pp, Over(1e7), Over(338.84)),
    ("nogo:18x1", Algo::Pp, Is(864_951.0), Is(21.39)),
    ("nogo:20x1", Algo::Pp, Is(6_173_393.0), Is(156.3)),
    ("nogo:22x1", Algo::Pp, Over(1e7), Over(307.55)),
    ("nogo:4x4", Algo::Ppt, Is(2_319_816.0), Is(396.36)),
    ("nogo:18x1", Algo::Ppt, Is(98_991.0), Is(9.46)),
    ("nogo:20x1", Algo::Ppt, Is(389_119.0), Is(46.3)),
    ("nogo:22x1", Algo::Ppt, Is(2_814_553.0), Is(446.58)),
    ("nogo:4x4", Algo::Pp2, Empty, Empty),
    ("nogo:18x1", Algo::Pp2, Is(14_246.0), Is(109.7)),
    ("nogo:20x1", Algo::Pp2, Empty, Empty),
    ("nogo:22x1", Algo::Pp2, Empty, Empty),
];

/// Published values from the first player's view, with their sources.
pub const TRUTH: [(&str, Outcome, &str); 4] = [
    (
        "domineering:5x6",
        Outcome::Loss,
        "issue 4's list: 5x6 horizontal (second player) wins",
    ),
    (
        "domineering:6x6",
        Outcome::Win,
        "issue 4's list: 6x6 first player wins",
    ),
    (
        "domineering:7x6",
        Outcome::Loss,
        "issue 4's list: 7x6 horizontal (second player) wins",
    ),
    (
        "nogo:4x4",
        Outcome::Loss,
        "issue 4's list (Mueller's table of solved NoGo boards): 4x4 second player wins",
    ),
];

/// The paper's (nodes, seconds) for a board and algorithm.
pub fn paper(board: &str, algo: Algo) -> (Paper, Paper) {
    PAPER
        .iter()
        .find(|(b, a, _, _)| *b == board && *a == algo)
        .map_or((Empty, Empty), |&(_, _, n, t)| (n, t))
}

/// The published value of a board, if any.
pub fn truth(board: &str) -> Option<(Outcome, &'static str)> {
    TRUTH
        .iter()
        .find(|(b, _, _)| *b == board)
        .map(|&(_, o, s)| (o, s))
}

/// One result: the first player's value and counters.
pub struct Run {
    pub value: Option<Outcome>,
    pub stopped: Option<Stopped>,
    pub nodes: u64,
    pub work: u64,
    pub elapsed: Duration,
    pub peak_memory: usize,
}

fn run_of<M>(d: Detail<M>) -> Run {
    let Report {
        value,
        stopped,
        nodes,
        elapsed,
        peak_memory,
        ..
    } = d.report;
    Run {
        value,
        stopped,
        nodes,
        work: d.work,
        elapsed,
        peak_memory,
    }
}

/// Runs one algorithm on a game; `None` when the algorithm cannot solve
/// it (a game whose positions repeat).
pub fn run_game<G: Game>(algo: Algo, game: &G, limits: &Limits) -> Option<Run> {
    let d = match algo {
        Algo::Pns => solve_with(PnRule, game, limits, true, false),
        Algo::Pn2 => solve_with(PnRule, game, limits, false, true),
        Algo::Pp => solve_with(PpRule, game, limits, false, false),
        Algo::Ppt => solve_with(PpRule, game, limits, true, false),
        Algo::Pp2 => solve_with(PpRule, game, limits, false, true),
        Algo::MctsSolver => drive(&mut Mcts::new(memory(limits)), game, limits),
        Algo::AlphaBeta | Algo::NegaScout | Algo::Dfpn => {
            // The depth-first solvers count one node per searched position:
            // their work is their node count.
            let r = super::solve(algo, game, limits).ok()?;
            return Some(Run {
                value: r.value,
                stopped: r.stopped,
                nodes: r.nodes,
                work: r.nodes,
                elapsed: r.elapsed,
                peak_memory: r.peak_memory,
            });
        }
    };
    Some(run_of(d))
}

/// CPU time used so far by the calling thread (Linux
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`; `None` elsewhere). The bench
/// shows it beside the wall time: on a shared machine the wall time of a
/// run measures the other processes as much as the solver.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            tv_sec: i64,
            tv_nsec: i64,
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        extern "C" {
            fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
        }
        let mut ts = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the call.
        if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32));
        }
    }
    None
}

/// Builds the game of `spec` and runs `algo` on it.
pub fn run_spec(spec: &str, algo: Algo, limits: &Limits) -> Result<Option<Run>, String> {
    struct OnGame<'a>(Algo, &'a Limits<'a>);
    impl crate::games::spec::Visit for OnGame<'_> {
        type Out = Option<Run>;
        fn visit<G: Game>(self, game: G) -> Self::Out {
            run_game(self.0, &game, self.1)
        }
    }
    Ok(GameSpec::parse(spec)?.build(OnGame(algo, limits)))
}

fn paper_text(p: Paper, secs: bool) -> String {
    match p {
        Is(v) if secs => format!("{v}"),
        Is(v) => format!("{}", v as u64),
        Over(v) if secs => format!(">{v}"),
        Over(v) => format!(">{}", v as u64),
        Empty => "-".into(),
    }
}

fn value_text(v: Option<Outcome>, stopped: Option<Stopped>) -> String {
    match v {
        Some(Outcome::Win) => "win".into(),
        Some(Outcome::Loss) => "loss".into(),
        Some(Outcome::Draw) => "draw".into(),
        None => format!("unknown({})", stopped.map_or("?", Stopped::name)),
    }
}

const USAGE: &str = "usage: tesuji bench [--nodes N] [--time SECONDS] [--memory MB] [--csv] \
[--runs N] [--algo A,B,...] [--game SPEC,...]\n       tesuji bench player   (the Go player's benchmark)\n";

/// Options of `tesuji bench`.
pub struct Options {
    pub nodes: u64,
    pub time: f64,
    /// Whether rows with a very slow published time may run longer than
    /// `time` (see the module docs); `--time` turns it off.
    pub scaled_time: bool,
    /// Most runs of a short row (see [`REPEAT_BELOW`]).
    pub runs: usize,
    pub memory_mb: usize,
    pub csv: bool,
    pub algos: Vec<Algo>,
    pub boards: Vec<String>,
}

impl Default for Options {
    /// The paper's limit of 10^7 node expansions, 60 s and 2 GiB per run.
    fn default() -> Options {
        Options {
            nodes: 10_000_000,
            time: 60.0,
            scaled_time: true,
            runs: 5,
            memory_mb: 2048,
            csv: false,
            algos: ALGOS.to_vec(),
            boards: BOARDS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => o.nodes = value()?.parse().map_err(|_| "bad --nodes")?,
            "--time" => {
                o.time = value()?.parse().map_err(|_| "bad --time")?;
                o.scaled_time = false;
            }
            "--runs" => {
                o.runs = value()?.parse().map_err(|_| "bad --runs")?;
                if o.runs == 0 {
                    return Err("--runs must be at least 1".into());
                }
            }
            "--memory" => o.memory_mb = value()?.parse().map_err(|_| "bad --memory")?,
            "--csv" => o.csv = true,
            "--algo" => {
                o.algos = value()?
                    .split(',')
                    .map(|a| Algo::parse(a).ok_or_else(|| format!("unknown algorithm {a}")))
                    .collect::<Result<_, _>>()?
            }
            "--game" => o.boards = value()?.split(',').map(str::to_string).collect(),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

/// `tesuji bench [options]`.
pub fn main(args: &[String]) -> ExitCode {
    let opts = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprint!("tesuji bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    match bench(&opts, &mut out) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("tesuji bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Rows whose first run took less CPU time than this many seconds are
/// run again (see the module docs).
pub const REPEAT_BELOW: f64 = 1.0;

/// CPU seconds after which a short row is not run again.
pub const REPEAT_TOTAL: f64 = 3.0;

/// The time limit of a row whose published time is `paper` seconds (see
/// the module docs).
pub fn row_time(opts: &Options, paper: Paper) -> f64 {
    match paper {
        Is(p) if opts.scaled_time && p / 100.0 > opts.time => p / 100.0,
        _ => opts.time,
    }
}

/// The median of some durations (the upper one of an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs the bench; returns the number of mismatches.
pub fn bench(opts: &Options, out: &mut impl Write) -> std::io::Result<usize> {
    let total = opts.boards.len() * opts.algos.len();
    let mut mismatches = 0;
    let mut signature = 0u64;
    let mut clocked = 0;
    if opts.csv {
        writeln!(
            out,
            "game,algo,result,nodes,paper_nodes,seconds,cpu_seconds,paper_seconds,work,knodes_per_s,peak_mb,check"
        )?;
    } else {
        writeln!(
            out,
            "{:<16} {:<11} {:<16} {:>12} {:>14} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7} {:>8}  check",
            "game",
            "algo",
            "result",
            "nodes",
            "paper",
            "seconds",
            "cpu",
            "paper",
            "x.nodes",
            "speedup",
            "spd.cpu",
            "kn/s"
        )?;
    }
    let mut index = 0;
    for board in &opts.boards {
        // The first solved value on this board, to cross-check the others.
        let mut agreed: Option<(Outcome, Algo)> = None;
        for &algo in &opts.algos {
            index += 1;
            eprintln!("[{index}/{total}] {board} {} ...", algo.name());
            let (p_nodes, p_secs) = paper(board, algo);
            let limits = Limits {
                nodes: Some(opts.nodes),
                time: Some(Duration::from_secs_f64(row_time(opts, p_secs))),
                memory: Some(opts.memory_mb << 20),
                interrupt: None,
            };
            // Each run's wall and CPU seconds; the first run's results,
            // which every other run must repeat.
            let (mut walls, mut cpus) = (Vec::new(), Vec::new());
            let mut first: Option<Run> = None;
            let mut unstable = false;
            let mut usage = Usage::default();
            while walls.len() < opts.runs
                && (walls.is_empty()
                    || (cpus[0] < REPEAT_BELOW && cpus.iter().sum::<f64>() < REPEAT_TOTAL))
            {
                let usage_start = thread_usage();
                let cpu_start = thread_cpu_time();
                let run = match run_spec(board, algo, &limits) {
                    Ok(Some(run)) => run,
                    Ok(None) => {
                        eprintln!("  {} cannot solve {board}", algo.name());
                        break;
                    }
                    Err(e) => {
                        eprintln!("  {board}: {e}");
                        break;
                    }
                };
                let secs = run.elapsed.as_secs_f64();
                // The solver's CPU time (setup included), or the wall time
                // where the platform has no thread clock.
                let cpu = match (cpu_start, thread_cpu_time()) {
                    (Some(a), Some(b)) => (b - a).as_secs_f64(),
                    _ => secs,
                };
                if let (Some(a), Some(b)) = (usage_start, thread_usage()) {
                    usage += b - a;
                }
                walls.push(secs);
                cpus.push(cpu);
                let on_clock = run.stopped == Some(Stopped::Time);
                match &first {
                    None => first = Some(run),
                    Some(f) => {
                        unstable |=
                            (f.value, f.nodes, f.stopped) != (run.value, run.nodes, run.stopped)
                    }
                }
                if on_clock {
                    // A run on the clock is as long as the limit: once is enough.
                    break;
                }
            }
            let Some(run) = first else { continue };
            let runs = walls.len();
            let (secs, cpu) = (median(walls), median(cpus));
            if runs > 1 {
                eprintln!("  {runs} runs; times are their medians");
            }
            eprintln!("{}", describe(&usage, runs));
            let check = match run.value {
                None => "-".to_string(),
                Some(v) => {
                    let mut verdict = String::new();
                    if let Some((t, source)) = truth(board) {
                        if t == v {
                            verdict = "ok".into();
                        } else {
                            verdict = format!("MISMATCH (published: {t:?}, {source})");
                        }
                    }
                    match agreed {
                        Some((a, by)) if a != v => {
                            verdict = format!("MISMATCH (vs {} {a:?}) {verdict}", by.name());
                        }
                        None => agreed = Some((v, algo)),
                        _ => {}
                    }
                    if verdict.is_empty() {
                        verdict = "agrees (no published value)".into();
                    }
                    verdict
                }
            };
            let check = if unstable {
                format!("MISMATCH (runs differ) {check}")
            } else {
                check
            };
            if check.starts_with("MISMATCH") {
                mismatches += 1;
                eprintln!("*** {board} {}: {check}", algo.name());
            }
            // How far a row stopped by the clock got depends on the machine
            // and its load; leaving it out keeps the signature a function of
            // the code alone whenever the same rows finish.
            if run.stopped == Some(Stopped::Time) {
                clocked += 1;
            } else {
                signature += run.nodes;
            }
            let ratio = match p_nodes {
                Is(p) if run.value.is_some() => format!("{:.2}", run.nodes as f64 / p),
                _ => "-".into(),
            };
            let speedup = |ours: f64| match p_secs {
                Is(p) if run.value.is_some() => format!("{:.0}", p / ours.max(1e-6)),
                _ => "-".into(),
            };
            let (speedup, speedup_cpu) = (speedup(secs), speedup(cpu));
            let knps = run.work as f64 / cpu.max(1e-9) / 1000.0;
            let result = value_text(run.value, run.stopped);
            if opts.csv {
                writeln!(
                    out,
                    "{board},{},{result},{},{},{secs:.3},{cpu:.3},{},{},{knps:.0},{:.1},{check}",
                    algo.name(),
                    run.nodes,
                    paper_text(p_nodes, false),
                    paper_text(p_secs, true),
                    run.work,
                    run.peak_memory as f64 / (1 << 20) as f64,
                )?;
            } else {
                writeln!(
                    out,
                    "{board:<16} {:<11} {result:<16} {:>12} {:>14} {secs:>9.3} {cpu:>9.3} {:>9} {ratio:>7} {speedup:>7} {speedup_cpu:>7} {knps:>8.0}  {check}",
                    algo.name(),
                    run.nodes,
                    paper_text(p_nodes, false),
                    paper_text(p_secs, true),
                )?;
            }
            out.flush()?;
        }
    }
    writeln!(out, "signature {signature}")?;
    if clocked > 0 {
        writeln!(
            out,
            "note: {clocked} run(s) stopped on the clock and are left out of the signature"
        )?;
    }
    if mismatches > 0 {
        writeln!(out, "ERROR: {mismatches} solved value(s) disagree")?;
    }
    Ok(mismatches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_table_is_complete() {
        for board in BOARDS {
            for algo in [
                Algo::AlphaBeta,
                Algo::Pns,
                Algo::Pn2,
                Algo::Pp,
                Algo::Ppt,
                Algo::Pp2,
            ] {
                assert_eq!(
                    PAPER
                        .iter()
                        .filter(|(b, a, _, _)| *b == board && *a == algo)
                        .count(),
                    1,
                    "{board} {}",
                    algo.name()
                );
            }
        }
        assert_eq!(
            paper("domineering:6x6", Algo::Ppt),
            (Is(528_032.0), Is(5.33))
        );
    }

    #[test]
    fn very_slow_paper_rows_get_longer_limits_unless_the_time_is_given() {
        let mut opts = Options::default();
        let (_, pn2_nogo) = paper("nogo:4x4", Algo::Pn2);
        assert_eq!(row_time(&opts, pn2_nogo), 275.19);
        assert_eq!(row_time(&opts, Is(320.3)), 60.0);
        assert_eq!(row_time(&opts, Over(153_000.0)), 60.0);
        opts = parse_options(&["--time".into(), "20".into()]).unwrap();
        assert_eq!(row_time(&opts, pn2_nogo), 20.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
    }

    #[test]
    fn a_small_bench_checks_its_values() {
        let opts = Options {
            nodes: 200_000,
            time: 30.0,
            scaled_time: false,
            runs: 3,
            memory_mb: 256,
            csv: true,
            algos: vec![Algo::Ppt, Algo::Pp2],
            boards: vec!["domineering:5x6".into()],
        };
        let mut out = Vec::new();
        assert_eq!(bench(&opts, &mut out).unwrap(), 0);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.ends_with(",ok")).count(),
            2,
            "{text}"
        );
        assert!(text.contains("signature "));
    }
}
