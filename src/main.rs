//! The `tesuji` command: a GTP engine on stdin/stdout (the default), and
//! the `bench` (solvers; `bench player`: the Go player), `regress`,
//! `solve` and `match` subcommands.

use std::io::{self, BufReader, Write};
use std::process::ExitCode;
use tesuji::games::spec::GameSpec;
use tesuji::go::KoRule;
use tesuji::gtp::{server, Config, Engine};
use tesuji::search::random::DEFAULT_SEED;

const USAGE: &str =
    "usage: tesuji [gtp] [--ko simple|positional] [--resign-threshold POINTS|never] \
[--depth N] [--tt-mb N] [--mc N] [--game SPEC] [--player random|search|mcts] [--seed N]\n       tesuji bench [--nodes N] [--time SECONDS] [--memory MB] [--csv] \
[--algo A,B,...] [--game SPEC,...]\n       tesuji bench player\n       tesuji bench search [--depth D] [--plies P] [--positions N] [--seed S] [--game SPEC[@PLIES],...] [--fresh] [--cutoffs] [--aspiration] [--ordering full|history|none] [--blind-researches] [--stats]\n       \
tesuji solve --game GAME [--algo ALGO] [--nodes N] [--time SECONDS] [--memory MB]\n       \
tesuji regress [--engine PROFILE [--profiles PATH] | --engine-cmd \"CMD ARGS\"] \
[--timeout SECS] [--csv] [--engine-stderr] FILE.tst...\n       \
tesuji match --black PROFILE --white PROFILE --games N [options] (tesuji match --help)\n";

fn parse_gtp_flags(args: &[String]) -> Result<Config, String> {
    let mut config = Config::default();
    // The seed only matters to the random player, whichever flag comes first.
    let (mut random, mut seed) = (false, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--ko" => {
                let v = value()?;
                config.ko_rule = KoRule::parse(v).ok_or_else(|| format!("unknown ko rule {v}"))?;
            }
            "--resign-threshold" => {
                let v = value()?;
                config.resign_threshold = if v == "never" {
                    None
                } else {
                    Some(v.parse().map_err(|_| format!("bad threshold {v}"))?)
                };
            }
            "--depth" => {
                let v = value()?;
                config.max_depth = Some(v.parse().map_err(|_| format!("bad depth {v}"))?);
            }
            "--mc" => {
                let v = value()?;
                config.mc_playouts = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n <= tesuji::search::mc::MAX_PLAYOUTS)
                        .ok_or_else(|| format!("bad playout count {v}"))?,
                );
            }
            "--game" => {
                let v = value()?;
                config.game = Some(GameSpec::parse(v).map_err(|e| format!("bad game spec: {e}"))?);
            }
            "--player" => match value()?.as_str() {
                "random" => (random, config.mcts) = (true, false),
                "search" => (random, config.mcts) = (false, false),
                "mcts" => (random, config.mcts) = (false, true),
                v => return Err(format!("unknown player {v} (random, search or mcts)")),
            },
            "--seed" => {
                let v = value()?;
                seed = Some(v.parse().map_err(|_| format!("bad seed {v}"))?);
            }
            "--tt-mb" => {
                let v = value()?;
                config.tt_megabytes = v.parse().map_err(|_| format!("bad size {v}"))?;
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    config.random_seed = random.then(|| seed.unwrap_or(DEFAULT_SEED));
    Ok(config)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.first().map(String::as_str) {
        None => ("gtp", &args[..]),
        Some("--help") => ("help", &args[..]),
        Some(a) if a.starts_with("--") => ("gtp", &args[..]),
        Some(a) => (a, &args[1..]),
    };
    // `regress` and `match` print their own, longer usage.
    let asks_help = rest.iter().any(|a| a == "--help" || a == "-h");
    if asks_help && matches!(command, "gtp" | "bench" | "solve") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match command {
        "gtp" => {
            let config = match parse_gtp_flags(rest) {
                Ok(c) => c,
                Err(e) => {
                    eprint!("tesuji: {e}\n{USAGE}");
                    return ExitCode::from(2);
                }
            };
            let mut engine = Engine::new(config);
            let input = BufReader::new(io::stdin());
            if let Err(e) = server::run(&mut engine, input, io::stdout().lock()) {
                log::error!("i/o error: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        "bench" if rest.first().map(String::as_str) == Some("search") => {
            tesuji::solve::bench_search::main(&rest[1..])
        }
        "bench" if rest.first().map(String::as_str) != Some("player") => {
            tesuji::solve::bench::main(rest)
        }
        "bench" => {
            let signature = tesuji::search::bench::bench(&mut io::stdout().lock());
            println!("signature {signature}");
            let _ = io::stdout().flush();
            ExitCode::SUCCESS
        }
        "regress" => tesuji::regress::main(rest),
        "solve" => tesuji::solve::cli::main(rest),
        "match" => tesuji::tournament::main(rest),
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            eprint!("tesuji: unknown command {other}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
