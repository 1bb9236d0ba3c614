//! `tesuji bench`: a fixed amount of search work on fixed positions, like
//! Stockfish's `bench`. It prints nodes, time and speed per position and
//! returns the total node count, a signature that changes exactly when the
//! search's behaviour does (the search is deterministic at fixed depth).
//!
//! Positions: the empty 9×9 and 19×19 boards, and mid-game positions built by
//! playing fixed move sequences. Each is searched to a fixed depth with a
//! fresh table, so the signature does not depend on the order of positions.
//! The 9×9 positions are then searched again with the Monte-Carlo leaf
//! estimate of the default 9×9 player ([`super::mc`]), whose speed is
//! counted in random games and their moves per second as well as nodes.

use super::{mc, Player, SearchLimits};
use crate::go::{Color, Game, Move, Vertex};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// (name, board size, moves from the empty board, depth).
const POSITIONS: &[(&str, usize, &str, u32)] = &[
    ("empty 9x9", 9, "", 6),
    ("empty 19x19", 19, "", 6),
    ("9x9 opening", 9, "E5 C5 D4 C4 D3 C3 E7 D6 F6 D7 C2 B2", 5),
    (
        "9x9 fight",
        9,
        "E5 E4 D4 D3 F4 E3 F3 C4 D5 F2 G2 C5 C6 B6 G3 E2 D7 F5",
        6,
    ),
    (
        "9x9 endgame",
        9,
        "E5 E4 D4 D3 F4 F3 C3 C2 E3 D2 G3 F2 G2 G4 F5 H4 H5 G5 G6 H3 \
         J4 J3 H2 B3 C4 B4 C5 B5 C6 B6 C7 B7 B8 A8 C8 D8 E8",
        6,
    ),
    ("13x13 opening", 13, "D4 K10 K4 D10 G7 J6 F9 C7", 4),
    (
        "19x19 opening",
        19,
        "Q16 D4 Q3 D16 R5 C10 K16 O17 O16 N17",
        4,
    ),
];

/// Depth of the Monte-Carlo part of the benchmark (what a 60 s game reaches).
const MC_DEPTH: u32 = 2;

/// Parses a GTP vertex or `pass`.
fn parse_move(s: &str) -> Move {
    if s.eq_ignore_ascii_case("pass") {
        return Move::Pass;
    }
    let mut chars = s.chars();
    let col = chars
        .next()
        .and_then(Vertex::col_from_letter)
        .expect("bench move column");
    let row: u8 = chars.as_str().parse().expect("bench move row");
    Move::Play(Vertex::new(col, row - 1))
}

/// Builds the position of one bench entry (komi 7.5, positional superko).
pub fn position(size: usize, moves: &str) -> Game {
    let mut game = Game::new(size);
    game.set_komi(7.5);
    let mut color = Color::Black;
    for m in moves.split_whitespace() {
        game.play(color, parse_move(m))
            .unwrap_or_else(|e| panic!("bench move {m} illegal: {e}"));
        color = color.opp();
    }
    game
}

/// Searches one position to `depth` with a fresh table and prints its
/// line (with the random games' speed when the player plays any); returns
/// the nodes and the time taken.
fn search_one(
    player: &mut Player,
    stop: &AtomicBool,
    out: &mut impl Write,
    name: &str,
    size: usize,
    moves: &str,
    depth: u32,
) -> (u64, Duration) {
    let game = position(size, moves);
    player.new_game();
    let (games0, moves0) = player.playouts();
    let start = Instant::now();
    let info = player.genmove(&game, game.to_move(), &SearchLimits::depth(depth), stop);
    let took = start.elapsed();
    let (games1, moves1) = player.playouts();
    let secs = took.as_secs_f64().max(1e-9);
    let mut line = format!(
        "{name:<14} depth {depth}  nodes {:>9}  time {:>7.1} ms  nps {:>8.0}",
        info.nodes,
        secs * 1e3,
        info.nodes as f64 / secs,
    );
    if games1 > games0 {
        line += &format!(
            "  games/s {:>7.0}  moves/s {:>9.0}",
            (games1 - games0) as f64 / secs,
            (moves1 - moves0) as f64 / secs,
        );
    }
    let _ = writeln!(out, "{line}  best {} value {}", info.best, info.value);
    (info.nodes, took)
}

/// Runs the benchmark, printing one line per position and a summary to
/// `out`; returns the total number of nodes searched.
pub fn bench(out: &mut impl Write) -> u64 {
    let stop = AtomicBool::new(false);
    let mut player = Player::new(16);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut run = |player: &mut Player, out: &mut _, name, size, moves, depth| {
        let (nodes, took) = search_one(player, &stop, out, name, size, moves, depth);
        total_nodes += nodes;
        total_time += took;
    };
    for &(name, size, moves, depth) in POSITIONS {
        run(&mut player, out, name, size, moves, depth);
    }
    // The default player on 9×9 averages its leaves with random games
    // (`super::mc`): the same positions at the depth it reaches in a game.
    let _ = writeln!(
        out,
        "Monte-Carlo leaves, {} random games each:",
        mc::DEFAULT_PLAYOUTS
    );
    player.set_monte_carlo(mc::DEFAULT_PLAYOUTS);
    for &(name, size, moves, _) in POSITIONS.iter().filter(|p| p.1 <= mc::DEFAULT_MAX_SIZE) {
        run(&mut player, out, name, size, moves, MC_DEPTH);
    }
    player.set_monte_carlo(0);
    let _ = writeln!(
        out,
        "===========================\nTotal time (ms) : {:.0}\nNodes searched  : {}\nNodes/second    : {:.0}",
        total_time.as_secs_f64() * 1e3,
        total_nodes,
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9),
    );
    total_nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal() {
        for &(_, size, moves, _) in POSITIONS {
            let g = position(size, moves);
            assert_eq!(g.moves().len(), moves.split_whitespace().count());
        }
    }
}
