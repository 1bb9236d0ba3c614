//! A per-cell array of the board indexed without a bounds check.
//!
//! The board's arrays (`cells`, `next`, `head`, `libs`, `stones`, `mark`)
//! are read on every neighbour of every move a solver looks at, and an
//! array of `NUM_POINTS` cells indexed by a `Point` pays a compare and a
//! branch per read for the bounds check. A [`Grid`] has a power-of-two
//! number of cells, [`GRID`], at least `NUM_POINTS`, and indexes with
//! `p & (GRID - 1)`: the compiler sees that the masked index is in bounds
//! and drops the check, all in safe code. The cells from `NUM_POINTS` on
//! are never a point of the board; `Board::new` fills them as border like
//! the padding around the board. A point at or past `GRID` would wrap
//! instead of panicking; no board code makes one (every point comes from
//! `point_at` or a neighbour of a point), and debug builds assert it.

use super::NUM_POINTS;
use std::ops::{Index, IndexMut};

/// Cells of a [`Grid`]: the power of two at or above `NUM_POINTS`.
pub const GRID: usize = NUM_POINTS.next_power_of_two();
const MASK: usize = GRID - 1;

/// A value per cell of the padded board, indexed by `Point`.
#[derive(Clone, Copy)]
pub struct Grid<T>([T; GRID]);

impl<T: Copy> Grid<T> {
    /// A grid with `v` in every cell.
    pub const fn filled(v: T) -> Grid<T> {
        Grid([v; GRID])
    }

    /// Exchanges the values of cells `a` and `b`.
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.0.swap(a & MASK, b & MASK);
    }
}

impl<T> Index<usize> for Grid<T> {
    type Output = T;

    #[inline]
    fn index(&self, p: usize) -> &T {
        debug_assert!(p < NUM_POINTS, "cell {p} off the padded board");
        &self.0[p & MASK]
    }
}

impl<T> IndexMut<usize> for Grid<T> {
    #[inline]
    fn index_mut(&mut self, p: usize) -> &mut T {
        debug_assert!(p < NUM_POINTS, "cell {p} off the padded board");
        &mut self.0[p & MASK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_covers_the_padded_board() {
        assert!(GRID >= NUM_POINTS && GRID.is_power_of_two());
        let mut g = Grid::filled(0u16);
        for p in 0..NUM_POINTS {
            g[p] = p as u16;
        }
        for p in 0..NUM_POINTS {
            assert_eq!(g[p], p as u16);
        }
        g.swap(1, NUM_POINTS - 1);
        assert_eq!((g[1], g[NUM_POINTS - 1]), ((NUM_POINTS - 1) as u16, 1));
    }
}
