//! The Go board: a fixed-size value with blocks and exact liberty counts kept
//! up to date incrementally, and play/undo that never touch the heap.
//!
//! Layout: a padded one-dimensional array with a fixed stride of 26 (25 columns
//! plus one shared border column) and a border row above and below, so every
//! board size up to 25×25 uses the same neighbour offsets. Points outside the
//! chosen size are marked as border.
//!
//! Blocks are circular linked lists of stones (`next`) with a representative
//! stone (`head`) that holds the block's stone and liberty counts. Merging two
//! circular lists is one swap of `next` entries, and the same swap splits them
//! again, which makes undo exact and cheap (the classic technique of GNU Go's
//! and Fuego's boards). Captured stones keep their links, so undo can put a
//! captured block back by walking it. `play` returns an [`Undo`] record that the
//! caller keeps (on the stack of a recursive search, say) and hands back to
//! [`Board::undo`] in last-in, first-out order.
//!
//! Rules enforced here: occupied points, suicide (illegal) and simple ko.
//! Positional superko needs the game history and lives in [`super::game`].

use super::color::Color;
use super::vertex::{Move, Vertex, MAX_SIZE};
use super::zobrist;
use arrayvec::ArrayVec;

mod grid;
mod lookup;
mod play;
mod setup;

use grid::Grid;

/// Distance between vertically adjacent points.
pub const STRIDE: usize = MAX_SIZE + 1;
/// Number of cells in the padded array: border rows above and below, and
/// one more cell so the upper-right diagonal of the last point exists.
pub const NUM_POINTS: usize = STRIDE * (MAX_SIZE + 2) + 1;
/// Most points a board can have (25×25).
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// A cell index in the padded array. Index 0 is a border cell and doubles as
/// the pass move, so `PASS` can never be confused with a point on the board.
pub type Point = usize;
pub const PASS: Point = 0;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const BORDER: u8 = 3;

/// A list of points with room for every point of the largest board.
pub type PointList = ArrayVec<Point, MAX_POINTS>;

/// Words of a bit set over the cells (the atari set, the eye points).
const SET_WORDS: usize = NUM_POINTS.div_ceil(64);

/// Why a move is not allowed on the board as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    Occupied,
    Suicide,
    Ko,
    OffBoard,
}

/// Everything [`Board::undo`] needs to take one move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    point: u16,
    color: Color,
    prev_to_move: Color,
    prev_ko: u16,
    prev_ko_color: Color,
    prev_hash: u64,
    /// The played point's own cell data before the move (it may be the head
    /// of a captured block whose data must survive).
    prev_next: u16,
    prev_head: u16,
    prev_libs: u16,
    prev_stones: u16,
    /// Friendly blocks joined by the move, in the order they were spliced;
    /// `merged[0]` is the block that became the new head.
    merged: [u16; 4],
    n_merged: u8,
    /// Root's liberty and stone counts just before merging.
    root_libs: u16,
    root_stones: u16,
    /// Enemy blocks that lost a liberty (captured ones included).
    enemies: [u16; 4],
    n_enemies: u8,
    /// Heads of the enemy blocks captured by the move.
    captured: [u16; 4],
    n_captured: u8,
    n_captured_stones: u16,
}

impl Undo {
    /// The move this record takes back (`PASS` for a pass).
    pub fn point(&self) -> Point {
        self.point as Point
    }

    /// A record of nothing, to be overwritten by [`Board::play_into`].
    pub const NONE: Undo = Undo {
        point: 0,
        color: Color::Black,
        prev_to_move: Color::Black,
        prev_ko: 0,
        prev_ko_color: Color::Black,
        prev_hash: 0,
        prev_next: 0,
        prev_head: 0,
        prev_libs: 0,
        prev_stones: 0,
        merged: [0; 4],
        n_merged: 0,
        root_libs: 0,
        root_stones: 0,
        enemies: [0; 4],
        n_enemies: 0,
        captured: [0; 4],
        n_captured: 0,
        n_captured_stones: 0,
    };
}

/// A Go position: stones, blocks, liberties, the simple-ko ban, prisoners,
/// the player to move and the Zobrist hash of the stones.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: Grid<u8>,
    next: Grid<u16>,
    head: Grid<u16>,
    libs: Grid<u16>,
    stones: Grid<u16>,
    hash: u64,
    ko: u16,
    ko_color: Color,
    to_move: Color,
    prisoners: [u32; 2],
    /// `atari[c]`: bit `p` is set exactly when `p` is the head of a block
    /// of colour `c` with one liberty, so that the blocks in atari are
    /// found without looking at the whole board (see
    /// [`Board::for_each_atari_block`]); one set per colour, as every
    /// caller asks for one colour. Every write of a head's `libs` goes
    /// through [`Board::set_libs`] to keep it so.
    atari: [[u64; SET_WORDS]; 2],
    /// `eyes[c]`: bit `p` is set exactly when `p` is an empty point whose
    /// neighbours are all stones of colour `c` or border (see
    /// [`Board::eye_count`]).
    eyes: [[u64; SET_WORDS]; 2],
    /// Scratch marks for liberty counting; a point is marked when
    /// `mark[p] == mark_gen`, so clearing is one increment.
    mark: Grid<u32>,
    mark_gen: u32,
}

#[inline]
fn cell_of(c: Color) -> u8 {
    c.cell()
}

impl Board {
    /// An empty board of side `size` (1..=25), black to move.
    pub fn new(size: usize) -> Board {
        assert!((1..=MAX_SIZE).contains(&size), "board size out of range");
        let mut b = Board {
            size,
            cells: Grid::filled(BORDER),
            next: Grid::filled(0),
            head: Grid::filled(0),
            libs: Grid::filled(0),
            stones: Grid::filled(0),
            hash: 0,
            ko: 0,
            ko_color: Color::Black,
            to_move: Color::Black,
            prisoners: [0; 2],
            atari: [[0; SET_WORDS]; 2],
            eyes: [[0; SET_WORDS]; 2],
            mark: Grid::filled(0),
            mark_gen: 0,
        };
        for row in 0..size {
            for col in 0..size {
                b.cells[Self::point_at(col, row)] = EMPTY;
            }
        }
        b
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The cell index of a column and row (both from 0, row 0 at the bottom).
    #[inline]
    pub fn point_at(col: usize, row: usize) -> Point {
        (row + 1) * STRIDE + col + 1
    }

    /// The cell index of a vertex, or `None` when it is off this board.
    pub fn point(&self, v: Vertex) -> Option<Point> {
        v.on_board(self.size)
            .then(|| Self::point_at(v.col as usize, v.row as usize))
    }

    /// The cell index of a move (`PASS` for a pass), if it is on this board.
    pub fn move_point(&self, m: Move) -> Option<Point> {
        match m {
            Move::Pass => Some(PASS),
            Move::Play(v) => self.point(v),
        }
    }

    /// The vertex of an on-board point.
    #[inline]
    pub fn vertex(p: Point) -> Vertex {
        Vertex::new((p % STRIDE - 1) as u8, (p / STRIDE - 1) as u8)
    }

    /// The move of a point (`PASS` becomes `Move::Pass`).
    pub fn to_move_value(p: Point) -> Move {
        if p == PASS {
            Move::Pass
        } else {
            Move::Play(Self::vertex(p))
        }
    }

    /// All points of this board, bottom row first.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let n = self.size;
        (0..n).flat_map(move |row| (0..n).map(move |col| Self::point_at(col, row)))
    }

    /// The four orthogonal neighbours (some may be border cells).
    #[inline]
    pub fn neighbors(p: Point) -> [Point; 4] {
        [p - STRIDE, p - 1, p + 1, p + STRIDE]
    }

    /// The four diagonal neighbours (some may be border cells).
    #[inline]
    pub fn diagonals(p: Point) -> [Point; 4] {
        [
            p - STRIDE - 1,
            p - STRIDE + 1,
            p + STRIDE - 1,
            p + STRIDE + 1,
        ]
    }

    #[inline]
    pub fn cell(&self, p: Point) -> u8 {
        self.cells[p]
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cells[p] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p] == EMPTY
    }

    /// The representative stone of the block on `p` (meaningful for stones).
    #[inline]
    pub fn block(&self, p: Point) -> Point {
        self.head[p] as Point
    }

    /// Liberties of the block containing the stone on `p`.
    #[inline]
    pub fn libs(&self, p: Point) -> usize {
        self.libs[self.head[p] as usize] as usize
    }

    /// Stones in the block containing the stone on `p`.
    #[inline]
    pub fn block_size(&self, p: Point) -> usize {
        self.stones[self.head[p] as usize] as usize
    }

    /// Writes the liberty count of `p`, a block's head (or a stone about
    /// to become one), and keeps the atari set in step.
    #[inline]
    fn set_libs(&mut self, p: Point, libs: u16) {
        self.libs[p] = libs;
        if libs == 1 {
            // A block's head holds a stone of its colour: black 1, white 2.
            debug_assert!(matches!(self.cells[p], BLACK | WHITE), "a head");
            let c = (self.cells[p] as usize - 1) & 1;
            self.atari[c][p / 64] |= 1u64 << (p % 64);
        } else {
            self.clear_atari(p);
        }
    }

    /// Takes `p` out of the atari sets (it is no head with one liberty).
    #[inline]
    fn clear_atari(&mut self, p: Point) {
        let bit = !(1u64 << (p % 64));
        self.atari[0][p / 64] &= bit;
        self.atari[1][p / 64] &= bit;
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }

    /// The point `color` may not play on because of simple ko, if any.
    pub fn ko_point(&self, color: Color) -> Option<Point> {
        (self.ko != 0 && self.ko_color == color).then_some(self.ko as Point)
    }

    /// Stones captured so far by `color`.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// Number of stones of each colour (black, white).
    pub fn stone_counts(&self) -> [usize; 2] {
        let mut n = [0; 2];
        for p in self.points() {
            if let Some(c) = self.color_at(p) {
                n[c.index()] += 1;
            }
        }
        n
    }

    /// [`Board::for_each_stone`] that stops after the first stone for
    /// which `f` returns false (a walk that has its answer early).
    #[inline]
    pub fn for_each_stone_while(&self, p: Point, mut f: impl FnMut(Point) -> bool) {
        let start = p;
        let mut q = p;
        loop {
            if !f(q) {
                break;
            }
            q = self.next[q] as Point;
            if q == start {
                break;
            }
        }
    }

    /// Calls `f` on every stone of the block containing `p`.
    #[inline]
    pub fn for_each_stone(&self, p: Point, mut f: impl FnMut(Point)) {
        let start = p;
        let mut q = p;
        loop {
            f(q);
            q = self.next[q] as Point;
            if q == start {
                break;
            }
        }
    }

    /// Writes the liberties of the block on `p` into `out`, in board order of
    /// discovery, and returns how many there are.
    pub fn block_liberties(&mut self, p: Point, out: &mut PointList) -> usize {
        out.clear();
        self.new_marks();
        let gen = self.mark_gen;
        let mut q = p;
        loop {
            for n in Self::neighbors(q) {
                if self.cells[n] == EMPTY && self.mark[n] != gen {
                    self.mark[n] = gen;
                    out.push(n);
                }
            }
            q = self.next[q] as Point;
            if q == p {
                break;
            }
        }
        out.len()
    }

    /// Why `color` may not play on `p`, or `Ok` when it may (pass always may).
    #[inline]
    pub fn check(&self, color: Color, p: Point) -> Result<(), Illegal> {
        self.check_ignoring_ko(color, p)?;
        if self.ko as Point == p && self.ko_color == color && p != PASS {
            return Err(Illegal::Ko);
        }
        Ok(())
    }

    /// [`Board::check`] without the simple-ko ban: the move is physically
    /// possible. Solvers that model a side with ko threats to spare let it
    /// retake at once.
    #[inline]
    pub fn check_ignoring_ko(&self, color: Color, p: Point) -> Result<(), Illegal> {
        if p == PASS {
            return Ok(());
        }
        if p >= NUM_POINTS || self.cells[p] == BORDER {
            return Err(Illegal::OffBoard);
        }
        if self.cells[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.is_suicide(color, p) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    #[inline]
    pub fn is_legal(&self, color: Color, p: Point) -> bool {
        self.check(color, p).is_ok()
    }

    /// Whether a stone of `color` on the empty point `p` would have no
    /// liberty and capture nothing.
    #[inline]
    pub fn is_suicide(&self, color: Color, p: Point) -> bool {
        let own = cell_of(color);
        for n in Self::neighbors(p) {
            let c = self.cells[n];
            if c == EMPTY {
                return false;
            }
            if c == BORDER {
                continue;
            }
            let l = self.libs[self.head[n] as usize];
            if (c == own) == (l > 1) {
                // own block with a spare liberty, or enemy block in atari
                return false;
            }
        }
        true
    }

    /// Whether a stone of `color` on the empty point `p` would capture
    /// nothing and be legal: `!captures_something(color, p) &&
    /// !is_suicide(color, p)` in one look at the neighbours. Capturing
    /// nothing, every enemy neighbour has two liberties or more, so the
    /// stone is a suicide exactly when it has no empty neighbour and no
    /// own neighbour with a liberty to spare.
    #[inline]
    pub fn is_quiet_legal(&self, color: Color, p: Point) -> bool {
        let own = cell_of(color);
        let mut breathes = false;
        for n in Self::neighbors(p) {
            let c = self.cells[n];
            if c == EMPTY {
                breathes = true;
            } else if c != BORDER {
                let l = self.libs[self.head[n] as usize];
                if c == own {
                    breathes |= l > 1;
                } else if l == 1 {
                    return false;
                }
            }
        }
        breathes
    }

    /// Whether a stone on `p` would capture at least one enemy block.
    #[inline]
    pub fn captures_something(&self, color: Color, p: Point) -> bool {
        let enemy = cell_of(color.opp());
        Self::neighbors(p)
            .iter()
            .any(|&n| self.cells[n] == enemy && self.libs[self.head[n] as usize] == 1)
    }

    /// The liberties, counted up to 2 (0: suicide, 1: atari, 2: two or
    /// more), that the block of a stone of `color` played on the empty
    /// point `p` would have, found without playing it, for a *quiet* move:
    /// one that captures nothing and touches no stone of the block
    /// containing `avoid` (a stone). `None` for a move that is not quiet,
    /// and for the rare quiet move whose count would need a walk over the
    /// blocks it joins. An answer other than 0 is a legal move, since a move
    /// that captures nothing is never on a ko point (the stone that took the
    /// ko would be in atari there).
    #[inline]
    pub fn libs_after_quiet(&self, color: Color, p: Point, avoid: Point) -> Option<usize> {
        let own = cell_of(color);
        let enemy = cell_of(color.opp());
        let avoid = self.head[avoid];
        // Stones always have a head, and 0 is a border cell: 0 is "none".
        let mut root = 0u16;
        let mut joins = 1;
        let mut most = 0;
        let mut empty = 0;
        for n in Self::neighbors(p) {
            let c = self.cells[n];
            if c == EMPTY {
                empty += 1;
            } else if c == own {
                let h = self.head[n];
                if h == avoid {
                    return None;
                }
                if root != 0 && h != root {
                    joins += 1;
                }
                root = h;
                most = most.max(self.libs[h as usize]);
            } else if c == enemy {
                let h = self.head[n];
                if h == avoid || self.libs[h as usize] == 1 {
                    return None;
                }
            }
        }
        if root == 0 || empty >= 2 {
            return Some(empty.min(2));
        }
        if most >= 3 {
            // That block alone keeps two besides `p`.
            return Some(2);
        }
        if joins > 1 {
            return None;
        }
        // One block: it loses the liberty `p` and gains the empty
        // neighbour of `p` (at most one here) if it does not touch it yet.
        let mut libs = self.libs[root as usize] as usize - 1;
        for n in Self::neighbors(p) {
            if self.cells[n] == EMPTY && !self.touches_block(n, p, root) {
                libs += 1;
            }
        }
        Some(libs.min(2))
    }

    /// Whether a neighbour of `q` other than `except` is a stone of the
    /// block headed by `h`.
    #[inline]
    fn touches_block(&self, q: Point, except: Point, h: u16) -> bool {
        Self::neighbors(q).iter().any(|&n| {
            n != except && (self.cells[n] == BLACK || self.cells[n] == WHITE) && self.head[n] == h
        })
    }

    fn new_marks(&mut self) {
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.mark = Grid::filled(0);
            self.mark_gen = 1;
        }
    }

    /// Counts the distinct liberties of the block containing `p`.
    fn count_libs(&mut self, p: Point) -> usize {
        self.new_marks();
        let gen = self.mark_gen;
        let mut count = 0;
        let mut q = p;
        loop {
            for n in Self::neighbors(q) {
                if self.cells[n] == EMPTY && self.mark[n] != gen {
                    self.mark[n] = gen;
                    count += 1;
                }
            }
            q = self.next[q] as Point;
            if q == p {
                break;
            }
        }
        count
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in (0..self.size).rev() {
            for col in 0..self.size {
                let ch = match self.cells[Self::point_at(col, row)] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
