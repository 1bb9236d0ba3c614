//! `tesuji match`: the command line.

use super::clock::TimeControl;
use super::game::GameSettings;
use super::runner::{self, MatchConfig};
use crate::engines::{find_profile, load_profiles};
use crate::games::spec::{GameSpec, DEFAULT_KOMI_X2};
use crate::go::KoRule;
use crate::gtp_client::StderrMode;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub const USAGE: &str = "usage: tesuji match --analyze FILE.dat\n       tesuji match --black PROFILE --white PROFILE --games N \
[--game SPEC | --size N] [--komi K] [--time MAIN_SECONDS] [--byoyomi SECONDS:STONES] \
[--grace SECONDS] [--move-timeout SECONDS] [--ko simple|positional] [--max-moves N] \
[--jobs J] [--referee PROFILE] [--out DIR] [--engines FILE] [--engine-stderr]\n";

fn secs(flag: &str, v: &str) -> Result<Duration, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!("{flag}: bad number of seconds {v}")),
    }
}

fn count(flag: &str, v: &str) -> Result<usize, String> {
    v.parse().map_err(|_| format!("{flag}: bad number {v}"))
}

/// Parses the arguments after `match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let (mut black, mut white, mut referee) = (None, None, None);
    let mut games = None;
    let (mut spec, mut size, mut komi) = (None, None, None);
    let (mut main, mut byo, mut grace) = (None, None, Duration::from_millis(500));
    let mut move_timeout = Duration::from_secs(60);
    let mut ko = KoRule::PositionalSuperko;
    let (mut max_moves, mut jobs) = (None, 1);
    let mut out = PathBuf::from("match");
    let mut engines = PathBuf::from("engines.toml");
    let mut stderr = StderrMode::Null;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--black" => black = Some(value()?.to_string()),
            "--white" => white = Some(value()?.to_string()),
            "--referee" => referee = Some(value()?.to_string()),
            "--games" => games = Some(count(flag, value()?)?),
            "--game" => spec = Some(GameSpec::parse(value()?).map_err(|e| format!("--game: {e}"))?),
            "--size" => size = Some(count(flag, value()?)?),
            "--komi" => {
                let v = value()?;
                let k: f64 = v.parse().map_err(|_| format!("--komi: bad komi {v}"))?;
                if !k.is_finite() || (k * 2.0).fract() != 0.0 {
                    return Err(format!("--komi: komi must be a multiple of 0.5, got {v}"));
                }
                komi = Some((k * 2.0) as i32);
            }
            "--time" => main = Some(secs(flag, value()?)?),
            "--byoyomi" => {
                let v = value()?;
                let (t, n) = v
                    .split_once(':')
                    .ok_or_else(|| format!("--byoyomi wants SECONDS:STONES, got {v}"))?;
                let stones: u32 = n
                    .parse()
                    .map_err(|_| format!("--byoyomi: bad stones {n}"))?;
                if stones == 0 {
                    return Err("--byoyomi: at least one stone per period".into());
                }
                byo = Some((secs(flag, t)?, stones));
            }
            "--grace" => grace = secs(flag, value()?)?,
            "--move-timeout" => move_timeout = secs(flag, value()?)?,
            "--ko" => {
                let v = value()?;
                ko = KoRule::parse(v).ok_or_else(|| format!("--ko: unknown ko rule {v}"))?;
            }
            "--max-moves" => max_moves = Some(count(flag, value()?)?),
            "--jobs" => jobs = count(flag, value()?)?.max(1),
            "--out" => out = PathBuf::from(value()?),
            "--engines" => engines = PathBuf::from(value()?),
            "--engine-stderr" => stderr = StderrMode::Inherit,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let games = games.ok_or("--games is required")?;
    let spec = match (spec, size) {
        (Some(_), Some(_)) => return Err("give --game or --size, not both".into()),
        (Some(GameSpec::Go { size, komi_x2 }), None) => GameSpec::Go {
            size,
            komi_x2: komi.unwrap_or(komi_x2),
        },
        (Some(other), None) => {
            if komi.is_some() {
                return Err("--komi only applies to Go".into());
            }
            other
        }
        (None, size) => {
            let s = size.unwrap_or(9);
            let text = format!("go:{s}");
            match GameSpec::parse(&text).map_err(|e| format!("--size: {e}"))? {
                GameSpec::Go { size, .. } => GameSpec::Go {
                    size,
                    komi_x2: komi.unwrap_or(DEFAULT_KOMI_X2),
                },
                _ => unreachable!("go:N parses as Go"),
            }
        }
    };
    let clock = match (main, byo) {
        (None, None) => None,
        (main, byo) => {
            let (byo_time, stones) = byo.unwrap_or((Duration::ZERO, 0));
            let main = main.unwrap_or(Duration::ZERO);
            if main.is_zero() && stones == 0 {
                return Err("--time 0 without --byoyomi leaves no time at all".into());
            }
            Some(TimeControl {
                main,
                byo_time,
                stones,
                grace,
            })
        }
    };
    let profiles = load_profiles(&engines)?;
    let get = |name: Option<String>, flag: &str| -> Result<_, String> {
        let name = name.ok_or_else(|| format!("{flag} is required"))?;
        find_profile(&profiles, &name).cloned()
    };
    let black = get(black, "--black")?;
    let white = get(white, "--white")?;
    let referee = match referee {
        Some(r) => Some(get(Some(r), "--referee")?),
        None => None,
    };
    let cells = match spec {
        GameSpec::Go { size, .. } => size * size,
        other => {
            let g = crate::games::session::open(&other);
            g.display_size() * g.display_size()
        }
    };
    Ok(MatchConfig {
        profiles: [black, white],
        referee,
        games,
        jobs,
        settings: GameSettings {
            spec,
            ko,
            clock,
            move_timeout,
            // gogui-twogtp's limit, more on big boards: random play can
            // run long (and cycle under simple ko); real games end sooner.
            max_moves: max_moves.unwrap_or(1000.max(4 * cells)),
        },
        out,
        stderr,
        command_timeout: Duration::from_secs(30).max(move_timeout.min(Duration::from_secs(120))),
    })
}

/// Entry point of `tesuji match`.
pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.first().map(String::as_str) == Some("--analyze") {
        let [_, file] = args else {
            eprint!("tesuji match: --analyze takes one file\n{USAGE}");
            return ExitCode::from(2);
        };
        let result = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {file}: {e}"))
            .and_then(|text| super::analyze::analyze(&text));
        return match result {
            Ok(a) => {
                print!("{}", super::analyze::report(&a));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tesuji match: {file}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprint!("tesuji match: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match runner::run(&config) {
        Ok(summary) => {
            print!("{}", runner::report(&config, &summary));
            println!("results: {}", config.out.join("match.dat").display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tesuji match: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        let engines = concat!(env!("CARGO_MANIFEST_DIR"), "/engines.toml");
        format!("{text} --engines {engines}")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn parses_a_full_command_line() {
        let c = parse(&args(
            "--black tesuji --white gnugo-level0 --games 4 --size 9 --komi 7 --time 60 \
             --byoyomi 10:5 --grace 0.25 --jobs 2 --referee gnugo --out /tmp/x --ko simple",
        ))
        .unwrap();
        assert_eq!(c.games, 4);
        assert_eq!(c.jobs, 2);
        assert_eq!(
            c.settings.spec,
            GameSpec::Go {
                size: 9,
                komi_x2: 14
            }
        );
        assert_eq!(c.settings.ko, KoRule::Simple);
        let tc = c.settings.clock.unwrap();
        assert_eq!(tc.gtp_settings(), "60 10 5");
        assert_eq!(tc.grace, Duration::from_millis(250));
        assert_eq!(c.referee.unwrap().name, "gnugo");
        assert_eq!(c.settings.max_moves, 1000);
    }

    #[test]
    fn defaults_and_errors() {
        let c = parse(&args("--black tesuji --white tesuji --games 1")).unwrap();
        assert_eq!(
            c.settings.spec,
            GameSpec::Go {
                size: 9,
                komi_x2: 15
            }
        );
        assert!(c.settings.clock.is_none());
        let c = parse(&args(
            "--black tesuji --white tesuji --games 1 --game go:5,0.5",
        ))
        .unwrap();
        assert_eq!(
            c.settings.spec,
            GameSpec::Go {
                size: 5,
                komi_x2: 1
            }
        );
        let c = parse(&args(
            "--black tesuji --white tesuji --games 1 --game nogo:4x4",
        ))
        .unwrap();
        assert_eq!(c.settings.spec, GameSpec::NoGo { rows: 4, cols: 4 });
        for bad in [
            "--black tesuji --white tesuji",
            "--black tesuji --games 1",
            "--black nobody --white tesuji --games 1",
            "--black tesuji --white tesuji --games 1 --komi 7.3",
            "--black tesuji --white tesuji --games 1 --game nogo:4x4 --komi 7",
            "--black tesuji --white tesuji --games 1 --size 9 --game go:9",
            "--black tesuji --white tesuji --games 1 --byoyomi 10",
            "--black tesuji --white tesuji --games 1 --time 0",
            "--black tesuji --white tesuji --games 1 --bogus",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }
}
