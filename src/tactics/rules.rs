//! The capture game: the rules every tactical solver of tesuji (and the
//! exhaustive reference that checks them) plays by, so that "the block can
//! be captured" has one precise meaning.
//!
//! * The *attacker* wins when the target block is removed from the board.
//! * The *defender* wins when the target block has `escape_libs` liberties
//!   or more (5 by default, the limit beyond which GNU Go's tactical reading
//!   also stops attacking), when both players pass in a row, or when a whole
//!   game state repeats on the path (an endless cycle never captures).
//! * Both players may pass; simple ko holds, except for a *favoured* player
//!   (see [`KoModel`]) who may retake a ko at once, as a player with ko
//!   threats to spare could.
//!
//! GNU Go's ko result codes come from solving under three ko models (see
//! `ko_code` in the solver): win when the opponent is favoured (code 1,
//! unconditional), when nobody is (code 2: the opponent needs the first ko
//! threat), or only when the mover is favoured (code 3: the mover needs a ko
//! threat). Codes and their meaning follow GNU Go 3.8's documentation of
//! `attack`/`defend`.
//!
//! Whole-state repetition depends on the path that led to a position, so a
//! result that used it is *path-dependent*: the solvers never store such a
//! result in a transposition table as if it held for the position alone
//! (the graph-history interaction problem, Kishimoto & Müller, seed 000).

use crate::go::board::{Board, Point, Undo, PASS};
use crate::go::zobrist;
use crate::go::Color;
use arrayvec::ArrayVec;

/// Deepest line the capture game follows; a longer line is cut as a
/// failure to capture, and marked path-dependent so it is never stored as
/// a proof.
pub const MAX_DEPTH: usize = 512;

/// Default liberty count at which the target block has escaped.
pub const DEFAULT_ESCAPE_LIBS: usize = 5;

/// Who, if anyone, may ignore the simple-ko ban.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KoModel {
    pub favoured: Option<Color>,
}

/// A capture question about the block containing `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    pub target: Point,
    pub attacker: Color,
    pub escape_libs: usize,
}

impl Problem {
    /// The problem for the block on `target` (which must hold a stone).
    pub fn new(board: &Board, target: Point) -> Option<Problem> {
        let defender = board.color_at(target)?;
        Some(Problem {
            target,
            attacker: defender.opp(),
            escape_libs: DEFAULT_ESCAPE_LIBS,
        })
    }

    pub fn defender(&self) -> Color {
        self.attacker.opp()
    }
}

/// Who won a finished line of the capture game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Attacker,
    Defender,
}

/// What happened when a move was tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Not allowed here; nothing changed.
    Illegal,
    /// Played; the game goes on (or is over: see [`CaptureGame::winner`]).
    Played,
}

struct Frame {
    undo: Undo,
    key: u64,
    passes: u8,
}

/// The capture game in progress: a board, the problem, the ko model and the
/// line played from the root (for undo and repetition).
pub struct CaptureGame {
    board: Board,
    problem: Problem,
    model: KoModel,
    to_move: Color,
    passes: u8,
    path: ArrayVec<Frame, MAX_DEPTH>,
    /// Set when the last move closed a cycle or reached `MAX_DEPTH`.
    cut: bool,
}

impl CaptureGame {
    /// Starts from `board` with `to_move` to play. The board's own ko ban
    /// (from the real game's last move) is kept.
    pub fn new(board: &Board, problem: Problem, model: KoModel, to_move: Color) -> CaptureGame {
        let mut board = board.clone();
        board.set_to_move(to_move);
        CaptureGame {
            board,
            problem,
            model,
            to_move,
            passes: 0,
            path: ArrayVec::new(),
            cut: false,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    pub fn model(&self) -> KoModel {
        self.model
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves played since the root.
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The moves played since the root, in order (`PASS` for passes).
    pub fn path_moves(&self) -> impl Iterator<Item = Point> + '_ {
        self.path.iter().map(|f| f.undo.point())
    }

    /// A key for the whole game state: stones, player to move, the ko ban
    /// and whether the last move was a pass. Equal keys mean equal futures.
    pub fn key(&self) -> u64 {
        let mut k = self.board.hash();
        if self.to_move == Color::White {
            k ^= zobrist::WHITE_TO_MOVE;
        }
        if let Some(ko) = self.board.ko_point(self.to_move) {
            k ^= zobrist::KO_BASE.wrapping_mul(ko as u64 + 1);
        }
        if self.passes > 0 {
            k = k.rotate_left(17) ^ 0x5A55_5A55_0000_0001;
        }
        k
    }

    /// The winner if the line is over, else `None`.
    pub fn winner(&self) -> Option<Winner> {
        let t = self.problem.target;
        if self.board.color_at(t) != Some(self.problem.defender()) {
            return Some(Winner::Attacker);
        }
        if self.cut || self.passes >= 2 || self.board.libs(t) >= self.problem.escape_libs {
            return Some(Winner::Defender);
        }
        None
    }

    /// Whether the result of the last move depended on the path: it closed
    /// a cycle or hit the depth limit.
    pub fn last_was_cut(&self) -> bool {
        self.cut
    }

    /// Whether the player to move may play `p` (or pass) under the ko model.
    pub fn is_legal(&self, p: Point) -> bool {
        let c = self.to_move;
        if self.model.favoured == Some(c) {
            self.board.check_ignoring_ko(c, p).is_ok()
        } else {
            self.board.check(c, p).is_ok()
        }
    }

    /// Plays `p` (or `PASS`) for the player to move.
    pub fn play(&mut self, p: Point) -> Step {
        if self.winner().is_some() || !self.is_legal(p) || self.path.is_full() {
            return Step::Illegal;
        }
        let key = self.key();
        let undo = self.board.play(self.to_move, p);
        self.path.push(Frame {
            undo,
            key,
            passes: self.passes,
        });
        self.passes = if p == PASS { self.passes + 1 } else { 0 };
        self.to_move = self.to_move.opp();
        let now = self.key();
        self.cut = self.path.is_full() || self.path.iter().any(|f| f.key == now);
        Step::Played
    }

    /// A *null move*: the player to move gives the turn away without it
    /// counting as a pass for the two-pass rule, and no ko ban remains.
    /// Threat searches use it to ask "what if the opponent moved again?";
    /// the position it leads to is the one a stone of the player to move
    /// far away would lead to, less that stone. Undone by [`Self::undo`].
    pub fn play_null(&mut self) -> Step {
        if self.winner().is_some() || self.path.is_full() {
            return Step::Illegal;
        }
        let key = self.key();
        let undo = self.board.play(self.to_move, PASS);
        self.path.push(Frame {
            undo,
            key,
            passes: self.passes,
        });
        self.passes = 0;
        self.to_move = self.to_move.opp();
        let now = self.key();
        self.cut = self.path.is_full() || self.path.iter().any(|f| f.key == now);
        Step::Played
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        if let Some(f) = self.path.pop() {
            self.board.undo(&f.undo);
            self.passes = f.passes;
            self.to_move = self.to_move.opp();
            self.cut = false;
        }
    }
}

impl CaptureGame {
    /// Every move the player to move may make here, pass last (empty when
    /// the line is over).
    pub fn moves(&self, out: &mut crate::go::board::PointList) {
        out.clear();
        if self.winner().is_some() {
            return;
        }
        for p in self.board.points() {
            if self.board.is_empty(p) && self.is_legal(p) {
                out.push(p);
            }
        }
        // A pass needs room in the list: the largest board has 625 points,
        // which can never all be empty and legal with a block on the board.
        let _ = out.try_push(PASS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::PointList;

    fn at(c: usize, r: usize) -> Point {
        Board::point_at(c, r)
    }

    /// White stone on B2 of a 3x3 board, black on A2: the attacker captures
    /// in two moves, the defender escapes only if the threshold is low.
    #[test]
    fn capture_and_escape() {
        let mut b = Board::new(3);
        b.play(Color::White, at(1, 1));
        b.play(Color::Black, at(0, 1));
        let mut problem = Problem::new(&b, at(1, 1)).unwrap();
        assert_eq!(problem.attacker, Color::Black);
        let model = KoModel { favoured: None };
        let mut g = CaptureGame::new(&b, problem, model, Color::Black);
        assert_eq!(g.winner(), None);
        for p in [at(1, 0), at(2, 1)] {
            assert_eq!(g.play(p), Step::Played);
            assert_eq!(g.play(PASS), Step::Played);
        }
        assert_eq!(g.play(at(1, 2)), Step::Played);
        assert_eq!(g.winner(), Some(Winner::Attacker));
        assert_eq!(g.play(at(0, 0)), Step::Illegal, "no move after the end");
        problem.escape_libs = 3;
        let g = CaptureGame::new(&b, problem, model, Color::Black);
        assert_eq!(g.winner(), Some(Winner::Defender));
    }

    #[test]
    fn two_passes_end_and_undo_restores() {
        let mut b = Board::new(5);
        b.play(Color::White, at(2, 2));
        let problem = Problem::new(&b, at(2, 2)).unwrap();
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured: None }, Color::Black);
        let key = g.key();
        g.play(PASS);
        assert_eq!(g.winner(), None);
        g.play(PASS);
        assert_eq!(g.winner(), Some(Winner::Defender));
        g.undo();
        g.undo();
        assert_eq!(g.key(), key);
        let mut moves = PointList::new();
        g.moves(&mut moves);
        assert_eq!(moves.len(), 24 + 1);
    }

    /// A ko: the unfavoured side may not retake at once, the favoured may.
    #[test]
    fn ko_model_decides_who_may_retake() {
        // . X O .
        // X O . O
        // . X O .
        let mut b = Board::new(4);
        for (c, r) in [(1, 3), (0, 2), (1, 1)] {
            b.set_point(at(c, r), Some(Color::Black));
        }
        for (c, r) in [(2, 3), (3, 2), (2, 1), (1, 2)] {
            b.set_point(at(c, r), Some(Color::White));
        }
        // Target: the white stone at C4 (col 2, row 3), black attacks.
        let problem = Problem::new(&b, at(2, 3)).unwrap();
        for (favoured, retake_ok) in [
            (None, false),
            (Some(Color::White), true),
            (Some(Color::Black), false),
        ] {
            let mut g = CaptureGame::new(&b, problem, KoModel { favoured }, Color::Black);
            assert_eq!(g.play(at(2, 2)), Step::Played, "black takes the ko");
            assert_eq!(
                g.is_legal(at(1, 2)),
                retake_ok,
                "white retake with {favoured:?}"
            );
        }
    }
}
