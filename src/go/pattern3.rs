//! The 3×3 shapes that the random games answer a move with: the hane,
//! cut and edge shapes of MoGo's playouts (S. Gelly, Y. Wang, R. Munos and
//! O. Teytaud, "Modification of UCT with patterns in Monte-Carlo Go",
//! INRIA report 6062, 2006, section 3.2 and its figures of hane, cut and
//! edge patterns).
//!
//! A shape is the eight points around an empty candidate point. The paper
//! plays, after each move, one of the candidate points next to that move
//! whose surroundings match a shape, which turns a random game into a
//! sequence of local answers (a hane is blocked, a cut is connected) and
//! made MoGo's random games far better judges of a position than uniform
//! ones.
//!
//! Every shape holds for either colour to move and in each of its eight
//! rotations and reflections, so one table of 2¹⁶ bits answers for every
//! surrounding: its index packs the eight cells (empty, black, white,
//! border: two bits each) clockwise from the point above. The table is
//! built when the program is compiled.

use super::board::{Board, Point, STRIDE};

/// The shapes, centre to be played. Rows are read top to bottom. `X` and
/// `O` are stones of the two colours (either may be the mover), `.` an
/// empty point, `#` the edge, `x` anything but an `X` stone (edge
/// included), `o` anything but an `O` stone, `?` anything.
const SHAPES: [&[u8; 9]; 13] = [
    // Hane that encloses a stone between two.
    b"XOX...???",
    // Hane that leaves no cut.
    b"XO....?.?",
    // Bent hane (magari).
    b"XO?X..x.?",
    // Diagonal attachment next to a stone (katatsuke).
    b".O.X.....",
    // Cut that nothing protects.
    b"XO?O.o?o?",
    // Cut of a peeped point.
    b"XO?O.X???",
    // Cut between two stones facing a third.
    b"?X?O.Oooo",
    // Cut of a knight's move.
    b"OX?o.O???",
    // Edge: chase along the side.
    b"X.?O.?###",
    // Edge: block a cut along the side.
    b"OX?X.O###",
    // Edge: block a connection along the side.
    b"?X?x.O###",
    // Edge: descend (sagari).
    b"?XOx.x###",
    // Edge: cut along the side.
    b"?OXX.O###",
];

/// Grid index (row × 3 + column) of each ring position, clockwise from
/// the point above the centre.
const RING: [usize; 8] = [1, 2, 5, 8, 7, 6, 3, 0];

/// The cell values (bit `v` for value `v`: empty 0, black 1, white 2,
/// border 3) that a shape's character allows, with the colours swapped
/// when `swap`.
const fn allowed(ch: u8, swap: bool) -> u8 {
    let m = match ch {
        b'.' => 0b0001,
        b'X' => 0b0010,
        b'O' => 0b0100,
        b'#' => 0b1000,
        b'x' => 0b1101,
        b'o' => 0b1011,
        b'?' => 0b1111,
        _ => panic!("bad shape character"),
    };
    if swap {
        (m & 0b1001) | ((m & 0b0010) << 1) | ((m & 0b0100) >> 1)
    } else {
        m
    }
}

/// Sets the bit of every surrounding that the ring masks `m` allow.
const fn mark_all(table: &mut [u64; 1024], m: &[u8; 8]) {
    // An odometer over the eight cells, each running through its
    // allowed values.
    let mut value = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        value[j] = m[j].trailing_zeros() as u8;
        j += 1;
    }
    loop {
        let mut code = 0usize;
        let mut j = 0;
        while j < 8 {
            code |= (value[j] as usize) << (2 * j);
            j += 1;
        }
        table[code >> 6] |= 1 << (code & 63);
        let mut j = 0;
        loop {
            if j == 8 {
                return;
            }
            let higher = m[j] & !((2u8 << value[j]) - 1);
            if higher != 0 {
                value[j] = higher.trailing_zeros() as u8;
                break;
            }
            value[j] = m[j].trailing_zeros() as u8;
            j += 1;
        }
    }
}

const fn build() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut s = 0;
    while s < SHAPES.len() {
        let shape = SHAPES[s];
        assert!(shape[4] == b'.', "a shape's centre is the move");
        let mut t = 0;
        // Four rotations, each with and without a reflection, each for
        // either colour.
        while t < 16 {
            let (rot, flip, swap) = (t % 4, (t / 4) % 2 == 1, t / 8 == 1);
            let mut m = [0u8; 8];
            let mut i = 0;
            while i < 8 {
                let reflected = if flip { (8 - i) % 8 } else { i };
                m[(reflected + 2 * rot) % 8] = allowed(shape[RING[i]], swap);
                i += 1;
            }
            mark_all(&mut table, &m);
            t += 1;
        }
        s += 1;
    }
    table
}

static TABLE: [u64; 1024] = build();

/// The surrounding of `p`: its eight cells clockwise from the one above,
/// two bits each.
#[inline]
pub fn code(b: &Board, p: Point) -> usize {
    let ring = [
        p + STRIDE,
        p + STRIDE + 1,
        p + 1,
        p + 1 - STRIDE,
        p - STRIDE,
        p - STRIDE - 1,
        p - 1,
        p + STRIDE - 1,
    ];
    let mut c = 0;
    for (j, q) in ring.into_iter().enumerate() {
        c |= usize::from(b.cell(q)) << (2 * j);
    }
    c
}

/// Whether a surrounding (see [`code`]) is one of the shapes.
#[inline]
pub fn is_shape(code: usize) -> bool {
    TABLE[code >> 6] >> (code & 63) & 1 != 0
}

/// Whether the surrounding of the empty point `p` is one of the shapes.
#[inline]
pub fn matches(b: &Board, p: Point) -> bool {
    is_shape(code(b, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    /// A board from rows of `X`, `O` and `.`, top row first.
    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len());
        for (r, line) in rows.iter().enumerate() {
            let row = rows.len() - 1 - r;
            for (col, ch) in line.bytes().enumerate() {
                let c = match ch {
                    b'X' => Some(Color::Black),
                    b'O' => Some(Color::White),
                    _ => None,
                };
                b.set_point(Board::point_at(col, row), c);
            }
        }
        b
    }

    fn at(b: &Board, col: usize, row_from_top: usize) -> Point {
        Board::point_at(col, b.size() - 1 - row_from_top)
    }

    fn rotate(code: usize) -> usize {
        ((code << 4) | (code >> 12)) & 0xFFFF
    }

    fn reflect(code: usize) -> usize {
        (0..8).fold(0, |c, i| c | ((code >> (2 * i)) & 3) << (2 * ((8 - i) % 8)))
    }

    fn swap(code: usize) -> usize {
        (0..8).fold(0, |c, i| {
            let v = match (code >> (2 * i)) & 3 {
                1 => 2,
                2 => 1,
                v => v,
            };
            c | v << (2 * i)
        })
    }

    #[test]
    fn the_table_is_symmetric() {
        let mut count = 0;
        for c in 0..1 << 16 {
            let m = is_shape(c);
            count += usize::from(m);
            assert_eq!(m, is_shape(rotate(c)), "rotation of {c:#x}");
            assert_eq!(m, is_shape(reflect(c)), "reflection of {c:#x}");
            assert_eq!(m, is_shape(swap(c)), "colours of {c:#x}");
        }
        // Shapes are rare among surroundings: most of them hold stones
        // the patterns do not name.
        assert!(count > 100 && count < 1 << 14, "{count} surroundings");
    }

    #[test]
    fn shapes_on_a_board() {
        let b = board(&[
            ".....", //
            ".XO..", //
            ".....", //
            ".....", //
            ".....", //
        ]);
        // Below the white stone: the hane that leaves no cut (under the
        // black stone too, by symmetry).
        assert!(matches(&b, at(&b, 2, 2)));
        assert!(matches(&b, at(&b, 1, 2)));
        // Far from both stones, and beside a lone stone: nothing.
        assert!(!matches(&b, at(&b, 4, 4)));
        let lone = board(&[".....", ".....", "..X..", ".....", "....."]);
        assert!(!matches(&lone, at(&lone, 2, 1)));
        assert!(!matches(&lone, at(&lone, 1, 1)));
        // A cut through a diagonal of two white stones between black ones.
        let cut = board(&[".....", ".XO..", ".O.X.", ".....", "....."]);
        assert!(matches(&cut, at(&cut, 2, 2)));
        // An edge shape needs the edge: a chase along the side.
        let edge = board(&[".....", ".....", ".....", "X....", "O...."]);
        assert!(matches(&edge, at(&edge, 1, 4)));
    }
}
