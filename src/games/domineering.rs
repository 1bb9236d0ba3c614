//! Domineering (Göran Andersson, 1973; Gardner, Scientific American 1974):
//! players take turns placing dominoes on a rectangular board; the first
//! player ([`Color::Black`], "vertical") covers two cells of one column,
//! the second ([`Color::White`], "horizontal") two cells of one row. A
//! player who cannot move loses.
//!
//! A board `RxC` has R rows and C columns, as in Saffidine & Cazenave's
//! tables (seed 001) and in the ground truth (vertical first).
//!
//! # Notation
//!
//! Cells are GTP vertices: column letters from `A` (left), rows from `1`
//! (bottom). A domino is written as the vertex of its **lower-left cell**:
//! Black's `B3` covers B3 and B4, White's `B3` covers B3 and C3. GoGui shows
//! the board in the lower-left corner of a square board of side max(R, C),
//! the other cells removed, vertical dominoes as black stones and
//! horizontal ones as white stones.
//!
//! # Representation
//!
//! The occupied cells are one `u128` bitboard, cell `row * C + col`, so a
//! player's legal moves are one mask: `free & (free >> step) & edge`, with
//! step C (vertical) or 1 (horizontal) and `edge` the cells whose partner
//! is on the board. Moves, mobility and outcome are a few word operations;
//! undo clears two bits. Only occupancy decides the rest of the game, so
//! the key hashes occupancy and the player to move, not who placed what.
//!
//! # Proven bound
//!
//! [`Game::bound`] decides positions without search by two races (in
//! `domineering_race.rs`, on a `u64` board when the board fits): the moves
//! one player is sure of — safe moves (Breuker, Uiterwijk & van den Herik,
//! "Solving 8×8 Domineering", TCS 2000), protective squares and vulnerable
//! dominoes (Bullock, "Domineering: Solving Large Combinatorial Search
//! Spaces", 2002; his solver Obsequi), each counted with the opponent's
//! moves it removes — against the most moves the opponent can still make
//! ([`race_moves`]); and Bullock's count of cells ([`cell_race_wins`]):
//! the moves one player is sure of and the opponent's moves cannot both
//! fit into the free cells. The tests in `domineering_tests.rs` check the
//! races' closed forms against their minimax and the bound against
//! exhaustive search of every position of every board up to 5×5.

use super::{cell_name, parse_cell, Cell, ChildInfo, Color, Game, MoveList, Outcome};
use crate::go::zobrist::key_table;
use race::pick_pairs;
pub use race::{cell_race_wins, race_moves, Assets, Bits, Masks};
use std::sync::OnceLock;

/// Most cells a Domineering board may have (the bitboard's width).
pub const MAX_CELLS: usize = 128;

static CELL_KEYS: [u64; MAX_CELLS] = key_table(0xD0_313E_E21E);

/// Most columns and rows: the widest board of a game spec.
const MAX_SIDE: usize = super::spec::MAX_SIDE;

/// What playing one domino does, by `color * MAX_CELLS + cell`: the
/// changes of the keys `[key, left-right, upside-down, both]`, the two
/// cells it covers, and the lower-left cells of the opponent's dominoes it
/// takes away (those covering either cell), as the halves of the mask of
/// those it leaves. Computed once per board shape:
/// reflections need the cells' rows and columns, and dividing costs more
/// than the rest of a move; a `u128` shift by a variable amount is a dozen
/// instructions, and the best-first solvers build every child's mobility
/// from these masks (Domineering's shifts were 14% of PP's instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
struct MoveData {
    keys: [u64; 4],
    covers: u128,
    /// The complement of the dominoes taken away, low and high 64 bits:
    /// [`Game::child_info`] masks the opponent's moves with it, two `u64`
    /// ANDs with no `u128` complement (in vector registers, then moved
    /// out: 5% of PP²'s time).
    spares: [u64; 2],
}

type MoveKeys = [MoveData; 2 * MAX_CELLS];

/// One [`MoveKeys`] per board shape `[rows][cols]`, made when a board of
/// that shape is first created.
static MOVE_KEYS: [[OnceLock<Box<MoveKeys>>; MAX_SIDE + 1]; MAX_SIDE + 1] =
    [const { [const { OnceLock::new() }; MAX_SIDE + 1] }; MAX_SIDE + 1];

fn move_keys(rows: usize, cols: usize) -> &'static MoveKeys {
    MOVE_KEYS[rows][cols].get_or_init(|| {
        let empty = MoveData {
            keys: [0; 4],
            covers: 0,
            spares: [!0; 2],
        };
        let mut t = Box::new([empty; 2 * MAX_CELLS]);
        let cell_keys = |cell: usize| {
            let (r, c) = (cell / cols, cell % cols);
            let (r2, c2) = (rows - 1 - r, cols - 1 - c);
            [
                CELL_KEYS[cell],
                CELL_KEYS[r * cols + c2],
                CELL_KEYS[r2 * cols + c],
                CELL_KEYS[r2 * cols + c2],
            ]
        };
        // Vertical (colour 0) steps one row, horizontal one column; the
        // opponent's step is the other one.
        for (color, step, opp_step, edge) in [(0, cols, 1, rows > 1), (1, 1, cols, cols > 1)] {
            for cell in 0..rows * cols {
                let other = cell + step;
                // Only dominoes that fit on the board are ever played.
                let fits = edge && other < rows * cols && (color == 0 || cell % cols + 1 < cols);
                if fits {
                    let (a, b) = (cell_keys(cell), cell_keys(other));
                    let covers = 1u128 << cell | 1u128 << other;
                    let kills = covers | covers >> opp_step;
                    t[color * MAX_CELLS + cell] = MoveData {
                        keys: std::array::from_fn(|i| a[i] ^ b[i]),
                        covers,
                        spares: [!kills as u64, (!kills >> 64) as u64],
                    };
                }
            }
        }
        t
    })
}
const WHITE_TO_MOVE: u64 = 0x5851_F42D_4C95_7F2D;

/// A Domineering position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Domineering {
    rows: u8,
    cols: u8,
    to_move: Color,
    occupied: u128,
    /// Cells covered by vertical dominoes (for display only).
    vertical: u128,
    /// All cells of the board.
    board: u128,
    /// Cells whose upper neighbour is on the board.
    v_edge: u128,
    /// Cells whose right neighbour is on the board.
    h_edge: u128,
    /// Cells in columns 0, 2, 4, … and in rows 0, 2, 4, ….
    even_cols: u128,
    even_rows: u128,
    key: u64,
    /// Keys of the occupancy reflected left-right, upside-down and both
    /// (the board's symmetries that keep dominoes' orientation), for
    /// [`Game::canonical_key`]; none includes the player to move.
    sym_keys: [u64; 3],
    /// The key changes of every domino on this board's shape.
    move_keys: &'static MoveKeys,
}

impl Domineering {
    /// The empty `rows` × `cols` board, vertical (Black) to move.
    ///
    /// Panics unless `1 ≤ rows·cols ≤ MAX_CELLS` and both sides are at
    /// most 25; [`super::spec`] checks
    /// user input first.
    pub fn new(rows: usize, cols: usize) -> Domineering {
        assert!(rows >= 1 && cols >= 1 && rows * cols <= MAX_CELLS);
        assert!(rows <= MAX_SIDE && cols <= MAX_SIDE);
        let mut board = 0u128;
        let mut v_edge = 0u128;
        let mut h_edge = 0u128;
        let (mut even_cols, mut even_rows) = (0u128, 0u128);
        for r in 0..rows {
            for c in 0..cols {
                let bit = 1u128 << (r * cols + c);
                board |= bit;
                if c % 2 == 0 {
                    even_cols |= bit;
                }
                if r % 2 == 0 {
                    even_rows |= bit;
                }
                if r + 1 < rows {
                    v_edge |= bit;
                }
                if c + 1 < cols {
                    h_edge |= bit;
                }
            }
        }
        Domineering {
            rows: rows as u8,
            cols: cols as u8,
            to_move: Color::Black,
            occupied: 0,
            vertical: 0,
            board,
            v_edge,
            h_edge,
            even_cols,
            even_rows,
            key: 0,
            sym_keys: [0; 3],
            move_keys: move_keys(rows, cols),
        }
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The occupied cells, bit `row * cols + col`.
    pub fn occupied(&self) -> u128 {
        self.occupied
    }

    /// The lower-left cells of `color`'s legal dominoes.
    #[inline]
    pub fn move_mask(&self, color: Color) -> u128 {
        let free = self.board & !self.occupied;
        match color {
            Color::Black => free & (free >> self.cols) & self.v_edge,
            Color::White => free & (free >> 1) & self.h_edge,
        }
    }

    /// Sets the player to move (for positions built move by move in tests
    /// and by GTP's `play` with an explicit colour).
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.to_move = color;
            self.key ^= WHITE_TO_MOVE;
        }
    }

    /// Whether `color` may place a domino at `cell` now.
    pub fn is_legal(&self, color: Color, cell: u8) -> bool {
        (cell as usize) < MAX_CELLS && self.move_mask(color) >> cell & 1 == 1
    }

    /// Places `color`'s domino at `cell` (which must be legal for it),
    /// whoever is to move; the opponent of `color` moves next.
    pub fn place(&mut self, color: Color, cell: u8) {
        let bits = self.move_data(color, cell).covers;
        self.occupied |= bits;
        if color == Color::Black {
            self.vertical |= bits;
        }
        self.toggle_keys(color, cell);
        self.set_to_move(color.opp());
    }

    /// What `color`'s domino at `cell` covers, takes away and changes in
    /// the keys.
    #[inline]
    fn move_data(&self, color: Color, cell: u8) -> &'static MoveData {
        let side = match color {
            Color::Black => 0,
            Color::White => MAX_CELLS,
        };
        // A legal cell is below MAX_CELLS, so the mask changes nothing but
        // lets the compiler drop the bounds check (an illegal move reads
        // some other domino's data, which is memory-safe).
        &self.move_keys[(side | cell as usize) & (2 * MAX_CELLS - 1)]
    }

    /// [`Game::child_info`] of `mover`'s move `m` in this position, whose
    /// key is `key` and whose opponent has the dominoes `theirs` now.
    #[inline(always)]
    fn info_after(&self, mover: Color, key: u64, theirs: u128, m: u8) -> ChildInfo {
        let d = self.move_data(mover, m);
        // The opponent's dominoes now, less those the move covers.
        let lo = theirs as u64 & d.spares[0];
        let hi = (theirs >> 64) as u64 & d.spares[1];
        let mobility = (lo.count_ones() + hi.count_ones()) as usize;
        ChildInfo {
            key: key ^ d.keys[0] ^ WHITE_TO_MOVE,
            to_move: mover.opp(),
            outcome: (mobility == 0).then_some(Outcome::Loss),
            mobility,
        }
    }

    /// XORs `color`'s domino at `cell` into the key and the symmetric keys.
    #[inline]
    fn toggle_keys(&mut self, color: Color, cell: u8) {
        let d = &self.move_data(color, cell).keys;
        self.key ^= d[0];
        self.sym_keys[0] ^= d[1];
        self.sym_keys[1] ^= d[2];
        self.sym_keys[2] ^= d[3];
    }

    /// Free cells of the board.
    #[inline]
    pub(crate) fn free(&self) -> u128 {
        self.board & !self.occupied
    }

    /// `color`'s step between the two cells of its dominoes and the cells
    /// whose partner in that direction is on the board.
    #[inline]
    pub(crate) fn dir(&self, color: Color) -> (u32, u128) {
        match color {
            Color::Black => (self.cols as u32, self.v_edge),
            Color::White => (1, self.h_edge),
        }
    }

    /// Cells no domino of `color`'s opponent can ever cover: free cells
    /// whose both neighbours across `color`'s direction are occupied or
    /// off the board. Occupancy only grows, so they stay out of its reach.
    #[inline]
    fn untouchable(&self, color: Color) -> u128 {
        let theirs = self.move_mask(color.opp());
        let (step, _) = self.dir(color.opp());
        self.free() & !(theirs | (theirs << step))
    }

    /// The most disjoint dominoes of `color` that fit into `cells`: each
    /// maximal run of length L along `color`'s direction holds ⌊L/2⌋.
    #[inline]
    fn disjoint_dominoes(&self, color: Color, cells: u128) -> u32 {
        let (step, edge) = self.dir(color);
        pick_pairs(cells, step, edge).count_ones()
    }

    /// A lower bound on the moves `color` can make from now on whatever
    /// the opponent does: disjoint dominoes inside cells the opponent can
    /// never cover ("safe moves", Breuker, Uiterwijk & van den Herik 2000;
    /// Bullock's Obsequi, 2002).
    pub fn safe_moves(&self, color: Color) -> u32 {
        self.disjoint_dominoes(color, self.untouchable(color))
    }

    /// [`Masks::assets`] of this position.
    pub fn assets(&self, color: Color, their_pick: u128) -> Assets {
        if self.fits_u64() {
            self.masks::<u64>().assets(color, u64::narrow(their_pick))
        } else {
            self.masks::<u128>().assets(color, their_pick)
        }
    }

    /// [`Masks::cell_race`] of this position.
    pub fn cell_race(&self, color: Color, first: bool) -> bool {
        if self.fits_u64() {
            self.masks::<u64>().cell_race(color, first)
        } else {
            self.masks::<u128>().cell_race(color, first)
        }
    }

    /// An upper bound on the moves `color` can make from now on: disjoint
    /// dominoes in the free cells, run by run (the opponent's dominoes
    /// only remove cells).
    pub fn max_moves(&self, color: Color) -> u32 {
        self.disjoint_dominoes(color, self.free())
    }
}

impl Domineering {
    /// [`Game::bound`] and [`Game::evaluate`], which share their counts.
    ///
    /// The bound is the race of [`race_moves`] (Breuker, Uiterwijk & van
    /// den Herik 2000 count safe moves; Bullock's Obsequi, 2002, adds
    /// protective and vulnerable ones): the mover wins when the moves its
    /// assets guarantee, moving first, exceed the most moves left to the
    /// opponent; it loses when the opponent's assets, moving second,
    /// answer every move the mover can still make.
    ///
    /// The evaluation orders moves: differences of mobility, of safe moves
    /// and of the most moves left (weights 16, 32, 16: the fewest α-β
    /// nodes on 7×6 and 7×7 among a few tried, the race's own margin
    /// included). The best move takes opponent's moves away and makes safe
    /// ones.
    ///
    /// Without `win_side` only the loss half of the bound is tried (the
    /// mover's own assets are the other half's cost).
    fn analyse(&self, win_side: bool) -> (Option<Outcome>, i32) {
        if self.fits_u64() {
            self.masks::<u64>().analyse(self.to_move, win_side)
        } else {
            self.masks::<u128>().analyse(self.to_move, win_side)
        }
    }

    /// The two halves of [`Game::bound`]'s race, each only when asked
    /// (the Domineering solver knows when one was already tried): `Loss`
    /// when the opponent wins the races moving second (`loss`), `Win` when
    /// the mover wins them moving first (`win`). The same tests as
    /// [`Domineering::analyse`], without the evaluation.
    pub(crate) fn race_bound(&self, loss: bool, win: bool) -> Option<Outcome> {
        if self.fits_u64() {
            self.masks::<u64>().race_bound(self.to_move, loss, win)
        } else {
            self.masks::<u128>().race_bound(self.to_move, loss, win)
        }
    }

    /// Whether the board fits the narrower bitboard of [`Masks`].
    #[inline]
    pub(crate) fn fits_u64(&self) -> bool {
        (self.rows as usize) * (self.cols as usize) <= 64
    }

    /// The masks the races work on, in a word of type `B` (which must
    /// hold the board).
    #[inline]
    pub(crate) fn masks<B: Bits>(&self) -> Masks<B> {
        Masks {
            free: B::narrow(self.free()),
            v_edge: B::narrow(self.v_edge),
            h_edge: B::narrow(self.h_edge),
            even_cols: B::narrow(self.even_cols),
            even_rows: B::narrow(self.even_rows),
            cols: self.cols as u32,
        }
    }
}

impl Game for Domineering {
    type Move = u8;
    type Undo = ();
    /// Each move covers two more cells.
    const FIXED_DEPTH: bool = true;

    fn spec(&self) -> String {
        format!("domineering:{}x{}", self.rows, self.cols)
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// The mask's halves one after the other: a `u128` loop step costs
    /// twice a `u64` one (the best-first solvers list moves at every
    /// expansion).
    fn moves(&self, out: &mut MoveList<u8>) {
        let mask = self.move_mask(self.to_move);
        for (mut half, base) in [(mask as u64, 0u8), ((mask >> 64) as u64, 64)] {
            while half != 0 {
                out.push(base + half.trailing_zeros() as u8);
                half &= half - 1;
            }
        }
    }

    fn mobility(&self) -> usize {
        self.move_mask(self.to_move).count_ones() as usize
    }

    /// The moves come off the bit set of [`Game::moves`] and each child's
    /// mobility off the opponent's: one loop where a list and a second
    /// loop cost PP² on 7×6 a mispredicted loop exit and the list's
    /// writes and reads at every expansion.
    const EACH_CHILD: bool = true;

    /// The opponent's dominoes are counted once for all the children: `f`
    /// writes memory the compiler cannot tell from the position's, so
    /// [`Game::child_info`] in the loop read the board again per child.
    #[inline(always)]
    fn each_child(&mut self, mut f: impl FnMut(u8, ChildInfo)) {
        let mask = self.move_mask(self.to_move);
        let theirs = self.move_mask(self.to_move.opp());
        let (mover, key) = (self.to_move, self.key);
        for (mut half, base) in [(mask as u64, 0u8), ((mask >> 64) as u64, 64)] {
            while half != 0 {
                let m = base + half.trailing_zeros() as u8;
                f(m, self.info_after(mover, key, theirs, m));
                half &= half - 1;
            }
        }
    }

    /// The race of safe, protective and vulnerable moves; see
    /// [`Domineering::analyse`].
    fn bound(&self) -> Option<Outcome> {
        self.analyse(true).0
    }

    /// Only the loss half of the bound: the look-ahead asks no more.
    fn lost_and_evaluate(&self) -> (bool, i32) {
        let (bound, eval) = self.analyse(false);
        (bound == Some(Outcome::Loss), eval)
    }

    /// The least key over the board's reflections (left-right,
    /// upside-down, both), the player to move included.
    fn canonical_key(&self) -> u64 {
        let side = match self.to_move {
            Color::Black => 0,
            Color::White => WHITE_TO_MOVE,
        };
        let [a, b, c] = self.sym_keys;
        (self.key ^ side).min(a).min(b).min(c) ^ side
    }

    /// Domineering has no draws: the player who cannot move loses.
    fn may_draw(&self) -> bool {
        false
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.move_mask(self.to_move) == 0).then_some(Outcome::Loss)
    }

    /// The opponent's dominoes that survive the two cells `m` covers,
    /// counted without playing it.
    #[inline]
    fn child_info(&mut self, m: u8) -> ChildInfo {
        let theirs = self.move_mask(self.to_move.opp());
        self.info_after(self.to_move, self.key, theirs, m)
    }

    fn play(&mut self, m: u8) {
        self.place(self.to_move, m);
    }

    /// Only the occupancy and the player to move: the keys and the
    /// vertical cells wait for [`Game::undo_quiet`], which leaves them as
    /// they were (PP² on Domineering 7×6 spent 3% of its instructions on
    /// them in its second-level trees, which never read them).
    #[inline]
    fn play_quiet(&mut self, m: u8) {
        self.occupied |= self.move_data(self.to_move, m).covers;
        self.to_move = self.to_move.opp();
    }

    #[inline]
    fn undo_quiet(&mut self, m: u8, _: ()) {
        self.to_move = self.to_move.opp();
        self.occupied &= !self.move_data(self.to_move, m).covers;
    }

    fn undo(&mut self, m: u8, _: ()) {
        let color = self.to_move.opp();
        let bits = self.move_data(color, m).covers;
        self.occupied &= !bits;
        self.vertical &= !bits;
        self.toggle_keys(color, m);
        self.set_to_move(color);
    }

    /// Differences of mobility, safe moves and most moves left; see
    /// [`Domineering::analyse`].
    fn evaluate(&self) -> i32 {
        self.analyse(false).1
    }

    fn format_move(&self, m: u8) -> String {
        cell_name(m as usize, self.cols())
    }

    fn parse_move(&self, text: &str) -> Option<u8> {
        let cell = parse_cell(text, self.rows(), self.cols())? as u8;
        self.is_legal(self.to_move, cell).then_some(cell)
    }

    fn display_size(&self) -> usize {
        self.rows().max(self.cols())
    }

    fn cell(&self, col: usize, row: usize) -> Cell {
        if col >= self.cols() || row >= self.rows() {
            return Cell::Removed;
        }
        let bit = 1u128 << (row * self.cols() + col);
        if self.occupied & bit == 0 {
            Cell::Empty
        } else if self.vertical & bit != 0 {
            Cell::Stone(Color::Black)
        } else {
            Cell::Stone(Color::White)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain negamax without any table: the value for the player to move.
    fn wins(g: &mut Domineering) -> bool {
        let mut list = MoveList::new();
        g.moves(&mut list);
        for &m in &list {
            g.play(m);
            let lost = !wins(g);
            g.undo(m, ());
            if lost {
                return true;
            }
        }
        false
    }

    #[test]
    fn move_counts_on_the_empty_board() {
        let g = Domineering::new(5, 6);
        assert_eq!(g.mobility(), 4 * 6);
        assert_eq!(g.move_mask(Color::White).count_ones(), 5 * 5);
        assert_eq!(g.outcome(), None);
        assert_eq!(Domineering::new(1, 4).outcome(), Some(Outcome::Loss));
    }

    #[test]
    fn quiet_moves_agree_with_play_and_undo() {
        // Along random games on a 7×6 board: after a quiet move the moves,
        // mobility and outcome (and every child's mobility) are those after
        // `play`, and the quiet undos restore the position to the bit.
        let mut rng = crate::go::playout::Rng::new(0x5DEE_CE66_D1CE_4E5B);
        for _ in 0..200 {
            let start = Domineering::new(7, 6);
            let (mut quiet, mut plain) = (start, start);
            let mut line = Vec::new();
            while plain.outcome().is_none() {
                let mut moves = MoveList::new();
                plain.moves(&mut moves);
                let m = moves[rng.next_u64() as usize % moves.len()];
                plain.play(m);
                quiet.play_quiet(m);
                line.push(m);
                let (mut a, mut b) = (MoveList::new(), MoveList::new());
                plain.moves(&mut a);
                quiet.moves(&mut b);
                assert_eq!(a.as_slice(), b.as_slice());
                assert_eq!(plain.mobility(), quiet.mobility());
                assert_eq!(plain.outcome(), quiet.outcome());
                assert_eq!(plain.to_move(), quiet.to_move());
                for &c in &a {
                    assert_eq!(plain.child_info(c).mobility, quiet.child_info(c).mobility);
                }
            }
            for &m in line.iter().rev() {
                quiet.undo_quiet(m, ());
            }
            assert_eq!(quiet, start);
        }
    }

    #[test]
    fn play_and_undo_restore_everything() {
        let mut g = Domineering::new(4, 5);
        let start = g;
        let m = g.parse_move("B3").unwrap();
        g.play(m);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.cell(1, 2), Cell::Stone(Color::Black));
        assert_eq!(g.cell(1, 3), Cell::Stone(Color::Black));
        assert_eq!(g.cell(5, 0), Cell::Removed);
        assert_ne!(g.key(), start.key());
        // White cannot cover B3.
        assert_eq!(g.parse_move("A3"), None);
        let w = g.parse_move("C3").unwrap();
        g.play(w);
        assert_eq!(g.cell(3, 2), Cell::Stone(Color::White));
        assert_eq!(g.format_move(w), "C3");
        g.undo(w, ());
        g.undo(m, ());
        assert_eq!(g, start);
    }

    /// Boards small enough for plain negamax: 2×2 and 3×3 are first-player
    /// wins (Lachmann, Moore & Rapaport, "Who wins Domineering on
    /// rectangular boards?", 2002), and transposing a board swaps the
    /// players' roles: R×C with vertical first has the value of C×R with
    /// horizontal first.
    #[test]
    fn tiny_boards_by_negamax() {
        assert!(!wins(&mut Domineering::new(1, 1)));
        assert!(wins(&mut Domineering::new(2, 1)));
        assert!(!wins(&mut Domineering::new(1, 2)));
        assert!(wins(&mut Domineering::new(2, 2)));
        assert!(wins(&mut Domineering::new(3, 3)));
        for (r, c) in [(2, 3), (3, 2), (3, 4), (4, 3), (2, 5)] {
            let mut v = Domineering::new(r, c);
            let mut h = Domineering::new(c, r);
            h.set_to_move(Color::White);
            assert_eq!(wins(&mut v), wins(&mut h), "{r}x{c}");
        }
    }

    /// Mirror images share the canonical key (and only the player to move
    /// separates otherwise equal boards); the plain key tells them apart.
    #[test]
    fn canonical_keys_of_mirror_images() {
        let mut a = Domineering::new(4, 5);
        let mut b = Domineering::new(4, 5);
        let mut c = Domineering::new(4, 5);
        a.place(Color::Black, a.parse_move("A1").unwrap());
        b.place(Color::Black, b.parse_move("E1").unwrap());
        // Upside-down: A1-A2 maps to A3-A4.
        c.place(Color::Black, c.parse_move("A3").unwrap());
        assert_ne!(a.key(), b.key());
        assert_eq!(a.canonical_key(), b.canonical_key());
        assert_eq!(a.canonical_key(), c.canonical_key());
        let mut d = a;
        d.set_to_move(Color::Black);
        assert_ne!(d.canonical_key(), a.canonical_key());
        let mut e = Domineering::new(4, 5);
        e.place(Color::Black, e.parse_move("B1").unwrap());
        assert_ne!(e.canonical_key(), a.canonical_key());
        e.undo(1, ()); // B1 is cell 1
        assert_eq!(e.canonical_key(), Domineering::new(4, 5).canonical_key());
    }
}

#[cfg(test)]
#[path = "domineering_tests.rs"]
mod exhaustive;

#[path = "domineering_solver.rs"]
pub mod solver;

#[path = "domineering_race.rs"]
pub mod race;

#[path = "domineering_runs.rs"]
pub mod runs;
