//! `tesuji solve --game GAME [--algo ALGO] [--nodes N] [--time SECONDS]
//! [--memory MB]`: solves a game's start position and prints one line,
//!
//! ```text
//! win B1 algo=alphabeta nodes=123456 time_ms=789 peak_memory=134217728
//! ```
//!
//! the value from the first player's view (`win`, `loss`, `draw` or
//! `unknown`), the best first move as a vertex (`-` when there is none),
//! then `key=value` fields; `reason=` (nodes, time, memory, interrupted)
//! when the value is unknown.

use super::{solve, Algo, Limits, Report};
use crate::games::domineering::{self, Domineering};
use crate::games::spec::GameSpec;
use crate::games::{Color, Game, Outcome};
use std::process::ExitCode;
use std::time::Duration;

pub const USAGE: &str = "tesuji solve --game GAME [--algo ALGO] [--nodes N] [--time SECONDS] \
[--memory MB]";

/// The algorithm when `--algo` is not given and the game has no solver of
/// its own.
pub const DEFAULT_ALGO: Algo = Algo::AlphaBeta;

/// The parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    pub game: GameSpec,
    /// `None`: the game's own solver where it has one (Domineering,
    /// [`crate::games::domineering::solver`]), else [`DEFAULT_ALGO`].
    pub algo: Option<Algo>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub memory: Option<usize>,
}

pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut game = None;
    let mut algo = None;
    let (mut nodes, mut time, mut memory) = (None, None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .as_str();
        match flag.as_str() {
            "--game" => game = Some(GameSpec::parse(value)?),
            "--algo" => {
                algo = Some(Algo::parse(value).ok_or_else(|| format!("unknown algorithm {value}"))?)
            }
            "--nodes" => {
                nodes = Some(
                    value
                        .parse()
                        .map_err(|_| format!("bad node count {value}"))?,
                )
            }
            "--time" => {
                let s: f64 = value.parse().map_err(|_| format!("bad time {value}"))?;
                if !(s.is_finite() && s >= 0.0) {
                    return Err(format!("bad time {value}"));
                }
                time = Some(Duration::from_secs_f64(s));
            }
            "--memory" => {
                let mb: usize = value.parse().map_err(|_| format!("bad size {value}"))?;
                memory = Some(mb << 20);
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let game = game.ok_or("--game is required")?;
    Ok(Args {
        game,
        algo,
        nodes,
        time,
        memory,
    })
}

/// The result line for `report` on `game`'s start position.
pub fn format_report<G: Game>(game: &G, algo: &str, r: &Report<G::Move>) -> String {
    // Reports are for the player to move; the line is the first player's.
    let first = |o: Outcome| {
        if game.to_move() == Color::Black {
            o
        } else {
            o.flip()
        }
    };
    let best = r.best.map(|m| game.format_move(m));
    format_line(r.value.map(first), best.as_deref(), algo, r)
}

/// The result line: `value` (from whichever view the caller chose), the
/// move as text (`-` when there is none), and `r`'s counters. GTP's
/// `solve win` answers with the same line, from the mover's view.
pub fn format_line<M>(
    value: Option<Outcome>,
    best: Option<&str>,
    algo: &str,
    r: &Report<M>,
) -> String {
    let value = match value {
        Some(Outcome::Win) => "win",
        Some(Outcome::Loss) => "loss",
        Some(Outcome::Draw) => "draw",
        None => "unknown",
    };
    let mut line = format!(
        "{value} {} algo={} nodes={} time_ms={} peak_memory={}",
        best.unwrap_or("-"),
        algo,
        r.nodes,
        r.elapsed.as_millis(),
        r.peak_memory
    );
    if let Some(s) = r.stopped {
        line.push_str(&format!(" reason={}", s.name()));
    }
    line
}

fn limits(args: &Args) -> Limits<'static> {
    Limits {
        nodes: args.nodes,
        time: args.time,
        memory: args.memory,
        interrupt: None,
    }
}

fn run<G: Game>(game: &G, args: &Args) -> Result<String, String> {
    let algo = args.algo.unwrap_or(DEFAULT_ALGO);
    let report = solve(algo, game, &limits(args))?;
    Ok(format_report(game, algo.name(), &report))
}

/// The answer of Domineering's own solver, the default for that game.
fn run_domineering(game: &Domineering, args: &Args) -> String {
    let report = domineering::solver::solve(game, &limits(args));
    format_report(game, domineering::solver::NAME, &report)
}

/// Solves and prints; the exit code is 2 for a bad command line, 1 when
/// the algorithm cannot run.
pub fn main(args: &[String]) -> ExitCode {
    let args = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tesuji solve: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    if let (GameSpec::Domineering { rows, cols }, None) = (&args.game, args.algo) {
        println!(
            "{}",
            run_domineering(&Domineering::new(*rows, *cols), &args)
        );
        return ExitCode::SUCCESS;
    }
    struct Run<'a>(&'a Args);
    impl crate::games::spec::Visit for Run<'_> {
        type Out = Result<String, String>;
        fn visit<G: Game>(self, game: G) -> Self::Out {
            run(&game, self.0)
        }
    }
    let result = args.game.build(Run(&args));
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tesuji solve: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_flags() {
        let a = parse_args(&strings(&[
            "--game",
            "domineering:4x5",
            "--algo",
            "dfpn",
            "--nodes",
            "1000",
            "--time",
            "1.5",
            "--memory",
            "16",
        ]))
        .unwrap();
        assert_eq!(a.game, GameSpec::Domineering { rows: 4, cols: 5 });
        assert_eq!(a.algo, Some(Algo::Dfpn));
        assert_eq!(a.nodes, Some(1000));
        assert_eq!(a.time, Some(Duration::from_millis(1500)));
        assert_eq!(a.memory, Some(16 << 20));
        assert!(parse_args(&strings(&["--algo", "pns"])).is_err());
        assert!(parse_args(&strings(&["--game", "domineering:4x5", "--algo", "x"])).is_err());
        assert!(parse_args(&strings(&["--game"])).is_err());
    }

    #[test]
    fn prints_one_line_from_the_first_players_view() {
        let g = Domineering::new(4, 4);
        let args = parse_args(&strings(&["--game", "domineering:4x4"])).unwrap();
        let line = run(&g, &args).unwrap();
        // 4×4: the first player wins (Lachmann, Moore & Rapaport 2002).
        assert!(line.starts_with("win "), "{line}");
        assert!(line.contains(" algo=alphabeta nodes="), "{line}");
        // Without --algo, Domineering has its own solver.
        assert_eq!(args.algo, None);
        let line = run_domineering(&g, &args);
        assert!(line.starts_with("win "), "{line}");
        assert!(line.contains(" algo=domineering nodes="), "{line}");
        let stopped =
            parse_args(&strings(&["--game", "domineering:6x6", "--nodes", "10"])).unwrap();
        let line = run_domineering(&Domineering::new(6, 6), &stopped);
        assert!(line.starts_with("unknown - "), "{line}");
        let line = run(&Domineering::new(6, 6), &stopped).unwrap();
        assert!(line.starts_with("unknown - "), "{line}");
        assert!(line.ends_with(" reason=nodes"), "{line}");
    }
}
