//! Choosing who answers `genmove`: the NegaScout player (the default), the
//! Monte-Carlo tree search of [`crate::search::mcts`] (Go only), or the
//! random player of [`crate::search::random`], a baseline opponent for
//! `tesuji match` (engines.toml profile `tesuji-random`).
//!
//! `tesuji-player` with no argument answers the current choice
//! (`search`, then ` depth=N`, ` nodes=N` and ` mc=M` when set, or
//! `mcts`, then ` games=N` when set, or `random seed=N`); `tesuji-player
//! random [SEED]`, `tesuji-player search [DEPTH] [nodes=N] [mc=M]` and
//! `tesuji-player mcts [games=N]` change it. A node budget makes play independent
//! of the machine's load, which is what fair comparisons on a shared machine
//! need. `mc=M` sets the random games per leaf of the Monte-Carlo half of
//! the leaf value (`search::mc`; 0 is the static evaluation alone; unset,
//! the board size decides). The same choice is available on the
//! command line: `tesuji --player random --seed N`, `tesuji --depth N`,
//! `tesuji --mc M`, `tesuji --player mcts`.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::Color;
use crate::search::mc::MAX_PLAYOUTS;
use crate::search::random::{RandomPlayer, DEFAULT_SEED};

pub const COMMANDS: &[Command] = &[Command {
    name: "tesuji-player",
    run: player,
}];

fn player(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let Some(kind) = args.opt_string() else {
        return Ok(match &engine.random {
            Some(r) => format!("random seed={}", r.seed()),
            None if engine.config.mcts => match engine.config.max_nodes {
                Some(n) => format!("mcts games={n}"),
                None => "mcts".into(),
            },
            None => {
                let mut s = String::from("search");
                if let Some(d) = engine.config.max_depth {
                    s += &format!(" depth={d}");
                }
                if let Some(n) = engine.config.max_nodes {
                    s += &format!(" nodes={n}");
                }
                if let Some(m) = engine.config.mc_playouts {
                    s += &format!(" mc={m}");
                }
                s
            }
        });
    };
    match kind {
        "random" => {
            let seed = match args.opt_string() {
                None => DEFAULT_SEED,
                Some(s) => s.parse().map_err(|_| "invalid seed".to_string())?,
            };
            args.finish()?;
            engine.random = Some(RandomPlayer::new(seed));
        }
        "search" => {
            let (mut depth, mut nodes, mut mc) = (None, None, None);
            while let Some(s) = args.opt_string() {
                if let Some(n) = s.strip_prefix("mc=") {
                    match n.parse::<u32>() {
                        Ok(n) if n <= MAX_PLAYOUTS && mc.is_none() => mc = Some(n),
                        _ => return Err("invalid mc".into()),
                    }
                } else if let Some(n) = s.strip_prefix("nodes=") {
                    match n.parse::<u64>() {
                        Ok(n) if n > 0 && nodes.is_none() => nodes = Some(n),
                        _ => return Err("invalid nodes".into()),
                    }
                } else {
                    match s.parse::<u32>() {
                        Ok(d) if d > 0 && depth.is_none() => depth = Some(d),
                        _ => return Err("invalid depth".into()),
                    }
                }
            }
            engine.random = None;
            engine.config.mcts = false;
            engine.config.max_depth = depth;
            engine.config.max_nodes = nodes;
            engine.config.mc_playouts = mc;
        }
        "mcts" => {
            let mut games = None;
            while let Some(s) = args.opt_string() {
                match s.strip_prefix("games=").map(str::parse::<u32>) {
                    Some(Ok(n)) if n > 0 && games.is_none() => games = Some(u64::from(n)),
                    Some(_) => return Err("invalid games".into()),
                    None => return Err("syntax error".into()),
                }
            }
            engine.random = None;
            engine.config.mcts = true;
            engine.config.max_depth = None;
            engine.config.max_nodes = games;
        }
        _ => return Err("unknown player (random, search or mcts)".into()),
    }
    Ok(String::new())
}

/// `genmove` by the random player, if it is on: `Some(answer)`, after
/// playing the move. `None` leaves `genmove` to the search.
pub(super) fn random_genmove(engine: &mut Engine, color: Color) -> Option<Result<String, String>> {
    let random = engine.random.as_mut()?;
    if let Some(g) = engine.other.as_mut() {
        if color != g.to_move() {
            return Some(Err("illegal move".into()));
        }
        let moves = g.legal_moves();
        if moves.is_empty() {
            return Some(Err("game is over".into()));
        }
        let mv = moves[random.below(moves.len())].clone();
        return Some(g.play(color, &mv).map(|()| mv));
    }
    let mv = random.go_move(&engine.game, color);
    Some(match engine.game.play(color, mv) {
        Ok(()) => Ok(mv.to_string()),
        Err(e) => Err(e.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use crate::go::Move;
    use crate::gtp::parse::CommandLine;
    use crate::gtp::{Config, Engine};

    fn run(engine: &mut Engine, line: &str) -> Result<String, String> {
        let mut words = line.split_whitespace();
        let cmd = CommandLine {
            id: None,
            name: words.next().unwrap().to_string(),
            args: words.map(str::to_string).collect(),
        };
        engine.execute(&cmd)
    }

    #[test]
    fn switches_players_and_replays_with_a_seed() {
        let mut e = Engine::new(Config::default());
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search".into()));
        assert_eq!(run(&mut e, "tesuji-player search 2"), Ok("".into()));
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search depth=2".into()));
        assert!(run(&mut e, "tesuji-player search 0").is_err());
        assert_eq!(run(&mut e, "tesuji-player search nodes=500"), Ok("".into()));
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search nodes=500".into()));
        assert_eq!(run(&mut e, "tesuji-player search 3 nodes=9"), Ok("".into()));
        assert_eq!(
            run(&mut e, "tesuji-player"),
            Ok("search depth=3 nodes=9".into())
        );
        assert!(run(&mut e, "tesuji-player search nodes=0").is_err());
        assert!(run(&mut e, "tesuji-player search nodes=x").is_err());
        assert!(run(&mut e, "tesuji-player search 2 3").is_err());
        assert_eq!(run(&mut e, "tesuji-player search 2 mc=16"), Ok("".into()));
        assert_eq!(
            run(&mut e, "tesuji-player"),
            Ok("search depth=2 mc=16".into())
        );
        assert!(run(&mut e, "tesuji-player search mc=16 mc=16").is_err());
        assert!(run(&mut e, "tesuji-player search mc=-1").is_err());
        assert!(run(&mut e, "tesuji-player search mc=10001").is_err());
        run(&mut e, "tesuji-player search mc=0").unwrap();
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search mc=0".into()));
        run(&mut e, "tesuji-player search").unwrap();
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search".into()));
        assert!(run(&mut e, "tesuji-player random x").is_err());
        assert_eq!(run(&mut e, "tesuji-player mcts games=300"), Ok("".into()));
        assert_eq!(run(&mut e, "tesuji-player"), Ok("mcts games=300".into()));
        for bad in ["games=0", "games=x", "games=5 games=5", "3"] {
            assert!(run(&mut e, &format!("tesuji-player mcts {bad}")).is_err());
        }
        assert_eq!(run(&mut e, "tesuji-player"), Ok("mcts games=300".into()));
        run(&mut e, "boardsize 7").unwrap();
        assert!(run(&mut e, "genmove b").is_ok());
        run(&mut e, "tesuji-player mcts").unwrap();
        assert_eq!(run(&mut e, "tesuji-player"), Ok("mcts".into()));
        run(&mut e, "tesuji-player search").unwrap();
        assert_eq!(run(&mut e, "tesuji-player"), Ok("search".into()));
        assert!(run(&mut e, "tesuji-player chess").is_err());
        let game = |e: &mut Engine| {
            run(e, "boardsize 5").unwrap();
            run(e, "clear_board").unwrap();
            run(e, "tesuji-player random 42").unwrap();
            (0..10)
                .map(|i| run(e, if i % 2 == 0 { "genmove b" } else { "genmove w" }).unwrap())
                .collect::<Vec<_>>()
        };
        let first = game(&mut e);
        assert_eq!(first, game(&mut e));
        assert_eq!(run(&mut e, "tesuji-player"), Ok("random seed=42".into()));
        assert_eq!(e.game.moves().len(), 10);
        assert!(first.iter().all(|m| m != &Move::Pass.to_string()));
    }

    #[test]
    fn random_player_in_other_games() {
        let mut e = Engine::new(Config::default());
        run(&mut e, "tesuji-game nogo:3x3").unwrap();
        run(&mut e, "tesuji-player random 1").unwrap();
        assert!(run(&mut e, "genmove w").is_err(), "white is not to move");
        let mut n = 0;
        let mut color = 'b';
        while run(&mut e, &format!("genmove {color}")).is_ok() {
            color = if color == 'b' { 'w' } else { 'b' };
            n += 1;
        }
        assert!((1..=9).contains(&n), "{n}");
        assert_eq!(
            run(&mut e, &format!("genmove {color}")),
            Err("game is over".into())
        );
    }
}
