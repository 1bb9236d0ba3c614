//! GTP's board commands (GTP v2 sections 6.3.2–6.3.4 and 6.3.7): size,
//! clearing, komi, moves, undo, the text diagram, and tesuji's ko-rule switch.

use super::cmd_rules;
use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::go::board::Board;
use crate::go::{Color, Game, KoRule, MAX_SIZE};
use std::fmt::Write;

pub const COMMANDS: &[Command] = &[
    Command {
        name: "boardsize",
        run: boardsize,
    },
    Command {
        name: "clear_board",
        run: clear_board,
    },
    Command {
        name: "komi",
        run: komi,
    },
    Command {
        name: "play",
        run: play,
    },
    Command {
        name: "undo",
        run: undo,
    },
    Command {
        name: "showboard",
        run: showboard,
    },
    Command {
        name: "tesuji-ko_rule",
        run: ko_rule,
    },
];

fn boardsize(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let size = args.int()?;
    args.finish()?;
    if engine.other.is_some() {
        return cmd_rules::other_boardsize(engine, size);
    }
    if !(2..=MAX_SIZE as i64).contains(&size) {
        return Err("unacceptable size".into());
    }
    let mut game = Game::new(size as usize);
    game.set_komi(engine.game.komi());
    game.set_ko_rule(engine.game.ko_rule());
    engine.game = game;
    engine.new_game();
    Ok(String::new())
}

fn clear_board(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    if engine.other.is_some() {
        return cmd_rules::other_clear(engine);
    }
    engine.game.clear();
    engine.new_game();
    Ok(String::new())
}

fn komi(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let k = args.float()?;
    args.finish()?;
    engine.game.set_komi(k);
    Ok(String::new())
}

fn play(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    if engine.other.is_some() {
        return cmd_rules::other_play(engine, args);
    }
    let color = args.color()?;
    let mv = args.vertex(engine.game.size())?;
    args.finish()?;
    engine.game.play(color, mv).map_err(|e| {
        log::debug!("play {color} {mv} refused: {e}");
        "illegal move".to_string()
    })?;
    Ok(String::new())
}

fn undo(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    if engine.other.is_some() {
        return cmd_rules::other_undo(engine);
    }
    if !engine.game.undo() {
        return Err("cannot undo".into());
    }
    engine.trymoves = engine.trymoves.saturating_sub(1);
    Ok(String::new())
}

fn ko_rule(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    match args.opt_string() {
        None => Ok(engine.game.ko_rule().name().into()),
        Some(s) => {
            let rule = KoRule::parse(s).ok_or("unknown ko rule (simple or positional)")?;
            args.finish()?;
            engine.game.set_ko_rule(rule);
            Ok(String::new())
        }
    }
}

fn showboard(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    if engine.other.is_some() {
        return cmd_rules::other_showboard(engine);
    }
    Ok(diagram(&engine.game))
}

/// A text diagram: `X` black, `O` white, `+` handicap points, the last
/// move in parentheses, prisoners and the ko rule beside the board.
pub fn diagram(game: &Game) -> String {
    let board = game.board();
    let n = board.size();
    let letters: String = (0..n)
        .map(|c| format!(" {}", crate::go::Vertex::col_letter(c as u8)))
        .collect();
    let last = game.moves().last().and_then(|m| match m.mv {
        crate::go::Move::Play(v) => board.point(v),
        crate::go::Move::Pass => None,
    });
    let stars = crate::go::handicap::fixed(n, 9)
        .or_else(|| crate::go::handicap::fixed(n, 4))
        .unwrap_or_default();
    let mut out = String::from("\n");
    let _ = writeln!(out, "  {letters}");
    for row in (0..n).rev() {
        let _ = write!(out, "{:>2}", row + 1);
        let mut after_mark = false;
        for col in 0..n {
            let p = Board::point_at(col, row);
            let ch = match board.color_at(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if stars.contains(&Board::vertex(p)) => '+',
                None => '.',
            };
            // The last move is bracketed; the brackets take the place of
            // the spaces around it so the columns stay aligned.
            if Some(p) == last {
                let _ = write!(out, "({ch})");
                after_mark = true;
            } else if after_mark {
                out.push(ch);
                after_mark = false;
            } else {
                let _ = write!(out, " {ch}");
            }
        }
        if !after_mark {
            out.push(' ');
        }
        let _ = write!(out, "{:<2}", row + 1);
        match n - 1 - row {
            0 => {
                let _ = write!(
                    out,
                    "    WHITE (O) has captured {} stones",
                    board.prisoners(Color::White)
                );
            }
            1 => {
                let _ = write!(
                    out,
                    "    BLACK (X) has captured {} stones",
                    board.prisoners(Color::Black)
                );
            }
            2 => {
                let _ = write!(
                    out,
                    "    {} to move, komi {}, {} ko",
                    game.to_move(),
                    game.komi(),
                    game.ko_rule().name()
                );
            }
            _ => {}
        }
        out.push('\n');
    }
    let _ = write!(out, "  {letters}");
    out
}
