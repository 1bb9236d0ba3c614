//! NoGo (BIRS combinatorial game theory workshop, 2011; Chou, Teytaud & Yen,
//! "Revisiting Monte-Carlo tree search on a normal form game: NoGo", 2011):
//! Go stones on a rectangular board, but capturing and suicide are both
//! illegal, so a move is legal exactly when afterwards every block on the
//! board, the mover's and the opponent's, still has a liberty. A player with
//! no legal move loses. Black moves first.
//!
//! A board `RxC` has R rows and C columns (the game is symmetric, so the
//! orientation only matters for display).
//!
//! # Notation
//!
//! Points are GTP vertices: column letters from `A` (left), rows from `1`
//! (bottom). GoGui shows the board in the lower-left corner of a square board
//! of side max(R, C), the other cells removed.
//!
//! # Representation
//!
//! Stones are two `u128` bitboards, point `row * C + col`. Neighbours are
//! four shifts of a mask, so a block is a flood fill of a few word
//! operations per step. After each move the position works out both players'
//! legal-move masks at once (copy-make: [`Game::Undo`] is the old position):
//! a point is illegal for a player when it is the last liberty of an enemy
//! block (the move would capture), or when it has no empty neighbour and
//! every own block next to it has it as its only liberty (suicide). Blocks
//! not touching the point cannot lose a liberty, so nothing else matters.
//! Moves, mobility and outcome are then one mask each.

use super::domineering::Bits;
use super::{cell_name, parse_cell, Cell, ChildInfo, Color, Game, MoveList, Outcome};
use crate::go::zobrist::key_tables;

/// Most points a NoGo board may have (the bitboard's width).
pub const MAX_CELLS: usize = 128;

static STONE_KEYS: [[u64; MAX_CELLS]; 2] = key_tables(0x4E06_0A11);
const WHITE_TO_MOVE: u64 = 0x2545_F491_4F6C_DD1D;

/// A NoGo position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoGo {
    rows: u8,
    cols: u8,
    to_move: Color,
    /// Stones by colour index (black, white).
    stones: [u128; 2],
    /// Legal moves of each colour in this position.
    legal: [u128; 2],
    /// All points of the board.
    board: u128,
    /// Points with a left neighbour (column > 0).
    has_left: u128,
    /// Points with a right neighbour (column < C - 1).
    has_right: u128,
    key: u64,
}

impl NoGo {
    /// The empty `rows` × `cols` board, Black to move.
    ///
    /// Panics unless `1 ≤ rows·cols ≤ MAX_CELLS`; [`super::spec`] checks
    /// user input first.
    pub fn new(rows: usize, cols: usize) -> NoGo {
        assert!(rows >= 1 && cols >= 1 && rows * cols <= MAX_CELLS);
        let mut board = 0u128;
        let mut has_left = 0u128;
        let mut has_right = 0u128;
        for r in 0..rows {
            for c in 0..cols {
                let bit = 1u128 << (r * cols + c);
                board |= bit;
                if c > 0 {
                    has_left |= bit;
                }
                if c + 1 < cols {
                    has_right |= bit;
                }
            }
        }
        let mut g = NoGo {
            rows: rows as u8,
            cols: cols as u8,
            to_move: Color::Black,
            stones: [0; 2],
            legal: [0; 2],
            board,
            has_left,
            has_right,
            key: 0,
        };
        g.update_legal();
        g
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The stones of `color`, bit `row * cols + col`.
    pub fn stones(&self, color: Color) -> u128 {
        self.stones[color.index()]
    }

    /// The points where `color` may play now, whoever is to move.
    pub fn legal_mask(&self, color: Color) -> u128 {
        self.legal[color.index()]
    }

    /// Recomputes both players' legal moves from the stones (see
    /// [`legal_masks`]), in a 64-bit word when the board fits one: every
    /// NoGo board of seed 001 does, and `u128` shifts by a variable amount
    /// cost several instructions each (this function was two thirds of
    /// PN²'s time on NoGo 4×4).
    fn update_legal(&mut self) {
        if self.board >> 64 == 0 {
            let n = |x: u128| x as u64;
            let legal = legal_masks(
                [n(self.stones[0]), n(self.stones[1])],
                n(self.board),
                n(self.has_left),
                n(self.has_right),
                self.cols as u32,
            );
            self.legal = [legal[0] as u128, legal[1] as u128];
        } else {
            self.legal = legal_masks(
                self.stones,
                self.board,
                self.has_left,
                self.has_right,
                self.cols as u32,
            );
        }
    }

    /// Whether `color` may play on point `p` now.
    pub fn is_legal(&self, color: Color, p: u8) -> bool {
        (p as usize) < MAX_CELLS && self.legal[color.index()] >> p & 1 == 1
    }

    /// Puts a stone of `color` on `p` (which must be legal for it), whoever
    /// is to move; the opponent of `color` moves next.
    pub fn place(&mut self, color: Color, p: u8) {
        self.stones[color.index()] |= 1u128 << p;
        self.key ^= STONE_KEYS[color.index()][p as usize];
        self.set_to_move(color.opp());
        self.update_legal();
    }

    /// Sets the player to move.
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.to_move = color;
            self.key ^= WHITE_TO_MOVE;
        }
    }
}

/// Both players' legal moves on a board of `cols` columns (points `board`,
/// those with a left and a right neighbour `has_left` and `has_right`)
/// holding `stones` (black, white): one flood fill per block, sorting each
/// block's liberties into "last liberty" and "one of several".
#[inline]
fn legal_masks<B: Bits>(stones: [B; 2], board: B, has_left: B, has_right: B, cols: u32) -> [B; 2] {
    let neighbours =
        |x: B| ((x << cols) | (x >> cols) | ((x & has_right) << 1) | ((x & has_left) >> 1)) & board;
    let empty = board & !(stones[0] | stones[1]);
    let next_to_empty = neighbours(empty);
    let mut single = [B::ZERO; 2];
    let mut multi = [B::ZERO; 2];
    for c in 0..2 {
        let own = stones[c];
        let mut rest = own;
        while rest != B::ZERO {
            let block = block_from(rest & !rest.drop_low(), own, &neighbours);
            rest &= !block;
            let libs = neighbours(block) & empty;
            // At most one liberty (a block has one in every position):
            // cheaper than a population count where the processor has
            // none.
            if libs.drop_low() == B::ZERO {
                single[c] |= libs;
            } else {
                multi[c] |= libs;
            }
        }
    }
    [
        empty & !single[1] & (next_to_empty | multi[0]),
        empty & !single[0] & (next_to_empty | multi[1]),
    ]
}

/// The block of `own` stones that holds `seed` (one stone of it): grown
/// through `neighbours` until it stops changing.
#[inline]
fn block_from<B: Bits>(seed: B, own: B, neighbours: &impl Fn(B) -> B) -> B {
    let mut block = seed;
    loop {
        let grown = block | (neighbours(block) & own);
        if grown == block {
            return block;
        }
        block = grown;
    }
}

/// The blocks of one colour: each block's stones and liberties (blocks
/// are disjoint and never adjacent, so there are at most half as many as
/// points).
type Blocks<B> = arrayvec::ArrayVec<(B, B), { MAX_CELLS / 2 }>;

/// The blocks of `own` (stones of one colour) on the board of
/// `neighbours`, with their liberties among `empty`, into `out` (filled in
/// place: returning a list of 64 pairs copied it, a sixth of PN²'s time).
#[inline]
fn blocks_of<B: Bits>(own: B, empty: B, neighbours: impl Fn(B) -> B, out: &mut Blocks<B>) {
    let mut rest = own;
    while rest != B::ZERO {
        let block = block_from(rest & !rest.drop_low(), own, &neighbours);
        rest &= !block;
        out.push((block, neighbours(block) & empty));
    }
}

/// [`Game::child_info`] of each move of `moves` in position `g` (whose
/// stones and board masks `[board, has_left, has_right]` are given in words
/// of type `B`), into `out`. A stone on `p` merges the mover's blocks next
/// to `p` into one, takes `p` from the liberties of the opponent's blocks
/// next to it, and changes no other block; so the child's blocks, and from
/// them its legal moves (as in [`legal_masks`]), follow from the parent's
/// blocks without a flood fill.
fn children_of<B: Bits>(
    g: &NoGo,
    moves: &[u8],
    stones: [B; 2],
    masks: [B; 3],
    out: &mut Vec<ChildInfo>,
) {
    let [board, has_left, has_right] = masks;
    let cols = g.cols as u32;
    let neighbours =
        |x: B| ((x << cols) | (x >> cols) | ((x & has_right) << 1) | ((x & has_left) >> 1)) & board;
    let me = g.to_move.index();
    let empty = board & !(stones[0] | stones[1]);
    let (mut mine, mut theirs) = (Blocks::new(), Blocks::new());
    blocks_of(stones[me], empty, neighbours, &mut mine);
    blocks_of(stones[1 - me], empty, neighbours, &mut theirs);
    // Where a block with liberties `libs` puts them: "last liberty" or
    // "one of several".
    let sort = |libs: B, single: &mut B, multi: &mut B| {
        if libs.drop_low() == B::ZERO {
            *single |= libs;
        } else {
            *multi |= libs;
        }
    };
    for &p in moves {
        let stone = B::ONE << p as u32;
        let around = neighbours(stone);
        let empty = empty & !stone;
        // The mover's blocks: the one through `p`, and the others.
        let (mut my_single, mut my_multi) = (B::ZERO, B::ZERO);
        let mut merged = around & empty;
        for &(block, libs) in &mine {
            if block & around != B::ZERO {
                merged |= libs;
            } else {
                sort(libs, &mut my_single, &mut my_multi);
            }
        }
        sort(merged & !stone, &mut my_single, &mut my_multi);
        // The opponent's blocks, less the liberty `p`.
        let (mut their_single, mut their_multi) = (B::ZERO, B::ZERO);
        for &(_, libs) in &theirs {
            sort(libs & !stone, &mut their_single, &mut their_multi);
        }
        // The opponent moves next: where it may play (as `legal_masks`).
        let legal = empty & !my_single & (neighbours(empty) | their_multi);
        let mobility = legal.ones() as usize;
        let to_move = g.to_move.opp();
        out.push(ChildInfo {
            key: g.key ^ STONE_KEYS[me][p as usize] ^ WHITE_TO_MOVE,
            to_move,
            outcome: (mobility == 0).then_some(Outcome::Loss),
            mobility,
        });
    }
}

impl Game for NoGo {
    type Move = u8;
    type Undo = NoGo;
    /// Each move adds a stone: capturing is illegal, and there is no pass.
    const FIXED_DEPTH: bool = true;
    const CHILDREN_AT_ONCE: bool = true;

    fn spec(&self) -> String {
        format!("nogo:{}x{}", self.rows, self.cols)
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn moves(&self, out: &mut MoveList<u8>) {
        let mut mask = self.legal[self.to_move.index()];
        while mask != 0 {
            out.push(mask.trailing_zeros() as u8);
            mask &= mask - 1;
        }
    }

    fn mobility(&self) -> usize {
        self.legal[self.to_move.index()].count_ones() as usize
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.legal[self.to_move.index()] == 0).then_some(Outcome::Loss)
    }

    /// Every child from one analysis of this position's blocks (see
    /// [`children_of`]) rather than one per child: a stone changes only the
    /// blocks next to it. Play-ask-undo recomputed every block of the
    /// board for every child, half of PN²'s time on 4×4.
    fn children_info(&mut self, moves: &[u8], out: &mut Vec<ChildInfo>) {
        out.clear();
        if self.board >> 64 == 0 {
            let n = |x: u128| x as u64;
            children_of(
                self,
                moves,
                [n(self.stones[0]), n(self.stones[1])],
                [n(self.board), n(self.has_left), n(self.has_right)],
                out,
            );
        } else {
            children_of(
                self,
                moves,
                self.stones,
                [self.board, self.has_left, self.has_right],
                out,
            );
        }
    }

    fn play(&mut self, m: u8) -> NoGo {
        let old = *self;
        self.place(self.to_move, m);
        old
    }

    fn undo(&mut self, _: u8, old: NoGo) {
        *self = old;
    }

    /// Mobility difference: the player with more safe points lasts longer.
    fn evaluate(&self) -> i32 {
        let me = self.to_move.index();
        let mine = self.legal[me].count_ones() as i32;
        let theirs = self.legal[1 - me].count_ones() as i32;
        (mine - theirs) * 16
    }

    fn format_move(&self, m: u8) -> String {
        cell_name(m as usize, self.cols())
    }

    fn parse_move(&self, text: &str) -> Option<u8> {
        let p = parse_cell(text, self.rows(), self.cols())? as u8;
        self.is_legal(self.to_move, p).then_some(p)
    }

    fn display_size(&self) -> usize {
        self.rows().max(self.cols())
    }

    fn cell(&self, col: usize, row: usize) -> Cell {
        if col >= self.cols() || row >= self.rows() {
            return Cell::Removed;
        }
        let bit = 1u128 << (row * self.cols() + col);
        if self.stones[0] & bit != 0 {
            Cell::Stone(Color::Black)
        } else if self.stones[1] & bit != 0 {
            Cell::Stone(Color::White)
        } else {
            Cell::Empty
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;
    use std::collections::HashMap;

    /// Negamax with a table of solved positions: whether the player to move
    /// wins.
    fn wins(g: &mut NoGo, table: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = table.get(&g.key()) {
            return w;
        }
        let mut list = MoveList::new();
        g.moves(&mut list);
        let mut win = false;
        for &m in &list {
            let u = g.play(m);
            let lost = !wins(g, table);
            g.undo(m, u);
            if lost {
                win = true;
                break;
            }
        }
        table.insert(g.key(), win);
        win
    }

    fn solve(rows: usize, cols: usize) -> bool {
        wins(&mut NoGo::new(rows, cols), &mut HashMap::new())
    }

    /// 1×1: the only point is suicide. 1×2: after either first stone the
    /// last point would capture it. 1×3: after the middle stone both ends
    /// are suicide for White.
    #[test]
    fn tiny_boards_by_hand() {
        let g = NoGo::new(1, 1);
        assert_eq!(g.outcome(), Some(Outcome::Loss));
        assert!(solve(1, 2));
        assert!(solve(2, 1));
        assert!(solve(1, 3));
        let mut g = NoGo::new(1, 3);
        g.play(1);
        assert_eq!(g.outcome(), Some(Outcome::Loss));
    }

    /// Martin Müller's table of solved NoGo boards (University of Alberta;
    /// the values the issue quotes): 3×3 is a first-player win, 4×4 a
    /// second-player win. Rotated boards must agree.
    #[test]
    fn solved_boards_by_negamax() {
        assert!(solve(3, 3));
        assert!(!solve(4, 4));
        assert_eq!(solve(2, 3), solve(3, 2));
        assert_eq!(solve(1, 7), solve(7, 1));
    }

    /// The legal moves equal those of the Go board's rules restricted to
    /// moves that neither capture nor commit suicide, along seeded random
    /// games on square boards.
    #[test]
    fn agrees_with_the_go_board() {
        let mut seed = 0x1234_5678_u64;
        for size in [2usize, 3, 4, 5, 7, 9, 11] {
            for _game in 0..20 {
                let mut g = NoGo::new(size, size);
                let mut b = Board::new(size);
                loop {
                    let color = g.to_move();
                    let mut expect = Vec::new();
                    for row in 0..size {
                        for col in 0..size {
                            let p = Board::point_at(col, row);
                            if b.is_legal(color, p) && !b.captures_something(color, p) {
                                expect.push((row * size + col) as u8);
                            }
                        }
                    }
                    let mut list = MoveList::new();
                    g.moves(&mut list);
                    assert_eq!(list.as_slice(), expect.as_slice(), "{size}x{size}");
                    assert_eq!(g.mobility(), expect.len());
                    if list.is_empty() {
                        assert_eq!(g.outcome(), Some(Outcome::Loss));
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let m = list[(seed >> 33) as usize % list.len()];
                    let (col, row) = (m as usize % size, m as usize / size);
                    b.play(color, Board::point_at(col, row));
                    let before = g;
                    let u = g.play(m);
                    assert_ne!(g.key(), before.key());
                    let mut again = g;
                    again.undo(m, u);
                    assert_eq!(again, before);
                }
            }
        }
    }

    #[test]
    fn notation_and_display() {
        let mut g = NoGo::new(2, 3);
        let m = g.parse_move("c2").unwrap();
        assert_eq!(g.format_move(m), "C2");
        g.play(m);
        assert_eq!(g.cell(2, 1), Cell::Stone(Color::Black));
        assert_eq!(g.cell(0, 2), Cell::Removed);
        assert_eq!(g.display_size(), 3);
        assert_eq!(g.parse_move("c2"), None);
        assert_eq!(g.parse_move("d1"), None);
        assert_eq!(g.spec(), "nogo:2x3");
    }
}
