//! Area scoring (stones plus surrounded empty points, as in the Chinese and
//! Tromp–Taylor rules), given a set of stones agreed to be dead.

use super::board::{Board, Point, BLACK, BORDER, EMPTY, NUM_POINTS, WHITE};
use super::color::Color;
use arrayvec::ArrayVec;

/// Who owns each point once dead stones are taken off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Black,
    White,
    /// An empty region touching both colours (or none).
    Neutral,
}

/// The owner of every on-board point (indexed by `Point`), treating the
/// stones in `dead` as removed.
pub fn ownership(board: &Board, dead: &[Point]) -> [Owner; NUM_POINTS] {
    let mut cells = [BORDER; NUM_POINTS];
    for p in board.points() {
        cells[p] = board.cell(p);
    }
    for &p in dead {
        cells[p] = EMPTY;
    }
    let mut owner = [Owner::Neutral; NUM_POINTS];
    let mut seen = [false; NUM_POINTS];
    let mut region: ArrayVec<Point, { super::board::MAX_POINTS }> = ArrayVec::new();
    for p in board.points() {
        match cells[p] {
            BLACK => owner[p] = Owner::Black,
            WHITE => owner[p] = Owner::White,
            EMPTY if !seen[p] => {
                region.clear();
                region.push(p);
                seen[p] = true;
                let (mut black, mut white) = (false, false);
                let mut i = 0;
                while i < region.len() {
                    for n in Board::neighbors(region[i]) {
                        match cells[n] {
                            EMPTY if !seen[n] => {
                                seen[n] = true;
                                region.push(n);
                            }
                            BLACK => black = true,
                            WHITE => white = true,
                            _ => {}
                        }
                    }
                    i += 1;
                }
                let o = match (black, white) {
                    (true, false) => Owner::Black,
                    (false, true) => Owner::White,
                    _ => Owner::Neutral,
                };
                for &q in &region {
                    owner[q] = o;
                }
            }
            _ => {}
        }
    }
    owner
}

/// Black's area minus white's area minus komi.
pub fn area_score(board: &Board, dead: &[Point], komi: f64) -> f64 {
    let owner = ownership(board, dead);
    let mut diff = 0i32;
    for p in board.points() {
        match owner[p] {
            Owner::Black => diff += 1,
            Owner::White => diff -= 1,
            Owner::Neutral => {}
        }
    }
    diff as f64 - komi
}

/// GTP's score string: `B+3.5`, `W+0.5` or `0`.
pub fn format_score(score: f64) -> String {
    if score > 0.0 {
        format!("B+{}", fmt_num(score))
    } else if score < 0.0 {
        format!("W+{}", fmt_num(-score))
    } else {
        "0".to_string()
    }
}

/// The shortest decimal form, after rounding away the binary noise of
/// komi arithmetic (`0.9 - 1.0` must print as `0.1`).
fn fmt_num(x: f64) -> String {
    let rounded = (x * 1e6).round() / 1e6;
    format!("{rounded}")
}

/// The score from `color`'s point of view.
pub fn for_color(score: f64, color: Color) -> f64 {
    match color {
        Color::Black => score,
        Color::White => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_is_neutral() {
        let b = Board::new(9);
        assert_eq!(area_score(&b, &[], 7.5), -7.5);
        assert_eq!(format_score(-7.5), "W+7.5");
        assert_eq!(format_score(3.0), "B+3");
        assert_eq!(format_score(0.0), "0");
        assert_eq!(format_score(1.0 - 0.9), "B+0.1");
        assert_eq!(format_score(-1e19), "W+10000000000000000000");
    }

    #[test]
    fn one_stone_owns_the_board() {
        let mut b = Board::new(5);
        b.play(Color::Black, Board::point_at(2, 2));
        assert_eq!(area_score(&b, &[], 0.5), 24.5);
        let dead = [Board::point_at(2, 2)];
        assert_eq!(area_score(&b, &dead, 0.5), -0.5);
    }
}
