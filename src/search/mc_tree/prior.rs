//! Prior knowledge for new nodes of the RAVE tree (Gelly and Silver,
//! "Combining online and offline knowledge in UCT", ICML 2007, section 5:
//! a new child starts with a number of virtual games at a value that a
//! heuristic gives). The virtual games go into the all-moves-as-first
//! sums, which decide a child's value until it has games of its own.

use crate::go::board::{Board, Point, PASS};
use crate::go::Color;

/// Virtual games and their mean for the move `p` of `color` on `b`, whose
/// previous move was `last`.
pub(super) fn prior(b: &Board, color: Color, p: Point, last: Point) -> (u32, f64) {
    // Even-game prior: every move starts as if it had drawn a few games.
    let mut n = EVEN;
    let mut wins = 0.5 * f64::from(EVEN);
    let mut add = |games: u32, value: f64| {
        n += games;
        wins += f64::from(games) * value;
    };
    match b.after_stone(color, p) {
        // A capture.
        None => add(20, 1.0),
        // A self-atari of one stone that captures nothing.
        Some((1, _)) => add(20, 0.0),
        Some(_) => {
            if escapes_atari(b, color, p) {
                add(20, 1.0);
            }
        }
    }
    let v = Board::vertex(p);
    let size = b.size() as i32;
    let (x, y) = (i32::from(v.col), i32::from(v.row));
    let line = 1 + x.min(y).min(size - 1 - x).min(size - 1 - y);
    if line <= 2 && !stones_near(b, x, y, size) {
        add(20, if line == 1 { 0.0 } else { 0.3 });
    }
    if last != PASS
        && !b.is_empty(last)
        && (Board::neighbors(p).contains(&last) || Board::diagonals(p).contains(&last))
    {
        add(10, 1.0);
    }
    (n, wins)
}

const EVEN: u32 = 10;

fn escapes_atari(b: &Board, color: Color, p: Point) -> bool {
    Board::neighbors(p)
        .iter()
        .any(|&q| b.color_at(q) == Some(color) && b.libs(q) == 1)
}

fn stones_near(b: &Board, x: i32, y: i32, size: i32) -> bool {
    for dy in -2..=2i32 {
        for dx in -2..=2i32 {
            let (cx, cy) = (x + dx, y + dy);
            if dx.abs() + dy.abs() <= 2
                && (0..size).contains(&cx)
                && (0..size).contains(&cy)
                && !b.is_empty(Board::point_at(cx as usize, cy as usize))
            {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    fn mean(b: &Board, color: Color, x: usize, y: usize, last: Point) -> f64 {
        let (n, wins) = prior(b, color, Board::point_at(x, y), last);
        wins / f64::from(n)
    }

    #[test]
    fn the_edge_of_an_empty_board_starts_low_and_its_centre_even() {
        let b = Board::new(9);
        assert_eq!(mean(&b, Color::Black, 4, 4, PASS), 0.5);
        assert_eq!(mean(&b, Color::Black, 2, 4, PASS), 0.5);
        assert!(mean(&b, Color::Black, 1, 4, PASS) < 0.45);
        assert!(mean(&b, Color::Black, 0, 4, PASS) < mean(&b, Color::Black, 1, 4, PASS));
    }

    #[test]
    fn captures_escapes_and_answers_start_high_self_ataris_low() {
        // White's stone at B6 is in atari: black captures at C6, white
        // escapes there.
        let b = board_from(
            "
            .X.....
            XO.....
            .X.....
            .......
            .......
            .......
            .......",
        );
        let capture = mean(&b, Color::Black, 2, 5, PASS);
        let quiet = mean(&b, Color::Black, 4, 4, PASS);
        assert!(capture > 0.6 && quiet == 0.5, "{capture} {quiet}");
        assert!(mean(&b, Color::White, 2, 5, PASS) > 0.6);
        // Next to the last move, a quiet move starts above even.
        let last = Board::point_at(1, 4);
        assert!(mean(&b, Color::White, 2, 4, last) > 0.5);
        assert_eq!(mean(&b, Color::White, 4, 3, last), 0.5);
        // B7 would be a black stone in atari that captures nothing.
        let b = board_from(
            "
            ..O....
            .O.....
            .......
            .......
            .......
            .......
            .......",
        );
        assert!(mean(&b, Color::Black, 1, 6, PASS) < 0.3);
    }
}
