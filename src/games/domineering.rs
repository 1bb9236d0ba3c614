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
//! [`Game::bound`] decides positions without search by a race
//! ([`race_moves`]): the moves one player is sure of — safe moves
//! (Breuker, Uiterwijk & van den Herik, "Solving 8×8 Domineering", TCS
//! 2000), protective squares and vulnerable dominoes (Bullock, "Domineering:
//! Solving Large Combinatorial Search Spaces", 2002; his solver Obsequi),
//! each counted with the opponent's moves it removes — against the most
//! moves the opponent can still make. The tests in `domineering_tests.rs`
//! check the race's closed form against its minimax and the bound against
//! exhaustive search of every position of every board up to 5×5.

use super::{parse_vertex, vertex_name, Cell, Color, Game, MoveList, Outcome};
use crate::go::zobrist::key_table;
use std::sync::OnceLock;

/// Most cells a Domineering board may have (the bitboard's width).
pub const MAX_CELLS: usize = 128;

static CELL_KEYS: [u64; MAX_CELLS] = key_table(0xD0_313E_E21E);

/// Most columns and rows: the widest board of a game spec.
const MAX_SIDE: usize = super::spec::MAX_SIDE;

/// What playing one domino does to the keys: `[key, left-right,
/// upside-down, both]`, by `color * MAX_CELLS + cell`. Computed once per
/// board shape, so that a move changes the four keys with four XORs (the
/// reflections need the cells' rows and columns, and dividing costs more
/// than the rest of a move).
type MoveKeys = [[u64; 4]; 2 * MAX_CELLS];

/// One [`MoveKeys`] per board shape `[rows][cols]`, made when a board of
/// that shape is first created.
static MOVE_KEYS: [[OnceLock<Box<MoveKeys>>; MAX_SIDE + 1]; MAX_SIDE + 1] =
    [const { [const { OnceLock::new() }; MAX_SIDE + 1] }; MAX_SIDE + 1];

fn move_keys(rows: usize, cols: usize) -> &'static MoveKeys {
    MOVE_KEYS[rows][cols].get_or_init(|| {
        let mut t = Box::new([[0u64; 4]; 2 * MAX_CELLS]);
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
        for (color, step, edge) in [(0, cols, rows > 1), (1, 1, cols > 1)] {
            for cell in 0..rows * cols {
                let other = cell + step;
                // Only dominoes that fit on the board are ever played.
                let fits = edge && other < rows * cols && (color == 0 || cell % cols + 1 < cols);
                if fits {
                    let (a, b) = (cell_keys(cell), cell_keys(other));
                    t[color * MAX_CELLS + cell] = std::array::from_fn(|i| a[i] ^ b[i]);
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

    /// The second cell a domino of `color` at `cell` covers.
    #[inline]
    fn partner(&self, color: Color, cell: u8) -> u8 {
        match color {
            Color::Black => cell + self.cols,
            Color::White => cell + 1,
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
        let other = self.partner(color, cell);
        let bits = (1u128 << cell) | (1u128 << other);
        self.occupied |= bits;
        if color == Color::Black {
            self.vertical |= bits;
        }
        self.toggle_keys(color, cell);
        self.set_to_move(color.opp());
    }

    /// XORs `color`'s domino at `cell` into the key and the symmetric keys.
    #[inline]
    fn toggle_keys(&mut self, color: Color, cell: u8) {
        let side = match color {
            Color::Black => 0,
            Color::White => MAX_CELLS,
        };
        let d = &self.move_keys[side + cell as usize];
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

    /// What guarantees `color` moves whatever the opponent does, in
    /// disjoint cells (Bullock 2002 names the kinds; [`race_moves`] counts
    /// them). `their_pick` is [`pick_pairs`] of the free cells in the
    /// opponent's direction: its greedy packing, [`Self::max_moves`].
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
    pub fn assets(&self, color: Color, their_pick: u128) -> Assets {
        let free = self.free();
        let (step, edge) = self.dir(color);
        let (os, oedge) = self.dir(color.opp());
        let theirs = self.move_mask(color.opp());
        let reach = theirs | (theirs << os);
        let safe = pick_pairs(free & !reach, step, edge);
        let unused = free & !(safe | (safe << step));
        // 2×2 free squares closed to the opponent on one side across (its
        // neighbours there occupied or off the board): a domino of `color`
        // in the open half leaves the closed half safe and shortens the
        // opponent's two runs through the square by one each.
        let square = free & (free >> os) & (free >> step) & (free >> (step + os)) & edge & oedge;
        let ahead = (free >> os) & oedge;
        let behind = (free & oedge) << os;
        let closed_ahead = !(ahead >> os) & !(ahead >> (os + step));
        let closed_behind = !behind & !(behind >> step);
        let mut set = square & (closed_ahead | closed_behind);
        let mut worth = [0; 4];
        let mut claimed = 0u128;
        while set != 0 {
            let x = set.trailing_zeros();
            set &= set - 1;
            let low = (1u128 << x) | (1u128 << (x + os));
            let cells = low | (low << step);
            if cells & claimed == 0 {
                claimed |= run_fill(cells, free, os, oedge);
                worth[3] += 1;
            }
        }
        // Cells whose loss shortens the opponent's packing of their run:
        // the second cell of each pair its greedy packing places (odd
        // offsets), and every cell of a run of even length (no cell left
        // over there).
        let left_over = free & !(their_pick | (their_pick << os));
        let shortens = (their_pick << os) | (free & !run_fill(left_over, free, os, oedge));
        let cand = unused & (unused >> step) & edge;
        let two = cand & shortens & (shortens >> step);
        let one = cand & (shortens | (shortens >> step)) & !two;
        for (mut set, w) in [(two, 2), (one, 1)] {
            while set != 0 {
                let x = set.trailing_zeros();
                set &= set - 1;
                let cells = (1u128 << x) | (1u128 << (x + step));
                if cells & claimed == 0 {
                    claimed |= run_fill(cells, free, os, oedge);
                    worth[w] += 1;
                }
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
        worth[0] = first.count_ones() + second.count_ones();
        Assets {
            safe: safe.count_ones(),
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
    /// squares as in [`Domineering::assets`] (P's domino in the open half
    /// leaves the closed half safe: two moves; Q spoils one with one
    /// move); dominoes of P in the other cells, none next to another item
    /// along Q's direction, so that a domino of Q, whose two cells are
    /// neighbours in that direction, touches one item at most.
    pub fn cell_race(&self, color: Color, first: bool) -> bool {
        let free = self.free();
        let (step, edge) = self.dir(color);
        let (os, oedge) = self.dir(color.opp());
        let theirs = self.move_mask(color.opp());
        let reach = theirs | (theirs << os);
        let untouchable = free & !reach;
        let safe = pick_pairs(untouchable, step, edge);
        let safe_cells = safe | (safe << step);
        // Cells next to `cells` along Q's direction, `cells` included.
        let zone = |cells: u128| cells | ((cells & oedge) << os) | ((cells >> os) & oedge);
        let square = free & (free >> os) & (free >> step) & (free >> (step + os)) & edge & oedge;
        let ahead = (free >> os) & oedge;
        let behind = (free & oedge) << os;
        let closed_ahead = !(ahead >> os) & !(ahead >> (os + step));
        let closed_behind = !behind & !(behind >> step);
        let mut set = square & (closed_ahead | closed_behind);
        let (mut blocks, mut used, mut banned) = (0, 0u128, 0u128);
        while set != 0 {
            let x = set.trailing_zeros();
            set &= set - 1;
            let low = (1u128 << x) | (1u128 << (x + os));
            let cells = low | (low << step);
            if cells & banned == 0 {
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
                safe: safe.count_ones(),
                worth: [one.count_ones() + two.count_ones(), blocks, 0, 0],
            },
            first,
        );
        let spare = (untouchable & !(safe_cells | used | items)).count_ones();
        cell_race_wins(guaranteed, spare, free.count_ones(), first)
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
        let me = self.to_move;
        let you = me.opp();
        let (pick_mine, pick_yours) = (self.packing(me), self.packing(you));
        let yours = self.assets(you, pick_mine);
        let mine = win_side.then(|| self.assets(me, pick_yours));
        let bound = if self.lost_race(yours, pick_mine) {
            Some(Outcome::Loss)
        } else if mine.is_some_and(|a| self.won_race(a, pick_yours)) {
            Some(Outcome::Win)
        } else {
            None
        };
        let mobility =
            self.move_mask(me).count_ones() as i32 - self.move_mask(you).count_ones() as i32;
        let safe_mine = mine.map_or_else(|| self.safe_moves(me), |a| a.safe);
        let safe = safe_mine as i32 - yours.safe as i32;
        let most = pick_mine.count_ones() as i32 - pick_yours.count_ones() as i32;
        (bound, 16 * mobility + 32 * safe + 16 * most)
    }

    /// The two halves of [`Game::bound`]'s race, each only when asked
    /// (the Domineering solver knows when one was already tried): `Loss`
    /// when the opponent wins the races moving second (`loss`), `Win` when
    /// the mover wins them moving first (`win`). The same tests as
    /// [`Domineering::analyse`], without the evaluation.
    pub(crate) fn race_bound(&self, loss: bool, win: bool) -> Option<Outcome> {
        let me = self.to_move;
        if loss {
            let pick_mine = self.packing(me);
            if self.lost_race(self.assets(me.opp(), pick_mine), pick_mine) {
                return Some(Outcome::Loss);
            }
        }
        if win {
            let pick_yours = self.packing(me.opp());
            if self.won_race(self.assets(me, pick_yours), pick_yours) {
                return Some(Outcome::Win);
            }
        }
        None
    }

    /// [`pick_pairs`] of the free cells in `color`'s direction: the
    /// lower cells of its greedy packing, [`Self::max_moves`] of them.
    #[inline]
    fn packing(&self, color: Color) -> u128 {
        let (step, edge) = self.dir(color);
        pick_pairs(self.free(), step, edge)
    }

    /// The loss half: the opponent's assets `yours`, moving second, reach
    /// the mover's most moves (`pick_mine`, its packing), or the opponent
    /// wins the cell count.
    #[inline]
    fn lost_race(&self, yours: Assets, pick_mine: u128) -> bool {
        race_moves(yours, false) >= pick_mine.count_ones()
            || self.cell_race(self.to_move.opp(), false)
    }

    /// The win half: the mover's assets `mine`, moving first, exceed the
    /// opponent's most moves (`pick_yours`), or it wins the cell count.
    #[inline]
    fn won_race(&self, mine: Assets, pick_yours: u128) -> bool {
        race_moves(mine, true) > pick_yours.count_ones() || self.cell_race(self.to_move, true)
    }
}

/// The lower cells of the dominoes a greedy packing places into `cells`
/// along direction `step` (`edge`: cells whose partner is on the board):
/// from the first cell of each maximal run, every other pair, which is
/// the most a run holds (⌊L/2⌋). A few word operations per round.
#[inline]
pub(crate) fn pick_pairs(mut cells: u128, step: u32, edge: u128) -> u128 {
    let mut picked = 0;
    while cells != 0 {
        // Run starts: cells whose predecessor in the direction is not in
        // the set (or not linked to them: a row's last cell).
        let starts = cells & !((cells & edge) << step);
        let pairs = starts & (cells >> step) & edge;
        picked |= pairs;
        cells &= !(starts | (pairs << step));
    }
    picked
}

/// The cells of `free` whose loss shortens the packing of their run
/// along `step` (`pick`: [`pick_pairs`] of `free`): every cell of a run of
/// even length, and the odd offsets (second cells of the picked pairs) of
/// an odd one.
#[inline]
pub(crate) fn shortening(free: u128, pick: u128, step: u32, edge: u128) -> u128 {
    let left_over = free & !(pick | (pick << step));
    (pick << step) | (free & !run_fill(left_over, free, step, edge))
}

/// The cells of the maximal runs (along direction `step`, inside `free`)
/// that hold a cell of `cells`.
#[inline]
pub(crate) fn run_fill(cells: u128, free: u128, step: u32, edge: u128) -> u128 {
    let mut m = cells;
    loop {
        let grown = (m | ((m & edge) << step) | ((m >> step) & edge)) & free;
        if grown == m {
            return m;
        }
        m = grown;
    }
}

/// A player's guaranteed-move structures; see [`Domineering::assets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assets {
    /// Safe moves: no opposing move can take them away.
    pub safe: u32,
    /// `worth[w - 1]` items worth `w`: taking one is a move of the player
    /// and, with the safe move it leaves or the opponent's moves it
    /// removes, w − 1 more in the race; one opposing move spoils it.
    pub worth: [u32; 4],
}

/// The race behind [`Game::bound`]. A player P with assets `a` plays
/// against an opponent Q who can make at most M more moves (the packing
/// [`Domineering::max_moves`]: every move of Q lowers it by one at least,
/// and an item P takes lowers it by what it removes). Each move of Q
/// spoils at most one item. P takes the most valuable item left, Q spoils
/// the most valuable one left, in turn; then P plays its safe moves. P
/// wins moving first when the result exceeds M, moving second when it
/// reaches M. The tests check this against the race's minimax.
pub fn race_moves(a: Assets, first: bool) -> u32 {
    let mut total = a.safe;
    let mut p_turn = first;
    for w in (1..=4).rev() {
        let n = a.worth[w as usize - 1];
        let taken = if p_turn { n.div_ceil(2) } else { n / 2 };
        total += w * taken;
        if n % 2 == 1 {
            p_turn = !p_turn;
        }
    }
    total
}

/// The cell count behind [`Domineering::cell_race`]: P, sure of
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

impl Game for Domineering {
    type Move = u8;
    type Undo = ();

    fn spec(&self) -> String {
        format!("domineering:{}x{}", self.rows, self.cols)
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn moves(&self, out: &mut MoveList<u8>) {
        let mut mask = self.move_mask(self.to_move);
        while mask != 0 {
            out.push(mask.trailing_zeros() as u8);
            mask &= mask - 1;
        }
    }

    fn mobility(&self) -> usize {
        self.move_mask(self.to_move).count_ones() as usize
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

    fn play(&mut self, m: u8) {
        self.place(self.to_move, m);
    }

    fn undo(&mut self, m: u8, _: ()) {
        let color = self.to_move.opp();
        let other = self.partner(color, m);
        let bits = (1u128 << m) | (1u128 << other);
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
        let (r, c) = (m / self.cols, m % self.cols);
        vertex_name(c as usize, r as usize)
    }

    fn parse_move(&self, text: &str) -> Option<u8> {
        let (c, r) = parse_vertex(text)?;
        if c >= self.cols() || r >= self.rows() {
            return None;
        }
        let cell = (r * self.cols() + c) as u8;
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
