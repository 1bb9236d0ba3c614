//! Territory and moyo by mathematical morphology: Zobrist's influence seeds
//! (A. Zobrist, "A model of visual organization for the game of Go", 1969)
//! grown by dilations and cut back by erosions, after B. Bouzy,
//! "Mathematical morphology applied to computer Go" (IJPRAI 17(2), 2003).
//!
//! Every stone seeds `+SEED` (black) or `-SEED` (white). Bouzy's operators
//! on the values `v`, over the points of the board:
//!
//! - **dilation**: a point that is not negative and has no negative
//!   neighbour gains the number of its positive neighbours (and the mirror
//!   image for white);
//! - **erosion**: a positive point loses the number of its on-board
//!   neighbours that are not positive, stopping at zero (and the mirror
//!   image).
//!
//! `D` dilations then `E = 1 + D(D - 1)` erosions leave exactly the
//! territory a human would call one: a lone stone in open space claims
//! nothing, a wall claims what lies behind it, and scattered stones next to
//! enemy stones are eroded away. Bouzy's 5/21 is the territory map; GNU Go's
//! influence code uses the same dilations with only 10 erosions as its
//! "moyo" map, which [`maps`] returns too. The 5/21 operator is what makes
//! the evaluation stop rewarding thin, scattered stones: the old
//! distance-based estimate gave a lone stone every point within three steps.
//!
//! Everything works on two stack arrays over the padded board and
//! allocates nothing.

use crate::go::board::{Board, BORDER, NUM_POINTS, STRIDE};

/// Seed value of a stone (Bouzy's 128: large enough that no erosion
/// sequence used here empties a stone).
pub const SEED: i16 = 128;
/// Dilations of both maps.
pub const DILATIONS: usize = 5;
/// Erosions of the moyo map (GNU Go's 5/10).
pub const MOYO_EROSIONS: usize = 10;
/// Erosions of the territory map (Bouzy's 5/21).
pub const TERRITORY_EROSIONS: usize = 1 + DILATIONS * (DILATIONS - 1);

// `maps` relies on the dilations and moyo erosions being odd in number
// together, and on an even number of territory erosions after the first.
const _: () = assert!((DILATIONS + MOYO_EROSIONS) % 2 == 1);
const _: () = assert!((TERRITORY_EROSIONS - MOYO_EROSIONS - 1).is_multiple_of(2));

/// Influence values over the padded board (border cells stay 0).
pub type Field = [i16; NUM_POINTS];

#[inline]
fn offsets() -> [isize; 4] {
    [-(STRIDE as isize), -1, 1, STRIDE as isize]
}

/// Counts the positive and negative neighbours of `p`.
#[inline]
fn signs(v: &Field, p: usize) -> (i16, i16) {
    let (mut pos, mut neg) = (0, 0);
    for o in offsets() {
        let x = v[(p as isize + o) as usize];
        pos += (x > 0) as i16;
        neg += (x < 0) as i16;
    }
    (pos, neg)
}

/// On-board neighbours of every point of `board`.
fn degrees(board: &Board, deg: &mut [u8; NUM_POINTS]) {
    let n = board.size();
    for row in 0..n {
        let base = Board::point_at(0, row);
        for (p, d) in deg.iter_mut().enumerate().skip(base).take(n) {
            *d = Board::neighbors(p)
                .iter()
                .filter(|&&q| board.cell(q) != BORDER)
                .count() as u8;
        }
    }
}

fn dilate(board: &Board, from: &Field, to: &mut Field) {
    let n = board.size();
    for row in 0..n {
        let base = Board::point_at(0, row);
        for p in base..base + n {
            let x = from[p];
            let (pos, neg) = signs(from, p);
            to[p] = if x >= 0 && neg == 0 {
                x + pos
            } else if x <= 0 && pos == 0 {
                x - neg
            } else {
                x
            };
        }
    }
}

fn erode(board: &Board, deg: &[u8; NUM_POINTS], from: &Field, to: &mut Field) {
    let n = board.size();
    for row in 0..n {
        let base = Board::point_at(0, row);
        for p in base..base + n {
            let x = from[p];
            if x == 0 {
                // Erosion never makes a point non-zero.
                to[p] = 0;
                continue;
            }
            let (pos, neg) = signs(from, p);
            let d = deg[p] as i16;
            to[p] = if x > 0 {
                (x - (d - pos)).max(0)
            } else if x < 0 {
                (x + (d - neg)).min(0)
            } else {
                0
            };
        }
    }
}

/// Computes the moyo map (5/10) into `moyo` and the territory map (5/21)
/// into `territory` from the seeds already in `territory` (`±SEED` on the
/// stones and points to count as stones, 0 elsewhere, border cells 0).
pub fn maps(board: &Board, territory: &mut Field, moyo: &mut Field) {
    let mut deg = [0u8; NUM_POINTS];
    degrees(board, &mut deg);
    // Fifteen steps ping-pong between the two buffers and, being odd in
    // number, leave the 5/10 map in `moyo`; the eleven erosions left go
    // from there back into `territory` through one scratch buffer.
    moyo.fill(0);
    for i in 0..DILATIONS {
        if i % 2 == 0 {
            dilate(board, territory, moyo);
        } else {
            dilate(board, moyo, territory);
        }
    }
    for i in DILATIONS..DILATIONS + MOYO_EROSIONS {
        if i % 2 == 0 {
            erode(board, &deg, territory, moyo);
        } else {
            erode(board, &deg, moyo, territory);
        }
    }
    erode(board, &deg, moyo, territory);
    let mut scratch: Field = [0; NUM_POINTS];
    for _ in 0..(TERRITORY_EROSIONS - MOYO_EROSIONS - 1) / 2 {
        erode(board, &deg, territory, &mut scratch);
        erode(board, &deg, &scratch, territory);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    fn seeded(board: &Board) -> Field {
        let mut f = [0; NUM_POINTS];
        for p in board.points() {
            f[p] = match board.color_at(p) {
                Some(Color::Black) => SEED,
                Some(Color::White) => -SEED,
                None => 0,
            };
        }
        f
    }

    fn counts(board: &Board, f: &Field) -> (usize, usize) {
        let empty = board.points().filter(|&p| board.is_empty(p));
        let (mut b, mut w) = (0, 0);
        for p in empty {
            b += (f[p] > 0) as usize;
            w += (f[p] < 0) as usize;
        }
        (b, w)
    }

    #[test]
    fn a_lone_centre_stone_has_moyo_but_no_territory() {
        let mut b = Board::new(9);
        b.play(Color::Black, Board::point_at(4, 4));
        let mut t = seeded(&b);
        let mut m = [0; NUM_POINTS];
        maps(&b, &mut t, &mut m);
        assert_eq!(counts(&b, &t), (0, 0));
        let (mb, mw) = counts(&b, &m);
        assert!(mb >= 4 && mw == 0, "moyo {mb}");
    }

    #[test]
    fn a_wall_encloses_territory_and_the_other_side_erodes() {
        // A black wall on the fourth line: the area behind it is black's,
        // a white stone across the board keeps its own side.
        let mut b = Board::new(9);
        for c in 0..9 {
            b.play(Color::Black, Board::point_at(c, 3));
        }
        b.play(Color::White, Board::point_at(4, 7));
        let mut t = seeded(&b);
        let mut m = [0; NUM_POINTS];
        maps(&b, &mut t, &mut m);
        for c in 0..9 {
            for r in 0..3 {
                assert!(t[Board::point_at(c, r)] > 0, "({c},{r})");
            }
        }
        assert!(t[Board::point_at(4, 6)] <= 0);
        assert!(t[Board::point_at(4, 4)] >= 0);
    }
}
