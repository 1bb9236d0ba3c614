//! Quiescence search at the leaves of the NegaScout tree: before the static
//! evaluation is trusted, the captures, atari escapes and ladder ataris of
//! the position are played out, in the spirit of the capture-only search
//! that chess programs run at their horizon (Beal, "A generalised
//! quiescence search algorithm", Artificial Intelligence 43, 1990) and of
//! the tactical look-ahead Go programs put in front of their evaluation
//! (Bouzy & Cazenave, "Computer Go: an AI oriented survey", 2001, §4).
//!
//! At every quiescence node the mover may *stand pat* (take the static
//! evaluation, in which every block in atari is already counted as captured
//! by the other side, see [`super::eval`]) or play one of
//!
//! - a **capture** of an enemy block in atari;
//! - an **escape**: the liberty of an own block in atari, when the block
//!   gets at least two liberties there;
//! - a **ladder atari**: a liberty of the enemy block that the previous move
//!   extended, when that block has exactly two liberties and the atari is
//!   not a self-atari, so that ladders are read out move by move.
//!
//! The search is fail-soft alpha-beta over these moves, at most
//! [`QDEPTH`] plies. With exact leaves the main search calls it with the
//! full window ([`leaf_value`]): its value is then a function of the
//! position alone, so the leaves stay exact and the NegaScout shortcut of
//! the last two plies (no re-search) stays sound. The player by default
//! gives it the node's window instead ([`window_value`], see
//! `negascout::Core::exact_leaves`). Move lists are small stack arrays;
//! nothing allocates.

use super::eval::evaluate_with;
use super::movegen::saved_size;
use super::status::Status;
use crate::go::board::{Board, Point, EMPTY, PASS};
use crate::go::Color;
use arrayvec::ArrayVec;

/// Deepest quiescence line: a ladder across a 9×9 board fits.
pub const QDEPTH: u32 = 12;
/// Larger than any value (as [`super::negascout::INF`]).
const INF: i32 = 10_000_000;
/// Tactical moves considered at one node.
const MAX_MOVES: usize = 24;

/// What the quiescence search reads besides the board.
pub(crate) struct Leaf<'a> {
    pub komi: i32,
    pub status: Option<&'a Status>,
    /// Nodes visited below the main search's leaves.
    pub nodes: u64,
}

/// The exact quiescence value of `b` for the side to move; `last` is the
/// move that led to `b` (`PASS` if none).
pub(crate) fn leaf_value(leaf: &mut Leaf, b: &mut Board, last: Point) -> i32 {
    quiesce(leaf, b, -INF, INF, QDEPTH, last)
}

/// The fail-soft quiescence value of `b` within `(alpha, beta)`: exact
/// inside the window, a bound outside it. Cheaper than [`leaf_value`]
/// (stand-pat cutoffs); the searcher uses it when it prunes anyway.
pub(crate) fn window_value(
    leaf: &mut Leaf,
    b: &mut Board,
    alpha: i32,
    beta: i32,
    last: Point,
) -> i32 {
    quiesce(leaf, b, alpha, beta, QDEPTH, last)
}

fn quiesce(leaf: &mut Leaf, b: &mut Board, alpha: i32, beta: i32, depth: u32, last: Point) -> i32 {
    let stand = evaluate_with(b, leaf.komi, leaf.status);
    if depth == 0 || stand >= beta {
        return stand;
    }
    let color = b.to_move();
    let mut moves: ArrayVec<(u16, i32), MAX_MOVES> = ArrayVec::new();
    tactical_moves(b, color, last, &mut moves);
    let mut best = stand;
    for i in 0..moves.len() {
        let mut j = i;
        for k in i + 1..moves.len() {
            if moves[k].1 > moves[j].1 {
                j = k;
            }
        }
        moves.swap(i, j);
        let p = moves[i].0 as Point;
        if !b.is_legal(color, p) {
            continue;
        }
        let u = b.play(color, p);
        leaf.nodes += 1;
        let v = -quiesce(leaf, b, -beta, -alpha.max(best), depth - 1, p);
        b.undo(&u);
        if v > best {
            best = v;
            if best >= beta {
                break;
            }
        }
    }
    best
}

fn push(moves: &mut ArrayVec<(u16, i32), MAX_MOVES>, p: Point, score: i32) {
    if let Some(m) = moves.iter_mut().find(|m| m.0 as Point == p) {
        m.1 = m.1.max(score);
    } else if !moves.is_full() {
        moves.push((p as u16, score));
    }
}

/// Captures, escapes and the ladder atari of the module docs, with an
/// ordering score (bigger blocks first, captures before escapes).
pub(crate) fn tactical_moves(
    b: &Board,
    color: Color,
    last: Point,
    moves: &mut ArrayVec<(u16, i32), MAX_MOVES>,
) {
    b.for_each_atari_block(color.opp(), |h| {
        if let Some(l) = b.first_liberty(h) {
            push(moves, l, 3000 + b.block_size(h) as i32);
        }
    });
    b.for_each_atari_block(color, |h| {
        if let Some(l) = b.first_liberty(h) {
            if saved_size(b, color, l) > 0 {
                push(moves, l, 2000 + b.block_size(h) as i32);
            }
        }
    });
    if last != PASS && b.color_at(last) == Some(color.opp()) && b.libs(last) == 2 {
        let mut libs = [PASS; 2];
        two_liberties(b, last, &mut libs);
        for (i, &l) in libs.iter().enumerate() {
            let other = libs[1 - i];
            // Not a self-atari: the new stone keeps two liberties, or the
            // attacker's block is at least not left with one while the
            // defender's other liberty is the attacker's last.
            if l != PASS && b.after_stone(color, l).is_none_or(|(n, _)| n >= 2) {
                push(moves, l, 1000 + (other != PASS) as i32);
            }
        }
    }
}

/// The two liberties of the block on `p` (which has exactly two).
fn two_liberties(b: &Board, p: Point, out: &mut [Point; 2]) {
    let mut n = 0;
    let mut stop = false;
    b.for_each_stone(p, |q| {
        if stop {
            return;
        }
        for x in Board::neighbors(q) {
            if b.cell(x) == EMPTY && !out[..n].contains(&x) {
                out[n] = x;
                n += 1;
                if n == 2 {
                    stop = true;
                    return;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::evaluate;
    use crate::search::testutil::board_from;

    fn value(b: &Board) -> i32 {
        let mut leaf = Leaf {
            komi: 0,
            status: None,
            nodes: 0,
        };
        leaf_value(&mut leaf, &mut b.clone(), PASS)
    }

    #[test]
    fn a_quiet_position_is_its_static_value() {
        let b = board_from(
            "
            .....
            .X...
            .....
            ...O.
            .....",
        );
        assert_eq!(value(&b), evaluate(&b, 0));
    }

    #[test]
    fn an_escape_saves_a_block_the_static_value_gives_up() {
        // Black's b6 is in atari; b5 connects it to black's wall below.
        let b = board_from(
            "
            .........
            .........
            .O.......
            OXO......
            .........
            .........
            XXXX.....
            .........
            .........",
        );
        let at = Board::point_at;
        assert_eq!(b.libs(at(1, 5)), 1);
        let mut moves = ArrayVec::new();
        tactical_moves(&b, Color::Black, PASS, &mut moves);
        assert!(moves.iter().any(|m| m.0 as Point == at(1, 4)));
        assert!(value(&b) > evaluate(&b, 0));
    }

    #[test]
    fn the_block_that_just_escaped_is_laddered() {
        // Black escaped from e5 to f5 and has two liberties, f6 and f4:
        // white considers both ataris, and black then the next escape.
        let b = board_from(
            "
            .........
            .........
            .........
            ....O....
            ...OXXO..
            ....O....
            .........
            .........
            .........",
        );
        let at = Board::point_at;
        let mut w = b.clone();
        w.set_to_move(Color::White);
        let mut moves = ArrayVec::new();
        tactical_moves(&w, Color::White, at(5, 4), &mut moves);
        let mut got: Vec<Point> = moves.iter().map(|m| m.0 as Point).collect();
        got.sort_unstable();
        assert_eq!(got, vec![at(5, 3), at(5, 5)]);
        // Without a last move next to it, no atari is generated.
        moves.clear();
        tactical_moves(&w, Color::White, PASS, &mut moves);
        assert!(moves.is_empty());
    }
}
