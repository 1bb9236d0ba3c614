//! GNU Go's board-inspection extensions (GNU Go 3.8 manual, "The GTP
//! commands"): colours, stones, liberties, legality, prisoners, and the
//! `trymove`/`popgo` stack used by its regression suites.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::board::{Board, Point, PointList};
use crate::go::handicap::sort_gtp;
use crate::go::{Color, Move, Vertex};

pub const COMMANDS: &[Command] = &[
    Command {
        name: "color",
        run: color,
    },
    Command {
        name: "list_stones",
        run: list_stones,
    },
    Command {
        name: "countlib",
        run: countlib,
    },
    Command {
        name: "findlib",
        run: findlib,
    },
    Command {
        name: "is_legal",
        run: is_legal,
    },
    Command {
        name: "all_legal",
        run: all_legal,
    },
    Command {
        name: "captures",
        run: captures,
    },
    Command {
        name: "trymove",
        run: trymove,
    },
    Command {
        name: "popgo",
        run: popgo,
    },
];

/// Vertices listed as GNU Go lists them: top row first, left to right.
fn list(points: impl Iterator<Item = Point>) -> String {
    let mut v: Vec<Vertex> = points.map(Board::vertex).collect();
    sort_gtp(&mut v);
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A point argument: a vertex on the board, not `pass`.
fn point(engine: &Engine, args: &mut Args) -> Result<Point, String> {
    match args.vertex(engine.game.size())? {
        Move::Pass => Err("invalid vertex".into()),
        Move::Play(v) => engine
            .game
            .board()
            .point(v)
            .ok_or_else(|| "invalid vertex".into()),
    }
}

/// A point argument that must hold a stone.
fn stone(engine: &Engine, args: &mut Args) -> Result<Point, String> {
    let p = point(engine, args)?;
    args.finish()?;
    if engine.game.board().color_at(p).is_none() {
        return Err("vertex must not be empty".into());
    }
    Ok(p)
}

fn color(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let p = point(engine, args)?;
    args.finish()?;
    Ok(engine
        .game
        .board()
        .color_at(p)
        .map_or("empty", |c| c.name())
        .into())
}

fn list_stones(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let c = args.color()?;
    args.finish()?;
    let b = engine.game.board();
    Ok(list(b.points().filter(|&p| b.color_at(p) == Some(c))))
}

fn countlib(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let p = stone(engine, args)?;
    Ok(engine.game.board().libs(p).to_string())
}

fn findlib(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let p = stone(engine, args)?;
    let mut board = engine.game.board().clone();
    let mut libs = PointList::new();
    board.block_liberties(p, &mut libs);
    Ok(list(libs.into_iter()))
}

fn is_legal(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let c = args.color()?;
    let mv = args.vertex(engine.game.size())?;
    args.finish()?;
    Ok(if engine.game.check(c, mv).is_ok() {
        "1"
    } else {
        "0"
    }
    .into())
}

fn all_legal(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let c: Color = args.color()?;
    args.finish()?;
    let game = &engine.game;
    let b = game.board();
    Ok(list(b.points().filter(|&p| {
        b.is_empty(p) && game.check_point(c, p).is_ok()
    })))
}

fn captures(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let c = args.color()?;
    args.finish()?;
    Ok(engine.game.board().prisoners(c).to_string())
}

fn trymove(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let c = args.color()?;
    let mv = args.vertex(engine.game.size())?;
    args.finish()?;
    engine
        .game
        .play(c, mv)
        .map_err(|_| "illegal move".to_string())?;
    engine.trymoves += 1;
    Ok(String::new())
}

fn popgo(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    if engine.trymoves == 0 || !engine.game.undo() {
        return Err("Stack empty.".into());
    }
    engine.trymoves -= 1;
    Ok(String::new())
}
