//! Maximal runs of cells along one direction of a Domineering bitboard,
//! for the races of `domineering_race.rs` and the solver's move order:
//! the greedy packing of each run ([`Runs::pick`], Domineering's most
//! moves left), the runs that hold some given cells ([`Runs::fill`]) and
//! the cells whose loss shortens a packing ([`Runs::shortening`]).
//!
//! All three take a few word operations per *doubling round*, not per
//! cell of the longest run: the runs are described once by the cells with
//! at least 1, 2, 4, … predecessors in their run, and a fill or a parity
//! spreads by 1, 2, 4, … cells per round, the parallel-prefix scheme of
//! Kogge & Stone ("A parallel algorithm for the efficient solution of a
//! general class of recurrence equations", IEEE Trans. Computers, 1973),
//! which chess programs use as "occluded fills" on bitboards. On 8×8 a
//! run has at most 8 cells: three rounds, where the cell-by-cell loops
//! these replace ran up to four (packing) and eight (fill) rounds, each
//! ending in a hard-to-predict branch. The module's tests check all three
//! against those loops.

use super::race::Bits;

/// Most doubling rounds: five masks (1, 2, 4, 8 and 16 predecessors)
/// describe runs of up to 32 cells, and a run has at most `MAX_SIDE` = 25
/// (see `games::spec`).
const ROUNDS: usize = 5;

/// The maximal runs of a set of cells along `step` (1: rows, `cols`:
/// columns), `edge` being the cells whose neighbour at `+step` is on the
/// board (so that a row's last cell is not linked to the next row).
#[derive(Clone, Copy, Debug)]
pub struct Runs<B> {
    cells: B,
    step: u32,
    /// `back[k]`: the cells with at least 2^k predecessors in their run.
    back: [B; ROUNDS],
    /// The rounds in use: `back[rounds..]` would be empty.
    rounds: usize,
}

impl<B: Bits> Runs<B> {
    #[inline]
    pub fn new(cells: B, step: u32, edge: B) -> Runs<B> {
        let mut back = [B::ZERO; ROUNDS];
        let mut d = cells & ((cells & edge) << step);
        let mut shift = step;
        let mut rounds = 0;
        // A shift by 2^k·step only happens while some cell has 2^k
        // predecessors, so its bit index, and the shift, are below the
        // word's width.
        while rounds < ROUNDS && d != B::ZERO {
            back[rounds] = d;
            rounds += 1;
            // At least 2^(k+1) predecessors: 2^k of its own, and so has
            // the cell 2^k back (which the first 2^k put in the same run).
            d &= d << shift;
            shift *= 2;
        }
        debug_assert!(d == B::ZERO, "a run longer than 32 cells");
        Runs {
            cells,
            step,
            back,
            rounds,
        }
    }

    /// The cells the runs are made of.
    #[inline]
    pub fn cells(&self) -> B {
        self.cells
    }

    /// The lower cells of the dominoes a greedy packing places: from the
    /// first cell of each run every other pair, which is the most a run
    /// holds (⌊L/2⌋): the cells at an even offset from their run's start
    /// whose next cell is in the run too.
    #[inline]
    pub fn pick(&self) -> B {
        // Even offsets below 2, then below 4, 8, …: a cell 2^k on from an
        // even offset below 2^k, with 2^k predecessors in its run.
        let mut even = self.cells & !self.back[0];
        for k in 1..self.rounds {
            even |= (even << (self.step << k)) & self.back[k];
        }
        even & (self.back[0] >> self.step)
    }

    /// The cells of the runs that hold a cell of `seeds`.
    #[inline(always)]
    pub fn fill(&self, seeds: B) -> B {
        // After round k every cell within 2^(k+1) − 1 of a seed, in the
        // same run, either way; a cell 2^k ahead (behind) is in the run
        // iff that cell (this one) has 2^k predecessors.
        let mut g = seeds & self.cells;
        let round = |g: B, k: usize| {
            let s = self.step << k;
            let b = self.back[k];
            g | ((g << s) & b) | ((g >> s) & (b >> s))
        };
        // Straight-line code for the usual round counts (runs of up to 8
        // cells: every board up to 8×8), the loop beyond: a fill runs for
        // nearly every item of every race.
        match self.rounds {
            0 => g,
            1 => round(g, 0),
            2 => round(round(g, 0), 1),
            3 => round(round(round(g, 0), 1), 2),
            _ => {
                for k in 0..self.rounds {
                    g = round(g, k);
                }
                g
            }
        }
    }

    /// The cells whose loss shortens the packing of their run (`pick`:
    /// [`Runs::pick`]): every cell of a run of even length (no cell left
    /// over), and the odd offsets, the second cells of the picked pairs,
    /// of an odd one.
    #[inline]
    pub fn shortening(&self, pick: B) -> B {
        let left_over = self.cells & !(pick | (pick << self.step));
        (pick << self.step) | (self.cells & !self.fill(left_over))
    }
}

/// [`Runs::pick`] of `cells` along `step`.
#[inline]
pub fn pick_pairs<B: Bits>(cells: B, step: u32, edge: B) -> B {
    Runs::new(cells, step, edge).pick()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::zobrist::splitmix64;

    /// The cell-by-cell packing these replace: each round takes the first
    /// pair of every run and drops it.
    fn pick_slow(mut cells: u128, step: u32, edge: u128) -> u128 {
        let mut picked = 0;
        while cells != 0 {
            let starts = cells & !((cells & edge) << step);
            let pairs = starts & (cells >> step) & edge;
            picked |= pairs;
            cells &= !(starts | (pairs << step));
        }
        picked
    }

    /// The cell-by-cell fill these replace: one neighbour per round.
    fn fill_slow(cells: u128, free: u128, step: u32, edge: u128) -> u128 {
        let mut m = cells & free;
        loop {
            let grown = (m | ((m & edge) << step) | ((m >> step) & edge)) & free;
            if grown == m {
                return m;
            }
            m = grown;
        }
    }

    /// Random sets on boards from 1×25 to 25×1 (the longest runs), in
    /// both directions and both word widths, agree with the loops.
    #[test]
    fn runs_agree_with_cell_by_cell_loops() {
        let mut state = 7u64;
        let mut rand = || {
            let (s, z) = splitmix64(state);
            state = s;
            z as u128 | (splitmix64(z).1 as u128) << 64
        };
        let shapes = [
            (8, 8),
            (7, 8),
            (5, 6),
            (1, 25),
            (25, 1),
            (5, 25),
            (25, 5),
            (11, 11),
            (2, 32),
        ];
        let mut checked = 0;
        for (rows, cols) in shapes {
            let n = rows * cols;
            let board = if n == 128 { !0 } else { (1u128 << n) - 1 };
            let (mut v_edge, mut h_edge) = (0u128, 0u128);
            for cell in 0..n {
                if cell + cols < n {
                    v_edge |= 1 << cell;
                }
                if cell % cols + 1 < cols {
                    h_edge |= 1 << cell;
                }
            }
            for round in 0..400 {
                // Dense and sparse sets, and the whole board.
                let a = rand();
                let cells = board
                    & match round % 4 {
                        0 => a,
                        1 => a | rand(),
                        2 => a & rand(),
                        _ => !0,
                    };
                let seeds = cells & rand() & rand() & rand();
                for (step, edge) in [(cols as u32, v_edge), (1, h_edge)] {
                    let runs = Runs::new(cells, step, edge);
                    let pick = runs.pick();
                    assert_eq!(
                        pick,
                        pick_slow(cells, step, edge),
                        "{rows}x{cols} {cells:x}"
                    );
                    assert_eq!(runs.fill(seeds), fill_slow(seeds, cells, step, edge));
                    if n <= 64 {
                        let narrow = Runs::new(cells as u64, step, edge as u64);
                        assert_eq!(narrow.pick() as u128, pick);
                        assert_eq!(narrow.fill(seeds as u64) as u128, runs.fill(seeds));
                    }
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 9 * 400 * 2);
    }
}
