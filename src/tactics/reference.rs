//! The exhaustive reference for the capture game: a plain full-width
//! minimax over [`CaptureGame::moves`], written to be easy to trust rather
//! than fast, so that the real solvers (df-pn and friends) can be checked
//! against it on small problems.
//!
//! It shares nothing with the solvers but the rules ([`CaptureGame`]):
//! every legal move and the pass are tried with `play`/`undo`, in an order
//! that only decides how soon a win is found, and the side to move wins
//! exactly when one of its moves leads to its win. A line ends where the
//! rules end it (capture, escape, two passes, a repeated state).
//!
//! There is no transposition table. The capture game ends a line when a
//! whole state repeats, so a value can depend on the path that led to a
//! position, and a table would need an argument for why it never carries
//! such a value to another path. Without one, the value computed is by
//! construction the value of the game tree the rules define, at every node.
//! (A table restricted to results whose search met no cut was tried: on the
//! generated problems it saved few nodes, and its bookkeeping made the
//! search slower.)
//!
//! The rules also cut a line at [`MAX_DEPTH`] moves. That is a horizon, not
//! a result of the game, so a search that reaches it answers `None`.

use super::rules::{CaptureGame, Step, Winner, MAX_DEPTH};
use crate::go::board::{Board, Point, PointList, PASS};
use crate::go::Color;

/// The search ran out of nodes (or reached the depth horizon).
struct Stopped;

struct Search {
    attacker: Color,
    nodes: u64,
    limit: u64,
    /// The depth of the game where this search started.
    root_depth: usize,
    /// The move that won for the player to move at the root, once found.
    best: Option<Point>,
}

impl Search {
    fn new(game: &CaptureGame, limit: u64) -> Search {
        Search {
            attacker: game.problem().attacker,
            nodes: 0,
            limit,
            root_depth: game.depth(),
            best: None,
        }
    }

    /// The side a colour plays in this problem.
    fn side(&self, c: Color) -> Winner {
        if c == self.attacker {
            Winner::Attacker
        } else {
            Winner::Defender
        }
    }

    /// The winner of the game from here with best play by both sides.
    fn solve(&mut self, game: &mut CaptureGame) -> Result<Winner, Stopped> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Stopped);
        }
        if let Some(winner) = game.winner() {
            if game.last_was_cut() && game.depth() >= MAX_DEPTH {
                // The rules call a line this long a failure to capture, but
                // that is a horizon, not a result: say nothing rather than
                // answer from it.
                return Err(Stopped);
            }
            return Ok(winner);
        }
        let mover = self.side(game.to_move());
        for p in ordered_moves(game) {
            let step = game.play(p);
            assert_eq!(step, Step::Played, "moves() offered an illegal move");
            let result = self.solve(game);
            game.undo();
            if result? == mover {
                if game.depth() == self.root_depth {
                    self.best = Some(p);
                }
                return Ok(mover);
            }
        }
        // Every move, the pass included, leads to the opponent's win.
        Ok(opponent(mover))
    }
}

fn opponent(w: Winner) -> Winner {
    match w {
        Winner::Attacker => Winner::Defender,
        Winner::Defender => Winner::Attacker,
    }
}

/// Every move of [`CaptureGame::moves`], the target's liberties first (the
/// moves most likely to decide the game, so a win is met sooner). The order
/// changes the node count, never the result: all moves are tried until one
/// wins.
fn ordered_moves(game: &CaptureGame) -> Vec<Point> {
    let mut list = PointList::new();
    game.moves(&mut list);
    let board = game.board();
    let target = board.block(game.problem().target);
    let on_target = |p: Point| {
        p != PASS
            && Board::neighbors(p)
                .iter()
                .any(|&n| board.color_at(n).is_some() && board.block(n) == target)
    };
    let mut ordered: Vec<Point> = list.iter().copied().filter(|&p| on_target(p)).collect();
    ordered.extend(list.iter().copied().filter(|&p| !on_target(p)));
    ordered
}

/// Solves the capture game from the current state of `game` by exhaustive
/// minimax: the winner with best play and the number of nodes visited, or
/// `None` when more than `node_limit` nodes would be needed (or a line
/// reached the rules' depth horizon).
///
/// The path already played counts: a state repeating one played before the
/// call ends the line, as the rules say. `game` is left as it was.
pub fn solve_exhaustive(game: &mut CaptureGame, node_limit: u64) -> Option<(Winner, u64)> {
    let (winner, _, nodes) = solve_exhaustive_with_move(game, node_limit)?;
    Some((winner, nodes))
}

/// [`solve_exhaustive`] that also names the winning move it found when the
/// player to move wins (`None` when the mover loses or the game is already
/// over): one of the [`winning_moves`], at the cost of a single solve.
/// Returns the winner, that move and the nodes visited.
pub fn solve_exhaustive_with_move(
    game: &mut CaptureGame,
    node_limit: u64,
) -> Option<(Winner, Option<Point>, u64)> {
    let mut search = Search::new(game, node_limit);
    let winner = search.solve(game).ok()?;
    Some((winner, search.best, search.nodes))
}

/// Every first move (the pass included) with which the player to move wins,
/// each checked by playing it and solving the rest exhaustively; `None` when
/// the `node_limit`, shared by all of them, runs out. Empty when the mover
/// loses or the game is already over.
pub fn winning_moves(game: &mut CaptureGame, node_limit: u64) -> Option<Vec<Point>> {
    let mut search = Search::new(game, node_limit);
    let mover = search.side(game.to_move());
    let mut list = PointList::new();
    game.moves(&mut list);
    let mut wins = Vec::new();
    for &p in &list {
        let step = game.play(p);
        assert_eq!(step, Step::Played, "moves() offered an illegal move");
        let result = search.solve(game);
        game.undo();
        if result.ok()? == mover {
            wins.push(p);
        }
    }
    Some(wins)
}
