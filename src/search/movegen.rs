//! Candidate moves for the tree search and their static ordering hints.
//!
//! Every legal move is a candidate except filling one's own true eye, which
//! can never gain under area scoring and would let a full-width search waste
//! whole subtrees on suicide-like moves, and (from 7×7 up) a first-line
//! point with no stone around it. On boards of 13×13 and up the search
//! cannot afford full width at every node, so candidates are limited to
//! points near stones (and a few corner points that open the game), but a
//! move that captures or saves a block in atari is always kept: tactics are
//! what a shallow search must not miss.
//!
//! Everything here works on fixed-size arrays: the search calls it at every
//! interior node and must not allocate (see [`super`]).

use crate::go::board::{Board, Point, BORDER, EMPTY, MAX_POINTS, NUM_POINTS};
use crate::go::Color;
use arrayvec::ArrayVec;

/// A move with its ordering score (higher is tried first).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scored {
    pub p: u16,
    pub score: i32,
}

/// Room for every point of the largest board plus the pass.
pub(crate) type MoveList = ArrayVec<Scored, { MAX_POINTS + 1 }>;

/// Ordering bonuses; the search adds killers, history and the TT move.
pub(crate) const CAPTURE_BONUS: i32 = 1_000_000;
pub(crate) const SAVE_BONUS: i32 = 900_000;
pub(crate) const ATARI_BONUS: i32 = 20_000;

/// Boards from this size up restrict candidates to points near stones.
pub(crate) const RESTRICT_FROM_SIZE: usize = 13;

/// Chebyshev distance from an existing stone within which a point is a
/// candidate on restricted boards: covers contact plays, one- and two-space
/// jumps, knight's and large knight's moves in the stone's neighbourhood.
const NEAR: usize = 2;

#[inline]
fn cell(b: &Board, p: Point) -> u8 {
    // `Board::diagonals` of the top-right corner of a 25×25 board lies one
    // past the padded array; treat anything past it as border.
    if p < NUM_POINTS {
        b.cell(p)
    } else {
        BORDER
    }
}

/// Whether the empty point `p` is a true eye of `color`: every orthogonal
/// neighbour is an own stone or the edge, and the diagonals leave no way to
/// make it false — in the centre at most one diagonal may be an enemy stone
/// or empty, on the edge or in the corner none may.
pub fn is_true_eye(b: &Board, color: Color, p: Point) -> bool {
    if b.cell(p) != EMPTY {
        return false;
    }
    let own = color.cell();
    if Board::neighbors(p)
        .iter()
        .any(|&n| b.cell(n) != own && b.cell(n) != BORDER)
    {
        return false;
    }
    let (mut off, mut bad) = (0, 0);
    for d in Board::diagonals(p) {
        match cell(b, d) {
            BORDER => off += 1,
            c if c == own => {}
            _ => bad += 1,
        }
    }
    if off > 0 {
        bad == 0
    } else {
        bad <= 1
    }
}

/// Stones `color` would capture by playing `p` (0 if none).
#[inline]
pub(crate) fn capture_size(b: &Board, color: Color, p: Point) -> usize {
    let enemy = color.opp().cell();
    let mut heads = [0usize; 4];
    let mut n_heads = 0;
    let mut total = 0;
    for n in Board::neighbors(p) {
        if b.cell(n) == enemy && b.libs(n) == 1 {
            let h = b.block(n);
            if !heads[..n_heads].contains(&h) {
                heads[n_heads] = h;
                n_heads += 1;
                total += b.block_size(n);
            }
        }
    }
    total
}

/// Stones of `color` in atari next to `p` that playing `p` probably saves:
/// the new block gets at least two liberties from empty neighbours, from
/// other own blocks it joins, or from a capture. Returns 0 if none.
#[inline]
pub(crate) fn saved_size(b: &Board, color: Color, p: Point) -> usize {
    let own = color.cell();
    let mut in_atari = 0;
    let mut libs = 0;
    for n in Board::neighbors(p) {
        let c = b.cell(n);
        if c == EMPTY {
            libs += 1;
        } else if c == own {
            if b.libs(n) == 1 {
                in_atari += b.block_size(n);
            } else {
                // Shared liberties make this an overestimate, which is fine
                // for ordering and harmless for keeping a candidate.
                libs += b.libs(n) - 1;
            }
        }
    }
    if in_atari > 0 && (libs >= 2 || capture_size(b, color, p) > 0) {
        in_atari
    } else {
        0
    }
}

/// Whether `p` takes an enemy block down to one liberty.
#[inline]
fn gives_atari(b: &Board, color: Color, p: Point) -> bool {
    let enemy = color.opp().cell();
    Board::neighbors(p)
        .iter()
        .any(|&n| b.cell(n) == enemy && b.libs(n) == 2)
}

/// Boards from this size up never play a first-line point with no stone
/// among its eight neighbours.
pub(crate) const EDGE_RULE_FROM_SIZE: usize = 7;

/// Whether `p` is a first-line point of a board of at least
/// [`EDGE_RULE_FROM_SIZE`] with no stone around it. Such a move is next to
/// worthless (it claims nothing and is easily cut off), yet the territory
/// estimate, which erodes the edge more slowly than the centre, likes it:
/// lost games against GNU Go were full of them.
#[inline]
fn lonely_edge(b: &Board, p: Point) -> bool {
    let n = b.size();
    if n < EDGE_RULE_FROM_SIZE {
        return false;
    }
    let v = Board::vertex(p);
    let (c, r) = (v.col as usize, v.row as usize);
    if c != 0 && r != 0 && c != n - 1 && r != n - 1 {
        return false;
    }
    let stone = |q: Point| {
        let x = cell(b, q);
        x != EMPTY && x != BORDER
    };
    !Board::neighbors(p).into_iter().any(stone) && !Board::diagonals(p).into_iter().any(stone)
}

/// Marks the points within Chebyshev distance [`NEAR`] of a stone, plus the
/// 3-3, 3-4, 4-3 and 4-4 points of each corner.
pub(crate) fn near_mask(b: &Board, mask: &mut [bool; NUM_POINTS]) {
    mask.fill(false);
    let n = b.size();
    for p in b.points() {
        if b.color_at(p).is_some() {
            let v = Board::vertex(p);
            let (c, r) = (v.col as usize, v.row as usize);
            for row in r.saturating_sub(NEAR)..=(r + NEAR).min(n - 1) {
                for col in c.saturating_sub(NEAR)..=(c + NEAR).min(n - 1) {
                    mask[Board::point_at(col, row)] = true;
                }
            }
        }
    }
    if n >= 7 {
        for &(a, bb) in &[(2, 2), (2, 3), (3, 2), (3, 3)] {
            for &(c, r) in &[
                (a, bb),
                (n - 1 - a, bb),
                (a, n - 1 - bb),
                (n - 1 - a, n - 1 - bb),
            ] {
                mask[Board::point_at(c, r)] = true;
            }
        }
    }
}

/// Writes `color`'s candidate moves (not the pass) with static ordering
/// scores into `out`. `mask` is scratch space, used when `restrict` is set.
pub(crate) fn candidates(
    b: &Board,
    color: Color,
    restrict: bool,
    mask: &mut [bool; NUM_POINTS],
    out: &mut MoveList,
) {
    out.clear();
    if restrict {
        near_mask(b, mask);
    }
    for p in b.points() {
        if b.cell(p) != EMPTY || is_true_eye(b, color, p) || !b.is_legal(color, p) {
            continue;
        }
        let captured = capture_size(b, color, p);
        let saved = saved_size(b, color, p);
        if captured == 0 && saved == 0 && ((restrict && !mask[p]) || lonely_edge(b, p)) {
            continue;
        }
        let mut score = 0;
        if captured > 0 {
            score += CAPTURE_BONUS + 1000 * captured as i32;
        }
        if saved > 0 {
            score += SAVE_BONUS + 1000 * saved as i32;
        }
        if gives_atari(b, color, p) {
            score += ATARI_BONUS;
        }
        out.push(Scored { p: p as u16, score });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    #[test]
    fn true_eyes_on_edge_corner_and_centre() {
        let b = board_from(
            "
            .X.X.
            XXXXX
            X.X.X
            XXXXX
            .X.X.",
        );
        let at = Board::point_at;
        for &(c, r) in &[
            (0, 0),
            (2, 0),
            (4, 0),
            (0, 4),
            (2, 4),
            (4, 4),
            (1, 2),
            (3, 2),
        ] {
            assert!(is_true_eye(&b, Color::Black, at(c, r)), "({c},{r})");
            assert!(!is_true_eye(&b, Color::White, at(c, r)));
        }
    }

    #[test]
    fn centre_eye_tolerates_one_bad_diagonal() {
        let at = Board::point_at;
        let b = board_from(
            "
            .....
            .OXX.
            .X.X.
            .XXX.
            .....",
        );
        assert!(is_true_eye(&b, Color::Black, at(2, 2)));
        let b = board_from(
            "
            .....
            .OX..
            .X.X.
            .XXX.
            .....",
        );
        assert!(!is_true_eye(&b, Color::Black, at(2, 2)));
    }

    #[test]
    fn edge_eye_with_an_empty_diagonal_is_false() {
        let b = board_from(
            "
            .....
            .....
            .....
            XX.X.
            X.X..",
        );
        // (1,0): neighbours (0,0),(2,0),(1,1) black; diagonal (2,1) empty.
        assert!(!is_true_eye(&b, Color::Black, Board::point_at(1, 0)));
    }

    #[test]
    fn restricted_candidates_are_near_stones() {
        let mut b = Board::new(19);
        let at = Board::point_at;
        b.play(Color::Black, at(9, 9));
        let mut mask = [false; NUM_POINTS];
        let mut out = MoveList::new();
        candidates(&b, Color::White, true, &mut mask, &mut out);
        // 5×5 around the stone minus the stone, plus 16 corner points.
        assert_eq!(out.len(), 24 + 16);
        let mut full = MoveList::new();
        candidates(&b, Color::White, false, &mut mask, &mut full);
        // Every point but the stone and the 72 lonely first-line points.
        assert_eq!(full.len(), 360 - 72);
        // A first-line point next to a stone is a candidate again.
        b.play(Color::Black, at(5, 1));
        candidates(&b, Color::White, false, &mut mask, &mut full);
        assert!(full.iter().any(|m| m.p as Point == at(5, 0)));
        assert!(!full.iter().any(|m| m.p as Point == at(9, 0)));
    }
}
