//! SGF files through GTP: `loadsgf` (GTP v2 section 6.3.5, with GNU Go's
//! optional move number or vertex) and `printsgf` (GNU Go's extension).

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::{Color, Game, Move, Vertex};
use crate::sgf::{self, SetupKind, SgfGame, SgfNode};

pub const COMMANDS: &[Command] = &[
    Command {
        name: "loadsgf",
        run: loadsgf,
    },
    Command {
        name: "printsgf",
        run: printsgf,
    },
];

/// Where `loadsgf` stops: before move number N (1 = the first move), or
/// before the first move played at a vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StopAt {
    End,
    MoveNumber(u32),
    Vertex(Vertex),
}

fn loadsgf(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let file = args.string()?;
    let stop = match args.opt_string() {
        None => StopAt::End,
        Some(s) => match s.parse::<u32>() {
            Ok(n) => StopAt::MoveNumber(n),
            Err(_) => match super::parse::vertex(s, crate::go::MAX_SIZE)? {
                Move::Play(v) => StopAt::Vertex(v),
                Move::Pass => return Err("syntax error".into()),
            },
        },
    };
    args.finish()?;
    let bytes = std::fs::read(file).map_err(|e| {
        log::warn!("loadsgf {file}: {e}");
        "cannot load file".to_string()
    })?;
    let record = sgf::parse(&bytes).map_err(|e| {
        log::warn!("loadsgf {file}: {e}");
        "cannot load file".to_string()
    })?;
    let game = replay(&record, &engine.game, stop).map_err(|e| {
        log::warn!("loadsgf {file}: {e}");
        "cannot load file".to_string()
    })?;
    let to_move = game.to_move();
    engine.game = game;
    engine.new_game();
    Ok(to_move.name().into())
}

/// Builds the game an SGF record describes, up to `stop`. Komi comes from
/// the file when it has one, the ko rule from `current`.
pub fn replay(record: &SgfGame, current: &Game, stop: StopAt) -> Result<Game, String> {
    if record.size < 2 || record.size > crate::go::MAX_SIZE {
        return Err(format!("board size {} not supported", record.size));
    }
    let mut game = Game::new(record.size);
    game.set_komi(record.komi.unwrap_or(current.komi()));
    game.set_ko_rule(current.ko_rule());
    let mut number = 0u32;
    let mut last_player: Option<Color> = None;
    for (i, node) in record.nodes.iter().enumerate() {
        if let Some((color, mv)) = node.mv {
            number += 1;
            let stop_here = match stop {
                StopAt::End => false,
                StopAt::MoveNumber(n) => number >= n,
                StopAt::Vertex(v) => mv == Move::Play(v),
            };
            if stop_here {
                game.set_to_move(color);
                last_player = None;
                break;
            }
        }
        apply_setup(&mut game, record, i, node);
        if let Some(c) = node.player {
            game.set_to_move(c);
            last_player = Some(c);
        }
        if let Some((color, mv)) = node.mv {
            game.play(color, mv)
                .map_err(|e| format!("move {number} ({} {mv}) is illegal: {e}", color.name()))?;
            last_player = None;
        }
    }
    if let Some(c) = last_player {
        game.set_to_move(c);
    }
    Ok(game)
}

fn apply_setup(game: &mut Game, record: &SgfGame, index: usize, node: &SgfNode) {
    if node.setup.is_empty() {
        return;
    }
    let only_black = node.setup.iter().all(|(k, _)| *k == SetupKind::Black);
    let handicap = record.handicap.unwrap_or(0);
    if index == 0 && only_black && handicap >= 2 {
        let stones: Vec<Vertex> = node.setup.iter().map(|&(_, v)| v).collect();
        game.place_handicap(&stones);
    } else {
        let stones: Vec<(Option<Color>, Vertex)> = node
            .setup
            .iter()
            .map(|&(k, v)| {
                let c = match k {
                    SetupKind::Black => Some(Color::Black),
                    SetupKind::White => Some(Color::White),
                    SetupKind::Empty => None,
                };
                (c, v)
            })
            .collect();
        game.setup(&stones);
    }
}

/// The SGF record of a game: the starting position as setup stones, then
/// every move.
pub fn record(game: &Game) -> SgfGame {
    let mut g = SgfGame::new(game.size());
    g.komi = Some(game.komi());
    if game.handicap() > 0 {
        g.handicap = Some(game.handicap());
    }
    let initial = game.initial_board();
    let mut root = SgfNode::default();
    for p in initial.points() {
        if let Some(c) = initial.color_at(p) {
            root.setup
                .push((c.into(), crate::go::board::Board::vertex(p)));
        }
    }
    let first = game.moves().first().map_or(initial.to_move(), |m| m.color);
    let default_first = if game.handicap() > 0 {
        Color::White
    } else {
        Color::Black
    };
    if first != default_first || (game.moves().is_empty() && initial.to_move() != default_first) {
        root.player = Some(first);
    }
    g.nodes[0] = root;
    for m in game.moves() {
        g.nodes.push(SgfNode {
            mv: Some((m.color, m.mv)),
            ..SgfNode::default()
        });
    }
    g
}

fn printsgf(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let file = args.opt_string();
    args.finish()?;
    let text = sgf::write(&record(&engine.game));
    match file {
        None => Ok(text),
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write file: {e}"))?;
            Ok(String::new())
        }
    }
}
