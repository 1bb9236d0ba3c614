//! The capture game: the rules every tactical solver of tesuji (and the
//! exhaustive reference that checks them) plays by, so that "the block can
//! be captured" has one precise meaning.
//!
//! * The *attacker* wins when the target block is removed from the board,
//!   except by a *ko capture* (one stone taken by a stone left with one
//!   liberty) while the defender is favoured: the defender may then retake
//!   at once, and the line goes on with the retaken stone as the target
//!   ([`CaptureGame::retake_pending`]). GNU Go likewise calls a capture
//!   that the opponent may retake a ko result (code 2), not an
//!   unconditional one: the defender with ko threats to spare gets the
//!   stone back.
//! * Nor does the attacker win by a *snapback*: a one-stone target taken
//!   where a defender stone on the target's point would at once take back
//!   the capturing stones and be left with two liberties or more
//!   ([`CaptureGame::snapback_pending`]). The defender may retake, under
//!   every ko model (the retake takes two stones or more, so it is no ko
//!   capture), and the line goes on as after a ko retake. GNU Go's
//!   reading (`attack1` in its `engine/reading.c`) counts such a capture
//!   as a failed attack, "proper snapback"; its `reading.tst` asks it in
//!   tests 175 and 180.
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

use crate::go::board::{Board, Point, Undo, BORDER, NUM_POINTS, PASS};
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
    /// `stones` and `path_max` before the move.
    stones: u16,
    path_max: u16,
}

/// Slots of the repetition filter (a power of two).
const FILTER_SLOTS: usize = 4096;

#[inline]
fn filter_slot(key: u64) -> usize {
    // The high bits: the transposition tables index by the low ones.
    (key >> 52) as usize & (FILTER_SLOTS - 1)
}

/// [`CaptureGame::key`] of a state: the board's stones and ko ban, the
/// player to move and the passes.
#[inline]
fn key_of(board: &Board, to_move: Color, passes: u8) -> u64 {
    let mut k = board.hash();
    if to_move == Color::White {
        k ^= zobrist::WHITE_TO_MOVE;
    }
    if let Some(ko) = board.ko_point(to_move) {
        k ^= zobrist::KO_BASE.wrapping_mul(ko as u64 + 1);
    }
    if passes > 0 {
        k = k.rotate_left(17) ^ 0x5A55_5A55_0000_0001;
    }
    k
}

/// The capture game in progress: a board, the problem, the ko model and the
/// line played from the root (for undo and repetition).
pub struct CaptureGame {
    board: Board,
    problem: Problem,
    model: KoModel,
    to_move: Color,
    passes: u8,
    /// A fixed array, not a `Vec`: a game is built for every search, and
    /// a solve allocates nothing after its setup (`tests/alloc_dfpn.rs`).
    path: ArrayVec<Frame, MAX_DEPTH>,
    /// Set when the last move closed a cycle or reached `MAX_DEPTH`.
    cut: bool,
    /// The current state's [`CaptureGame::key`], kept up to date.
    key: u64,
    /// Stones on the board.
    stones: u16,
    /// The most stones of any state on the path (before each move): a
    /// state with more repeats none of them.
    path_max: u16,
    /// How many keys of `path` fall in each slot: a state whose slot is
    /// empty repeats nothing on the path, so the path is scanned only on a
    /// slot hit (a repetition, or rarely another key sharing the slot).
    filter: [u16; FILTER_SLOTS],
}

impl CaptureGame {
    /// Starts from `board` with `to_move` to play. The board's own ko ban
    /// (from the real game's last move) is kept.
    /// Inlined, and built as one value from the caller's `board`: a game
    /// is made for every search, and a copy of the board made first, or a
    /// game built first and then finished, would be copied again.
    #[inline(always)]
    pub fn new(board: &Board, problem: Problem, model: KoModel, to_move: Color) -> CaptureGame {
        // The board's player to move bears on neither its hash, its ko
        // point nor its stones: they are read from the caller's board.
        let [black, white] = board.stone_counts();
        let mut g = CaptureGame {
            board: board.clone(),
            problem,
            model,
            to_move,
            passes: 0,
            path: ArrayVec::new(),
            cut: false,
            key: key_of(board, to_move, 0),
            stones: (black + white) as u16,
            path_max: 0,
            filter: [0; FILTER_SLOTS],
        };
        g.board.set_to_move(to_move);
        debug_assert_eq!(g.key, g.compute_key());
        g
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

    /// Plays `p` for `color` on the board alone, outside the line (no
    /// path entry, no repetition check, no key), lets `look` read or play
    /// on from there, and takes the move back: for a look at positions
    /// the line's rules do not bear on. `p` must pass
    /// [`Board::check_ignoring_ko`], and `look` must leave the board as
    /// it found it.
    pub fn peek<R>(&mut self, color: Color, p: Point, look: impl FnOnce(&mut Board) -> R) -> R {
        let u = self.board.play(color, p);
        let r = look(&mut self.board);
        self.board.undo(&u);
        r
    }

    /// A key for the whole game state: stones, player to move, the ko ban
    /// and whether the last move was a pass. Equal keys mean equal futures.
    #[inline]
    pub fn key(&self) -> u64 {
        debug_assert_eq!(self.key, self.compute_key(), "cached key");
        self.key
    }

    /// [`CaptureGame::key`] computed from the state.
    #[inline]
    fn compute_key(&self) -> u64 {
        key_of(&self.board, self.to_move, self.passes)
    }

    /// The winner if the line is over, else `None`.
    #[inline]
    pub fn winner(&self) -> Option<Winner> {
        let t = self.problem.target;
        if self.board.color_at(t) != Some(self.problem.defender()) {
            if self.retake_pending() {
                return None;
            }
            return Some(Winner::Attacker);
        }
        if self.cut || self.passes >= 2 || self.board.libs(t) >= self.problem.escape_libs {
            return Some(Winner::Defender);
        }
        None
    }

    /// Whether the attacker has just taken the target by a ko capture and
    /// the defender, favoured by the ko model, may retake it at once: the
    /// target point is empty, the defender is to move and its ko ban is on
    /// the target point. The line is not over; a defender move other than
    /// the retake leaves the target captured (the ban is gone after it).
    /// Also true after a snapback ([`Self::snapback_pending`]), under every
    /// model.
    #[inline]
    pub fn retake_pending(&self) -> bool {
        (self.defender_may_retake() && self.taken_by_ko_capture()) || self.snapback_pending()
    }

    /// Whether the attacker has just taken a one-stone target into a
    /// snapback: the target point is empty with the defender to move and
    /// no ko ban on it, every neighbour of it is an attacker stone or off
    /// the board (so the target was one stone: a bigger one would leave an
    /// empty point next to it), and a defender stone there would take
    /// attacker blocks in atari next to it and so have two liberties or
    /// more. A fact of the position, so that table entries stay sound: the
    /// line is over otherwise once the target is off the board, so such a
    /// position only ever follows the capture.
    #[inline]
    pub fn snapback_pending(&self) -> bool {
        let d = self.problem.defender();
        let t = self.problem.target;
        let b = &self.board;
        if self.to_move != d || !b.is_empty(t) || b.ko_point(d) == Some(t) {
            return false;
        }
        let a = self.problem.attacker;
        let mut retake_libs = 0;
        for n in Board::neighbors(t) {
            if b.cell(n) == BORDER {
                continue;
            }
            if b.color_at(n) != Some(a) {
                return false;
            }
            retake_libs += usize::from(b.libs(n) == 1);
        }
        retake_libs >= 2
    }

    /// Whether the attacker's capture of the target at its last liberty
    /// `lib` leads to a snapback ([`Self::snapback_pending`]): the target
    /// is one stone, the move takes nothing else, and its block (the
    /// stone with the attacker blocks next to it) is left with the
    /// target's point as its only liberty and touches that point at two
    /// or more stones.
    pub fn is_snapback_capture(&self, lib: Point) -> bool {
        let b = &self.board;
        let t = self.problem.target;
        let a = self.problem.attacker;
        if b.block_size(t) != 1 || b.libs(t) != 1 {
            return false;
        }
        // The stone's block keeps a liberty besides the target's point
        // when the stone has an empty neighbour, joins a block with
        // another liberty, or takes another block.
        let mut joined = [PASS; 4];
        for (i, n) in Board::neighbors(lib).into_iter().enumerate() {
            match b.color_at(n) {
                _ if n == t => {}
                None if b.cell(n) == BORDER => {}
                None => return false,
                Some(c) if c == a => {
                    if b.libs(n) != 1 {
                        return false;
                    }
                    joined[i] = b.block(n);
                }
                Some(_) => {
                    if b.libs(n) == 1 {
                        return false;
                    }
                }
            }
        }
        // Stones of that block next to the target's point: the stone
        // itself, and every attacker neighbour of the point in a block it
        // joins.
        let touching = Board::neighbors(t)
            .into_iter()
            .filter(|&n| n == lib || (b.color_at(n) == Some(a) && joined.contains(&b.block(n))))
            .count();
        touching >= 2
    }

    /// Whether the ko model favours the defender, so that it may retake
    /// the target after a ko capture of it: the one case in which
    /// capturing the target does not end the line.
    #[inline]
    pub fn defender_may_retake(&self) -> bool {
        self.model.favoured == Some(self.problem.defender())
    }

    /// Whether the attacker's capture of the target at its last liberty
    /// `lib` ends the line: always, except for a ko capture of a one-stone
    /// target while the defender is favoured (see [`Self::retake_pending`]).
    /// A ko capture takes exactly one stone with a stone that joins no
    /// block and has no other liberty, as the board sets a ko ban: every
    /// other neighbour of `lib` is off the board or a defender stone that
    /// keeps a liberty.
    /// Nor does a capture into a snapback ([`Self::is_snapback_capture`]),
    /// under any model.
    pub fn capture_is_final(&self, lib: Point) -> bool {
        (!self.defender_may_retake() || !self.is_target_ko_capture(lib))
            && !self.is_snapback_capture(lib)
    }

    /// Whether capturing the target at its last liberty `lib` is a ko
    /// capture of a one-stone target, whatever the model: a win by it
    /// holds only under a model that does not let the defender retake.
    pub fn is_target_ko_capture(&self, lib: Point) -> bool {
        let d = self.problem.defender();
        let t = self.problem.target;
        if self.board.block_size(t) != 1 {
            return false;
        }
        let b = &self.board;
        Board::neighbors(lib)
            .iter()
            .all(|&n| n == t || b.cell(n) == BORDER || (b.color_at(n) == Some(d) && b.libs(n) >= 2))
    }

    /// Whether the attacker has just taken the target by a ko capture
    /// (the defender, to move, is banned from the target point), whatever
    /// the model: see [`Self::is_target_ko_capture`].
    pub fn taken_by_ko_capture(&self) -> bool {
        let d = self.problem.defender();
        let t = self.problem.target;
        self.to_move == d && self.board.is_empty(t) && self.board.ko_point(d) == Some(t)
    }

    /// Whether the result of the last move depended on the path: it closed
    /// a cycle or hit the depth limit.
    pub fn last_was_cut(&self) -> bool {
        self.cut
    }

    /// Whether the player to move may play `p` (or pass) under the ko model.
    #[inline]
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
        self.step(p, false)
    }

    /// [`Self::play`] of a move that [`Self::is_legal`] has just approved
    /// in this very position: the other checks of [`Self::play`], not that
    /// one again (the threat searches ask it of every move they try, to
    /// read an illegal move's point too).
    #[inline]
    pub fn play_approved(&mut self, p: Point) -> Step {
        debug_assert!(self.is_legal(p), "play_approved of an illegal move");
        self.step_approved(p, false)
    }

    /// [`Self::play`], or with `null` the null move.
    #[inline]
    fn step(&mut self, p: Point, null: bool) -> Step {
        if !self.is_legal(p) {
            return Step::Illegal;
        }
        self.step_approved(p, null)
    }

    /// [`Self::step`] of a move legal under the ko model: the line must
    /// still be on and the path have room.
    #[inline]
    fn step_approved(&mut self, p: Point, null: bool) -> Step {
        if self.winner().is_some() || self.path.is_full() {
            return Step::Illegal;
        }
        self.step_legal(p, null);
        Step::Played
    }

    /// Plays `p` (or `PASS`) for the player to move, known to be a legal
    /// step: the line is on, the path has room and the move is legal under
    /// the ko model (a search replaying a move it generated as legal from
    /// the same position). Debug builds check it; release builds trust the
    /// caller and skip the checks [`Self::play`] makes.
    #[inline]
    pub fn play_legal(&mut self, p: Point) {
        debug_assert!(
            self.winner().is_none() && self.is_legal(p) && !self.path.is_full(),
            "play_legal of a move play would refuse"
        );
        self.step_legal(p, false);
    }

    /// The body of [`Self::step`] once the step is known to be legal.
    #[inline]
    fn step_legal(&mut self, p: Point, null: bool) {
        let key = self.key;
        self.path.push(Frame {
            undo: Undo::NONE,
            key,
            passes: self.passes,
            stones: self.stones,
            path_max: self.path_max,
        });
        let prisoners = self.board.prisoners(self.to_move);
        if let Some(f) = self.path.last_mut() {
            // In place: copying a fresh record would cost more.
            self.board.play_into(self.to_move, p, &mut f.undo);
        }
        let captured = self.board.prisoners(self.to_move) - prisoners;
        self.path_max = self.path_max.max(self.stones);
        self.stones = self.stones + (p != PASS) as u16 - captured as u16;
        self.filter[filter_slot(key)] += 1;
        self.passes = if p == PASS && !null {
            self.passes + 1
        } else {
            0
        };
        self.to_move = self.to_move.opp();
        let now = self.compute_key();
        self.key = now;
        self.cut = self.path.is_full() || (self.path_max >= self.stones && self.on_path(now));
    }

    /// A *null move*: the player to move gives the turn away without it
    /// counting as a pass for the two-pass rule, and no ko ban remains.
    /// Threat searches use it to ask "what if the opponent moved again?";
    /// the position it leads to is the one a stone of the player to move
    /// far away would lead to, less that stone. Undone by [`Self::undo`].
    pub fn play_null(&mut self) -> Step {
        self.step(PASS, true)
    }

    /// Whether a state on the path has the key `key`.
    #[inline]
    fn on_path(&self, key: u64) -> bool {
        self.filter[filter_slot(key)] != 0 && self.path.iter().any(|f| f.key == key)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        if let Some(f) = self.path.pop() {
            self.board.undo(&f.undo);
            self.filter[filter_slot(f.key)] -= 1;
            self.key = f.key;
            self.passes = f.passes;
            self.stones = f.stones;
            self.path_max = f.path_max;
            self.to_move = self.to_move.opp();
            self.cut = false;
        }
    }
}

/// What a quiet move would lead to (see [`CaptureGame::quiet`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// [`CaptureGame::key`] after the move.
    pub key: u64,
    /// Liberties of the moved stone's block after the move, counted up to
    /// 2 (2: two or more).
    pub libs: usize,
    /// [`CaptureGame::last_was_cut`] after the move.
    pub cut: bool,
}

impl CaptureGame {
    /// What playing `p` would lead to, found without playing it, when `p`
    /// is a *quiet* move: a legal move on the board (not a pass) that
    /// captures nothing and touches no stone of the target block, played
    /// while the game is on and the path has room. After such a move the
    /// target block, its liberties and every other block but the mover's
    /// are as they were, the opponent is to move, no ko ban holds and the
    /// last move was no pass: only the key, the moved stone's liberties and
    /// whether the line is cut are new, and they are returned. `None` when
    /// the move is not quiet, or rarely when the liberties of the moved
    /// stone would need a walk over the blocks it joins (see
    /// [`Board::libs_after_quiet`]): the move must be played.
    #[inline]
    pub fn quiet(&self, p: Point) -> Option<Quiet> {
        let b = &self.board;
        if p == PASS
            || p >= NUM_POINTS
            || !b.is_empty(p)
            || self.path.is_full()
            || self.winner().is_some()
        {
            return None;
        }
        let mover = self.to_move;
        let libs = b.libs_after_quiet(mover, p, self.problem.target)?;
        if libs == 0 {
            return None; // suicide
        }
        debug_assert!(self.is_legal(p), "a quiet move is legal");
        let (key, cut) = self.after_stone(p);
        Some(Quiet { key, libs, cut })
    }

    /// [`CaptureGame::key`] and [`CaptureGame::last_was_cut`] after `p`,
    /// found without playing it: `p` must be a legal move on the board that
    /// captures nothing, played while the game is on and the path has room.
    #[inline]
    pub fn after_stone(&self, p: Point) -> (u64, bool) {
        let key = self.key_after_stone(p);
        // As `play` finds it: with the current state on the path, whose
        // stones are one fewer.
        let cut =
            self.path.len() + 1 == MAX_DEPTH || (self.path_max > self.stones && self.on_path(key));
        (key, cut)
    }

    /// The key part of [`CaptureGame::after_stone`], on the same terms
    /// (for a prefetch, which needs no cut).
    #[inline]
    pub fn key_after_stone(&self, p: Point) -> u64 {
        debug_assert!(p != PASS && self.is_legal(p) && !self.path.is_full());
        debug_assert!(self.winner().is_none() && !self.board.captures_something(self.to_move, p));
        let mover = self.to_move;
        // `compute_key` of the state after the move: no ko ban, no pass.
        let mut key = self.board.hash() ^ zobrist::STONE[mover.index()][p];
        if mover.opp() == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        key
    }

    /// [`CaptureGame::key`] and [`CaptureGame::last_was_cut`] after a
    /// pass, found without playing it, and whether the pass is the second
    /// in a row (which ends the game). The game must be on and the path
    /// must have room.
    #[inline]
    pub fn after_pass(&self) -> (u64, bool, bool) {
        debug_assert!(self.winner().is_none() && !self.path.is_full());
        // `compute_key` of the state after the pass: no ko ban, a pass.
        let mut key = self.board.hash();
        if self.to_move.opp() == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        key = key.rotate_left(17) ^ 0x5A55_5A55_0000_0001;
        // As `play` finds it: a pass keeps the stones, so any state of the
        // path, the current one included, could come back.
        let cut = self.path.len() + 1 == MAX_DEPTH || key == self.key || self.on_path(key);
        (key, cut, self.passes > 0)
    }

    /// Whether the path has room for one more move (a full path makes
    /// every move illegal).
    pub fn has_room(&self) -> bool {
        !self.path.is_full()
    }

    /// Every move the player to move may make here, pass last (empty when
    /// the line is over).
    pub fn moves(&self, out: &mut crate::go::board::PointList) {
        out.clear();
        if self.winner().is_some() {
            return;
        }
        let b = &self.board;
        let n = b.size();
        for row in 0..n {
            let first = Board::point_at(0, row);
            for p in first..first + n {
                if !b.is_empty(p) {
                    continue;
                }
                // A point with an empty neighbour is no suicide, and no ko
                // point either (the stone that took the ko and the stones
                // around the taken one surround it).
                let free = Board::neighbors(p).iter().any(|&q| b.is_empty(q));
                debug_assert!(!free || self.is_legal(p), "free point legal");
                if free || self.is_legal(p) {
                    out.push(p);
                }
            }
        }
        // A pass needs room in the list: the largest board has 625 points,
        // which can never all be empty and legal with a block on the board.
        let _ = out.try_push(PASS);
    }
}

#[cfg(test)]
#[path = "tests_rules.rs"]
mod tests;
