//! GTP's handicap commands (GTP v2 section 6.3.2, 4.1): fixed placement,
//! free placement chosen by the engine, and free placement set by the
//! controller.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::handicap;
use crate::go::{Move, Vertex};

pub const COMMANDS: &[Command] = &[
    Command {
        name: "fixed_handicap",
        run: fixed_handicap,
    },
    Command {
        name: "place_free_handicap",
        run: place_free_handicap,
    },
    Command {
        name: "set_free_handicap",
        run: set_free_handicap,
    },
];

fn list(vertices: &[Vertex]) -> String {
    vertices
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn stone_count(args: &mut Args) -> Result<u32, String> {
    let n = args.int()?;
    args.finish()?;
    u32::try_from(n).map_err(|_| "invalid number of stones".to_string())
}

fn fixed_handicap(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let n = stone_count(args)?;
    if !engine.game.board_is_empty() {
        return Err("board not empty".into());
    }
    let size = engine.game.size();
    handicap::fixed(size, n).ok_or("invalid number of stones")?;
    let vertices = engine
        .game
        .fixed_handicap(n)
        .ok_or("invalid number of stones")?;
    engine.trymoves = 0;
    Ok(list(&vertices))
}

/// Free placement by the engine: the fixed points where they exist (they
/// are good points), then further points spread over the board.
fn place_free_handicap(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let n = stone_count(args)?;
    if !engine.game.board_is_empty() {
        return Err("board not empty".into());
    }
    let size = engine.game.size();
    if n < 2 || n as usize > handicap::max_free(size) {
        return Err("invalid number of stones".into());
    }
    let mut vertices = handicap::fixed(size, n.min(9)).unwrap_or_default();
    if vertices.len() < n as usize {
        // Spread the rest: take points in order of distance from the stones
        // already chosen, farthest first, which fills the board evenly.
        let mut all: Vec<Vertex> = (0..size)
            .flat_map(|r| (0..size).map(move |c| Vertex::new(c as u8, r as u8)))
            .collect();
        while vertices.len() < n as usize {
            all.retain(|v| !vertices.contains(v));
            let far = |v: &Vertex| {
                vertices
                    .iter()
                    .map(|w| {
                        (v.col as i32 - w.col as i32).abs() + (v.row as i32 - w.row as i32).abs()
                    })
                    .min()
                    .unwrap_or(i32::MAX)
            };
            let best = *all
                .iter()
                .max_by_key(|v| (far(v), std::cmp::Reverse((v.row, v.col))))
                .ok_or("invalid number of stones")?;
            vertices.push(best);
        }
    }
    handicap::sort_gtp(&mut vertices);
    engine.game.place_handicap(&vertices);
    engine.trymoves = 0;
    Ok(list(&vertices))
}

fn set_free_handicap(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let size = engine.game.size();
    let mut vertices = Vec::new();
    while !args.remaining().is_empty() {
        match args.vertex(size)? {
            Move::Pass => return Err("syntax error".into()),
            Move::Play(v) => {
                if vertices.contains(&v) {
                    return Err("repeated vertex".into());
                }
                vertices.push(v);
            }
        }
    }
    if !engine.game.board_is_empty() {
        return Err("board not empty".into());
    }
    if vertices.len() < 2 || vertices.len() > handicap::max_free(size) {
        return Err("invalid number of stones".into());
    }
    engine.game.place_handicap(&vertices);
    engine.trymoves = 0;
    Ok(String::new())
}
