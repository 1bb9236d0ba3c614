//! GoGui integration (GoGui manual, "Analyze Commands" and "Live
//! Graphics"): `gogui-analyze_commands` tells GoGui which commands it can
//! offer in its analyze dialog and how to show their answers;
//! `tesuji-gfx_solve` is `solve` answering with draw commands (the block,
//! the first move, the main line as a variation, the verdict as status
//! text); `tesuji-live_gfx` lets every solving command show its search line
//! on stderr while it runs (see [`super::live_gfx`]).

use super::cmd_tactics_solve::{run_solve, solve_answer, solve_request, Side};
use super::engine::Engine;
use super::live_gfx::write_var;
use super::parse::{self, Args};
use super::registry::Command;
use crate::go::board::{Board, PASS};
use crate::go::handicap::sort_gtp;
use crate::go::Vertex;

pub const COMMANDS: &[Command] = &[
    Command {
        name: "gogui-analyze_commands",
        run: analyze_commands,
    },
    Command {
        name: "tesuji-gfx_solve",
        run: gfx_solve,
    },
    Command {
        name: "tesuji-live_gfx",
        run: live_gfx,
    },
];

/// GoGui's analyze commands, `type/label/command`: `%p` is a point the user
/// picks, `%c` a colour, `%s` a string. `varpo` shows the answer's moves as
/// a variation for the opponent of the stone on the point (attack), `varp`
/// for its owner (defend), as in GoGui's own defaults for GNU Go.
const ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Solve Capture/tesuji-gfx_solve capture %p",
    "gfx/Solve Escape/tesuji-gfx_solve escape %p",
    "varpo/Attack/attack %p",
    "varp/Defend/defend %p",
    "varpo/Ladder Attack/ladder_attack %p",
    "string/Solve Capture (Text)/solve capture %p",
    "string/Solve Escape (Text)/solve escape %p",
    "string/Solve Game/solve win",
    "string/Solver Limits/tesuji-solver_limits",
    "string/Set Solver Limits/tesuji-solver_limits %s",
    "string/Solver Stats/tesuji-solver_stats",
    "none/Live Gfx On/tesuji-live_gfx on",
    "none/Live Gfx Off/tesuji-live_gfx off",
    "string/CountLib/countlib %p",
    "plist/FindLib/findlib %p",
    "plist/All Legal/all_legal %c",
    "plist/List Stones/list_stones %c",
    "string/Captures/captures %c",
    "plist/Final Status List Dead/final_status_list dead",
    "plist/Final Status List Alive/final_status_list alive",
    "string/Final Score/final_score",
    "varc/Reg GenMove/reg_genmove %c",
    "string/Ko Rule/tesuji-ko_rule",
    "string/ShowBoard/showboard",
];

fn analyze_commands(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(ANALYZE_COMMANDS.join("\n"))
}

/// `solve`, answered as GoGui `gfx`: `SQUARE` on the block, `VAR` the main
/// line from the player who moves first, `COLOR green` on a winning first
/// move, and `TEXT` with `solve`'s own answer line. The search shows itself
/// live on stderr while it runs.
fn gfx_solve(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    let req = solve_request(engine, args)?;
    let solved = run_solve(engine, &req, true);
    let r = &solved.result;
    let board = engine.game.board();
    let owner = board
        .color_at(req.block)
        .expect("solve_request checked the stone");
    let first = match req.side {
        Side::Attacker => owner.opp(),
        Side::Defender => owner,
    };
    let mut stones: Vec<Vertex> = Vec::new();
    board.for_each_stone(req.block, |q| stones.push(Board::vertex(q)));
    sort_gtp(&mut stones);
    let mut out = String::from("SQUARE");
    for v in &stones {
        out.push(' ');
        out.push_str(&v.to_string());
    }
    out.push('\n');
    write_var(&mut out, first, r.pv.iter().copied());
    if r.code.is_some_and(|c| c > 0) {
        if let Some(m) = r.best.filter(|&m| m != PASS) {
            out.push_str(&format!("COLOR green {}\n", Board::vertex(m)));
        }
    }
    out.push_str("TEXT ");
    out.push_str(&solve_answer(&solved, req.algo));
    Ok(out)
}

fn live_gfx(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    if let Some(s) = args.opt_string() {
        let on = parse::on_off(s).ok_or("unknown setting (on or off)")?;
        args.finish()?;
        engine.live_gfx = on;
    }
    Ok(if engine.live_gfx { "on" } else { "off" }.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::registry;

    /// Every analyze command names a real command, in GoGui's format.
    #[test]
    fn analyze_commands_are_registered() {
        for line in ANALYZE_COMMANDS {
            let parts: Vec<&str> = line.split('/').collect();
            assert_eq!(parts.len(), 3, "{line}");
            assert!(
                ["gfx", "varpo", "varp", "varc", "string", "none", "plist"].contains(&parts[0]),
                "{line}"
            );
            let name = parts[2].split(' ').next().unwrap();
            assert!(registry::find(name).is_some(), "{line}: no command {name}");
        }
    }
}
