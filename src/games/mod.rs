//! Two-player perfect-information games on fixed boards, behind one trait,
//! [`Game`], that every generic solver and the GoGui ruler protocol use.
//!
//! The shape follows the board libraries of the chess world (shakmaty,
//! cozy-chess): a position is a fixed-size value, moves are `Copy` and go
//! into a fixed-capacity [`MoveList`], and nothing on the hot paths (move
//! generation, play, undo, hashing, outcome) touches the heap. A game may
//! implement undo by copy-make: its [`Game::Undo`] can be the whole old
//! position when that is small.
//!
//! Conventions shared by every game:
//!
//! * The first player is [`Color::Black`], the second [`Color::White`]
//!   (GoGui draws them so).
//! * [`Game::outcome`] is from the view of the player to move. A position is
//!   terminal exactly when `outcome` is `Some`; a non-terminal position has
//!   at least one legal move.
//! * [`Game::key`] is a Zobrist-style hash of everything that decides the
//!   rest of the game, the player to move included, so two positions with
//!   the same key may share a transposition-table entry.
//! * Moves print and parse as GTP vertices ([`Game::format_move`],
//!   [`Game::parse_move`]); each game documents its notation.

pub mod domineering;
pub mod go;
pub mod mnk;
pub mod nogo;
pub mod session;
pub mod spec;

pub use crate::go::Color;
use arrayvec::ArrayVec;
use std::fmt::Debug;
use std::hash::Hash;

/// Capacity of a [`MoveList`]: more than any supported game can have
/// (19×19 Go has 362 moves with the pass; Domineering on 19×19, 342).
pub const MAX_MOVES: usize = 512;

/// The legal moves of a position, in the game's fixed generation order.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// How a finished game ended, from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    /// The same result seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// What a board cell shows in GoGui's ruler protocol
/// (`gogui-rules_board`): a stone, nothing, or a cell that is not part of
/// the game's board (a rectangle drawn inside a square).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Stone(Color),
    Removed,
}

/// Bound of [`Game::evaluate`]: heuristic values lie strictly inside
/// `(-EVAL_MAX, EVAL_MAX)`, so a search can place proven wins and losses
/// beyond it.
pub const EVAL_MAX: i32 = 1_000_000;

/// The position after a move as [`Game::child_info`] describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildInfo {
    /// [`Game::key`] there.
    pub key: u64,
    /// The player to move there.
    pub to_move: Color,
    /// [`Game::outcome`] there.
    pub outcome: Option<Outcome>,
    /// [`Game::mobility`] there when the game goes on, else 0.
    pub mobility: usize,
}

/// A two-player game with perfect information on a fixed board.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move; small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`Game::play`] returns so that [`Game::undo`] can take the move
    /// back.
    type Undo: Copy + Send + Sync + 'static;

    /// Whether every way from the start to a position takes the same
    /// number of moves (each move adds to the board, nothing is ever
    /// removed, nobody passes). Then all the parents of a node of a
    /// transposition search lie at one depth, which the best-first
    /// searches' incremental update relies on (see `solve::bestfirst`).
    const FIXED_DEPTH: bool = false;

    /// Whether [`Game::children_info`] is cheaper than asking
    /// [`Game::child_info`] child by child.
    const CHILDREN_AT_ONCE: bool = false;

    /// The game and board as [`spec`] parses them, e.g. `domineering:8x8`.
    fn spec(&self) -> String;

    /// The player to move.
    fn to_move(&self) -> Color;

    /// Hash of the position, the player to move included.
    fn key(&self) -> u64;

    /// Appends every legal move, in a fixed order, to `out` (which the
    /// caller clears). Empty exactly when the position is terminal.
    fn moves(&self, out: &mut MoveList<Self::Move>);

    /// The number of legal moves of the player to move (the mobility of
    /// the PNS and PP initialisations). Games override it when counting is
    /// cheaper than listing.
    fn mobility(&self) -> usize {
        let mut list = MoveList::new();
        self.moves(&mut list);
        list.len()
    }

    /// `Some` exactly when the game is over, from the view of the player
    /// to move.
    fn outcome(&self) -> Option<Outcome>;

    /// What the position after the legal move `m` looks like to a
    /// best-first search creating it as a leaf; `self` is unchanged
    /// afterwards. Every child of every expansion asks this, so games
    /// whose answer follows from a few bit operations override the
    /// play-ask-undo default.
    fn child_info(&mut self, m: Self::Move) -> ChildInfo {
        let undo = self.play(m);
        let outcome = self.outcome();
        let info = ChildInfo {
            key: self.key(),
            to_move: self.to_move(),
            outcome,
            mobility: if outcome.is_none() {
                self.mobility()
            } else {
                0
            },
        };
        self.undo(m, undo);
        info
    }

    /// [`Game::child_info`] of each of the legal moves `moves`, in order,
    /// into `out` (cleared first; the caller reserves [`MAX_MOVES`]). An
    /// expansion asks for every child at once, so games that can share
    /// work between siblings (NoGo analyses the blocks of the position
    /// once) override it.
    ///
    /// Searches call it only for games with [`Game::CHILDREN_AT_ONCE`]:
    /// elsewhere asking child by child, inline, is cheaper (a list of
    /// answers cost PP 14% more instructions on Domineering).
    fn children_info(&mut self, moves: &[Self::Move], out: &mut Vec<ChildInfo>) {
        out.clear();
        for &m in moves {
            out.push(self.child_info(m));
        }
    }

    /// Whether [`Game::each_child`] is cheaper than [`Game::moves`] and
    /// then [`Game::child_info`] move by move, and [`Game::mobility`]
    /// counts the moves without listing them: a game that reads its moves
    /// off a bit set lists them and their children in one loop, and a
    /// best-first search creating a tree's children runs that loop alone
    /// (Domineering).
    const EACH_CHILD: bool = false;

    /// Calls `f(m, self.child_info(m))` for each legal move `m`, in
    /// [`Game::moves`] order; `self` is unchanged afterwards.
    #[inline]
    fn each_child(&mut self, mut f: impl FnMut(Self::Move, ChildInfo)) {
        let mut moves = MoveList::new();
        self.moves(&mut moves);
        for &m in &moves {
            let c = self.child_info(m);
            f(m, c);
        }
    }

    /// Plays a legal move (one [`Game::moves`] lists). The result of
    /// playing an illegal move is unspecified but memory-safe.
    fn play(&mut self, m: Self::Move) -> Self::Undo;

    /// Takes back the last move `m`, given what playing it returned.
    fn undo(&mut self, m: Self::Move, undo: Self::Undo);

    /// [`Game::play`] for a search that asks nothing of the positions it
    /// passes through but [`Game::moves`], [`Game::mobility`],
    /// [`Game::outcome`], [`Game::to_move`] and [`Game::child_info`]'s
    /// outcome and mobility (a best-first search on a tree: no key, no
    /// display), and takes it back with [`Game::undo_quiet`]. Games may
    /// skip the rest of the bookkeeping (Domineering's four Zobrist keys
    /// and its record of who placed what) until then.
    #[inline]
    fn play_quiet(&mut self, m: Self::Move) -> Self::Undo {
        self.play(m)
    }

    /// Takes back a move of [`Game::play_quiet`]; afterwards the position
    /// is whole again.
    #[inline]
    fn undo_quiet(&mut self, m: Self::Move, undo: Self::Undo) {
        self.undo(m, undo)
    }

    /// The move that changes nothing but the player to move, in games that
    /// have one (the pass in Go). Threat searches use it.
    fn null_move(&self) -> Option<Self::Move> {
        None
    }

    /// A proven value of a non-terminal position for the player to move,
    /// when the game knows one without search (Domineering's safe-move
    /// counts). Solvers treat `Some` like a terminal outcome, so it must
    /// never be wrong; `None` says nothing.
    fn bound(&self) -> Option<Outcome> {
        None
    }

    /// A hash equal for positions that a symmetry of the board maps onto
    /// each other (same player to move), so that they share a
    /// transposition-table entry. Symmetric positions must have the same
    /// value and [`Game::evaluate`]; moves stored with such an entry are
    /// only ordering hints (a solver checks that they are legal here).
    fn canonical_key(&self) -> u64 {
        self.key()
    }

    /// Whether a game can end in a draw. Solvers that ask win-or-not
    /// questions skip the second question ("does the opponent win?") when
    /// it cannot; `true` is always safe.
    fn may_draw(&self) -> bool {
        true
    }

    /// Whether a position can recur during a game (Go: captures and
    /// passes). The depth-first solvers' tables assume positions never
    /// recur (their values would depend on the path, the graph-history
    /// interaction) and refuse games that return `true`.
    fn repeats(&self) -> bool {
        false
    }

    /// Whether [`Game::bound`] proves a non-terminal position lost for the
    /// player to move, and its [`Game::evaluate`], together: the
    /// depth-first solvers' look-ahead asks both of every child, and games
    /// whose two share work (or whose loss test is cheaper than the whole
    /// bound) answer faster. `false` is always sound.
    fn lost_and_evaluate(&self) -> (bool, i32) {
        (self.bound() == Some(Outcome::Loss), self.evaluate())
    }

    /// A heuristic value of the position for the player to move, strictly
    /// inside `(-EVAL_MAX, EVAL_MAX)`; larger is better for the mover.
    fn evaluate(&self) -> i32;

    /// The move as a GTP vertex (or `pass`).
    fn format_move(&self, m: Self::Move) -> String;

    /// The legal move a GTP vertex names in this position, if any.
    fn parse_move(&self, text: &str) -> Option<Self::Move>;

    /// Size of the square board GoGui shows: the game's board fills its
    /// lower-left corner, other cells are [`Cell::Removed`].
    fn display_size(&self) -> usize;

    /// The cell at column `col` (0 = A) and row `row` (0 = row 1, the
    /// bottom) of the displayed board.
    fn cell(&self, col: usize, row: usize) -> Cell;
}

/// GTP's column letters: `A` to `Z` without `I`.
pub const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Formats column `col` (0-based) and row `row` (0 = row 1) as a vertex.
pub fn vertex_name(col: usize, row: usize) -> String {
    format!("{}{}", COLUMN_LETTERS[col] as char, row + 1)
}

/// Parses a GTP vertex (case-insensitive) into (column, row), both
/// 0-based, with row 0 the bottom row. `pass` is not a vertex here.
pub fn parse_vertex(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (&first, digits) = bytes.split_first()?;
    let col = COLUMN_LETTERS
        .iter()
        .position(|&c| c == first.to_ascii_uppercase())?;
    if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    if row == 0 {
        return None;
    }
    Some((col, row - 1))
}

/// Names cell `index` of a row-major board `cols` wide (row 0 the bottom
/// row) as a vertex: the boards of NoGo, Domineering and m,n,k number their
/// cells this way.
pub fn cell_name(index: usize, cols: usize) -> String {
    vertex_name(index % cols, index / cols)
}

/// The row-major index of the cell a vertex names on a `rows`×`cols`
/// board, or `None` for a malformed vertex or one off the board.
pub fn parse_cell(text: &str, rows: usize, cols: usize) -> Option<usize> {
    let (c, r) = parse_vertex(text)?;
    (c < cols && r < rows).then_some(r * cols + c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        assert_eq!(parse_cell("C2", 4, 5), Some(7));
        assert_eq!(cell_name(7, 5), "C2");
        assert_eq!(parse_cell("F1", 4, 5), None);
        assert_eq!(parse_cell("A5", 4, 5), None);
        assert_eq!(parse_cell("pass", 4, 5), None);
    }

    #[test]
    fn vertices_round_trip() {
        assert_eq!(parse_vertex("A1"), Some((0, 0)));
        assert_eq!(parse_vertex("j10"), Some((8, 9)));
        assert_eq!(parse_vertex("I3"), None);
        assert_eq!(parse_vertex("A0"), None);
        assert_eq!(parse_vertex("A"), None);
        assert_eq!(parse_vertex("A123"), None);
        assert_eq!(vertex_name(8, 9), "J10");
    }

    /// What the default [`Game::child_info`] computes, written out.
    fn played_child_info<G: Game>(g: &mut G, m: G::Move) -> ChildInfo {
        let u = g.play(m);
        let outcome = g.outcome();
        let info = ChildInfo {
            key: g.key(),
            to_move: g.to_move(),
            outcome,
            mobility: if outcome.is_none() { g.mobility() } else { 0 },
        };
        g.undo(m, u);
        info
    }

    /// Games that override `child_info` agree with playing the move, on
    /// every move of every position of pseudo-random games.
    fn child_info_agrees<G: Game>(start: G, games: usize) {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..games {
            let mut g = start.clone();
            loop {
                let mut list = MoveList::new();
                g.moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let mut all = Vec::new();
                g.children_info(&list, &mut all);
                assert_eq!(all.len(), list.len());
                let mut each = Vec::new();
                g.each_child(|m, c| each.push((m, c)));
                assert_eq!(each.len(), list.len());
                assert_eq!(g.mobility(), list.len());
                for (i, &m) in list.iter().enumerate() {
                    let before = g.key();
                    let played = played_child_info(&mut g, m);
                    assert_eq!(g.child_info(m), played);
                    assert_eq!(all[i], played);
                    assert!(each[i].0 == m && each[i].1 == played);
                    assert_eq!(g.key(), before);
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = list[(seed >> 33) as usize % list.len()];
                g.play(m);
            }
        }
    }

    #[test]
    fn child_info_of_domineering_matches_play() {
        for (r, c) in [(5, 6), (6, 5), (7, 6), (8, 8), (3, 11)] {
            child_info_agrees(domineering::Domineering::new(r, c), 20);
        }
    }

    #[test]
    fn child_info_default_of_other_games() {
        child_info_agrees(nogo::NoGo::new(4, 4), 5);
        // NoGo's own `children_info`, in a u64 and in a u128 word.
        for (r, c) in [(4, 4), (5, 5), (3, 7), (22, 1), (9, 9), (11, 11)] {
            child_info_agrees(nogo::NoGo::new(r, c), 10);
        }
        child_info_agrees(mnk::Mnk::new(4, 4, 3, false), 5);
    }
}
