//! Games other than Go, and GoGui's ruler protocol for every game (GoGui
//! manual, "Game > Rules"; GoGui's `GenericBoard` reads the answers).
//!
//! `tesuji-game SPEC` (or `tesuji gtp --game SPEC`) chooses the game. Go is
//! the default and keeps GTP's own state (`Engine::game`: superko,
//! handicap, SGF); any other game lives in `Engine::other` as an
//! [`AnyGame`], and the standard commands `boardsize`, `clear_board`,
//! `play`, `undo`, `showboard` and `genmove` act on it through the `other_*`
//! functions here. The `gogui-rules_*` commands answer for whichever game is
//! active.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::games::session::{self, AnyGame};
use crate::games::spec::GameSpec;
use crate::go::board::Board;
use crate::go::{score, Color, Move};

pub const COMMANDS: &[Command] = &[
    Command {
        name: "tesuji-game",
        run: game,
    },
    Command {
        name: "gogui-rules_game_id",
        run: rules_game_id,
    },
    Command {
        name: "gogui-rules_board_size",
        run: rules_board_size,
    },
    Command {
        name: "gogui-rules_board",
        run: rules_board,
    },
    Command {
        name: "gogui-rules_legal_moves",
        run: rules_legal_moves,
    },
    Command {
        name: "gogui-rules_side_to_move",
        run: rules_side_to_move,
    },
    Command {
        name: "gogui-rules_final_result",
        run: rules_final_result,
    },
];

/// `tesuji-game [SPEC]`: answers the current game's spec, or switches to a
/// new game of `SPEC` at its start position.
fn game(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    match args.opt_string() {
        None => Ok(current_spec(engine).to_string()),
        Some(text) => {
            args.finish()?;
            let spec = GameSpec::parse(text).map_err(|e| format!("bad game spec: {e}"))?;
            engine.set_game(spec);
            Ok(String::new())
        }
    }
}

/// The active game's spec; Go's from GTP's own state.
fn current_spec(engine: &Engine) -> GameSpec {
    match &engine.other {
        Some(g) => GameSpec::parse(&g.spec()).expect("games print parsable specs"),
        None => GameSpec::Go {
            size: engine.game.size(),
            komi_x2: (engine.game.komi() * 2.0).round() as i32,
        },
    }
}

fn rules_game_id(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(session::game_id(&current_spec(engine)).into())
}

fn rules_board_size(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(match &engine.other {
        Some(g) => g.display_size(),
        None => engine.game.size(),
    }
    .to_string())
}

fn rules_board(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(match &engine.other {
        Some(g) => session::board_text(&**g),
        None => {
            let board = engine.game.board();
            let n = board.size();
            (0..n)
                .rev()
                .map(|row| {
                    (0..n)
                        .map(|col| match board.color_at(Board::point_at(col, row)) {
                            Some(Color::Black) => "X",
                            Some(Color::White) => "O",
                            None => ".",
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    })
}

/// Go's legal moves for the player to move under the game's ko rule,
/// bottom row first, then `pass`; none after two passes in a row.
fn go_legal_moves(engine: &Engine) -> Vec<String> {
    let game = &engine.game;
    if game.two_passes() {
        return Vec::new();
    }
    let color = game.to_move();
    let board = game.board();
    let mut out: Vec<String> = board
        .points()
        .filter(|&p| board.is_empty(p) && game.check_point(color, p).is_ok())
        .map(|p| Board::vertex(p).to_string())
        .collect();
    out.push("pass".into());
    out
}

fn rules_legal_moves(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(match &engine.other {
        Some(g) => g.legal_moves(),
        None => go_legal_moves(engine),
    }
    .join(" "))
}

fn rules_side_to_move(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(match &engine.other {
        Some(g) => g.to_move(),
        None => engine.game.to_move(),
    }
    .name()
    .into())
}

/// `B+`, `W+` or `0` once the game is over, `?` before. Go's game is over
/// after two passes in a row and scored by area as the board stands, with
/// komi (`B+3.5`).
fn rules_final_result(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(match &engine.other {
        Some(g) => session::result_text(g.result()).into(),
        None if engine.game.two_passes() => score::format_score(score::area_score(
            engine.game.board(),
            &[],
            engine.game.komi(),
        )),
        None => "?".into(),
    })
}

/// `boardsize N` for a game other than Go: the same game on an N×N board.
pub(super) fn other_boardsize(engine: &mut Engine, size: i64) -> Result<String, String> {
    let spec = current_spec(engine);
    let n = usize::try_from(size).map_err(|_| "unacceptable size".to_string())?;
    let spec = spec.resized(n).map_err(|e| {
        log::debug!("boardsize {n} refused for {spec}: {e}");
        "unacceptable size".to_string()
    })?;
    engine.set_game(spec);
    Ok(String::new())
}

/// The active non-Go game; callers check that there is one.
fn other(engine: &mut Engine) -> &mut dyn AnyGame {
    &mut **engine
        .other
        .as_mut()
        .expect("a game other than Go is active")
}

pub(super) fn other_clear(engine: &mut Engine) -> Result<String, String> {
    other(engine).clear();
    engine.new_game();
    Ok(String::new())
}

/// `play COLOR VERTEX`: vertices are read as on the displayed square board,
/// so a point outside it is `vertex off board` and a removed cell or any
/// other move the game does not allow is `illegal move`.
pub(super) fn other_play(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let color = args.color()?;
    let size = other(engine).display_size();
    let mv = args.vertex(size)?;
    args.finish()?;
    let text = match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(v) => v.to_string(),
    };
    other(engine).play(color, &text)?;
    Ok(String::new())
}

pub(super) fn other_undo(engine: &mut Engine) -> Result<String, String> {
    if !other(engine).undo() {
        return Err("cannot undo".into());
    }
    Ok(String::new())
}

pub(super) fn other_showboard(engine: &mut Engine) -> Result<String, String> {
    Ok(session::diagram(other(engine)))
}

/// `genmove COLOR` for a game other than Go: only the player to move may
/// be asked; the move comes from `crate::games::session::genmove_search`.
pub(super) fn other_genmove(engine: &mut Engine, color: Color) -> Result<String, String> {
    let stop = engine.stop.clone();
    let g = other(engine);
    if color != g.to_move() {
        return Err("illegal move".into());
    }
    g.genmove(&stop)
}
