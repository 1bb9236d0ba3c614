//! Random playouts: uniformly chosen legal moves that do not fill the
//! mover's own eyes, until both players pass. Used to exercise the board
//! (the allocation and consistency tests), and as a cheap benchmark of
//! play/undo speed.

use super::board::{Board, Point, Undo, BORDER, PASS};
use super::color::Color;
use arrayvec::ArrayVec;

/// Most moves one playout keeps undo records for; longer playouts stop.
pub const MAX_PLAYOUT: usize = 2048;

/// A small deterministic generator (xorshift64), so playouts repeat exactly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Whether `p` is an empty point all of whose neighbours are `color`'s
/// stones (or the edge) with at most one bad diagonal in the centre and
/// none on the edge: a point that filling could only hurt.
pub fn is_true_eye(board: &Board, color: Color, p: Point) -> bool {
    if !board.is_empty(p) {
        return false;
    }
    let own = color.cell();
    for n in Board::neighbors(p) {
        let c = board.cell(n);
        if c != own && c != BORDER {
            return false;
        }
    }
    let mut bad = 0;
    let mut edge = false;
    for d in Board::diagonals(p) {
        match board.cell(d) {
            BORDER => edge = true,
            c if c == own => {}
            c if c == color.opp().cell() => bad += 1,
            _ => {
                // An empty diagonal counts as bad unless it is itself an eye.
                if !Board::neighbors(d)
                    .iter()
                    .all(|&n| board.cell(n) == own || board.cell(n) == BORDER)
                {
                    bad += 1;
                }
            }
        }
    }
    if edge {
        bad == 0
    } else {
        bad <= 1
    }
}

/// Plays random moves from the current position until two passes in a row
/// (or `MAX_PLAYOUT` moves), pushing every undo record onto `undos`.
/// Returns the number of moves played. Allocation-free.
pub fn playout(board: &mut Board, rng: &mut Rng, undos: &mut ArrayVec<Undo, MAX_PLAYOUT>) -> usize {
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && !undos.is_full() {
        let color = board.to_move();
        let chosen = random_move(board, color, rng, |_, _| false);
        passes = if chosen == PASS { passes + 1 } else { 0 };
        undos.push(board.play(color, chosen));
        moves += 1;
    }
    moves
}

/// A random legal move for `color` that does not fill its own true eye and
/// that `reject` does not refuse, found by scanning the board from a random
/// point; `PASS` when there is none.
pub fn random_move(
    board: &Board,
    color: Color,
    rng: &mut Rng,
    reject: impl Fn(&Board, Point) -> bool,
) -> Point {
    let size = board.size();
    let n = size * size;
    let start = rng.below(n);
    for i in 0..n {
        let k = (start + i) % n;
        let p = Board::point_at(k % size, k / size);
        if board.is_empty(p)
            && board.is_legal(color, p)
            && !is_true_eye(board, color, p)
            && !reject(board, p)
        {
            return p;
        }
    }
    PASS
}

/// Takes back every move recorded in `undos`, newest first.
pub fn unwind(board: &mut Board, undos: &mut ArrayVec<Undo, MAX_PLAYOUT>) {
    while let Some(u) = undos.pop() {
        board.undo(&u);
    }
}
