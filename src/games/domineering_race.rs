//! The races behind Domineering's proven bound ([`Domineering`](super::Domineering)'s
//! `bound`, the solver's `race_bound`), on a bitboard word of either
//! width: `u64` for boards of up to 64 cells (8×8 included), where every
//! shift and count is one instruction, `u128` for the rest. The position
//! keeps its `u128` board; [`Domineering::masks`](super::Domineering::masks) narrows it for a race.
//!
//! Sources: safe moves (Breuker, Uiterwijk & van den Herik, "Solving 8×8
//! Domineering", TCS 2000), protective areas, vulnerable moves and the
//! count of cells (Bullock, "Domineering: Solving Large Combinatorial
//! Search Spaces", MSc thesis, Alberta 2002). The tests in
//! `domineering_tests.rs` check every bound here against exhaustive
//! search.

pub use super::runs::{pick_pairs, Runs};
use super::{Color, Outcome};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};

/// A bitboard word: bit `row * cols + col` for each cell.
pub trait Bits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn ones(self) -> u32;
    /// Index of the lowest set bit.
    fn low(self) -> u32;
    /// Without its lowest set bit.
    fn drop_low(self) -> Self;
    /// The low bits of a `u128` board (which must fit).
    fn narrow(x: u128) -> Self;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn low(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn drop_low(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn narrow(x: u128) -> $t {
                x as $t
            }
        }
    };
}
bits!(u64);
bits!(u128);

/// How many moves short of the opponent's most moves the race of assets
/// may fall for the solver's [`Masks::race_bound`] still to try the count
/// of cells. The two count much the same structures, so the cell count
/// rarely wins when the assets fall far short: on 7×8, of the 810,000
/// cell counts after a failed race moving second, the 5,400 wins all came
/// at shortfalls 1 to 6 while 527,000 of the counts had shortfalls of 7
/// or more (moving first: 24,300 wins, all but 75 at 1 to 6). With 6
/// (and the solver's look-ahead of 8 then), 8×8 took 6,861,314 nodes
/// (6,856,727 trying every count), with 4 6,986,005 and with 3
/// 7,304,341, for no less time.
pub const CELL_RACE_SHORTFALL: u32 = 6;

/// What both races of one player start from (see [`Masks::assets`]).
struct Common<B> {
    /// Free cells the opponent can never cover.
    untouchable: B,
    /// The lower cells of the safe moves packed into them.
    safe: B,
    /// Closed 2×2 squares (their lower-left cells).
    squares: B,
}

/// What the races read of a position: its free cells and the board's
/// fixed masks (see [`Domineering`](super::Domineering)'s fields of the same names).
#[derive(Clone, Copy, Debug)]
pub struct Masks<B> {
    pub free: B,
    pub v_edge: B,
    pub h_edge: B,
    pub even_cols: B,
    pub even_rows: B,
    pub cols: u32,
}

impl<B: Bits> Masks<B> {
    /// `color`'s step between the two cells of its dominoes and the cells
    /// whose partner in that direction is on the board.
    #[inline]
    pub fn dir(&self, color: Color) -> (u32, B) {
        match color {
            Color::Black => (self.cols, self.v_edge),
            Color::White => (1, self.h_edge),
        }
    }

    /// The lower cells of `color`'s legal dominoes.
    #[inline]
    pub fn move_mask(&self, color: Color) -> B {
        let (step, edge) = self.dir(color);
        self.free & (self.free >> step) & edge
    }

    /// A lower bound on the moves `color` can make from now on whatever
    /// the opponent does: disjoint dominoes inside cells the opponent can
    /// never cover (free cells whose both neighbours across `color`'s
    /// direction are occupied or off the board; occupancy only grows).
    pub fn safe_moves(&self, color: Color) -> u32 {
        let theirs = self.move_mask(color.opp());
        let (os, _) = self.dir(color.opp());
        let (step, edge) = self.dir(color);
        pick_pairs(self.free & !(theirs | (theirs << os)), step, edge).ones()
    }

    /// What guarantees `color` moves whatever the opponent does, in
    /// disjoint cells (Bullock 2002 names the kinds; [`race_moves`] counts
    /// them). `their_pick` is [`pick_pairs`] of the free cells in the
    /// opponent's direction: its greedy packing, [`Domineering::max_moves`](super::Domineering::max_moves).
    ///
    /// * `safe`: dominoes in cells the opponent can never cover;
    /// * items worth 4 ("protective areas", blocks): 2×2 squares whose
    ///   cells the opponent can only cover from inside (their neighbours
    ///   across are occupied or off the board). A domino of `color` in one
    ///   half leaves the other half safe (two moves) and takes both of the
    ///   opponent's dominoes there;
    /// * items worth 1 + k ("vulnerable" dominoes): a domino of `color`
    ///   with k cells whose loss shortens the packing of their opponent's
    ///   run by one (any cell of an even run, a cell at an odd offset of
    ///   an odd one). Each claims both runs it touches; no
    ///   run is claimed twice, so the opponent's move, inside one run,
    ///   spoils at most one of them, and until it does the runs and so
    ///   the k are unchanged;
    /// * items worth 1: dominoes in unclaimed cells, every other column
    ///   (row) first, then the others away from those, so that no
    ///   opposing domino touches two of them.
    ///
    /// Items of different kinds never share an opponent's run, and every
    /// item is spoilt by one opposing move at most (the race's rule).
    pub fn assets(&self, color: Color, their_pick: B) -> Assets {
        let theirs = self.runs(color.opp());
        self.assets_from(color, &self.common(color), &theirs, their_pick)
    }

    /// What [`Self::assets`] and [`Self::cell_race`] both start from.
    #[inline]
    fn common(&self, color: Color) -> Common<B> {
        let free = self.free;
        let (step, edge) = self.dir(color);
        let (os, oedge) = self.dir(color.opp());
        let theirs = self.move_mask(color.opp());
        let untouchable = free & !(theirs | (theirs << os));
        let safe = pick_pairs(untouchable, step, edge);
        // 2×2 free squares closed to the opponent on one side across (its
        // neighbours there occupied or off the board): a domino of `color`
        // in the open half leaves the closed half safe and shortens the
        // opponent's two runs through the square by one each.
        let square = free & (free >> os) & (free >> step) & (free >> (step + os)) & edge & oedge;
        let ahead = (free >> os) & oedge;
        let behind = (free & oedge) << os;
        let closed_ahead = !(ahead >> os) & !(ahead >> (os + step));
        let closed_behind = !behind & !(behind >> step);
        Common {
            untouchable,
            safe,
            squares: square & (closed_ahead | closed_behind),
        }
    }

    /// [`Self::assets`], with what the caller already has: `common`, and
    /// the runs of the free cells in the opponent's direction, `theirs`,
    /// whose packing is `their_pick`.
    fn assets_from(
        &self,
        color: Color,
        common: &Common<B>,
        theirs: &Runs<B>,
        their_pick: B,
    ) -> Assets {
        let free = self.free;
        let (step, edge) = self.dir(color);
        let (os, oedge) = self.dir(color.opp());
        let safe = common.safe;
        let unused = free & !(safe | (safe << step));
        let mut set = common.squares;
        let mut worth = [0; 4];
        let mut claimed = B::ZERO;
        while set != B::ZERO {
            let x = set.low();
            set = set.drop_low();
            let low = (B::ONE << x) | (B::ONE << (x + os));
            let cells = low | (low << step);
            if cells & claimed == B::ZERO {
                claimed |= theirs.fill(cells);
                worth[3] += 1;
                // Drop the squares that now overlap a claimed run.
                let c = claimed | (claimed >> os);
                set &= !(c | (c >> step));
            }
        }
        // Cells whose loss shortens the opponent's packing of their run:
        // the second cell of each pair its greedy packing places (odd
        // offsets), and every cell of a run of even length (no cell left
        // over there).
        let shortens = theirs.shortening(their_pick);
        let cand = unused & (unused >> step) & edge;
        let two = cand & shortens & (shortens >> step);
        let one = cand & (shortens | (shortens >> step)) & !two;
        for (mut set, w) in [(two, 2), (one, 1)] {
            // Dominoes overlapping a claimed run are out, then and after
            // each claim, so that every round claims one.
            set &= !(claimed | (claimed >> step));
            while set != B::ZERO {
                let x = set.low();
                let cells = (B::ONE << x) | (B::ONE << (x + step));
                claimed |= theirs.fill(cells);
                worth[w] += 1;
                set &= !(claimed | (claimed >> step));
            }
        }
        let rest = unused & !claimed;
        let stripes = match color {
            Color::Black => self.even_cols,
            Color::White => self.even_rows,
        };
        let first = pick_pairs(rest & stripes, step, edge);
        let taken = first | (first << step);
        let beside = ((taken & oedge) << os) | ((taken >> os) & oedge);
        let second = pick_pairs(rest & !stripes & !beside, step, edge);
        worth[0] = first.ones() + second.ones();
        Assets {
            safe: safe.ones(),
            worth,
        }
    }

    /// Whether `color` wins by counting cells (Bullock 2002, Obsequi's
    /// `does_next_player_win`), moving first or second; see
    /// [`cell_race_wins`] for the proof. `color` (P) is sure of G moves,
    /// its strategy's cells disjoint from U, the free cells the opponent
    /// (Q) can never cover that the strategy leaves alone. Q's dominoes
    /// go elsewhere, so Q's first k moves and P's first G need
    /// 2k + 2G + |U| free cells.
    ///
    /// G comes from a race like [`race_moves`] over items no single move of
    /// Q spoils two of: safe moves (Q can never touch them); closed 2×2
    /// squares as in [`Domineering::assets`](super::Domineering::assets) (P's domino in the open half
    /// leaves the closed half safe: two moves; Q spoils one with one
    /// move); dominoes of P in the other cells, none next to another item
    /// along Q's direction, so that a domino of Q, whose two cells are
    /// neighbours in that direction, touches one item at most.
    pub fn cell_race(&self, color: Color, first: bool) -> bool {
        self.cell_race_from(color, &self.common(color), first)
    }

    fn cell_race_from(&self, color: Color, common: &Common<B>, first: bool) -> bool {
        let free = self.free;
        let (step, edge) = self.dir(color);
        let (os, oedge) = self.dir(color.opp());
        let (untouchable, safe) = (common.untouchable, common.safe);
        let safe_cells = safe | (safe << step);
        // Cells next to `cells` along Q's direction, `cells` included.
        let zone = |cells: B| cells | ((cells & oedge) << os) | ((cells >> os) & oedge);
        let mut set = common.squares;
        let (mut blocks, mut used, mut banned) = (0, B::ZERO, B::ZERO);
        while set != B::ZERO {
            let x = set.low();
            set = set.drop_low();
            let low = (B::ONE << x) | (B::ONE << (x + os));
            let cells = low | (low << step);
            if cells & banned == B::ZERO {
                blocks += 1;
                used |= cells;
                banned |= zone(cells);
            }
        }
        let rest = free & !safe_cells & !banned;
        let stripes = match color {
            Color::Black => self.even_cols,
            Color::White => self.even_rows,
        };
        let one = pick_pairs(rest & stripes, step, edge);
        let one_cells = one | (one << step);
        let two = pick_pairs(rest & !stripes & !zone(one_cells), step, edge);
        let items = one_cells | two | (two << step);
        let guaranteed = race_moves(
            Assets {
                safe: safe.ones(),
                worth: [one.ones() + two.ones(), blocks, 0, 0],
            },
            first,
        );
        let spare = (untouchable & !(safe_cells | used | items)).ones();
        cell_race_wins(guaranteed, spare, free.ones(), first)
    }

    /// [`Domineering`](super::Domineering)'s bound and evaluation; see there.
    pub fn analyse(&self, me: Color, win_side: bool) -> (Option<Outcome>, i32) {
        let you = me.opp();
        let (pick_mine, pick_yours) = (self.packing(me), self.packing(you));
        let yours = self.assets(you, pick_mine);
        let mine = win_side.then(|| self.assets(me, pick_yours));
        let bound = if self.lost_race(me, yours, pick_mine) {
            Some(Outcome::Loss)
        } else if mine.is_some_and(|a| self.won_race(me, a, pick_yours)) {
            Some(Outcome::Win)
        } else {
            None
        };
        let mobility = self.move_mask(me).ones() as i32 - self.move_mask(you).ones() as i32;
        let safe_mine = mine.map_or_else(|| self.safe_moves(me), |a| a.safe);
        let safe = safe_mine as i32 - yours.safe as i32;
        let most = pick_mine.ones() as i32 - pick_yours.ones() as i32;
        (bound, 16 * mobility + 32 * safe + 16 * most)
    }

    /// The two halves of [`Game::bound`](crate::games::Game::bound)'s race, each only when asked
    /// (the Domineering solver knows when one was already tried): `Loss`
    /// when the opponent wins the races moving second (`loss`), `Win` when
    /// the mover wins them moving first (`win`). The same tests as
    /// [`Masks::analyse`], without the evaluation, and with the count of
    /// cells skipped where it rarely wins (see [`Self::wins_races`]).
    pub fn race_bound(&self, me: Color, loss: bool, win: bool) -> Option<Outcome> {
        if loss && self.wins_races(me.opp(), false, &self.runs(me)) {
            return Some(Outcome::Loss);
        }
        if win && self.wins_races(me, true, &self.runs(me.opp())) {
            return Some(Outcome::Win);
        }
        None
    }

    /// Whether `p`, moving first or not, wins the race of its assets
    /// against the opponent's packing (of the free cells' runs `q` in the
    /// opponent's direction), or the count of cells:
    /// [`Self::lost_race`] and [`Self::won_race`] in one, sharing what
    /// the two races start from.
    ///
    /// The cell count is only tried when the assets fall at most
    /// [`CELL_RACE_SHORTFALL`] moves short (skipping a proven bound is
    /// always sound: the node is searched instead).
    fn wins_races(&self, p: Color, first: bool, q: &Runs<B>) -> bool {
        let common = self.common(p);
        let q_pick = q.pick();
        let moves = race_moves(self.assets_from(p, &common, q, q_pick), first);
        // P needs q_most + 1 moves moving first, q_most moving second.
        let need = q_pick.ones() + first as u32;
        if moves >= need {
            return true;
        }
        need - moves <= CELL_RACE_SHORTFALL && self.cell_race_from(p, &common, first)
    }

    /// [`pick_pairs`] of the free cells in `color`'s direction: the
    /// lower cells of its greedy packing, [`Domineering::max_moves`](super::Domineering::max_moves) of them.
    #[inline]
    pub fn packing(&self, color: Color) -> B {
        self.runs(color).pick()
    }

    /// The runs of the free cells in `color`'s direction.
    #[inline]
    pub fn runs(&self, color: Color) -> Runs<B> {
        let (step, edge) = self.dir(color);
        Runs::new(self.free, step, edge)
    }

    /// The loss half: the opponent's assets `yours`, moving second, reach
    /// the mover's most moves (`pick_mine`, its packing), or the opponent
    /// wins the cell count.
    #[inline]
    fn lost_race(&self, me: Color, yours: Assets, pick_mine: B) -> bool {
        race_moves(yours, false) >= pick_mine.ones() || self.cell_race(me.opp(), false)
    }

    /// The win half: the mover's assets `mine`, moving first, exceed the
    /// opponent's most moves (`pick_yours`), or it wins the cell count.
    #[inline]
    fn won_race(&self, me: Color, mine: Assets, pick_yours: B) -> bool {
        race_moves(mine, true) > pick_yours.ones() || self.cell_race(me, true)
    }
}

/// A player's guaranteed-move structures; see [`Domineering::assets`](super::Domineering::assets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assets {
    /// Safe moves: no opposing move can take them away.
    pub safe: u32,
    /// `worth[w - 1]` items worth `w`: taking one is a move of the player
    /// and, with the safe move it leaves or the opponent's moves it
    /// removes, w − 1 more in the race; one opposing move spoils it.
    pub worth: [u32; 4],
}

/// The race behind [`Game::bound`](crate::games::Game::bound). A player P with assets `a` plays
/// against an opponent Q who can make at most M more moves (the packing
/// [`Domineering::max_moves`](super::Domineering::max_moves): every move of Q lowers it by one at least,
/// and an item P takes lowers it by what it removes). Each move of Q
/// spoils at most one item. P takes the most valuable item left, Q spoils
/// the most valuable one left, in turn; then P plays its safe moves. P
/// wins moving first when the result exceeds M, moving second when it
/// reaches M. The tests check this against the race's minimax.
pub fn race_moves(a: Assets, first: bool) -> u32 {
    let mut total = a.safe;
    // 1 while P takes next: of n items P then gets ⌈n/2⌉ = (n + 1) / 2,
    // else ⌊n/2⌋, and an odd n passes the turn (no branches: the counts
    // are data, and the race runs at nearly every node).
    let mut p_turn = first as u32;
    for w in (1..=4).rev() {
        let n = a.worth[w as usize - 1];
        total += w * ((n + p_turn) / 2);
        p_turn ^= n & 1;
    }
    total
}

/// The cell count behind [`Domineering::cell_race`](super::Domineering::cell_race): P, sure of
/// `guaranteed` moves whatever Q does, with `spare` free cells that
/// neither Q nor P's strategy ever covers, among `free`.
///
/// Proof. Say Q wins: P finds no move at some turn. P moves at each of
/// its first G turns, so Q has made at least G moves by then if P moved
/// first, G + 1 if Q did. At the moment Q completes that many moves
/// (k = G or G + 1), P has made G moves (P's turns alternate with Q's
/// and P has not been stuck yet), all inside its strategy's cells; Q's
/// dominoes cover cells Q could cover, so none of the spare ones, and
/// none of P's. All are distinct free cells: 2k + 2G + spare ≤ free. So
/// P wins when 4G + spare > free (P first) or 4G + 2 + spare > free (Q
/// first).
pub fn cell_race_wins(guaranteed: u32, spare: u32, free: u32, first: bool) -> bool {
    let need = 4 * guaranteed + spare + if first { 0 } else { 2 };
    need > free
}
