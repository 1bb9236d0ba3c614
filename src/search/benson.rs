//! Benson's unconditional life (D. B. Benson, "Life in the game of Go",
//! Information Sciences 10, 1976): the blocks of one colour that can never be
//! captured, even if their owner passes on every move, and the small regions
//! ("vital regions") that keep them alive.
//!
//! The evaluation ([`super::eval`]) runs this at every leaf of the search, so
//! it works on fixed arrays on the stack and never touches the heap.
//!
//! Definitions, for a colour X:
//! - an *X-enclosed region* is a maximal connected set of points that are not
//!   X stones (empty points and enemy stones alike);
//! - a region R is *vital* to an X block B when every empty point of R is a
//!   liberty of B (enemy stones inside R do not matter: they can only ever
//!   get liberties from R, which B touches everywhere);
//! - starting from all X blocks and all X-enclosed regions, repeatedly drop
//!   every block with fewer than two vital regions left, and every region that
//!   touches a dropped block. What remains when nothing changes is
//!   unconditionally alive.
//!
//! The vital regions of the surviving blocks are their owner's area for good:
//! the enemy can never make an eye there (every empty point touches the
//! alive block), so enemy stones inside are dead.

use crate::go::board::{Board, Point, BLACK, EMPTY, MAX_POINTS, NUM_POINTS, WHITE};
use crate::go::Color;
use arrayvec::ArrayVec;

/// What Benson's algorithm proves for one colour.
pub struct Life {
    /// True on the stones of unconditionally alive blocks.
    pub alive: [bool; NUM_POINTS],
    /// True on every point (empty or enemy stone) of a vital region of an
    /// alive block: the colour's area whatever happens.
    pub safe: [bool; NUM_POINTS],
    /// Whether any block is alive at all (lets callers skip the arrays).
    pub any: bool,
}

impl Life {
    fn none() -> Life {
        Life {
            alive: [false; NUM_POINTS],
            safe: [false; NUM_POINTS],
            any: false,
        }
    }
}

/// One (region, adjacent block) pair; a grid has fewer than two edges per
/// point, and every pair needs at least one edge, hence the capacity below.
#[derive(Clone, Copy)]
struct Pair {
    region: u16,
    block: u16,
    vital: bool,
}

#[derive(Clone, Copy, Default)]
struct Region {
    /// Range of the region's points in the shared point list.
    start: u16,
    len: u16,
    empties: u16,
    /// Range of the region's pairs in the pair list.
    pair_start: u16,
    pair_len: u16,
    live: bool,
}

/// Runs Benson's algorithm for `color` on `board`.
pub fn unconditional_life(board: &Board, color: Color) -> Life {
    let mut life = Life::none();
    let own = color.cell();

    // Blocks of `color`, by head.
    let mut blocks: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    for p in board.points() {
        if board.cell(p) == own && board.block(p) == p {
            blocks.push(p as u16);
        }
    }
    // Two vital regions need at least two blocks' worth of enclosure; with no
    // block at all there is nothing to prove.
    if blocks.is_empty() {
        return life;
    }

    // Regions: flood fill over non-`own` points, points listed contiguously.
    let mut region_of = [u16::MAX; NUM_POINTS];
    let mut points: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    let mut regions: ArrayVec<Region, MAX_POINTS> = ArrayVec::new();
    for p in board.points() {
        let c = board.cell(p);
        if c == own || region_of[p] != u16::MAX {
            continue;
        }
        let id = regions.len() as u16;
        let start = points.len();
        region_of[p] = id;
        points.push(p as u16);
        let mut i = start;
        let mut empties = 0u16;
        while i < points.len() {
            let q = points[i] as Point;
            if board.cell(q) == EMPTY {
                empties += 1;
            }
            for n in Board::neighbors(q) {
                let cn = board.cell(n);
                if (cn == EMPTY || cn == opp_cell(own)) && region_of[n] == u16::MAX {
                    region_of[n] = id;
                    points.push(n as u16);
                }
            }
            i += 1;
        }
        regions.push(Region {
            start: start as u16,
            len: (points.len() - start) as u16,
            empties,
            pair_start: 0,
            pair_len: 0,
            live: true,
        });
    }

    // Pairs (region, adjacent block), each with its vital flag.
    let mut pairs: ArrayVec<Pair, { 2 * MAX_POINTS }> = ArrayVec::new();
    let mut seen_in = [u16::MAX; NUM_POINTS]; // by block head: last region that listed it
    for (id, r) in regions.iter_mut().enumerate() {
        r.pair_start = pairs.len() as u16;
        for k in r.start..r.start + r.len {
            let q = points[k as usize] as Point;
            for n in Board::neighbors(q) {
                if board.cell(n) == own {
                    let h = board.block(n);
                    if seen_in[h] != id as u16 {
                        seen_in[h] = id as u16;
                        pairs.push(Pair {
                            region: id as u16,
                            block: h as u16,
                            vital: false,
                        });
                    }
                }
            }
        }
        r.pair_len = pairs.len() as u16 - r.pair_start;
        let range = r.pair_start as usize..(r.pair_start + r.pair_len) as usize;
        for pair in &mut pairs[range] {
            let h = pair.block as Point;
            // A region with more empty points than the block has liberties
            // cannot have all of them as liberties.
            if r.empties == 0 || r.empties as usize > board.libs(h) {
                continue;
            }
            pair.vital = (r.start..r.start + r.len).all(|k| {
                let q = points[k as usize] as Point;
                board.cell(q) != EMPTY
                    || Board::neighbors(q)
                        .iter()
                        .any(|&n| board.cell(n) == own && board.block(n) == h)
            });
        }
    }
    if !pairs.iter().any(|p| p.vital) {
        return life;
    }

    let mut block_live = [false; NUM_POINTS];
    for &h in &blocks {
        block_live[h as usize] = true;
    }
    let mut vital_count = [0u8; NUM_POINTS];
    loop {
        let mut changed = false;
        for &h in &blocks {
            vital_count[h as usize] = 0;
        }
        for pair in &pairs {
            if pair.vital && regions[pair.region as usize].live {
                let v = &mut vital_count[pair.block as usize];
                *v = v.saturating_add(1);
            }
        }
        for &h in &blocks {
            if block_live[h as usize] && vital_count[h as usize] < 2 {
                block_live[h as usize] = false;
                changed = true;
            }
        }
        for r in regions.iter_mut().filter(|r| r.live) {
            let range = r.pair_start as usize..(r.pair_start + r.pair_len) as usize;
            if pairs[range]
                .iter()
                .any(|pair| !block_live[pair.block as usize])
            {
                r.live = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    for &h in &blocks {
        if block_live[h as usize] {
            life.any = true;
            board.for_each_stone(h as Point, |q| life.alive[q] = true);
        }
    }
    if !life.any {
        return life;
    }
    for r in regions.iter().filter(|r| r.live) {
        let range = r.pair_start as usize..(r.pair_start + r.pair_len) as usize;
        if pairs[range].iter().any(|pair| pair.vital) {
            for k in r.start..r.start + r.len {
                life.safe[points[k as usize] as usize] = true;
            }
        }
    }
    life
}

#[inline]
fn opp_cell(own: u8) -> u8 {
    if own == BLACK {
        WHITE
    } else {
        BLACK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    fn alive_at(b: &Board, c: Color, col: usize, row: usize) -> bool {
        unconditional_life(b, c).alive[Board::point_at(col, row)]
    }

    #[test]
    fn two_eyes_in_the_corner_live() {
        // Diagrams list rows from the top; the last line is row 0.
        let b = board_from(
            "
            .....
            .....
            .....
            XXXX.
            .X.X.",
        );
        let life = unconditional_life(&b, Color::Black);
        assert!(life.any);
        assert!(life.alive[Board::point_at(0, 1)]);
        assert!(life.safe[Board::point_at(0, 0)]);
        assert!(life.safe[Board::point_at(2, 0)]);
        assert!(!life.safe[Board::point_at(4, 0)]);
        assert!(!life.safe[Board::point_at(4, 4)]);
        assert!(!unconditional_life(&b, Color::White).any);
    }

    #[test]
    fn one_eye_is_not_enough() {
        let b = board_from(
            "
            .....
            .....
            XXX..
            ..X..
            XXX..",
        );
        assert!(!unconditional_life(&b, Color::Black).any);
        assert!(!alive_at(&b, Color::Black, 0, 2));
    }

    #[test]
    fn one_big_eye_is_not_two() {
        // A single enclosed region of three points is one vital region only.
        let b = board_from(
            "
            .....
            XXXX.
            ...X.
            XXXX.
            .....",
        );
        assert!(!unconditional_life(&b, Color::Black).any);
    }

    #[test]
    fn false_eye_does_not_count() {
        // The main block has a real eye at (1,2), but its other regions,
        // {(2,1)} and {(0,0),(1,0)}, also touch the lone stones at (3,1) and
        // (2,0), which have one vital region each and fall; so do the regions
        // they touch, and the main block is left with a single eye.
        let b = board_from(
            "
            .....
            XXX..
            X.X..
            XX.X.
            ..X..",
        );
        let life = unconditional_life(&b, Color::Black);
        assert!(!life.any);
        assert!(!alive_at(&b, Color::Black, 0, 3));
        // Connect the lone stones to the main block and both eyes are real.
        let b = board_from(
            "
            .....
            XXXX.
            X.XX.
            XX.X.
            ..XX.",
        );
        assert!(alive_at(&b, Color::Black, 0, 3));
    }

    #[test]
    fn enemy_stones_in_a_vital_region_are_dead() {
        let b = board_from(
            "
            .XOX.
            XX.X.
            .XXX.
            XX...
            .X...",
        );
        let life = unconditional_life(&b, Color::Black);
        assert!(life.alive[Board::point_at(1, 3)]);
        // The white stone at (2,4) sits in the region {(2,4),(2,3)}, whose
        // only empty point is a liberty of the black block.
        assert!(life.safe[Board::point_at(2, 4)]);
        assert!(life.safe[Board::point_at(0, 4)]);
        assert!(life.safe[Board::point_at(0, 0)]);
        assert!(!life.safe[Board::point_at(4, 0)]);
    }

    #[test]
    fn two_eyes_of_two_points_live() {
        let b = board_from(
            "
            .....
            XXXXX
            X.X.X
            X.X.X
            XXXXX",
        );
        let life = unconditional_life(&b, Color::Black);
        assert!(life.alive[Board::point_at(2, 2)]);
        assert!(life.safe[Board::point_at(1, 2)]);
        assert!(life.safe[Board::point_at(3, 1)]);
        // The top row is vital too: every point of it is a liberty, and a
        // strip one line wide can never hold an enemy eye.
        assert!(life.safe[Board::point_at(0, 4)]);
    }

    #[test]
    fn empty_board_has_no_life() {
        let b = Board::new(9);
        assert!(!unconditional_life(&b, Color::Black).any);
    }
}
